from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        # Register the Celery tasks in every process (web, commands,
        # worker): the recompute enqueues its task by name
        # (ratings/recompute/scheduling.py) and never imports the module.
        from ratings import tasks  # noqa: F401
