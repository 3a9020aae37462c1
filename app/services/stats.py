"""Statistics of one player's games: every figure of the statistics page (RULES.md Q-01).

The figures are SQL aggregates (`app.store.stats`) over the stored per-hand results; this module
reads the page's filter, rolls seats up into subjects (the human, and each computer level with
all its seats together), and computes the rates, averages and win streaks from those sums.

Definitions, also shown on the page:
- A game is played once it starts; it is then in progress, finished or abandoned (a new game was
  started before it ended). The win rate counts an abandoned game as a game nobody won:
  wins ÷ (finished + abandoned games).
- Places rank final scores from low to high; equal scores share the better place; first place is
  a win, a shared win included.
- A win streak counts finished games won in a row, in the order they were started; a finished
  game not won, or an abandoned game, ends it. Games in progress do not count. For a computer
  level, a game counts as won when a seat of that level won it, and only games with a seat of
  that level count.
- For a computer level, game counts are per seat: three Hard seats in one game are three games.
- Per-hand figures cover every finished hand, those of abandoned games included.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from fractions import Fraction

from sqlalchemy.orm import Session

from app.services import inputs
from app.services.database import Database
from app.services.players import Caller
from app.store import stats as store
from app.store.models import BOT_LEVELS, HUMAN

FinalOfGame = store.FinalOfGame
"""One finished game's final score, for the chart of recent games."""

SUBJECTS = (HUMAN, *BOT_LEVELS)
"""The subjects of the page, in order: the human, then each computer level."""
DIRECTIONS = ("left", "right", "across", "hold")
VARIANTS = ("standard", "cancellation")
HINTS_CHOICES = ("without", "with")
DEALS_CHOICES = ("new", "again")
"""The filter's choices of games by deals: new ones, or deals played again."""
"""The filter's choices of games by hints: without any, or with."""
RECENT_GAMES = 20
"""Games in the chart of recent final scores."""
HISTOGRAM_BINS: tuple[tuple[int | None, int | None, str], ...] = (
    (None, -1, "< 0"),
    (0, 0, "0"),
    (1, 4, "1–4"),
    (5, 12, "5–12"),
    (13, 13, "13"),
    (14, 25, "14–25"),
    (26, None, "≥ 26"),
)
"""Bins of the points-per-hand chart: low and high bound (inclusive; None = open) and label."""


def N_(message: str) -> str:
    """Mark a message id for extraction; the template translates it where it is shown."""
    return message


# --- the filter -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Filters:
    """The page's filter as the player chose it (query parameters), with any message ids about
    values that were ignored."""

    level: str | None = None
    table: str | None = None
    """`"<variant>-<players>"`, e.g. `"standard-4"`."""
    since: date | None = None
    until: date | None = None
    """Inclusive: games started on that day count."""
    hints: str | None = None
    """`"without"` (games without hints) or `"with"` (assisted games); None for both."""
    deals: str | None = None
    """`"new"` (games of new deals) or `"again"` (deals played again); None for both."""
    errors: tuple[str, ...] = ()

    def to_store(self) -> store.StatsFilter:
        """The filter as the store's queries take it (UTC days; `until` made exclusive)."""
        variant, players = split_table(self.table) if self.table else (None, None)
        return store.StatsFilter(
            level=self.level,
            variant=variant,
            num_players=players,
            since=_start_of(self.since),
            until=_start_of(self.until + timedelta(days=1)) if self.until else None,
            assisted=None if self.hints is None else self.hints == "with",
            replayed=None if self.deals is None else self.deals == "again",
        )

    @property
    def query(self) -> dict[str, str]:
        """The filter as query parameters (for links that keep it)."""
        values = {
            "level": self.level or "",
            "table": self.table or "",
            "since": self.since.isoformat() if self.since else "",
            "until": self.until.isoformat() if self.until else "",
            "hints": self.hints or "",
            "deals": self.deals or "",
        }
        return {key: value for key, value in values.items() if value}

    @property
    def active(self) -> bool:
        """Whether any filter is set."""
        return bool(self.query)


def _start_of(day: date | None) -> datetime | None:
    return None if day is None else datetime.combine(day, time(0), tzinfo=UTC)


def table_key(variant: str, num_players: int) -> str:
    """The filter value of a table."""
    return f"{variant}-{num_players}"


def split_table(key: str) -> tuple[str, int]:
    """The variant and number of players of a table filter value (`ValueError` if malformed)."""
    variant, _, players = key.partition("-")
    count = inputs.ascii_int(players, 3, 11)
    if variant not in VARIANTS or count is None:
        raise ValueError(key)
    return variant, count


