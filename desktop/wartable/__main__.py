"""`python -m wartable` runs the same entry point as the `wartable` script."""

import sys

from wartable.cli import main

sys.exit(main())
