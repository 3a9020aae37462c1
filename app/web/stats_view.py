"""What the statistics, history and replay pages show, as plain data for the templates: numbers
formatted in the reader's language, seat names (message ids the templates translate), cards and
the charts' geometry.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction

from babel.dates import format_skeleton
from babel.numbers import format_decimal, format_percent

from app.engine import Card
from app.services.history import GameRecord
from app.services.stats import Bin, FinalOfGame
from app.web import i18n
from app.web.charts import Chart, bar_chart, line_chart
from app.web.table import CardView, card_view, seat_name

DASH = "—"


def number(value: Fraction | int | None, digits: int = 1) -> str:
    """A figure in the reader's language; averages get `digits` decimals; None is a dash."""
    if value is None:
        return DASH
    if isinstance(value, int):
        return format_decimal(value, locale=i18n.current())
    pattern = "#,##0." + "0" * digits if digits else "#,##0"
    return format_decimal(_decimal(value), format=pattern, locale=i18n.current())


def percent(value: Fraction | None) -> str:
    """A share as a whole percentage; None is a dash."""
    if value is None:
        return DASH
    return format_percent(_decimal(value), locale=i18n.current())


def _decimal(value: Fraction) -> Decimal:
    """A fraction as a decimal (28 significant digits), so rounding is decided on the exact
    value, never on a binary float's approximation."""
    return Decimal(value.numerator) / Decimal(value.denominator)


def day(moment: datetime) -> str:
    """A short date (day and month) in the reader's language."""
    return format_skeleton("MMMd", moment, locale=i18n.current())


def full_day(moment: date) -> str:
    """A date with its year, in the reader's language."""
    return format_skeleton("yMMMd", moment, locale=i18n.current())


def when(moment: datetime) -> str:
    """Date and time (UTC) in the reader's language."""
    return format_skeleton("yMMMd", moment, locale=i18n.current()) + " " + moment.strftime("%H:%M")


def names(n: int) -> list[str]:
    """The seat names of an n-seat table, as the game table names them (message ids)."""
    return [seat_name(seat, n) for seat in range(n)]


def faces(cards: Sequence[Card] | None) -> list[CardView] | None:
    """Cards for the templates, in the game table's order (clubs, diamonds, spades, hearts)."""
    return None if cards is None else [card_view(c) for c in sorted(cards)]


# --- charts -----------------------------------------------------------------------------------


def final_scores_chart(recent: Sequence[FinalOfGame]) -> Chart:
    """The human's final score in each recent finished game; won games highlighted."""
    return line_chart(
        [("You", [g.score for g in recent])],
        [day(g.started) for g in recent],
        highlights=[[g.place == 1 for g in recent]],
    )


def running_totals_chart(record: GameRecord) -> Chart:
    """Every seat's running total after each hand of one game, from 0 before the first."""
    n = len(record.kinds)
    seat_names = names(n)
    series = [
        (seat_names[seat], [0, *(line.totals[seat] for line in record.lines)]) for seat in range(n)
    ]
    labels = ["0", *(str(line.number) for line in record.lines)]
    return line_chart(series, labels, target=record.summary.target)


def points_chart(histogram: Sequence[Bin]) -> Chart:
    """How many hands ended with how many points (bins)."""
    return bar_chart([(b.label, b.hands) for b in histogram])
