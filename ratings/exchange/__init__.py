"""Exchange formats with national bodies and tournament software.

Pure Python, never imports Django (like :mod:`ratings.systems`); the Django
import/export views and commands call it at the edge and turn
:class:`ExchangeError` into form errors or command errors.
"""
