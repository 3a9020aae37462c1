"""The statistics page, the game history, the replay and the review of a hand and the JSON
download.

All read-only GETs: they change no game, so they need no version. Another player's game, or a
hand a game does not have, is the same "not found" page (404) as a game that does not exist.
"""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.services import history as history_service
from app.services import inputs
from app.services import review as review_service
from app.services import stats as stats_service
from app.web import stats_view
from app.web.coaching import review_view
from app.web.deps import CallerDep, GameDep, ServicesDep, game_number
from app.web.routes import render
from app.web.table import replay_rows

router = APIRouter()


@router.get("/stats", response_class=HTMLResponse)
def statistics(request: Request, svc: ServicesDep, caller: CallerDep) -> Response:
    """Every figure for the player and each computer level, with the charts and the filter."""
    filters = stats_service.parse_filters(request.query_params)
    page = stats_service.statistics(svc.db, caller, filters)
    context = {
        "s": page,
        "final_chart": stats_view.final_scores_chart(page.recent),
        "points_chart": stats_view.points_chart(page.histogram),
        "query": filters.query,
    }
    return render(request, "stats.html", context)


@router.get("/history", response_class=HTMLResponse)
def history(request: Request, svc: ServicesDep, caller: CallerDep) -> Response:
    """The player's games, newest first, a page at a time."""
    filters = stats_service.parse_filters(request.query_params)
    page_number = inputs.ascii_int(request.query_params.get("page", "1"), 1, 10**6) or 1
    page = history_service.history(svc.db, caller, filters, page_number)
    choices = stats_service.statistics_choices(svc.db, caller)
    context = {"h": page, "choices": choices, "query": filters.query}
    return render(request, "history.html", context)


@router.get("/history/{game_id}", response_class=HTMLResponse)
def game_record(request: Request, game: GameDep, svc: ServicesDep, caller: CallerDep) -> Response:
    """One game: its result, the running totals chart, the score sheet and its hands."""
    record = history_service.game_record(svc.db, caller, game)
    context = {
        "g": record,
        "chart": stats_view.running_totals_chart(record),
    }
    return render(request, "history_game.html", context)


@router.get("/history/{game_id}/hands/{number}", response_class=HTMLResponse)
def hand_replay(
    request: Request, game: GameDep, number: str, svc: ServicesDep, caller: CallerDep
) -> Response:
    """A read-only replay of one hand, trick by trick (`?trick=N`)."""
    trick = inputs.ascii_int(request.query_params.get("trick", ""), 0, 999)
    replay = history_service.hand_replay(svc.db, caller, game, game_number(number), trick)
    rows = replay_rows(replay.tricks, replay.num_players)
    return render(request, "replay.html", {"r": replay, "rows": rows})


@router.get("/history/{game_id}/game.json")
def download(game: GameDep, svc: ServicesDep, caller: CallerDep) -> Response:
    """The game as a JSON document (docs/game-json.md), as a download."""
    document = history_service.export(svc.db, caller, game)
    body = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    return Response(
        body,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="hearts-game-{game}.json"'},
    )


@router.get("/history/{game_id}/hands/{number}/review", response_class=HTMLResponse)
def hand_review(
    request: Request, game: GameDep, number: str, svc: ServicesDep, caller: CallerDep
) -> Response:
    """The review of one scored hand: the player's decisions and what each cost (by the Hard
    player's estimate), thought on demand and then kept."""
    found = review_service.review(svc.db, svc.thinkers, caller, game, game_number(number))
    back = request.query_params.get("from") == "table"
    return render(request, "review.html", {"v": review_view(found), "back_to_table": back})
