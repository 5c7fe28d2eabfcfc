"""The order-kind registration API under its first name (plug-ins import it from here:
``from adjudicator.io.order_kinds import STANDING, kind``).

Everything lives in ``io.kinds``: the registry in ``io/kinds/base.py``, the package's own
kinds one module each in ``io/kinds/<kind>.py``; importing this module registers them all.
"""

from __future__ import annotations

from .kinds import *  # noqa: F401,F403  (the same names, the same objects)
from .kinds import __all__  # noqa: F401
