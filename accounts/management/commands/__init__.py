"""``manage.py setup``: a fresh site's admin, list and clubs
(accounts/services/site_setup.py does the work).

May import: accounts.services, ratings.engine.
"""
