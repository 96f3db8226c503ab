# One entry point for humans (and CI): make run, make test, make lint, make bench.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench bench-exports install engine pure mutation clean

## The virtualenv with the project installed in editable mode (pure: the
## engine is compiled in place below, once, with the venv's mypyc).
$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	CLUBRATING_PURE=1 $(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

## The rating engine compiled in place with mypyc (setup.py's standard
## mypycify build), again after any edit of its sources, so that Python never
## imports an extension older than its source (tests/engine checks it).
## Without a C compiler setup.py warns and the pure engine runs; the build is
## not retried until the next edit (or `make engine`).
ENGINE       := $(VENV)/.engine-built
ENGINE_BUILT := ratings/engine/*.so ratings_engine__mypyc*.so
$(ENGINE): setup.py pyproject.toml $(wildcard ratings/engine/*.py) | $(STAMP)
	$(BIN)/python setup.py -q build_ext --inplace --force
	touch $(ENGINE)

install: $(STAMP) $(ENGINE)

## Compile the engine again now.
engine: | $(STAMP)
	rm -f $(ENGINE)
	$(MAKE) $(ENGINE)

## The pure engine: the compiled extensions removed; it stays pure until the
## next edit of an engine source or `make engine`.
pure: | $(STAMP)
	rm -f $(ENGINE_BUILT)
	touch $(ENGINE)

## Mutation testing (docs/testing.md): mutmut over the pure packages
## ([tool.mutmut] in pyproject.toml), on the pure engine: a compiled
## extension would be imported instead of the mutated source.  MUTANTS
## narrows the run to some mutants by name, e.g.
## MUTANTS='ratings.engine.sagc_rules*'; MUTMUT_CHILDREN processes at once.
## Every mutant MUTANTS names is tested again (only `$(BIN)/mutmut run`
## without a name resumes where it stopped); `$(BIN)/mutmut browse` shows
## the survivors.  mutmut runs the venv's mypy on the mutants first
## (`type_check_command`, by name: hence the venv first on the PATH).
## Times and figures: docs/testing.md.
MUTMUT_CHILDREN ?= 2
MUTANTS ?= ratings.engine*
mutation: pure
	PATH="$(abspath $(BIN)):$$PATH" $(BIN)/mutmut run --max-children $(MUTMUT_CHILDREN) $(MUTANTS)
	$(BIN)/mutmut results

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
	rm -f $(ENGINE_BUILT)
