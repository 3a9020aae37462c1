"""A fast private simulator: many hands played at once, in lock-step, with NumPy arrays.

The engine's `apply` validates every action and keeps every fact; the Hard player needs thousands
of quick play-outs per decision instead. Here a batch of M hands (one per row) is held as card
counts per seat, `hands[M, n, 52]` (0, 1 or 2: two decks in Cancellation Hearts), and every row
plays its next card in the same step. Each row's legal cards follow RULES.md R9 exactly, the
trick winner R10/R36 (identical cards cancel), the pot and the kitty R32/R37/R38, and the hand's
score R11/R12/R20/R21; nothing is checked, so it stays private to the bots. A policy turns the
legal cards of every row into one card per row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import numpy.typing as npt

from app.engine import (
    FULL_DECK,
    QUEEN_OF_SPADES,
    FirstLead,
    HeartsBrokenBy,
    LastTrickNoWinner,
    LeftoverTo,
    MoonScoring,
    RuleOptions,
    Suit,
    TieRule,
    card_points,
    deck_for,
    hand_size,
    lowest_club,
    penalty_total,
)

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]

RANK: IntArray = np.array([c.rank for c in FULL_DECK], dtype=np.int64)
SUIT: IntArray = np.array([list(Suit).index(c.suit) for c in FULL_DECK], dtype=np.int64)
CLUBS, DIAMONDS, SPADES, HEARTS = (list(Suit).index(s) for s in Suit)
QS = QUEEN_OF_SPADES.index
IS_HEART: BoolArray = SUIT == HEARTS
IS_PENALTY: BoolArray = IS_HEART.copy()
IS_PENALTY[QS] = True
SUIT_MASKS: BoolArray = np.stack([s == SUIT for s in range(4)])
HIGH_SPADE: BoolArray = (SUIT == SPADES) & (RANK > 12)


def any_per_row(a: BoolArray) -> BoolArray:
    """Per row: whether any entry of the row is set."""
    return cast(BoolArray, a.any(axis=1))


def _argmax(a: npt.NDArray[np.float64] | IntArray) -> IntArray:
    """Per row: the index of the largest entry (the first one on ties)."""
    return np.asarray(a.argmax(axis=1), dtype=np.int64)


@dataclass(frozen=True, slots=True)
class Rules:
    """Rule options compiled for the simulator."""

    n: int
    tricks: int
    points: IntArray
    copies: int
    first_lead: FirstLead
    lowest_club: int
    no_points_first_trick: bool
    any_play_breaks: bool
    qs_breaks: bool
    qs_lead_requires_broken: bool
    lead_hearts_if_only_qs: bool
    must_break: bool
    kitty_with_first: bool
    last_to_leader: bool
    penalty_cards: int
    penalty_points: int
    moon_value: int
    moon_scoring: MoonScoring
    bonus: int
    bonus_required: bool
    no_tricks_bonus: int
    target: int
    shared_ties: bool

    @classmethod
    def of(cls, o: RuleOptions) -> Rules:
        """Compile `o`."""
        deck = deck_for(o)
        bonus = o.bonus_card
        return cls(
            n=o.num_players,
            tricks=hand_size(o),
            points=np.array(card_points(o), dtype=np.int64),
            copies=2 if o.is_cancellation else 1,
            first_lead=o.first_lead,
            lowest_club=lowest_club(o).index,
            no_points_first_trick=o.no_points_first_trick,
            any_play_breaks=o.hearts_broken_by is HeartsBrokenBy.ANY_PLAY,
            qs_breaks=o.qs_breaks_hearts,
            qs_lead_requires_broken=o.qs_lead_requires_broken,
            lead_hearts_if_only_qs=o.lead_hearts_if_only_qs_and_hearts,
            must_break=o.must_break_hearts,
            kitty_with_first=o.cancel_leftover_to is LeftoverTo.FIRST_TRICK_WINNER,
            last_to_leader=o.cancel_last_trick_no_winner is LastTrickNoWinner.LEADER,
            penalty_cards=sum(1 for c in deck if IS_PENALTY[c.index]),
            penalty_points=penalty_total(o),
            moon_value=o.moon_value,
            moon_scoring=o.moon_scoring,
            bonus=-1 if bonus is None else bonus.index,
            bonus_required=o.omnibus_moon_requires_bonus,
            no_tricks_bonus=o.no_tricks_bonus,
            target=o.target_score,
            shared_ties=o.tie_rule is TieRule.SHARED,
        )


@dataclass(slots=True)
class Batch:
    """M hands in progress, all at the same trick and the same position in it."""

    rules: Rules
    hands: npt.NDArray[np.int8]
    """Card counts per row, seat and card: shape (M, n, 52)."""
    leader: IntArray
    trick: int
    """The number of the trick in progress (1-based)."""
    k: int
    """Cards already played to the trick in progress."""
    plays: IntArray
    """Cards of the trick in progress by position, shape (M, n)."""
    seats: IntArray
    broken: BoolArray
    points: IntArray
    """Points collected so far, shape (M, n)."""
    penalty: IntArray
    """Hearts and queens of spades collected so far, shape (M, n)."""
    tricks_won: IntArray
    bonus_taken: BoolArray
    pot_points: IntArray
    pot_penalty: IntArray
    kitty_pending: BoolArray
    kitty_points: IntArray
    kitty_penalty: IntArray
    queens_played: IntArray
    voids: BoolArray
    """Suits each seat has shown it lacks (by discarding on them), shape (M, n, 4): public facts
    a rollout policy may use, unlike the hidden hands."""
    totals: IntArray
    """The game totals before this hand, shape (M, n) (for policies that mind the game's end)."""

    @property
    def size(self) -> int:
        """The number of rows (M)."""
        return int(self.leader.shape[0])

    @property
    def is_over(self) -> bool:
        """True once every trick of the hand has been played."""
        return self.trick > self.rules.tricks

    def to_play(self) -> IntArray:
        """The seat to play in every row."""
        return (self.leader + self.k) % self.rules.n

    def repeat(self, times: int) -> Batch:
        """A batch with every row repeated `times` times (row i becomes rows i*times … )."""
        arrays = {
            name: np.repeat(getattr(self, name), times, axis=0)
            for name in self.__slots__
            if isinstance(getattr(self, name), np.ndarray)
        }
        return Batch(rules=self.rules, trick=self.trick, k=self.k, **arrays)

    def take(self, rows: IntArray) -> Batch:
        """A batch of the given rows, in that order (a row may be taken several times)."""
        arrays = {
            name: getattr(self, name)[rows]
            for name in self.__slots__
            if isinstance(getattr(self, name), np.ndarray)
        }
        return Batch(rules=self.rules, trick=self.trick, k=self.k, **arrays)


def new_batch(
    rules: Rules,
    hands: npt.NDArray[np.int8],
    *,
    leader: int | IntArray,
    trick: int = 1,
    current: Sequence[tuple[int, int]] = (),
    broken: bool | None = None,
    points: IntArray | None = None,
    penalty: IntArray | None = None,
    tricks_won: IntArray | None = None,
    bonus_taken: BoolArray | None = None,
    pot: tuple[int, int] = (0, 0),
    kitty: tuple[BoolArray, IntArray, IntArray] | None = None,
    queens_played: int = 0,
    voids: BoolArray | None = None,
    totals: IntArray | None = None,
) -> Batch:
    """A batch from card counts `hands[M, n, 52]` and the facts every row shares."""
    m, n = hands.shape[0], rules.n
    plays = np.full((m, n), -1, dtype=np.int64)
    seats = np.full((m, n), -1, dtype=np.int64)
    for i, (seat, card_index) in enumerate(current):
        plays[:, i] = card_index
        seats[:, i] = seat
    zeros = np.zeros((m, n), dtype=np.int64)
    pending, kitty_pts, kitty_pen = (
        kitty
        if kitty is not None
        else (np.zeros(m, dtype=np.bool_), np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.int64))
    )
    return Batch(
        rules=rules,
        hands=hands,
        leader=np.broadcast_to(np.asarray(leader, dtype=np.int64), (m,)).copy(),
        trick=trick,
        k=len(current),
        plays=plays,
        seats=seats,
        broken=np.full(m, (not rules.must_break) if broken is None else broken),
        points=zeros.copy() if points is None else points.astype(np.int64).copy(),
        penalty=zeros.copy() if penalty is None else penalty.astype(np.int64).copy(),
        tricks_won=zeros.copy() if tricks_won is None else tricks_won.astype(np.int64).copy(),
        bonus_taken=np.zeros((m, n), dtype=np.bool_) if bonus_taken is None else bonus_taken.copy(),
        pot_points=np.full(m, pot[0], dtype=np.int64),
        pot_penalty=np.full(m, pot[1], dtype=np.int64),
        kitty_pending=pending.copy(),
        kitty_points=kitty_pts.copy(),
        kitty_penalty=kitty_pen.copy(),
        queens_played=np.full(m, queens_played, dtype=np.int64),
        voids=np.zeros((m, n, 4), dtype=np.bool_)
        if voids is None
        else np.broadcast_to(voids, (m, n, 4)).copy(),
        totals=zeros.copy()
        if totals is None
        else np.broadcast_to(np.asarray(totals, dtype=np.int64), (m, n)).copy(),
    )


