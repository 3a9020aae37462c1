"""The engine's one way to change a game: `apply(state, action)`, with whose turn it is, the
legal actions, seeded deals and replay.

`apply` validates the whole action before building the next state and raises
`IllegalActionError` (naming the rule) or `InvalidActionError`; the state passed in is frozen, so
a refused action can never have changed it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from itertools import combinations
from typing import TypeVar

from app.engine.actions import MOON_CHOICES, Action, Deal, MoonChoice, Pass, Play
from app.engine.cards import QUEEN_OF_SPADES, Card, Hand, Suit, remove_cards
from app.engine.errors import IllegalActionError, InvalidActionError
from app.engine.options import FirstLead, LastTrickNoWinner, LeftoverTo, MoonScoring, RuleOptions
from app.engine.rules import breaks_hearts, illegal_play_rule, trick_winner
from app.engine.rules import legal_cards as _legal_cards
from app.engine.scoring import HandScore, find_shooter, game_winners, score_hand
from app.engine.state import GameHeader, GameState, HandResult, HandState, Phase, Trick, evolve
from app.engine.table import (
    PassDirection,
    dealer_of_hand,
    deck_for,
    hand_size,
    kitty_size,
    lowest_club,
    pass_direction,
    pass_target,
    points_of,
)

T = TypeVar("T")


def new_game(options: RuleOptions, first_dealer: int = 0) -> GameState:
    """A game before its first deal (phase `DEAL`)."""
    GameHeader(options, first_dealer)  # validates the dealer
    n = options.num_players
    return GameState(
        options=options,
        first_dealer=first_dealer,
        phase=Phase.DEAL,
        hand=None,
        results=(),
        totals=(0,) * n,
        winners=(),
        moon_shooter=None,
    )


def random_deal(options: RuleOptions, rng: random.Random) -> Deal:
    """A uniformly shuffled deal of the pack in play (R3.1, R15, R32.1)."""
    deck = list(deck_for(options))
    rng.shuffle(deck)
    size = hand_size(options)
    n = options.num_players
    return Deal(tuple(tuple(deck[i * size : (i + 1) * size]) for i in range(n)), deck[n * size :])


def seeded_deal(options: RuleOptions, seed: int) -> Deal:
    """The deal a seed gives: `random_deal` with `random.Random(seed)`."""
    return random_deal(options, random.Random(seed))


def start_hand(
    state: GameState,
    hands: Iterable[Iterable[Card | str]] | None = None,
    kitty: Iterable[Card | str] = (),
    *,
    seed: int | None = None,
) -> GameState:
    """Deal the next hand from explicit cards per seat, or from a seeded random deal."""
    if hands is None:
        if seed is None:
            raise InvalidActionError("start_hand needs either the hands or a seed")
        return apply(state, seeded_deal(state.options, seed))
    return apply(state, Deal(hands, kitty))


def replay(header: GameHeader, actions: Iterable[Action]) -> GameState:
    """The state reached by applying `actions` in order to a new game of `header`."""
    state = new_game(header.options, header.first_dealer)
    for action in actions:
        state = apply(state, action)
    return state


def to_act(state: GameState) -> tuple[int, ...]:
    """The seats that may act now: every seat yet to pass, the seat to play, or the shooter."""
    hand = state.hand
    if state.phase is Phase.PASS and hand is not None:
        return tuple(s for s, p in enumerate(hand.passed) if p is None)
    if state.phase is Phase.PLAY and hand is not None:
        return (hand.to_play,)
    if state.phase is Phase.MOON_CHOICE and state.moon_shooter is not None:
        return (state.moon_shooter,)
    return ()


def current_seat(state: GameState) -> int | None:
    """The seat to play a card, or None outside the play phase."""
    hand = state.hand
    return hand.to_play if state.phase is Phase.PLAY and hand is not None else None


def legal_cards(state: GameState, seat: int) -> Hand:
    """The distinct cards `seat` may play now (R9); empty unless it is that seat's turn."""
    hand = state.hand
    if state.phase is not Phase.PLAY or hand is None or hand.to_play != seat:
        return ()
    return _legal_cards(
        state.options, hand.hands[seat], hand.current, hand.trick_number, hand.hearts_broken
    )


