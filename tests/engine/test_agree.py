"""The compiled engine gives exactly what its pure sources give.

tests/engine/corpus.py replays a random corpus with every system, once
against the engine as installed here (compiled after ``make install``) and
once against a copy of its ``.py`` files alone in a temporary folder (the
pure reference), each in its own process; the digests of every ledger,
state and explanation must be equal.  CI sets REQUIRE_COMPILED, so that a
missing build fails here instead of skipping.
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

import ratings.engine
from tests.support import REPO, need

CORPUS = Path(__file__).with_name("corpus.py")
SEEDS = ("1", "2", "3", "4", "5", "6", "7", "8")


def run_corpus(root: Path) -> dict[str, Any]:
    """The corpus's digests with ``root`` (holding ``ratings``) first on the path."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, str(CORPUS), *SEEDS], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def pure_copy(to: Path) -> Path:
    """ratings/engine's sources, and nothing else, under ``to``."""
    (to / "ratings" / "engine").mkdir(parents=True)
    shutil.copy(REPO / "ratings" / "__init__.py", to / "ratings" / "__init__.py")
    for source in (REPO / "ratings" / "engine").glob("*.py"):
        shutil.copy(source, to / "ratings" / "engine" / source.name)
    return to


def test_compiled_and_pure_give_the_same_digests(tmp_path: Path) -> None:
    need(ratings.engine.ENGINE == "compiled", "the compiled engine (make install)", env="REQUIRE_COMPILED")
    compiled = run_corpus(REPO)
    pure = run_corpus(pure_copy(tmp_path))
    assert compiled.pop("engine") == "compiled"
    assert pure.pop("engine") == "pure"
    assert pure.pop("compiled") == []
    assert compiled.pop("compiled") == sorted(ratings.engine.COMPILED)
    assert Path(compiled.pop("file")).is_relative_to(REPO)
    assert Path(pure.pop("file")).is_relative_to(tmp_path)
    assert len(compiled) == len(SEEDS) * len(ratings.engine.SYSTEM_NAMES)
    refused = [key for key, value in pure.items() if "error" in value]
    assert not refused, f"the corpus should be valid for every system: {refused}"
    different = [key for key in compiled if compiled[key] != pure[key]]
    assert not different, f"compiled and pure differ on {different}"


@pytest.mark.parametrize("name", ratings.engine.SYSTEM_NAMES)
def test_the_system_in_use_is_compiled_exactly_when_its_module_is(name: str) -> None:
    module = sys.modules[type(ratings.engine.get_system(name)).__module__]
    compiled = not str(module.__file__).endswith(".py")
    assert compiled == (module.__name__.rpartition(".")[2] in ratings.engine.COMPILED)
