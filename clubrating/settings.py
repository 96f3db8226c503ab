"""Settings for the club rating site.

Everything that differs between machines comes from environment variables
with safe defaults, so a fresh clone runs with no configuration at all:

- DATABASE_URL: default SQLite (db.sqlite3 beside manage.py, WAL mode,
  busy timeout); PostgreSQL in production (postgres://user@host/name).
- CELERY_BROKER_URL: default unset, tasks then run in-process after commit.
- SECRET_KEY, DEBUG, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS.
- LIST_ARCHIVE_DIR, LIST_ARCHIVE_KEEP, LIST_ARCHIVE_EVERY_SECONDS: every list's
  archive on Celery beat into that folder (default: none).
- CLUBRATING_ENV=production: production mode (no DEBUG, a real SECRET_KEY is
  required, HTTPS-only cookies, HSTS); passes `manage.py check --deploy`.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

# Django's generic classes (QuerySet, ModelAdmin, forms.ModelForm...) accept
# type parameters at run time too, as the type stubs declare them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


PRODUCTION = os.environ.get("CLUBRATING_ENV", "").lower() == "production"

DEBUG = env_bool("DEBUG", default=not PRODUCTION)

_DEV_SECRET = "django-insecure-dev-only-key-never-use-in-production-0123456789"
SECRET_KEY = os.environ.get("SECRET_KEY", "" if PRODUCTION else _DEV_SECRET)
if PRODUCTION and (not SECRET_KEY or SECRET_KEY == _DEV_SECRET):
    raise ImproperlyConfigured("SECRET_KEY must be set to a long random value when CLUBRATING_ENV=production")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "" if PRODUCTION else "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "django_htmx",
    "axes",
    "accounts",
    "ratings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "clubrating.limits.RequestLimitsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# --- Hardening (docs/limits.md) ----------------------------------------------
# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords
# for one username from one address, that pair is locked out for the
# cool-off; a right password resets the count.  Username and address
# together, so a stranger cannot lock a member out from elsewhere and a
# club's shared address does not lock out every member.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

# Content-Security-Policy (django-csp): scripts and styles only from the
# site's own static files (no inline script, no eval: htmx runs with
# allowEval off, templates/base.html), no plugins, no framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Request sizes.  An uploaded file (rank list, tournament results) may be up
# to MAX_UPLOAD_BYTES (the biggest real list, the EGD's, is about 4 MB); a
# request body larger than MAX_REQUEST_BYTES is refused with 413 before it
# is read (clubrating/limits.py).  Form fields apart from files: at most
# 2.5 MB and DATA_UPLOAD_MAX_NUMBER_FIELDS fields, enough for a record sheet
# well over its 200 games (9 fields a game) so that the sheet page itself
# says what is too much; beyond that the 400 page says it.
MAX_UPLOAD_BYTES = int(os.environ.get("MAX_UPLOAD_BYTES", str(20 * 1024 * 1024)))
MAX_REQUEST_BYTES = MAX_UPLOAD_BYTES + 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
DATA_UPLOAD_MAX_NUMBER_FIELDS = 4000
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440  # bigger uploads are spooled to a temporary file

ROOT_URLCONF = "clubrating.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "ratings.context_processors.site",
            ],
        },
    },
]

WSGI_APPLICATION = "clubrating.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers run beside the one writer; IMMEDIATE transactions take
    # the write lock up front so two writers queue (busy timeout) instead of
    # failing with "database is locked" halfway through.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
TIME_ZONE = os.environ.get("TIME_ZONE", "Africa/Johannesburg")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# E-mail (invitations): the console in development, SMTP once EMAIL_HOST is
# set; EMAIL_BACKEND overrides both.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "club-ratings@localhost")
# The file backend's folder (EMAIL_BACKEND=django.core.mail.backends.filebased.EmailBackend).
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH") or None
# The site's address, for the links of e-mails sent by the worker (no request there).
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000")

# First-run setup (`manage.py setup`, run by docker-compose's migrate
# service): defaults of its options.  CLUBRATING_CLUBS is comma-separated.
# The admin's password is read by the command from the variable named by
# SETUP_PASSWORD_VARIABLE when it needs one, never kept in the settings.
SETUP_LIST = os.environ.get("CLUBRATING_LIST", "")
SETUP_CLUBS = env_list("CLUBRATING_CLUBS", "")
SETUP_ADMIN = os.environ.get("CLUBRATING_ADMIN", "")
SETUP_ADMIN_EMAIL = os.environ.get("CLUBRATING_ADMIN_EMAIL", "")
SETUP_SYSTEM = os.environ.get("CLUBRATING_SYSTEM", "")
SETUP_PASSWORD_VARIABLE = "CLUBRATING_ADMIN_PASSWORD"

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"

# Celery: no broker configured means the embedded default, in-process tasks.
# The recompute (docs/recompute.md): a task is acknowledged only after it
# ran (late ack; a killed worker's task is redelivered), one task at a time
# per worker process (prefetch 1), the broker redelivers an unacknowledged
# task only after the visibility timeout, which is above the hard time limit
# (the longest recompute: a full federation replay is well under a minute).
# Retries with back-off for transient database errors are on the task
# (ratings/tasks.py).  A sweeper on Celery beat re-enqueues dirty clubs.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
#: The queue tasks are sent to and workers read by default.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "celery")
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 3600,
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
}
# A save enqueues its recompute after commit; a broker that does not answer
# must not hold the volunteer's page for long (ratings/tasks.py leaves the
# work to the sweeper then).
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
CELERY_TASK_TIME_LIMIT = 1800
CELERY_TASK_SOFT_TIME_LIMIT = 1500
CELERY_WORKER_SOFT_SHUTDOWN_TIMEOUT = 60
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE = {
    "sweep-dirty-clubs": {
        "task": "ratings.tasks.sweep_dirty_lists",
        "schedule": float(os.environ.get("RECOMPUTE_SWEEP_SECONDS", "300")),
    },
}
# Every list's archive (ratings/archive/scheduled.py) into the folder the site
# admin names, every LIST_ARCHIVE_EVERY_SECONDS, the newest LIST_ARCHIVE_KEEP
# of each list kept; no folder, no schedule (docs/administration.md, "Backups").
LIST_ARCHIVE_DIR = os.environ.get("LIST_ARCHIVE_DIR", "")
LIST_ARCHIVE_KEEP = int(os.environ.get("LIST_ARCHIVE_KEEP", "7"))
if LIST_ARCHIVE_DIR:
    CELERY_BEAT_SCHEDULE["archive-lists"] = {
        "task": "ratings.tasks.archive_lists_task",
        "schedule": float(os.environ.get("LIST_ARCHIVE_EVERY_SECONDS", str(24 * 3600))),
    }

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {"ratings": {"level": os.environ.get("LOG_LEVEL", "INFO"), "propagate": True}},
}

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
