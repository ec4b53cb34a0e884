"""The overview's canvas heatmaps: what the browser is sent equals the engine's numbers.

The drawing itself is checked in a browser (tests/e2e/test_overview_canvas.py); here, the
data the component receives, decoded as its JavaScript decodes it. The rules every heatmap
follows: tests/app/test_heatmap.py.
"""

import numpy as np

from attn_ui.compute import lesson_run
from attn_ui.settings import LessonSettings
from tests.support.apptest import (
    RANDOM,
    canvas_grids,
    canvas_matrices,
    canvas_sections,
    load,
    rerun,
)

PAGE = "pages/00_Overview.py"

# These tests read the seeded random weights (d_model, d_k, seed): the lessons open on a real
# head, and a link with weights=random gives the random ones (tests/app/test_default_weights.py).


def test_every_matrix_sent_is_the_engines():
    at = load(PAGE, query=RANDOM)
    at.text_input(key="lesson_w_sentence").input("the cat saw the cat").run()
    at.session_state["lesson_w_n_heads"] = 3
    rerun(at)
    s = LessonSettings(sentence="the cat saw the cat", n_heads=3, **RANDOM)
    run = lesson_run(s, multi=True)
    t, got = run.trace, canvas_matrices(at)
    want = {
        "X": run.x,
        "Q = X W_Q": t.q,
        "K = X W_K": t.k,
        "V = X W_V": t.v,
        "S = Q Kᵀ": t.scores,
        f"S × {t.scale:.3g} (+ mask)": t.masked,
        "A = softmax by row": t.weights,
        "Z = A V": t.output,
        "concat(heads) W_O": run.multi.output,
    }
    want |= {f"head {h}: A": head.weights for h, head in enumerate(run.multi.heads)}
    assert got.keys() == want.keys()
    # twelve matrices in two components, not twelve (each costs the server about a ms a rerun)
    assert len(canvas_grids(at)) == 2
    for name, m in want.items():
        np.testing.assert_array_equal(got[name], m, err_msg=name)  # float64, bit for bit
    rows = [it["rows"] for sec in canvas_sections(at) for it in sec["items"] if "z" in it]
    assert all(r == ["the", "cat", "saw", "the", "cat"] for r in rows)  # repeats keep a row


def test_a_mask_reaches_the_browser_as_minus_infinity():
    at = load(PAGE, query=RANDOM)
    at.selectbox(key="lesson_w_mask").select("causal")
    rerun(at)
    masked = next(v for k, v in canvas_matrices(at).items() if k.startswith("S × "))
    assert np.all(np.isneginf(masked[np.triu_indices_from(masked, 1)]))
    assert np.all(np.isfinite(masked[np.tril_indices_from(masked)]))
