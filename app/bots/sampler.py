"""Hidden-card layouts consistent with a view (the Hard player's "imagined" deals).

`sample_world(knowledge, rng)` deals the cards a seat has not seen to the places they can be
(`sample_worlds` and a `Sampler` draw many for one view, working out the places once):
other seats' hands (each keeps its size, receives no card of a suit it showed void in, and holds
the cards this seat passed it), the committed but unexchanged passes of other seats, and the face-
down kitty. Two identical cards of Cancellation Hearts are handled as counts. `to_state` turns a
world into a full `GameState` whose view for the seat equals the original view, which is the
sampler's invariant (tested).

The cards are placed by `Sampler._assign` (Python's `random.shuffle` and `random.choices`); many
layouts at once are placed by its compiled twin (`sampler_compiled.assign_many`), which draws the
very same numbers from the same generator, so the layouts are the same either way (tested).
"""

from __future__ import annotations

import random
from collections import Counter, deque
from dataclasses import dataclass
from operator import attrgetter

import numpy as np

from app.bots.knowledge import Knowledge, know
from app.bots.sampler_compiled import assign_many
from app.engine import (
    Card,
    GameState,
    Hand,
    HandState,
    PassDirection,
    Phase,
    RuleOptions,
    Suit,
    apply,
    new_game,
    pass_target,
    random_deal,
    view_for,
)


@dataclass(frozen=True, slots=True)
class World:
    """One possible layout of the hidden cards."""

    hands: tuple[Hand, ...]
    """Every seat's current hand (the viewing seat's own hand included)."""
    kitty: Hand
    passes: tuple[Hand | None, ...]
    """Committed passes not yet exchanged (pass phase only); None where not committed."""


@dataclass(slots=True)
class _Slot:
    """A place hidden cards go to: capacity and the suits and cards it may not take."""

    capacity: int
    banned_suits: frozenset[Suit]
    banned_cards: frozenset[Card]

    def accepts(self, c: Card) -> bool:
        return c.suit not in self.banned_suits and c not in self.banned_cards


class ImpossibleViewError(ValueError):
    """No layout of the hidden cards is consistent with the view (a corrupt view)."""


def sample_world(knowledge: Knowledge, rng: random.Random) -> World:
    """A random layout of the hidden cards consistent with everything the seat knows."""
    return Sampler(knowledge).draw(rng)


def sample_worlds(knowledge: Knowledge, rng: random.Random, count: int) -> list[World]:
    """`count` layouts, as `sample_world` draws them one after another."""
    return Sampler(knowledge).draw_many(rng, count)


def warm_up() -> None:
    """Compile the placing of cards (`sampler_compiled.assign_many`) now, or read it from
    Numba's cache."""
    options = RuleOptions.standard()
    state = apply(new_game(options), random_deal(options, random.Random(0)))
    sample_worlds(know(view_for(state, 0)), random.Random(0), 1)


_INDEX = attrgetter("index")
"""The sort key of cards (their order), without a Python call per comparison."""


