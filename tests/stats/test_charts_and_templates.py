"""The chart geometry, the number formats, and the rule that every word of the statistics pages
goes through gettext."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from app.services.stats import histogram
from app.web.charts import HEIGHT, WIDTH, bar_chart, line_chart, nice_ticks
from app.web.stats_view import number, percent

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
MINE = [
    "stats.html",
    "history.html",
    "history_game.html",
    "replay.html",
    "partials/charts.html",
    "partials/stats_macros.html",
]


def test_nice_ticks_cover_the_range_in_round_steps() -> None:
    assert nice_ticks(0, 100) == [0, 20, 40, 60, 80, 100]
    assert nice_ticks(-26, 40) == [-40, -20, 0, 20, 40]
    assert nice_ticks(0, 3) == [0, 1, 2, 3]
    assert nice_ticks(0, 0) == [0, 1]
    ticks = nice_ticks(0, 137)
    assert ticks[0] <= 0 and ticks[-1] >= 137 and len(ticks) <= 8


def test_line_chart_places_points_inside_the_plot() -> None:
    chart = line_chart(
        [("You", [10, 55, 120]), ("West", [0, -26, 80])],
        ["1", "2", "3"],
        target=100,
        highlights=[[False, True, False], [False, False, False]],
    )
    assert (chart.width, chart.height) == (WIDTH, HEIGHT)
    for series in chart.series:
        for p in series.points:
            assert chart.left <= p.x <= chart.right and chart.top <= p.y <= chart.bottom
    you = chart.series[0].points
    assert you[0].x < you[1].x < you[2].x
    assert you[2].y < you[1].y < you[0].y  # higher scores are drawn higher
    assert you[1].highlight and not you[0].highlight
    assert chart.target is not None and chart.zero is not None  # a -26 brings the zero line
    assert chart.series[0].path.count(",") == 3
    single = line_chart([("You", [40])], ["Nov 30"])
    assert single.series[0].points[0].x == (single.left + single.right) / 2
    assert len(line_chart([("You", list(range(20)))], [str(i) for i in range(20)]).x_ticks) <= 7


def test_bar_chart_heights_are_proportional() -> None:
    chart = bar_chart([("0", 10), ("1–4", 5), ("13", 0)])
    a, b, c = chart.bars
    assert a.height == pytest.approx(2 * b.height, abs=0.2)
    assert c.height == 0
    assert all(bar.y + bar.height == pytest.approx(chart.bottom, abs=0.2) for bar in chart.bars)
    assert [t.label for t in chart.x_ticks] == ["0", "1–4", "13"]


def test_histogram_bins_every_hand_once() -> None:
    points = {-26: 1, -10: 2, 0: 5, 1: 3, 4: 1, 5: 2, 12: 1, 13: 4, 14: 1, 25: 2, 26: 3, 52: 1}
    bins = histogram(points)
    assert [b.hands for b in bins] == [3, 5, 4, 3, 4, 3, 4]
    assert sum(b.hands for b in bins) == sum(points.values())


def test_numbers_are_rounded_on_their_exact_value() -> None:
    assert number(None) == "—"
    assert number(1234) == "1,234"
    assert number(Fraction(3, 20)) == "0.2"  # 0.15, half to even on the exact value
    assert number(Fraction(1, 3)) == "0.3"
    assert number(Fraction(-26, 4)) == "-6.5"
    assert percent(Fraction(3, 5)) == "60%"
    assert percent(None) == "—"


def _visible_text(source: str) -> str:
    """What a template writes as text, outside Jinja expressions, statements and tags."""
    source = re.sub(r"\{#.*?#\}", " ", source, flags=re.S)
    source = re.sub(r"\{\{.*?\}\}", " ", source, flags=re.S)
    source = re.sub(r"\{%.*?%\}", " ", source, flags=re.S)
    source = re.sub(r"<[^>]*>", " ", source, flags=re.S)
    return source


@pytest.mark.parametrize("name", MINE)
def test_every_word_goes_through_gettext(name: str) -> None:
    source = (TEMPLATES / name).read_text(encoding="utf-8")
    words = re.findall(r"[^\W\d_]{2,}", _visible_text(source))
    assert not words, f"{name} has untranslated text: {words[:10]}"
    for attribute in re.findall(r'(?:aria-label|title|alt|placeholder)="([^"]*)"', source):
        assert not re.search(r"[^\W\d_]{2,}", re.sub(r"\{\{.*?\}\}", "", attribute)), attribute
