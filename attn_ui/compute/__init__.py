"""From what the learner chose to the core's results, cached. No maths here: it calls attn_core.

``lessons``: the step pages (one ``LessonRun`` per settings); ``labs``: the labs' samples,
runs and timings; ``explorer``: MiniLM on the explorer's text; ``model``: the pretrained
model, loaded once per server. The step pages' calls are importable from here.
"""

from attn_ui.compute.lessons import LessonRun, lesson_mask, lesson_run
from attn_ui.compute.model import minilm

__all__ = ["LessonRun", "lesson_mask", "lesson_run", "minilm"]
