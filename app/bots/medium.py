"""The Medium computer player (BOT-05): the usual habits of a careful player (RULES.md §11.3).

It is rule-based and deterministic (the generator it is given is not needed), and it knows only
its view (BOT-01): `know(view)` counts the unseen cards and the voids players have shown.

Passing (tips 1, 2, 9): the queen of spades unless well guarded by lower spades, `AS`/`KS` when
short of lower spades, a short club or diamond suit of high cards to make a void, then the most
dangerous high cards (high hearts first, low cards kept, tip 3); a hand that can shoot the moon
keeps its top cards and passes low ones.

Playing, in the usual case:
- following suit it ducks: the highest card that still loses the trick (the queen first when she
  can fall under someone else's `AS`/`KS`); when every card would win it takes the trick as
  cheaply as it can hope to lose it later (lowest winner), or, with nothing to fear (a clean trick,
  nobody left who could discard on it), with its highest card; last to play on a clean trick it
  takes it with its highest card (tips 3, 10, 13);
- void in the led suit it discards the queen first, then `AS`/`KS` while a queen is out, then high
  hearts, then high cards of suits it could still win (tips 8, 14);
- leading, it smokes out the queen with a low spade when it does not hold her (tips 4, 11),
  otherwise it leads the card most likely to be beaten, avoiding suits an opponent has shown out
  of and never leading the queen or `AS`/`KS` while she is out (tip 5);
- Omnibus (R20): it tries to win the bonus card safely and never throws it away.

Moons (R12, tips 6, 7, 12): when one opponent has taken every penalty card so far, and enough of
them to be a real threat, it takes a heart itself (winning a trick that holds one, or leading a
heart that cannot lose) and keeps its hearts off that player's tricks; it shoots the moon itself
when no one else has taken a penalty card and its remaining cards can win the tricks it needs,
and gives up as soon as someone else takes one. Near the end of the game (a total within a moon
of `target_score`) it plays safe: it tries only sure moons and stops any opponent who has taken
every penalty card so far.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from app.bots.knowledge import Knowledge, know
from app.bots.moon import choose_moon
from app.bots.tactics import (
    can_be_beaten,
    is_bonus,
    is_dangerous_spade,
    is_last,
    is_sure_winner,
    led_suit,
    non_penalty,
    pick_cards,
    queen_out,
    seats_after,
    suit_cards,
    trick_value,
    void_seat_after,
    wins_now,
    without,
)
from app.engine import (
    QUEEN_OF_SPADES,
    Card,
    FirstLead,
    Hand,
    PlayerView,
    RuleOptions,
    Suit,
    is_penalty_card,
    penalty_total,
    points_of,
    trick_winner,
)

QUEEN_GUARDS = 4
"""Lower spades with which the queen is kept rather than passed."""
HIGH_SPADE_GUARDS = 3
"""Lower spades with which `AS`/`KS` are kept rather than passed."""
VOID_MIN_RANK = 9
"""A short club or diamond suit is passed whole only if all its cards are at least this high: a
short suit of low cards is safe to keep, and low cards are worth more than a void."""
STOP_SHARE = 0.4
"""An opponent who took every penalty card so far is a moon threat once that is this share of
the pack's penalty points (10 of 26): before that, a chase after hearts costs more than it saves."""
SHOOT_MIN_CARDS = 4
SHOOT_LOSERS = 2
"""With at least `SHOOT_MIN_CARDS` penalty cards taken and nobody else holding any, Medium shoots
the moon when at most `SHOOT_LOSERS` of its cards could lose a trick."""
SHOOT_LOSERS_MOON_HAND = 3
"""The same for a hand that was a moon hand from the deal."""
SPADE_LEAD_WITH_QUEEN = 15
"""Extra lead risk of a spade while holding the queen: keep the guards for her."""


class Mode(Enum):
    """What Medium is trying to do this hand."""

    NORMAL = "normal"
    """Take as few points as it can."""
    SHOOT = "shoot"
    """Take every penalty card (R12.1)."""
    STOP = "stop"
    """Stop an opponent's moon by taking a heart (tips 6, 12)."""


@dataclass(frozen=True, slots=True)
class Situation:
    """One decision's view with what Medium derives from it."""

    view: PlayerView
    k: Knowledge
    mode: Mode
    threat: int | None
    """The opponent who has taken every penalty card so far, in `Mode.STOP`."""


# --- passing ----------------------------------------------------------------------------------


def choose_pass(view: PlayerView, rng: random.Random) -> tuple[Card, ...]:
    """Three cards to pass: dangerous spades, a short suit to void, then the most dangerous
    high cards; a moon hand passes its low cards instead."""
    del rng  # Medium is deterministic
    return pass_cards(view.options, view.hand, view.totals)


