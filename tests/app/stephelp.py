"""Shared checks for the step pages 5-8: bad sentences, finite numbers, no HTML from the learner."""

from __future__ import annotations

import base64
import json

import numpy as np
from streamlit.testing.v1 import AppTest

from apphelp import open_tables, rerun
from attn_ui.figures.heatmap import decode

# sentence -> (where the message must be, a word it must contain); None: the page just works
BAD_SENTENCES = {
    "empty": ("", ("error", "empty")),
    "blank": ("   ", ("error", "empty")),
    "one token": ("cat", ("warning", "single token")),
    "65+ tokens": (" ".join(["word"] * 70), ("error", "at most 64")),
    "emoji": ("I ❤️ 🍕 pizza", ("warning", "[UNK]")),
    "japanese": ("猫が座った", ("warning", "[UNK]")),
    "cyrillic": ("Кошка сидит на ковре", None),
    "bold tag": ("<b>x</b> and <i>y</i>", None),
    "script tag": ("<script>alert(1)</script>", None),
}


def figures(at: AppTest) -> list[dict]:
    """The Plotly figures on the page (lines, bars), as dicts (AppTest cannot draw them)."""
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def heatmaps(at: AppTest) -> list[dict]:
    """Every heatmap on the page in page order, as the canvas component is sent it
    (attn_ui.figures.heatmap.figure), with its matrix decoded as the browser decodes it
    under "m"."""
    out = []
    for component in at.get("bidi_component"):
        for section in json.loads(component.proto.json)["sections"]:
            figs = [it for it in section["items"] if "z" in it]
            out += [f | {"m": decode(f["z"], f["shape"])} for f in figs]
    return out


def heatmap(at: AppTest, title_part: str) -> dict:
    """The first heatmap whose title contains `title_part` (see `heatmaps`)."""
    found = [f for f in heatmaps(at) if title_part in f["title"]]
    assert found, f"no heatmap titled {title_part!r}; have {[f['title'] for f in heatmaps(at)]}"
    return found[0]


def values(v) -> np.ndarray:
    """A Plotly data array: a plain list, or a typed array {"dtype", "bdata"} (Plotly 6+)."""
    if isinstance(v, dict) and "bdata" in v:
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
    return np.asarray(v, dtype=float)


def frame(at: AppTest, column: str):
    """The first table on the page with a column named `column` (read-only tables have no key)."""
    for df in at.dataframe:
        if column in df.value.columns:
            return df.value
    raise AssertionError(f"no table with a column {column!r}")


def type_sentence(at: AppTest, sentence: str) -> AppTest:
    at.text_area(key="lesson_w_sentence").input(sentence)
    return rerun(at)


def numeric_tables(at: AppTest, *, skip=()) -> list[np.ndarray]:
    """Every table whose cells are all numbers, except those in expanders labelled with `skip`."""
    open_tables(at)
    skipped = [
        e.dataframe[0].proto for e in at.expander if e.dataframe and any(p in e.label for p in skip)
    ]
    out = []
    for df in at.dataframe:
        values = df.value
        numeric = all(d.kind in "biuf" for d in values.dtypes)
        if numeric and not any(df.proto == p for p in skipped):
            out.append(values.to_numpy(dtype=float))
    return out


def check_bad_sentence(at: AppTest, sentence: str, expect, *, may_be_empty=()) -> None:
    """No traceback; the expected message; no NaN in any table of numbers; no raw HTML.

    may_be_empty: labels of tables whose masked cells are empty on purpose (-inf scores).
    """
    type_sentence(at, sentence)
    if expect is not None:
        where, word = expect
        messages = [m.value for m in getattr(at, where)]
        assert any(word in m for m in messages), messages
    for m in at.markdown:
        assert not m.proto.allow_html, m.value
        assert "<script>" not in m.value and "<b>" not in m.value, m.value
    if expect is None or expect[0] == "warning":
        tables = numeric_tables(at, skip=may_be_empty)
        assert len(tables) >= 3, "the page shows too few tables of numbers"
        for values in tables:
            assert np.isfinite(values).all()
