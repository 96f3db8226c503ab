# One entry point for humans (and CI): make run, make test, make lint, make bench.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench bench-exports install engine pure mutation mutation-all clean

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
## extension would be imported instead of the mutated source.
## `make mutation`: a seeded random sample of each package's mutants
## (MUTATION_SAMPLE, package=count), tested again at every run, then each
## package's kill ratio and survivors (tests/harness/mutation_sample.py).
## Each run first generates the mutants (and, the first time, mutmut's
## stats) by testing the few mutants of MUTATION_FIRST, so that the sample
## is drawn from the mutants of the code as it is.  `make mutation-all`: every mutant, resumed
## where the last run stopped (hours on two cores the first time; later
## runs test only the functions edited since); MUTANTS narrows it by name,
## e.g. MUTANTS='ratings.engine.sagc_rules*' (those are tested again even
## with a verdict).  MUTMUT_CHILDREN: processes at once (default: the cores).
MUTMUT_CHILDREN ?= $(shell nproc 2>/dev/null || echo 2)
MUTATION_SAMPLE ?= ratings.engine=200 ratings.exchange=150 ratings.evaluation=60 ratings.recompute=60
MUTATION_FIRST  ?= ratings.engine.ranks.x_rank_to_gor*
MUTANTS ?=
MUTMUT := $(BIN)/mutmut run --max-children $(MUTMUT_CHILDREN)
mutation: pure
	$(MUTMUT) '$(MUTATION_FIRST)'
	$(MUTMUT) $$($(BIN)/python -m tests.harness.mutation_sample names $(MUTATION_SAMPLE))
	$(BIN)/python -m tests.harness.mutation_sample report $(MUTATION_SAMPLE)

mutation-all: pure
	$(MUTMUT) $(MUTANTS)
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
