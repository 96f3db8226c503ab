"""Pages of list administration (docs/administration.md)."""
