"""docker-compose's migrate service sets the site up after migrating, from
environment variables, without a prompt, and a restart changes nothing.

Docker is not needed: the service's entrypoint and command are run as the
container would run them (compose turns "$$" into "$"), with this
environment's Python and a fresh SQLite database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent.parent


def _migrate_service() -> dict[str, Any]:
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    service: dict[str, Any] = compose["services"]["migrate"]
    return service


def _run(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    service = _migrate_service()
    argv = [part.replace("$$", "$") for part in service["entrypoint"]] + list(service["command"])
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    wrapper = bin_dir / "python"  # the image's `python`: this environment's
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    wrapper.chmod(0o755)
    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("CLUBRATING_", "DJANGO_"))},
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(REPO),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
        **env,
    }
    return subprocess.run(argv, cwd=REPO, env=environment, capture_output=True, text=True, timeout=300)


def test_the_service_passes_the_setup_variables_the_settings_read() -> None:
    settings_source = (REPO / "clubrating" / "settings.py").read_text()
    env = _migrate_service()["environment"]
    for name in ("CLUBRATING_LIST", "CLUBRATING_CLUBS", "CLUBRATING_ADMIN", "CLUBRATING_ADMIN_EMAIL"):
        assert name in env and f'"{name}"' in settings_source
    assert "CLUBRATING_ADMIN_PASSWORD" in env


@pytest.mark.slow
def test_the_migrate_service_sets_the_site_up_once_then_changes_nothing(tmp_path: Path) -> None:
    env = {
        "CLUBRATING_LIST": "South African Go Clubs",
        "CLUBRATING_CLUBS": "Stellenbosch Go Club, Cape Town Go Club",
        "CLUBRATING_ADMIN": "root",
        "CLUBRATING_ADMIN_EMAIL": "root@example.org",
        "CLUBRATING_ADMIN_PASSWORD": "a-long-enough-admin-secret",
    }
    first = _run(tmp_path, **env)
    assert first.returncode == 0, first.stderr[-3000:]
    assert "Created the site admin root." in first.stdout
    assert "Club Cape Town Go Club: slug cape-town-go-club" in first.stdout
    again = _run(tmp_path, **env)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "Nothing changed" in again.stdout


@pytest.mark.slow
def test_without_a_list_name_the_service_only_migrates(tmp_path: Path) -> None:
    done = _run(tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Created" not in done.stdout and (tmp_path / "site.sqlite3").exists()
