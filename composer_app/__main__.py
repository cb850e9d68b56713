"""``python -m composer_app``: the desktop app (same as ``composer-app``)."""

from __future__ import annotations

import sys

from composer_app.ui.app import main

if __name__ == "__main__":
    sys.exit(main())
