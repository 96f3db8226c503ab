from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        # Register the Celery tasks in every process (web, commands,
        # worker): the recompute enqueues its task by name
        # (ratings/recompute/scheduling.py) and never imports the module.
        # Register check ratings.E001 (a database part-way through a
        # squashed migration chain) by importing its module.
        # Connect the prediction figures to the recompute's list_recomputed
        # signal (the recompute never imports them).
        # Connect the e-mails about late changes the same way.
        from ratings import (
            migration_checks,  # noqa: F401
            predictions,  # noqa: F401
            tasks,  # noqa: F401
        )
        from ratings.notices import receivers  # noqa: F401
