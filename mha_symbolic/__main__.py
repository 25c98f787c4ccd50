"""``python -m mha_symbolic``: the mha-symbolic command."""

from __future__ import annotations

import sys

from mha_symbolic.cli import main

if __name__ == "__main__":
    sys.exit(main())
