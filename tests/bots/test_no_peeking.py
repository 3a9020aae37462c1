"""The computer players never peek (BOT-01, BOT-02, BOT-07, BOT-08; RULES.md TV-58, TV-59).

The hidden cards of a real position are dealt again at random, subject to everything the seat
has seen (hand sizes, shown voids, the cards it passed and received, the played cards), and the
whole hand is replayed through the engine so every alternative is a legal game. The seat's view
must be identical and each level's decision, with the same seed, must be identical too.

The alternatives are built here independently of the bots' own sampler.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from app.bots import Level, bot, expert, hard
from app.engine import (
    Action,
    Card,
    Deal,
    GameHeader,
    GameState,
    IllegalActionError,
    Pass,
    PassDirection,
    Phase,
    Play,
    PlayerView,
    RuleOptions,
    Suit,
    Variant,
    apply,
    cards,
    new_game,
    pass_target,
    random_deal,
    replay,
    to_act,
    view_for,
)

LEVELS = (Level.EASY, Level.MEDIUM, Level.HARD, Level.EXPERT)
TEST_BUDGET = hard.Budget(worlds=8, round_size=8)
"""A small Hard budget for the many positions."""
EXPERT_TEST_BUDGET = dataclasses.replace(
    expert.BUDGET,
    worlds=8,
    round_size=8,
    close_worlds=8,
    pass_worlds=4,
    pass_final_worlds=4,
    pass_close_worlds=4,
)
"""A small Expert budget for the many positions: its inference, second look at close cards,
exact endgame and pass search (with its looks at the close passes) included."""


def decide(
    level: Level,
    view: PlayerView,
    seed: int,
    *,
    full: bool = False,
    expert_budget: hard.Budget = EXPERT_TEST_BUDGET,
) -> object:
    """The level's decision in `view` with the generator of `seed` (Expert's, unless `full`, with
    `expert_budget`)."""
    rng = random.Random(seed)
    if view.phase is Phase.PASS:
        if level is Level.EXPERT and not full:
            return expert.choose_pass(view, rng, expert_budget)
        return bot(level).choose_pass(view, rng)
    if level is Level.HARD and not full:
        return hard.choose_play(view, rng, TEST_BUDGET)
    if level is Level.EXPERT and not full:
        return expert.choose_play(view, rng, expert_budget)
    return bot(level).choose_play(view, rng)


# --- building alternative games ---------------------------------------------------------------


def hand_actions(actions: Sequence[Action]) -> tuple[list[Action], list[Action]]:
    """Split a game's actions into those before the current hand's deal and those since."""
    last_deal = max(i for i, a in enumerate(actions) if isinstance(a, Deal))
    return list(actions[:last_deal]), list(actions[last_deal:])


def shown_voids(state: GameState) -> list[set[Suit]]:
    assert state.hand is not None
    voids: list[set[Suit]] = [set() for _ in range(state.num_players)]
    tricks = [t.plays for t in state.hand.tricks] + [state.hand.current]
    for plays in tricks:
        for seat, c in plays[1:]:
            if c.suit is not plays[0][1].suit:
                voids[seat].add(plays[0][1].suit)
    return voids


def alternative(
    header: GameHeader, actions: Sequence[Action], seat: int, rng: random.Random
) -> GameState | None:
    """The same game with the cards hidden from `seat` dealt again, or None if the try broke a
    constraint (the replay refused it)."""
    before, hand_log = hand_actions(actions)
    state = replay(header, actions)
    assert state.hand is not None
    h = state.hand
    n = state.num_players
    played_by: list[list[Card]] = [[] for _ in range(n)]
    for t in (*h.tricks, None):
        for s, c in t.plays if t is not None else h.current:
            played_by[s].append(c)
    exchanged = h.is_exchanged and h.direction is not PassDirection.HOLD
    fixed: list[Counter[Card]] = [Counter() for _ in range(n)]
    if exchanged:
        target = pass_target(seat, h.direction, n)
        own_pass = h.passed[seat]
        assert own_pass is not None
        fixed[target] = Counter(own_pass) - Counter(played_by[target])
    sizes = [len(h.hands[s]) - sum(fixed[s].values()) for s in range(n)]
    pool: list[Card] = []
    for s in range(n):
        if s != seat:
            pool.extend((Counter(h.hands[s]) - fixed[s]).elements())
            if h.passed[s] and not h.is_exchanged:
                pool.extend(h.passed[s] or ())
    kitty_hidden = h.kitty_collector != seat
    if kitty_hidden:
        pool.extend(h.kitty)
    voids = shown_voids(state)
    rooms = {s: sizes[s] for s in range(n) if s != seat}
    pending_rooms = {s: 3 for s in range(n) if s != seat and h.passed[s] and not h.is_exchanged}
    dealt_out = _deal_randomly(
        pool, rooms, pending_rooms, len(h.kitty) if kitty_hidden else 0, voids, rng
    )
    if dealt_out is None:
        return None
    placed, new_pending_by_seat, hidden_kitty = dealt_out
    new_hands: list[list[Card]] = [list(h.hands[seat]) if s == seat else [] for s in range(n)]
    new_pending: list[list[Card]] = [new_pending_by_seat.get(s, []) for s in range(n)]
    for s in rooms:
        new_hands[s] = [*fixed[s].elements(), *placed[s]]
    kitty = hidden_kitty if kitty_hidden else list(h.kitty)
    holdings = [Counter(new_hands[s]) + Counter(played_by[s]) for s in range(n)]
    received: list[list[Card]] = [[] for _ in range(n)]
    if exchanged:
        target = pass_target(seat, h.direction, n)
        received[seat] = list(h.received[seat])
        received[target] = list(h.passed[seat] or ())
        for s in range(n):
            if s not in (seat, target):
                received[s] = rng.sample(sorted(holdings[s].elements()), 3)
    dealt: list[list[Card]] = []
    passes: list[list[Card] | None] = []
    for s in range(n):
        if exchanged:
            gave = received[pass_target(s, h.direction, n)]
            passes.append(gave)
            dealt.append(list((holdings[s] - Counter(received[s]) + Counter(gave)).elements()))
        else:
            mine = list(h.passed[s] or ()) if s == seat else new_pending[s]
            passes.append(mine if h.passed[s] else None)
            dealt.append(list(holdings[s].elements()) + mine)
    dealt[seat] = list(h.dealt[seat])
    new_log: list[Action] = [Deal(dealt, kitty)]
    for a in hand_log[1:]:
        if isinstance(a, Pass):
            gave_now = passes[a.seat]
            assert gave_now is not None
            new_log.append(Pass(a.seat, gave_now))
        else:
            new_log.append(a)
    try:
        return replay(header, [*before, *new_log])
    except IllegalActionError:
        return None


def _deal_randomly(
    pool: list[Card],
    rooms: dict[int, int],
    pending_rooms: dict[int, int],
    kitty_room: int,
    voids: list[set[Suit]],
    rng: random.Random,
) -> tuple[dict[int, list[Card]], dict[int, list[Card]], list[Card]] | None:
    """Deal `pool` at random into hands (no card of a shown void), pending passes and the kitty;
    None when this random order gets stuck."""
    places = [("hand", s, r) for s, r in rooms.items()] + [
        ("pass", s, r) for s, r in pending_rooms.items()
    ]
    places.append(("kitty", -1, kitty_room))
    room = [r for _, _, r in places]
    got: list[list[Card]] = [[] for _ in places]
    order = pool[:]
    rng.shuffle(order)
    for c in order:
        open_places = [
            i
            for i, (kind, s, _) in enumerate(places)
            if room[i] > 0 and not (kind == "hand" and c.suit in voids[s])
        ]
        if not open_places:
            return None
        i = rng.choices(open_places, weights=[room[j] for j in open_places])[0]
        got[i].append(c)
        room[i] -= 1
    hands = {s: got[i] for i, (kind, s, _) in enumerate(places) if kind == "hand"}
    pending = {s: got[i] for i, (kind, s, _) in enumerate(places) if kind == "pass"}
    return hands, pending, got[-1]


def alternatives(
    header: GameHeader, actions: Sequence[Action], seat: int, count: int, seed: int
) -> list[GameState]:
    rng = random.Random(seed)
    found: list[GameState] = []
    for _ in range(count * 200):
        alt = alternative(header, actions, seat, rng)
        if alt is not None:
            found.append(alt)
            if len(found) == count:
                break
    assert len(found) == count, "could not redeal the hidden cards"
    return found


def assert_no_peeking(
    header: GameHeader,
    actions: Sequence[Action],
    seat: int,
    count: int,
    levels: Sequence[Level] = LEVELS,
    seed: int = 11,
    full: bool = False,
    expert_budget: hard.Budget = EXPERT_TEST_BUDGET,
) -> bool:
    """`count` redeals give the seat the same view and every level the same decision (`decide`);
    True when at least one redeal moved a hidden card (at the last trick nothing may be able to
    move)."""
    state = replay(header, actions)
    view = view_for(state, seat)
    alts = alternatives(header, actions, seat, count, seed)
    assert state.hand is not None
    moved = any(a.hand is not None and a.hand.hands != state.hand.hands for a in alts)
    expected = {
        level: decide(level, view, seed, full=full, expert_budget=expert_budget) for level in levels
    }
    for alt in alts:
        alt_view = view_for(alt, seat)
        assert alt_view == view
        for level in levels:
            chosen = decide(level, alt_view, seed, full=full, expert_budget=expert_budget)
            assert chosen == expected[level], level
    return moved


# --- TV-58 and TV-59 --------------------------------------------------------------------------

TV24_DEAL = [
    "AC KC QC 2D 3D 4D 5D 2S 3S 5S 2H 3H 4H",
    "5C 6C 7C 6D 7D 8D TD AH 5H 6H 7H 8H 9H",
    "2C 8C TC 9D JD QD KD AD 4S 6S 8S 9S TH",
    "3C 4C 9C JC 7S TS JS QS KS AS JH QH KH",
]
TV24_PLAYS = "2 2C, 3 9C, 0 KC, 1 5C, 0 3D, 1 TD, 2 JD, 3 QS, 2 4S, 3 7S, 0 2S, 1 AH"


def tv24_after_trick_3() -> tuple[GameHeader, list[Action]]:
    header = GameHeader(RuleOptions.standard(pass_cycle="none"))
    actions: list[Action] = [Deal([cards(h) for h in TV24_DEAL])]
    for item in TV24_PLAYS.split(","):
        seat, code = item.split()
        actions.append(Play(int(seat), code))
    return header, actions


@pytest.mark.parametrize("level", LEVELS)
def test_tv58_lead_decision_ignores_hidden_cards(level: Level) -> None:
    """TV-58: E leads trick 4 of the TV-24 deal; 50 redeals of S, W, N (W void in spades)."""
    header, actions = tv24_after_trick_3()
    state = replay(header, actions)
    assert to_act(state) == (3,)
    assert assert_no_peeking(header, actions, 3, 50, levels=[level], full=True)


@pytest.mark.parametrize("level", LEVELS)
def test_tv58_follow_decision_ignores_hidden_cards(level: Level) -> None:
    """TV-58 (following): E leads TS to trick 4 and S must follow; 50 redeals of W, N, E."""
    header, actions = tv24_after_trick_3()
    actions = [*actions, Play(3, "TS")]
    assert to_act(replay(header, actions)) == (0,)
    assert assert_no_peeking(header, actions, 0, 50, levels=[level], full=True)


@pytest.mark.parametrize("level", LEVELS)
def test_tv59_pass_decision_ignores_hidden_cards(level: Level) -> None:
    """TV-59: hand 1, W's 13 cards fixed, the other 39 dealt again 50 times."""
    options = RuleOptions.standard()
    header = GameHeader(options)
    deal = random_deal(options, random.Random(59))
    actions: list[Action] = [deal]
    assert replay(header, actions).phase is Phase.PASS
    assert assert_no_peeking(header, actions, 1, 50, levels=[level], full=True)