def legal_actions(state: GameState, seat: int | None = None) -> tuple[Action, ...]:
    """Every legal action now (of `seat` only, if given); the deal, a chance action, is not."""
    hand = state.hand
    seats = [s for s in to_act(state) if seat is None or s == seat]
    if hand is None or not seats:
        return ()
    if state.phase is Phase.PASS:
        count = state.options.pass_count
        return tuple(
            Pass(s, combo)
            for s in seats
            for combo in dict.fromkeys(combinations(hand.hands[s], count))
        )
    if state.phase is Phase.PLAY:
        return tuple(Play(seats[0], c) for c in legal_cards(state, seats[0]))
    return tuple(MoonChoice(seats[0], choice) for choice in MOON_CHOICES)


def apply(state: GameState, action: Action) -> GameState:
    """The state after `action`; raises without changing anything if the action is not legal."""
    if state.phase is Phase.GAME_OVER:
        raise IllegalActionError("R13.2", "the game is over")
    if isinstance(action, Play):
        return _play(state, action)
    if isinstance(action, Pass):
        return _pass(state, action)
    if isinstance(action, Deal):
        return _deal(state, action)
    if isinstance(action, MoonChoice):
        return _moon_choice(state, action)
    raise InvalidActionError(f"not an action: {action!r}")


def _check_seat(state: GameState, seat: int) -> None:
    if not 0 <= seat < state.num_players:
        raise InvalidActionError(f"there is no seat {seat} at a {state.num_players}-player table")


# --- the deal ---------------------------------------------------------------------------------


def _deal(state: GameState, deal: Deal) -> GameState:
    o = state.options
    n = o.num_players
    if state.phase is not Phase.DEAL:
        raise IllegalActionError("R3.2", "the next hand is dealt only after this one is scored")
    rule = "R32.1" if o.is_cancellation else ("R3.1" if n == 4 else "R15")
    size = hand_size(o)
    if len(deal.hands) != n or any(len(h) != size for h in deal.hands):
        raise IllegalActionError(rule, f"deal {size} cards to each of the {n} seats")
    if len(deal.kitty) != kitty_size(o):
        raise IllegalActionError(rule, f"the kitty holds {kitty_size(o)} cards")
    if tuple(sorted(c for h in (*deal.hands, deal.kitty) for c in h)) != deck_for(o):
        raise IllegalActionError(rule, "the deal must be exactly the pack in play")
    number = state.hand_number + 1
    dealer = dealer_of_hand(state.first_dealer, number, n)
    direction = pass_direction(o, number)
    hold = direction is PassDirection.HOLD
    hand = HandState(
        number=number,
        dealer=dealer,
        direction=direction,
        dealt=deal.hands,
        kitty=deal.kitty,
        hands=deal.hands,
        passed=((),) * n if hold else (None,) * n,
        received=((),) * n,
        tricks=(),
        current=(),
        leader=_first_leader(o, deal.hands, dealer) if hold else dealer,
        hearts_broken=not o.must_break_hearts,  # R8.1
        pot=(),
        taken=((),) * n,
        tricks_won=(0,) * n,
        uncollected=(),
        kitty_collector=None,
        kitty_settled=not deal.kitty,
    )
    phase = Phase.PLAY if hold else Phase.PASS  # R4.5
    return evolve(state, phase=phase, hand=hand, moon_shooter=None)


def _first_leader(options: RuleOptions, hands: tuple[Hand, ...], dealer: int) -> int:
    """Who leads trick 1: left of the dealer (R34.1, R5.4) or the lowest club's holder (R5)."""
    if options.first_lead is FirstLead.LEFT_OF_DEALER:
        return (dealer + 1) % options.num_players
    low = lowest_club(options)
    return next(seat for seat, h in enumerate(hands) if low in h)


