"""Page frame: page config, the grouped navigation, lesson text, previous/next links.

Navigation uses one mechanism only: Streamlit's ``pages/`` folder (each page a
script, so a deep link runs that page and nothing else). The built-in file-name
menu is switched off in ``.streamlit/config.toml`` and replaced by the grouped
menu below.
"""

from __future__ import annotations

import gc
import sys
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class PageInfo:
    path: str  # relative to the app root, as st.page_link wants it
    title: str
    group: str
    lesson: str  # lessons/<lesson>.md


# Order matters: it is the menu order and the previous/next chain within a group.
PAGES: tuple[PageInfo, ...] = (
    PageInfo("pages/00_Overview.py", "Overview: the whole pipeline", "The steps", "overview"),
    PageInfo("pages/01_Tokens.py", "1. Tokens and embeddings: X", "The steps", "tokens"),
    PageInfo("pages/02_Projection.py", "2. Projection: Q, K and V", "The steps", "projection"),
    PageInfo("pages/03_Scores.py", "3. Scores: S = Q Kᵀ", "The steps", "scores"),
    PageInfo("pages/04_Scaling.py", "4. Scaling: divide by √d_k", "The steps", "scaling"),
    PageInfo("pages/05_Softmax.py", "5. Softmax: rows sum to 1", "The steps", "softmax"),
    PageInfo("pages/06_Weighted_sum.py", "6. Weighted sum: Z = A V", "The steps", "weighted_sum"),
    PageInfo("pages/07_Masking.py", "7. Masking: who sees whom", "The steps", "masking"),
    PageInfo("pages/08_Multi-head.py", "8. Multi-head attention", "The steps", "multihead"),
    PageInfo("pages/40_Why_scale.py", "Why √d: variance and saturation", "Labs", "why_scale"),
    PageInfo("pages/41_Softmax_lab.py", "Softmax lab: temperature, argmax", "Labs", "softmax_lab"),
    PageInfo("pages/42_Similarity.py", "Similarity: dot, cosine, search", "Labs", "similarity"),
    PageInfo("pages/43_Additive.py", "Additive attention (Bahdanau)", "Labs", "additive"),
    PageInfo("pages/44_Cross_attention.py", "Cross-attention: a second sentence", "Labs", "cross"),
    PageInfo("pages/45_Local_attention.py", "Local attention: a window", "Labs", "local"),
    PageInfo("pages/46_Cost.py", "Cost: time and memory against T", "Labs", "cost"),
    PageInfo("pages/47_Transformer_block.py", "Transformer block: the layer", "Labs", "block"),
    PageInfo("pages/20_By_hand.py", "By hand: a worked example", "By hand", "by_hand"),
    PageInfo("pages/21_Practice.py", "Practice: fill in the grids", "By hand", "practice"),
    PageInfo("pages/22_Worksheets.py", "Worksheets: blank templates", "By hand", "worksheets"),
    PageInfo(
        "pages/30_Model_explorer.py", "Model explorer: every head", "Real model", "model_explorer"
    ),
)
GROUPS = ("The steps", "Labs", "By hand", "Real model")


def info(file: str) -> PageInfo:
    name = Path(file).name
    return next(p for p in PAGES if Path(p.path).name == name)


def lesson(name: str) -> dict[str, str]:
    """Sections of lessons/<name>.md keyed by their '## ' heading; '' holds the title line."""
    text = (ROOT / "lessons" / f"{name}.md").read_text(encoding="utf-8")
    sections: dict[str, list[str]] = {"": []}
    current = ""
    for line in text.splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            sections[current] = []
        else:
            sections[current].append(line)
    return {k: "\n".join(v).strip() for k, v in sections.items()}


def navigation(current: str = "The steps") -> None:
    """The grouped menu, drawn in the sidebar of every page; the current group is open.

    A closed group's links are drawn only once it is opened (opening it reruns the page):
    twenty links on every rerun were about a third of a slider move's server time."""
    with st.sidebar:
        st.page_link("app.py", label="Attention Lab: start here", icon=":material/home:")
        for group in GROUPS:
            pages = [p for p in PAGES if p.group == group]
            if pages:
                box = st.expander(
                    group,
                    expanded=group == current,
                    key=f"nav_{current}_{group}",
                    on_change="rerun",
                )
                if box.open:
                    for p in pages:
                        box.page_link(p.path, label=p.title)
        st.divider()


_modules_frozen = 0


def _freeze_imports() -> None:
    """After new imports: move what they built (Streamlit, Plotly, pandas, ...) out of the
    garbage collector's reach, so its full collections walk only what reruns create.

    Runs gc.freeze() only when sys.modules has grown, a bounded number of times per
    process; with runner.postScriptGC off (.streamlit/config.toml) this trims the
    latency tail under load (bench/bench_load.py)."""
    global _modules_frozen
    if len(sys.modules) != _modules_frozen:
        gc.freeze()
        _modules_frozen = len(sys.modules)


def page(file: str) -> dict[str, str]:
    """Set up a page: config, menu, title and intro. Returns its lesson sections."""
    me = info(file)
    _freeze_imports()
    st.set_page_config(page_title=f"{me.title} · Attention Lab", layout="wide")
    navigation(me.group)
    text = lesson(me.lesson)
    st.title(me.title)
    for heading in ("What you'll learn", "The idea", "The formula"):
        if text.get(heading):
            if heading == "The formula":
                st.markdown(f"#### {heading}")
            st.markdown(text[heading])
    return text


def footer(file: str) -> None:
    """'Try this' prompts and previous/next links within the page's group."""
    me = info(file)
    text = lesson(me.lesson)
    if text.get("Try this"):
        st.markdown("#### Try this")
        st.markdown(text["Try this"])
    group = [p for p in PAGES if p.group == me.group]
    i = group.index(me)
    left, right = st.columns(2)
    if i > 0:
        left.page_link(group[i - 1].path, label=f"Previous: {group[i - 1].title}", icon="⬅️")
    if i + 1 < len(group):
        right.page_link(group[i + 1].path, label=f"Next: {group[i + 1].title}", icon="➡️")
