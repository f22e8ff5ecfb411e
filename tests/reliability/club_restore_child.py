"""A child that restores a club from one backup, then the other, again and again, printing the
number of each restore once it is done (killed by the parent meanwhile)."""

from __future__ import annotations

import sys

from director.services.backups import restore_backup


def main() -> None:
    club, backups = sys.argv[1], sys.argv[2:]
    for n in range(1, 10_000):
        restore_backup(club, backups[n % len(backups)], f"restore {n}")
        print(n, flush=True)


if __name__ == "__main__":
    main()
