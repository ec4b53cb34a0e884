"""The by-hand layout switch (tokens as columns) shows each page's matrices transposed.

One case per page with the switch. Each pair is (the title in the row layout, the title in
the by-hand layout): the second is the first transposed, on the same sentence and settings.
The row-layout numbers are checked against the engine in each page's own tests.
"""

import numpy as np
import pytest

from tests.support.apptest import (
    canvas_matrices,
    frame,
    heatmap,
    lesson,
    load,
    rerun,
    table,
)

PAIRS = {
    "pages/00_Overview.py": [
        ("A = softmax", "A (columns sum to 1)"),
        ("S = Q Kᵀ", "Kᵀ Q"),
        ("Q = X W_Q", "Q = W_Q X"),
    ],
    "pages/01_Tokens.py": [("Numbers of X", "X (features × tokens)")],
    "pages/02_Projection.py": [
        ("Numbers of W_Q", "W_Q (d_k × d_model)"),
        ("Q = X W_Q", "Q = W_Q X"),
    ],
    "pages/03_Scores.py": [
        ("S = Q Kᵀ", "S by hand = Kᵀ Q"),
        ("Numbers of Kᵀ", "Kᵀ (tokens × features)"),
    ],
    "pages/04_Scaling.py": [("softmax(S / √d_k)", "softmax by column, scaled")],
    "pages/05_Softmax.py": [("A = softmax by row", "A (columns sum to 1)")],
    "pages/06_Weighted_sum.py": [
        ("Z = A V", "Z = V A"),
        ("A (rows sum to 1)", "A (columns sum to 1)"),
    ],
    "pages/07_Masking.py": [("Numbers of softmax(S/√d_k + M) ", "softmax by column (+ Mᵀ)")],
    "pages/08_Multi-head.py": [("output = concat W_O", "output = W_O concat")],
    "pages/45_Local_attention.py": [("Local, w = 2", "Local, w = 2")],
    "pages/50_Tiled_attention.py": [
        ("Tile 1: S / √d_k + M", "Tile 1 (keys × queries)"),
        ("Z after block 1 = u / l", "Z after block 1 (features × tokens)"),
    ],
    "pages/48_Word_order.py": [
        ("no positions: your order", "no positions: your order"),
        ("P (sin, cos)", "P (sin, cos)"),
    ],
    "pages/51_Gradients.py": [
        ("dS = A ⊙", "(dS = A ⊙"),
        ("dW_Q = Xᵀ dQ", "(dW_Q = Xᵀ dQ"),
    ],
}
# By-hand titles of attention weights: each column is one query's distribution.
COLUMN_DISTRIBUTIONS = (
    "A (columns sum to 1)",
    "softmax by column",
    "Local, w = 2",
    "no positions: your order",
)


def page_id(path: str) -> str:
    return path.split("/")[-1].removesuffix(".py")


@pytest.mark.parametrize("page", PAIRS, ids=page_id)
def test_by_hand_layout_is_the_transpose(page):
    at = load(page, query={"mask": "causal"} if "Masking" in page else None)
    rows = {r: table(at, r) for r, _ in PAIRS[page]}
    drawn = canvas_matrices(at) if "Overview" in page else {}
    at.toggle(key="lesson_w_columns").set_value(True)
    rerun(at)
    for row_title, col_title in PAIRS[page]:
        cols = table(at, col_title)
        np.testing.assert_allclose(cols, rows[row_title].T, err_msg=col_title)
        if col_title.startswith(COLUMN_DISTRIBUTIONS):
            np.testing.assert_allclose(cols.sum(axis=0), 1.0, atol=1e-6, err_msg=col_title)
    if drawn:  # the overview's canvas figures are sent transposed too
        by_hand = canvas_matrices(at)
        for row_title, col_title in PAIRS[page]:
            row_name = next(n for n in drawn if n.startswith(row_title))
            np.testing.assert_array_equal(by_hand[col_title], drawn[row_name].T)
    if "Softmax" in page:  # the row sums become column sums
        sums = frame(at, "column sum of A").to_numpy(dtype=float)
        assert sums.shape == (len(rows["A = softmax by row"]), 1)
        np.testing.assert_allclose(sums, 1.0, atol=1e-4)
    if "Scores" in page:  # the hover turns with the matrix
        fig = heatmap(at, "S by hand = Kᵀ Q")
        np.testing.assert_array_equal(fig["m"], lesson().trace.scores.T)
        assert fig["hover"][5][2].startswith("q2·k5 = ")


@pytest.mark.parametrize(
    ("page", "row_words", "column_words"),
    [
        ("pages/01_Tokens.py", "X: one row per token", "X: one column per token"),
        ("pages/02_Projection.py", "one row per token", "one column per token"),
        ("pages/06_Weighted_sum.py", "One output row", "One output column"),
    ],
    ids=lambda v: page_id(v) if v.startswith("pages/") else "",
)
def test_headings_say_columns_in_the_by_hand_layout(page, row_words, column_words):
    """A heading that says "row" in the row layout says "column" in the by-hand layout."""
    at = load(page)
    assert any(row_words in h.value for h in at.subheader)
    at.toggle(key="lesson_w_columns").set_value(True)
    rerun(at)
    heads = [h.value for h in at.subheader]
    assert any(column_words in h for h in heads) and not any(row_words in h for h in heads)