def parse_filters(params: Mapping[str, str]) -> Filters:
    """The filter from query parameters; an unreadable value is ignored with a message id."""
    errors: list[str] = []
    level = params.get("level", "") or None
    if level is not None and level not in BOT_LEVELS:
        errors.append(N_("Unknown difficulty: showing every difficulty."))
        level = None
    table = params.get("table", "") or None
    if table is not None:
        try:
            split_table(table)
        except ValueError:
            errors.append(N_("Unknown table: showing every table."))
            table = None
    since = _date(params.get("since", ""), errors)
    until = _date(params.get("until", ""), errors)
    if since and until and since > until:
        errors.append(N_("The start date is after the end date: the dates were swapped."))
        since, until = until, since
    hints = params.get("hints", "") or None
    if hints is not None and hints not in HINTS_CHOICES:
        errors.append(N_("Unknown choice of hints: showing games with and without hints."))
        hints = None
    deals = params.get("deals", "") or None
    if deals is not None and deals not in DEALS_CHOICES:
        errors.append(N_("Unknown choice of deals: showing new deals and deals played again."))
        deals = None
    return Filters(level, table, since, until, hints, deals, tuple(errors))


def _date(text: str, errors: list[str]) -> date | None:
    if not text:
        return None
    value = inputs.day(text)
    if value is None:
        errors.append(N_("A date was not understood (use YYYY-MM-DD, 2000–2100); it was ignored."))
    return value


# --- the figures ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SubjectStats:
    """Every figure of one subject: the human, a computer level, or one computer seat."""

    kind: str
    seat: int | None
    """The seat for one computer seat; None for a subject over seats."""
    counts: store.GameCounts
    finals: store.FinalScores
    hands: store.HandTotals
    directions: dict[str, store.DirectionTotals]
    current_streak: int = 0
    longest_streak: int = 0

    @property
    def wins(self) -> int:
        """Finished games won (shared wins included)."""
        return self.finals.wins

    @property
    def win_rate(self) -> Fraction | None:
        """Wins ÷ (finished + abandoned games); None before any such game."""
        ended = self.counts.finished + self.counts.abandoned
        return Fraction(self.wins, ended) if ended else None

    @property
    def average_final(self) -> Fraction | None:
        """The average final score of finished games."""
        return _ratio(self.finals.total, self.finals.games)

    @property
    def points_per_hand(self) -> Fraction | None:
        """Average points per finished hand."""
        return _ratio(self.hands.points, self.hands.hands)

    @property
    def zero_share(self) -> Fraction | None:
        """The share of hands that ended with 0 points."""
        return _ratio(self.hands.zero_hands, self.hands.hands)

    def direction_average(self, direction: str) -> Fraction | None:
        """Average points per hand under one pass direction."""
        totals = self.directions.get(direction)
        return None if totals is None else _ratio(totals.points, totals.hands)

    def direction_hands(self, direction: str) -> int:
        """Hands played under one pass direction."""
        totals = self.directions.get(direction)
        return 0 if totals is None else totals.hands

    def place_count(self, place: int) -> int:
        """How many finished games ended in `place` (1 = first)."""
        return self.finals.places.get(place, 0)


def _ratio(numerator: int, denominator: int) -> Fraction | None:
    return Fraction(numerator, denominator) if denominator else None


@dataclass(frozen=True, slots=True)
class Bin:
    """One bar of the points-per-hand chart."""

    label: str
    hands: int


@dataclass(frozen=True, slots=True)
class Choices:
    """What the filter offers: the levels met and the tables played."""

    levels: list[str]
    """Computer levels the player has played against."""
    tables: list[str]
    """Tables the player has played (`table_key` values)."""


def statistics_choices(db: Database, caller: Caller) -> Choices:
    """The filter's choices for the caller's games."""
    with db.read() as session:
        return _choices(session, caller.player_id)


def _choices(session: Session, pid: str) -> Choices:
    met = store.level_choices(session, pid)
    tables = [table_key(v, n) for v, n in store.table_choices(session, pid)]
    return Choices([lv for lv in BOT_LEVELS if lv in met], tables)


@dataclass(frozen=True, slots=True)
class StatsPage:
    """Everything the statistics page shows."""

    filters: Filters
    choices: Choices
    subjects: list[SubjectStats]
    """The human, then each computer level with at least one seat in the filtered games."""
    seats: list[SubjectStats]
    """Each computer seat (level and seat number) on its own."""
    places: int
    """The number of places to show (the largest table in the filtered games)."""
    directions: list[str]
    """Pass directions with at least one hand."""
    recent: list[FinalOfGame]
    histogram: list[Bin] = field(default_factory=list)
    assisted: int = 0
    """How many of the filtered games had hints."""
    replayed: int = 0
    """How many of the filtered games were deals played again."""
    apart: list[tuple[str, SubjectStats]] = field(default_factory=list)
    """The human's figures in the filtered games kept apart by hints and by deals played again
    (a message id naming the games, and the figures), when there are such games."""

    @property
    def human(self) -> SubjectStats:
        """The human's figures."""
        return self.subjects[0]


