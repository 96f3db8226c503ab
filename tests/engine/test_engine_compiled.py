"""The compiled engine (mypyc, setup.py) is the pure one, only faster.

Installing the project compiles ratings/engine with mypyc when a C compiler
is there; ratings/engine/__init__.py then chooses the extensions, unless a
source changed since the build or CLUBRATING_PURE=1 is set.  These tests run
each system both ways on the same history and demand identical bytes, and
check that an edited source is never shadowed by a stale extension.  CI sets
REQUIRE_COMPILED so that a failed build fails here instead of skipping.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ratings.engine
from tests.support import REPO, need

#: Prints a digest of every system's ledger and final state on one history.
DIGEST = """
import hashlib, json, sys
import ratings.engine as systems
from ratings.synthetic import synthetic_history
events, starts = synthetic_history(3000, players=150, seed=7, clubs=2)
out = {"engine": systems.ENGINE}
for name in systems.SYSTEM_NAMES:
    result = systems.get_system(name).rate(events, starts=starts)
    ledger = result.ledger
    h = hashlib.sha256()
    for column in (ledger.rank_before, ledger.rating_before, ledger.change, ledger.rank_after, ledger.rating_after):
        h.update(column.tobytes())
    state = {str(k): v.to_json() for k, v in sorted(result.state.items(), key=lambda kv: str(kv[0]))}
    h.update(json.dumps(state, sort_keys=True).encode())
    out[name] = h.hexdigest()
print(json.dumps(out))
"""


def run_python(code: str, cwd: Path, pure: bool, path: Path | None = None) -> dict[str, str]:
    env = {**os.environ, "CLUBRATING_PURE": "1" if pure else "0"}
    if path is not None:
        env["PYTHONPATH"] = str(path)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, str] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def require_compiled() -> None:
    need(ratings.engine.ENGINE == "compiled", "the compiled engine (make install)", env="REQUIRE_COMPILED")


def test_every_system_gives_the_same_bytes_compiled_and_pure() -> None:
    require_compiled()
    compiled = run_python(DIGEST, REPO, pure=False)
    pure = run_python(DIGEST, REPO, pure=True)
    assert (compiled.pop("engine"), pure.pop("engine")) == ("compiled", "pure")
    assert set(compiled) == set(ratings.engine.SYSTEM_NAMES)
    assert compiled == pure


WHICH = """
import json
import ratings.engine as systems
import ratings.engine.ffg as ffg
print(json.dumps({"engine": systems.ENGINE, "ffg": ffg.__file__}))
"""


def test_clubrating_pure_loads_the_sources() -> None:
    seen = run_python(WHICH, REPO, pure=True)
    assert seen["engine"] == "pure"
    assert seen["ffg"].endswith("ffg.py")


def copy_engine(to: Path) -> Path:
    """ratings/engine with its extensions and manifest, and the shared runtime."""
    (to / "ratings").mkdir()
    shutil.copy(REPO / "ratings" / "__init__.py", to / "ratings" / "__init__.py")
    shutil.copytree(
        REPO / "ratings" / "engine", to / "ratings" / "engine", ignore=shutil.ignore_patterns("__pycache__")
    )
    for runtime in REPO.glob("ratings_engine__mypyc*"):
        shutil.copy(runtime, to / runtime.name)
    return to / "ratings" / "engine"


def test_an_edited_source_is_not_shadowed_by_its_stale_extension(tmp_path: Path) -> None:
    require_compiled()
    systems = copy_engine(tmp_path)
    before = run_python(WHICH, tmp_path, pure=False, path=tmp_path)
    assert before["engine"] == "compiled", "the copy is used compiled while unchanged"
    assert not before["ffg"].endswith(".py")
    with (systems / "ffg.py").open("a") as source:
        source.write("\n# edited after the build\n")
    after = run_python(WHICH, tmp_path, pure=False, path=tmp_path)
    assert after == {"engine": "pure", "ffg": str(systems / "ffg.py")}


def test_an_extension_the_build_did_not_list_is_ignored(tmp_path: Path) -> None:
    require_compiled()
    systems = copy_engine(tmp_path)
    manifest = json.loads((systems / "_build.json").read_text())
    del manifest["compiled"]["ffg"]  # as if ffg were no longer compiled, its old extension left
    (systems / "_build.json").write_text(json.dumps(manifest))
    seen = run_python(WHICH, tmp_path, pure=False, path=tmp_path)
    assert seen == {"engine": "compiled", "ffg": str(systems / "ffg.py")}


def test_a_missing_manifest_means_pure(tmp_path: Path) -> None:
    require_compiled()
    systems = copy_engine(tmp_path)
    (systems / "_build.json").unlink()
    assert run_python(WHICH, tmp_path, pure=False, path=tmp_path)["engine"] == "pure"


@pytest.mark.parametrize("name", ratings.engine.SYSTEM_NAMES)
def test_the_system_in_use_comes_from_the_engine_chosen(name: str) -> None:
    module = sys.modules[type(ratings.engine.get_system(name)).__module__]
    compiled = not str(module.__file__).endswith(".py")
    assert compiled == (module.__name__.rpartition(".")[2] in ratings.engine.COMPILED)
    if ratings.engine.ENGINE == "pure":
        assert not compiled