# --- passing ----------------------------------------------------------------------------------


def _pass(state: GameState, action: Pass) -> GameState:
    o = state.options
    hand = state.hand
    _check_seat(state, action.seat)
    if hand is None or state.phase is not Phase.PASS:
        if hand is not None and state.phase is Phase.PLAY and hand.direction is PassDirection.HOLD:
            raise IllegalActionError("R4.5", "there is no passing in a hold hand")
        raise IllegalActionError("R4.7", "cards are passed only before the first trick")
    if hand.passed[action.seat] is not None:
        raise IllegalActionError("R4.7", "this seat has already passed")
    if len(action.cards) != o.pass_count:
        raise IllegalActionError("R4.7", f"pass exactly {o.pass_count} cards")
    kept = remove_cards(hand.hands[action.seat], action.cards)
    if kept is None:
        raise IllegalActionError("R4.7", "only cards in your own hand can be passed")
    passed = _set(hand.passed, action.seat, action.cards)
    hands = _set(hand.hands, action.seat, kept)
    if not all(p is not None for p in passed):
        return evolve(state, hand=evolve(hand, passed=passed, hands=hands))
    # Everyone has committed: exchange all at once (R4.3).
    n = o.num_players
    new_hands = list(hands)
    received: list[Hand] = [()] * n
    for seat, cards in enumerate(passed):
        assert cards is not None
        target = pass_target(seat, hand.direction, n)
        received[target] = cards
        new_hands[target] = tuple(sorted(new_hands[target] + cards))
    final = tuple(new_hands)
    exchanged = evolve(
        hand,
        passed=passed,
        hands=final,
        received=tuple(received),
        leader=_first_leader(o, final, hand.dealer),
    )
    return evolve(state, phase=Phase.PLAY, hand=exchanged)


# --- playing ----------------------------------------------------------------------------------


def _play(state: GameState, action: Play) -> GameState:
    o = state.options
    hand = state.hand
    _check_seat(state, action.seat)
    if hand is None or state.phase is not Phase.PLAY:
        if state.phase is Phase.PASS:
            raise IllegalActionError("R4.3", "cards are played only after every seat has passed")
        if state.phase is Phase.MOON_CHOICE:
            raise IllegalActionError("R12.5", "the hand is over; the shooter must choose")
        raise IllegalActionError("R3.2", "no hand is in progress")
    seat, played = action.seat, action.card
    if seat != hand.to_play:
        raise IllegalActionError("R14.2", f"it is seat {hand.to_play}'s turn, not seat {seat}'s")
    own = hand.hands[seat]
    reason = illegal_play_rule(o, own, hand.current, hand.trick_number, hand.hearts_broken, played)
    if reason is not None:
        raise IllegalActionError(*reason)
    is_discard = bool(hand.current) and played.suit is not hand.current[0][1].suit
    remaining = list(own)
    remaining.remove(played)
    hand = evolve(
        hand,
        hands=_set(hand.hands, seat, tuple(remaining)),
        current=(*hand.current, (seat, played)),
        hearts_broken=hand.hearts_broken or breaks_hearts(o, played, is_discard),
    )
    if len(hand.current) < o.num_players:
        return evolve(state, hand=hand)
    hand = _finish_trick(o, hand)
    if any(hand.hands):
        return evolve(state, hand=hand)
    return _score(state, hand, None)