def merge_seats(kind: str, seats: list[SubjectStats]) -> SubjectStats:
    """One subject over several seats of the same kind: sums add up, bests and worsts compare."""
    counts = store.GameCounts(
        finished=sum(s.counts.finished for s in seats),
        abandoned=sum(s.counts.abandoned for s in seats),
        active=sum(s.counts.active for s in seats),
    )
    bests = [s.finals.best for s in seats if s.finals.best is not None]
    worsts = [s.finals.worst for s in seats if s.finals.worst is not None]
    places: dict[int, int] = {}
    for s in seats:
        for place, count in s.finals.places.items():
            places[place] = places.get(place, 0) + count
    finals = store.FinalScores(
        games=sum(s.finals.games for s in seats),
        total=sum(s.finals.total for s in seats),
        best=min(bests) if bests else None,
        worst=max(worsts) if worsts else None,
        wins=sum(s.finals.wins for s in seats),
        places=places,
    )
    hand_fields = store.HandTotals.__dataclass_fields__
    hands = store.HandTotals(
        **{name: sum(getattr(s.hands, name) for s in seats) for name in hand_fields}
    )
    directions: dict[str, store.DirectionTotals] = {}
    for s in seats:
        for direction, totals in s.directions.items():
            before = directions.get(direction, store.DirectionTotals())
            directions[direction] = store.DirectionTotals(
                before.hands + totals.hands, before.points + totals.points
            )
    return SubjectStats(kind, None, counts, finals, hands, directions)


def streaks(outcomes: list[store.Outcome], kind: str) -> tuple[int, int]:
    """The current and longest win streak of `kind` over games in start order."""
    current = longest = 0
    for outcome in outcomes:
        if kind not in outcome.kinds:
            continue
        current = current + 1 if kind in outcome.winners else 0
        longest = max(longest, current)
    return current, longest


def histogram(points: Mapping[int, int]) -> list[Bin]:
    """Hands per bin of points (`HISTOGRAM_BINS`)."""
    bins = []
    for low, high, label in HISTOGRAM_BINS:
        hands = sum(
            count
            for p, count in points.items()
            if (low is None or p >= low) and (high is None or p <= high)
        )
        bins.append(Bin(label, hands))
    return bins


def statistics(db: Database, caller: Caller, filters: Filters) -> StatsPage:
    """Every figure of the statistics page for the caller's games that pass `filters`."""
    with db.read() as session:
        return _statistics(session, caller.player_id, filters)


def _statistics(session: Session, pid: str, filters: Filters) -> StatsPage:
    f = filters.to_store()
    counts = store.game_counts(session, pid, f)
    finals = store.final_scores(session, pid, f)
    hands = store.hand_totals(session, pid, f)
    directions = store.direction_totals(session, pid, f)
    outcomes = store.outcomes(session, pid, f)
    by_seat = [
        SubjectStats(
            kind,
            seat,
            counts[(kind, seat)],
            finals.get((kind, seat), store.FinalScores()),
            hands.get((kind, seat), store.HandTotals()),
            directions.get((kind, seat), {}),
        )
        for kind, seat in sorted(counts, key=lambda k: (SUBJECTS.index(k[0]), k[1]))
    ]
    subjects = []
    for kind in SUBJECTS:
        seats = [s for s in by_seat if s.kind == kind]
        if not seats and kind != HUMAN:
            continue
        current, longest = streaks(outcomes, kind)
        merged = merge_seats(kind, seats)
        subjects.append(replace(merged, current_streak=current, longest_streak=longest))
    seen = max((p for s in subjects for p in s.finals.places), default=0)
    places = max(seen, store.largest_finished_table(session, pid, f))
    assisted = (
        0 if f.assisted is False else store.count_games(session, pid, replace(f, assisted=True))
    )
    replayed = (
        0 if f.replayed is False else store.count_games(session, pid, replace(f, replayed=True))
    )
    apart: list[tuple[str, SubjectStats]] = []
    if assisted and f.assisted is None:
        apart.append((N_("Without hints"), _human(session, pid, replace(f, assisted=False))))
        apart.append((N_("With hints"), _human(session, pid, replace(f, assisted=True))))
    if replayed and f.replayed is None:
        apart.append((N_("New deals"), _human(session, pid, replace(f, replayed=False))))
        apart.append((N_("Deals played again"), _human(session, pid, replace(f, replayed=True))))
    return StatsPage(
        filters=filters,
        choices=_choices(session, pid),
        subjects=subjects,
        seats=[s for s in by_seat if s.kind != HUMAN],
        places=places,
        directions=[d for d in DIRECTIONS if any(d in s.directions for s in subjects)],
        recent=store.recent_finals(session, pid, f, RECENT_GAMES),
        histogram=histogram(store.points_histogram(session, pid, f)),
        assisted=assisted,
        replayed=replayed,
        apart=apart,
    )


def _human(session: Session, pid: str, f: store.StatsFilter) -> SubjectStats:
    """The human's games, wins and points in the games `f` selects."""
    key = (HUMAN, 0)
    return SubjectStats(
        HUMAN,
        None,
        store.game_counts(session, pid, f).get(key, store.GameCounts()),
        store.final_scores(session, pid, f).get(key, store.FinalScores()),
        store.hand_totals(session, pid, f).get(key, store.HandTotals()),
        {},
    )
