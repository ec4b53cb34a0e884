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
from attn_ui import settings

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


# A page whose language changed within a session (the menu's choice) is loaded afresh: its
# widgets' states hold the labels of the language before (Streamlit keeps a choice by its
# label), which the new language's options do not have. The new session starts from the
# address, which holds the learner's settings and the new language.
# The settings that only held the language before's own starting values (its sentence, its
# head, its prompt) are dropped, so that the page opens on the new language's.
_RELOAD_JS = """
export default function ({ data }) {
  const url = new URL(window.location.href);
  url.searchParams.set("lang", data.lang);
  for (const name of data.drop) url.searchParams.delete(name);
  window.location.replace(url.toString());
}
"""
_reload = st.components.v2.component("attention_lab_reload", js=_RELOAD_JS)
SEEN = "attn_lang_seen"  # session key: the language of the session's last run


def start() -> str:
    """Fix this run's language (see the module's words). Returns it. A session whose
    language just changed reloads the page in the new one, and this run stops."""
    lang = _from_page()
    i18n._chosen.set(lang)
    before = st.session_state.get(SEEN)
    st.session_state[SEEN] = lang
    if before is not None and before != lang:
        _reload(data={"lang": lang, "drop": own_defaults(before)}, key="attn_lang_reload")
        st.stop()
    return lang


# Settings that go together: a head is its layer and its number.
_TOGETHER = (("sentence",), ("layer", "head"), ("prompt",))


def own_defaults(before: str) -> list[str]:
    """The address's settings that hold only language `before`'s own starting values (its
    sentence, its head, its prompt: ``settings.lesson_defaults``), not the learner's choice:
    a change of language drops them, as if the learner had never touched them. A sentence
    the learner typed stays, and so does a head of which they changed the layer or number."""
    own = {**settings.lesson_defaults(before), **settings.generation_defaults(before)}
    drop = []
    for names in _TOGETHER:
        if all(n in own and st.query_params.get(n) == str(own[n]) for n in names):
            drop += names
    return sorted(drop)


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
