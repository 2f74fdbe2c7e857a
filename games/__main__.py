"""``python -m games``: the engine's command line (ENGINE-CLI.md)."""

import sys

from games.cli import main

sys.exit(main())