def legal_mask(b: Batch) -> BoolArray:
    """The legal cards of the seat to play in every row (R9), shape (M, 52)."""
    r = b.rules
    rows = np.arange(b.size)
    has = b.hands[rows, b.to_play()] > 0
    if b.k:
        led = SUIT[b.plays[:, 0]]
        same = has & SUIT_MASKS[led]
        any_same = any_per_row(same)
        legal = np.where(any_same[:, None], same, has)
        if b.trick == 1 and r.no_points_first_trick:
            safe = has & ~IS_PENALTY
            legal = np.where((~any_same & any_per_row(safe))[:, None], safe, legal)
        return legal
    if b.trick == 1:
        if r.first_lead is FirstLead.LEFT_OF_DEALER:
            safe = has & ~IS_PENALTY
            return np.where(any_per_row(safe)[:, None], safe, has)
        if r.first_lead is FirstLead.ANY_CLUB:
            return cast(BoolArray, has & SUIT_MASKS[CLUBS])
        legal = np.zeros_like(has)
        legal[:, r.lowest_club] = has[:, r.lowest_club]
        return legal
    cand = has & ~IS_HEART
    if r.qs_lead_requires_broken:
        cand[:, QS] = False
    if r.lead_hearts_if_only_qs:
        only_queen = cand[:, QS] & (cand.sum(axis=1) == 1)
        cand[only_queen] = False
    cand = np.where(b.broken[:, None], has, cand)
    return np.where(any_per_row(cand)[:, None], cand, has)


