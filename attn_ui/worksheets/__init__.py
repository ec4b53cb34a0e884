"""The worksheet export's old name: it is now the package ``attn_sheets``.

Kept so that ``python -m attn_ui.worksheets --seed 7 --count 30 --out sheets/`` (docs/teaching.md,
course material, the worksheets page) and ``from attn_ui import worksheets`` keep working.
"""

from attn_sheets import *  # noqa: F403 - the same names, on purpose
from attn_sheets import __all__ as __all__