# --- 200 positions per level on other tables --------------------------------------------------

TABLES: dict[str, RuleOptions] = {
    "standard-3": RuleOptions.standard(3),
    "omnibus-4": RuleOptions.standard(omnibus=True),
    "cancellation-8": RuleOptions.cancellation(8),
    "cancellation-6": RuleOptions.cancellation(6),
}


def positions(options: RuleOptions, seed: int, wanted: int) -> list[tuple[list[Action], int]]:
    """Decision points of random games: each pass, each first lead and some mid-hand plays."""
    rng = random.Random(seed)
    state = new_game(options)
    actions: list[Action] = []
    found: list[tuple[list[Action], int]] = []
    while len(found) < wanted:
        if state.is_over:
            state = new_game(options)
            actions = []
        if state.phase is Phase.DEAL:
            deal = random_deal(options, rng)
            actions.append(deal)
            state = apply(state, deal)
            continue
        assert state.hand is not None
        seats = to_act(state)
        first_lead = state.phase is Phase.PLAY and not state.hand.tricks and not state.hand.current
        all_to_pass = state.phase is Phase.PASS and len(seats) == options.num_players
        mid_hand = state.phase is Phase.PLAY and rng.random() < 0.08
        if all_to_pass or first_lead or mid_hand:
            found.append((list(actions), seats[0]))
        if state.phase is Phase.PASS:
            seat = seats[0]
            action: Action = Pass(seat, rng.sample(state.hand.hands[seat], 3))
        else:
            view = view_for(state, seats[0])
            action = Play(seats[0], rng.choice(view.legal))
        actions.append(action)
        state = apply(state, action)
    return found


