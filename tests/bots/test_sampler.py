"""The sampler's invariant: every imagined layout is consistent with the view (BOT-06, TV-58).

`view_for(to_state(knowledge, world), seat) == view`, no seat receives a card of a suit it
showed void in, the cards this seat passed stay with the receiver until played, and the layout
uses exactly the unseen cards.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.bots.knowledge import know
from app.bots.sampler import Sampler, World, sample_world, sample_worlds, to_state
from app.engine import (
    Card,
    GameState,
    Pass,
    Phase,
    PlayerView,
    RuleOptions,
    Suit,
    apply,
    deck_for,
    new_game,
    random_deal,
    start_hand,
    to_act,
    view_for,
)
from tests.engine.helpers import random_step

TABLES = [
    RuleOptions.standard(),
    RuleOptions.standard(3),
    RuleOptions.standard(5, qs_lead_requires_broken=True),
    RuleOptions.standard(6, lead_hearts_if_only_qs_and_hearts=True),
    RuleOptions.standard(omnibus=True),
    RuleOptions.standard(first_lead="left_of_dealer", no_points_first_trick=False),
    RuleOptions.cancellation(6),
    RuleOptions.cancellation(8),
    RuleOptions.cancellation(11, no_points_first_trick=True),
]


def shown_voids(view: PlayerView) -> list[set[Suit]]:
    """Suits each seat failed to follow, read straight from the trick history."""
    voids: list[set[Suit]] = [set() for _ in range(view.num_players)]
    plays = [t.plays for t in view.tricks] + ([view.current] if view.current else [])
    for trick in plays:
        led = trick[0][1].suit
        for seat, c in trick[1:]:
            if c.suit is not led:
                voids[seat].add(led)
    return voids


def check_worlds(state: GameState, seat: int, rng: random.Random) -> None:
    """A layout drawn alone, and a few drawn at once (`sample_worlds`, the same as drawing them
    one after another), are all consistent with the view."""
    knowledge = know(view_for(state, seat))
    check_world(state, seat, sample_world(knowledge, rng))
    seed = rng.getrandbits(32)
    drawn = sample_worlds(knowledge, random.Random(seed), 3)
    again = random.Random(seed)
    assert drawn == [sample_world(knowledge, again) for _ in range(3)]
    for world in drawn:
        check_world(state, seat, world)


def check_world(state: GameState, seat: int, world: World) -> None:
    view = view_for(state, seat)
    knowledge = know(view)
    assert view_for(to_state(knowledge, world), seat) == view
    assert world.hands[seat] == view.hand
    voids = shown_voids(view)
    for other, hand in enumerate(world.hands):
        assert len(hand) == view.hand_sizes[other]
        assert not any(c.suit in voids[other] for c in hand), (other, voids[other], hand)
    if view.received is not None and view.passed and view.pass_target is not None:
        target = view.pass_target
        still = Counter(view.passed) - Counter(c for s, c in _plays(view) if s == target)
        assert not still - Counter(world.hands[target])
    everything = Counter(view.played_cards)
    for hand in world.hands:
        everything.update(hand)
    everything.update(world.kitty)
    for p in world.passes:
        everything.update(p or ())
    if view.phase is Phase.PASS and view.passed:
        everything.update(view.passed)
    assert everything == Counter(deck_for(view.options))


def _plays(view: PlayerView) -> list[tuple[int, Card]]:
    return [p for t in view.tricks for p in t.plays] + list(view.current)


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32 - 1))
def test_sampled_worlds_are_consistent_with_the_view(table: RuleOptions, seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(table)
    checked = 0
    while not state.is_over and state.hand_number <= 3:
        if state.phase in (Phase.PASS, Phase.PLAY):
            for seat in to_act(state):
                check_worlds(state, seat, rng)
                checked += 1
        state = random_step(state, rng)
    assert checked > 20


def test_the_compiled_placing_draws_what_the_python_one_draws(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`Sampler.draw_many` (the cards placed by `sampler_compiled.assign_many`, with Python's
    random stream run compiled) gives the layouts the Python placing (`Sampler._assign`) gives,
    one after another, and leaves the generator where it leaves it, at every table, in the pass
    and the play; layouts that need cards moved to make room are among them (placed the Python
    way inside `draw_many`)."""
    python_assign = Sampler._assign
    moved = 0

    def counted(self: Sampler, rng: random.Random) -> list[list[Card]]:
        nonlocal moved
        moved += 1
        return python_assign(self, rng)

    checked = 0
    for t, table in enumerate(TABLES):
        rng = random.Random(t)
        state = new_game(table)
        while not state.is_over and state.hand_number <= 2:
            if state.phase in (Phase.PASS, Phase.PLAY):
                for seat in to_act(state)[:1]:
                    sampler = Sampler(know(view_for(state, seat)))
                    seed = rng.getrandbits(32)
                    python, compiled = random.Random(seed), random.Random(seed)
                    expected = [sampler._world(python_assign(sampler, python)) for _ in range(16)]
                    monkeypatch.setattr(Sampler, "_assign", counted)
                    assert sampler.draw_many(compiled, 16) == expected
                    monkeypatch.setattr(Sampler, "_assign", python_assign)
                    assert compiled.getstate() == python.getstate()
                    checked += 16
            state = random_step(state, rng)
    assert checked > 15_000 and moved > 0, (checked, moved)

    # Any other generator is left to the Python placing: the same layouts as drawing them alone.
    class Other(random.Random):
        def getrandbits(self, k: int) -> int:  # another stream than the twister's own
            return (1 << k) - 1 - super().getrandbits(k)

    sampler = Sampler(know(view_for(apply(new_game(TABLES[0]), random_deal(TABLES[0], rng)), 0)))
    assert sampler.draw_many(Other(3), 4) == [
        sampler._world(python_assign(sampler, r)) for r in [Other(3)] for _ in range(4)
    ]


def test_committed_passes_of_others_are_hidden_places() -> None:
    """During the pass, another seat's committed cards are neither in its hand nor seen."""
    rng = random.Random(3)
    state = random_step(new_game(RuleOptions.standard()), rng)  # the deal
    assert state.hand is not None
    state = apply(state, Pass(1, state.hand.hands[1][:3]))
    view = view_for(state, 0)
    knowledge = know(view)
    for _ in range(20):
        world = sample_world(knowledge, rng)
        assert len(world.hands[1]) == 10
        assert world.passes[1] is not None and len(world.passes[1]) == 3
        assert view_for(to_state(knowledge, world), 0) == view


def test_passed_opening_club_is_known_once() -> None:
    """Seat 0 passes `2C` left: seat 1 then leads it, and holds it once, not twice."""
    deck = list(deck_for(RuleOptions.standard()))
    state = start_hand(new_game(RuleOptions.standard()), [deck[i::4] for i in range(4)])
    assert state.hand is not None
    two_clubs = Card.from_str("2C")
    assert two_clubs in state.hand.hands[0]
    for seat in range(4):
        held = state.hand.hands[seat]
        state = apply(state, Pass(seat, (two_clubs, *held[-2:]) if seat == 0 else held[:3]))
    assert state.phase is Phase.PLAY and to_act(state) == (1,)
    knowledge = know(view_for(state, 0))
    assert knowledge.known[1][two_clubs] == 1
    rng = random.Random(5)
    for _ in range(10):
        check_worlds(state, 0, rng)
