"""mutmut's configuration ([tool.mutmut] in pyproject.toml) copies the whole
project into mutants/, and copies ratings/ part by part so that the mutated
packages are not overwritten with their sources at every run."""

from __future__ import annotations

import re
import tomllib

from tests.support import REPO


def mutmut_config() -> dict[str, list[str]]:
    config: dict[str, list[str]] = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["mutmut"]
    return config


def parts(paths: list[str]) -> set[str]:
    return {path.rstrip("/") for path in paths}


def test_every_part_of_ratings_is_mutated_or_copied_and_never_both() -> None:
    config = mutmut_config()
    mutated, copied = parts(config["source_paths"]), parts(config["also_copy"])
    present = {
        f"ratings/{path.name}"
        for path in (REPO / "ratings").iterdir()
        if path.name != "__pycache__" and (path.is_dir() or path.suffix == ".py")
    }
    assert present - mutated - copied == set(), (
        "a part of ratings/ missing from mutants/: its imports fail there"
    )
    assert mutated & copied == set(), "copied over its mutants at every run: every mutant generated again"
    assert "ratings" not in copied, "ratings/ copied whole overwrites the mutated packages"


def test_what_is_never_mutated_is_a_file_of_a_mutated_package() -> None:
    config = mutmut_config()
    for path in config["do_not_mutate"]:
        assert (REPO / path).is_file(), path
        assert any(path.startswith(package) for package in config["source_paths"]), path


def test_the_tests_of_the_recompute_are_selected_and_the_unreachable_ones_left_out() -> None:
    config = mutmut_config()
    assert "tests/recompute/" in config["pytest_add_cli_args_test_selection"]
    markers = config["pytest_add_cli_args"][config["pytest_add_cli_args"].index("-m") + 1]
    assert "not not_for_mutants" in markers


def test_every_property_a_mutation_run_selects_takes_its_examples_through_support_examples() -> None:
    # A bare max_examples=n overrides the mutation profile's cap of ten
    # examples (tests/conftest.py): support.examples(n) keeps n outside a
    # mutation run and caps it inside one.
    selection = [
        arg for arg in mutmut_config()["pytest_add_cli_args_test_selection"] if not arg.startswith("-")
    ]
    files = {
        path
        for arg in selection
        for path in ([REPO / arg] if arg.endswith(".py") else (REPO / arg).rglob("*.py"))
    }
    assert len(files) > 50, sorted(files)
    bare = [
        f"{path.relative_to(REPO)}:{number}"
        for path in sorted(files)
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"max_examples=\d", line)
    ]
    assert bare == [], "use max_examples=examples(n)"
