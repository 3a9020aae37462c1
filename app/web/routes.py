"""Pages and form posts of the game. Routes are plain `def` functions (run on the request threads,
which are as many as the database connections); the services own transactions and identities.

Every state-changing form carries the `version` it was rendered at. One request per human
decision: the answer to a move carries the computer players' turns up to the human's next
decision, as steps the page plays out one after another before the final table. An HTMX request
gets the table fragment back (with a 4xx status and a message when the action was refused); a
plain form post gets a redirect to the game page, or the page with the message and a 4xx status.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool

from app.bots import Level
from app.engine import Card, InvalidActionError, MoonChoice, Pass, Play
from app.services import games
from app.services.autoplay import AutoPlay
from app.services.database import ServiceUnavailableError
from app.web import i18n, messages, options_form, preferences, rules_page
from app.web.deps import (
    CallerDep,
    Decision,
    GameDep,
    ServicesDep,
    game_number,
    read_decision,
)
from app.web.i18n import N_
from app.web.ratelimit import refuse_new_game
from app.web.session import remember
from app.web.table import build, frames, step_cards

router = APIRouter()


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
def healthz(svc: ServicesDep) -> PlainTextResponse:
    """Readiness: 200 when the database answers a query, else 503."""
    try:
        svc.db.ping()
    except ServiceUnavailableError:
        return PlainTextResponse("database unavailable", status_code=503)
    return PlainTextResponse("ok")


async def form_fields(request: Request) -> dict[str, str]:
    """The submitted form as text fields (the last value of a repeated field)."""
    form = await request.form()
    return {key: str(value) for key, value in form.items()}


FormDep = Annotated[dict[str, str], Depends(form_fields)]


def rule_options(request: Request, form: dict[str, str], error: str | None) -> Markup:
    """The new-game form's rule options (the page's heaviest part): rendered once per language
    for an empty form, else with the visitor's choices."""
    if not form and not error:
        return _blank_rule_options(request.app.state.templates, i18n.current())
    return _rule_options(request.app.state.templates, form, error)


@cache
def _blank_rule_options(templates: Any, language: str) -> Markup:
    return _rule_options(templates, {}, None)


def _rule_options(templates: Any, form: dict[str, str], error: str | None) -> Markup:
    template = templates.env.get_template("partials/rule_options.html")
    context = {
        "fields": options_form.FIELDS,
        "presets": options_form.PRESETS,
        "defaults": {
            p: options_form.defaults(p, options_form.DEFAULT_PLAYERS[p])
            for p in options_form.PRESETS
        },
        "form": form,
        "error": error,
    }
    return Markup(template.render(context))


def home_page(
    request: Request,
    svc: ServicesDep,
    caller: CallerDep,
    form: dict[str, str] | None = None,
    error: str | None = None,
    code_error: str | None = None,
) -> Response:
    """The new-game screen (with a message and a 400 when its form, or the deal code form, was
    refused)."""
    context = {
        "rule_options": rule_options(request, form or {}, error),
        "active_game": games.active_game_id(svc.db, caller),
        "levels": list(Level),
        "presets": options_form.PRESETS,
        "player_counts": options_form.PLAYER_COUNTS,
        "default_players": options_form.DEFAULT_PLAYERS,
        "form": form or {},
        "error": error,
        "code_error": code_error,
    }
    return render(request, "home.html", context, status=400 if error or code_error else 200)


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
    """Settings: a four-colour deck, large cards, two taps to play a card, quiet sounds, and
    what the table plays for the player."""
    context = {
        "saved": request.query_params.get("saved") == "1",
        "two_taps": preferences.two_taps(request),
        "auto": preferences.autoplay(request),
    }
    return render(request, "settings.html", context)


@router.post("/settings")
def save_settings(
    request: Request,
    four_colours: FormText = "",
    large_cards: FormText = "",
    two_taps: FormText = "",
    sounds: FormText = "",
    only_card: FormText = "",
    finish_hand: FormText = "",
) -> Response:
    """Remember the settings in this browser (an unknown two-tap choice: the default)."""
    response = RedirectResponse("/settings?saved=1", status_code=303)
    for cookie, value in (
        (preferences.FOUR_COLOURS, four_colours),
        (preferences.LARGE_CARDS, large_cards),
        (preferences.SOUNDS, sounds),
        (preferences.ONLY_CARD, only_card),
        (preferences.FINISH_HAND, finish_hand),
    ):
        remember(request, response, cookie, "1" if value == "on" else "0")
    if two_taps not in preferences.TWO_TAPS_CHOICES:
        two_taps = preferences.TWO_TAPS_CHOICES[0]
    remember(request, response, preferences.TWO_TAPS, two_taps)
    return response


