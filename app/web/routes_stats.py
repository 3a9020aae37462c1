"""The statistics page, the game history, the replay of a hand and the JSON download.

All read-only GETs: they change no game, so they need no version. Another player's game, or a
hand a game does not have, is the same "not found" page (404) as a game that does not exist.
"""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.services import history as history_service
from app.services import stats as stats_service
from app.services.games import GameNotFoundError
from app.web import stats_view
from app.web.routes import PlayerDep, SessionDep, game_number, not_found, render

router = APIRouter()


@router.get("/stats", response_class=HTMLResponse)
def statistics(request: Request, session: SessionDep, player: PlayerDep) -> Response:
    """Every figure for the player and each computer level, with the charts and the filter."""
    filters = stats_service.parse_filters(request.query_params)
    page = stats_service.statistics(session, player, filters)
    session.commit()
    context = {
        "s": page,
        "final_chart": stats_view.final_scores_chart(page.recent),
        "points_chart": stats_view.points_chart(page.histogram),
        "query": filters.query,
    }
    return render(request, "stats.html", context)


@router.get("/history", response_class=HTMLResponse)
def history(request: Request, session: SessionDep, player: PlayerDep) -> Response:
    """The player's games, newest first, a page at a time."""
    filters = stats_service.parse_filters(request.query_params)
    page_text = request.query_params.get("page", "1")
    page_number = int(page_text) if page_text.isdigit() and len(page_text) < 7 else 1
    page = history_service.history(session, player, filters, page_number)
    choices = stats_service.statistics_choices(session, player)
    session.commit()
    context = {"h": page, "choices": choices, "query": filters.query}
    return render(request, "history.html", context)


@router.get("/history/{game_id}", response_class=HTMLResponse)
def game_record(request: Request, game_id: str, session: SessionDep, player: PlayerDep) -> Response:
    """One game: its result, the running totals chart, the score sheet and its hands."""
    try:
        record = history_service.game_record(session, player, game_number(game_id))
    except GameNotFoundError:
        session.commit()
        return not_found(request)
    session.commit()
    context = {
        "g": record,
        "chart": stats_view.running_totals_chart(record),
    }
    return render(request, "history_game.html", context)


@router.get("/history/{game_id}/hands/{number}", response_class=HTMLResponse)
def hand_replay(
    request: Request, game_id: str, number: str, session: SessionDep, player: PlayerDep
) -> Response:
    """A read-only replay of one hand, trick by trick (`?trick=N`)."""
    trick_text = request.query_params.get("trick", "")
    trick = int(trick_text) if trick_text.isdigit() and len(trick_text) < 4 else None
    try:
        replay = history_service.hand_replay(
            session, player, game_number(game_id), game_number(number), trick
        )
    except GameNotFoundError:
        session.commit()
        return not_found(request)
    session.commit()
    return render(request, "replay.html", {"r": replay})


@router.get("/history/{game_id}/game.json")
def download(request: Request, game_id: str, session: SessionDep, player: PlayerDep) -> Response:
    """The game as a JSON document (docs/game-json.md), as a download."""
    try:
        number = game_number(game_id)
        document = history_service.export(session, player, number)
    except GameNotFoundError:
        session.commit()
        return not_found(request)
    session.commit()
    body = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    return Response(
        body,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="hearts-game-{number}.json"'},
    )
