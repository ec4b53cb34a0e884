"""How the pages write sizes, tokens and small differences, the same way on every page.

- Sizes in decimal units only (kB = 1,000 bytes, MB = 1,000,000 bytes), never MiB: two pages
  showing the same cache must show the same number.
- A token with its spaces and line breaks visible: " Paris" and "Paris" are different tokens
  and must not look alike; a line break is a sign, not Python's '\\n'.
- A value that shrinks step by step to three significant digits, so that 1.50, 1.42, 1.02
  stay apart instead of all reading 1e+00.

No Streamlit here: pages, views and compute all use it.
"""

from __future__ import annotations

from attn_lessons.i18n import N_, _

KB = 1_000  # bytes
MB = 1_000_000  # bytes
# the notes are drawn translated: `_(formats.SIZE_NOTE)`
SIZE_NOTE = N_("Sizes in decimal units: 1 kB = 1,000 bytes, 1 MB = 1,000,000 bytes (10⁶).")

VISIBLE = {" ": "␣", "\n": "↵", "\t": "⇥", "\r": "␍"}
EMPTY = "∅"
TOKEN_NOTE = N_(
    "In tokens, ␣ is a space (“␣Paris” is the token ' Paris', a word after a space; "
    "“Paris” has none), ↵ a line break and ⇥ a tab."
)


def size(n_bytes: float) -> str:
    """'512 bytes', '46.1 kB', '377.5 MB', '1,132.5 MB': one decimal, MB the largest unit (a
    column of sizes reads in one unit however large)."""
    if n_bytes != n_bytes or n_bytes < 0:  # NaN, or not a size
        raise ValueError(f"a size in bytes is a number >= 0; got {n_bytes!r}")
    if n_bytes < KB:
        # i18n: one message for every count ("1 bytes" included), as the English has it
        return _("{n} bytes").format(n=f"{n_bytes:,.0f}")
    if round(n_bytes / KB, 1) < KB:  # 999.96 kB would read "1,000.0 kB": that is 1.0 MB
        return f"{n_bytes / KB:,.1f} kB"
    return f"{n_bytes / MB:,.1f} MB"


def token(text: str) -> str:
    """A token as a label: ' Paris' -> '␣Paris', '\\n' -> '↵', '' -> '∅'."""
    return "".join(VISIBLE.get(c, c) for c in text) or EMPTY


def significant(x: float, digits: int = 3) -> str:
    """`x` to `digits` significant digits, trailing zeros kept: 1.5 -> '1.50',
    0.000238 -> '0.000238', 2.4e-07 -> '2.40e-07', 0 -> '0.00'."""
    return f"{x:#.{digits}g}"