def pass_cards(options: RuleOptions, hand: Hand, totals: tuple[int, ...]) -> tuple[Card, ...]:
    """Medium's pass from `hand` under `options` with the game's `totals`: all that its pass
    reads, so the pass of any seat holding `hand` (`choose_pass` of that seat's view)."""
    count = options.pass_count
    if _is_moon_hand(options, totals, hand):
        chosen = sorted(hand, key=_moon_keep_value)[:count]
    else:
        chosen = _safe_pass(options, list(hand), count)
    return pick_cards(hand, chosen)


def _safe_pass(options: RuleOptions, hand: list[Card], count: int) -> list[Card]:
    """The pass of a hand that tries to take no points (tips 1, 2, 9)."""
    chosen = dangerous_spades(hand)[:count]
    rest = without(hand, chosen)
    void = _suit_to_void(options, rest, count - len(chosen))
    chosen += void
    rest = without(rest, void)
    rest.sort(key=lambda c: pass_danger(hand, c, options.bonus_card), reverse=True)
    return chosen + rest[: count - len(chosen)]


def dangerous_spades(hand: Sequence[Card]) -> list[Card]:
    """The queen unless guarded by enough lower spades; `AS`/`KS` when short of lower spades."""
    low = sum(1 for c in hand if c.suit is Suit.SPADES and c.rank < 12)
    out = [c for c in hand if c is QUEEN_OF_SPADES and low < QUEEN_GUARDS]
    if low < HIGH_SPADE_GUARDS:
        out += sorted((c for c in hand if is_dangerous_spade(c)), key=lambda c: -c.rank)
    return out


def _suit_to_void(options: RuleOptions, hand: list[Card], slots: int) -> list[Card]:
    """All cards of the shortest club or diamond suit, if they fit in the free slots (tip 2)."""
    fits: list[list[Card]] = []
    for suit in (Suit.CLUBS, Suit.DIAMONDS):
        cards = suit_cards(hand, suit)
        if not 0 < len(cards) <= slots:
            continue
        if options.omnibus and options.bonus_card in cards:
            continue  # keep the Omnibus bonus card
        if min(c.rank for c in cards) < VOID_MIN_RANK:
            continue
        fits.append(cards)
    if not fits:
        return []
    return min(fits, key=lambda cards: (len(cards), -max(c.rank for c in cards)))


def pass_danger(hand: Sequence[Card], c: Card, bonus: Card | None) -> float:
    """How much trouble `c` is likely to cause if kept (higher = pass it sooner); `bonus` is the
    Omnibus bonus card, if any."""
    if c.suit is Suit.SPADES:
        if c.rank < 12:
            return -20 + c.rank  # lower spades guard the queen
        return c.rank - 12  # queen, king or ace kept on purpose: well guarded
    low = sum(1 for x in hand if x.suit is c.suit and x.rank <= 6)
    danger = c.rank - 1.5 * low
    if c.suit is Suit.HEARTS:
        danger += 2 if c.rank >= 10 else -3
    if bonus is not None and c.suit is bonus.suit and c.rank >= bonus.rank:
        danger -= 8  # the bonus card and the diamonds that can capture it
    return danger


def is_moon_hand(view: PlayerView, hand: tuple[Card, ...]) -> bool:
    """Whether `hand` is strong enough to play for the moon (tip 7): at least six hearts headed
    by `AH KH QH`, and every other suit short or headed by its ace. Never in Cancellation
    (52 points in two decks) nor near the end of the game."""
    return _is_moon_hand(view.options, view.totals, hand)


def _is_moon_hand(options: RuleOptions, totals: tuple[int, ...], hand: Hand) -> bool:
    """`is_moon_hand` from the options and the game's totals."""
    if options.is_cancellation or _late(options, totals):
        return False
    hearts = [c for c in hand if c.suit is Suit.HEARTS]
    if len(hearts) < 6 or sum(1 for c in hearts if c.rank >= 12) < 3:
        return False
    for suit in (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES):
        cards = suit_cards(hand, suit)
        if len(cards) > 1 and cards[-1].rank < 14:
            return False
    return True


def _moon_keep_value(c: Card) -> int:
    """How much a moon hand wants to keep `c` (lower = pass it)."""
    return c.rank + (20 if c.suit is Suit.HEARTS else 0)


# --- playing ----------------------------------------------------------------------------------


