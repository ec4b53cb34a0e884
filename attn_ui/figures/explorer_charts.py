"""Figures for the model explorer: every head of the model in one grid, and one head's weights
as lines from the queries on the left to the keys on the right (`chart.links`). Numbers come
in; figures go out.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attn_lessons.i18n import _
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
            title=_("layer {layer}, head {head}").format(layer=i, head=h),
            kind="weights_stretched",
            framed=(i, h) == (layer, head),
        )
        for i in range(n_layers)
        for h in range(n_heads)
    ]
    return canvas_grid.small_multiples(
        items,
        row_labels=[_("L{layer}").format(layer=i) for i in range(n_layers)],  # layer i
        col_labels=[_("H{head}").format(head=h) for h in range(n_heads)],  # head h
        bar=heatmap.colour_bar("weights_stretched", _("weight")),
        name="every_head",
    )


def line_floor(t: int, query: int | None) -> float:
    """Weights below this get no line: invisible anyway, or (all lines of a long sentence)
    too many to read."""
    return 0.1 if query is None and t > DENSE else 0.01


def lines_figure(weights: np.ndarray, tokens: Sequence[str], query: int | None, name: str) -> dict:
    """(T, T) weights as lines from each query (left) to each key (right), stronger for a larger
    weight; only `query`'s lines when it is given (canvas_links.js draws them)."""
    if query is None:
        title = _("{name}: the lines of every query").format(name=name)
    else:
        title = _("{name}: the lines of query {query}").format(name=name, query=query)
    return chart.links(
        weights,
        tokens,
        query,
        title=title,
        floor=line_floor(len(tokens), query),
    )
