"""Production settings pass `manage.py check --deploy` without warnings, and
refuse to start without a real secret key."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support import REPO


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    unset = {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL"}
    clean = {k: v for k, v in os.environ.items() if k not in unset}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_mode_passes_the_deployment_checks_without_warnings() -> None:
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        CLUBRATING_ENV="production",
        SECRET_KEY="k" * 20 + "a-long-random-production-secret-0987654321",
        ALLOWED_HOSTS="ratings.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_production_mode_refuses_to_start_without_a_secret_key() -> None:
    result = manage("check", CLUBRATING_ENV="production", ALLOWED_HOSTS="ratings.example.org")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_development_mode_warns_about_its_insecure_defaults() -> None:
    """The check can fail: the development defaults are not fit to deploy."""
    result = manage("check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode != 0
    assert "security.W" in result.stderr + result.stdout
