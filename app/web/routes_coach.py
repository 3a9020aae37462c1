"""The hint: the Hard player's advice at the player's turn, with its reason (the first hint
marks the game assisted). An HTMX request gets the hint box; a plain form post gets the game
page with the box open. A page that is not current gets the table as it is now, as a move does.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from app.services import coach, games
from app.web.coaching import hint_view
from app.web.deps import Decision, read_decision
from app.web.i18n import N_
from app.web.routes import is_htmx, render, table_response

router = APIRouter()


@router.post("/games/{game_id}/hint")
async def hint(request: Request, game_id: str) -> Response:
    """The advice for the player's pass or card at the version the page was rendered at."""
    decision = await read_decision(request, game_id)
    return await run_in_threadpool(_hint, request, decision)


def _hint(request: Request, d: Decision) -> Response:
    svc = d.svc
    refusal: tuple[str, int] | None = None
    if d.version is None:
        refusal = (N_("This form is out of date or incomplete; try again."), 400)
    else:
        try:
            given = coach.hint(svc.db, svc.thinkers, d.caller, d.game, d.version)
        except coach.NoHintError as err:
            refusal = (err.message, 409 if err.stale else 422)
    if refusal is not None:
        table = games.table(svc.db, d.caller, d.game)
        response = table_response(request, svc, games.Outcome(table), [refusal[0]], refusal[1])
        if is_htmx(request):  # the table as it is now, with the reason
            response.headers["HX-Retarget"] = "#table"
            response.headers["HX-Reswap"] = "outerHTML"
        return response
    box = hint_view(given.advice, given.view)
    if is_htmx(request):
        return render(request, "partials/hint.html", {"hint": box})
    table = games.table(svc.db, d.caller, d.game)
    return table_response(request, svc, games.Outcome(table), [], 200, hint=box)
