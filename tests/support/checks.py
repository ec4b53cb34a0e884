"""The check-yourself questions a step page shows, computed in the test's process from the
same settings (attn_lessons/questions.py), for AppTests and browser tests to answer."""

from __future__ import annotations

from dataclasses import replace

from attn_lessons.questions import for_run
from attn_ui.compute import lesson_run
from attn_ui.compute.lessons import masked_trace, preset_mask
from attn_ui.registry import in_group
from attn_ui.settings import LessonSettings

STEPS = {p.name: p for p in in_group("The steps")}
# the settings each page opens on (the masking page on the causal mask, multi-head on toy heads)
OPENS_ON = {"masking": {"mask": "causal"}, "multihead": {"weights": "random"}}


def questions(name: str, **changes):
    """The questions the page shows at its opening settings (with `changes`)."""
    s = LessonSettings(**(OPENS_ON.get(name, {}) | changes))
    run = lesson_run(s, multi=name in ("multihead",) or (name == "overview" and s.n_heads > 1))
    trace, unmasked = run.trace, None
    if name == "masking":
        unmasked = lesson_run(replace(s, mask="none")).trace
        trace = masked_trace(unmasked, preset_mask(s, len(run.tokens)), s.temperature)
    elif name in ("tokens", "projection", "scores", "scaling"):
        run = lesson_run(replace(s, mask="none"))
        trace = run.trace
    return for_run(name, run, s, trace=trace, unmasked=unmasked)


def widget_key(name: str, q) -> str:
    """The answer widget's key (attn_ui/path/checks.py)."""
    return f"chk_{name}_{q.key}_{q.ident}"
