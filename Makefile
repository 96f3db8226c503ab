# One entry point for humans (and CI): make run, make test, make lint, make bench.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench bench-exports install clean

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP) $(ENGINE)

## The rating engine compiled with mypyc (setup.py; the install above does it
## too), again after an edit of its sources.  Without a C compiler the pure
## engine is used, without an error and without retrying until the next edit.
ENGINE := $(VENV)/.engine-built
$(ENGINE): setup.py $(wildcard ratings/engine/*.py) | $(STAMP)
	$(BIN)/python setup.py -q build_ext --inplace
	touch $(ENGINE)

install: $(STAMP) $(ENGINE)

## The site with demo data on the embedded default (SQLite, in-process tasks).
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo --if-empty
	$(BIN)/python manage.py runserver 127.0.0.1:8000

## The test suite (on SQLite unless DATABASE_URL says otherwise), in parallel
## (one pytest-xdist worker per core).
test: install
	$(BIN)/python -m pytest -n auto $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python manage.py makemigrations --check --dry-run

bench: install
	$(BIN)/python bench/engine.py --system sagc --games 1000000

bench-exports: install
	$(BIN)/python bench/exports.py --games 200000

clean:
	rm -rf $(VENV) db.sqlite3 db.sqlite3-wal db.sqlite3-shm staticfiles artifacts build
	rm -f ratings/engine/*.so ratings_engine__mypyc*.so ratings/engine/_build.json