def _finish_trick(o: RuleOptions, hand: HandState) -> HandState:
    """Decide the trick and hand its cards, the pot and perhaps the kitty to the collector."""
    plays = hand.current
    number = hand.trick_number
    is_last = not any(hand.hands)
    winner = trick_winner(plays)
    collector = winner
    if winner is None and is_last and o.cancel_last_trick_no_winner is LastTrickNoWinner.LEADER:
        collector = hand.leader  # R38.2 option
    cards = tuple(c for _, c in plays)
    # R32.2: the kitty goes with trick 1 (and rides in the pot if trick 1 has no winner);
    # R32.3: or with the last trick.
    kitty_goes = not hand.kitty_settled and (
        o.cancel_leftover_to is LeftoverTo.FIRST_TRICK_WINNER or is_last
    )
    kitty = hand.kitty if kitty_goes else ()
    taken, tricks_won, pot, uncollected = hand.taken, hand.tricks_won, hand.pot, hand.uncollected
    kitty_collector, kitty_settled = hand.kitty_collector, hand.kitty_settled
    if collector is not None:
        taken = _set(taken, collector, tuple(sorted(taken[collector] + cards + pot + kitty)))
        tricks_won = _set(tricks_won, collector, tricks_won[collector] + 1)
        if kitty_goes:
            kitty_collector, kitty_settled = collector, True
        trick = Trick(number, hand.leader, plays, winner, collector, pot, kitty_goes)
        pot = ()
    elif is_last:  # R38.1: nobody collects the last trick nor the waiting pot
        uncollected = tuple(sorted(uncollected + cards + pot + kitty))
        kitty_settled = True
        trick = Trick(number, hand.leader, plays, None, None, (), False)
        pot = ()
    else:  # R37.1: the cards wait for the next winner
        trick = Trick(number, hand.leader, plays, None, None, (), False)
        pot = tuple(sorted(pot + cards))
    return evolve(
        hand,
        tricks=(*hand.tricks, trick),
        current=(),
        leader=hand.leader if collector is None else collector,  # R10.2, R37.2
        pot=pot,
        taken=taken,
        tricks_won=tricks_won,
        uncollected=uncollected,
        kitty_collector=kitty_collector,
        kitty_settled=kitty_settled,
    )


# --- scoring ----------------------------------------------------------------------------------


def _moon_choice(state: GameState, action: MoonChoice) -> GameState:
    _check_seat(state, action.seat)
    if state.phase is not Phase.MOON_CHOICE or state.hand is None:
        raise IllegalActionError("R12.5", "no moon choice is pending")
    if action.seat != state.moon_shooter:
        raise IllegalActionError("R12.5", "only the shooter chooses how the moon scores")
    return _score(state, state.hand, action.scoring)


def _score(state: GameState, hand: HandState, choice: MoonScoring | None) -> GameState:
    """Score the finished hand, or wait for the shooter's choice (R11–R13)."""
    o = state.options
    score = score_hand(o, hand.taken, hand.tricks_won, state.totals, choice)
    if score is None:
        shooter = find_shooter(o, hand.taken)
        return evolve(state, phase=Phase.MOON_CHOICE, hand=hand, moon_shooter=shooter)
    totals = tuple(t + p for t, p in zip(state.totals, score.points, strict=True))
    result = _result(o, hand, score, totals)
    winners = game_winners(o, totals)
    return evolve(
        state,
        phase=Phase.GAME_OVER if winners else Phase.DEAL,
        hand=hand,
        results=(*state.results, result),
        totals=totals,
        winners=winners,
        moon_shooter=None,
    )


def _result(
    o: RuleOptions, hand: HandState, score: HandScore, totals: tuple[int, ...]
) -> HandResult:
    bonus = o.bonus_card
    return HandResult(
        number=hand.number,
        dealer=hand.dealer,
        direction=hand.direction,
        points=score.points,
        totals=totals,
        shooter=score.shooter,
        moon_scoring=score.moon_scoring,
        hearts=tuple(sum(1 for c in t if c.suit is Suit.HEARTS) for t in hand.taken),
        queens=tuple(sum(1 for c in t if c is QUEEN_OF_SPADES) for t in hand.taken),
        bonus_cards=tuple(sum(1 for c in t if c is bonus) for t in hand.taken),
        tricks_won=hand.tricks_won,
        uncollected_points=points_of(o, hand.uncollected),
    )


def _set(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])
