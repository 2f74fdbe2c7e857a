"""``python -m games``: the engine's command line (ENGINE-CLI.md)."""

import sys

from games.commands.cli import main

sys.exit(main())
