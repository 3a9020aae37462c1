"""Playing the same deals again: an ended game's deals in a new game, in this browser ("Play
these deals again") or in another one (its deal code).

A replay is dealt from the ended game's secret, which the game revealed when it ended (a game
dealt before verifiable deals has none, and cannot be played again), and keeps
its seed, so its computer players answer the same decisions the same way: two people playing
one code face the same deals and the same opponents. The new game is marked replayed, since its
deals were known, and the statistics keep such games apart. Only an ended game (finished, or
abandoned for a new one) gives its deals: a game in progress would give away the hands to come.
"""

from __future__ import annotations

from app.bots import Level
from app.engine import GameHeader
from app.services import games
from app.services.autoplay import AutoPlay
from app.services.computers import Thinkers
from app.services.database import Database
from app.services.fairplay import code_matches, read_deal_code
from app.services.games import GameNotFoundError, KnownDeals
from app.services.players import Caller
from app.store import repository
from app.store.models import ACTIVE, HUMAN, Game


class UnknownDealCodeError(ValueError):
    """A deal code that names no ended game's deals (mistyped, or a game still in progress)."""


def play_again(
    db: Database, thinkers: Thinkers, caller: Caller, game_id: int, auto: AutoPlay
) -> int:
    """A new game with the deals of one of the caller's ended games (and its table, computer
    level and pace). Posted twice (a double click, a retry), it starts one game: a game in
    progress with those very deals is returned instead."""
    with db.read() as session:
        game = repository.get_game(session, game_id, caller.player_id)
        if game is None or game.status == ACTIVE or game.deal_secret is None:
            raise GameNotFoundError(game_id)  # in progress, or dealt before verifiable deals
        deals = KnownDeals(game.seed, game.deal_secret)
        header = GameHeader.from_json(game.header)
        level = _level(game.seats)
        fast_play = game.fast_play
        active = repository.active_game_id(session, caller.player_id)
        if active is not None:
            current = repository.get_game(session, active, caller.player_id)
            if current is not None and current.replayed and _same(current, deals):
                return active
    return games.start_game(
        db, thinkers, caller, level, fast_play, header.options, auto=auto, deals=deals
    )


def play_shared(
    db: Database, thinkers: Thinkers, caller: Caller, code: str, fast_play: bool, auto: AutoPlay
) -> int:
    """A new game with the deals a deal code names (`UnknownDealCodeError` if it names none)."""
    read = read_deal_code(code)
    if read is None:
        raise UnknownDealCodeError(code)
    game_id, digits = read
    with db.reading() as connection:
        shared = repository.shared_deals(connection, game_id)
    if (
        shared is None
        or shared.status == ACTIVE
        or shared.deal_secret is None
        or not code_matches(shared.deal_secret, digits)
    ):
        raise UnknownDealCodeError(code)
    options = GameHeader.from_json(shared.header).options
    deals = KnownDeals(shared.seed, shared.deal_secret)
    level = _level(shared.seats)
    return games.start_game(db, thinkers, caller, level, fast_play, options, auto=auto, deals=deals)


def _level(seats: list[str]) -> Level:
    return Level(next(s for s in seats if s != HUMAN))


def _same(game: Game, deals: KnownDeals) -> bool:
    return game.seed == deals.seed and game.deal_secret == deals.secret
