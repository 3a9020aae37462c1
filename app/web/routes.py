"""Pages and form posts. Routes that run the computer players are plain `def` (thread pool).

Every state-changing form carries the `version` it was rendered at. An HTMX request gets the
table fragment back (with a 4xx status and a message when the action was refused); a plain form
post gets a redirect to the game page, or the page with the message and a 4xx status.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from sqlalchemy.orm import Session

from app.bots import Level
from app.engine import Card, InvalidActionError, MoonChoice, Pass, Play
from app.services import games
from app.store.models import Player
from app.web import i18n, messages, options_form, preferences, rules_page
from app.web.i18n import N_
from app.web.session import current_player, remember
from app.web.table import build

router = APIRouter()


def db_session(request: Request) -> Iterator[Session]:
    """The request's session. Routes commit before they answer (so the next request sees the
    change); anything not committed, after an error for instance, is rolled back."""
    session: Session = request.app.state.sessionmaker()
    try:
        yield session
    finally:
        session.close()


SessionDep = Annotated[Session, Depends(db_session)]


def player_dep(request: Request, session: SessionDep) -> Player:
    """The browser's player (a fresh one for an unknown cookie)."""
    return current_player(request, session)


PlayerDep = Annotated[Player, Depends(player_dep)]


class BadFormError(ValueError):
    """A malformed form: missing or unreadable fields."""


def is_htmx(request: Request) -> bool:
    """A partial update: an HTMX request that is not a history restore."""
    return (
        request.headers.get("hx-request") == "true"
        and request.headers.get("hx-history-restore-request") != "true"
    )


def render(
    request: Request,
    name: str,
    context: dict[str, Any],
    status: int = 200,
    return_to: str = "/",
) -> Response:
    """Render a template with the request in its context.

    `return_to` is where the language switch goes back to: the page's own URL for a GET, else
    (a page rendered by a POST, whose URL has no GET route) the page the route names."""
    templates = request.app.state.templates
    if request.method in ("GET", "HEAD"):
        query = request.url.query
        return_to = request.url.path + (f"?{query}" if query else "")
    context = {"return_to": return_to, **context}
    response: Response = templates.TemplateResponse(request, name, context, status_code=status)
    return response


FormText = Annotated[str, Form()]
"""A form field read as text; a missing field is "" so a malformed form never fails validation."""


@router.get("/healthz")
def healthz() -> PlainTextResponse:
    """Liveness: 200 when the app answers."""
    return PlainTextResponse("ok")


async def form_fields(request: Request) -> dict[str, str]:
    """The submitted form as text fields (the last value of a repeated field)."""
    form = await request.form()
    return {key: str(value) for key, value in form.items()}


FormDep = Annotated[dict[str, str], Depends(form_fields)]


def _home(
    request: Request,
    session: Session,
    player: Player,
    form: dict[str, str] | None = None,
    error: str | None = None,
) -> Response:
    context = {
        "active_game": games.active_game_id(session, player),
        "levels": list(Level),
        "fields": options_form.FIELDS,
        "presets": options_form.PRESETS,
        "player_counts": options_form.PLAYER_COUNTS,
        "default_players": options_form.DEFAULT_PLAYERS,
        "defaults": {
            p: options_form.defaults(p, options_form.DEFAULT_PLAYERS[p])
            for p in options_form.PRESETS
        },
        "form": form or {},
        "error": error,
    }
    session.commit()
    return render(request, "home.html", context, status=400 if error else 200)


@router.post("/language")
def choose_language(request: Request, lang: FormText = "", next: FormText = "/") -> Response:
    """Remember the chosen language for this browser and go back to the page."""
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    response = RedirectResponse(target, status_code=303)
    if lang in i18n.LANGUAGES:
        remember(request, response, i18n.COOKIE, lang)
    return response