def choose_play(view: PlayerView, rng: random.Random) -> Card:
    """The card to play: lead, follow suit or discard by the careful player's habits."""
    del rng  # Medium is deterministic
    legal = view.legal
    if len(legal) == 1:
        return legal[0]
    s = situation(view)
    led = led_suit(view)
    if led is None:
        return _lead(s)
    if legal[0].suit is led:
        return _follow(s)
    return _discard(s)


def situation(view: PlayerView) -> Situation:
    """Derive the knowledge and the mode of this decision."""
    k = know(view)
    threat = k.moon_threat()
    if threat is not None and threat != view.seat and _serious(view, k, threat):
        return Situation(view, k, Mode.STOP, threat)
    if _shooting(view, k):
        return Situation(view, k, Mode.SHOOT, None)
    return Situation(view, k, Mode.NORMAL, None)


def _serious(view: PlayerView, k: Knowledge, threat: int) -> bool:
    """Whether the moon threat has taken enough points to be worth stopping (tips 6, 12);
    near the end of the game any threat is."""
    if _late_game(view):
        return True
    taken = sum(13 if c is QUEEN_OF_SPADES else 1 for c in k.taken[threat] if is_penalty_card(c))
    return taken >= STOP_SHARE * penalty_total(view.options)


def _late_game(view: PlayerView) -> bool:
    """Whether one bad hand could end the game: some total within a moon of the target."""
    return _late(view.options, view.totals)


def _late(options: RuleOptions, totals: tuple[int, ...]) -> bool:
    """`_late_game` from the options and the game's totals."""
    return max(totals, default=0) + penalty_total(options) >= options.target_score


def _shooting(view: PlayerView, k: Knowledge) -> bool:
    """Whether to go for the moon now: nobody else has taken a penalty card and the remaining
    cards can win what is needed (all of them near the end of the game)."""
    if view.options.is_cancellation:
        return False
    if any(k.penalty_taken[s] for s in range(view.num_players) if s != view.seat):
        return False
    losers = moon_losers(k, view.hand)
    if losers == 0:
        return k.penalty_taken[view.seat] > 0 or is_moon_hand(view, view.hand)
    if _late_game(view):
        return False
    mine = k.penalty_taken[view.seat]
    return (mine >= SHOOT_MIN_CARDS and losers <= SHOOT_LOSERS) or (
        is_moon_hand(view, view.hand) and losers <= SHOOT_LOSERS_MOON_HAND
    )


def moon_losers(k: Knowledge, hand: tuple[Card, ...]) -> int:
    """How many cards of `hand` an unseen card could beat (cards that may lose a trick)."""
    return sum(1 for c in hand if k.unseen_above(c) > 0)


# --- leading ----------------------------------------------------------------------------------


def _lead(s: Situation) -> Card:
    """The card to lead."""
    view = s.view
    if s.mode is Mode.SHOOT:
        return _shoot_lead(s)
    if s.mode is Mode.STOP:
        stopper = _stop_lead(s)
        if stopper is not None:
            return stopper
    if view.trick_number == 1 and _clean_first_trick(view):
        return max(view.legal, key=lambda c: c.rank)  # nothing can be discarded on it (tip 10)
    for choice in (_smoke_queen(s), _bonus_lead(s)):
        if choice is not None:
            return choice
    return min(view.legal, key=lambda c: (_lead_risk(s, c), c.rank))


def _clean_first_trick(view: PlayerView) -> bool:
    """Whether trick 1 can carry no penalty card led in clubs (R7): the first-trick restriction
    with a club lead."""
    return (
        view.options.no_points_first_trick
        and view.options.first_lead is not FirstLead.LEFT_OF_DEALER
    )


def _smoke_queen(s: Situation) -> Card | None:
    """A low spade to make the queen's holder play her (tips 4, 11), when she is out, this seat
    does not hold her, and the spade will surely be beaten by someone who follows suit."""
    view, k = s.view, s.k
    if not queen_out(k) or QUEEN_OF_SPADES in view.hand:
        return None
    low = [c for c in view.legal if c.suit is Suit.SPADES and c.rank < 12]
    if not low:
        return None
    lowest = min(low, key=lambda c: c.rank)
    followers = [p for p in _opponents(view) if not k.is_void(p, Suit.SPADES)]
    if not followers or k.unseen_above(lowest) == 0:
        return None
    return lowest


def _bonus_lead(s: Situation) -> Card | None:
    """The Omnibus bonus card when nothing can beat it and no one can discard the queen on it."""
    view, k = s.view, s.k
    bonus = view.options.bonus_card
    if bonus is None or bonus not in view.legal or not is_sure_winner(k, bonus):
        return None
    if queen_out(k) and any(k.is_void(p, bonus.suit) for p in _opponents(view)):
        return None
    return bonus


