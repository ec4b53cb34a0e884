"""Which step pages the learner has checked, kept in the browser so that a reload or a
server restart keeps it.

A Streamlit session ends with the browser tab's connection, so the progress lives in a
cookie, `attn_progress` (the checked pages' names joined by "."). The server reads it from
the connection's request (`st.context.cookies`) when a session starts; from then on the
session's copy (`st.session_state["progress"]`) is the one that counts. When the two differ
(a page was checked, or the progress reset), a small hidden component writes the session's
copy back into the cookie (`cookies.write`, only on reruns where there is something to
write).
"""

from __future__ import annotations

import streamlit as st

from attn_ui.path import cookies
from attn_ui.registry import in_group

COOKIE = "attn_progress"
STATE = "progress"  # session key: frozenset of checked page names (registry names)
CONNECTED = "progress_cookie"  # session key: the cookie's value when the session started
KEY = "attn_progress_cookie"  # the component's key; its box is hidden


def _steps() -> tuple[str, ...]:
    return tuple(p.name for p in in_group("The steps"))


def parse(value: str | None) -> frozenset[str]:
    """The cookie's page names, keeping only step pages (a cookie is the browser's to edit)."""
    known = _steps()
    return frozenset(n for n in (value or "").split(".") if n in known)


def serialise(done: frozenset[str]) -> str:
    return ".".join(n for n in _steps() if n in done)  # in lesson order: stable


def _from_cookie() -> str:
    """The cookie as the connection brought it (it cannot change during a session)."""
    if CONNECTED not in st.session_state:
        st.session_state[CONNECTED] = serialise(parse(cookies.read(COOKIE)))
    return st.session_state[CONNECTED]


def done() -> frozenset[str]:
    """The step pages the learner has checked, in this session or before it."""
    if STATE not in st.session_state:
        st.session_state[STATE] = parse(_from_cookie())
    return st.session_state[STATE]


def mark(name: str) -> None:
    st.session_state[STATE] = done() | {name}


def reset() -> None:
    st.session_state[STATE] = frozenset()


def save() -> None:
    """Write the session's progress to the cookie when it differs from the one the
    connection brought (draws the hidden component; nothing otherwise)."""
    value = serialise(done())
    if value != _from_cookie():
        cookies.write(COOKIE, value, key=KEY)
