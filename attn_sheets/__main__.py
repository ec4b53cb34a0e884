"""``python -m attn_sheets``: see ``attn_sheets.cli``."""

import sys

from attn_sheets.cli import main

sys.exit(main())
