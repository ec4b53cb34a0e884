"""The charts of the KV cache and grouped-query pages: the cache's memory and the FLOPs of one
more token against the context, and the cache of MHA, GQA and MQA as the context grows.
Numbers come in (``attn_ui.compute.kv_cache``, ``attn_core.labs.grouped_query``); charts of
``chart.py`` go out."""

from __future__ import annotations

import numpy as np

from attn_lessons.i18n import _, ngettext
from attn_ui import formats
from attn_ui.figures import chart, plots
from attn_ui.figures.lab_charts import loglog

WEIGHTS, YOURS = "#7f7f7f", "#d62728"
VARIANTS = {"MHA": "#d62728", "GQA": "#1f77b4", "MQA": "#2ca02c"}


def kv_memory(curves: dict, weights_mb: float, t: int, cache_mb: float, yours: str) -> dict:
    """MB of the KV cache against the context, the weights' MB beside it, the learner's prompt
    (`t` tokens, `cache_mb`) marked."""
    return plots.lines(
        [
            (_("KV cache (float32)"), curves["t"], curves["cache_mb"], None, "linear"),
            (_("the weights"), curves["t"], [weights_mb] * len(curves["t"]), WEIGHTS, "linear"),
        ],
        title=_("Memory of the KV cache against the context"),
        x_title=_("tokens in the context"),
        y_title=_("MB (10⁶ bytes)"),
        marks=[(_("your {yours} and the model's one").format(yours=yours), t, cache_mb, YOURS)],
    )


def kv_flops(curves: dict) -> dict:
    """FLOPs of one more token with the cache and without it, log-log."""
    return loglog(
        _("FLOPs to read one more token"),
        _("tokens in the context"),
        _("FLOPs"),
        [
            (_("with the cache"), curves["t"], curves["flops_with"], "solid"),
            (_("without (all again)"), curves["t"], curves["flops_without"], "dash"),
        ],
    )


def cache_growth(t: np.ndarray, growth: dict[str, np.ndarray], context: int) -> dict:
    """MB of the cache of each variant (name -> bytes at each T), the chosen context marked."""
    return chart.lines(
        t,
        [
            chart.series(name, b / formats.MB, VARIANTS[name], style="curve")
            for name, b in growth.items()
        ],
        title=_("KV cache (float32) against the context"),
        x_title=_("tokens in the context, T"),
        y_title=_("MB (10⁶ bytes)"),
        mark=(context, ngettext("{n} token", "{n} tokens", context).format(n=context)),
        height=260,
    )
