"""Cancellation Hearts test vectors TV-46 … TV-57 (RULES.md §10.7, rules R30–R42, R8–R13).

Seats are 0 … n−1 clockwise: A = 0, B = 1, C = 2, … (RULES.md §0.2). Every trick is played
through `apply`; positions late in a hand are built with `tests.engine.helpers.position`, and
whole hands are dealt with `start_hand` and played card by card.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import pytest

from app.engine import (
    FULL_DECK,
    QUEEN_OF_SPADES,
    Card,
    GameState,
    Hand,
    IllegalActionError,
    MoonChoice,
    MoonScoring,
    Pass,
    PassDirection,
    Phase,
    Play,
    RuleOptions,
    Suit,
    apply,
    auto_moon_scoring,
    card,
    cards,
    current_seat,
    deck_for,
    hand_size,
    kitty_size,
    legal_actions,
    legal_cards,
    new_game,
    pass_direction,
    pass_source,
    pass_target,
    points_of,
    start_hand,
    to_act,
    view_for,
)
from tests.engine.helpers import E_, A, B, C, D, F, position

OPTIONS_6 = RuleOptions.cancellation(6)
TWO_DECKS: Hand = tuple(sorted(FULL_DECK + FULL_DECK))
PENALTY_CARDS: Hand = tuple(c for c in TWO_DECKS if c.suit is Suit.HEARTS or c is QUEEN_OF_SPADES)


# --- helpers ----------------------------------------------------------------------------------


def play_trick(state: GameState, plays: Sequence[tuple[int, str]]) -> GameState:
    """Play the listed cards through `apply`, checking each seat is the one to play."""
    for seat, code in plays:
        assert current_seat(state) == seat, (
            f"expected seat {seat} to play, not {current_seat(state)}"
        )
        state = apply(state, Play(seat, code))
    return state


def fill_hands(
    required: Sequence[str],
    kitty: str,
    *,
    avoid: dict[int, set[Suit]] | None = None,
    size: int = 17,
) -> tuple[Hand, ...]:
    """Six 17-card hands of the two-deck pack: each seat's required cards, then the rest of the
    pack (without the kitty) handed out in order, skipping suits a seat must be void in."""
    pool = list(TWO_DECKS)
    for c in cards(kitty):
        pool.remove(c)
    hands: list[list[Card]] = []
    for codes in required:
        held = list(cards(codes))
        for c in held:
            pool.remove(c)
        hands.append(held)
    banned = avoid or {}
    for seat, held in enumerate(hands):
        while len(held) < size:
            c = next(c for c in pool if c.suit not in banned.get(seat, set()))
            pool.remove(c)
            held.append(c)
    assert not pool
    return tuple(tuple(sorted(h)) for h in hands)


def deal_reaching(
    final: tuple[Hand, ...], direction: PassDirection
) -> tuple[tuple[Hand, ...], tuple[Hand, ...]]:
    """Dealt hands and passes such that, after the exchange, every seat holds `final`.

    Each seat passes three cards of its receiver's final hand (the receiver's three highest)."""
    n = len(final)
    passes = tuple(tuple(final[pass_target(s, direction, n)][-3:]) for s in range(n))
    dealt: list[Hand] = []
    for seat in range(n):
        held = list(final[seat])
        for c in passes[pass_source(seat, direction, n)]:
            held.remove(c)
        dealt.append(tuple(sorted(held + list(passes[seat]))))
    return tuple(dealt), passes


def exchange(state: GameState, passes: tuple[Hand, ...]) -> GameState:
    """Every seat commits its pass through `apply`."""
    assert state.phase is Phase.PASS
    for seat, passed in enumerate(passes):
        state = apply(state, Pass(seat, passed))
    return state


def start_full_hand(
    options: RuleOptions, state: GameState, final: tuple[Hand, ...], kitty: str
) -> GameState:
    """Deal the next hand so that, after this hand's passing, the seats hold `final`."""
    direction = pass_direction(options, state.hand_number + 1)
    dealt, passes = deal_reaching(final, direction)
    state = start_hand(state, dealt, cards(kitty))
    assert state.hand is not None
    assert state.hand.direction is direction
    state = exchange(state, passes)
    assert state.phase is Phase.PLAY
    assert state.hand is not None
    assert state.hand.hands == final
    return state


def finish_hand_randomly(state: GameState, rng: random.Random) -> GameState:
    """Play the current hand to its end with random legal actions (moon choices included)."""
    number = state.hand_number
    while state.phase in (Phase.PASS, Phase.PLAY, Phase.MOON_CHOICE):
        if state.phase is Phase.PASS:
            for seat in to_act(state):
                assert state.hand is not None
                state = apply(state, Pass(seat, rng.sample(state.hand.hands[seat], 3)))
        else:
            state = apply(state, rng.choice(legal_actions(state)))
    assert state.hand_number == number
    assert len(state.results) == number
    return state


