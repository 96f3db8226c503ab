"""Build step: compile the pure rating engine with mypyc when possible.

``ratings/engine`` is plain, type-checked Python (mypy --strict) and stays
importable as such.  Installing the project (``make install`` runs ``pip
install -e .``) also compiles it with mypyc into C extensions placed next to
the sources, which Python then imports instead of the ``.py`` files: the same
code, about twice as fast (bench/README.md has the figures).

The compiled engine is an optimisation, never a requirement:

* ``CLUBRATING_PURE=1`` at install time skips the build;
* a machine without a C compiler (or a failed build) gets a warning and the
  pure Python engine;
* ``ratings/engine/__init__.py`` ignores the compiled modules when any
  source file changed since the build (``_build.json`` holds their hashes),
  or when ``CLUBRATING_PURE=1`` is set at run time, so an edited ``.py``
  file is never shadowed by a stale extension.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
SYSTEMS = HERE / "ratings" / "engine"
#: The engine's modules, compiled together (they call each other natively).
#: ``__init__`` stays interpreted: it chooses between compiled and pure.
#: ``base`` stays interpreted too: its Game and Adjustment take whatever they
#: are given, so that each system can refuse a bad value with InvalidEvent
#: naming the field (a compiled dataclass would raise TypeError first).
COMPILED = (
    "ranks",
    "sagc",
    "_egf_common",
    "egf",
    "egf_old",
    "_ffg_common",
    "ffg",
    "ffg_old",
)
# west_surrey stays interpreted too: its loop moves stored floats between
# dicts and does no arithmetic, and compiled it ran slower (2.36 s against
# 2.09 s of CPU for a million games, bench/engine.py).
MANIFEST = SYSTEMS / "_build.json"
#: The sources' hashes when mypyc read them (a later edit must not be
#: recorded as compiled).
BUILT_FROM: dict[str, str] = {}


def source_hashes() -> dict[str, str]:
    return {name: hashlib.sha256((SYSTEMS / f"{name}.py").read_bytes()).hexdigest() for name in COMPILED}


class OptionalBuildExt(build_ext):
    """build_ext that falls back to the pure engine instead of failing."""

    def run(self) -> None:
        # Pure by choice or because mypyc failed: an earlier build's extensions
        # and manifest stay, and __init__ uses them only while every source
        # still matches the manifest.
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as error:
            self.warn(f"could not compile the rating engine ({error}); using pure Python")
            return
        manifest = json.dumps({"compiled": BUILT_FROM}, indent=1, sort_keys=True) + "\n"
        MANIFEST.write_text(manifest)
        if not self.inplace:  # a wheel (pip install .): the manifest goes with the extensions
            built = Path(self.build_lib) / MANIFEST.relative_to(HERE)
            built.parent.mkdir(parents=True, exist_ok=True)
            built.write_text(manifest)


def extensions() -> list[Extension]:
    if os.environ.get("CLUBRATING_PURE") == "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("mypyc is not available: the rating engine stays pure Python", file=sys.stderr)
        return []
    BUILT_FROM.update(source_hashes())
    try:
        built = mypycify(
            [f"ratings/engine/{name}.py" for name in COMPILED],
            opt_level="3",
            group_name="ratings_engine",
        )
        # setuptools is imported above, so mypyc builds setuptools' Extensions
        # (its stubs also allow distutils' on Python 3.11).
        return [extension for extension in built if isinstance(extension, Extension)]
    except (Exception, SystemExit) as error:  # mypyc reports type errors by exiting
        print(f"mypyc failed ({error}): the rating engine stays pure Python", file=sys.stderr)
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
