"""Playing against the bots in the browser (issue 14): the site side of games/play/bot_match.py."""