# --- TV-46 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "each", "kitty"),
    [(6, 17, 2), (7, 14, 6), (8, 13, 0), (9, 11, 5), (10, 10, 4), (11, 9, 5)],
)
def test_tv46_cards_per_player_and_kitty_size(n: int, each: int, kitty: int) -> None:
    """TV-46 (R30.2, R32.1): floor(104 / n) cards each and 104 mod n in the kitty."""
    options = RuleOptions.cancellation(n)
    assert len(deck_for(options)) == 104
    assert Counter(deck_for(options)) == Counter(dict.fromkeys(FULL_DECK, 2))
    assert hand_size(options) == each
    assert kitty_size(options) == kitty


@pytest.mark.parametrize(
    ("n", "each", "kitty"),
    [(6, 17, 2), (7, 14, 6), (8, 13, 0), (9, 11, 5), (10, 10, 4), (11, 9, 5)],
)
def test_tv46_seeded_deal_has_the_sizes(n: int, each: int, kitty: int) -> None:
    """TV-46 (R32.1, R32.2): a real deal gives `each` cards per seat and a hidden kitty."""
    state = start_hand(new_game(RuleOptions.cancellation(n)), seed=46)
    assert state.hand is not None
    assert [len(h) for h in state.hand.hands] == [each] * n
    assert len(state.hand.kitty) == kitty
    every = [c for h in state.hand.hands for c in h] + list(state.hand.kitty)
    assert Counter(every) == Counter(TWO_DECKS)
    for seat in range(n):
        view = view_for(state, seat)
        assert view.kitty_size == kitty
        assert view.kitty is None


# --- TV-47 ------------------------------------------------------------------------------------


def test_tv47_identical_kings_cancel_jack_wins() -> None:
    """TV-47 (R36.1, R36.4): the two KC cancel; JC is the highest uncancelled club, A wins 1."""
    state = position(
        OPTIONS_6,
        ["JC 2D", "4C 3D", "KC 4D", "KC 5D", "9C 6D", "2H 7D"],
        leader=A,
        trick_number=4,
    )
    state = play_trick(state, [(A, "JC"), (B, "4C"), (C, "KC"), (D, "KC"), (E_, "9C"), (F, "2H")])
    hand = state.hand
    assert hand is not None
    trick = hand.tricks[-1]
    assert trick.number == 4
    assert trick.winner == A
    assert trick.collector == A
    assert hand.taken[A] == cards("JC 4C KC KC 9C 2H")
    assert all(hand.taken[s] == () for s in (B, C, D, E_, F))
    assert points_of(OPTIONS_6, hand.taken[A]) == 1
    assert hand.tricks_won == (1, 0, 0, 0, 0, 0)
    assert hand.pot == ()
    assert hand.leader == A
    assert current_seat(state) == A
    assert hand.hearts_broken is True  # F's 2H (R35.3)


# --- TV-48 ------------------------------------------------------------------------------------


def test_tv48_led_queen_cancelled_nine_of_spades_wins() -> None:
    """TV-48 (R36.3, R36.6, R35.4 "Aardvark"): A leads QS, B cancels it with the other QS; the
    led suit stays spades, D's 9S wins 27 points; hearts are broken afterwards."""
    state = position(
        OPTIONS_6,
        ["QS 3D", "QS 4D", "5S 5D", "9S 6D", "2S 7D", "AH 8D"],
        leader=A,
        trick_number=5,
    )
    assert state.hand is not None
    assert state.hand.hearts_broken is False
    assert legal_cards(state, A) == cards("3D QS")  # R35.4: QS may be led at any time
    state = play_trick(state, [(A, "QS")])
    assert legal_cards(state, B) == cards("QS")  # R36.3: B must follow spades
    state = play_trick(state, [(B, "QS"), (C, "5S"), (D, "9S"), (E_, "2S"), (F, "AH")])
    hand = state.hand
    assert hand is not None
    trick = hand.tricks[-1]
    assert trick.number == 5
    assert trick.winner == D
    assert trick.collector == D
    assert hand.taken[D] == cards("QS QS 5S 9S 2S AH")
    assert points_of(OPTIONS_6, hand.taken[D]) == 27
    assert hand.tricks_won == (0, 0, 0, 1, 0, 0)
    assert hand.pot == ()
    assert hand.leader == D
    assert current_seat(state) == D
    assert hand.hearts_broken is True


def test_tv48_queen_of_spades_breaks_hearts_as_soon_as_it_is_played() -> None:
    """TV-48 (R35.3, R8.2, R8.3): with `qs_breaks_hearts = true` the led QS breaks hearts."""
    state = position(
        OPTIONS_6,
        ["QS 3D", "QS 4D", "5S 5D", "9S 6D", "2S 7D", "AH 8D"],
        leader=A,
        trick_number=5,
    )
    state = play_trick(state, [(A, "QS")])
    assert state.hand is not None
    assert state.hand.hearts_broken is True


# --- TV-49 ------------------------------------------------------------------------------------


