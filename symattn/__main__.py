"""``python -m symattn``: the same as the ``symattn`` command."""

import sys

from symattn.cli import main

sys.exit(main())
