"""TV-60: property tests over random legal play-outs (R9 invariants, R11, R12, R15, R20, R32,
R36–R39).

Every Hypothesis example draws a seed (and, for variety, rule options that do not change the
properties checked) and plays one whole random game through the public API (`random_deal`,
`Pass`, `legal_actions` / `legal_cards`, `apply`). At every play decision it checks R9's invariants
and the hearts-broken rule against an independent tracker of R8.2/R8.3; after every hand it checks
that each dealt card was played exactly once, re-derives who collected which cards from the trick
history (R10, R36, R37, R38, R32.2) and checks the hand points (R11, R12, R20, R39).

Each table plays `GAMES_PER_TABLE` whole random games (more at three seats, whose games are
shorter), over 1,000 games per run in all, and asserts that it played at least 1,000 whole hands
(TV-60's 1,000 play-outs per preset): about 40 s on one core. The environment variables
`TV60_GAMES_PER_TABLE` and `TV60_MIN_HANDS_PER_TABLE` change the budget.

Random play almost never shoots the moon, so `test_tv60_moon_*` build moons on purpose: a scripted
deal in which one seat wins every trick, played through `apply`, and hand-built `taken` piles
scored with `app.engine.scoring.score_hand`.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import (
    FULL_DECK,
    QUEEN_OF_SPADES,
    Card,
    Deal,
    FirstLead,
    GameState,
    HandState,
    HeartsBrokenBy,
    LeftoverTo,
    MoonChoice,
    MoonScoring,
    Pass,
    PassCycle,
    Phase,
    Play,
    RuleOptions,
    Suit,
    TieRule,
    apply,
    cards,
    legal_actions,
    legal_cards,
    new_game,
    random_deal,
    to_act,
)
from app.engine.scoring import score_hand

HEARTS = Suit.HEARTS

# --- the spec's tables, written out literally (R15, R32.1, R1.4, R30.3) ------------------------

REMOVED_R15: dict[int, str] = {3: "2D", 4: "", 5: "2D 2C", 6: "2D 3D 3C 4C", 7: "2D 3D 3C"}
CARDS_EACH_R15: dict[int, int] = {3: 17, 4: 13, 5: 10, 6: 8, 7: 7}
CARDS_EACH_R32: dict[int, int] = {6: 17, 7: 14, 8: 13, 9: 11, 10: 10, 11: 9}
KITTY_R32: dict[int, int] = {6: 2, 7: 6, 8: 0, 9: 5, 10: 4, 11: 5}

GAMES_PER_TABLE = int(os.environ.get("TV60_GAMES_PER_TABLE", "160"))
"""Hypothesis examples (each a whole random game) per table: 9 × 160 ≥ 1,000 games per run, and
enough for every table to pass its 1,000 hands with a wide margin (the fewest seen over many runs
was about 9 hands a game at five seats, 7 at four)."""
MIN_HANDS_PER_TABLE = int(os.environ.get("TV60_MIN_HANDS_PER_TABLE", "1000"))
"""Hands (whole random play-outs) each table's test must have played: TV-60's 1,000 per preset."""


def _pack(options: RuleOptions) -> Counter[Card]:
    """The pack in play per R15 (one deck less the removed cards) or R30.2 (two full decks)."""
    if options.is_cancellation:
        return Counter(FULL_DECK + FULL_DECK)
    removed = set(cards(REMOVED_R15[options.num_players]))
    return Counter(c for c in FULL_DECK if c not in removed)


def _spec_points(options: RuleOptions, pile: Counter[Card] | list[Card]) -> int:
    """R1.4 / R20.1 / R30.3: heart 1, `QS` 13, the Omnibus bonus card its (negative) value."""
    bonus = Card.from_str(options.omnibus_bonus_card) if options.omnibus else None
    total = 0
    for c in pile.elements() if isinstance(pile, Counter) else pile:
        if c.suit is HEARTS:
            total += 1
        elif c is QUEEN_OF_SPADES:
            total += 13
        elif c is bonus:
            total += options.omnibus_bonus_value
    return total


def _is_penalty(c: Card) -> bool:
    return c.suit is HEARTS or c is QUEEN_OF_SPADES


# --- R8.2 / R8.3 tracked independently of the engine -------------------------------------------


def _breaks_hearts(options: RuleOptions, c: Card, is_discard: bool) -> bool:
    """`after_card_played` of R9."""
    counts = options.hearts_broken_by is HeartsBrokenBy.ANY_PLAY or is_discard
    if c.suit is HEARTS and counts:
        return True
    return c is QUEEN_OF_SPADES and options.qs_breaks_hearts and counts


def _heart_lead_allowed(options: RuleOptions, held: tuple[Card, ...], trick_number: int) -> bool:
    """Whether a heart may be led while hearts are unbroken (R8.4, R8.5, R8.6, R34.2/R5.4)."""
    if trick_number == 1:
        # lowest_club / any_club only ever lead clubs (R5.1, R5.2); left of dealer may lead a
        # heart only from a hand of nothing but hearts and QS (R34.2, R5.4).
        return options.first_lead is FirstLead.LEFT_OF_DEALER and all(map(_is_penalty, held))
    non_hearts = {c for c in held if c.suit is not HEARTS}
    if not non_hearts:
        return True  # R8.4
    if non_hearts == {QUEEN_OF_SPADES}:
        # R8.6 option; or R8.5's setting, under which QS cannot be led either.
        return options.lead_hearts_if_only_qs_and_hearts or options.qs_lead_requires_broken
    return False


# --- the play-out --------------------------------------------------------------------------------


@dataclass
class Tally:
    """What one run of a table's test did."""

    hands: int = 0
    moons: int = 0
    decisions: int = 0