def test_tv49_two_pairs_no_winner_pot_to_next_winner() -> None:
    """TV-49 (R36.5, R37.1, R37.2; seed 003's example): no uncancelled spade → no winner, the
    six cards (2 points) wait in the pot, A leads again, and D's KD collects all 12 cards."""
    state = position(
        OPTIONS_6,
        ["TS 5D 2C", "9H 8D 3C", "9H 2D 4C", "TS KD 5C", "3D 4D 6C", "7C 6D 8C"],
        leader=A,
        trick_number=5,
    )
    state = play_trick(state, [(A, "TS"), (B, "9H"), (C, "9H"), (D, "TS"), (E_, "3D"), (F, "7C")])
    hand = state.hand
    assert hand is not None
    trick5 = hand.tricks[-1]
    assert trick5.number == 5
    assert trick5.winner is None
    assert trick5.collector is None
    assert hand.pot == cards("TS 9H 9H TS 3D 7C")
    assert points_of(OPTIONS_6, hand.pot) == 2
    assert hand.taken == ((),) * 6
    assert hand.tricks_won == (0,) * 6
    assert hand.leader == A  # R37.2
    assert current_seat(state) == A
    assert hand.hearts_broken is True  # R35.5
    assert view_for(state, E_).pot == cards("TS 9H 9H TS 3D 7C")

    state = play_trick(state, [(A, "5D"), (B, "8D"), (C, "2D"), (D, "KD"), (E_, "4D"), (F, "6D")])
    hand = state.hand
    assert hand is not None
    trick6 = hand.tricks[-1]
    assert trick6.number == 6
    assert trick6.winner == D
    assert trick6.collector == D
    assert trick6.pot_taken == cards("TS 9H 9H TS 3D 7C")
    assert hand.taken[D] == cards("TS 9H 9H TS 3D 7C 5D 8D 2D KD 4D 6D")
    assert len(hand.taken[D]) == 12
    assert points_of(OPTIONS_6, hand.taken[D]) == 2
    assert all(hand.taken[s] == () for s in (A, B, C, E_, F))
    assert hand.tricks_won == (0, 0, 0, 1, 0, 0)
    assert hand.pot == ()
    assert hand.leader == D


def test_tv49_pot_grows_over_two_winnerless_tricks() -> None:
    """TV-49 (R37.1, R37.2, R37.3): a second winnerless trick joins the pot, the same leader
    leads again, and the next winner (F) collects all 18 cards (5 points)."""
    state = position(
        OPTIONS_6,
        ["TS 5D 2C AH", "9H 5D 3C KH", "9H 4H 4C QH", "TS 8S 5C JH", "3D 7H 6C TH", "7C 8H 8C AH"],
        leader=A,
        trick_number=5,
    )
    state = play_trick(state, [(A, "TS"), (B, "9H"), (C, "9H"), (D, "TS"), (E_, "3D"), (F, "7C")])
    state = play_trick(state, [(A, "5D"), (B, "5D"), (C, "4H"), (D, "8S"), (E_, "7H"), (F, "8H")])
    hand = state.hand
    assert hand is not None
    assert hand.tricks[-1].number == 6
    assert hand.tricks[-1].winner is None
    assert hand.pot == cards("TS 9H 9H TS 3D 7C 5D 5D 4H 8S 7H 8H")
    assert points_of(OPTIONS_6, hand.pot) == 5
    assert hand.taken == ((),) * 6
    assert hand.leader == A
    state = play_trick(state, [(A, "2C"), (B, "3C"), (C, "4C"), (D, "5C"), (E_, "6C"), (F, "8C")])
    hand = state.hand
    assert hand is not None
    trick7 = hand.tricks[-1]
    assert trick7.winner == F
    assert trick7.pot_taken == cards("TS 9H 9H TS 3D 7C 5D 5D 4H 8S 7H 8H")
    assert hand.taken[F] == cards("TS 9H 9H TS 3D 7C 5D 5D 4H 8S 7H 8H 2C 3C 4C 5C 6C 8C")
    assert points_of(OPTIONS_6, hand.taken[F]) == 5
    assert hand.tricks_won == (0, 0, 0, 0, 0, 1)
    assert hand.pot == ()
    assert hand.leader == F


# --- TV-50 ------------------------------------------------------------------------------------


def test_tv50_two_pairs_and_uncancelled_spade_wins() -> None:
    """TV-50 (R36.5, R36.6, D-20): two pairs, but E's 5S is an uncancelled spade → E wins 2."""
    state = position(
        OPTIONS_6,
        ["TS 2D", "9H 3D", "9H 4D", "TS 5D", "5S 6D", "2C 7D"],
        leader=A,
        trick_number=6,
    )
    state = play_trick(state, [(A, "TS"), (B, "9H"), (C, "9H"), (D, "TS"), (E_, "5S"), (F, "2C")])
    hand = state.hand
    assert hand is not None
    trick = hand.tricks[-1]
    assert trick.number == 6
    assert trick.winner == E_
    assert trick.collector == E_
    assert hand.taken[E_] == cards("TS 9H 9H TS 5S 2C")
    assert points_of(OPTIONS_6, hand.taken[E_]) == 2
    assert hand.tricks_won == (0, 0, 0, 0, 1, 0)
    assert hand.pot == ()
    assert hand.leader == E_
    assert hand.hearts_broken is True


# --- TV-51 ------------------------------------------------------------------------------------

KITTY_51 = "5H 9C"


