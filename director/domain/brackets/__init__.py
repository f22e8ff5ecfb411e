"""Knockout brackets with second chances (RULES §11): the plan (`plan.py`), the draw paired
match by match (`draw.py`), a player's next match and where a loss sends them
(`next_match.py`), and an independent check of a draw's state (`checker.py`)."""
