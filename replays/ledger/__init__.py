"""The match ledger of a game at a real table (issue 30, docs/ledger.md)."""