def test_tv51a_first_trick_winner_collects_the_kitty() -> None:
    """TV-51 (a) (R32.1, R32.2, R34.1): a full 6-player deal (17 each, kitty 5H 9C); trick 1 is
    won by C, who collects its 6 cards and the kitty (1 point); only C sees the kitty."""
    final = fill_hands(["7D", "3D", "AD", "4D", "5D", "6D"], KITTY_51)
    state = start_full_hand(OPTIONS_6, new_game(OPTIONS_6, first_dealer=A), final, KITTY_51)
    hand = state.hand
    assert hand is not None
    assert hand.dealer == A
    assert hand.leader == B  # R34.1
    assert hand.kitty == cards(KITTY_51)
    for seat in range(6):
        view = view_for(state, seat)
        assert view.kitty_size == 2
        assert view.kitty is None
        assert view.kitty_collector is None

    state = play_trick(state, [(B, "3D"), (C, "AD"), (D, "4D"), (E_, "5D"), (F, "6D"), (A, "7D")])
    hand = state.hand
    assert hand is not None
    trick = hand.tricks[-1]
    assert trick.number == 1
    assert trick.winner == C
    assert trick.collector == C
    assert trick.kitty_taken is True
    assert hand.kitty_collector == C
    assert hand.taken[C] == cards("3D AD 4D 5D 6D 7D 5H 9C")
    assert points_of(OPTIONS_6, hand.taken[C]) == 1
    assert all(hand.taken[s] == () for s in (A, B, D, E_, F))
    assert hand.tricks_won == (0, 0, 1, 0, 0, 0)
    assert hand.pot == ()
    assert hand.leader == C
    assert hand.hearts_broken is False  # R32.2: kitty cards do not break hearts
    for seat in range(6):
        view = view_for(state, seat)
        assert view.kitty_collector == C
        assert view.kitty == (cards(KITTY_51) if seat == C else None)


def test_tv51b_winnerless_first_trick_kitty_goes_to_trick2_winner() -> None:
    """TV-51 (b) (R32.2, R37.1, R37.2): trick 1 has no winner (the two 3D cancel, the others
    discard); B leads again and D wins trick 2, collecting both tricks' 12 cards and the kitty."""
    every_diamond = " ".join(f"{r}D" for r in "23456789TJQKA")
    final = fill_hands(
        [
            "JS 6C",
            every_diamond + " 2C",
            every_diamond + " 3C",
            "8S KC",
            "2H 4C",
            "9S 5C",
        ],
        KITTY_51,
        avoid={A: {Suit.DIAMONDS}, D: {Suit.DIAMONDS}, E_: {Suit.DIAMONDS}, F: {Suit.DIAMONDS}},
    )
    state = start_full_hand(OPTIONS_6, new_game(OPTIONS_6, first_dealer=A), final, KITTY_51)
    assert state.hand is not None
    assert state.hand.leader == B

    trick1 = [(B, "3D"), (C, "3D"), (D, "8S"), (E_, "2H"), (F, "9S"), (A, "JS")]
    state = play_trick(state, trick1)
    hand = state.hand
    assert hand is not None
    assert hand.tricks[-1].winner is None
    assert hand.tricks[-1].collector is None
    assert hand.tricks[-1].kitty_taken is False
    assert hand.pot == cards("3D 3D 8S 2H 9S JS")
    assert hand.kitty_collector is None
    assert hand.taken == ((),) * 6
    assert hand.leader == B  # R37.2
    for seat in range(6):
        assert view_for(state, seat).kitty is None

    trick2 = [(B, "2C"), (C, "3C"), (D, "KC"), (E_, "4C"), (F, "5C"), (A, "6C")]
    state = play_trick(state, trick2)
    hand = state.hand
    assert hand is not None
    trick = hand.tricks[-1]
    assert trick.number == 2
    assert trick.winner == D
    assert trick.collector == D
    assert trick.pot_taken == cards("3D 3D 8S 2H 9S JS")
    assert trick.kitty_taken is True
    assert hand.kitty_collector == D
    assert hand.taken[D] == cards("3D 3D 8S 2H 9S JS 2C 3C KC 4C 5C 6C 5H 9C")
    assert points_of(OPTIONS_6, hand.taken[D]) == 2  # 2H from trick 1, 5H from the kitty
    assert all(hand.taken[s] == () for s in (A, B, C, E_, F))
    assert hand.tricks_won == (0, 0, 0, 1, 0, 0)
    assert hand.pot == ()
    assert hand.leader == D
    for seat in range(6):
        view = view_for(state, seat)
        assert view.kitty_collector == D
        assert view.kitty == (cards(KITTY_51) if seat == D else None)


def test_tv51_kitty_card_does_not_cancel_a_played_twin() -> None:
    """TV-51 (R32.2): kitty cards take no part in cancellation — C's 9C wins trick 1 although
    the other 9C lies in the kitty; C collects the trick and the kitty."""
    final = fill_hands(["7C", "2C", "9C", "4C", "5C", "6C"], KITTY_51)
    state = start_full_hand(OPTIONS_6, new_game(OPTIONS_6, first_dealer=A), final, KITTY_51)
    state = play_trick(state, [(B, "2C"), (C, "9C"), (D, "4C"), (E_, "5C"), (F, "6C"), (A, "7C")])
    hand = state.hand
    assert hand is not None
    assert hand.tricks[-1].winner == C
    assert hand.kitty_collector == C
    assert hand.taken[C] == cards("2C 9C 4C 5C 6C 7C 5H 9C")


