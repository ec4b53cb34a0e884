"""The notebook example at the top of the README runs as it is printed."""

import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_example_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    assert "import" in example and "attn_core" in example
    names: dict = {}
    exec(compile(example, "README.md", "exec"), names)
    t, n = names["t"], len(names["tokens"])
    assert t.scores.shape == t.scaled.shape == t.weights.shape == (n, n)
    np.testing.assert_allclose(t.weights.sum(axis=-1), 1.0)
