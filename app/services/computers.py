"""The computer players' turns between two decisions of the human, and where they are thought.

`plan` is a pure function of the game state and stored data: it lets every computer seat act
(passes, cards, a moon choice) until the human must decide, the hand is over or the game ends.
Each decision's random generator comes from the game's seed and the action's number in the log
(`decision_rng`), so planning the same position twice gives the same actions, wherever it runs.

Easy and Medium decide in well under a millisecond and are planned on the request's thread.
Hard and Expert think for tens to hundreds of milliseconds of pure CPU; on a request thread they
would hold the interpreter and stall every other player's request, so they are planned in a small
pool of worker processes (`Thinkers`). The pool's queue is bounded: past it, the request is answered
"busy, retry" at once instead of waiting behind other players' thinking.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeoutError
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from typing import Any, TypeVar

from app.bots import Level, choose_action, decision_rng, hard
from app.engine import Action, GameState, Phase, PlayerView, apply, to_act, view_for
from app.services.database import ServiceUnavailableError
from app.store.models import HUMAN

T = TypeVar("T")

HEAVY = frozenset({Level.HARD.value, Level.EXPERT.value})
"""Levels whose thinking goes to the worker processes."""
_PLANNING = (Phase.PASS, Phase.PLAY, Phase.MOON_CHOICE)


def plan(
    state: GameState,
    seats: tuple[str, ...],
    seed: int,
    number: int,
    think_s: float | None = None,
) -> list[Action]:
    """The computer players' actions from `state`, whose next action is number `number` of the
    log, until a human decides (passes are simultaneous: the computers pass even while the human
    has not), the hand is over or the game ends.

    With `think_s`, planning stops once that many seconds have been spent and at least one
    action is planned: the game is stored at a computer's turn and the page asks for the rest
    (`games.advance`). Only how the actions are split between responses depends on the clock,
    never an action: a play is seeded by its number in the log, and a pass by the number of the
    hand's first pass (every seat passes once) and chosen from the view as the pass began
    (`pass_view`), in whatever order the human's pass falls."""
    started = time.monotonic()
    actions: list[Action] = []
    while state.phase in _PLANNING:
        bots = [s for s in to_act(state) if seats[s] != HUMAN]
        if not bots:
            break
        if actions and think_s is not None and time.monotonic() - started >= think_s:
            break
        seat = bots[0]
        at = number + len(actions)
        if state.phase is Phase.PASS and state.hand is not None:
            at -= sum(p is not None for p in state.hand.passed)
            view = pass_view(state, seat)
        else:
            view = view_for(state, seat)
        action = choose_action(view, seats[seat], decision_rng(seed, at, seat))
        actions.append(action)
        state = apply(state, action)
    return actions


def pass_view(state: GameState, seat: int) -> PlayerView:
    """The view `seat` chooses its pass from: its view as the pass began, before any seat
    committed. Passes are simultaneous (R4.3): whose pass was committed first tells nothing of
    the cards, so it must not change a pass either."""
    view = view_for(state, seat)
    hand = state.hand
    if state.phase is not Phase.PASS or hand is None:
        return view
    n = state.num_players
    return replace(
        view,
        to_act=tuple(range(n)),
        passes_committed=(False,) * n,
        hand_sizes=tuple(len(h) for h in hand.dealt),
    )


def _warm() -> None:
    """Import the bots and the engine in a new worker, and compile their hot loops (or read them
    from Numba's cache), before its first real task."""
    hard.warm_up()


class Thinkers:
    """Plans the computer players' turns: in this thread for light levels, in worker processes
    for Hard and Expert. `processes=0` plans everything in the calling thread (tests, tools)."""

    def __init__(
        self,
        processes: int = 1,
        max_pending: int = 8,
        timeout_s: float = 5.0,
        waiting: Callable[[], AbstractContextManager[None]] = nullcontext,
        chunk_s: float | None = None,
    ) -> None:
        self.processes = processes
        self.max_pending = max_pending
        self.timeout_s = timeout_s
        self.chunk_s = chunk_s
        """The most seconds of Hard's and Expert's thinking planned for one response (`plan`'s
        `think_s`; None: up to the human's decision, however long)."""
        self.waiting = waiting
        """Entered around each wait for a worker process (the web layer lets other requests
        run meanwhile)."""
        self._pool: ProcessPoolExecutor | None = None
        self._pending = 0
        self._lock = threading.Lock()
        self._start_lock = threading.Lock()

    def start(self) -> None:
        """Start the worker processes now (at server start-up) rather than on first use."""
        if self.processes > 0:
            self._started()

    def _started(self) -> ProcessPoolExecutor:
        with self._start_lock:
            if self._pool is None:
                # Workers are spawned, never forked: the server process runs threads.
                context = multiprocessing.get_context("spawn")
                pool = ProcessPoolExecutor(self.processes, mp_context=context)
                for future in [pool.submit(_warm) for _ in range(self.processes)]:
                    future.result()
                self._pool = pool
            return self._pool

    def plan(
        self, state: GameState, seats: tuple[str, ...], seed: int, number: int
    ) -> list[Action]:
        """The computers' actions until the human decides (see `plan`), planned where fits."""
        if not HEAVY.intersection(seats):
            return plan(state, seats, seed, number)
        return self.think(plan, state, seats, seed, number, self.chunk_s)

    def think(self, task: Callable[..., T], *args: Any) -> T:
        """`task(*args)` in a worker process (in this thread with `processes=0`): heavy
        thinking, such as Hard's, that must not hold this process's interpreter. The task and its
        arguments go to another process: a module-level function and picklable values."""
        if self.processes <= 0:
            return task(*args)
        with self._lock:
            if self._pending >= self.max_pending:
                raise ServiceUnavailableError("the computer players are busy thinking")
            self._pending += 1
        try:
            pool = self._pool or self._started()
            future: Future[T] = pool.submit(task, *args)
            try:
                with self.waiting():
                    return future.result(timeout=self.timeout_s)
            except FutureTimeoutError:
                future.cancel()
                raise ServiceUnavailableError("the computer players took too long") from None
        finally:
            with self._lock:
                self._pending -= 1

    def close(self) -> None:
        """Stop the worker processes."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
