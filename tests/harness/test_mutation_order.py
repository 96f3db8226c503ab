"""The order of a mutation run's tests (support.fastest_first): mutmut runs
a mutant's tests with ``-x``, so the fastest first end a killed mutant's run
at its first fast failing test."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from tests import support


def items(*nodeids: str) -> list[pytest.Item]:
    return cast(list[pytest.Item], [SimpleNamespace(nodeid=nodeid) for nodeid in nodeids])


def stats(folder: Path, durations: dict[str, float]) -> None:
    (folder / "mutmut-stats.json").write_text(json.dumps({"duration_by_test": durations, "stats_time": 1.0}))


def test_the_tests_run_fastest_first_and_unknown_ones_before_all(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(support, "_durations", {})
    stats(tmp_path, {"t.py::slow": 9.5, "t.py::fast": 0.01, "t.py::middle": 0.4})
    tests = items("t.py::slow", "t.py::middle", "t.py::new", "t.py::fast")
    support.fastest_first(tests, tmp_path)
    assert [test.nodeid for test in tests] == ["t.py::new", "t.py::fast", "t.py::middle", "t.py::slow"]


def test_without_the_stats_file_the_order_is_left_alone(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(support, "_durations", {})
    tests = items("t.py::b", "t.py::a", "t.py::c")
    support.fastest_first(tests, tmp_path)
    assert [test.nodeid for test in tests] == ["t.py::b", "t.py::a", "t.py::c"]


def test_the_times_are_read_once_and_kept_for_the_forked_runs(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(support, "_durations", {})
    stats(tmp_path, {"t.py::a": 2.0, "t.py::b": 1.0})
    support.fastest_first(items("t.py::a"), tmp_path)
    (tmp_path / "mutmut-stats.json").unlink()
    tests = items("t.py::a", "t.py::b")
    support.fastest_first(tests, tmp_path)
    assert [test.nodeid for test in tests] == ["t.py::b", "t.py::a"]
