"""Concept inventory: fifteen questions before the lessons and fifteen after (attn_lessons
.inventory); a learner in a class has their answers saved for it."""

import streamlit as st

from attn_class import POST, PRE, gain
from attn_lessons import inventory
from attn_lessons.i18n import N_, _
from attn_ui import frame
from attn_ui.path import checks, membership

text = frame.page(__file__)
PAGES = {"pre": PRE, "post": POST}
DONE = "inv_done"  # session key: form -> (right, questions, [(item, given)])
LABELS = {"pre": N_("Before the lessons"), "post": N_("After the lessons")}  # shown through _


def _key(form: str, item: inventory.Item) -> str:
    return f"inv_{form}_{item.concept}"


def _submit(form: str) -> None:
    qs = inventory.items(form)
    given = {q.concept: st.session_state.get(_key(form, q)) for q in qs}
    missing = [str(n) for n, q in enumerate(qs, 1) if given[q.concept] is None]
    if missing:
        st.session_state["inv_missing"] = missing
        return
    judged = [(q, given[q.concept], *q.judge(given[q.concept])) for q in qs]
    st.session_state.setdefault(DONE, {})[form] = judged
    membership.record(PAGES[form], [(q.concept, q.options[g], ok, m) for q, g, ok, m in judged])


def _again(form: str) -> None:
    st.session_state.get(DONE, {}).pop(form, None)
    for q in inventory.items(form):
        st.session_state.pop(_key(form, q), None)


done = st.session_state.get(DONE, {})
asked = st.query_params.get("form")
form = asked if asked in inventory.FORMS else ("post" if "pre" in done else "pre")
chosen = st.radio(
    _("Form"),
    inventory.FORMS,
    index=inventory.FORMS.index(form),
    format_func=lambda v: _(LABELS[v]),
    horizontal=True,
    key=f"inv_form_{form}",
)
if chosen and chosen != form:
    st.query_params["form"] = chosen
    st.rerun()
st.header(_(LABELS[form]))  # h2 under the h1 title (axe-core's heading-order)
st.markdown(text["Before"] if form == "pre" else text["After"])
qs = inventory.items(form)

if form in done:
    judged = done[form]
    right, n = sum(ok for _, _, ok, _ in judged), len(judged)
    if form == "pre":
        st.success(frame.fill(text["Score before"], right=right, n=n), icon=":material/done:")
    else:
        st.success(frame.fill(text["Score after"], right=right, n=n), icon=":material/done:")
        if "pre" in done:
            before = sum(ok for _, _, ok, _ in done["pre"])
            g = gain(before / n, right / n)  # the formula of the teacher's view
            st.markdown(
                frame.fill(text["Gain"], before=before, n=n, gain="—" if g is None else f"{g:.2f}")
            )
        words = frame.lesson("checks")
        for number, (q, given, ok, misconception) in enumerate(judged, 1):
            if ok:
                continue
            why = words.get(misconception, "").split("**")[1] if misconception else ""
            said, answer = (frame.quoted(q.options[i].rstrip(".")) for i in (given, q.answer))
            if why:
                verdict = _("You answered {said}: **{why}** The answer is {answer}.")
            else:
                verdict = _("You answered {said}. The answer is {answer}.")
            st.error(
                f"{number}. {frame.quoted(q.prompt)}  \n"
                + verdict.format(said=said, why=why, answer=answer),
                icon=":material/cancel:",
            )
    checks.sent(PAGES[form], frame.lesson("checks"))
    st.button(_("Take this form again"), key=f"inv_again_{form}", on_click=_again, args=(form,))
else:
    with st.form(f"inv_{form}", enter_to_submit=False):
        for number, q in enumerate(qs, 1):
            st.radio(
                f"{number}. {q.prompt}",  # our own words: no quoting (it would reach aria-label)
                range(len(q.options)),
                format_func=lambda i, q=q: q.options[i],
                index=None,
                key=_key(form, q),
            )
        st.form_submit_button(
            _("Submit my answers"), type="primary", on_click=_submit, args=(form,)
        )
    missing = st.session_state.pop("inv_missing", None)
    if missing:
        st.warning(
            frame.fill(text["Unanswered"], n=len(qs), missing=", ".join(missing)),
            icon=":material/help:",
        )

frame.intro(text, frame.WORDS[:2])
frame.footer(__file__)
