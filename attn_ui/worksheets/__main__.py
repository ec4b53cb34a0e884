"""``python -m attn_ui.worksheets``: see ``attn_ui.worksheets.cli``."""

import sys

from attn_ui.worksheets.cli import main

sys.exit(main())
