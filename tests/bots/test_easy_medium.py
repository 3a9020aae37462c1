"""The Easy and Medium computer players (BOT-04, BOT-05, BOT-07, BOT-09; RULES.md §11.3).

- On thousands of views from random games of every table (standard 3–7, Omnibus, Cancellation 6,
  8 and 11, and tables with the other options of §2) both levels return a legal card (BOT-09) and
  a legal pass (three cards of the hand, two equal cards only if the hand holds both, R4.1), and
  the same view with the same seed gives the same choice (BOT-07).
- Hand-built positions check the careful habits: Medium never takes the queen of spades when a
  simple alternative exists, passes `QS`/`AS`/`KS` when short of lower spades, discards the queen
  when void, smokes her out with a low spade, stops a moon, wins the Omnibus bonus card, and sheds
  a high card by cancelling its twin in Cancellation Hearts; Easy does not play the queen onto a
  spade trick it would win when it holds a lower spade.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence
from types import ModuleType

import pytest

from app.bots import choose_action, decision_rng, easy, medium
from app.engine import (
    QUEEN_OF_SPADES,
    Action,
    Card,
    FirstLead,
    GameState,
    HeartsBrokenBy,
    LastTrickNoWinner,
    LeftoverTo,
    MoonChoice,
    MoonScoring,
    Pass,
    PassCycle,
    Phase,
    PlayerView,
    RuleOptions,
    Trick,
    apply,
    card,
    cards,
    deck_for,
    hand_size,
    legal_actions,
    new_game,
    random_deal,
    start_hand,
    to_act,
    trick_winner,
    view_for,
)
from app.engine.cards import remove_cards
from tests.engine.helpers import position

LEVELS: tuple[ModuleType, ...] = (easy, medium)
S, W, N, E = 0, 1, 2, 3

TABLES: dict[str, RuleOptions] = {
    **{f"standard-{n}": RuleOptions.standard(n) for n in range(3, 8)},
    "omnibus-4": RuleOptions.standard(4, omnibus=True),
    "omnibus-5-TD": RuleOptions.standard(
        5, omnibus=True, omnibus_bonus_card="TD", omnibus_bonus_value=-5
    ),
    "cancellation-6": RuleOptions.cancellation(6),
    "cancellation-8": RuleOptions.cancellation(8),
    "cancellation-11": RuleOptions.cancellation(11),
    "standard-4-options": RuleOptions.standard(
        4,
        first_lead=FirstLead.ANY_CLUB,
        qs_lead_requires_broken=True,
        hearts_broken_by=HeartsBrokenBy.DISCARD_ONLY,
        moon_scoring=MoonScoring.CHOICE,
        target_score=50,
    ),
    "standard-4-left-of-dealer": RuleOptions.standard(
        4,
        first_lead=FirstLead.LEFT_OF_DEALER,
        no_points_first_trick=False,
        qs_breaks_hearts=True,
        lead_hearts_if_only_qs_and_hearts=True,
        pass_cycle=PassCycle.NONE,
        moon_scoring=MoonScoring.SUBTRACT_FROM_SELF,
        no_tricks_bonus=-5,
    ),
    "standard-3-unbroken": RuleOptions.standard(
        3,
        must_break_hearts=False,
        pass_cycle=PassCycle.LRH,
        moon_scoring=MoonScoring.AUTO,
        omnibus=True,
        omnibus_moon_requires_bonus=True,
        target_score=150,
    ),
    "cancellation-7-options": RuleOptions.cancellation(
        7,
        cancel_last_trick_no_winner=LastTrickNoWinner.LEADER,
        cancel_leftover_to=LeftoverTo.LAST_TRICK_WINNER,
        moon_value=52,
        no_points_first_trick=True,
    ),
    "cancellation-9-no-pass": RuleOptions.cancellation(9, pass_cycle=PassCycle.NONE),
}


# --- random views -----------------------------------------------------------------------------


def check_decisions(view: PlayerView, seed: int) -> None:
    """Both levels decide legally and reproducibly in `view`."""
    for level in LEVELS:
        if view.phase is Phase.PASS:
            chosen = level.choose_pass(view, random.Random(seed))
            assert len(chosen) == view.options.pass_count
            assert all(isinstance(c, Card) for c in chosen)
            assert remove_cards(view.hand, chosen) is not None, (chosen, view.hand)
            assert level.choose_pass(view, random.Random(seed)) == chosen
        elif view.phase is Phase.PLAY:
            played = level.choose_play(view, random.Random(seed))
            assert played in view.legal, (level.__name__, played, view.legal)
            if len(view.legal) == 1:
                assert played is view.legal[0]
            assert level.choose_play(view, random.Random(seed)) is played
        else:
            scoring = level.choose_moon(view, random.Random(seed))
            assert scoring in (MoonScoring.ADD_TO_OTHERS, MoonScoring.SUBTRACT_FROM_SELF)


def random_hands(options: RuleOptions, seed: int, hands: int) -> int:
    """Play `hands` hands with a random mix of Easy, Medium and random players, checking both
    levels at every decision; return the number of decisions checked."""
    rng = random.Random(seed)
    state = new_game(options)
    checked = 0
    played_hands = 0
    actions = 0
    while played_hands < hands and not state.is_over:
        if state.phase is Phase.DEAL:
            state = apply(state, random_deal(options, rng))
            played_hands += 1
            actions += 1
            continue
        seat = to_act(state)[0]
        view = view_for(state, seat)
        check_decisions(view, rng.randrange(1 << 30))
        checked += 1
        state = apply(state, _any_action(state, view, rng, actions))
        actions += 1
    return checked


def _any_action(state: GameState, view: PlayerView, rng: random.Random, number: int) -> Action:
    """The action of a randomly chosen kind of player: Easy, Medium or uniformly random."""
    kind = rng.randrange(3)
    if kind == 2 and view.phase is Phase.PLAY:
        return rng.choice(legal_actions(state, view.seat))
    if kind == 2 and view.phase is Phase.PASS:
        return Pass(view.seat, rng.sample(view.hand, view.options.pass_count))
    level = "easy" if kind == 0 else "medium"
    return choose_action(view, level, decision_rng(7, number, view.seat))


@pytest.mark.parametrize("table", sorted(TABLES))
def test_bot_09_easy_and_medium_choose_legal_cards_and_passes_on_every_table(table: str) -> None:
    options = TABLES[table]
    hands = 2 if options.is_cancellation else 3
    checked = sum(random_hands(options, seed, hands) for seed in range(3))
    assert checked >= 250


def test_bot_07_same_view_same_seed_gives_the_same_choice_across_levels() -> None:
    state = start_hand(new_game(RuleOptions.standard(4)), seed=11)
    for seat in range(4):
        view = view_for(state, seat)
        for level in LEVELS:
            first = level.choose_pass(view, random.Random(3))
            assert all(level.choose_pass(view, random.Random(3)) == first for _ in range(5))


def test_r4_1_passes_respect_duplicate_cards_in_cancellation() -> None:
    options = RuleOptions.cancellation(6)
    pairs = 0
    for seed in range(40):
        state = start_hand(new_game(options), seed=seed)
        for seat in range(options.num_players):
            view = view_for(state, seat)
            counts = Counter(view.hand)
            pairs += sum(1 for k in counts.values() if k == 2)
            for level in LEVELS:
                chosen = level.choose_pass(view, random.Random(seed))
                assert not Counter(chosen) - counts
    assert pairs > 0


def test_r4_1_medium_passes_both_copies_of_a_queen_pair() -> None:
    options = RuleOptions.cancellation(6)
    mine = cards("QS QS 2C 5C 9C 3D 7D 8D TD 4H 6H 9H JH KH 4S 9S 7C")
    view = view_for(_pass_state(options, mine), 0)
    chosen = medium.choose_pass(view, random.Random(1))
    assert Counter(chosen)[QUEEN_OF_SPADES] == 2


# --- hand-built positions ---------------------------------------------------------------------


def built(
    options: RuleOptions,
    seat: int,
    mine: str,
    *,
    history: Sequence[tuple[int, str]] = (),
    current: Sequence[tuple[int, str]] = (),
    leader: int | None = None,
    hearts_broken: bool = False,
) -> PlayerView:
    """The view of `seat`, holding `mine`, in a position with real earlier tricks.

    Each history entry is (leader, the trick's cards in play order); the winner and collector
    follow R10/R36. The other seats get the remaining cards in any order (only their number
    shows in the view).
    """
    n = options.num_players
    tricks: list[Trick] = []
    for lead, codes in history:
        plays = tuple(((lead + i) % n, card(code)) for i, code in enumerate(codes.split()))
        won = trick_winner(plays)
        tricks.append(Trick(len(tricks) + 1, lead, plays, won, won, (), False))
    played = [(s, card(code)) for s, code in current]
    first = played[0][0] if played else (seat if leader is None else leader)
    hands = _fill_hands(options, seat, cards(mine), tricks, played)
    state = position(
        options,
        hands,
        leader=first,
        current=tuple(current),
        hearts_broken=hearts_broken,
    )
    assert state.hand is not None
    state = dataclasses.replace(state, hand=dataclasses.replace(state.hand, tricks=tuple(tricks)))
    view = view_for(state, seat)
    assert view.phase is Phase.PLAY and view.legal, "the position must be this seat's turn"
    return view


def _fill_hands(
    options: RuleOptions,
    seat: int,
    mine: tuple[Card, ...],
    tricks: list[Trick],
    played: list[tuple[int, Card]],
) -> list[tuple[Card, ...]]:
    """Deal the cards nobody has seen to the other seats, sized as the position needs."""
    n = options.num_players
    size = hand_size(options) - len(tricks)
    assert len(mine) == size, f"this position needs {size} cards in the hand"
    rest = Counter(deck_for(options))
    rest.subtract(mine)
    for t in tricks:
        rest.subtract(t.cards)
    rest.subtract(c for _, c in played)
    assert not -rest, "a card is used twice"
    pool = sorted(rest.elements())
    already = {s for s, _ in played}
    hands: list[tuple[Card, ...]] = []
    for s in range(n):
        if s == seat:
            hands.append(mine)
            continue
        k = size - (1 if s in already else 0)
        hands.append(tuple(pool[:k]))
        pool = pool[k:]
    return hands


def _pass_state(options: RuleOptions, mine: tuple[Card, ...]) -> GameState:
    """Hand 1 (a passing hand) with seat 0 holding `mine`; the rest dealt in order."""
    rest = Counter(deck_for(options))
    rest.subtract(mine)
    pool = sorted(rest.elements())
    size = hand_size(options)
    hands = [mine] + [
        tuple(pool[i * size : (i + 1) * size]) for i in range(options.num_players - 1)
    ]
    kitty = pool[(options.num_players - 1) * size :]
    return start_hand(new_game(options), hands, kitty)


STANDARD = RuleOptions.standard(4)
TRICK_1 = (S, "2C AC 9C 5C")
"""West wins trick 1 with the ace of clubs and leads trick 2."""
TRICK_1_NORTH = (S, "2C 5C AC 9C")
"""North wins trick 1 and leads trick 2: South plays third."""
TRICK_1_EAST = (S, "2C 5C 9C AC")
"""East wins trick 1 and leads trick 2: South plays second."""
SOUTH_WITH_QUEEN = "QS 3S 4D 6D 8D 3C 7C 2H 5H 9H JH KH"


def spade_trick_south_last() -> PlayerView:
    """South, last to play to a spade trick, holds `QS` and `3S`: the queen would win it."""
    return built(
        STANDARD,
        S,
        SOUTH_WITH_QUEEN,
        history=[TRICK_1],
        current=[(W, "5S"), (N, "9S"), (E, "TS")],
    )


def test_medium_tip_11_3_1_never_plays_queen_onto_a_spade_trick_it_would_win() -> None:
    view = spade_trick_south_last()
    assert set(view.legal) == set(cards("QS 3S"))
    assert medium.choose_play(view, random.Random(0)) == card("3S")


def test_bot_04_easy_does_not_play_queen_onto_a_spade_trick_it_would_win() -> None:
    view = spade_trick_south_last()
    choices = {easy.choose_play(view, random.Random(seed)) for seed in range(100)}
    assert choices == {card("3S")}


def test_bot_04_easy_does_not_take_a_trick_holding_the_queen_when_it_can_lose() -> None:
    view = built(
        STANDARD,
        S,
        "KD 4D 6D 3S 5S 3C 7C 2H 5H 9H JH KH",
        history=[TRICK_1_NORTH],
        current=[(N, "8D"), (E, "QS")],
    )
    choices = {easy.choose_play(view, random.Random(seed)) for seed in range(100)}
    assert choices == set(cards("4D 6D"))


def test_bot_04_easy_keeps_as_ks_off_a_spade_trick_while_the_queen_is_out() -> None:
    view = built(
        STANDARD,
        S,
        "AS 4S 2S 4D 6D 8D 3C 7C 2H 5H 9H JH",
        history=[TRICK_1_EAST],
        current=[(E, "5S")],
    )
    choices = {easy.choose_play(view, random.Random(seed)) for seed in range(100)}
    assert choices == set(cards("2S 4S"))


def test_medium_tip_11_3_14_ducks_under_a_queen_discarded_on_the_trick() -> None:
    view = built(
        STANDARD,
        S,
        "KD 4D 6D 3S 5S 3C 7C 2H 5H 9H JH KH",
        history=[TRICK_1_NORTH],
        current=[(N, "8D"), (E, "QS")],
    )
    chosen = medium.choose_play(view, random.Random(0))
    assert chosen == card("6D")  # the highest diamond that still loses


def test_medium_tip_11_3_9_drops_queen_under_someone_elses_king() -> None:
    view = built(
        STANDARD,
        S,
        "QS 8S 2S 4D 6D 8D 3C 7C 2H 5H 9H JH",
        history=[TRICK_1_NORTH],
        current=[(N, "4S"), (E, "KS")],
    )
    assert medium.choose_play(view, random.Random(0)) is QUEEN_OF_SPADES


def test_medium_r10_ducks_with_the_highest_card_that_still_loses() -> None:
    view = built(
        STANDARD,
        S,
        "2H 8H KH 4D 6D 8D 3C 7C 3S 5S 9S JS",
        history=[TRICK_1_EAST],
        current=[(E, "9H")],
        hearts_broken=True,
    )
    assert medium.choose_play(view, random.Random(0)) == card("8H")


def test_medium_tip_11_3_8_discards_queen_when_void_in_the_led_suit() -> None:
    view = built(
        STANDARD,
        S,
        "QS 3S 5S 3C 7C 8C 2H 5H 9H JH KH AH",
        history=[TRICK_1_EAST],
        current=[(E, "8D")],
    )
    assert medium.choose_play(view, random.Random(0)) is QUEEN_OF_SPADES


def test_medium_tip_11_3_14_discards_high_spade_while_queen_is_out() -> None:
    view = built(
        STANDARD,
        S,
        "AS 3S 5S 3C 7C 8C 2H 5H 9H JH KH 4C",
        history=[TRICK_1_EAST],
        current=[(E, "8D")],
    )
    assert medium.choose_play(view, random.Random(0)) == card("AS")


def test_medium_tip_11_3_4_leads_low_spade_to_smoke_out_queen() -> None:
    history = [(S, "2C 3C 4C 5C"), (E, "2D AD 3D 5D")]  # East wins trick 1, South trick 2
    view = built(STANDARD, S, "3S 7S 9S 4D 8D KD 6C 9C JC TC 6H", history=history)
    assert view.leader == S
    assert medium.choose_play(view, random.Random(0)) == card("3S")


def test_medium_tip_11_3_1_passes_queen_ace_king_of_spades_when_short_of_low_spades() -> None:
    mine = cards("QS KS AS 3S 4C 5C 7D 8D 9D 2H 5H 8H TC")
    view = view_for(_pass_state(STANDARD, mine), 0)
    assert set(medium.choose_pass(view, random.Random(0))) == set(cards("QS KS AS"))


def test_medium_tip_11_3_1_keeps_a_well_guarded_queen() -> None:
    mine = cards("QS 2S 4S 6S 8S 4C 5C 7D 8D 9D 2H 5H AH")
    view = view_for(_pass_state(STANDARD, mine), 0)
    chosen = medium.choose_pass(view, random.Random(0))
    assert QUEEN_OF_SPADES not in chosen
    assert card("AH") in chosen


def test_medium_tip_11_3_6_leads_a_sure_heart_to_stop_the_moon() -> None:
    history = [
        (S, "2C 3C 4C AC"),  # East wins
        (E, "KS 2H 5S QS"),  # East takes 2H and the queen
        (E, "KD 2D 3H 4D"),  # East takes 3H: every penalty card so far is East's
        (E, "5C KC 7C 6C"),  # South wins a clean trick and leads
    ]
    view = built(STANDARD, S, "AH 9H 8C 9C 6D 7D 8D TD JD", history=history, hearts_broken=True)
    assert medium.situation(view).mode is medium.Mode.STOP
    assert medium.choose_play(view, random.Random(0)) == card("AH")


def test_medium_r20_takes_the_omnibus_bonus_card_when_last() -> None:
    options = RuleOptions.standard(4, omnibus=True)
    view = built(
        options,
        S,
        "AD 3D 4S 5S 7S 3C 7C 2H 5H 9H JH KH",
        history=[TRICK_1],
        current=[(W, "5D"), (N, "JD"), (E, "8D")],
    )
    assert medium.choose_play(view, random.Random(0)) == card("AD")


def test_medium_r36_sheds_a_high_card_by_cancelling_its_twin() -> None:
    options = RuleOptions.cancellation(6)
    # A leads 5S, B plays KS; C (seat 2) holds the other KS: it cancels B's and cannot win.
    view = built(
        options,
        2,
        "KS 2S 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D 2H 3H 4H",
        current=[(0, "5S"), (1, "KS")],
    )
    chosen = medium.choose_play(view, random.Random(0))
    assert chosen == card("KS")
    assert trick_winner((*view.current, (2, chosen))) == 0


def test_bot_04_easy_passes_high_cards_more_often_than_low_ones() -> None:
    state = start_hand(new_game(STANDARD), seed=5)
    view = view_for(state, 0)
    passed: Counter[int] = Counter()
    for seed in range(300):
        passed.update(c.rank for c in easy.choose_pass(view, random.Random(seed)))
    held = sorted(view.hand, key=lambda c: c.rank)
    low, high = held[0].rank, held[-1].rank
    assert passed[high] > passed[low]
    mean = sum(r * k for r, k in passed.items()) / sum(passed.values())
    assert mean > sum(c.rank for c in held) / len(held)


def test_r12_5_both_levels_answer_a_moon_choice() -> None:
    # South holds every club, so it wins every trick and the others discard all their cards.
    options = RuleOptions.standard(4, moon_scoring=MoonScoring.CHOICE, pass_cycle=PassCycle.NONE)
    clubs = tuple(c for c in deck_for(options) if c.suit.value == "C")
    others = sorted(c for c in deck_for(options) if c.suit.value != "C")
    state = start_hand(new_game(options), [clubs, others[:13], others[13:26], others[26:]])
    number = 1
    while state.phase is Phase.PLAY:
        view = view_for(state, to_act(state)[0])
        state = apply(state, choose_action(view, "medium", decision_rng(0, number, view.seat)))
        number += 1
    assert state.phase is Phase.MOON_CHOICE and state.moon_shooter == S
    view = view_for(state, S)
    for level in LEVELS:
        action = MoonChoice(S, level.choose_moon(view, random.Random(0)))
        assert apply(state, action).results[-1].shooter == S


def test_bot_09_a_single_legal_card_is_returned_as_is() -> None:
    view = built(STANDARD, S, SOUTH_WITH_QUEEN, history=[TRICK_1_EAST], current=[(E, "9D")])
    assert len(view.legal) == 3
    view = dataclasses.replace(view, legal=(card("4D"),))
    for level in LEVELS:
        assert level.choose_play(view, random.Random(0)) == card("4D")
