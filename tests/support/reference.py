"""Stored reference cases (tests/fixtures/*.npz, written by tests/fixtures/make_*.py): every
array of case `name` is stored as ``name__field``."""

from __future__ import annotations

from pathlib import Path

import numpy as np

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def load(file: str) -> dict[str, np.ndarray]:
    """Every array of tests/fixtures/`file`, read into memory."""
    with np.load(FIXTURES / file) as data:
        return {key: data[key] for key in data.files}


def case(ref: dict[str, np.ndarray], name: str) -> dict[str, np.ndarray]:
    """The arrays of one case, by field name."""
    prefix = name + "__"
    return {key[len(prefix) :]: value for key, value in ref.items() if key.startswith(prefix)}
