"""The Teach page's parts: the teacher's key kept out of the address bar, the form that creates
a class, and the dashboard that shows what the class understood (attn_class counts it).

The teacher link is /Teach?code=...&key=...: opened once, the page keeps the key in the
session and in a cookie of the browser (`attn_teacher`), and takes it out of the address,
so a dashboard on the projector shows /Teach?code=... only and a reload still opens it.
"""

from __future__ import annotations

import csv
import functools
import io
import re
from datetime import datetime

import pandas as pd
import streamlit as st

from attn_class import POST, PRE, ClassSummary, StoreUnavailable, show_code
from attn_lessons.i18n import N_, _
from attn_lessons.text import lesson
from attn_ui import frame
from attn_ui.path import cookies, membership
from attn_ui.registry import PAGES

COOKIE = "attn_teacher"  # "<code>.<key>" of the last class opened in this browser
KEY = "attn_teacher_cookie"
CREDENTIALS = "teach_credentials"  # session key: (code, key)
REFRESH_S = 10


def credentials() -> tuple[str, str] | None:
    """(code, teacher key) for this page: the link's, else this session's or this browser's
    for the code in the address. The key leaves the address once read."""
    params = st.query_params
    code, key = params.get("code", ""), params.get("key", "")
    if code and key:
        st.session_state[CREDENTIALS] = (code, key)
        del st.query_params["key"]
    elif code:
        kept = st.session_state.get(CREDENTIALS)
        if not kept or kept[0] != code:
            saved = (cookies.read(COOKIE) or "").split(".", 1)
            if len(saved) == 2 and saved[0] == code:
                st.session_state[CREDENTIALS] = (saved[0], saved[1])
    kept = st.session_state.get(CREDENTIALS)
    return kept if kept and kept[0] == code else None


def forget() -> None:
    st.session_state.pop(CREDENTIALS, None)
    st.query_params.clear()


def keep() -> None:
    """At the end of the page: the browser's cookie holds this session's class and key
    (written while it differs from the cookie the connection brought; deleted after
    `forget`)."""
    kept = st.session_state.get(CREDENTIALS)
    value = f"{kept[0]}.{kept[1]}" if kept else ""
    if value != (cookies.read(COOKIE) or ""):
        cookies.write(COOKIE, value, key=KEY)


def create(text: dict[str, str]) -> None:
    """The form that creates a class; on success the page opens its dashboard."""
    with st.form("teach_create", enter_to_submit=True):
        name = st.text_input(_("Class name"), max_chars=80, placeholder=_("Period 3"))
        if not st.form_submit_button(_("Create the class"), type="primary"):
            return
    try:
        new = membership.store().create_class(name)
    except ValueError as exc:
        frame.show_error(exc)
        return
    except StoreUnavailable:
        st.error(frame.fill(text["Database down"], seconds=REFRESH_S), icon=":material/cloud_off:")
        return
    st.session_state[CREDENTIALS] = (new.code, new.teacher_key)
    st.session_state["teach_created"] = new
    st.query_params["code"] = new.code
    st.rerun()


def links(text: dict[str, str], code: str) -> None:
    """Just after creating: the code, the learners' link and the teacher link (shown once)."""
    new = st.session_state.pop("teach_created", None)
    if new is None or new.code != code:
        return
    base = (st.context.url or "").split("?", 1)[0].rsplit("/", 1)[0]  # None: no browser
    st.success(
        frame.fill(text["Created"], name=frame.quoted(new.name), code=show_code(new.code)),
        icon=":material/celebration:",
    )
    st.markdown(text["Join link"])
    st.code(f"{base}/Join?code={new.code}", language=None)
    with st.expander(_("Your teacher link (private: open it away from the projector)")):
        st.markdown(text["Teacher link"])
        st.code(f"{base}/Teach?code={new.code}&key={new.teacher_key}", language=None)


_PAGES = {p.name: p for p in PAGES}
_FORMS = {  # the concept inventory's forms, named where a page would be
    PRE: N_("Concept inventory, before"),
    POST: N_("Concept inventory, after"),
}
_BOLD = re.compile(r"^\*\*(.+?)\.?\*\*")


def page_title(name: str) -> str:
    """The title of the page (or inventory form) called `name`, in the page's language."""
    if name in _FORMS:
        return _(_FORMS[name])
    return _PAGES[name].title if name in _PAGES else name


def misconception_words(name: str) -> str:
    """A misconception's name as the lessons say it ("forgot_sqrt" -> "Forgetting √d_k").
    Where the lessons' heading states the right idea instead ("A is not Q"), the teacher's
    page names the wrong one ("Taking A for Q", lessons/teach.md): under "Misconception", a
    correction read as what the learners believe."""
    belief = lesson("teach").get(f"Misconception: {name}")
    if belief:
        return belief
    found = _BOLD.match(lesson("checks").get(name, ""))
    return found.group(1) if found else name.replace("_", " ")


