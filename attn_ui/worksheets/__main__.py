"""``python -m attn_ui.worksheets``: the same command line as ``python -m attn_sheets``."""

import sys

from attn_sheets.cli import main

sys.exit(main())
