"""Knockout brackets with second chances (RULES §11): the plan (`plan.py`), the draw paired
match by match (`draw.py`) and an independent check of a draw's state (`checker.py`)."""
