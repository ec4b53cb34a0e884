"""Cookies the app keeps in the learner's browser, written by one small hidden component.

The server reads a cookie from the connection's request (`st.context.cookies`) when a
session starts; it cannot change during the session. A page changes what it keeps by
drawing `write`, which sets (or, with an empty value, deletes) the cookie in the browser.
It is one of Streamlit's v2 components: drawn into the page itself, no iframe, and its box
is hidden.
"""

from __future__ import annotations

import streamlit as st

YEAR = 365 * 24 * 3600

_JS = """
export default function ({ data, parentElement }) {
  const box = parentElement.closest("." + data.box);
  if (box) box.style.display = "none";
  const value = data.value;
  document.cookie = value
    ? `${data.name}=${value}; path=/; max-age=${data.maxAge}; SameSite=Lax`
    : `${data.name}=; path=/; max-age=0; SameSite=Lax`;
  parentElement.dataset.saved = value;
}
"""

# isolate_styles=False: drawn into the page itself (not a shadow root), so it can hide its box
_component = st.components.v2.component("attention_lab_progress", js=_JS, isolate_styles=False)


def read(name: str) -> str | None:
    """The cookie as the connection brought it (None: none, or no browser, as in AppTest)."""
    value = st.context.cookies.get(name)
    return value if isinstance(value, str) else None


def write(name: str, value: str, *, key: str, max_age: int = YEAR) -> None:
    """Set the cookie `name` to `value` in the browser (an empty value deletes it). `value`
    must be cookie-safe (letters, digits, "-", "_", "."); `key` names the hidden box."""
    _component(
        data={"name": name, "value": value, "maxAge": max_age, "box": f"st-key-{key}"}, key=key
    )
