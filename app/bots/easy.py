"""The Easy computer player (BOT-04): casual, legal, good for learning the rules.

It plays a random legal card, with a few safeguards a beginner quickly learns, so that it is
never absurd:

- it does not play the queen of spades onto a trick it would then be winning when another legal
  card exists, nor lead her when it could lead something else;
- it does not play `AS`/`KS` to a spade trick while a queen of spades is still out and a later
  player could drop her on it, when it holds a lower legal spade;
- it does not take a trick that already holds a queen of spades when a card that loses is legal.

It passes three cards drawn at random, high cards being more likely than low ones. It knows
only its view (BOT-01) and draws every random choice from the seeded generator it is given.
"""

from __future__ import annotations

import random

from app.bots.knowledge import know
from app.bots.moon import choose_moon
from app.bots.tactics import (
    is_dangerous_spade,
    is_last,
    led_suit,
    queen_out,
    wins_now,
)
from app.engine import QUEEN_OF_SPADES, Card, PlayerView, Suit


def pass_weight(c: Card) -> int:
    """How likely Easy is to pass `c`: grows with rank, more so for `QS KS AS` and high hearts."""
    weight = c.rank - 1  # 2 -> 1, ace -> 13
    if c.suit is Suit.SPADES and c.rank >= 12:
        weight += 4
    if c.suit is Suit.HEARTS and c.rank >= 11:
        weight += 2
    return weight * weight


def choose_pass(view: PlayerView, rng: random.Random) -> tuple[Card, ...]:
    """Three cards of the hand drawn without replacement, weighted towards high cards."""
    pool = list(view.hand)
    chosen: list[Card] = []
    for _ in range(view.options.pass_count):
        weights = [pass_weight(c) for c in pool]
        i = rng.choices(range(len(pool)), weights=weights)[0]
        chosen.append(pool.pop(i))
    return tuple(chosen)


def choose_play(view: PlayerView, rng: random.Random) -> Card:
    """A random legal card among the least blundering ones a beginner would consider."""
    legal = list(view.legal)
    if len(legal) == 1:
        return legal[0]
    spade_risk = led_suit(view) is Suit.SPADES and not is_last(view) and queen_out(know(view))
    levels = [_blunder(view, c, spade_risk) for c in legal]
    least = min(levels)
    return rng.choice([c for c, level in zip(legal, levels, strict=True) if level == least])


def _blunder(view: PlayerView, c: Card, spade_risk: bool) -> int:
    """How bad playing `c` now is for a casual player: 0 fine, 1 careless, 2 a real blunder.

    `spade_risk` says that spades were led, a queen is still out and someone plays after us.
    """
    if not view.current:
        return 2 if c is QUEEN_OF_SPADES else 0  # leading the queen invites her back
    if not wins_now(view, c):
        return 0
    if c is QUEEN_OF_SPADES or any(p is QUEEN_OF_SPADES for _, p in view.current):
        return 2  # the queen onto one's own trick, or taking her when a losing card is legal
    if spade_risk and is_dangerous_spade(c):
        return 1  # AS/KS under a queen that a later player may drop
    return 0


__all__ = ["choose_moon", "choose_pass", "choose_play"]
