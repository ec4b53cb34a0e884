"""The tiled-attention page's charts: how far the output still is from full attention after
each block, and the memory of the T x T scores against one tile as T grows. Numbers come in
from ``attn_core.tiled``; charts of ``chart.py`` go out (the tiles themselves are heatmaps,
drawn by ``attn_ui.figures.matrix``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attn_lessons.i18n import _
from attn_ui.figures import chart
from attn_ui.figures.lab_charts import loglog
from attn_ui.figures.plots import SCALED, UNSCALED

MEMORY_TICKS = [2**n for n in range(4, 15)]  # 16 .. 16,384 tokens
MAX_BLOCK_TICKS = 12  # more blocks than this: a tick every few


def block_ticks(n: int) -> list[int]:
    """Whole block numbers 1..n to tick, every one up to MAX_BLOCK_TICKS, else every k-th."""
    every = -(-n // MAX_BLOCK_TICKS)
    return list(range(1, n + 1, every))


def distance_figure(distance: np.ndarray, step: int) -> dict:
    """max |Z so far − Z| after each block (log y axis: the last point is rounding, ~1e-16),
    the block being shown marked."""
    blocks = np.arange(1, len(distance) + 1)
    shown = np.maximum(distance, 1e-18)  # an exact 0 has no place on a log axis
    return chart.lines(
        blocks,
        [
            chart.series(_("max |Z so far − Z|"), shown, SCALED, style="line"),
            chart.series(
                _("this step"), [shown[step - 1]], UNSCALED, style="diamond", x=[step], legend=False
            ),
        ],
        title=_("Distance from full attention after each block"),
        x_title=_("blocks read"),
        y_title=_("max |difference|"),
        log_y=True,
        x_ticks=block_ticks(len(blocks)),
        height=220,
    )


def memory_figure(ts: Sequence[int], full, tiled, your_t: int, block: int) -> dict:
    """Bytes of the T x T scores against one T x block tile (+ m, l, u), log-log, with the
    learner's T marked."""
    return loglog(
        _("Memory of one head's scores, block = {block}").format(block=block),
        _("T (tokens)"),
        _("bytes"),
        [
            (_("T × T scores"), ts, full),
            (_("T × {block} tile + m, l, u").format(block=block), ts, tiled),
        ],
        ticks=[x for x in ts if x != your_t or x in MEMORY_TICKS],  # no crowded extra tick
        mark=(your_t, _("your T = {t}").format(t=your_t)),
        colours=(UNSCALED, SCALED),
    )