def _check_play_decision(state: GameState, broken: bool) -> None:
    """R9's invariants at one play decision, and hearts broken per R8.2/R8.3."""
    o = state.options
    hand = state.hand
    assert hand is not None
    seat = hand.to_play
    assert to_act(state) == (seat,)
    held = hand.hands[seat]
    legal = legal_cards(state, seat)
    assert legal, "R9: the legal set is never empty"
    assert set(legal) <= set(held), "R9: the legal set is a subset of the hand"
    assert len(set(legal)) == len(legal)
    actions = legal_actions(state)
    assert all(isinstance(a, Play) and a.seat == seat for a in actions)
    assert sorted(a.card for a in actions if isinstance(a, Play)) == sorted(legal)
    assert hand.hearts_broken == broken, "R8.2/R8.3: hearts broken differs from the plays"
    if hand.current:
        led = hand.current[0][1].suit
        same = {c for c in held if c.suit is led}
        if same:
            assert set(legal) == same, "R6.1/R6.3: holding the led suit, only that suit"
        return
    if not broken and any(c.suit is HEARTS for c in legal):
        assert _heart_lead_allowed(o, held, hand.trick_number), (
            f"R8.4: heart offered as a lead with hearts unbroken: hand {held}, legal {legal}, "
            f"trick {hand.trick_number}"
        )


def _check_pass_options(state: GameState) -> None:
    """The pass decision: every offered pass is 3 cards of the seat's own hand (R4.1)."""
    hand = state.hand
    assert hand is not None
    for seat in to_act(state):
        passes = legal_actions(state, seat)
        assert passes
        held = Counter(hand.hands[seat])
        for p in passes:
            assert isinstance(p, Pass) and p.seat == seat and len(p.cards) == 3
            assert not Counter(p.cards) - held


def _derive_collection(
    options: RuleOptions, hand: HandState
) -> tuple[list[Counter[Card]], Counter[Card]]:
    """Who collected which cards, re-derived from the tricks (R10, R36, R37, R38, R32)."""
    n = options.num_players
    taken: list[Counter[Card]] = [Counter() for _ in range(n)]
    pot: Counter[Card] = Counter()
    nobody: Counter[Card] = Counter()
    kitty = Counter(hand.kitty)
    kitty_pending = bool(kitty)
    last = len(hand.tricks)
    leader = hand.tricks[0].leader
    for trick in hand.tricks:
        assert trick.leader == leader, "R10.2/R37.2: wrong leader"
        assert [s for s, _ in trick.plays] == [(leader + i) % n for i in range(n)]
        led = trick.plays[0][1].suit
        counts = Counter(c for _, c in trick.plays)
        eligible = [(c.rank, s) for s, c in trick.plays if c.suit is led and counts[c] == 1]
        winner = max(eligible)[1] if eligible else None  # R10.1 / R36.7
        assert trick.winner == winner, f"R10.1/R36.4: trick {trick.number} winner"
        pot.update(counts)
        is_last = trick.number == last
        kitty_now = kitty_pending and (
            options.cancel_leftover_to is LeftoverTo.FIRST_TRICK_WINNER or is_last
        )
        if winner is not None:
            taken[winner].update(pot)
            if kitty_now:
                taken[winner].update(kitty)
                kitty_pending = False
            pot = Counter()
            leader = winner
        elif is_last:  # R38.1 (`cancel_last_trick_no_winner = nobody`)
            nobody.update(pot)
            if kitty_now:
                nobody.update(kitty)
                kitty_pending = False
            pot = Counter()
        # else R37.1/R37.2: the cards wait in the pot, the same seat leads again
    assert not pot and not kitty_pending
    return taken, nobody