@router.get("/settings", response_class=HTMLResponse)
def settings_page(request: Request) -> Response:
    """Display settings: a four-colour deck and large cards."""
    return render(request, "settings.html", {"saved": request.query_params.get("saved") == "1"})


@router.post("/settings")
def save_settings(
    request: Request, four_colours: FormText = "", large_cards: FormText = ""
) -> Response:
    """Remember the display settings in this browser."""
    response = RedirectResponse("/settings?saved=1", status_code=303)
    for cookie, value in (
        (preferences.FOUR_COLOURS, four_colours),
        (preferences.LARGE_CARDS, large_cards),
    ):
        remember(request, response, cookie, "1" if value == "on" else "0")
    return response


@router.get("/rules", response_class=HTMLResponse)
def rules(
    request: Request,
    session: SessionDep,
    player: PlayerDep,
    game: str = "",
    preset: str = "standard",
    players: str = "",
) -> Response:
    """The rules of a table (one of the player's games, or a preset), the tips and the FAQ."""
    options = None
    if game.isdigit():
        try:
            options = games.table(session, player, int(game)).view.options
        except games.GameNotFoundError:
            options = None
    if options is None:
        form = {"preset": preset, f"players_{preset}": players}
        try:
            options = options_form.read(form)
        except options_form.OptionsFormError:
            options = options_form.read({})
    session.commit()
    context = {
        "options": options,
        "table_rules": [s.render() for s in rules_page.sentences(options)],
        "player_counts": options_form.PLAYER_COUNTS,
    }
    return render(request, "rules.html", context)


@router.get("/", response_class=HTMLResponse)
def home(request: Request, session: SessionDep, player: PlayerDep) -> Response:
    """The new-game screen, with "Continue" when a game is in progress."""
    return _home(request, session, player)


@router.post("/games")
def new_game(request: Request, session: SessionDep, player: PlayerDep, form: FormDep) -> Response:
    """Start a game from the new-game form and go to its table; a table the rules do not define
    is refused with a message on the form."""
    level = form.get("level", Level.MEDIUM.value)
    if level not in {lv.value for lv in Level}:
        return _home(request, session, player, form, N_("Choose a difficulty."))
    try:
        options = options_form.read(form)
    except options_form.OptionsFormError as err:
        return _home(request, session, player, form, str(err))
    game_id = games.start_game(session, player, level, form.get("fast_play") == "on", options)
    session.commit()
    return RedirectResponse(f"/games/{game_id}", status_code=303)


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game_page(request: Request, game_id: str, session: SessionDep, player: PlayerDep) -> Response:
    """The table (the whole page, or the table fragment for an HTMX request)."""
    try:
        table = games.table(session, player, game_number(game_id))
    except games.GameNotFoundError:
        session.commit()
        return not_found(request)
    session.commit()
    return _table_response(request, table, [], 200)


@router.post("/games/{game_id}/pass")
def pass_cards(
    request: Request,
    game_id: str,
    session: SessionDep,
    player: PlayerDep,
    version: FormText = "",
    cards: Annotated[list[str], Form()] = [],  # noqa: B006 - FastAPI copies defaults
) -> Response:
    """The human passes the three selected cards."""

    def change(number: int, at: int) -> games.Table:
        if len(cards) != 3:
            raise BadFormError(N_("Choose exactly three cards to pass."))
        action = Pass(0, [_card(code) for code in cards])
        return games.act(session, player, number, at, action)

    return _change(request, session, player, game_id, version, change)


@router.post("/games/{game_id}/play")
def play_card(
    request: Request,
    game_id: str,
    session: SessionDep,
    player: PlayerDep,
    version: FormText = "",
    card: FormText = "",
) -> Response:
    """The human plays a card."""

    def change(number: int, at: int) -> games.Table:
        return games.act(session, player, number, at, Play(0, _card(card)))

    return _change(request, session, player, game_id, version, change)