def play(b: Batch, cards: IntArray) -> None:
    """Play `cards[row]` for the seat to play in every row (no checks), finishing tricks."""
    r = b.rules
    rows = np.arange(b.size)
    seat = b.to_play()
    b.hands[rows, seat, cards] -= 1
    b.plays[:, b.k] = cards
    b.seats[:, b.k] = seat
    is_heart = IS_HEART[cards]
    is_queen = cards == QS
    if b.k == 0:
        counts = np.full(b.size, r.any_play_breaks)
    else:
        led = SUIT[b.plays[:, 0]]
        off = SUIT[cards] != led
        b.voids[rows[off], seat[off], led[off]] = True
        counts = r.any_play_breaks | off
    b.broken |= counts & (is_heart | (is_queen & r.qs_breaks))
    b.queens_played += is_queen
    b.k += 1
    if b.k == r.n:
        _finish_trick(b)


def winning_rank(b: Batch) -> IntArray:
    """The rank of the card currently winning the trick in progress (0 if none), per row."""
    if b.k == 0:
        return np.zeros(b.size, dtype=np.int64)
    cards = b.plays[:, : b.k]
    eligible = SUIT[cards] == SUIT[cards[:, :1]]
    if b.rules.copies == 2:
        eligible &= (cards[:, :, None] == cards[:, None, :]).sum(axis=2) == 1
    return np.asarray(np.where(eligible, RANK[cards], 0).max(axis=1), dtype=np.int64)


