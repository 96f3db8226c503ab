"""Views, one module per area: players (list, record sheet), log, sheets
(record-sheet entry, edit, delete), committee (adjustments, sync, exports),
recompute (runs and status)."""
