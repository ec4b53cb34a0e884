"""The "check yourself" form at the end of a step page: the questions `questions.build`
computes from the learner's run, checked on the spot. A wrong answer that a known
misconception gives is explained by that misconception's name; a page whose questions are
all answered right is marked in the menu (`progress`).

The check runs in the Check button's callback, before the page runs again, so the menu
drawn at the top of that run already shows the mark.
"""

from __future__ import annotations

import re
from dataclasses import replace

import streamlit as st

from attn_lessons import questions
from attn_lessons.i18n import _
from attn_ui import frame
from attn_ui.path import membership, progress
from attn_ui.registry import info

_RERUN = "chk_rerun_page"  # session key: a fragment's check marked its page


def _results(page: str) -> str:
    return f"chk_{page}_results"  # session key: {question ident: (Verdict, the answer judged)}


def _key(page: str, q: questions.Question) -> str:
    return f"chk_{page}_{q.key}_{q.ident}"


def _quoted(q: questions.Question) -> questions.Question:
    """`q` with its blanks and options safe to show in Markdown (token labels are the
    learner's text)."""
    return replace(
        q,
        fills={k: frame.quoted(v) for k, v in q.fills.items()},
        options=tuple(frame.quoted(o) for o in q.options),
    )


def _given(page: str, q: questions.Question):
    value = st.session_state.get(_key(page, q))
    return tuple(value) if q.kind == "cells" and value is not None else value


def _said(q: questions.Question, given) -> str:
    """The learner's answer in words, as their teacher reads it."""
    if q.kind == "choice":
        return q.options[given]
    if q.kind == "cells":
        return ", ".join(q.options[i] for i in sorted(given))
    return str(given)


def _check(page: str, qs: tuple[questions.Question, ...], whole_page: bool) -> None:
    """The Check button: judge every answer; all right marks the page. A learner in a class
    has their answers recorded for it (`membership.record`)."""
    given = {q.ident: _given(page, q) for q in qs}
    verdicts = {q.ident: (questions.judge(q, given[q.ident]), given[q.ident]) for q in qs}
    st.session_state[_results(page)] = verdicts
    membership.record(
        page,
        [
            (q.key, _said(q, g), v.correct, v.misconception)
            for q in qs
            for v, g in [verdicts[q.ident]]
            if v.answered
        ],
    )
    if all(v.correct for v, _answer in verdicts.values()):
        if whole_page and page not in progress.done():
            st.session_state[_RERUN] = True
        progress.mark(page)


def _widget(q: questions.Question, label: str, shown: str, key: str) -> None:
    """`q`'s input, named `label` for screen readers (the words as they are: an aria-label
    is not Markdown) and showing `shown` (the same words made safe for Markdown). A token
    with Markdown's characters (`_`, `*`, `[CLS]`) needs the two apart: its label is then
    written above the input, and the input's own label is kept for screen readers only."""
    seen: dict = {}
    if shown != label:  # the number's dot escaped too: "1. " would start a list
        with st.container(key=f"check_label_{key}"):  # a widget label's size (page_style)
            st.markdown(re.sub(r"^(\d+)\. ", r"\1\\. ", shown))
        seen = {"label_visibility": "collapsed"}
    if q.kind == "choice":
        st.selectbox(
            label,
            range(len(q.options)),
            format_func=q.options.__getitem__,
            index=None,
            placeholder=_("Choose one"),
            key=key,
            **seen,
        )
    elif q.kind == "cells":
        st.multiselect(
            label,
            range(len(q.options)),
            format_func=q.options.__getitem__,
            placeholder=_("Choose keys"),
            key=key,
            **seen,
        )
    elif q.kind == "count":
        st.number_input(label, min_value=0, value=None, step=1, key=key, **seen)
    else:
        st.number_input(label, value=None, step=0.01, format="%.3f", key=key, **seen)


def _feedback(v: questions.Verdict, given, q: questions.Question, text: dict[str, str]) -> None:
    words = questions.explanation(_quoted(q), v, text, given)
    if v.correct:
        st.success(words, icon=":material/check_circle:")
    elif not v.answered:
        st.warning(words, icon=":material/help:")
    else:
        st.error(_("Not quite. {explanation}").format(explanation=words), icon=":material/cancel:")


def sent(page: str, text: dict[str, str]) -> None:
    """What became of the learner's answers on `page` for their class, after a check
    (nothing when they are in no class): saved, waiting for the database, or the class gone."""
    done = membership.status(page)
    if done is None:
        return
    if done.gone:
        st.warning(text["Class gone"], icon=":material/group_off:")
    elif done.waiting:
        st.warning(frame.fill(text["Not saved"], n=done.waiting), icon=":material/cloud_off:")
        st.button(
            _("Send again"),
            key=f"chk_{page}_send_again",
            on_click=membership.send,
            args=(page,),
            icon=":material/refresh:",
        )
    elif done.saved:
        st.caption(text["Saved"])


def show(
    file: str,
    run,
    s,
    *,
    trace=None,
    unmasked=None,
    reason: str | None = None,
    whole_page: bool = False,
) -> None:
    """The page's questions for this run (a compute.LessonRun and its LessonSettings),
    drawn before the page's footer.

    trace : the head the page shows, when not run.trace (the masking page's own mask)
    unmasked : the same head without a mask (the masking page)
    reason : a lessons/checks.md section saying why there are no questions (the page knows:
    e.g. a mask with an empty row); whole_page=True: the page draws this inside a fragment,
    so a new mark reruns the whole page to redraw the menu."""
    page = info(file).name
    text = frame.lesson("checks")
    st.subheader(_("Check yourself"))
    qs = (
        questions.NoQuestions(reason)
        if reason
        else questions.for_run(page, run, s, trace=trace, unmasked=unmasked)
    )
    if isinstance(qs, questions.NoQuestions):
        st.info(text[qs.reason], icon=":material/info:")
        return
    st.markdown(text["Check yourself"])
    results = st.session_state.get(_results(page), {})
    with st.form(key=f"chk_{page}", enter_to_submit=False):
        for n, q in enumerate(qs, 1):
            label, shown = (f"{n}. {questions.wording(w, text)}" for w in (q, _quoted(q)))
            _widget(q, label, shown, _key(page, q))
            if q.ident in results:
                _feedback(*results[q.ident], q, text)
        st.form_submit_button(
            _("Check"), on_click=_check, args=(page, qs, whole_page), key=f"chk_{page}_submit"
        )
    if all(q.ident in results and results[q.ident][0].correct for q in qs):
        st.success(text["All right"], icon=":material/task_alt:")
    sent(page, text)
    if st.session_state.pop(_RERUN, False):
        st.rerun()  # a fragment's run: the menu, drawn outside it, must show the new mark
