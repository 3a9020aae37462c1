"""The Hard player's rollout policy: the Medium player's habits, vectorized over simulator rows.

`careful_policy` plays, in every row of a `simulator.Batch` at once, the card the careful Medium
player (`app.bots.medium`) would play in that seat: the same modes (normal, stopping a moon,
shooting it), the same leads, ducks and discards, from the same knowledge. That knowledge is what
the seat to play could know at that point of the imagined hand: its own cards, the cards it has
not seen (every other hand of the row taken together, never one hand apart), the voids seats have
shown by discarding, the queens played, the points taken and the game totals. Medium's few
inferences from leads are not tracked inside a rollout, and a face-down kitty is not counted as
unseen, so rare positions differ; everything else matches Medium card for card (tested).

Since the Hard player's opponents are most often careful players, imagining every seat as one makes
the imagined play-outs close to what really happens, and Hard's own seat in them plays well too.

The policy is written twice: `careful_policy_vectorized` with NumPy over all rows at once (this
module, the reference), and `careful_cards` compiled with Numba, one row at a time
(`careful_compiled`). `careful_policy` runs the compiled one: the same card in every row (tested
at every table), several times faster.
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

import numpy as np

from app.bots import simulator as sim
from app.bots.careful_compiled import careful_cards
from app.bots.medium import (
    SHOOT_LOSERS,
    SHOOT_LOSERS_MOON_HAND,
    SHOOT_MIN_CARDS,
    SPADE_LEAD_WITH_QUEEN,
    STOP_SHARE,
)
from app.bots.simulator import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    HIGH_SPADE,
    IS_HEART,
    IS_PENALTY,
    QS,
    RANK,
    SPADES,
    SUIT,
    SUIT_MASKS,
    Batch,
    BoolArray,
    IntArray,
    any_per_row,
)
from app.engine import FirstLead, RuleOptions

FloatArray = sim.FloatArray
_A = TypeVar("_A", bound=np.ndarray[Any, Any])

RANKF = RANK.astype(np.float64)
LOW_SPADE = (SUIT == SPADES) & (RANK < 12)
SPADE_CARD = SUIT == SPADES
NEG = -1e9


def _first_max(key: FloatArray, mask: BoolArray) -> IntArray:
    """Per row: the first card of `mask` with the largest `key` (Python's `max` over a sorted
    hand)."""
    return np.asarray(np.where(mask, key, NEG).argmax(axis=1), dtype=np.int64)


def _first_min(key: FloatArray, mask: BoolArray) -> IntArray:
    """Per row: the first card of `mask` with the smallest `key`."""
    return np.asarray(np.where(mask, -key, NEG).argmax(axis=1), dtype=np.int64)


def _lowest(mask: BoolArray) -> IntArray:
    """Per row: the lowest card of `mask`, whose cards are all of one suit (indexes are
    suit-major, so the lowest rank is the first index)."""
    return np.asarray(mask.argmax(axis=1), dtype=np.int64)


def _highest(mask: BoolArray) -> IntArray:
    """Per row: the highest card of `mask`, whose cards are all of one suit."""
    return np.asarray(51 - mask[:, ::-1].argmax(axis=1), dtype=np.int64)


def careful_policy(b: Batch, legal: BoolArray, rng: np.random.Generator) -> IntArray:
    """Medium's card in every row (deterministic: `rng` is not used), compiled: the same cards
    as `careful_policy_vectorized`, several times faster."""
    del rng
    return careful_where(b, legal, np.ones(b.size, dtype=np.bool_))


def careful_where(b: Batch, legal: BoolArray, wanted: BoolArray) -> IntArray:
    """`careful_policy`'s card in the rows where `wanted` is true, −1 in the others (not worked
    out)."""
    r = b.rules
    c = np.ascontiguousarray  # one compiled version: every array laid out the same way
    return cast(
        IntArray,
        careful_cards(
            c(b.hands),
            c(b.leader),
            b.k,
            c(b.plays),
            c(b.seats),
            c(b.voids),
            c(b.penalty),
            c(b.points),
            c(b.pot_points),
            c(b.pot_penalty),
            c(b.bonus_taken),
            c(b.totals),
            c(legal),
            r.points,
            IS_PENALTY,
            r.copies,
            r.bonus,
            r.penalty_points,
            r.target,
            _first_clean_trick(b),
            c(wanted),
        ),
    )


def warm_up() -> None:
    """Compile `careful_policy` now (a few seconds the first time on a machine, then read from
    Numba's cache), so that no player waits for it."""
    options = RuleOptions.standard()
    hands = np.zeros((1, 4, 52), dtype=np.int8)
    for card in range(52):
        hands[0, card % 4, card] = 1
    batch = sim.new_batch(sim.Rules.of(options), hands, leader=0)
    sim.play_out(batch, careful_policy, np.random.default_rng(0))


def _first_clean_trick(b: Batch) -> bool:
    """Trick 1 led in clubs under the first-trick restriction: no points can fall on it."""
    r = b.rules
    return b.trick == 1 and r.no_points_first_trick and r.first_lead is not FirstLead.LEFT_OF_DEALER


def careful_policy_vectorized(b: Batch, legal: BoolArray, rng: np.random.Generator) -> IntArray:
    """Medium's card in every row, with NumPy over all rows at once: the reference the compiled
    `careful_policy` is held to."""
    del rng
    if b.k == 0:
        return _lead(_Facts(b, legal, None))
    led = SUIT[b.plays[:, 0]]
    following = (legal & SUIT_MASKS[led]).any(axis=1)
    if following.all():
        return _follow(_Facts(b, legal, None))
    if not following.any():
        return _discard(_Facts(b, legal, None))
    choice = np.empty(b.size, dtype=np.int64)
    rows = np.flatnonzero(following)
    choice[rows] = _follow(_Facts(b, legal[rows], rows))
    rows = np.flatnonzero(~following)
    choice[rows] = _discard(_Facts(b, legal[rows], rows))
    return choice


class _Facts:
    """What the seat to play knows in every row (of a subset of the batch's rows)."""

    def __init__(self, b: Batch, legal: BoolArray, subset: IntArray | None) -> None:
        r = b.rules
        self.b = b
        self.legal = legal
        m = legal.shape[0]

        def take(a: _A) -> _A:
            return a if subset is None else cast(_A, a[subset])

        self.rows = rows = np.arange(m)
        self.hands = hands = take(b.hands)
        self.seat = seat = take(b.to_play())
        self.leader = take(b.leader)
        self.plays = take(b.plays[:, : b.k])
        self.seats = take(b.seats[:, : b.k])
        self.voids = take(b.voids)
        self.penalty = take(b.penalty)
        self.points = take(b.points)
        self.pot_points = take(b.pot_points)
        self.pot_penalty = take(b.pot_penalty)
        self.bonus_taken = take(b.bonus_taken)
        self.own = own = hands[rows, seat]
        self.unseen = unseen = hands.sum(axis=1, dtype=np.int8) - own
        u3 = unseen.reshape(m, 4, 13)
        cum = np.cumsum(u3, axis=2, dtype=np.int8)
        self.below = (cum - u3).reshape(m, 52)
        self.above = above = (cum[:, :, -1:] - cum).reshape(m, 52)
        self.sure = (above == 0) & (unseen == 0)
        self.queen_out = unseen[:, QS] > 0
        self.has_queen = own[:, QS] > 0
        self.own_suit = own.reshape(m, 4, 13).sum(axis=2)
        self.ranks = np.broadcast_to(RANKF, (m, 52))
        self.opp = np.arange(r.n)[None, :] != seat[:, None]
        self.late = take(b.totals).max(axis=1) + r.penalty_points >= r.target
        self.stop, self.threat = _stop_mode(self)
        self.shoot = ~self.stop & _shoot_mode(self)
        self.led = SUIT[self.plays[:, 0]] if b.k else np.zeros(m, dtype=np.int64)
        bonus = r.bonus
        self.bonus_mask = np.zeros(52, dtype=np.bool_)
        if bonus >= 0:
            self.bonus_mask[bonus] = True

    def first_clean_trick(self) -> bool:
        """Trick 1 led in clubs under the first-trick restriction: no points can fall on it."""
        return _first_clean_trick(self.b)


def _stop_mode(f: _Facts) -> tuple[BoolArray, IntArray]:
    """Rows where the seat to play stops a moon, and the threatening seat (-1 elsewhere)."""
    r, rows = f.b.rules, f.rows
    pen = f.penalty
    t = np.asarray(pen.argmax(axis=1), dtype=np.int64)
    lone = (pen[rows, t] >= 3) & (t != f.seat)
    if not lone.any():
        return lone, np.full(len(rows), -1, dtype=np.int64)
    single = (pen > 0).sum(axis=1) == 1
    taken = f.points[rows, t]
    if r.bonus >= 0:
        taken = taken - np.where(f.bonus_taken[rows, t], r.points[r.bonus], 0)
    serious = f.late | (taken >= STOP_SHARE * r.penalty_points)
    stop = lone & single & serious
    return stop, np.where(stop, t, -1)


def _shoot_mode(f: _Facts) -> BoolArray:
    """Rows where the seat to play goes for the moon (never in Cancellation)."""
    r, rows = f.b.rules, f.rows
    none = np.zeros(len(rows), dtype=np.bool_)
    if r.copies == 2:
        return none
    pen = f.penalty
    mine = pen[rows, f.seat]
    others = pen.sum(axis=1) - mine > 0
    hopeful = ~others & ((mine > 0) | (f.own_suit[:, HEARTS] >= 6))
    if not hopeful.any():
        return none
    losers = ((f.own > 0) & (f.above > 0)).sum(axis=1)
    moon = _moon_hand(f)
    normal = ~f.late & (
        ((mine >= SHOOT_MIN_CARDS) & (losers <= SHOOT_LOSERS))
        | (moon & (losers <= SHOOT_LOSERS_MOON_HAND))
    )
    return cast(BoolArray, ~others & np.where(losers == 0, (mine > 0) | moon, normal))


def _moon_hand(f: _Facts) -> BoolArray:
    """Medium's moon hand: six hearts headed by `AH KH QH`, other suits short or headed by the
    ace; never near the end of the game."""
    own = f.own
    top = own[:, (SUIT == HEARTS) & (RANK >= 12)].sum(axis=1)
    ok = ~f.late & (f.own_suit[:, HEARTS] >= 6) & (top >= 3)
    for suit in (CLUBS, DIAMONDS, SPADES):
        ace = suit * 13 + 12
        ok &= (f.own_suit[:, suit] <= 1) | (own[:, ace] > 0)
    return cast(BoolArray, ok)


def _lead(f: _Facts) -> IntArray:
    """The card Medium leads."""
    r, legal, ranks = f.b.rules, f.legal, f.ranks
    below = f.below.astype(np.float64)
    above = f.above
    voids = f.voids
    any_opp_void = (voids & f.opp[:, :, None]).any(axis=1)
    no_followers = (voids | ~f.opp[:, :, None]).all(axis=1)
    risk = below - above
    no_f = no_followers[:, SUIT]
    any_v = any_opp_void[:, SUIT]
    risk += np.where(no_f | f.sure, 20.0, np.where(any_v, 3.0 + below, 0.0))
    risk += np.where(SPADE_CARD[None, :] & f.has_queen[:, None], SPADE_LEAD_WITH_QUEEN, 0.0)
    risk[:, QS] += 60.0
    risk += np.where(HIGH_SPADE[None, :] & f.queen_out[:, None], 40.0, 0.0)
    if r.bonus >= 0:
        risk[:, r.bonus] += 30.0
    risk -= np.where(IS_HEART[None, :] & (above > 0), 1.0, 0.0)
    risk -= 0.5 * np.maximum(0, 3 - f.own_suit[:, SUIT])
    choice = _first_min(risk * 64.0 + ranks, legal)

    if r.bonus >= 0:
        bonus_suit = int(SUIT[r.bonus])
        ok = legal[:, r.bonus] & f.sure[:, r.bonus] & ~(f.queen_out & any_opp_void[:, bonus_suit])
        choice = np.where(ok, r.bonus, choice)

    low = legal & LOW_SPADE[None, :]
    lowest = _lowest(low)
    smoke = (
        f.queen_out
        & ~f.has_queen
        & low.any(axis=1)
        & ~no_followers[:, SPADES]
        & (above[f.rows, lowest] > 0)
    )
    choice = np.where(smoke, lowest, choice)
    if f.first_clean_trick():
        choice = _first_max(ranks, legal)

    sure_hearts = legal & f.sure & IS_HEART[None, :]
    if f.stop.any():
        stopper = f.stop & sure_hearts.any(axis=1)
        choice = np.where(stopper, _highest(sure_hearts), choice)

    if f.shoot.any():
        sure = legal & f.sure
        shoot = np.where(
            sure_hearts.any(axis=1),
            _highest(sure_hearts),
            np.where(
                sure.any(axis=1),
                _first_max(ranks + np.where(np.arange(52) == QS, 0.0, 100.0), sure),
                _first_max(ranks, legal),
            ),
        )
        choice = np.where(f.shoot, shoot, choice)
    return choice


def _trick_state(f: _Facts) -> tuple[IntArray, IntArray, BoolArray, BoolArray]:
    """The trick's winning rank, the seat winning it (-1: none), the seats still to play after
    this one, and whether each seat has shown a void in the led suit."""
    b, r, rows = f.b, f.b.rules, f.rows
    k = b.k
    cards = f.plays
    same = SUIT[cards] == f.led[:, None]
    if r.copies == 2:
        same &= (cards[:, :, None] == cards[:, None, :]).sum(axis=2) == 1
    ranked = np.where(same, RANK[cards], 0)
    win = np.asarray(ranked.max(axis=1), dtype=np.int64)
    winner = np.where(win > 0, f.seats[rows, ranked.argmax(axis=1)], -1)
    later = np.zeros((len(rows), r.n), dtype=np.bool_)
    for j in range(k + 1, r.n):
        later[rows, (f.leader + j) % r.n] = True
    void_led = f.voids[rows, :, f.led]
    return win, winner, later, void_led


def _threat_may_win(
    f: _Facts, winner: IntArray, later: BoolArray, void_led: BoolArray
) -> BoolArray:
    """Whether the moon threat wins the trick now or may still win it."""
    t = np.maximum(f.threat, 0)
    rows = f.rows
    may_win = (winner == f.threat) | (later[rows, t] & ~void_led[rows, t])
    return cast(BoolArray, (f.threat >= 0) & may_win)


def _follow(f: _Facts) -> IntArray:
    """The card Medium plays holding the led suit (every legal card is of the led suit)."""
    b, r, legal, rows = f.b, f.b.rules, f.legal, f.rows
    win, winner, later, void_led = _trick_state(f)
    wins = legal & (RANK[None, :] > win[:, None])
    if r.copies == 2:
        on_trick = np.zeros(legal.shape, dtype=np.bool_)
        on_trick[rows[:, None], f.plays] = True
        wins &= ~on_trick
    losers = legal & ~wins
    any_wins = wins.any(axis=1)
    any_losers = losers.any(axis=1)
    pts = r.points
    value = pts[f.plays].sum(axis=1) + f.pot_points
    may_follow = cast(BoolArray, (later & ~void_led).any(axis=1))
    dump = cast(BoolArray, (later & void_led).any(axis=1)) | (
        (f.led == SPADES) & f.queen_out & later.any(axis=1)
    )

    sure_wins = (  # winners no later seat can beat or cancel
        wins & ~(may_follow[:, None] & ((f.above > 0) | (f.unseen > 0)))
        if r.bonus >= 0 or f.shoot.any()
        else wins  # not read: only the Omnibus grab and the shooter need it
    )

    kept = losers
    if r.bonus >= 0:
        kept = losers & ~f.bonus_mask[None, :]
        kept = cast(BoolArray, np.where(any_per_row(kept)[:, None], kept, losers))
    highest_loser = np.where(losers[:, QS], QS, _highest(kept))
    safe = wins.copy()
    safe[:, QS] = False
    safe = cast(BoolArray, np.where(any_per_row(safe)[:, None], safe, wins))

    if b.k == r.n - 1:
        clean = wins & (value[:, None] + pts[None, :] <= 0)
        best_clean = _highest(clean)
        if r.bonus >= 0:
            best_clean = np.where(clean[:, r.bonus], r.bonus, best_clean)
        choice = np.where(
            clean.any(axis=1),
            best_clean,
            np.where(any_losers, highest_loser, _highest(safe)),
        )
    else:
        lowest = _lowest(safe)
        beatable = may_follow & ((f.above[rows, lowest] > 0) | (f.unseen[rows, lowest] > 0))
        ours = ~dump & (~beatable | (value <= 0))
        choice = np.where(any_losers, highest_loser, np.where(ours, _highest(safe), lowest))
        if r.bonus >= 0:
            grab = (f.plays == r.bonus).any(axis=1) & sure_wins.any(axis=1)
            choice = np.where(grab, _lowest(sure_wins), choice)
    if f.first_clean_trick():
        open_trick = f.led != SPADES
        if r.bonus >= 0:
            open_trick &= ~legal[:, r.bonus]
        choice = np.where(open_trick, _highest(legal), choice)

    if f.stop.any():
        penalty_on = IS_PENALTY[f.plays].any(axis=1) | (f.pot_penalty > 0)
        stopper = f.stop & penalty_on & _threat_may_win(f, winner, later, void_led) & any_wins
        choice = np.where(stopper, _highest(wins), choice)
    if f.shoot.any():
        shoot = np.where(
            ~any_wins,
            _lowest(legal),
            np.where(sure_wins.any(axis=1), _lowest(sure_wins), _highest(wins)),
        )
        choice = np.where(f.shoot, shoot, choice)
    return choice


def _discard(f: _Facts) -> IntArray:
    """The card Medium throws when void in the led suit."""
    r, legal, ranks = f.b.rules, f.legal, f.ranks
    prio = np.where(f.below > 0, 2.0 * ranks, ranks)
    prio = prio + np.where(f.own_suit[:, SUIT] <= 2, 3.0, 0.0)
    if r.bonus >= 0:
        capture = (SUIT[r.bonus] == SUIT) & (RANK[r.bonus] < RANK)
        prio = prio - np.where(capture[None, :] & (f.unseen[:, r.bonus] > 0)[:, None], 10.0, 0.0)
        prio[:, r.bonus] = -1000.0
    prio = np.where(IS_HEART[None, :], 20.0 + 2.0 * ranks, prio)
    prio = np.where(HIGH_SPADE[None, :] & f.queen_out[:, None], 500.0 + ranks, prio)
    prio[:, QS] = 1000.0
    choice = _first_max(prio, legal)
    if f.stop.any():
        _, winner, later, void_led = _trick_state(f)
        clean = legal & ~IS_PENALTY[None, :]
        careful = f.stop & _threat_may_win(f, winner, later, void_led) & clean.any(axis=1)
        choice = np.where(careful, _first_max(prio, clean), choice)
    if f.shoot.any():
        keep = ranks + np.where(IS_PENALTY[None, :], 100.0, 0.0) + np.where(f.sure, 30.0, 0.0)
        choice = np.where(f.shoot, _first_min(keep, legal), choice)
    return choice