# --- TV-52 ------------------------------------------------------------------------------------


def _with_taken(state: GameState, seat: int, taken: Sequence[Card]) -> GameState:
    """The same position with `seat` having collected `taken` in earlier tricks."""
    assert state.hand is not None
    hand = state.hand
    new_taken = tuple(tuple(sorted(taken)) if s == seat else t for s, t in enumerate(hand.taken))
    won = tuple(16 if s == seat else 0 for s in range(6))
    return replace(state, hand=replace(hand, taken=new_taken, tricks_won=won))


def _minus(items: Sequence[Card], codes: str) -> list[Card]:
    remaining = list(items)
    for c in cards(codes):
        remaining.remove(c)
    return remaining


def test_tv52_last_trick_without_winner_is_collected_by_nobody() -> None:
    """TV-52 (R38.1, R39.1, R40.1): the last trick (trick 17, one card each) has no winner:
    nobody collects it, its 15 points are unscored, and D — who took every other penalty card —
    has not shot the moon."""
    state = position(
        OPTIONS_6,
        ["7C", "7C", "3H", "3H", "QS", "8D"],
        leader=A,
        trick_number=17,
        hearts_broken=True,
    )
    state = _with_taken(state, D, _minus(PENALTY_CARDS, "3H 3H QS"))
    state = play_trick(state, [(A, "7C"), (B, "7C"), (C, "3H"), (D, "3H"), (E_, "QS"), (F, "8D")])
    hand = state.hand
    assert hand is not None
    trick = hand.tricks[-1]
    assert trick.number == 17
    assert trick.winner is None
    assert trick.collector is None
    assert hand.uncollected == cards("7C 7C 3H 3H QS 8D")
    assert points_of(OPTIONS_6, hand.uncollected) == 15
    assert hand.pot == ()
    assert hand.taken[D] == tuple(sorted(_minus(PENALTY_CARDS, "3H 3H QS")))
    assert all(hand.taken[s] == () for s in (A, B, C, E_, F))
    assert state.phase is Phase.DEAL
    assert state.moon_shooter is None
    result = state.results[-1]
    assert result.shooter is None
    assert result.moon_scoring is None
    assert result.uncollected_points == 15
    assert result.points == (0, 0, 0, 37, 0, 0)
    assert state.totals == (0, 0, 0, 37, 0, 0)
    assert result.hearts == (0, 0, 0, 24, 0, 0)
    assert result.queens == (0, 0, 0, 1, 0, 0)


def test_tv52_waiting_pot_is_not_collected_after_winnerless_last_trick() -> None:
    """TV-52 (R37.1, R38.1): trick 16 has no winner (pot, 1 point) and A leads trick 17, which
    has no winner either: nobody collects either trick; 16 points are reported uncollected."""
    state = position(
        OPTIONS_6,
        ["5C 7C", "5C 7C", "3H 4H", "3H 9S", "QS 2D", "8D TD"],
        leader=A,
        trick_number=16,
        hearts_broken=True,
    )
    state = _with_taken(state, D, _minus(PENALTY_CARDS, "3H 3H QS 4H"))
    state = play_trick(state, [(A, "5C"), (B, "5C"), (C, "4H"), (D, "9S"), (E_, "2D"), (F, "TD")])
    hand = state.hand
    assert hand is not None
    assert hand.tricks[-1].winner is None
    assert hand.pot == cards("5C 5C 4H 9S 2D TD")
    assert hand.leader == A
    state = play_trick(state, [(A, "7C"), (B, "7C"), (C, "3H"), (D, "3H"), (E_, "QS"), (F, "8D")])
    hand = state.hand
    assert hand is not None
    assert hand.tricks[-1].winner is None
    assert hand.tricks[-1].collector is None
    assert hand.tricks[-1].pot_taken == ()
    assert hand.pot == ()
    assert hand.uncollected == cards("5C 5C 4H 9S 2D TD 7C 7C 3H 3H QS 8D")
    assert hand.taken[D] == tuple(sorted(_minus(PENALTY_CARDS, "3H 3H QS 4H")))
    assert all(hand.taken[s] == () for s in (A, B, C, E_, F))
    result = state.results[-1]
    assert result.shooter is None
    assert result.uncollected_points == 16
    assert result.points == (0, 0, 0, 36, 0, 0)
    assert state.phase is Phase.DEAL


# --- TV-53 ------------------------------------------------------------------------------------

B_HAND_53 = "AH QS 3C 7D 2H 9H 4S 5S 6D 8D TC JC KD 2S 3S 4D 5C"
C_HAND_53 = "QS QS 2H 2H 3H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"


