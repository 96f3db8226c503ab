# One image for every service of docker-compose.yml: web (gunicorn), worker
# and beat (Celery), and the one-shot migrate.
# The rating engine compiled with mypyc (setup.py), in a stage that has a C
# compiler; the image itself has none and would run the pure engine.
FROM python:3.11-slim AS engine
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY ratings ./ratings
RUN pip install --no-cache-dir "mypy==2.4.1" "setuptools>=69" \
    && python setup.py build_ext --inplace \
    && ls ratings_engine__mypyc*.so ratings/engine/sagc*.so

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    CLUBRATING_ENV=production

WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY accounts ./accounts
COPY clubrating ./clubrating
COPY ratings ./ratings
COPY templates ./templates
COPY static ./static
COPY manage.py ./
COPY --from=engine /src/ratings/engine ./ratings/engine
COPY --from=engine /src/ratings_engine__mypyc*.so ./
# The engine is compiled above (its extensions beside the sources in /app,
# where the services import the project from): install without compiling again.
RUN CLUBRATING_PURE=1 pip install . \
    && SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput \
    && useradd --system --uid 1000 clubrating
USER clubrating

EXPOSE 8000
CMD ["gunicorn", "clubrating.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3"]
