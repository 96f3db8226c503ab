"""ratings/engine/, ratings/exchange/ and ratings/evaluation/ are pure: they never import Django."""

import subprocess
import sys

import pytest

from tests.support import REPO


@pytest.mark.not_for_mutants
def test_it_imports_every_system_without_django() -> None:
    code = (
        "import sys, pkgutil, importlib\n"
        "import ratings.engine as s, ratings.exchange as e, ratings.evaluation as v\n"
        "for pkg in (s, e, v):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(m.name)\n"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(','.join(bad))\n"
    )
    # ratings/__init__.py is empty, so importing the pure packages must not
    # pull Django in through the app either.
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"Django modules imported by the pure engine: {out.stdout}"
