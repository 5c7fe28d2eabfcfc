"""Write the release's constraints (lock) file: every package pbem needs at run time,
directly or through another, pinned to the version installed in this environment.

    python scripts/lock_constraints.py          # writes constraints/<version>.txt
    pip install -c constraints/0.2.0.txt pbem-adjudicator==0.2.0   # that release, as tested

Run it in the environment the release was tested in (CI's newest-versions leg), with every
optional extra installed that the lock should cover (``keyring``).  Test-only tools are left
out: the lock is for people who run pbem.
"""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "pbem-adjudicator"
EXTRAS = ("keyring",)


def runtime_closure(package: str = PACKAGE, extras=EXTRAS) -> dict[str, str]:
    """Canonical name -> installed version of everything ``package`` (with ``extras``)
    needs on this interpreter, the package itself excluded."""
    found: dict[str, str] = {}
    todo = [(package, tuple(extras))]
    while todo:
        name, wanted = todo.pop()
        dist = distribution(name)
        for line in dist.requires or ():
            req = Requirement(line)
            if req.marker and not any(req.marker.evaluate({**default_environment(), "extra": e})
                                      for e in ("", *wanted)):
                continue
            key = canonicalize_name(req.name)
            if key in found:
                continue
            try:
                found[key] = distribution(req.name).version
            except PackageNotFoundError:
                raise SystemExit(f"{req.name} (needed by {name}) is not installed here") from None
            todo.append((req.name, tuple(req.extras)))
    return dict(sorted(found.items()))


def render(version: str, pins: dict[str, str]) -> str:
    head = (f"# pbem-adjudicator {version}: the run-time packages it was tested with\n"
            f"# (python {sys.version_info.major}.{sys.version_info.minor}; written by "
            "scripts/lock_constraints.py).\n"
            f"# pip install -c constraints/{version}.txt 'pbem-adjudicator[keyring]=={version}'\n")
    return head + "".join(f"{name}=={v}\n" for name, v in pins.items())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; fail if the file differs from this environment")
    args = parser.parse_args(argv)
    version = distribution(PACKAGE).version
    target = ROOT / "constraints" / f"{version}.txt"
    text = render(version, runtime_closure())
    if args.check:
        same = target.is_file() and target.read_text(encoding="utf-8") == text
        print(f"{target}: {'up to date' if same else 'differs from this environment'}")
        return 0 if same else 1
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
