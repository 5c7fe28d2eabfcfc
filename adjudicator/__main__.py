"""``python -m adjudicator``: the ``pbem`` command line."""

import sys

from .cli import main

sys.exit(main())