@router.get("/rules", response_class=HTMLResponse)
def rules(
    request: Request,
    svc: ServicesDep,
    caller: CallerDep,
    game: str = "",
    preset: str = "standard",
    players: str = "",
) -> Response:
    """The rules of a table (one of the player's games, or a preset), the tips and the FAQ."""
    options = None
    if game:
        try:
            options = games.options_of(svc.db, caller, game_number(game))
        except games.GameNotFoundError:
            options = None
    if options is None:
        form = {"preset": preset, f"players_{preset}": players}
        try:
            options = options_form.read(form)
        except options_form.OptionsFormError:
            options = options_form.read({})
    context = {
        "options": options,
        "table_rules": [s.render() for s in rules_page.sentences(options)],
        "player_counts": options_form.PLAYER_COUNTS,
    }
    return render(request, "rules.html", context)


HOME_PAGES: dict[tuple[str, str], bytes] = {}
"""The new-game screen as a new visitor sees it (no game to continue), by language and display
classes: rendered once per server process, then served as it is; a crowd arriving at once
costs the server little more than its sockets."""


@router.get("/", response_class=HTMLResponse)
def home(request: Request, svc: ServicesDep, caller: CallerDep) -> Response:
    """The new-game screen, with "Continue" when a game is in progress."""
    if caller.token is not None or request.url.query:
        return home_page(request, svc, caller)
    key = (i18n.current(), preferences.body_classes(request)["body_classes"])
    page = HOME_PAGES.get(key)
    if page is None:
        response = home_page(request, svc, caller)
        HOME_PAGES[key] = bytes(response.body)
        return response
    return HTMLResponse(page)


@router.post("/games")
def new_game(request: Request, svc: ServicesDep, caller: CallerDep, form: FormDep) -> Response:
    """Start a game from the new-game form and go to its table; a table the rules do not define
    is refused with a message on the form. The form always names the difficulty: a post without
    one (an empty, truncated or unreadable body) starts nothing."""
    refused = refuse_new_game(request)
    if refused is not None:
        return refused
    level = form.get("level", "")
    if level not in {lv.value for lv in Level}:
        return home_page(request, svc, caller, form, N_("Choose a difficulty."))
    try:
        options = options_form.read(form)
    except options_form.OptionsFormError as err:
        return home_page(request, svc, caller, form, str(err))
    fast = form.get("fast_play") == "on"
    auto = preferences.autoplay(request)
    game_id = games.start_game(svc.db, svc.thinkers, caller, level, fast, options, auto=auto)
    return RedirectResponse(f"/games/{game_id}", status_code=303)


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game_page(request: Request, game: GameDep, svc: ServicesDep, caller: CallerDep) -> Response:
    """The table (the whole page, or the table fragment for an HTMX request)."""
    return table_response(request, svc, games.Outcome(games.table(svc.db, caller, game)), [], 200)


@router.post("/games/{game_id}/pass")
async def pass_cards(request: Request, game_id: str) -> Response:
    """The human passes the three selected cards."""

    def change(d: Decision, at: int) -> games.Outcome:
        cards = d.texts("cards")
        if cards is None or len(cards) != 3:
            raise BadFormError(N_("Choose exactly three cards to pass."))
        action = Pass(0, [_card(code) for code in cards])
        return games.act(d.svc.db, d.svc.thinkers, d.caller, d.game, at, action, d.auto)

    return await _versioned(request, game_id, change)


@router.post("/games/{game_id}/play")
async def play_card(request: Request, game_id: str) -> Response:
    """The human plays a card; the computers play up to the human's next turn."""

    def change(d: Decision, at: int) -> games.Outcome:
        action = Play(0, _card(d.text("card")))
        return games.act(d.svc.db, d.svc.thinkers, d.caller, d.game, at, action, d.auto)

    return await _versioned(request, game_id, change)


