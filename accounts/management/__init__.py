"""The management commands of the accounts app (``manage.py setup``).

May import: accounts.services, ratings.engine.
"""
