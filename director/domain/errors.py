"""The one kind of error a person can act on.

A `UserError` is the user's or the environment's (bad input, a refused action, a locked or
full disk): its text is shown as it is, next to the field or as one line on stderr. Anything
else that escapes is a bug, logged with its traceback and shown as "please report".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from director.domain.changes import Changes


class UserError(ValueError):
    """Something the person can fix; the message says what and how."""


class TargetError(UserError):
    """The place chosen for a new file cannot take it (the name is taken, the folder is
    missing): shown beside the field that names the place, not as the form's error."""


class ConflictError(UserError):
    """Another station changed the same thing first: show what it stored, then try again.

    `changes` names what to read again (every area when the refusal cannot tell, as for a
    transaction the database server refused as a conflict)."""

    def __init__(self, message: str, changes: Changes | None = None) -> None:
        from director.domain.changes import Area, Changes  # not for every UserError's import

        super().__init__(message)
        self.changes = Changes.of(*Area) if changes is None else changes
