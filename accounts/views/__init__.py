"""Pages of list administration (docs/administration.md).

May import: accounts.access, accounts.forms, accounts.models,
accounts.requests, accounts.services, ratings.access, ratings.archive, ratings.forms,
ratings.models, ratings.places.
"""