def tables(s: ClassSummary) -> dict[str, pd.DataFrame]:
    """The dashboard's tables, as shown and as exported; their headings in English (the
    code reads them), translated where drawn (`_shown`) and written (`_fresh`)."""
    pages = pd.DataFrame(
        [(page_title(i.page), i.learners, round(100 * i.share)) for i in s.pages],
        columns=[N_("Page"), N_("Learners"), N_("Right first time (%)")],
    )
    items = pd.DataFrame(
        [
            (page_title(i.page), i.item.replace("_", " "), i.learners, round(100 * i.share))
            for i in s.items
        ],
        columns=[N_("Page"), N_("Question"), N_("Learners"), N_("Right first time (%)")],
    )
    wrong = pd.DataFrame(
        [(misconception_words(m), n, s.examples.get(m, "")) for m, n in s.misconceptions],
        columns=[N_("Misconception"), N_("Learners"), N_("An answer that shows it")],
    )
    stuck = pd.DataFrame(
        [
            (r.nickname, page_title(r.stuck[0]), r.stuck[1].replace("_", " "))
            for r in s.roster
            if r.stuck
        ],
        columns=[N_("Learner"), N_("Page"), N_("Question")],
    )
    roster = pd.DataFrame(
        [
            (
                r.nickname,
                r.answers,
                r.right,
                _clock(r.last_at),
                _share(r.pre),
                _share(r.post),
                _gain(r.gain),
            )
            for r in s.roster
        ],
        columns=[
            N_("Learner"),
            N_("Answers"),
            N_("Right"),
            N_("Last answer"),
            N_("Before"),
            N_("After"),
            N_("Gain"),
        ],
    )
    return {
        "pages": pages,
        "questions": items,
        "misconceptions": wrong,
        "stuck": stuck,
        "learners": roster,
    }


def _share(x: float | None) -> str:
    return "" if x is None else f"{round(100 * x)}%"


def _gain(g: float | None) -> str:
    return "" if g is None else f"{g:.2f}"


def _clock(at: datetime | None) -> str:
    return "" if at is None else at.strftime("%H:%M UTC")


def as_csv(frame_: pd.DataFrame) -> bytes:
    out = io.StringIO()
    frame_.to_csv(out, index=False, quoting=csv.QUOTE_MINIMAL)
    return out.getvalue().encode("utf-8")


def answers_csv(code: str, key: str) -> bytes:
    rows = membership.store().answers(code, key)
    table = pd.DataFrame(
        [
            (
                r.at.isoformat(timespec="seconds"),
                r.nickname,
                r.page,
                r.item,
                r.answer,
                r.correct,
                r.misconception or "",
            )
            for r in rows
        ],
        # i18n: not translated: a raw export, its cells the app's own names (page, question)
        columns=["at", "learner", "page", "question", "answer", "right", "misconception"],
    )
    return as_csv(table)


def dashboard(text: dict[str, str], code: str, key: str) -> None:
    """What the class did, refreshed every REFRESH_S seconds while the page is open."""

    @st.fragment(run_every=REFRESH_S)
    def live() -> None:
        try:
            s = membership.store().summary(code, key)
        except StoreUnavailable:
            st.warning(
                frame.fill(text["Database down"], seconds=REFRESH_S), icon=":material/cloud_off:"
            )
            return
        show(text, s)

    try:
        s = membership.store().summary(code, key)
    except PermissionError:
        st.error(frame.fill(text["Wrong key"], code=show_code(code)), icon=":material/lock:")
        forget()
        return
    except ValueError as exc:
        st.error(frame.fill(text["No class"], message=frame.words_of(exc)), icon=":material/error:")
        forget()
        return
    except StoreUnavailable:
        st.warning(
            frame.fill(text["Database down"], seconds=REFRESH_S), icon=":material/cloud_off:"
        )
        return
    st.header(frame.quoted(s.name))
    links(text, code)
    live()
    downloads(s, code, key)
    delete(text, s, code, key)


