"""Where a step page sits in the pipeline: one line of stages with the page's own in bold,
then what the previous page handed it and what it hands on, with the learner's shapes.

The words are the lessons': the stages in lessons/path.md, and each step page's
"## Where it sits" section, whose blanks ({t}, {qk}, ...) are filled with this run's sizes.
"""

from __future__ import annotations

import streamlit as st

from attn_ui import frame
from attn_ui.registry import info

# each step page's stage among lessons/path.md's (the overview shows them all)
STAGE = {
    "tokens": 0,
    "projection": 1,
    "scores": 2,
    "scaling": 3,
    "masking": 4,
    "softmax": 5,
    "weighted_sum": 6,
    "multihead": 7,
}


def stages() -> list[str]:
    lines = frame.lesson("path")["The pipeline"].splitlines()
    return [line.removeprefix("- ").strip() for line in lines if line.startswith("- ")]


def strip(name: str) -> str:
    """The pipeline as one line of Markdown, the page's stage in bold."""
    here = STAGE.get(name)
    return " → ".join(f"**{s}**" if i == here else s for i, s in enumerate(stages()))


def sizes(tokens, x, trace, *, columns: bool, n_heads: int = 1) -> dict[str, str]:
    """The blanks a "Where it sits" text may use, as the layout shows the shapes."""
    t, d_model, d_k, d_v = len(tokens), x.shape[1], trace.d_k, trace.d_v

    def shape(cols: int) -> str:  # a per-token matrix: by hand, tokens are columns
        return f"{cols} × {t}" if columns else f"{t} × {cols}"

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
        "row": "column" if columns else "row",
    }


def show(file: str, run, s) -> None:
    """The page's place in the pipeline, in a box near the top of the page, for this run
    (a compute.LessonRun) and its settings."""
    name = info(file).name
    text = frame.lesson(name)["Where it sits"]
    n_heads = run.multi.n_heads if run.multi is not None else 1
    values = sizes(run.tokens, run.x, run.trace, columns=s.columns, n_heads=n_heads)
    used = {k: v for k, v in values.items() if "{" + k + "}" in text}
    with st.container(border=True, key=f"where_{name}"):
        st.markdown(strip(name))
        st.markdown(frame.fill(text, **used))