def _finish_trick(b: Batch) -> None:
    r = b.rules
    rows = np.arange(b.size)
    cards = b.plays
    rank = winning_rank(b)
    eligible = (SUIT[cards] == SUIT[cards[:, :1]]) & (RANK[cards] == rank[:, None])
    if r.copies == 2:
        eligible &= (cards[:, :, None] == cards[:, None, :]).sum(axis=2) == 1
    has_winner = rank > 0
    winner = b.seats[rows, eligible.argmax(axis=1)]
    last = b.trick == r.tricks
    collector = np.where(has_winner, winner, -1)
    if last and r.last_to_leader:
        collector = np.where(has_winner, winner, b.leader)
    got = collector >= 0
    kitty_goes = b.kitty_pending & (r.kitty_with_first or last)
    add_points = (
        r.points[cards].sum(axis=1) + b.pot_points + np.where(kitty_goes, b.kitty_points, 0)
    )
    add_penalty = (
        IS_PENALTY[cards].sum(axis=1) + b.pot_penalty + np.where(kitty_goes, b.kitty_penalty, 0)
    )
    idx = rows[got]
    who = collector[got]
    b.points[idx, who] += add_points[got]
    b.penalty[idx, who] += add_penalty[got]
    b.tricks_won[idx, who] += 1
    if r.bonus >= 0:
        b.bonus_taken[idx, who] |= any_per_row(cards[got] == r.bonus)
    b.kitty_pending &= ~(kitty_goes & (got | last))
    b.pot_points = np.where(got, 0, b.pot_points + r.points[cards].sum(axis=1))
    b.pot_penalty = np.where(got, 0, b.pot_penalty + IS_PENALTY[cards].sum(axis=1))
    b.leader = np.where(got, collector, b.leader)
    b.plays[:] = -1
    b.seats[:] = -1
    b.k = 0
    b.trick += 1


def _shooter_mask(b: Batch) -> BoolArray:
    """Per row and seat: whether the seat took every penalty card (and the bonus card where the
    moon requires it, R12.1, R20), shape (M, n)."""
    r = b.rules
    mask = b.penalty == r.penalty_cards
    if r.bonus_required and r.bonus >= 0:
        mask &= b.bonus_taken
    return cast(BoolArray, mask)


def shooters(b: Batch) -> IntArray:
    """Per row of a finished batch: the seat that shot the moon, or -1."""
    mask = _shooter_mask(b)
    return np.where(any_per_row(mask), mask.argmax(axis=1), -1)


def hand_points(b: Batch, totals: IntArray) -> IntArray:
    """Every row's hand points after the moon and the no-tricks bonus (R11, R12, R20, R21).

    `choice` is scored as `auto`, the rule a computer shooter follows (R12.5).
    """
    r = b.rules
    rows = np.arange(b.size)
    shooter_mask = _shooter_mask(b)
    moon = any_per_row(shooter_mask)
    shooter = shooter_mask.argmax(axis=1)
    plain = b.points + np.where(b.tricks_won == 0, r.no_tricks_bonus, 0)
    if not moon.any():
        return plain
    base = b.points.copy()
    base[rows, shooter] -= r.penalty_points
    added = base + np.where(shooter_mask, 0, r.moon_value)
    subtracted = base.copy()
    subtracted[rows, shooter] -= r.moon_value
    if r.moon_scoring is MoonScoring.ADD_TO_OTHERS:
        scored = added
    elif r.moon_scoring is MoonScoring.SUBTRACT_FROM_SELF:
        scored = subtracted
    else:
        after = totals + added
        ends, winners = game_end(r, after)
        loses = ends & ~winners[rows, shooter]
        scored = np.where(loses[:, None], subtracted, added)
    return np.where(moon[:, None], scored, plain)


