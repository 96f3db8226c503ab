"""Build step: the rating engine compiled with mypyc, when possible.

``ratings/engine`` is plain, type-checked Python (mypy --strict).  Installing
the project also compiles the modules listed under
``[tool.clubrating] compiled`` in pyproject.toml with mypyc's setuptools
integration (``mypycify``), into extensions that Python imports instead of
the ``.py`` files: the same code, two to four times as fast
(bench/RESULTS.md).

The compiled engine is an optimisation, never a requirement: with
``CLUBRATING_PURE=1`` at build time, without mypyc, or when compiling fails
(no C compiler), the build warns and installs the pure engine.
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
COMPILED: list[str] = tomllib.loads((HERE / "pyproject.toml").read_text())["tool"]["clubrating"]["compiled"]


class OptionalBuildExt(build_ext):
    """build_ext that installs the pure engine instead of failing."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no C compiler, a compiler error, a failed link
            self.warn(f"could not compile the rating engine ({error}); it stays pure Python")
            self.remove_extensions()

    def remove_extensions(self) -> None:
        """Remove what this build made, here and in place: half a compiled
        engine (a module without its shared runtime) would not import."""
        for ext in self.extensions:
            # setuptools' build_ext has no type hints for this method.
            filename: str = self.get_ext_filename(self.get_ext_fullname(ext.name))  # type: ignore[no-untyped-call]
            for built in (Path(self.build_lib) / filename, HERE / filename):
                built.unlink(missing_ok=True)


def extensions() -> list[Any]:
    if os.environ.get("CLUBRATING_PURE") == "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("mypyc is not available: the rating engine stays pure Python", file=sys.stderr)
        return []
    try:
        return list(mypycify(COMPILED, opt_level="3", group_name="ratings_engine"))
    except (Exception, SystemExit) as error:  # mypyc reports type errors by exiting
        print(f"mypyc failed ({error}): the rating engine stays pure Python", file=sys.stderr)
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