def test_tv53_dealer_and_first_leader_over_two_hands() -> None:
    """TV-53 (R31.1, R34.1, R34.2, R34.3): hand 1 dealer A → B leads trick 1 with anything but a
    heart or QS; after a complete hand 1, hand 2's dealer is B and C leads; C's 17 cards are only
    hearts and QS, so every one of them may be led."""
    game = new_game(OPTIONS_6, first_dealer=A)
    final1 = fill_hands(["", B_HAND_53, "", "", "", ""], KITTY_51)
    state = start_full_hand(OPTIONS_6, game, final1, KITTY_51)
    hand = state.hand
    assert hand is not None
    assert hand.number == 1
    assert hand.dealer == A
    assert hand.direction is PassDirection.LEFT
    assert hand.leader == B
    assert to_act(state) == (B,)
    assert hand.hands[B] == cards(B_HAND_53)
    assert legal_cards(state, B) == cards("3C 7D 4S 5S 6D 8D TC JC KD 2S 3S 4D 5C")
    assert view_for(state, B).legal == cards("3C 7D 4S 5S 6D 8D TC JC KD 2S 3S 4D 5C")
    for seat in (A, C, D, E_, F):
        assert legal_cards(state, seat) == ()

    state = finish_hand_randomly(state, random.Random(53))
    assert state.phase is Phase.DEAL
    assert state.results[0].dealer == A

    final2 = fill_hands(["", "", C_HAND_53, "", "", ""], "7S 8S")
    state = start_full_hand(OPTIONS_6, state, final2, "7S 8S")
    hand = state.hand
    assert hand is not None
    assert hand.number == 2
    assert hand.dealer == B
    assert hand.direction is PassDirection.RIGHT
    assert hand.leader == C
    assert to_act(state) == (C,)
    assert hand.hands[C] == cards(C_HAND_53)
    legal = legal_cards(state, C)
    assert set(legal) == set(cards(C_HAND_53))
    assert len(legal) == 14  # 13 distinct hearts and QS: all 17 cards are legal
    for code in ("QS", "2H", "AH"):
        assert apply(state, Play(C, code)).hand is not None


def test_tv53_first_lead_legal_sets_from_positions() -> None:
    """TV-53 (R34.2, R34.3): trick-1 leader with {AH, QS, 3C, 7D, …} may lead all but hearts and
    QS; with 17 cards of only hearts and QS every card is legal; a heart lead is refused."""
    others = ["2C", "", "3C", "4C", "5C", "6C"]
    hands = list(others)
    hands[B] = B_HAND_53
    state = position(OPTIONS_6, hands, leader=B, trick_number=1, dealer=A)
    assert legal_cards(state, B) == cards("3C 7D 4S 5S 6D 8D TC JC KD 2S 3S 4D 5C")
    hands[B] = C_HAND_53
    state = position(OPTIONS_6, hands, leader=B, trick_number=1, dealer=A)
    assert set(legal_cards(state, B)) == set(cards(C_HAND_53))


# --- TV-54 ------------------------------------------------------------------------------------


def test_tv54_discarded_queen_breaks_hearts_for_the_next_lead() -> None:
    """TV-54 (R35.3, R8.3): F discards QS on trick 3 (no heart played yet); hearts are broken, so
    D, winning with KC and holding {2D, 6H}, may lead either."""
    state = position(
        OPTIONS_6,
        ["4C 2D 3S", "5C 3D 4S", "6C 4D 5S", "KC 2D 6H", "7C 5D 6S", "QS 7D 7S"],
        leader=A,
        trick_number=3,
    )
    state = play_trick(state, [(A, "4C"), (B, "5C"), (C, "6C"), (D, "KC"), (E_, "7C")])
    assert state.hand is not None
    assert state.hand.hearts_broken is False
    state = play_trick(state, [(F, "QS")])
    hand = state.hand
    assert hand is not None
    assert hand.hearts_broken is True
    assert hand.tricks[-1].winner == D
    assert points_of(OPTIONS_6, hand.taken[D]) == 13
    assert hand.leader == D
    assert legal_cards(state, D) == cards("2D 6H")
    after = apply(state, Play(D, "6H"))
    assert after.hand is not None
    assert after.hand.current == ((D, card("6H")),)


@pytest.mark.parametrize("trick_number", [2, 3])
def test_tv54_queen_may_be_led_but_no_heart_while_unbroken(trick_number: int) -> None:
    """TV-54 (R35.3, R35.4, R8.4): leading trick 2 or 3 with hearts unbroken, {QS, 6H, 2D} →
    legal {QS, 2D}; leading 6H is refused with R8.4 and the state is unchanged."""
    state = position(
        OPTIONS_6,
        ["QS 6H 2D", "2C", "3C", "4C", "5C", "6C"],
        leader=A,
        trick_number=trick_number,
    )
    assert legal_cards(state, A) == cards("2D QS")
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalActionError) as err:
        apply(state, Play(A, "6H"))
    assert err.value.rule == "R8.4"
    assert state == snapshot


def test_tv54_first_trick_leader_may_lead_neither_heart_nor_queen() -> None:
    """TV-54 (R34.2): as the trick-1 leader, {QS, 6H, 2D} → legal {2D}."""
    state = position(OPTIONS_6, ["QS 6H 2D", "2C", "3C", "4C", "5C", "6C"], leader=A)
    assert legal_cards(state, A) == cards("2D")