def show(text: dict[str, str], s: ClassSummary) -> None:
    st.markdown("### " + _("Join with the code **{code}**").format(code=show_code(s.code)))
    a, b, c = st.columns(3)
    a.metric(_("Learners joined"), s.learners)
    b.metric(_("Active in the last 10 minutes"), s.active)
    c.metric(_("Answers"), s.answers)
    if not s.answers:
        st.info(frame.fill(text["No answers"], code=show_code(s.code)), icon=":material/hourglass:")
        return
    inventory(s)
    t = tables(s)
    st.subheader(_("Right first time, per page"))
    st.table(_shown(_percent(t["pages"])), hide_index=True)
    st.subheader(_("Misconceptions"))
    if t["misconceptions"].empty:
        st.caption(_("No wrong answer has shown a known misconception yet."))
    else:
        st.table(_shown(t["misconceptions"]), hide_index=True)
    st.subheader(_("Who is stuck where"))
    if t["stuck"].empty:
        st.caption(_("Nobody: no learner has two wrong answers in a row on their latest question."))
    else:
        st.table(_shown(t["stuck"]), hide_index=True)
    with st.expander(_("Every question")):
        st.table(_shown(_percent(t["questions"])), hide_index=True)
    with st.expander(_("Every learner")):
        st.table(_shown(t["learners"]), hide_index=True)


def inventory(s: ClassSummary) -> None:
    """The concept inventory: the class's mean score before and after, and Hake's gain, over
    the learners who took both forms."""
    st.subheader(_("Concept inventory"))
    if not s.matched:
        st.caption(
            _(
                "No learner has taken both forms yet (the Concept inventory page: before the "
                "lessons, then after)."
            )
        )
        return
    a, b, c = st.columns(3)
    a.metric(_("Before (class mean)"), _share(s.pre))
    b.metric(_("After (class mean)"), _share(s.post))
    c.metric(_("Gain g"), _gain(s.gain))
    # i18n: one message for every count ("1 learners" included), as the English has it
    st.caption(
        _(
            "Over the {n} learners who took both forms; g = (after − before) / "
            "(1 − before), Hake's normalised gain."
        ).format(n=s.matched)
    )


_BLOCK = re.compile(r"^(\s*)(\d+)([.)])|^(\s*)([#+-])", re.M)


def literal(text: str) -> str:
    """`text` as it was typed, inside Streamlit's Markdown (st.table renders its cells as
    Markdown): a nickname "[me](http://x)" stays that text, "4. Scaling" is not a list."""
    escaped = frame.quoted(str(text))
    return _BLOCK.sub(lambda m: f"{m[1]}{m[2]}\\{m[3]}" if m[2] else f"{m[4]}\\{m[5]}", escaped)


def _headings(table: pd.DataFrame) -> pd.DataFrame:
    """A dashboard table with its headings in the page's language (`tables`)."""
    return table.rename(columns=_)


def _shown(table: pd.DataFrame) -> pd.DataFrame:
    """A table's text cells as `literal` text (its numbers as they are), its headings
    translated."""
    text = [c for c in table.columns if not pd.api.types.is_numeric_dtype(table[c])]
    return _headings(table.assign(**{c: table[c].map(literal) for c in text}))


def _percent(table: pd.DataFrame) -> pd.DataFrame:
    """The share column as text ("67%"): an HTML table a projector and a screen reader read."""
    col = "Right first time (%)"
    return table.assign(**{col: table[col].map(lambda v: f"{v}%")})


def _fresh(code: str, key: str, name: str) -> bytes:
    """A table's CSV as the class is when the button is pressed ("answers": every answer)."""
    try:
        if name == "answers":
            return answers_csv(code, key)
        return as_csv(_headings(tables(membership.store().summary(code, key))[name]))
    except StoreUnavailable:
        message = _("The class's database could not be reached: download again in a minute.")
        return f"{message}\n".encode()


DOWNLOADS = {  # a table's name (`tables`, "answers": every answer) -> its button's label
    "pages": N_("Pages.csv"),
    "questions": N_("Questions.csv"),
    "misconceptions": N_("Misconceptions.csv"),
    "stuck": N_("Stuck.csv"),
    "learners": N_("Learners.csv"),
    "answers": N_("Answers.csv"),
}


def downloads(s: ClassSummary, code: str, key: str) -> None:
    """One CSV per table, and every answer; each made when its button is pressed."""
    st.subheader(_("Download (CSV)"))
    columns = st.columns(3)
    for n, (name, label) in enumerate(DOWNLOADS.items()):
        columns[n % 3].download_button(
            _(label),
            functools.partial(_fresh, code, key, name),
            file_name=f"{s.code}-{name}.csv",
            mime="text/csv",
            key=f"teach_csv_{name}",
            on_click="ignore",
            icon=":material/download:",
        )


def delete(text: dict[str, str], s: ClassSummary, code: str, key: str) -> None:
    with st.expander(_("Delete this class")):
        with st.form("teach_delete"):
            sure = st.checkbox(text["Delete sure"])
            if not st.form_submit_button(_("Delete the class and every answer")):
                return
        if not sure:
            st.warning(text["Delete unsure"])
            return
        try:
            membership.store().delete_class(code, key)
        except StoreUnavailable:
            st.error(frame.fill(text["Database down"], seconds=REFRESH_S))
            return
        forget()
        st.session_state["teach_deleted"] = s.name
        st.rerun()
