"""Build step: copy the repository's data folders into the package.

``grammar/``, ``maps/`` and ``turns/`` live at the top of the repository (the only copy
in the source tree).  Building a wheel copies them into ``adjudicator/data/`` so that an
installed ``pbem`` finds them with importlib.resources (``adjudicator/io/paths.py``).  An
editable install reads them from the checkout instead, so nothing is copied there.
Everything else is configured in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
DATA_FOLDERS = ("grammar", "maps", "turns")   # keep in step with adjudicator/io/paths.py
TARGET = Path("adjudicator") / "data"


def _skip(folder: str, names: list[str]) -> set[str]:
    """Hidden entries (a game's .secret/ above all) and Python caches never ship."""
    return {n for n in names if n.startswith(".") or n == "__pycache__" or n.endswith(".pyc")}


class BuildPyWithData(build_py):
    """``build_py`` that also copies the data folders into ``build_lib``."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for name in DATA_FOLDERS:
            source = HERE / name
            if not source.is_dir():
                raise SystemExit(f"setup.py: data folder {source} is missing")
            dest = Path(self.build_lib) / TARGET / name
            if dest.exists():
                shutil.rmtree(dest)
            shutil.copytree(source, dest, ignore=_skip)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = list(super().get_outputs(include_bytecode))
        if not getattr(self, "editable_mode", False):
            root = Path(self.build_lib) / TARGET
            outputs += [str(p) for p in sorted(root.rglob("*")) if p.is_file()]
        return outputs


setup(cmdclass={"build_py": BuildPyWithData})
