"""ratings/evaluation/ is pure like the engine: it never imports Django."""

import subprocess
import sys

from tests.conftest import REPO


def test_it_imports_the_evaluation_package_without_django() -> None:
    code = (
        "import sys, pkgutil, importlib\n"
        "import ratings.evaluation as e\n"
        "for m in pkgutil.walk_packages(e.__path__, 'ratings.evaluation.'):\n"
        "    importlib.import_module(m.name)\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] == 'django')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"Django modules imported by ratings.evaluation: {out.stdout}"
