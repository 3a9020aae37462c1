"""Expert: the Hard player's search, reading the table and playing for the game.

Expert imagines layouts of the hidden cards and plays each out, as Hard does (`hard`), with four
differences:

- **Inference from play.** It draws four layouts for every one it imagines and keeps them in
  proportion to how likely each makes everything the other seats did so far — their plays, and
  the pass it received after an across pass — each seat taken for a careful player with a little
  noise, a strong player as a model learned from Hard's games predicts it, or a player whose
  plays tell nothing, whichever its plays so far suggest (`inference.log_likelihoods`,
  policy-based inference). A seat that ducked the K♠ twice is imagined holding the Q♠ more
  often. Where the evidence of many plays would leave a handful of the draws with nearly all the
  weight (many seats, as at Cancellation), it is tempered so that the draws keep half their
  worth (`least_ess`, `inference.temper`): the layouts imagined stay many, and the other seats'
  cards are not placed with more confidence than the model of their play deserves.
- **Exact endgame.** Once it holds three cards or fewer (two past seven seats: `MANY_SEATS`),
  every imagined layout is solved exactly as a game of open cards (`endgame`) instead of being
  played out with the careful player's habits.
- **Playing for the game.** Outcomes are valued by the standing (`standing.game_values`): near the
  target, the margin over the closest rival, and at the end the place it finishes; the moon
  choice (`moon_scoring = choice`) follows the same value (`standing.moon_choice`).
- **A learned value for the pass.** At the standard four-seat table, the play-outs that weigh
  its candidate passes count every seat's points as a model fitted to Hard's games predicts them
  from the play-out and the four hands (`pass_value`), not as the play-out alone has them: the
  play-outs explain about 9 % of the spread of a seat's real points in those games, the model
  about 15 %.

It also imagines more, where more pays:

- **More looks at close cards.** After its 128 layouts (twice Hard's), the cards whose mean
  result trails the best one's by less than two standard errors of the difference are played out
  in 128 more layouts (64 past seven seats), and those still close over all their layouts again,
  up to three looks in all (`close_looks`). Clear choices cost no more, and a close one is
  decided on more evidence.
- **About four times the deals for its pass, and more for the close passes.** With Hard's few
  deals, the same hand passed again with other random numbers is often another pass, some of
  them worth most of a point less (`bench.passes`). After its 32 deals for each candidate and 96
  more for the six best, the passes still within two standard errors of the best are imagined
  in 96 more deals, up to four times (`pass_close_looks`): a pass is one decision a hand, and
  the one that costs most when it is chosen by luck. It searches its pass at three seats, at
  Cancellation and in Omnibus too, where Hard passes as the careful player does (`pass_seats`,
  `pass_cancellation_seats`, `pass_omnibus`): the search is worth about 1.4 points a hand
  against Hard at three seats, 0.5 at eight seats of Cancellation and 0.3 in Omnibus at four
  (bench/results/README.md). At six and seven seats of the standard game it passes as the
  careful player does: a searched pass measured no gain at seven.

At six and seven seats of the standard game, and at eight and nine seats of Cancellation, its
play-outs are noisy: where the careful habits would take one path of play in each layout, each
other seat plays a random legal card one time in ten (`NOISY_SEATS`,
`hard.Budget.noisy_replies`). With that many seats, a card's value averaged over the paths the
noise opens measured closer to its worth against Hard (bench/results/README.md).

The budget is counted in layouts, never in time, so a decision is the same for the same view and
seed on an idle machine and on a loaded server.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np

from app.bots import hard, standing
from app.bots import simulator as sim
from app.bots.knowledge import know
from app.engine import (
    Card,
    MoonScoring,
    PlayerView,
    RuleOptions,
    Variant,
    moon_points,
    raw_points,
)

__all__ = ["BUDGET", "budget_at", "choose_moon", "choose_pass", "choose_play"]

BUDGET = hard.Budget(
    pass_seats=(3, 4, 5),
    pass_omnibus=True,
    pass_cancellation_seats=(6, 7, 8, 9, 10, 11),
    worlds=128,
    round_size=64,
    candidates_per_world=4,
    weigh_layouts=True,
    least_ess=0.5,
    exact_cards=3,
    pass_worlds=32,
    pass_final_worlds=96,
    close_worlds=128,
    close_looks=3,
    pass_close_looks=4,
    pass_close_worlds=96,
    standing=True,
    learned_pass=True,
)
"""What Expert thinks with (see `hard.Budget`)."""


MANY_SEATS = 7
"""Past this many seats (Cancellation's 8 to 11) every layout costs several times more, so
Expert's play (`budget_at`) takes a second look half as wide, and starts the exact endgame at two
cards: with three cards each at eight or more seats most trees are too large to solve (the search
gives up at `exact_rows` and plays the layouts out after all, the time spent lost). Measured with
`bench.plays` and `bench.think` (bench/results/README.md)."""

MANY_SEATS_CLOSE_WORLDS = 64
"""The second look's layouts past `MANY_SEATS`."""
MANY_SEATS_EXACT_CARDS = 2
"""The cards in hand from which the endgame is solved exactly past `MANY_SEATS`."""


NOISY_SEATS = {Variant.STANDARD: (6, 7), Variant.CANCELLATION: (8, 9)}
"""The tables at which Expert's play-outs of its cards are noisy. At six and seven seats of the
standard game its layouts already lose almost nothing to chance (`bench.plays`), and the
careful habits take one path of play in each of them. Replies that now and then leave that path
gained about a tenth of a point a hand against Hard there, and about a quarter of a point at
eight and nine seats of Cancellation (bench/results/README.md). At four seats noise measured no
gain, nor at ten seats of Cancellation (300 deals); eleven seats was not measured."""
NOISY_REPLIES = 0.1
"""How often another seat of those play-outs plays a random legal card (`Budget.noisy_replies`)."""


def budget_at(options: RuleOptions, budget: hard.Budget = BUDGET) -> hard.Budget:
    """The budget Expert plays a card with at a table of these `options`."""
    if options.num_players > MANY_SEATS:
        budget = dataclasses.replace(
            budget,
            close_worlds=min(budget.close_worlds, MANY_SEATS_CLOSE_WORLDS),
            exact_cards=min(budget.exact_cards, MANY_SEATS_EXACT_CARDS),
        )
    if options.num_players in NOISY_SEATS[options.variant]:
        budget = dataclasses.replace(budget, noisy_replies=NOISY_REPLIES)
    return budget


def choose_play(view: PlayerView, rng: random.Random, budget: hard.Budget = BUDGET) -> Card:
    """The legal card with the best mean value over the imagined layouts."""
    return hard.choose_play(view, rng, budget_at(view.options, budget))


def choose_pass(
    view: PlayerView, rng: random.Random, budget: hard.Budget = BUDGET
) -> tuple[Card, ...]:
    """The pass with the best mean value over imagined deals of the other hands."""
    return hard.choose_pass(view, rng, budget)


def choose_moon(view: PlayerView, rng: random.Random) -> MoonScoring:
    """Add the moon to the others or subtract it from its own total, whichever leaves this seat
    better placed in the game (`standing.moon_choice`)."""
    del rng  # the choice is deterministic
    options = view.options
    base = raw_points(options, know(view).taken)
    added = moon_points(options, base, view.seat, MoonScoring.ADD_TO_OTHERS)
    subtracted = moon_points(options, base, view.seat, MoonScoring.SUBTRACT_FROM_SELF)
    add = standing.moon_choice(
        view.seat,
        sim.Rules.of(options),
        np.asarray(added, dtype=np.int64),
        np.asarray(subtracted, dtype=np.int64),
        np.asarray(view.totals, dtype=np.int64),
        BUDGET.end_weight,
    )
    return MoonScoring.ADD_TO_OTHERS if add else MoonScoring.SUBTRACT_FROM_SELF
