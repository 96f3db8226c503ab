"""The writers of the accounts app: who holds which role where.

- ``memberships``: giving and taking roles at a list or a club;
- ``invitations``: inviting a person by e-mail to a role, and accepting;
- ``site_setup``: setting up a fresh site (``manage.py setup``).

May import: accounts.models, accounts.roles, ratings.engine, ratings.models, ratings.places.
"""
