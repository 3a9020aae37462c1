"""Fragments rendered once per language and value (app/web/fragments.py): the trick history's
lines are taken from the cache after their first rendering, in the language of the request."""

from __future__ import annotations

from types import SimpleNamespace

from app.web import i18n
from app.web.fragments import CachedMacro
from app.web.main import make_templates
from app.web.table import CardView, PlayView, TrickRow


def _card(code: str, label: str) -> CardView:
    return CardView(code, code[0], code[1], "♠", label, False)


ROW = TrickRow(
    number=3,
    leader="West",
    plays=(
        PlayView(1, "W", "West", _card("QS", "Q♠"), winner=True),
        PlayView(2, "N", "North", _card("2S", "2♠")),
    ),
    winner="West",
    points=13,
    pot_cards=0,
    kitty=False,
)


def test_a_trick_line_is_rendered_once_per_language_and_then_reused() -> None:
    env = make_templates().env
    line = env.globals["trick_row"]
    assert isinstance(line, CachedMacro)
    try:
        i18n.activate("en")
        first = line(ROW)
        assert 'value="3"' in first and "West led" in first and "(13)" in first
        assert "Q♠" in first and 'class="play won"' in first
        i18n.activate("ru")
        russian = line(ROW)
        assert "Ход — Запад" in russian and "West" not in russian
        i18n.activate("en")
        again = line(ROW)
    finally:
        i18n.activate("en")
    assert again == first
    info = line.cache_info()
    assert (info.hits, info.misses) == (1, 2)


def test_the_history_panel_shows_the_lines_newest_first() -> None:
    env = make_templates().env
    second = TrickRow(4, "North", ROW.plays, "North", 0, 0, False)
    table = SimpleNamespace(
        seats=[], scores=[], totals=(), target=100, history=[ROW, second], seal=None
    )
    panel = env.get_template("partials/panels.html").render(t=table, moving=True)
    assert panel.index('value="4"') < panel.index('value="3"')
    assert "North led" in panel and "West led" in panel
    assert panel.count("<li ") == 2
