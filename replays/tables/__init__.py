"""Tables with friends: rooms for up to four people, bots in the empty seats (issue 28)."""