# --- TV-55 ------------------------------------------------------------------------------------

SHOOTER_HAND = "AS AS KS KS QS QS JS JS TS TS 9S 9S 8S 8S 7S 7S 6S"


def moon_hand(options: RuleOptions) -> GameState:
    """A full scripted hand in which C collects all 26 hearts and both QS (kitty included).

    C holds the 17 highest spades; B leads 2S to trick 1, C wins every trick by leading its
    highest spade, and everybody else plays its lowest legal card."""
    final = fill_hands(["", "2S", SHOOTER_HAND, "", "", ""], KITTY_51)
    state = start_full_hand(options, new_game(options, first_dealer=A), final, KITTY_51)
    while state.phase is Phase.PLAY:
        seat = current_seat(state)
        assert seat is not None and state.hand is not None
        legal = legal_cards(state, seat)
        if seat == C:
            chosen = max(legal)
        elif seat == B and state.hand.trick_number == 1:
            chosen = card("2S")
        else:
            chosen = legal[0]
        state = apply(state, Play(seat, chosen))
    hand = state.hand
    assert hand is not None
    assert hand.tricks_won == (0, 0, 17, 0, 0, 0)
    assert hand.kitty_collector == C
    assert Counter(hand.taken[C]) == Counter(TWO_DECKS)
    return state


@pytest.mark.parametrize(
    ("overrides", "points"),
    [
        ({"moon_scoring": "add_to_others"}, (26, 26, 0, 26, 26, 26)),
        ({"moon_scoring": "subtract_from_self"}, (0, 0, -26, 0, 0, 0)),
        ({"moon_scoring": "add_to_others", "moon_value": 52}, (52, 52, 0, 52, 52, 52)),
    ],
)
def test_tv55_moon_scoring(overrides: dict[str, object], points: tuple[int, ...]) -> None:
    """TV-55 (R40.1, R40.2, R40.3, R12.2–R12.4): C collects all 26 hearts and both QS (52
    points, kitty included) → add_to_others: C 0, others +26; subtract_from_self: C −26, others
    0; moon_value 52 with add_to_others: others +52."""
    options = RuleOptions.cancellation(6, **overrides)
    state = moon_hand(options)
    assert state.phase is Phase.DEAL
    result = state.results[-1]
    assert result.shooter == C
    assert result.hearts == (0, 0, 26, 0, 0, 0)
    assert result.queens == (0, 0, 2, 0, 0, 0)
    assert result.uncollected_points == 0
    assert result.points == points
    assert state.totals == points
    assert result.moon_scoring is MoonScoring(str(overrides["moon_scoring"]))


def test_tv55_moon_choice_waits_for_the_shooter() -> None:
    """TV-55 (R40.2, R12.5): with `moon_scoring = choice` (the preset) the engine waits in
    MOON_CHOICE; only C's choice is accepted, the others' are refused with R12.5 unchanged."""
    state = moon_hand(OPTIONS_6)
    assert state.phase is Phase.MOON_CHOICE
    assert state.moon_shooter == C
    assert to_act(state) == (C,)
    assert state.results == ()
    assert state.totals == (0,) * 6
    assert view_for(state, A).moon_shooter == C
    snapshot = copy.deepcopy(state)
    for seat in (A, B, D, E_, F):
        for scoring in ("add_to_others", "subtract_from_self"):
            with pytest.raises(IllegalActionError) as err:
                apply(state, MoonChoice(seat, scoring))
            assert err.value.rule == "R12.5"
            assert state == snapshot
    with pytest.raises(IllegalActionError) as err:
        apply(state, Play(C, "2C"))
    assert err.value.rule == "R12.5"
    assert state == snapshot

    added = apply(state, MoonChoice(C, "add_to_others"))
    assert added.phase is Phase.DEAL
    assert added.results[-1].points == (26, 26, 0, 26, 26, 26)
    assert added.results[-1].moon_scoring is MoonScoring.ADD_TO_OTHERS
    subtracted = apply(state, MoonChoice(C, "subtract_from_self"))
    assert subtracted.results[-1].points == (0, 0, -26, 0, 0, 0)
    assert subtracted.totals == (0, 0, -26, 0, 0, 0)
    assert subtracted.results[-1].shooter == C


def test_tv55_computer_shooter_uses_auto() -> None:
    """TV-55 (R40.2, R12.6): a computer shooter's `auto` rule adds 26 to the others unless that
    would end the game (target 150) with C not the winner."""
    base = (0, 0, 52, 0, 0, 0)
    assert auto_moon_scoring(OPTIONS_6, base, C, (0,) * 6) is MoonScoring.ADD_TO_OTHERS
    # Adding gives A 144, C 145 and others 156: the game ends and A, not C, wins → subtract.
    totals = (118, 130, 145, 130, 130, 130)
    assert auto_moon_scoring(OPTIONS_6, base, C, totals) is MoonScoring.SUBTRACT_FROM_SELF
    state = moon_hand(RuleOptions.cancellation(6, moon_scoring="auto"))
    assert state.results[-1].points == (26, 26, 0, 26, 26, 26)