def _check_hand(state: GameState, dealt_counts: Counter[Card], kitty: tuple[Card, ...]) -> int:
    """Per-hand properties after the hand has been scored. Returns 1 if it was a moon."""
    o = state.options
    n = o.num_players
    hand = state.hand
    assert hand is not None
    result = state.results[-1]
    assert result.number == hand.number
    pack = _pack(o)
    each = CARDS_EACH_R32[n] if o.is_cancellation else CARDS_EACH_R15[n]
    kitty_size = KITTY_R32[n] if o.is_cancellation else 0

    # Every dealt card is played exactly once; the kitty is never played (R32.2).
    played = Counter(c for t in hand.tricks for _, c in t.plays)
    assert sum(played.values()) == n * each, "R15/R32.1: n × cards-each cards are played"
    assert len(hand.tricks) == each
    assert played == dealt_counts, "every dealt card is played exactly once"
    assert len(kitty) == kitty_size, "R32.1: the kitty holds 104 mod n cards"
    assert played + Counter(kitty) == pack, "the deal is the pack in play"
    assert not any(hand.hands), "every hand is empty at the end"

    taken, nobody = _derive_collection(o, hand)
    engine_taken = [Counter(t) for t in hand.taken]
    assert engine_taken == taken, "collected cards differ from the trick history"
    assert Counter(hand.uncollected) == nobody, "R38.1: uncollected cards"
    collected = sum(sum(t.values()) for t in engine_taken)
    assert collected + len(hand.uncollected) == sum(pack.values())  # 104 in Cancellation
    if o.is_cancellation:
        assert collected + len(hand.uncollected) == 104
    assert result.uncollected_points == _spec_points(o, nobody)

    raw = [_spec_points(o, t) for t in taken]
    penalty_cards = sum(1 for c in pack.elements() if _is_penalty(c))  # 14, or 28 (R30.3)
    shooters = [
        s
        for s in range(n)
        if sum(1 for c in taken[s].elements() if _is_penalty(c)) == penalty_cards
    ]
    shooter = shooters[0] if shooters else None  # R12.1, R40.1
    bonus = Card.from_str(o.omnibus_bonus_card) if o.omnibus else None
    if (
        bonus is not None
        and o.omnibus_moon_requires_bonus
        and not any(taken[s][bonus] for s in shooters)
    ):
        shooter = None  # R20.3: the slam needs the bonus card too
    assert result.shooter == shooter, "R12.1/R40.1: shooter"
    bonus_total = o.omnibus_bonus_value if bonus is not None else 0
    total = sum(result.points)
    if shooter is None:
        assert list(result.points) == raw, "R11.1: hand points = values of collected cards"
        if o.is_cancellation:
            assert total == 52 - result.uncollected_points, "R39.1"
        else:
            assert total == 26 + bonus_total, "R11.2/R20.4: 26 (16 with Omnibus)"
        return 0
    scoring = result.moon_scoring
    if o.moon_scoring in (MoonScoring.ADD_TO_OTHERS, MoonScoring.SUBTRACT_FROM_SELF):
        assert scoring is o.moon_scoring
    shooter_bonus = o.omnibus_bonus_value if bonus is not None and taken[shooter][bonus] else 0
    if o.moon_scoring is MoonScoring.AUTO:
        # R12.6: add to the others unless that ends the game with the shooter not a winner.
        before = [t - p for t, p in zip(state.totals, result.points, strict=True)]
        after = [before[s] + (shooter_bonus if s == shooter else 26 + raw[s]) for s in range(n)]
        low = min(after)
        ends = max(after) >= o.target_score and (
            o.tie_rule is TieRule.SHARED or after.count(low) == 1
        )
        lost = ends and after[shooter] != low
        assert scoring is (MoonScoring.SUBTRACT_FROM_SELF if lost else MoonScoring.ADD_TO_OTHERS)
    if scoring is MoonScoring.ADD_TO_OTHERS:
        assert total == 26 * (n - 1) + bonus_total, "R12.3: 26 × (n − 1)"
        expected = [26 + raw[s] if s != shooter else shooter_bonus for s in range(n)]
    else:
        assert scoring is MoonScoring.SUBTRACT_FROM_SELF
        assert total == -26 + bonus_total, "R12.4: −26"
        expected = [raw[s] if s != shooter else shooter_bonus - 26 for s in range(n)]
    assert list(result.points) == expected
    return 1


