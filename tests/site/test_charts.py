"""The record sheet's history chart (ratings/presentation/charts.py)."""

from datetime import date

from ratings.engine.ranks import format_rank
from ratings.presentation.charts import MAX_TITLED, history_chart


def test_a_player_who_stayed_within_one_rank_gets_the_two_band_lines_labelled() -> None:
    # SAGC plots rank + index / 2000: a 15k between index -300 and +400.
    points = [(date(2026, 1, 1), -15 - 0.15), (date(2026, 3, 1), -15 + 0.2), (date(2026, 6, 1), -15 + 0.1)]
    chart = history_chart(points, label=lambda v: format_rank(round(v)), whole_ticks=True)
    assert chart is not None
    labels = [tick.label for tick in chart.y_ticks]
    # the range widens to the whole bands it touches: 16k..14k
    assert labels == ["16k", "15k", "14k"]
    assert len(set(labels)) == len(labels), "every tick names a different rank"


def test_the_x_axis_is_spaced_by_real_dates() -> None:
    points = [(date(2026, 1, 1), 1.0), (date(2026, 1, 2), 2.0), (date(2026, 12, 31), 3.0)]
    chart = history_chart(points)
    assert chart is not None
    xs = [float(pair.split(",")[0]) for pair in chart.points.split()]
    # the second point is one day after the first, the third a year later
    assert xs[1] - xs[0] < (xs[2] - xs[0]) / 100


def test_the_line_steps_at_a_rank_change_and_slopes_within_a_rank() -> None:
    # 5k at index -900 demoted to 6k at index +72, then a game within 6k.
    points = [(date(2026, 1, 1), -5 - 0.45), (date(2026, 2, 1), -6 + 0.036), (date(2026, 3, 1), -6 + 0.1)]
    chart = history_chart(points, whole_ticks=True, step_when=lambda a, b: round(a) != round(b))
    assert chart is not None
    pairs = [tuple(map(float, pair.split(","))) for pair in chart.points.split()]
    assert len(pairs) == 4, "one corner added, at the rank change only"
    (_, y0), (x1, y1), (x2, y2), (x3, _) = pairs
    assert y1 == y0, "flat to the date of the change"
    assert x1 == x2 and y2 > y1, "then straight down (SVG y grows downwards: a lower rank is lower)"
    assert x3 > x2
    assert chart.count == 3
    plain = history_chart(points)
    assert plain is not None and len(plain.points.split()) == 3, "no steps unless asked"


def test_a_mark_names_the_first_games_of_its_date_and_counts_the_others() -> None:
    # Two dates: one of three games, one of MAX_TITLED + 5 (a bulk import of a day).
    busy = MAX_TITLED + 5
    points = [(date(2026, 1, 1), 1.0)] * 3 + [(date(2026, 2, 1), 2.0)] * busy
    asked: list[list[int]] = []

    def titles(indices: list[int]) -> list[str]:
        asked.append(indices)
        return [f"game {i}" for i in indices]

    chart = history_chart(points, titles=titles)
    assert chart is not None
    assert asked == [[0, 1, 2, *range(3, 3 + MAX_TITLED)]], "once, for the points named only"
    first, second = (mark.title for mark in chart.marks)
    assert first == "game 0; game 1; game 2"
    named = "; ".join(f"game {i}" for i in range(3, 3 + MAX_TITLED))
    assert second == f"{named}; and 5 more that day"


def test_the_marks_written_in_python_are_what_the_template_wrote(db: None) -> None:
    from django.template import engines

    points = [(date(2026, 1, 1), 1.0), (date(2026, 1, 5), -0.25), (date(2026, 3, 1), 2.5)]
    chart = history_chart(
        points, titles=lambda indices: [f'game {i} <b>"Bob" & O\'Neil</b>' for i in indices]
    )
    assert chart is not None and len(chart.marks) == 3
    former = engines["django"].from_string(
        '{% for m in chart.marks %}<circle class="mark" cx="{{ m.x }}" cy="{{ m.y }}" r="4">'
        "<title>{{ m.title }}</title></circle>{% endfor %}"
    )
    assert "<b>" not in chart.marks_html and chart.marks_html == former.render({"chart": chart})