def _lead_risk(s: Situation, c: Card) -> float:
    """How likely leading `c` is to bring points back to this seat (lower is better)."""
    k = s.k
    above = k.unseen_above(c)
    below = k.unseen_below(c)
    followers = [p for p in _opponents(s.view) if not k.is_void(p, c.suit)]
    risk: float = below - above
    if not followers or is_sure_winner(k, c):
        risk += 20  # a sure winner: whatever is discarded on it is ours
    elif any(k.is_void(p, c.suit) for p in _opponents(s.view)):
        risk += 3 + below  # someone can discard on it if we keep the trick
    if c.suit is Suit.SPADES and QUEEN_OF_SPADES in s.view.hand:
        risk += SPADE_LEAD_WITH_QUEEN
    if c is QUEEN_OF_SPADES:
        risk += 60
    elif is_dangerous_spade(c) and queen_out(k):
        risk += 40
    elif is_bonus(s.view, c):
        risk += 30
    if c.suit is Suit.HEARTS and above > 0:
        risk -= 1  # a losing heart hands its points to the winner
    own = sum(1 for x in s.view.hand if x.suit is c.suit)
    return risk - 0.5 * max(0, 3 - own)  # shorten short suits towards a void (tip 2)


def _opponents(view: PlayerView) -> list[int]:
    """Every other seat."""
    return [p for p in range(view.num_players) if p != view.seat]


# --- following suit ---------------------------------------------------------------------------


def _follow(s: Situation) -> Card:
    """The card to play when holding the led suit."""
    view = s.view
    if s.mode is Mode.SHOOT:
        return _shoot_follow(s)
    if s.mode is Mode.STOP:
        stopper = _stop_follow(s)
        if stopper is not None:
            return stopper
    legal = list(view.legal)
    if (
        view.trick_number == 1
        and _clean_first_trick(view)
        and legal[0].suit is not Suit.SPADES
        and not any(is_bonus(view, c) for c in legal)
    ):
        return max(legal, key=lambda c: c.rank)  # no points can fall on trick 1 (tip 10)
    losers = [c for c in legal if not wins_now(view, c)]
    winners = [c for c in legal if wins_now(view, c)]
    if is_last(view):
        return _last_follow(s, losers, winners)
    return _mid_follow(s, losers, winners)


def _last_follow(s: Situation, losers: list[Card], winners: list[Card]) -> Card:
    """Last to play: take a clean trick with the highest card, else duck as high as possible."""
    view = s.view
    clean = [c for c in winners if trick_value(view) + points_of(view.options, (c,)) <= 0]
    if clean:
        bonus = [c for c in clean if is_bonus(view, c)]
        return bonus[0] if bonus else max(clean, key=lambda c: c.rank)
    if losers:
        return _highest_loser(view, losers)
    safe = [c for c in winners if c is not QUEEN_OF_SPADES]
    return max(safe or winners, key=lambda c: c.rank)


def _mid_follow(s: Situation, losers: list[Card], winners: list[Card]) -> Card:
    """Not last: duck if possible; otherwise win as cheaply as we can hope to be overtaken."""
    view, k = s.view, s.k
    if _bonus_on_trick(view) and winners:
        sure = [c for c in winners if not can_be_beaten(k, view, c)]
        if sure:
            return min(sure, key=lambda c: c.rank)
    if losers:
        return _highest_loser(view, losers)
    safe = [c for c in winners if c is not QUEEN_OF_SPADES] or winners
    lowest = min(safe, key=lambda c: c.rank)
    if not can_be_beaten(k, view, lowest) and not _dump_risk(s):
        return max(safe, key=lambda c: c.rank)  # ours anyway: shed the highest
    if trick_value(view) <= 0 and not _dump_risk(s):
        return max(safe, key=lambda c: c.rank)  # clean and nobody can discard: tip 10
    return lowest


def _highest_loser(view: PlayerView, losers: list[Card]) -> Card:
    """Duck with the highest losing card: the queen first if she falls on someone else's
    trick; the Omnibus bonus card last."""
    if QUEEN_OF_SPADES in losers:
        return QUEEN_OF_SPADES
    kept = [c for c in losers if not is_bonus(view, c)] or losers
    return max(kept, key=lambda c: c.rank)


def _dump_risk(s: Situation) -> bool:
    """Whether a later player may discard points on this trick, or drop the queen in it."""
    view, k = s.view, s.k
    led = led_suit(view)
    assert led is not None
    if void_seat_after(k, view, led):
        return True
    return led is Suit.SPADES and queen_out(k) and bool(seats_after(view))


