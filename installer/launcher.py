"""The built app's entry point: the same `main` as the `tandem-director` command."""

import sys

from director.cli import main

if __name__ == "__main__":
    sys.exit(main())
