"""What a route gets from its request, in one place: the services, the caller (the browser's
anonymous identity), the game number of the path and the version of the posted form.

Routes import no SQLAlchemy and no store module: they hand these values to the services, which
own the transactions and the player rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from starlette.datastructures import FormData

from app.services import inputs
from app.services.autoplay import AutoPlay
from app.services.computers import Thinkers
from app.services.database import Database
from app.services.games import GameNotFoundError
from app.services.players import Caller
from app.settings import Settings
from app.web import preferences
from app.web.guard import stepping_aside
from app.web.ratelimit import client_address, rate_limits

COOKIE = "hearts_session"
SECURE_COOKIE = "__Host-hearts_session"
"""The cookie's name when served over HTTPS: the prefix makes browsers refuse it unless it is
`Secure`, host-only and for path `/`, so no sibling domain can plant one."""


@dataclass(frozen=True, slots=True)
class Services:
    """The app's long-lived parts: settings, the database and the computer players' thinkers."""

    settings: Settings
    db: Database
    thinkers: Thinkers

    @classmethod
    def from_settings(cls, settings: Settings) -> Services:
        """The parts for `settings` (the thinkers' processes start with the app)."""
        db = Database.connect(
            settings.database_url,
            pool_size=settings.threads,
            pool_timeout=settings.pool_timeout_s,
            busy_timeout_ms=settings.busy_timeout_ms,
        )
        # A request waiting for the Hard player's thinking gives its place to others meanwhile.
        thinkers = Thinkers(
            settings.thinker_processes,
            settings.thinker_queue,
            waiting=stepping_aside,
            chunk_s=settings.thinker_chunk_s,
        )
        return cls(settings, db, thinkers)


def cookie_name(settings: Settings) -> str:
    """The session cookie's name in this configuration."""
    return SECURE_COOKIE if settings.secure_cookies else COOKIE


def services(request: Request) -> Services:
    """The app's services."""
    found: Services = request.app.state.services
    return found


ServicesDep = Annotated[Services, Depends(services)]


def caller(request: Request, svc: ServicesDep) -> Caller:
    """The browser behind the request; the cookie middleware sends any token it was issued.
    Creating its player counts against its address's rate of new players."""
    limits = rate_limits(request)
    address = client_address(request.scope)

    def wait_to_create() -> int:
        return 0 if limits.allow_new_session(address) else limits.new_session_wait(address)

    found = Caller.from_cookie(request.cookies.get(cookie_name(svc.settings)), wait_to_create)
    request.state.caller = found
    return found


CallerDep = Annotated[Caller, Depends(caller)]


def game_number(game_id: str) -> int:
    """The game (or hand) number of the path: ASCII digits within the ids' range, else the game
    is missing (404)."""
    number = inputs.ascii_int(game_id, low=1)
    if number is None:
        raise GameNotFoundError(game_id)
    return number


GameDep = Annotated[int, Depends(game_number)]


@dataclass(frozen=True, slots=True)
class Decision:
    """A versioned post to one of the caller's games: who, which game, the version the form was
    rendered at (None if unreadable) and the form's other fields."""

    svc: Services
    caller: Caller
    game: int
    version: int | None
    form: FormData
    auto: AutoPlay
    """What the table plays for the player (their settings)."""

    def text(self, name: str) -> str:
        """A text field ("" when missing, or when a file came instead)."""
        value = self.form.get(name)
        return value if isinstance(value, str) else ""

    def texts(self, name: str) -> list[str] | None:
        """Every value of a repeated text field; None if any of them is a file."""
        values = self.form.getlist(name)
        if not all(isinstance(v, str) for v in values):
            return None
        return [str(v) for v in values]


async def read_decision(request: Request, game_id: str) -> Decision:
    """The decision a versioned form posts (the game number checked, else 404)."""
    svc = services(request)
    who = caller(request, svc)
    game = game_number(game_id)
    form = await request.form()
    value = form.get("version")
    version = inputs.ascii_int(value) if isinstance(value, str) else None
    return Decision(svc, who, game, version, form, preferences.autoplay(request))