def game_end(r: Rules, totals: IntArray) -> tuple[BoolArray, BoolArray]:
    """Per row: whether the game ends with these totals, and who would win (R13.2–R13.5)."""
    low = totals.min(axis=1)
    winners = totals == low[:, None]
    unique = winners.sum(axis=1) == 1
    ends = (totals.max(axis=1) >= r.target) & (unique | r.shared_ties)
    return ends, winners


Policy = Callable[[Batch, BoolArray, np.random.Generator], IntArray]
"""Chooses one legal card per row."""


def random_policy(b: Batch, legal: BoolArray, rng: np.random.Generator) -> IntArray:
    """A uniformly random legal card in every row."""
    keys = rng.random(legal.shape)
    return _argmax(np.where(legal, keys, -1.0))


def heuristic_policy(b: Batch, legal: BoolArray, rng: np.random.Generator) -> IntArray:
    """A quick careful player: duck under the winning card, dump the queen and high cards when
    void, lead low, smoke out the queen with low spades (RULES.md §11.3), with a little noise."""
    rows = np.arange(b.size)
    seat = b.to_play()
    own = b.hands[rows, seat]
    queens_out = (b.rules.copies - b.queens_played - own[:, QS]) > 0
    rank = RANK[None, :].astype(np.float64)
    if b.k == 0:
        prio = -rank.repeat(b.size, axis=0)
        smoke = (queens_out & (own[:, QS] == 0))[:, None]
        low_spade = (SUIT == SPADES) & (RANK < 12)
        prio = prio + np.where(smoke & low_spade[None, :], 8.0, 0.0)
        prio = prio - np.where(HIGH_SPADE[None, :] & queens_out[:, None], 20.0, 0.0)
        prio[:, QS] -= 30.0
        prio = prio - np.where(IS_HEART[None, :], 4.0, 0.0)
    else:
        led = SUIT[b.plays[:, 0]]
        following = any_per_row(legal & SUIT_MASKS[led])
        win = winning_rank(b).astype(np.float64)
        below = rank < win[:, None]
        last = b.k == b.rules.n - 1
        follow = np.where(below, 100.0 + rank, rank if last else -rank)
        # The queen: drop it under a higher spade, never win with it.
        spades = led == SPADES
        follow[:, QS] = np.where(spades & (win > 12), 1000.0, np.where(win < 12, -1000.0, 100 + 12))
        danger = rank + np.where(IS_HEART[None, :], 300.0, 0.0)
        danger = danger + np.where(HIGH_SPADE[None, :] & queens_out[:, None], 600.0, 0.0)
        danger[:, QS] = 1000.0
        prio = np.where(following[:, None], follow, danger)
    prio = prio + rng.random(prio.shape) * 0.5
    return _argmax(np.where(legal, prio, -np.inf))


def play_out(b: Batch, policy: Policy, rng: np.random.Generator) -> None:
    """Play every row to the end of the hand."""
    while not b.is_over:
        play(b, policy(b, legal_mask(b), rng))


def play_trick(b: Batch, policy: Policy, rng: np.random.Generator) -> None:
    """Play every row to the end of the trick in progress (nothing if none is)."""
    while b.k and not b.is_over:
        play(b, policy(b, legal_mask(b), rng))


def counts_of(options: RuleOptions, hands: Sequence[Sequence[int]]) -> npt.NDArray[np.int8]:
    """Card counts (n, 52) from lists of card indexes per seat."""
    counts: npt.NDArray[np.int8] = counts_of_many(options, [hands])[0]
    return counts


def counts_of_many(
    options: RuleOptions, layouts: Sequence[Sequence[Sequence[int]]]
) -> npt.NDArray[np.int8]:
    """Card counts (layouts, n, 52) of many layouts, each a list of card indexes per seat."""
    n = options.num_players
    flat = [
        (w * n + seat) * 52 + c
        for w, hands in enumerate(layouts)
        for seat, cards in enumerate(hands)
        for c in cards
    ]
    size = len(layouts) * n * 52
    counts = np.bincount(np.asarray(flat, dtype=np.int64), minlength=size)
    return counts.astype(np.int8).reshape(len(layouts), n, 52)
