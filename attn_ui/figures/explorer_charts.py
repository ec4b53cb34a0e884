"""Figures for the model explorer: every head of the model in one grid, and one head's weights
as lines from the queries on the left to the keys on the right (`chart.links`). Numbers come
in; figures go out.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attn_ui.figures import canvas_grid, chart, heatmap

DENSE = 40  # beyond this many tokens only strong weights get a line (js/links_layout.js: DENSE)


def grid(attentions: np.ndarray, tokens: Sequence[str], layer: int, head: int) -> dict:
    """(n_layers, n_heads, T, T) weights as one small heatmap per head, layers as rows and
    heads as columns, (layer, head) framed: a section for `canvas_grid.show`.

    The colours are stretched towards small weights: in a long sentence most weights are
    small, and on a linear scale the 72 squares would be almost white."""
    n_layers, n_heads = attentions.shape[:2]
    items = [
        heatmap.small(
            attentions[i, h],
            tokens,
            tokens,
            title=f"layer {i}, head {h}",
            kind="weights_stretched",
            framed=(i, h) == (layer, head),
        )
        for i in range(n_layers)
        for h in range(n_heads)
    ]
    return canvas_grid.small_multiples(
        items,
        row_labels=[f"L{i}" for i in range(n_layers)],
        col_labels=[f"H{h}" for h in range(n_heads)],
        bar=heatmap.colour_bar("weights_stretched", "weight"),
        name="every_head",
    )


def line_floor(t: int, query: int | None) -> float:
    """Weights below this get no line: invisible anyway, or (all lines of a long sentence)
    too many to read."""
    return 0.1 if query is None and t > DENSE else 0.01


def lines_figure(weights: np.ndarray, tokens: Sequence[str], query: int | None, name: str) -> dict:
    """(T, T) weights as lines from each query (left) to each key (right), stronger for a larger
    weight; only `query`'s lines when it is given (canvas_links.js draws them)."""
    which = "every query" if query is None else f"query {query}"
    return chart.links(
        weights,
        tokens,
        query,
        title=f"{name}: the lines of {which}",
        floor=line_floor(len(tokens), query),
    )
