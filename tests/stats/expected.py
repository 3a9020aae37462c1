"""The statistics recomputed the slow, obvious way: replay every stored game and add up.

This is the reference the SQL aggregates are checked against: it reads nothing but the action
logs (`repository.load_actions` + `replay`) and the games' status, seats and start times.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.engine import GameState, replay
from app.store import repository
from app.store.models import Game


@dataclass
class Expected:
    """Every figure of one subject (a kind of seat), summed over replayed games."""

    played: int = 0
    finished: int = 0
    abandoned: int = 0
    active: int = 0
    wins: int = 0
    finals: list[int] = field(default_factory=list)
    places: Counter[int] = field(default_factory=Counter)
    hands: int = 0
    points: int = 0
    zero_hands: int = 0
    queens: int = 0
    hearts: int = 0
    bonus_cards: int = 0
    omnibus_hands: int = 0
    moons_shot: int = 0
    moons_suffered: int = 0
    histogram: Counter[int] = field(default_factory=Counter)
    by_direction: dict[str, list[int]] = field(default_factory=dict)
    """direction → [hands, points]."""
    won_in_order: list[bool] = field(default_factory=list)
    """For each finished or abandoned game with this kind, in start order: won or not."""

    @property
    def win_rate(self) -> Fraction | None:
        ended = self.finished + self.abandoned
        return Fraction(self.wins, ended) if ended else None

    @property
    def average_final(self) -> Fraction | None:
        return Fraction(sum(self.finals), len(self.finals)) if self.finals else None

    @property
    def points_per_hand(self) -> Fraction | None:
        return Fraction(self.points, self.hands) if self.hands else None

    @property
    def streaks(self) -> tuple[int, int]:
        """(current, longest) runs of wins in `won_in_order`."""
        current = longest = 0
        for won in self.won_in_order:
            current = current + 1 if won else 0
            longest = max(longest, current)
        return current, longest


def stored_games(session: Session, player_id: str) -> list[tuple[Game, GameState]]:
    """The player's games in start order, each with its replayed state."""
    games = session.scalars(
        select(Game).where(Game.player_id == player_id).order_by(Game.created_at, Game.id)
    ).all()
    return [(g, replay(g.game_header, repository.load_actions(session, g))) for g in games]


def expected_figures(
    games: list[tuple[Game, GameState]], include: set[int] | None = None
) -> dict[str, Expected]:
    """The figures of every kind of seat over `games` (only ids in `include`, if given)."""
    out: dict[str, Expected] = {}
    for game, state in games:
        if include is not None and game.id not in include:
            continue
        kinds = list(game.seats)
        for kind in dict.fromkeys(kinds):
            e = out.setdefault(kind, Expected())
            if game.status != "active":
                e.won_in_order.append(
                    game.status == "finished" and any(kinds[w] == kind for w in state.winners)
                )
        for seat, kind in enumerate(kinds):
            e = out[kind]
            e.played += 1
            setattr(e, game.status, getattr(e, game.status) + 1)
            if game.status == "finished":
                final = state.totals[seat]
                place = 1 + sum(1 for t in state.totals if t < final)
                assert (seat in state.winners) == (place == 1)  # a win is first place
                assert final == game.totals[seat]
                e.finals.append(final)
                e.places[place] += 1
                e.wins += seat in state.winners
            for r in state.results:
                p = r.points[seat]
                e.hands += 1
                e.points += p
                e.zero_hands += p == 0
                e.queens += r.queens[seat]
                e.hearts += r.hearts[seat]
                e.bonus_cards += r.bonus_cards[seat]
                e.omnibus_hands += state.options.omnibus
                e.moons_shot += r.shooter == seat
                e.moons_suffered += r.shooter is not None and r.shooter != seat
                e.histogram[p] += 1
                d = e.by_direction.setdefault(r.direction.value, [0, 0])
                d[0] += 1
                d[1] += p
    return out
