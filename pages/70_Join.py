"""Join a class: the teacher's code and a nickname; from then on this browser's checks are
saved for the class (attn_ui.path.membership)."""

import streamlit as st

from attn_class import StoreUnavailable, show_code
from attn_lessons.i18n import _
from attn_ui import frame
from attn_ui.path import membership

text = frame.page(__file__)


def _leave(sure: bool) -> None:
    if not sure:
        st.session_state["join_said"] = "Leave unsure"
        return
    membership.leave()
    st.session_state["join_said"] = "Left"


try:
    me = membership.who()
except StoreUnavailable:
    st.error(text["Database down"], icon=":material/cloud_off:")
    me = None
    down = True
else:
    down = False

st.header(_("Your class"))  # h2 under the h1 title (axe-core's heading-order)
said = st.session_state.pop("join_said", None)
if said == "Left":
    st.success(text["Left"], icon=":material/logout:")
elif said:
    st.warning(text[said], icon=":material/warning:")

if me and not down:
    nickname, name, code = me
    st.success(
        frame.fill(
            text["You are in"],
            name=frame.quoted(name),
            code=show_code(code),
            nickname=frame.quoted(nickname),
        ),
        icon=":material/group:",
    )
    with st.form("join_leave"):
        sure = st.checkbox(text["Leave sure"], key="join_leave_sure")
        st.form_submit_button(
            _("Leave the class"), on_click=lambda: _leave(st.session_state.join_leave_sure)
        )
elif not down:
    with st.form("join_form"):
        code = st.text_input(
            _("Class code"),
            value=st.query_params.get("code", ""),
            max_chars=20,
            placeholder="K7QM-3XRP",
            key="join_code",
        )
        nickname = st.text_input(
            _("Nickname"), max_chars=40, help=text["Nickname help"], key="join_nickname"
        )
        joined = st.form_submit_button(_("Join the class"), type="primary", key="join_submit")
    if joined:
        try:
            membership.join(code, nickname)
        except ValueError as exc:
            frame.show_error(exc)
        except StoreUnavailable:
            st.error(text["Database down"], icon=":material/cloud_off:")
        else:
            st.rerun()

frame.intro(text, frame.WORDS[:2])
frame.footer(__file__)
