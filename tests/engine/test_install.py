"""Installing works with or without a C compiler.

The project is built as an install builds it (``setup.py build``: the
packages and the extensions a wheel holds) from a copy of its sources, in a
temporary folder, never in this checkout or its virtualenv, and used from
there: with a compiler that always fails (``CC=false``) the build warns and
the engine is the pure one, and works; with the machine's compiler the same
build gives the compiled engine.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support import REPO, need

pytestmark = pytest.mark.slow

#: Rates one game with every system from the installed package.
USE = """
import json
from datetime import date
import ratings.engine as engine
from ratings.engine.base import Game, Start, Winner
game = Game(date(2024, 1, 1), "a", "b", Winner.WHITE)
starts = {"a": Start(rank=-5.0), "b": Start(rank=-6.0)}
changes = {n: engine.get_system(n).rate([game], starts=starts).ledger.change.tolist() for n in engine.SYSTEM_NAMES}
print(json.dumps({"engine": engine.ENGINE, "file": engine.__file__, "changes": changes}))
"""


def install(tmp_path: Path, **env: str) -> tuple[str, dict[str, Any]]:
    """The build's output, and what the installed engine says of itself."""
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy(REPO / name, source / name)
    for package in ("ratings", "clubrating", "accounts"):
        shutil.copytree(
            REPO / package, source / package, ignore=shutil.ignore_patterns("__pycache__", "*.so")
        )
    target = tmp_path / "lib"
    environ = {k: v for k, v in os.environ.items() if k != "CLUBRATING_PURE"} | env
    done = subprocess.run(
        [sys.executable, "setup.py", "build", "--build-base", str(tmp_path / "build"), "--build-lib", str(target)],
        cwd=source, env=environ, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    used = subprocess.run(
        [sys.executable, "-c", USE],
        cwd=tmp_path,
        env={**environ, "PYTHONPATH": str(target)},
        capture_output=True,
        text=True,
        check=True,
    )
    seen: dict[str, Any] = json.loads(used.stdout)
    assert Path(seen["file"]).is_relative_to(target), "the built copy was imported"
    assert all(len(change) == 2 for change in seen["changes"].values())
    return done.stdout + done.stderr, seen


def test_without_a_c_compiler_the_pure_engine_is_installed(tmp_path: Path) -> None:
    output, seen = install(tmp_path, CC="false")
    assert "could not compile the rating engine" in output
    assert seen["engine"] == "pure"
    assert not list((tmp_path / "lib").rglob("*.so")), "no half-built extension is installed"


def test_with_a_c_compiler_the_compiled_engine_is_installed(tmp_path: Path) -> None:
    need(shutil.which(os.environ.get("CC", "cc")) is not None, "a C compiler", env="REQUIRE_COMPILED")
    output, seen = install(tmp_path)
    assert "could not compile" not in output
    assert seen["engine"] == "compiled"