@router.post("/games/{game_id}/advance")
def advance(
    request: Request, game_id: str, session: SessionDep, player: PlayerDep, version: FormText = ""
) -> Response:
    """One computer player acts, if it is a computer's turn."""

    def change(number: int, at: int) -> games.Table:
        return games.advance(session, player, number, at)

    return _change(request, session, player, game_id, version, change)


@router.post("/games/{game_id}/moon")
def moon_choice(
    request: Request,
    game_id: str,
    session: SessionDep,
    player: PlayerDep,
    version: FormText = "",
    scoring: FormText = "",
) -> Response:
    """The human shooter chooses how the moon scores (R12.5)."""

    def change(number: int, at: int) -> games.Table:
        if scoring not in ("add_to_others", "subtract_from_self"):
            raise BadFormError(N_("Choose one of the two ways the moon can score."))
        return games.act(session, player, number, at, MoonChoice(0, scoring))

    return _change(request, session, player, game_id, version, change)


@router.post("/games/{game_id}/again")
def play_again(request: Request, game_id: str, session: SessionDep, player: PlayerDep) -> Response:
    """A new game with the finished game's settings (Q-03)."""
    try:
        new_id = games.start_again(session, player, game_number(game_id))
    except games.GameNotFoundError:
        session.commit()
        return not_found(request)
    session.commit()
    return RedirectResponse(f"/games/{new_id}", status_code=303)


@router.post("/games/{game_id}/next")
def next_hand(
    request: Request, game_id: str, session: SessionDep, player: PlayerDep, version: FormText = ""
) -> Response:
    """Deal the next hand."""

    def change(number: int, at: int) -> games.Table:
        return games.next_hand(session, player, number, at)

    return _change(request, session, player, game_id, version, change)


# --- helpers ----------------------------------------------------------------------------------


MAX_NUMBER = 18
"""Digits accepted in a number in the path (game ids, hand numbers)."""


def game_number(text: str) -> int:
    """A positive number from the path (a game id, a hand number); anything else is a missing
    game."""
    if not text.isdigit() or len(text) > MAX_NUMBER:
        raise games.GameNotFoundError(text)
    return int(text)


def not_found(request: Request) -> Response:
    """The "not found" page (404): a game that does not exist or is another player's."""
    return render(request, "not_found.html", {}, status=404)


def _card(code: str) -> Card:
    try:
        return Card.from_str(code)
    except InvalidActionError:
        raise BadFormError(N_("That is not a card.")) from None


def _change(
    request: Request,
    session: Session,
    player: Player,
    game_id: str,
    version: str,
    change: Callable[[int, int], games.Table],
) -> Response:
    """Apply a versioned change and answer with the table (a 4xx and a message if refused)."""
    response = _changed(request, session, player, game_id, version, change)
    session.commit()  # the change (none if refused), or the new player of an unknown cookie
    return response


def _changed(
    request: Request,
    session: Session,
    player: Player,
    game_id: str,
    version: str,
    change: Callable[[int, int], games.Table],
) -> Response:
    try:
        number = game_number(game_id)
        try:
            if not version.isdigit():
                raise BadFormError(N_("This form is out of date or incomplete; try again."))
            table = change(number, int(version))
        except BadFormError as err:
            return _table_response(request, games.table(session, player, number), [str(err)], 400)
        except games.ActionRefusedError as refused:
            status = 409 if refused.refusal.stale else 422
            message = messages.explain(refused.refusal)
            return _table_response(request, refused.table, [message], status)
    except games.GameNotFoundError:
        return not_found(request)
    if is_htmx(request):
        return _table_response(request, table, [], 200)
    return RedirectResponse(f"/games/{number}", status_code=303)


def _table_response(
    request: Request, table: games.Table, messages: list[str], status: int
) -> Response:
    context = {"t": build(table, messages, request.app.state.settings.pause_scale)}
    name = "partials/update.html" if is_htmx(request) else "game.html"
    return render(request, name, context, status, return_to=f"/games/{table.game_id}")
