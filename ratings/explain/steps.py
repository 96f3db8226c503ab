"""A change worked out with its numbers: the lines the game page shows
above the table of terms, one per step of the system's formula, and the
way every term's value is written.  Pure Python; the numbers are the
engine's own (ratings/engine/explanations.py), only written out here."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from ratings.engine.explanations import times

Terms = Mapping[str, Any]


def value_text(value: Any) -> str:
    """A term's value as the page writes it: whole numbers without a
    decimal point, others to four decimals, exact fractions as decimals."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Fraction | float):
        if value == int(value):
            return str(int(value))
        text = f"{float(value):.4f}".rstrip("0").rstrip(".")
        return "0" if text == "-0" else text
    if isinstance(value, list | tuple):
        return ", ".join(value_text(item) for item in value)
    return str(value)


def signed_text(value: Any) -> str:
    """A change with its sign: +23, -4.5, 0."""
    text = value_text(value)
    if isinstance(value, int | float | Fraction) and not isinstance(value, bool) and value > 0:
        return f"+{text}"
    return text


def _n(value: Any) -> str:
    """A number inside a formula: negatives in brackets."""
    text = value_text(value)
    return f"({text})" if text.startswith("-") else text


def _sagc(t: Terms) -> list[str]:
    lines = [
        f"LF × GSF × OF × GRF × HF = {_n(t['LF'])} × {_n(t['GSF'])} × {_n(t['OF'])} × {_n(t['GRF'])}"
        f" × {_n(t['HF'])} = {value_text(t['product'])}",
        f"Rounded to a whole point, halves away from zero: {signed_text(t['rounded'])}",
    ]
    boundary = t.get("boundary")
    if boundary and str(boundary).startswith("stopped"):
        lines.append(f"The change {boundary}: {signed_text(t['change'])}")
    elif boundary and str(boundary).startswith("promoted"):
        lines.append(f"The index passes +999: promoted to {t['rank_after']}, the index restarts at 0")
    elif boundary and str(boundary).startswith("demoted"):
        lines.append(f"The index passes −999: demoted to {t['rank_after']}, the index restarts at 0")
    if not boundary or str(boundary).startswith("stopped"):
        lines.append(
            f"Index after = {_n(t['index'])} + {_n(t['change'])} = {value_text(t['index_after'])}"
            f" ({t['rank_after']})"
        )
    return lines


def _egf(t: Terms) -> list[str]:
    lines = [
        f"Every game of the rating period is rated from the ratings its players had when it began:"
        f" {value_text(t['rating'])} for this player"
    ]
    if t.get("handicap_shift"):
        lines.append(
            f"With {t['handicap']} stones Black counts {_n(t['rating'])} + {_n(t['handicap_shift'])}"
            f" = {value_text(t['rating_in_Se'])} in Se"
        )
    if "beta" in t:
        lines.append(
            f"Se = 1 / (1 + e^(β(opponent) − β(own))) = 1 / (1 + e^({_n(t['beta_opponent'])} − {_n(t['beta'])}))"
            f" = {value_text(t['Se'])}"
        )
        lines.append(
            f"Change = weight × (con × (Sa − Se) + bonus) = {_n(t['weight'])} × ({_n(t['con'])} × ({_n(t['Sa'])}"
            f" − {_n(t['Se'])}) + {_n(t['bonus'])}) = {signed_text(t['change'])}"
        )
    else:
        d = t["opponent_in_Se"] - t["rating_in_Se"]
        lines.append(
            f"Se = 1 / (e^(D/a) + 1) − ε/2, D = {_n(t['opponent_in_Se'])} − {_n(t['rating_in_Se'])} = {value_text(d)}:"
            f" 1 / (e^({_n(d)} / {_n(t['a'])}) + 1) − {value_text(t['epsilon'] / 2)} = {value_text(t['Se'])}"
        )
        lines.append(
            f"Change = weight × con × (Sa − Se) = {_n(t['weight'])} × {_n(t['con'])} × ({_n(t['Sa'])}"
            f" − {_n(t['Se'])}) = {signed_text(t['change'])}"
        )
    total = t["rating"] + t["period_changes"]
    after = (
        f"Rating after = the period's start + its changes so far, this game's included"
        f" = {_n(t['rating'])} + {_n(t['period_changes'])} = {value_text(total)}"
    )
    if t.get("floored"):
        after += f", held at the floor {value_text(t['floor'])}"
    return [*lines, after]


def _settling(t: Terms) -> list[str]:
    levels: Sequence[Any] = t.get("start_levels") or []
    lines = []
    if len(levels) > 1:
        lines.append(
            f"Settling: the start level was corrected {times(len(levels) - 1)}"
            f" ({' → '.join(value_text(v) for v in levels)}), the period rated {times(t['iterations'])}"
        )
    if "level_at_period_end" in t:
        lines.append(
            f"Level at the period's end {value_text(t['level_at_period_end'])}, published {value_text(t['published'])}"
        )
    return lines


def _ffg(t: Terms) -> list[str]:
    return [
        f"D = opponent's level − own level (Black's with the handicap bonus) = {value_text(t['D'])}",
        f"a = (1250 − the weaker level) / 7 = {value_text(t['a'])}",
        f"P = 1 / (e^(D/a) + 1) = 1 / (e^({_n(t['D'])} / {_n(t['a'])}) + 1) = {value_text(t['P'])}",
        f"Change = coefficient × K × (R − P + ε/2) = {_n(t['coefficient'])} × {_n(t['K'])} × ({_n(t['R'])}"
        f" − {_n(t['P'])} + {_n(t['epsilon_half'])}) = {signed_text(t['change'])}",
        *_settling(t),
    ]


def _ffg_old(t: Terms) -> list[str]:
    return [
        f"Change = basic × coefficient × weight = {_n(t['stage_1_basic'])} × {_n(t['stages_2_4_coefficient'])}"
        f" × {_n(t['stage_5_weight'])} = {signed_text(t['change'])}",
        *_settling(t),
    ]


def _west_surrey(t: Terms) -> list[str]:
    levels = t["handicap_levels"]
    return [
        f"The rungs {t['rung']} and {t['opponent_rung']} give a handicap of {levels} stone{'' if levels == 1 else 's'}",
        f"{str(t['result']).capitalize()}: {t['move']}, {t['rung']} → {t['rung_after']}",
        f"Change = strength after − strength = {_n(t['strength_after'])} − {_n(t['strength'])}"
        f" = {signed_text(t['change'])}",
    ]


_STEPS: dict[str, Callable[[Terms], list[str]]] = {
    "sagc": _sagc,
    "egf": _egf,
    "egf-old": _egf,
    "ffg": _ffg,
    "ffg-old": _ffg_old,
    "west-surrey": _west_surrey,
}


def steps(system: str, terms: Terms) -> list[str]:
    """The change of ``terms`` worked out in ``system``, one line a step;
    none for a system without steps here (its terms still show)."""
    worker = _STEPS.get(system)
    return worker(terms) if worker is not None else []
