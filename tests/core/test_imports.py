"""attn_core stays free of the UI stack, and its public names are all there."""

import subprocess
import sys
from pathlib import Path

import attn_core

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import sys
import attn_core
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {"streamlit", "plotly", "attn_ui"})
print("LOADED", loaded)
assert "attn_core" in sys.modules and "numpy" in sys.modules
"""


def test_import_pulls_in_neither_streamlit_nor_plotly():
    done = subprocess.run(
        [sys.executable, "-c", CHECK], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "LOADED []" in done.stdout, done.stdout


def test_the_check_would_see_a_ui_import():
    code = "import plotly\n" + CHECK
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "'plotly'" in done.stdout


def test_public_names():
    expected = {
        "softmax",
        "attention",
        "self_attention",
        "multi_head_attention",
        "additive_attention",
        "causal_mask",
        "padding_mask",
        "window_mask",
        "lesson_weights",
        "split_heads",
        "Trace",
        "MultiHeadTrace",
        "AdditiveTrace",
        "Weights",
        "AttentionInputError",
        "ShapeError",
        "NonFiniteError",
        "FullyMaskedRowError",
    }
    assert expected <= set(attn_core.__all__)
    for name in attn_core.__all__:
        assert hasattr(attn_core, name), name