def play_checked_game(options: RuleOptions, seed: int, tally: Tally) -> None:
    """One whole random game, checking TV-60 at every decision and after every hand."""
    rng = random.Random(seed)
    state = new_game(options, first_dealer=rng.randrange(options.num_players))
    dealt_counts: Counter[Card] = Counter()
    kitty: tuple[Card, ...] = ()
    broken = False
    first_pass_checked = False
    while not state.is_over:
        phase = state.phase
        if phase is Phase.DEAL:
            deal = random_deal(options, rng)
            state = apply(state, deal)
            dealt_counts = Counter(c for h in deal.hands for c in h)
            kitty = deal.kitty
            broken = not options.must_break_hearts  # R8.1
        elif phase is Phase.PASS:
            hand = state.hand
            assert hand is not None
            if not first_pass_checked:
                _check_pass_options(state)
                first_pass_checked = True
            for seat in to_act(state):
                state = apply(state, Pass(seat, rng.sample(hand.hands[seat], 3)))
        elif phase is Phase.PLAY:
            tally.decisions += 1
            _check_play_decision(state, broken)
            hand = state.hand
            assert hand is not None
            seat = hand.to_play
            c = rng.choice(legal_cards(state, seat))
            is_discard = bool(hand.current) and c.suit is not hand.current[0][1].suit
            broken = broken or _breaks_hearts(options, c, is_discard)
            state = apply(state, Play(seat, c))
            if state.phase is Phase.MOON_CHOICE:
                assert options.moon_scoring is MoonScoring.CHOICE
                choices = legal_actions(state)
                assert {a.scoring for a in choices if isinstance(a, MoonChoice)} == {
                    MoonScoring.ADD_TO_OTHERS,
                    MoonScoring.SUBTRACT_FROM_SELF,
                }
                state = apply(state, rng.choice(choices))
            if state.phase in (Phase.DEAL, Phase.GAME_OVER):
                tally.hands += 1
                tally.moons += _check_hand(state, dealt_counts, kitty)
        else:  # pragma: no cover - MOON_CHOICE is answered right after the last card
            raise AssertionError(f"unexpected phase {phase}")
    assert state.winners


# --- option strategies (options that do not change the properties) ------------------------------


def standard_options(num_players: int, *, omnibus: bool = False) -> st.SearchStrategy[RuleOptions]:
    """Random `standard` options at `num_players` seats; moon value and bonus value kept at their
    defaults because TV-60's sums assume them."""
    cycles = [PassCycle.LR, PassCycle.LRH, PassCycle.NONE]
    if num_players == 4:
        cycles.append(PassCycle.LRAH)
    return st.builds(
        RuleOptions.standard,
        num_players=st.just(num_players),
        pass_cycle=st.sampled_from(cycles),
        first_lead=st.sampled_from(list(FirstLead)),
        no_points_first_trick=st.booleans(),
        hearts_broken_by=st.sampled_from(list(HeartsBrokenBy)),
        qs_breaks_hearts=st.booleans(),
        qs_lead_requires_broken=st.booleans(),
        lead_hearts_if_only_qs_and_hearts=st.booleans(),
        omnibus=st.just(omnibus),
        omnibus_bonus_card=st.sampled_from(["JD", "TD"]),
        omnibus_moon_requires_bonus=st.booleans(),
        moon_scoring=st.sampled_from(list(MoonScoring)),
        target_score=st.sampled_from([50, 100]),
        tie_rule=st.sampled_from(list(TieRule)),
    )