@router.post("/games/{game_id}/advance")
async def advance(request: Request, game_id: str) -> Response:
    """The computer players act up to the human's next decision (only a game stored at a
    computer's turn needs it)."""

    def change(d: Decision, at: int) -> games.Outcome:
        return games.advance(d.svc.db, d.svc.thinkers, d.caller, d.game, at, d.auto)

    return await _versioned(request, game_id, change)


@router.post("/games/{game_id}/moon")
async def moon_choice(request: Request, game_id: str) -> Response:
    """The human shooter chooses how the moon scores (R12.5)."""

    def change(d: Decision, at: int) -> games.Outcome:
        scoring = d.text("scoring")
        if scoring not in ("add_to_others", "subtract_from_self"):
            raise BadFormError(N_("Choose one of the two ways the moon can score."))
        action = MoonChoice(0, scoring)
        return games.act(d.svc.db, d.svc.thinkers, d.caller, d.game, at, action, d.auto)

    return await _versioned(request, game_id, change)


@router.post("/games/{game_id}/again")
def play_again(request: Request, game: GameDep, svc: ServicesDep, caller: CallerDep) -> Response:
    """A new game with the finished game's settings (Q-03)."""
    return start_and_go(
        request, lambda auto: games.start_again(svc.db, svc.thinkers, caller, game, auto)
    )


def start_and_go(request: Request, start: Callable[[AutoPlay], int]) -> Response:
    """Start a game (unless the browser is over its rate of new games: 429) with the cards the
    player's settings let the table play, and go to its table."""
    refused = refuse_new_game(request)
    if refused is not None:
        return refused
    new_id = start(preferences.autoplay(request))
    return RedirectResponse(f"/games/{new_id}", status_code=303)


@router.post("/games/{game_id}/next")
async def next_hand(request: Request, game_id: str) -> Response:
    """Deal the next hand."""

    def change(d: Decision, at: int) -> games.Outcome:
        return games.next_hand(d.svc.db, d.svc.thinkers, d.caller, d.game, at, d.auto)

    return await _versioned(request, game_id, change)


# --- helpers ----------------------------------------------------------------------------------


def not_found(request: Request) -> Response:
    """The "not found" page (404): a game that does not exist or is another player's."""
    return render(request, "not_found.html", {}, status=404)


def _card(code: str) -> Card:
    try:
        return Card.from_str(code)
    except InvalidActionError:
        raise BadFormError(N_("That is not a card.")) from None


Change = Callable[[Decision, int], games.Outcome]
"""A decision's use case, given the post and the version its form was rendered at."""


async def _versioned(request: Request, game_id: str, change: Change) -> Response:
    """Read the post (in the event loop), then apply the change on a request thread: one hop,
    with none of the dependency machinery a move does not need."""
    decision = await read_decision(request, game_id)
    return await run_in_threadpool(_change, request, decision, change)


def _change(request: Request, d: Decision, change: Change) -> Response:
    """Apply a versioned change and answer with the table (a 4xx and a message if refused)."""
    svc = d.svc
    try:
        if d.version is None:
            raise BadFormError(N_("This form is out of date or incomplete; try again."))
        outcome = change(d, d.version)
    except BadFormError as err:
        table = games.table(svc.db, d.caller, d.game)
        return table_response(request, svc, games.Outcome(table), [str(err)], 400)
    except games.ActionRefusedError as refused:
        status = 409 if refused.refusal.stale else 422
        message = messages.explain(refused.refusal)
        return table_response(request, svc, games.Outcome(refused.table), [message], status)
    if is_htmx(request):
        return table_response(request, svc, outcome, [], 200)
    return RedirectResponse(f"/games/{d.game}", status_code=303)


def table_response(
    request: Request,
    svc: ServicesDep,
    outcome: games.Outcome,
    notes: list[str],
    status: int,
    hint: object = None,
) -> Response:
    """The table (the fragment for HTMX, else the page), with the hint box open if given."""
    scale = svc.settings.pause_scale
    steps = frames(outcome.steps, scale)
    context = {
        "t": build(outcome.table, notes, scale, outcome.finished_tricks),
        "frames": steps,
        "step_faces": step_cards(steps),
        "hint": hint,
    }
    name = "partials/update.html" if is_htmx(request) else "game.html"
    return render(request, name, context, status, return_to=f"/games/{outcome.table.game_id}")
