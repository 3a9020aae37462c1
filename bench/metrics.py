"""What the load benchmark records and how it sums it up.

Two kinds of samples: every HTTP request (its kind, status or error, time, sizes), and every wait
of a player for the server (a card, a new game, a page): the time until the response that lets
the player act again, the page's own pauses left out. A failure is any 5xx, a network error, a
timeout or a 4xx (a single-tab player following the page never expects one; 409 stale would be
a bug); 503 and 429 are counted apart from the other 5xx.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

FAILURE_KINDS = ("5xx", "503", "429", "4xx", "network", "timeout")
"""How a failed request failed, in the order they are printed."""


def outcome(status: int | None, error: str | None) -> str:
    """The kind of failure a request's status or error (network, timeout) is, or "ok"."""
    if error is not None:
        return error
    assert status is not None
    if status == 503:
        return "503"
    if status == 429:
        return "429"
    if status >= 500:
        return "5xx"
    if status >= 400:
        return "4xx"
    return "ok"


@dataclass(frozen=True, slots=True)
class RequestSample:
    """One HTTP request."""

    kind: str
    """page, static, new game, card, hand (next hand, moon), advance, again."""
    group: str
    """The player's level."""
    end: float
    """When it ended (monotonic seconds)."""
    seconds: float
    status: int | None
    error: str | None
    """"network" or "timeout" when there was no response."""
    body_bytes: int = 0
    """The body as read (unpacked)."""
    wire_bytes: int | None = None
    """Content-Length as sent (compressed, if it was), when the response had one."""

    @property
    def outcome(self) -> str:
        """The kind of failure, or "ok"."""
        return outcome(self.status, self.error)


@dataclass(frozen=True, slots=True)
class WaitSample:
    """A player's wait for the server that succeeded: a card (a play or a pass), a hand (next
    hand, moon choice), a new game or a page, until the player could act again."""

    kind: str
    group: str
    end: float
    seconds: float


@dataclass
class Recorder:
    """Collects the samples of one run."""

    requests: list[RequestSample] = field(default_factory=list)
    waits: list[WaitSample] = field(default_factory=list)

    def request(self, sample: RequestSample) -> None:
        """Record one request."""
        self.requests.append(sample)

    def wait(self, sample: WaitSample) -> None:
        """Record one wait."""
        self.waits.append(sample)


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile `q` (0–100) of `values` (not empty)."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True, slots=True)
class Spread:
    """Latency percentiles in milliseconds."""

    count: int
    p50: float
    p95: float
    p99: float
    max: float

    @classmethod
    def of(cls, seconds: Iterable[float]) -> Spread | None:
        """The spread of some durations in seconds; None when there are none."""
        values = [s * 1000 for s in seconds]
        if not values:
            return None
        return cls(
            len(values),
            percentile(values, 50),
            percentile(values, 95),
            percentile(values, 99),
            max(values),
        )

    def __str__(self) -> str:
        return (
            f"p50 {self.p50:.0f} ms, p95 {self.p95:.0f} ms, p99 {self.p99:.0f} ms, "
            f"max {self.max:.0f} ms"
        )


def failures(samples: Iterable[RequestSample]) -> Counter[str]:
    """The failed requests by kind of failure."""
    return Counter(s.outcome for s in samples if s.outcome != "ok")


def statuses(samples: Iterable[RequestSample]) -> Counter[str]:
    """Requests by status code (or error)."""
    return Counter(str(s.status) if s.status is not None else str(s.error) for s in samples)


def in_window(samples: Iterable[WaitSample], start: float, end: float) -> list[WaitSample]:
    """The waits that ended in [start, end]."""
    return [s for s in samples if start <= s.end <= end]


def requests_in_window(
    samples: Iterable[RequestSample], start: float, end: float
) -> list[RequestSample]:
    """The requests that ended in [start, end]."""
    return [s for s in samples if start <= s.end <= end]