def cancellation_options(num_players: int) -> st.SearchStrategy[RuleOptions]:
    """Random `cancellation` options at `num_players` seats (R38's `nobody` kept: TV-60 counts
    the cards nobody collected)."""
    return st.builds(
        RuleOptions.cancellation,
        num_players=st.just(num_players),
        pass_cycle=st.sampled_from([PassCycle.LR, PassCycle.LRH, PassCycle.NONE]),
        no_points_first_trick=st.booleans(),
        hearts_broken_by=st.sampled_from(list(HeartsBrokenBy)),
        qs_breaks_hearts=st.booleans(),
        qs_lead_requires_broken=st.booleans(),
        lead_hearts_if_only_qs_and_hearts=st.booleans(),
        cancel_leftover_to=st.sampled_from(list(LeftoverTo)),
        moon_scoring=st.sampled_from(list(MoonScoring)),
        target_score=st.sampled_from([100, 150]),
    )


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def run_table(
    name: str, options: st.SearchStrategy[RuleOptions], games_per_table: int = GAMES_PER_TABLE
) -> Tally:
    """Run the property for one table (one whole game per example) and check that enough hands
    were played."""
    tally = Tally()

    @settings(
        deadline=None,
        max_examples=games_per_table,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(options=options, seed=SEEDS)
    def games(options: RuleOptions, seed: int) -> None:
        play_checked_game(options, seed, tally)

    games()
    assert tally.hands >= MIN_HANDS_PER_TABLE, f"{name}: only {tally.hands} hands were played"
    print(f"{name}: {games_per_table} games, {tally.hands} hands")
    return tally


def test_tv60_standard_3_players() -> None:
    # Three-seat games end sooner (about 7 hands), so they need more games for 1,000 hands.
    run_table("standard-3", standard_options(3), GAMES_PER_TABLE * 3 // 2)


def test_tv60_standard_4_players() -> None:
    # Four-seat games are the shortest after three seats (7 to 8 hands): a third more games.
    run_table("standard-4", standard_options(4), GAMES_PER_TABLE * 4 // 3)


def test_tv60_standard_5_players() -> None:
    run_table("standard-5", standard_options(5))


def test_tv60_standard_6_players() -> None:
    run_table("standard-6", standard_options(6))


def test_tv60_standard_7_players() -> None:
    run_table("standard-7", standard_options(7))


def test_tv60_omnibus_4_players() -> None:
    run_table("omnibus-4", standard_options(4, omnibus=True))


def test_tv60_cancellation_6_players() -> None:
    run_table("cancellation-6", cancellation_options(6))


def test_tv60_cancellation_8_players() -> None:
    run_table("cancellation-8", cancellation_options(8))


def test_tv60_cancellation_11_players() -> None:
    run_table("cancellation-11", cancellation_options(11))


# --- moons built on purpose -------------------------------------------------------------------

MOON_HANDS: dict[int, str] = {
    # A hand that wins every trick when its holder leads trick 1 (`first_lead = left_of_dealer`):
    # every card is the best of its suit among the cards still out, and no hearts.
    3: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AD KD QD JD",  # 17 cards; 2D is out (R15)
    4: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    5: "AS KS QS JS TS 9S 8S 7S 6S 5S",  # the others keep 4S 3S 2S, all lower
}


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(
    num_players=st.sampled_from([3, 4, 5]),
    scoring=st.sampled_from(list(MoonScoring)),
    chosen=st.sampled_from([MoonScoring.ADD_TO_OTHERS, MoonScoring.SUBTRACT_FROM_SELF]),
    omnibus=st.booleans(),
    dealer=st.integers(min_value=0, max_value=4),
    seed=SEEDS,
)
def test_tv60_moon_played_through_apply(
    num_players: int,
    scoring: MoonScoring,
    chosen: MoonScoring,
    omnibus: bool,
    dealer: int,
    seed: int,
) -> None:
    """R12.3/R12.4 (and R20.3 with Omnibus): a real moon, played card by card."""
    n = num_players
    dealer %= n
    shooter = (dealer + 1) % n
    options = RuleOptions.standard(
        n,
        pass_cycle=PassCycle.NONE,
        first_lead=FirstLead.LEFT_OF_DEALER,
        moon_scoring=scoring,
        omnibus=omnibus,
    )
    rng = random.Random(seed)
    mine = list(cards(MOON_HANDS[n]))
    rest = [c for c in _pack(options).elements() if c not in set(mine)]
    rng.shuffle(rest)
    size = CARDS_EACH_R15[n]
    others = iter([rest[i * size : (i + 1) * size] for i in range(n - 1)])
    hands = [mine if s == shooter else next(others) for s in range(n)]
    state = apply(new_game(options, first_dealer=dealer), Deal(hands))
    broken = False
    while state.phase is Phase.PLAY:
        _check_play_decision(state, broken)
        hand = state.hand
        assert hand is not None
        seat = hand.to_play
        c = rng.choice(legal_cards(state, seat))
        is_discard = bool(hand.current) and c.suit is not hand.current[0][1].suit
        broken = broken or _breaks_hearts(options, c, is_discard)
        state = apply(state, Play(seat, c))
    if scoring is MoonScoring.CHOICE:
        assert state.phase is Phase.MOON_CHOICE
        assert state.moon_shooter == shooter
        state = apply(state, MoonChoice(shooter, chosen))
    assert state.phase is Phase.DEAL
    hand = state.hand
    assert hand is not None
    assert hand.tricks_won[shooter] == size
    assert _check_hand(state, Counter(c for h in hands for c in h), ()) == 1
    result = state.results[-1]
    applied = {
        MoonScoring.ADD_TO_OTHERS: MoonScoring.ADD_TO_OTHERS,
        MoonScoring.SUBTRACT_FROM_SELF: MoonScoring.SUBTRACT_FROM_SELF,
        MoonScoring.CHOICE: chosen,
        MoonScoring.AUTO: MoonScoring.ADD_TO_OTHERS,  # R12.6: from 0, adding ends nothing
    }[scoring]
    assert result.shooter == shooter
    assert result.moon_scoring is applied
    bonus = -10 if omnibus else 0  # the shooter took the bonus card too (R12.2, R20.3)
    if applied is MoonScoring.ADD_TO_OTHERS:
        expected = [bonus if s == shooter else 26 for s in range(n)]
        assert sum(result.points) == {3: 52, 4: 78, 5: 104}[n] + bonus
    else:
        expected = [bonus - 26 if s == shooter else 0 for s in range(n)]
        assert sum(result.points) == -26 + bonus
    assert list(result.points) == expected
    assert state.totals == tuple(expected)


@settings(deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(
    num_players=st.sampled_from([3, 4, 5]),
    scoring=st.sampled_from([MoonScoring.ADD_TO_OTHERS, MoonScoring.SUBTRACT_FROM_SELF]),
    data=st.data(),
)
def test_tv60_moon_sums_from_score_hand(
    num_players: int, scoring: MoonScoring, data: st.DataObject
) -> None:
    """R12.1–R12.4 on hand-built collections: one seat holds all 13 hearts and QS (it need not
    have won every trick); the others share the rest of the pack at random."""
    n = num_players
    options = RuleOptions.standard(n, moon_scoring=scoring)
    shooter = data.draw(st.integers(0, n - 1), label="shooter")
    pack = list(_pack(options).elements())
    owners = data.draw(st.lists(st.integers(0, n - 1), min_size=len(pack), max_size=len(pack)))
    piles: list[list[Card]] = [[] for _ in range(n)]
    for c, owner in zip(pack, owners, strict=True):
        piles[shooter if _is_penalty(c) else owner].append(c)
    taken = tuple(tuple(sorted(p)) for p in piles)
    tricks_won = tuple(max(1, len(p) // n) for p in piles)
    totals = tuple(data.draw(st.lists(st.integers(-50, 99), min_size=n, max_size=n)))
    score = score_hand(options, taken, tricks_won, totals)
    assert score is not None
    assert score.shooter == shooter
    assert score.moon_scoring is scoring
    if scoring is MoonScoring.ADD_TO_OTHERS:
        assert sum(score.points) == 26 * (n - 1)
        assert list(score.points) == [0 if s == shooter else 26 for s in range(n)]
    else:
        assert sum(score.points) == -26
        assert list(score.points) == [-26 if s == shooter else 0 for s in range(n)]
    # One heart moved to another seat: no moon, the points are the cards' values (R12.1, R11.2).
    heart = next(c for c in taken[shooter] if c.suit is HEARTS)
    other = (shooter + 1) % n
    piles[shooter].remove(heart)
    piles[other].append(heart)
    near = tuple(tuple(sorted(p)) for p in piles)
    score = score_hand(options, near, tricks_won, totals)
    assert score is not None
    assert score.shooter is None
    assert score.points[shooter] == 25
    assert score.points[other] == 1
    assert sum(score.points) == 26
