"""The page's language: ?lang=es or ?lang=zh in the address (kept in every link the menu
draws), else the browser's language when it is one of the three, else English.

`start` runs once at the top of every page (`frame.page`): it fixes the language for the
run, so the thousands of `_()` calls a page makes read one variable (``attn_ui.page_style``
then sets the page's ``<html lang>``: a screen reader picks its voice from it). A fragment's
rerun has no `start`: there the language is read from the address again (`attn_lessons.i18n`
asks `_from_page`).
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from attn_lessons import i18n

PARAM = "lang"


def _from_page() -> str:
    """?lang= when it names one of the languages, else the browser's, else English (also
    where no page is running: a script, a thread of its own, a test below the page)."""
    if get_script_run_ctx(suppress_warning=True) is None:
        return i18n.DEFAULT
    chosen = i18n.normal(st.query_params.get(PARAM))
    if chosen:
        return chosen
    return i18n.normal(st.context.locale) or i18n.DEFAULT


i18n.set_resolver(_from_page)


def start() -> str:
    """Fix this run's language (see the module's words). Returns it."""
    lang = _from_page()
    i18n._chosen.set(lang)
    return lang


def link_params() -> dict[str, str]:
    """What every link the app draws carries: the chosen language, when the address names
    one (without one, the next page reads the browser's again)."""
    chosen = i18n.normal(st.query_params.get(PARAM))
    return {PARAM: chosen} if chosen else {}


def href(path: str) -> str:
    """A link to one of the app's pages, in the page's language when the address names it."""
    params = link_params()
    if not params:
        return path
    return f"{path}{'&' if '?' in path else '?'}{PARAM}={params[PARAM]}"