# --- TV-56 ------------------------------------------------------------------------------------


def test_tv56_pass_direction_left_right_left() -> None:
    """TV-56 (R33.1): hands 1, 2, 3 (and 4) pass left, right, left (right)."""
    assert [pass_direction(OPTIONS_6, k) for k in (1, 2, 3, 4)] == [
        PassDirection.LEFT,
        PassDirection.RIGHT,
        PassDirection.LEFT,
        PassDirection.RIGHT,
    ]


def test_tv56_real_game_passes_left_right_left() -> None:
    """TV-56 (R33.1, R4.3, R31.1): in a real game hands 1, 2, 3 pass left, right, left, each
    seat receiving the cards of its left-hand/right-hand neighbour; the dealer moves left."""
    rng = random.Random(56)
    state = new_game(OPTIONS_6, first_dealer=A)
    expected = [PassDirection.LEFT, PassDirection.RIGHT, PassDirection.LEFT]
    for number, direction in enumerate(expected, start=1):
        state = start_hand(state, seed=560 + number)
        hand = state.hand
        assert hand is not None
        assert hand.number == number
        assert hand.direction is direction
        assert hand.dealer == number - 1
        assert state.phase is Phase.PASS
        for seat in range(6):
            state = apply(state, Pass(seat, rng.sample(hand.hands[seat], 3)))
        hand = state.hand
        assert hand is not None
        offset = 1 if direction is PassDirection.LEFT else -1
        for seat in range(6):
            giver = (seat - offset) % 6
            assert hand.received[seat] == hand.passed[giver]
            assert view_for(state, seat).received_from == giver
        assert hand.leader == number % 6  # left of the dealer (R34.1)
        state = finish_hand_randomly(state, rng)
        assert state.phase is Phase.DEAL
    assert [r.direction for r in state.results] == expected


# --- TV-57 ------------------------------------------------------------------------------------


def test_tv57_queen_may_be_discarded_on_first_trick_by_default() -> None:
    """TV-57 (R35.2): trick 1, B leads 7D; C, void in diamonds, may discard QS (or a heart)."""
    state = position(
        OPTIONS_6,
        ["2D", "8D 9D", "QS 4H 2C 9S", "3D", "4D", "5D"],
        leader=B,
        trick_number=1,
        current=[(B, "7D")],
    )
    assert legal_cards(state, C) == cards("2C 9S QS 4H")
    after = apply(state, Play(C, "QS"))
    assert after.hand is not None
    assert after.hand.current == ((B, card("7D")), (C, card("QS")))


def test_tv57_no_points_first_trick_restricts_the_discard() -> None:
    """TV-57 (R35.2, R7.1, R7.2): with `no_points_first_trick = true`, C may discard QS only when
    holding nothing but hearts and QS; otherwise QS is refused with R7.1, state unchanged."""
    options = RuleOptions.cancellation(6, no_points_first_trick=True)
    state = position(
        options,
        ["2D", "8D 9D", "QS 4H 2C 9S", "3D", "4D", "5D"],
        leader=B,
        trick_number=1,
        current=[(B, "7D")],
    )
    assert legal_cards(state, C) == cards("2C 9S")
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalActionError) as err:
        apply(state, Play(C, "QS"))
    assert err.value.rule == "R7.1"
    assert state == snapshot

    only_penalty = position(
        options,
        ["2D", "8D 9D", "QS 4H 8H", "3D", "4D", "5D"],
        leader=B,
        trick_number=1,
        current=[(B, "7D")],
    )
    assert legal_cards(only_penalty, C) == cards("QS 4H 8H")
    after = apply(only_penalty, Play(C, "QS"))
    assert after.hand is not None
    assert after.hand.current == ((B, card("7D")), (C, card("QS")))


# --- illegal actions --------------------------------------------------------------------------


def test_illegal_actions_are_refused_with_their_rule_and_change_nothing() -> None:
    """R14.2, R35.1 (R6.1), R34.2: failing to follow suit, and leading a heart or QS on trick 1
    while holding other cards, raise `IllegalActionError` naming the rule; the state is ==."""
    following = position(
        OPTIONS_6,
        ["3D", "8D 2C", "QS 4H 2C 9S", "3D", "4D", "5D"],
        leader=A,
        trick_number=4,
        current=[(A, "2D")],
    )
    snapshot = copy.deepcopy(following)
    with pytest.raises(IllegalActionError) as err:
        apply(following, Play(B, "2C"))
    assert err.value.rule == "R6.1"
    assert following == snapshot

    leading = position(
        OPTIONS_6,
        ["2D", "AH QS 7D 3C", "2C", "3D", "4D", "5D"],
        leader=B,
        trick_number=1,
        dealer=A,
    )
    snapshot = copy.deepcopy(leading)
    for code in ("AH", "QS"):
        with pytest.raises(IllegalActionError) as err:
            apply(leading, Play(B, code))
        assert err.value.rule == "R34.2"
        assert leading == snapshot
    with pytest.raises(IllegalActionError) as err:
        apply(leading, Play(C, "2C"))  # out of turn
    assert err.value.rule == "R14.2"
    assert leading == snapshot