class Sampler:
    """Draws layouts for one view: the places, their room and what each may take are worked
    out once, so each layout costs only its shuffle and the placing of its cards."""

    def __init__(self, knowledge: Knowledge) -> None:
        view = knowledge.view
        n = view.num_players
        me = view.seat
        none: frozenset[Card] = frozenset()
        slots: list[_Slot] = []
        self._hand_slot: dict[int, int] = {}
        self._pass_slot: dict[int, int] = {}
        pool = Counter(knowledge.unseen)
        for seat in range(n):
            if seat == me:
                continue
            known = knowledge.known[seat]
            pool.subtract(known)
            self._hand_slot[seat] = len(slots)
            size = view.hand_sizes[seat] - sum(known.values())
            slots.append(_Slot(size, knowledge.voids[seat], knowledge.forbidden[seat]))
            if view.phase is Phase.PASS and view.passes_committed[seat]:
                self._pass_slot[seat] = len(slots)
                slots.append(_Slot(view.options.pass_count, frozenset(), none))
        self._kitty_slot = None
        if view.kitty is None and view.kitty_size:
            self._kitty_slot = len(slots)
            slots.append(_Slot(view.kitty_size, frozenset(), none))
        cards = sorted(pool.elements())
        if any(k < 0 for k in pool.values()) or len(cards) != sum(s.capacity for s in slots):
            raise ImpossibleViewError("the hidden cards do not fit the hidden places")
        self._knowledge = knowledge
        self._slots = slots
        self._cards = cards
        banned = set().union(*(s.banned_cards for s in slots))
        by_suit = {
            suit: [j for j, s in enumerate(slots) if suit not in s.banned_suits] for suit in Suit
        }
        self._eligible = {
            c: [j for j, s in enumerate(slots) if s.accepts(c)] if c in banned else by_suit[c.suit]
            for c in set(cards)
        }
        self._choices = {c: len(places) for c, places in self._eligible.items()}
        self._constrained = sum(1 for c in cards if self._choices[c] < len(slots))
        self._known = {seat: list(knowledge.known[seat].elements()) for seat in self._hand_slot}
        # The same facts as arrays, for the compiled placing (`sampler_compiled.assign_many`).
        self._choice_counts = np.array([self._choices[c] for c in cards], dtype=np.int64)
        self._accepts = np.zeros((len(cards), len(slots)), dtype=np.bool_)
        for p, c in enumerate(cards):
            self._accepts[p, self._eligible[c]] = True
        self._capacity = np.array([s.capacity for s in slots], dtype=np.int64)
        self._card_array = np.empty(len(cards), dtype=object)
        self._card_array[:] = cards
        ends = np.cumsum(self._capacity).tolist()
        self._cuts = list(zip([0, *ends[:-1]], ends, strict=True))

    def draw(self, rng: random.Random) -> World:
        """A random layout of the hidden cards consistent with everything the seat knows."""
        return self.draw_many(rng, 1)[0]

    def draw_many(self, rng: random.Random, count: int) -> list[World]:
        """`count` layouts, the same as `draw` one after another gives (the same numbers drawn
        from `rng`), their cards placed by the compiled `assign_many`; a layout that needs cards
        moved to make room is placed by `_assign`. A generator other than a plain `random.Random`
        (whose numbers the compiled twister would not reproduce) is left to `_assign` alone."""
        if type(rng) is not random.Random:
            return [self._world(self._assign(rng)) for _ in range(count)]
        version, words, gauss = rng.getstate()
        mt = np.array(words[:-1], dtype=np.int64)
        index = np.array(words[-1:], dtype=np.int64)
        where = np.empty((count, len(self._cards)), dtype=np.int64)
        layouts: list[list[list[Card]] | None] = [None] * count
        done = 0
        while done < count:
            done += assign_many(
                mt,
                index,
                count - done,
                self._choice_counts,
                self._accepts,
                self._capacity,
                self._constrained,
                where[done:],
            )
            if done < count:  # cards to move along a chain of places: the Python way
                rng.setstate((version, (*mt.tolist(), int(index[0])), gauss))
                layouts[done] = self._assign(rng)
                version, words, gauss = rng.getstate()
                mt[:] = words[:-1]
                index[0] = words[-1]
                done += 1
        rng.setstate((version, (*mt.tolist(), int(index[0])), gauss))
        # Each layout's cards grouped by slot (in card order within one): cut at the capacities.
        grouped = self._card_array[np.argsort(where, axis=1, kind="stable")].tolist()
        cuts = self._cuts
        worlds = []
        for d, python_placed in enumerate(layouts):
            row = grouped[d]
            placed = [row[a:b] for a, b in cuts] if python_placed is None else python_placed
            worlds.append(self._world(placed))
        return worlds

    def _world(self, placed: list[list[Card]]) -> World:
        """The layout with the hidden cards `placed` in each slot."""
        view = self._knowledge.view
        hands: list[Hand] = []
        for seat in range(view.num_players):
            if seat == view.seat:
                hands.append(view.hand)
            else:
                held = [*self._known[seat], *placed[self._hand_slot[seat]]]
                hands.append(tuple(sorted(held, key=_INDEX)))
        passes = tuple(
            tuple(sorted(placed[self._pass_slot[s]], key=_INDEX)) if s in self._pass_slot else None
            for s in range(view.num_players)
        )
        kitty = view.kitty or ()
        if self._kitty_slot is not None:
            kitty = tuple(sorted(placed[self._kitty_slot], key=_INDEX))
        return World(tuple(hands), kitty, passes)

    def _assign(self, rng: random.Random) -> list[list[Card]]:
        """Put every card in a slot that accepts it, filling each slot exactly.

        Cards go in random order, most constrained first, each to an open slot chosen with
        weight equal to its free room (a uniform deal when nothing is constrained). When every
        accepting slot is full, an augmenting path moves cards along to make room, so a layout
        is found whenever one exists.
        """
        slots = self._slots
        eligible = self._eligible
        order = self._cards[:]
        rng.shuffle(order)
        order.sort(key=self._choices.__getitem__)
        room = [s.capacity for s in slots]
        placed: list[list[Card]] = [[] for _ in slots]
        # Cards every slot accepts come last: dealing them one by one with weights equal to the
        # free room is the same as cutting their (already shuffled) order into the free room.
        free = order[self._constrained :]
        for c in order[: self._constrained]:
            open_slots = [j for j in eligible[c] if room[j] > 0]
            if open_slots:
                j = rng.choices(open_slots, weights=[room[j] for j in open_slots])[0]
                placed[j].append(c)
                room[j] -= 1
                continue
            if not _augment(c, eligible, placed, room, slots):
                raise ImpossibleViewError(f"no place can take {c}")
        start = 0
        for j, free_room in enumerate(room):
            placed[j].extend(free[start : start + free_room])
            start += free_room
        return placed


