"""Where the project's data folders (``grammar/``, ``maps/``, ``turns/``) live.

The repository keeps them at its top level, beside the package: that is the only copy in the
source tree.  Building a wheel copies them into the package as ``adjudicator/data/<name>``
(``setup.py``), where :func:`data_dir` finds them beside the package's modules.  Every
reader of these folders goes through this module, so a checkout (editable install) and an
installed wheel behave alike.
"""

from __future__ import annotations

from pathlib import Path

DATA_FOLDERS = ("grammar", "maps", "turns")
PACKAGE = "adjudicator"
PACKAGE_DATA = "data"    # adjudicator/data/<name> in a built wheel

ROOT = Path(__file__).resolve().parent.parent.parent   # the checkout, when there is one


def checkout_dir(name: str) -> Path | None:
    """``<checkout>/<name>`` when the package runs from a source checkout, else None."""
    candidate = ROOT / name
    if (ROOT / "pyproject.toml").is_file() and candidate.is_dir():
        return candidate
    return None


def package_data_dir(name: str) -> Path | None:
    """``adjudicator/data/<name>`` inside an installed package, else None.  The package must
    be installed as files (as pip does), not imported from a zip archive: there
    ``importlib.resources.files`` is this folder (not imported: issue 24, start-up)."""
    folder = Path(__file__).resolve().parent.parent / PACKAGE_DATA / name
    return folder if folder.is_dir() else None


def data_dir(name: str) -> Path:
    """The folder ``name`` (one of ``DATA_FOLDERS``): the checkout's own folder when running
    from a checkout, else the copy shipped in the package.  If neither exists the package
    location is returned, so that callers report it as empty rather than crash."""
    if name not in DATA_FOLDERS:
        raise ValueError(f"unknown data folder {name!r} (known: {', '.join(DATA_FOLDERS)})")
    found = checkout_dir(name) or package_data_dir(name)
    if found is not None:
        return found
    return Path(__file__).resolve().parent.parent / PACKAGE_DATA / name


MAPS_DIR = data_dir("maps")
GRAMMAR_DIR = data_dir("grammar")
TURNS_DIR = data_dir("turns")
EXAMPLE_DIR = TURNS_DIR / "aa1941-example"
