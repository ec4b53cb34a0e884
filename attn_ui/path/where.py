"""Where a step page sits in the pipeline: under its title, one line of stages with the
page's own in bold (`frame.pipeline`, drawn by frame.page); above its figures, what the previous
page handed it and what it hands on, with the learner's shapes (`show`). `lesson_start`
opens a step page's fragment with it.

The words are the lessons': the stages in lessons/path.md, and each step page's
"## Where it sits" section, whose blanks ({t}, {qk}, ...) are filled with this run's sizes.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from attn_lessons import questions
from attn_lessons.i18n import _
from attn_ui import compute, controls, frame, notices, settings
from attn_ui.registry import info


def sizes(tokens, x, trace, *, columns: bool, n_heads: int = 1) -> dict[str, str]:
    """The blanks a "Where it sits" text may use, as the layout shows the shapes."""
    t, d_model, d_k, d_v = len(tokens), x.shape[1], trace.d_k, trace.d_v

    def shape(cols: int) -> str:  # a per-token matrix: by hand, tokens are columns
        return questions.shape(t, cols, columns)

    return {
        "t": str(t),
        "x": shape(d_model),
        "qk": shape(d_k),
        "v": shape(d_v),
        "tt": f"{t} × {t}",
        "z": shape(d_v),
        "d_k": str(d_k),
        "root": f"{1 / trace.scale:.4g}",
        "heads": str(n_heads),
        "concat": shape(n_heads * d_v),
        "out": shape(d_model),
        "s_name": "Kᵀ Q" if columns else "Q Kᵀ",
        "z_name": "V A" if columns else "A V",
        "row": _("column") if columns else _("row"),  # a word the lesson's text takes
    }


def show(file: str, run, s) -> None:
    """What the page takes in and hands on, with this run's shapes (a compute.LessonRun and
    its settings), in a box beside the page's first figure (under the lesson's words)."""
    name = info(file).name
    text = frame.lesson(name)["Where it sits"]
    n_heads = run.multi.n_heads if run.multi is not None else 1
    values = sizes(run.tokens, run.x, run.trace, columns=s.columns, n_heads=n_heads)
    used = {k: v for k, v in values.items() if "{" + k + "}" in text}
    with st.container(border=True, key=f"where_{name}"):
        st.markdown(frame.fill(text, **used))


def lesson_start(
    file: str,
    *,
    mask: bool = True,
    multi: bool = False,
    defaults: dict | None = None,
    note: bool = True,
) -> tuple[settings.LessonSettings, compute.LessonRun]:
    """The top of a step page's fragment: the sentence box (`controls.sentence_box`, with the
    note on whose weights these are unless note=False), the lesson's run (without a mask
    when mask=False: the steps before masking; every head with multi=True), stopped with a
    message on an input the learner can fix, a warning on a one-token sentence or unknown
    characters. The box of what the page takes in and hands on (`show`) goes beside the
    first figure, with the lesson's words (`frame.beside`).

        s, run = where.lesson_start(__file__, mask=False)  # no mask before step 7
    """
    s = controls.sentence_box(note=note, defaults=defaults)
    with frame.stop_on_error():
        run = compute.lesson_run(s if mask else replace(s, mask="none"), multi=multi)
    notices.warn_tokens(run.tokens, run.x)  # one token, or characters the tokenizer does not know
    return s, run