@pytest.mark.parametrize("level", LEVELS)
def test_no_peeking_on_200_positions_of_other_tables(level: Level) -> None:
    """BOT-07 on 3-player, Omnibus and Cancellation tables: at the pass, the first lead and
    mid-hand, three redeals of the hidden cards change neither the view nor the decision."""
    checked = Counter[str]()
    moved = 0
    for name, options in TABLES.items():
        header = GameHeader(options)
        for i, (actions, seat) in enumerate(positions(options, seed=len(name), wanted=50)):
            state = replay(header, actions)
            kind = "pass" if state.phase is Phase.PASS else "play"
            moved += assert_no_peeking(header, actions, seat, 3, levels=[level], seed=i)
            checked[kind] += 1
    assert sum(checked.values()) >= 200
    assert checked["pass"] >= 20 and checked["play"] >= 100
    assert moved >= 0.9 * sum(checked.values())


def test_expert_endgame_ignores_hidden_cards() -> None:
    """Expert's exact endgame (three cards or fewer, full budget) at 12 positions of a 4-seat
    game: five redeals change neither the view nor the decision."""
    options = RuleOptions.standard()
    header = GameHeader(options)
    late = [
        (actions, seat)
        for actions, seat in positions(options, seed=3, wanted=400)
        if len(view_for(replay(header, actions), seat).hand) <= 3
    ]
    assert len(late) >= 12
    moved = sum(
        assert_no_peeking(header, a, s, 5, levels=[Level.EXPERT], seed=i, full=True)
        for i, (a, s) in enumerate(late[:12])
    )
    assert moved >= 10


