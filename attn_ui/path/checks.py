"""The "check yourself" form at the end of a step page: the questions `questions.build`
computes from the learner's run, checked on the spot. A wrong answer that a known
misconception gives is explained by that misconception's name; a page whose questions are
all answered right is marked in the menu (`progress`).

The check runs in the Check button's callback, before the page runs again, so the menu
drawn at the top of that run already shows the mark.
"""

from __future__ import annotations

import streamlit as st

from attn_ui import frame
from attn_ui.path import progress, questions
from attn_ui.registry import info

_RERUN = "chk_rerun_page"  # session key: a fragment's check marked its page
INTEGERS = ("token_count", "token_width", "context_vectors")  # answers that are counts


def _results(page: str) -> str:
    return f"chk_{page}_results"  # session key: {question ident: Verdict}


def _key(page: str, q: questions.Question) -> str:
    return f"chk_{page}_{q.key}_{q.ident}"


def _fill(text: str, fills: dict[str, str]) -> str:
    """The lesson's wording with the blanks it has filled (token labels quoted: they are
    the learner's text)."""
    used = {k: frame.quoted(v) for k, v in fills.items() if "{" + k + "}" in text}
    return frame.fill(text, **used)


def _given(page: str, q: questions.Question):
    value = st.session_state.get(_key(page, q))
    return tuple(value) if q.kind == "cells" and value is not None else value


def _check(page: str, qs: tuple[questions.Question, ...], whole_page: bool) -> None:
    """The Check button: judge every answer; all right marks the page."""
    verdicts = {q.ident: questions.judge(q, _given(page, q)) for q in qs}
    st.session_state[_results(page)] = verdicts
    if all(v.correct for v in verdicts.values()):
        if whole_page and page not in progress.done():
            st.session_state[_RERUN] = True
        progress.mark(page)


def _widget(q: questions.Question, label: str, key: str) -> None:
    if q.kind == "choice":
        st.selectbox(
            label,
            range(len(q.options)),
            format_func=q.options.__getitem__,
            index=None,
            placeholder="Choose one",
            key=key,
        )
    elif q.kind == "cells":
        st.multiselect(
            label,
            range(len(q.options)),
            format_func=q.options.__getitem__,
            placeholder="Choose keys",
            key=key,
        )
    elif q.key in INTEGERS:
        st.number_input(label, min_value=0, value=None, step=1, key=key)
    else:
        st.number_input(label, value=None, step=0.01, format="%.3f", key=key)


def _feedback(v: questions.Verdict, q: questions.Question, text: dict[str, str]) -> None:
    if v.correct:
        st.success(text["Right"], icon=":material/check_circle:")
    elif not v.answered:
        st.warning(text["Not answered"], icon=":material/help:")
    else:
        why = _fill(text[v.misconception or "Wrong"], q.fills)
        st.error(f"Not quite. {why}", icon=":material/cancel:")


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
    st.subheader("Check yourself")
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
            _widget(q, f"{n}. " + _fill(text[q.key], q.fills), _key(page, q))
            if q.ident in results:
                _feedback(results[q.ident], q, text)
        st.form_submit_button("Check", on_click=_check, args=(page, qs, whole_page))
    if all(results.get(q.ident, questions.Verdict(False)).correct for q in qs):
        st.success(text["All right"], icon=":material/task_alt:")
    if st.session_state.pop(_RERUN, False):
        st.rerun()  # a fragment's run: the menu, drawn outside it, must show the new mark