def _augment(
    c: Card,
    eligible: dict[Card, list[int]],
    placed: list[list[Card]],
    room: list[int],
    slots: list[_Slot],
) -> bool:
    """Place `c` by moving cards along a chain of slots to one with room (BFS)."""
    parent: dict[int, tuple[int, Card] | None] = dict.fromkeys(eligible[c])
    queue = deque(eligible[c])
    while queue:
        j = queue.popleft()
        if room[j] > 0:
            # Walk back: each moved card leaves its slot for the next one in the chain.
            room[j] -= 1
            incoming = j
            step = parent[j]
            while step is not None:
                source, moved = step
                placed[source].remove(moved)
                placed[incoming].append(moved)
                incoming = source
                step = parent[source]
            placed[incoming].append(c)
            return True
        for moved in placed[j]:
            for k in range(len(slots)):
                if k not in parent and slots[k].accepts(moved):
                    parent[k] = (j, moved)
                    queue.append(k)
    return False


def to_state(knowledge: Knowledge, world: World) -> GameState:
    """A full game state with `world`'s hidden cards whose view for the seat is the original.

    Defined for the decisions a computer player makes: the pass and the play phases.
    """
    view = knowledge.view
    if view.phase not in (Phase.PASS, Phase.PLAY):
        raise ValueError("worlds are built for the pass and play phases only")
    n = view.num_players
    me = view.seat
    direction = view.direction
    holdings = [Counter(world.hands[s]) + Counter(knowledge.played_by[s]) for s in range(n)]
    if view.phase is Phase.PASS:
        passed: list[Hand | None] = list(world.passes)
        passed[me] = view.passed
        received: list[Hand] = [()] * n
        dealt = [tuple(sorted(holdings[s].elements())) for s in range(n)]
        for s, p in enumerate(passed):
            if p is not None and s != me:
                dealt[s] = tuple(sorted([*dealt[s], *p]))
        dealt[me] = view.dealt
        leader = view.dealer
    elif direction is PassDirection.HOLD:
        passed, received = [()] * n, [()] * n
        dealt = [tuple(sorted(holdings[s].elements())) for s in range(n)]
        leader = _leader(view.leader)
    else:
        received = [()] * n
        assert view.received is not None and view.passed is not None
        received[me] = view.received
        received[pass_target(me, direction, n)] = view.passed
        for s in range(n):
            if s not in (me, pass_target(me, direction, n)):
                # Any three of a seat's post-exchange cards can have come from its passer.
                received[s] = tuple(sorted(holdings[s].elements()))[: view.options.pass_count]
        passed = [received[pass_target(s, direction, n)] for s in range(n)]
        dealt = []
        for s in range(n):
            pre = holdings[s] - Counter(received[s]) + Counter(passed[s] or ())
            dealt.append(tuple(sorted(pre.elements())))
        dealt[me] = view.dealt
        leader = _leader(view.leader)

    taken = [list(t) for t in knowledge.taken]
    collector = view.kitty_collector
    if collector is not None and collector != me:
        taken[collector].extend(world.kitty)
    tricks_won = [0] * n
    for t in view.tricks:
        if t.collector is not None:
            tricks_won[t.collector] += 1
    hand = HandState(
        number=view.hand_number,
        dealer=view.dealer,
        direction=direction,
        dealt=tuple(dealt),
        kitty=world.kitty,
        hands=world.hands,
        passed=tuple(passed),
        received=tuple(received),
        tricks=view.tricks,
        current=view.current,
        leader=leader,
        hearts_broken=view.hearts_broken,
        pot=view.pot,
        taken=tuple(tuple(sorted(t)) for t in taken),
        tricks_won=tuple(tricks_won),
        uncollected=(),
        kitty_collector=collector,
        kitty_settled=collector is not None or not world.kitty,
    )
    return GameState(
        options=view.options,
        first_dealer=(view.dealer - view.hand_number + 1) % n,
        phase=view.phase,
        hand=hand,
        results=view.results,
        totals=view.totals,
        winners=view.winners,
        moon_shooter=view.moon_shooter,
    )


def _leader(leader: int | None) -> int:
    if leader is None:
        raise ValueError("the view has no leader after the exchange")
    return leader