def test_modelled_replies_ignore_hidden_cards() -> None:
    """Expert's small budget with `model_replies` (the other seats of its play-outs drawing their
    cards from the opponent model: a setting no level uses) at the TV-58 lead and follow and at
    24 mid-hand positions of four tables: three redeals change neither the view nor the card."""
    budget = dataclasses.replace(EXPERT_TEST_BUDGET, model_replies=True)
    header, actions = tv24_after_trick_3()
    cases = [(header, actions, 3), (header, [*actions, Play(3, "TS")], 0)]
    for name, options in TABLES.items():
        table = GameHeader(options)
        found = positions(options, seed=len(name) + 1, wanted=30)
        plays = [(a, seat) for a, seat in found if replay(table, a).phase is Phase.PLAY]
        cases += [(table, a, seat) for a, seat in plays[:6]]
    assert len(cases) == 26
    moved = sum(
        assert_no_peeking(table, a, seat, 3, [Level.EXPERT], i, expert_budget=budget)
        for i, (table, a, seat) in enumerate(cases)
    )
    assert moved >= 20


def test_noisy_replies_ignore_hidden_cards() -> None:
    """Expert's small budget at the tables where its play-outs' other seats play a random legal
    card one time in ten (`expert.NOISY_SEATS`): at 12 positions of play of standard-6 and -7 and
    of Cancellation-8 and -9 (first leads and mid-hand plays), three redeals change neither the
    view nor the card."""
    noisy = expert.NOISY_SEATS
    tables = [RuleOptions.standard(seats) for seats in noisy[Variant.STANDARD]]
    tables += [RuleOptions.cancellation(seats) for seats in noisy[Variant.CANCELLATION]]
    cases = []
    for options in tables:
        assert expert.budget_at(options, EXPERT_TEST_BUDGET).noisy_replies > 0
        table = GameHeader(options)
        found = positions(options, seed=options.num_players, wanted=60)
        plays = [(a, seat) for a, seat in found if replay(table, a).phase is Phase.PLAY]
        cases += [(table, a, seat) for a, seat in plays[:12]]
    assert len(cases) == 48
    moved = sum(
        assert_no_peeking(table, a, seat, 3, [Level.EXPERT], i)
        for i, (table, a, seat) in enumerate(cases)
    )
    assert moved >= 36


def test_alternatives_are_real_games_with_different_hidden_cards() -> None:
    """The harness itself: redeals replay legally, keep the seat's cards and move the others."""
    header, actions = tv24_after_trick_3()
    state = replay(header, actions)
    alts = alternatives(header, actions, 3, 20, seed=5)
    assert state.hand is not None
    assert all(a.hand is not None and a.hand.hands[3] == state.hand.hands[3] for a in alts)
    assert any(a.hand is not None and a.hand.hands[0] != state.hand.hands[0] for a in alts)
    for a in alts:
        assert a.hand is not None
        assert not any(c.suit is Suit.SPADES for c in a.hand.hands[1])  # W showed out of spades
