"""Who is asking: the anonymous browser identity, owned by the use cases.

A browser is known by the random token in its session cookie (`players.id`, 256 bits). Reading
needs no player row: a token the database does not know simply owns nothing, so page views never
write. The row is created by the browser's first state-changing request that needs one (a new
game), and `last_seen_at` is refreshed at most once an hour, in the write transaction that
request already runs; each refresh re-sends the cookie, so it lives as long as the retention
period after the last visit.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from threading import Lock

from app.store import repository
from app.store.models import utcnow
from app.store.repository import Executor

SEEN_EVERY = timedelta(hours=1)
"""How often `last_seen_at` is written for a player who keeps playing."""
_TOKEN = re.compile(r"[A-Za-z0-9_-]{22,64}")
NOBODY = "-"
"""A player id no token can be (too short): it owns nothing."""


class RateLimitedError(Exception):
    """This browser or address is over a limit: wait `retry_after` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"over the limit; retry after {retry_after} s")
        self.retry_after = retry_after


def _no_wait() -> int:
    return 0


@dataclass(slots=True)
class Caller:
    """The browser behind a request: its token (shape-checked, maybe unknown to the database)
    and, once a use case ran, the token its cookie must carry from now on (if it changed or is
    due to be refreshed)."""

    token: str | None = None
    wait_to_create: Callable[[], int] = _no_wait
    """Asked once before a new player is created: seconds to wait first (0: create it now), a
    per-address limit kept by the web layer."""
    issued: str | None = None
    """The token to (re)send in the session cookie, if any."""

    @classmethod
    def from_cookie(cls, value: str | None, wait_to_create: Callable[[], int] = _no_wait) -> Caller:
        """The caller of a cookie value; a missing or malformed value is an unknown browser."""
        token = value if value is not None and _TOKEN.fullmatch(value) else None
        return cls(token, wait_to_create)

    @property
    def player_id(self) -> str:
        """The player id to read with (`NOBODY` for an unknown browser)."""
        return self.token or NOBODY


_checked: OrderedDict[str, datetime] = OrderedDict()
"""When this process last recorded (or found recorded) each player's visit: within the hour
after, a move needs no statement for it."""
_checked_lock = Lock()
_CHECKED_SIZE = 10_000


def touch(executor: Executor, caller: Caller, now: datetime | None = None) -> None:
    """Record the caller's visit if its last one is an hour old (and then re-send its cookie);
    nothing for an unknown browser."""
    if caller.token is None:
        return
    now = now or utcnow()
    with _checked_lock:
        checked = _checked.get(caller.token)
    if checked is not None and now - checked < SEEN_EVERY:
        return
    if repository.mark_seen_if_due(executor, caller.token, now, now - SEEN_EVERY):
        caller.issued = caller.token
    _seen(caller.token, now)


def _seen(token: str, now: datetime) -> None:
    with _checked_lock:
        _checked[token] = now
        _checked.move_to_end(token)
        while len(_checked) > _CHECKED_SIZE:
            _checked.popitem(last=False)


def claim(executor: Executor, caller: Caller, now: datetime | None = None) -> tuple[str, bool]:
    """The caller's player id (its visit recorded as `touch` does), and whether it was created
    now, with a fresh token, never the one offered, because the database did not know it. A
    known player's row is locked for the rest of the transaction (one start at a time)."""
    now = now or utcnow()
    touch(executor, caller, now)
    if caller.token is not None and repository.lock_player(executor, caller.token):
        return caller.token, False
    wait = caller.wait_to_create()
    if wait > 0:
        raise RateLimitedError(wait)
    token = repository.insert_player(executor, now)
    caller.token = caller.issued = token
    _seen(token, now)  # its visit is recorded: the next move needs no statement for it
    return token, True
