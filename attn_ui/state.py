"""The one way the pages keep what the learner chose: a group of values in the session that
outlives a visit to another page, the widgets bound to it, and, for a group a link can set
(``settings.Spec``), its first values read from the page's URL and its values mirrored there.

Why a plain dict: Streamlit deletes the state of every widget a page does not draw, so a value
kept only under a widget's key is gone once the learner visits another page. A group's values
live in ``st.session_state[group.name]``, which is no widget's key; a widget starts from them
whenever a page draws it, and its change callback writes them back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from attn_lessons.i18n import _
from attn_ui.settings import Spec, from_query, to_query


@dataclass(frozen=True)
class Group:
    """Values kept in ``st.session_state[name]``; the widget of a value has the key
    `prefix` + its name (the name in the link, for a group a link can set).

    link : the URL codec of a group a link can set; None for a page's own widgets
    """

    name: str
    prefix: str = ""
    link: Spec | None = None

    def key(self, field: str) -> str:
        """The widget key of `field`."""
        names = {p.field: p.name for p in self.link.params} if self.link else {}
        return (self.prefix or f"{self.name}_") + names.get(field, field)

    @property
    def defaults(self) -> dict[str, Any]:
        return self.link.defaults if self.link else {}


def kept(group: Group) -> dict:
    """The values the learner chose; on the first run of a session, the link's (a value the
    app does not offer is named in a warning and ignored)."""
    if group.name not in st.session_state:
        found = {}
        if group.link is not None:
            found, ignored = from_query(st.query_params, group.link)
            for name in ignored:
                st.warning(
                    _("The link's value for {name} is not one the app offers; ignored.").format(
                        name=name
                    )
                )
        st.session_state[group.name] = found
    return st.session_state[group.name]


def values(group: Group, defaults: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every value of a group with a link: the kept one, else the page's own default (not
    kept: other pages keep theirs), else the link's default."""
    chosen, page = kept(group), defaults or {}
    return {name: chosen.get(name, page.get(name, d)) for name, d in group.defaults.items()}


def value(group: Group, name: str, defaults: Mapping[str, Any] | None = None) -> Any:
    """One value of `values`."""
    return values(group, defaults)[name]


# Widget keys written from code (`choose`, a `tidy` callback) since their widget was last
# drawn: such a widget starts from its key, not from a value (see `bind`).
WRITTEN = "state_written"


def _write(key: str, v: Any) -> None:
    st.session_state[key] = v
    st.session_state.setdefault(WRITTEN, set()).add(key)


def _drawn(key: str) -> bool:
    """Forget that `key` was written from code (its widget is drawn now); whether it was."""
    written = st.session_state.get(WRITTEN, set())
    was = key in written
    written.discard(key)
    return was


def _keeper(group: Group, name: str, tidy: Callable[[Any], Any] | None) -> Callable[[], None]:
    """The change callback that keeps the widget's value, tidied first by `tidy`, which may
    rewrite the widget (a callback runs before the widget is drawn again)."""
    key = group.key(name)

    def on_change() -> None:
        shown = st.session_state[key]
        tidied = shown if tidy is None else tidy(shown)
        if tidied != shown:
            _write(key, tidied)
        kept(group)[name] = tidied

    return on_change


def bind(
    group: Group,
    name: str,
    *,
    options: Sequence | None = None,
    defaults: Mapping[str, Any] | None = None,
    tidy: Callable[[Any], Any] | None = None,
    in_form: bool = False,
) -> dict:
    """Widget kwargs bound to a kept value: ``key``, ``on_change``, and ``value`` (``index``
    into `options`) to start from.

    The widget starts through `value`/`index`, never by writing its key, so that a value the
    browser sends wins: on the first run after a server restart the new session has only the
    URL's values, and the browser sends the widget values the learner last saw (`keep` then
    keeps them). On a rerun the widget's own state wins over the start; on another page it is
    a new widget (Streamlit's widget ids hold the page), which starts from the kept value. A
    key written from code (`choose`, `tidy`) gets no start: Streamlit warns about a widget
    given both a value and a key set from code, and the key holds the value to show.

    tidy : rewrites what the learner typed (the sentence: one line, cut), in the box too
    in_form : a form's widget takes no callback; the form's submit keeps its value
    """
    key = group.key(name)
    kwargs = {"key": key} if in_form else {"key": key, "on_change": _keeper(group, name, tidy)}
    if _drawn(key):
        return kwargs
    start = value(group, name, defaults)
    return kwargs | ({"value": start} if options is None else {"index": list(options).index(start)})


def bind_key(group: Group, name: str, default: Any, *, options: Sequence | None = None) -> dict:
    """Widget kwargs (``key``, ``on_change``) bound to a kept value by writing the widget's key,
    for a page that reads or moves the value in code before drawing the widget (the tiles
    page pulls a slider back into range); `default` until the learner chooses.

    options : the widget's choices when they change with the input; a value they lack falls
    back to `default` (a radio that offers fewer choices for a short sentence).
    """
    key = group.key(name)
    _drawn(key)
    if key not in st.session_state:
        st.session_state[key] = kept(group).get(name, default)
    if options is not None and st.session_state[key] not in options:
        st.session_state[key] = default
    return {"key": key, "on_change": _keeper(group, name, None)}


def keep(group: Group, name: str, shown: Any, defaults: Mapping[str, Any] | None = None) -> Any:
    """Make the group hold what its widget shows, and return it.

    Usually the two already agree (the change callback keeps every change). They differ on the
    first run of a fresh session after a server restart: the browser sends the widget values
    the learner last saw, the new session only has the URL's, and no change callback fires
    for a value the session never had. The widget's value wins then."""
    if shown != value(group, name, defaults):
        kept(group)[name] = shown
    return shown


def choose(group: Group, **chosen: Any) -> None:
    """Set kept values from code, and their widgets: from a callback (it runs before the
    widgets are drawn) or before switching pages."""
    kept(group).update(chosen)
    for name, v in chosen.items():
        _write(group.key(name), v)


def to_url(group: Group, defaults: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Mirror a linked group's values in the URL (`settings.to_query`): a shareable link, and
    what a reconnect after a server restart reads back (a new session starts from the URL).
    Returns the values."""
    shown = values(group, defaults)
    to_query(shown, st.query_params, group.link, defaults)
    return shown
