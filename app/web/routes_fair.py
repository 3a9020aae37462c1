"""The Fair play page: how the deals are sealed and checked, why the computer players cannot
peek, how strong each level is, and a checker that runs in the browser (no server help)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.engine.fairdeal import PROCEDURE
from app.services.fairplay import games_figures, strength_figures
from app.web.routes import render

router = APIRouter()


@router.get("/fair-play", response_class=HTMLResponse)
def fair_play(request: Request) -> Response:
    """The page is the same for everyone: it reads no game and no database."""
    context = {"figures": strength_figures(), "games": games_figures(), "procedure": PROCEDURE}
    return render(request, "fair_play.html", context)