def _bonus_on_trick(view: PlayerView) -> bool:
    """Whether the Omnibus bonus card lies on the current trick (or in the pot)."""
    bonus = view.options.bonus_card
    return bonus is not None and (
        any(c is bonus for _, c in view.current) or any(c is bonus for c in view.pot)
    )


# --- discarding -------------------------------------------------------------------------------


def _discard(s: Situation) -> Card:
    """The card to throw when void in the led suit."""
    view = s.view
    legal = list(view.legal)
    if s.mode is Mode.SHOOT:
        return min(legal, key=lambda c: _shoot_keep(s, c))
    if s.mode is Mode.STOP and _threat_may_win(s):
        clean = non_penalty(legal)
        if clean:
            return max(clean, key=lambda c: _discard_priority(s, c))
    return max(legal, key=lambda c: _discard_priority(s, c))


def _discard_priority(s: Situation, c: Card) -> float:
    """How eager Medium is to discard `c` (tips 8, 14)."""
    k = s.k
    if c is QUEEN_OF_SPADES:
        return 1000
    if is_bonus(s.view, c):
        return -1000
    if is_dangerous_spade(c) and queen_out(k):
        return 500 + c.rank
    if c.suit is Suit.HEARTS:
        return 20 + 2 * c.rank
    own = sum(1 for x in s.view.hand if x.suit is c.suit)
    danger = 2.0 * c.rank if k.unseen_below(c) > 0 else float(c.rank)
    if own <= 2:
        danger += 3  # nearly a void
    bonus = s.view.options.bonus_card
    if bonus is not None and c.suit is bonus.suit and c.rank > bonus.rank and k.unseen[bonus]:
        danger -= 10  # keep what can capture the bonus card
    return danger


def _threat_may_win(s: Situation) -> bool:
    """Whether the moon threat is winning the current trick or may still win it."""
    view, threat = s.view, s.threat
    led = led_suit(view)
    if threat is None or led is None:
        return False
    if trick_winner(view.current) == threat:
        return True
    return threat in seats_after(view) and not s.k.is_void(threat, led)


# --- stopping a moon --------------------------------------------------------------------------


def _stop_lead(s: Situation) -> Card | None:
    """A heart nobody can beat, so that this seat takes a heart trick (tip 6)."""
    k = s.k
    hearts = [c for c in s.view.legal if c.suit is Suit.HEARTS]
    sure = [c for c in hearts if is_sure_winner(k, c)]
    return max(sure, key=lambda c: c.rank) if sure else None


def _stop_follow(s: Situation) -> Card | None:
    """Win a trick that holds a penalty card the threat would otherwise collect (tip 12)."""
    view = s.view
    penalty = any(is_penalty_card(c) for _, c in view.current) or any(
        is_penalty_card(c) for c in view.pot
    )
    if not penalty:
        return None
    if not _threat_may_win(s):
        return None
    winners = [c for c in view.legal if wins_now(view, c)]
    if not winners:
        return None
    return max(winners, key=lambda c: c.rank)


# --- shooting the moon ------------------------------------------------------------------------


def _shoot_lead(s: Situation) -> Card:
    """Lead a card nobody can beat, hearts first to draw the others' hearts; else the highest."""
    k = s.k
    legal = s.view.legal
    sure = [c for c in legal if is_sure_winner(k, c)]
    hearts = [c for c in sure if c.suit is Suit.HEARTS]
    if hearts:
        return max(hearts, key=lambda c: c.rank)
    if sure:
        return max(sure, key=lambda c: (c is not QUEEN_OF_SPADES, c.rank))
    return max(legal, key=lambda c: c.rank)


def _shoot_follow(s: Situation) -> Card:
    """Win the trick, as cheaply as it is sure; if it cannot be won, play the lowest card."""
    view, k = s.view, s.k
    winners = [c for c in view.legal if wins_now(view, c)]
    if not winners:
        return min(view.legal, key=lambda c: c.rank)
    sure = [c for c in winners if not can_be_beaten(k, view, c)]
    if sure:
        return min(sure, key=lambda c: c.rank)
    return max(winners, key=lambda c: c.rank)


def _shoot_keep(s: Situation, c: Card) -> float:
    """How much a shooter wants to keep `c` when discarding (lower = throw it)."""
    keep = float(c.rank)
    if is_penalty_card(c):
        keep += 100  # penalty cards must come back to the shooter
    if is_sure_winner(s.k, c):
        keep += 30  # a sure winner
    return keep


__all__ = [
    "choose_moon",
    "choose_pass",
    "choose_play",
    "dangerous_spades",
    "pass_cards",
    "pass_danger",
]
