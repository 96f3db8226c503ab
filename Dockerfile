# One image for every service of docker-compose.yml: web (gunicorn), worker
# and beat (Celery), and the one-shot migrate.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    CLUBRATING_ENV=production

WORKDIR /app
COPY pyproject.toml README.md ./
COPY accounts ./accounts
COPY clubrating ./clubrating
COPY ratings ./ratings
COPY templates ./templates
COPY static ./static
COPY manage.py ./
RUN pip install . \
    && SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput \
    && useradd --system --uid 1000 clubrating
USER clubrating

EXPOSE 8000
CMD ["gunicorn", "clubrating.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3"]
