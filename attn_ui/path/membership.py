"""The learner's class, kept in their browser: join with a code and a nickname, and from then
on their checks are recorded for the class (attn_class stores them).

The browser keeps the learner's token in the cookie `attn_class` (read when a session starts,
written back by `cookies.write` when it changes). An answer is confirmed only once the store
has committed it; when the database cannot be reached, the answer waits in the session and
is sent again (with the same id, so it is stored once) at the next check or when the learner
presses "Send again". The page says which.
"""

from __future__ import annotations

import ipaddress
import os
import re
import uuid
from dataclasses import dataclass

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from attn_class import NotInClass, Store, StoreUnavailable, open_store
from attn_ui.path import cookies

COOKIE = "attn_class"
KEY = "attn_class_cookie"  # the cookie writer's hidden box
CONNECTED = "class_cookie"  # session keys: the cookie's value when the session started,
TOKEN = "class_token"  # the learner's token now ("" after leaving),
WHO = "class_who"  # (nickname, class name, code) for that token,
PENDING = "class_pending"  # answers not saved yet, oldest first,
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")  # what the store hands out (token_urlsafe)
STATUS = "class_status"  # and what the last sending from each page did (page -> Sending)


@dataclass(frozen=True)
class Sending:
    saved: int  # answers committed by this sending
    waiting: int  # answers still waiting (the database could not be reached)
    gone: bool = False  # the token is no one's any more: the learner is out of the class


@st.cache_resource(show_spinner=False)
def _open() -> Store:
    return open_store()


def store() -> Store:
    """The process's store (opened once; raises StoreUnavailable while it cannot be)."""
    try:
        return _open()
    except SQLAlchemyError as exc:  # a malformed DATABASE_URL, a driver missing
        raise StoreUnavailable(f"The class's database cannot be opened: {exc}") from exc


def _connected() -> str:
    if CONNECTED not in st.session_state:
        value = cookies.read(COOKIE) or ""
        st.session_state[CONNECTED] = value if _TOKEN.fullmatch(value) else ""  # the browser's
    return st.session_state[CONNECTED]


def token() -> str:
    """The learner's token in this browser, "" when they are in no class."""
    if TOKEN not in st.session_state:
        st.session_state[TOKEN] = _connected()
    return st.session_state[TOKEN]


def who() -> tuple[str, str, str] | None:
    """(nickname, class name, code) of this browser's learner, None in no class. Asked of
    the store once per session; a token that is no one's (the class was deleted) is
    forgotten. Raises StoreUnavailable."""
    if not token():
        return None
    if st.session_state.get(WHO) is None:
        found = store().whoami(token())
        if found is None:
            _forget()
            return None
        st.session_state[WHO] = found
    return st.session_state[WHO]


def _forget() -> None:
    st.session_state[TOKEN] = ""
    st.session_state[WHO] = None
    st.session_state[PENDING] = []


def client(peer: str | None, forwarded: str | None) -> str:
    """Where a join comes from, to limit wrong codes per address: the connection's address,
    or, when it comes through a proxy of ours, the browser's (the first X-Forwarded-For).
    A proxy of ours is on this machine (HAProxy of `make class`), or anywhere when
    ATTN_TRUST_FORWARDED=1 (a cluster, where only the ingress reaches the pods); a browser
    cannot pass itself off as another address by sending the header."""
    peer = peer if isinstance(peer, str) else ""  # no browser (AppTest): nothing
    first = forwarded.split(",")[0].strip() if isinstance(forwarded, str) else ""
    try:
        local = ipaddress.ip_address(peer).is_loopback
    except ValueError:
        local = False
    trusted = local or os.environ.get("ATTN_TRUST_FORWARDED") == "1"
    return first if first and trusted else peer


def join(code: str, nickname: str) -> tuple[str, str, str]:
    """Join a class (ValueError with a sentence when the code or nickname will not do)."""
    where = client(st.context.ip_address, st.context.headers.get("X-Forwarded-For"))
    new = store().join(code, nickname, client=where)
    _forget()
    st.session_state[TOKEN] = new
    return who()


def leave() -> None:
    """Leave the class: the store deletes this learner's nickname and answers."""
    if token():
        store().leave(token())
    _forget()


def save() -> None:
    """Write the token to the browser's cookie when it changed in this session."""
    if token() != _connected():
        cookies.write(COOKIE, token(), key=KEY)


def record(page: str, answers: list[tuple[str, str, bool, str | None]]) -> Sending | None:
    """Send the learner's answers on `page` ((item, answer, right, misconception) each), after
    any still waiting; None when they are in no class. What it did is also kept for
    `status`."""
    if not token():
        return None
    pending = st.session_state.setdefault(PENDING, [])
    pending.extend((uuid.uuid4().hex, page, *a) for a in answers)
    return send(page)


def send(page: str) -> Sending:
    """Send the answers waiting (from any page), oldest first, until the store cannot be
    reached; what it did is `status(page)`."""
    pending = st.session_state.setdefault(PENDING, [])
    saved = 0
    try:
        while pending:
            answer_id, page, item, answer, right, misconception = pending[0]
            store().record(token(), page, item, answer, right, misconception, answer_id=answer_id)
            pending.pop(0)
            saved += 1
        result = Sending(saved, 0)
    except StoreUnavailable:
        result = Sending(saved, len(pending))
    except NotInClass:  # the class was deleted, or they left it in another tab
        _forget()
        result = Sending(saved, 0, gone=True)
    st.session_state.setdefault(STATUS, {})[page] = result
    return result


def status(page: str) -> Sending | None:
    """What the last sending from `page` did in this session (None: nothing sent yet)."""
    return st.session_state.get(STATUS, {}).get(page)
