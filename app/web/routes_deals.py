"""Playing the same deals again: "Play these deals again" after a game has ended, and a deal
code that lets another browser play an ended game's deals (the new game is marked replayed)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.services import replays
from app.web import preferences
from app.web.deps import CallerDep, GameDep, ServicesDep
from app.web.i18n import N_
from app.web.ratelimit import refuse_new_game
from app.web.routes import FormDep, home_page, start_and_go

router = APIRouter()


@router.post("/games/{game_id}/deals-again")
def deals_again(request: Request, game: GameDep, svc: ServicesDep, caller: CallerDep) -> Response:
    """A new game with the deals of one of the player's ended games."""
    return start_and_go(
        request, lambda auto: replays.play_again(svc.db, svc.thinkers, caller, game, auto)
    )


@router.post("/shared-deals")
def shared_deals(request: Request, svc: ServicesDep, caller: CallerDep, form: FormDep) -> Response:
    """A new game with the deals a deal code names; a code that names none is refused with a
    message on the home page."""
    refused = refuse_new_game(request)
    if refused is not None:
        return refused
    fast = form.get("fast_play") == "on"
    auto = preferences.autoplay(request)
    try:
        new_id = replays.play_shared(svc.db, svc.thinkers, caller, form.get("code", ""), fast, auto)
    except replays.UnknownDealCodeError:
        message = N_("That deal code names no finished game's deals: check it and try again.")
        return home_page(
            request, svc, caller, {"code": form.get("code", "")[:64]}, code_error=message
        )
    return RedirectResponse(f"/games/{new_id}", status_code=303)
