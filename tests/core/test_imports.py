"""attn_core needs NumPy alone: every module imports without the UI and the model's file
libraries, none pulls in the UI stack, and the public names are all there."""

import subprocess
import sys
from pathlib import Path

import attn_core

ROOT = Path(__file__).resolve().parents[2]
BLOCKED = ("streamlit", "plotly", "pandas", "safetensors", "tokenizers", "gguf")
UI = ("streamlit", "plotly", "pandas", "attn_ui")

# Imports every module that pkgutil finds under attn_core and prints its name.
WALK = """
import importlib, pkgutil, sys
for name in {blocked!r}:
    sys.modules[name] = None  # `import name` now raises ImportError
import attn_core


def stop(name):
    raise SystemExit("cannot import " + name)


found = pkgutil.walk_packages(attn_core.__path__, "attn_core.", onerror=stop)
names = ["attn_core", *(m.name for m in found)]
for name in names:
    importlib.import_module(name)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {ui!r})
print("LOADED", loaded)
print("\\n".join(names))
"""


def python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def every_module() -> set[str]:
    """attn_core's modules, from the files on disk: what the walk must find."""
    out = set()
    for path in (ROOT / "attn_core").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        out.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


def test_every_module_imports_with_numpy_alone():
    done = python(WALK.format(blocked=BLOCKED, ui=UI))
    assert done.returncode == 0, done.stderr
    walked = set(done.stdout.splitlines()[1:])
    assert walked == every_module()
    assert {"attn_core.pretrained.minilm_files", "attn_core.text", "attn_core.fast"} <= walked


def test_no_module_imports_streamlit_plotly_or_pandas():
    done = python(WALK.format(blocked=(), ui=UI))  # nothing blocked: what would be loaded?
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "LOADED []", done.stdout


def test_the_check_would_see_a_ui_import():
    done = python("import plotly\n" + WALK.format(blocked=(), ui=UI))
    assert done.returncode == 0, done.stderr
    assert "'plotly'" in done.stdout.splitlines()[0]


def test_the_model_readers_import_their_libraries_when_a_model_is_loaded():
    code = (
        "import sys\n"
        "sys.modules['tokenizers'] = None\n"
        "import attn_core\n"
        "try:\n"
        "    attn_core.text.embed('the cat', 4)\n"
        "except ImportError as exc:\n"
        "    print('REFUSED', exc)\n"
    )
    done = python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("REFUSED") and "tokenizers" in done.stdout


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
        "tiled_attention",
        "TiledTrace",
    }
    assert expected <= set(attn_core.__all__)
    for name in attn_core.__all__:
        assert hasattr(attn_core, name), name


def test_names_that_notebooks_use_still_work():
    import attn_core.pencil
    from attn_core.pencil import hand_attention

    assert attn_core.pencil is attn_core.by_hand.trace
    assert hand_attention is attn_core.hand_attention is attn_core.by_hand.hand_attention
    assert callable(attn_core.text.embed)
    assert attn_core.pretrained.load_minilm is attn_core.pretrained.minilm.load_minilm
