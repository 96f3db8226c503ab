"""docker-compose.yml and the Dockerfile match the project: the services a
production site needs, with health checks, and commands that exist here."""

from __future__ import annotations

import importlib
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import get_commands

REPO = Path(__file__).resolve().parent.parent.parent
APP_SERVICES = ("web", "worker", "beat", "migrate")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    return data


def _command(service: dict[str, Any]) -> list[str]:
    command = service["command"]
    return shlex.split(command) if isinstance(command, str) else list(command)


def test_it_has_every_service_the_issue_names(compose: dict[str, Any]) -> None:
    assert set(compose["services"]) == {"web", "worker", "beat", "redis", "postgres", "migrate", "backup"}


def test_it_checks_the_health_of_every_long_running_service(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        if name == "migrate":
            assert service.get("restart") == "no", "migrate runs once"
            continue
        assert service.get("healthcheck", {}).get("test"), f"{name} has no health check"


def test_the_app_services_wait_for_the_database_the_broker_and_the_migration(compose: dict[str, Any]) -> None:
    for name in ("web", "worker", "beat"):
        depends = compose["services"][name]["depends_on"]
        assert depends["postgres"]["condition"] == "service_healthy", name
        assert depends["redis"]["condition"] == "service_healthy", name
        assert depends["migrate"]["condition"] == "service_completed_successfully", name
    assert compose["services"]["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"


def test_the_manage_py_commands_exist(compose: dict[str, Any]) -> None:
    commands = get_commands()
    for name in APP_SERVICES:
        argv = _command(compose["services"][name])
        if "manage.py" in argv:
            assert argv[argv.index("manage.py") + 1] in commands, f"{name}: {argv}"
    assert _command(compose["services"]["migrate"])[-2:] == ["migrate", "--noinput"]


def test_gunicorn_serves_the_projects_wsgi_application(compose: dict[str, Any]) -> None:
    argv = _command(compose["services"]["web"])
    assert argv[0] == "gunicorn"
    module, _, attribute = argv[1].partition(":")
    assert callable(getattr(importlib.import_module(module), attribute))


def test_the_celery_services_use_the_projects_app_and_its_tasks(compose: dict[str, Any]) -> None:
    from clubrating.celery import app

    for name, role in (("worker", "worker"), ("beat", "beat")):
        argv = _command(compose["services"][name])
        assert argv[:3] == ["celery", "-A", "clubrating"] and argv[3] == role, argv
        assert importlib.import_module(argv[2]).celery_app is app
    app.loader.import_default_modules()
    for entry in app.conf.beat_schedule.values():
        assert entry["task"] in app.tasks, f"beat schedules an unknown task {entry['task']}"


def test_the_environment_is_read_by_the_settings(compose: dict[str, Any]) -> None:
    settings_source = (REPO / "clubrating" / "settings.py").read_text()
    for name in APP_SERVICES:
        for variable in compose["services"][name]["environment"]:
            assert f'"{variable}"' in settings_source, f"{name}: settings.py never reads {variable}"
    env = compose["services"]["web"]["environment"]
    assert env["DATABASE_URL"].startswith("postgres://") and "@postgres:" in env["DATABASE_URL"]
    assert env["CELERY_BROKER_URL"].startswith("redis://redis:")


def test_the_dockerfile_copies_paths_that_exist() -> None:
    dockerfile = (REPO / "Dockerfile").read_text()
    sources = [
        line.split()[1:-1]
        for line in dockerfile.splitlines()
        if line.startswith("COPY ") and not line.startswith("COPY --from=")
    ]
    assert sources
    for paths in sources:
        for path in paths:
            assert (REPO / path).exists(), f"Dockerfile copies {path}, which is not in the repository"
    assert re.search(r'CMD \["gunicorn", "clubrating\.wsgi:application"', dockerfile)


def test_the_backup_service_dumps_on_a_schedule_and_removes_old_dumps(compose: dict[str, Any]) -> None:
    backup = compose["services"]["backup"]
    script = " ".join(backup["command"])
    assert "pg_dump --format=custom" in script and "sleep $$BACKUP_EVERY_SECONDS" in script
    assert "-mtime +$$BACKUP_KEEP_DAYS -delete" in script, "retention"
    assert script.index("mv $$name.part $$name") < script.index("-delete"), (
        "old dumps go only after a new one"
    )
    assert backup["environment"]["PGHOST"] == "postgres"
    assert any(volume.endswith(":/backups") for volume in backup["volumes"])
    beat = compose["services"]["beat"]
    assert beat["environment"]["LIST_ARCHIVE_DIR"] == "/archives"
    assert any(volume.endswith(":/archives") for volume in beat["volumes"])
