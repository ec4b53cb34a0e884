"""AppTest helpers for the by-hand pages (by hand, practice, worksheets): read keyed grids of
exact numbers, type into data editors."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from streamlit.testing.v1 import AppTest


def grid(at: AppTest, key: str) -> np.ndarray:
    """The text cells of the table inside the container keyed `key`, (R, C)."""
    block = at.main.get_by_key(key)
    tables = [n for n in block if n.type == "table"]
    assert tables, f"no table in {key}"
    return tables[0].value.to_numpy(dtype=str)


def labels(at: AppTest, key: str) -> tuple[list[str], list[str]]:
    block = at.main.get_by_key(key)
    df = next(n for n in block if n.type == "table").value
    return list(df.index), list(df.columns)


def exact(cell: str) -> Fraction:
    """'9/14 ≈ 0.643' -> Fraction(9, 14); '-3' -> Fraction(-3)."""
    return Fraction(cell.split("≈")[0].strip())


def exact_grid(at: AppTest, key: str) -> np.ndarray:
    return np.vectorize(exact, otypes=[object])(grid(at, key))


def floats(at: AppTest, key: str) -> np.ndarray:
    return grid(at, key).astype(float)


def has(at: AppTest, key: str) -> bool:
    try:
        at.main.get_by_key(key)
    except KeyError:
        return False
    return True


def type_cells(at: AppTest, key: str, cells: dict[tuple[int, str], object]) -> None:
    """Seed a keyed data editor's edits, {(row index, column name): value}, before run()."""
    rows: dict[int, dict[str, object]] = {}
    for (i, col), value in cells.items():
        rows.setdefault(i, {})[col] = value
    at.session_state[key] = {"edited_rows": rows, "added_rows": [], "deleted_rows": []}
