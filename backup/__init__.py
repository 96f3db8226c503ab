"""Backups of a running site: ``dump_restore_compare.py`` proves that a
PostgreSQL dump restores (docs/administration.md, "Backups")."""
