"""Languages: complete catalogues, Accept-Language, the language switch, translated pages."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from jinja2.ext import _gettext_alias, _make_new_gettext, _make_new_ngettext
from starlette.testclient import TestClient

from app.web import i18n
from app.web.main import make_templates

REPO = Path(__file__).resolve().parents[2]
TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]
METHODS = [
    ("app/web/**.py", "python"),
    ("app/services/**.py", "python"),
    ("templates/**.html", "jinja2"),
]
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2)}


def source_messages() -> dict[str, str | None]:
    """Every user-facing message of the sources (msgid -> plural id), as `pybabel extract`."""
    found: dict[str, str | None] = {}
    options = {"templates/**.html": {"extensions": "jinja2.ext.i18n"}}
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(REPO), METHODS, options_map=options, keywords=KEYWORDS
    ):
        if isinstance(message, tuple):
            found[message[0]] = message[1]
        else:
            found[message] = None
    return found


def catalogue(language: str) -> Catalog:
    path = i18n.LOCALE_DIR / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as po:
        return read_po(po, locale=language)


def test_sources_have_many_messages() -> None:
    messages = source_messages()
    assert len(messages) > 150
    assert "Your turn." in messages and "Pass %(direction)s" in messages


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogue_translates_every_message(language: str) -> None:
    """Fails when a catalogue lacks a string, leaves one empty or fuzzy, or breaks a
    placeholder."""
    catalog = catalogue(language)
    missing, empty, fuzzy = [], [], []
    for msgid, plural in source_messages().items():
        message = catalog.get(msgid)
        if message is None:
            missing.append(msgid)
            continue
        if message.fuzzy:
            fuzzy.append(msgid)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings) or (plural and len(strings) != catalog.num_plurals):
            empty.append(msgid)
    assert not missing, f"{language} lacks {len(missing)} strings, e.g. {missing[:5]}"
    assert not empty, f"{language} leaves {len(empty)} strings empty, e.g. {empty[:5]}"
    assert not fuzzy, f"{language} has {len(fuzzy)} fuzzy strings, e.g. {fuzzy[:5]}"
    problems = [(m.id, errors) for m, errors in catalog.check()]
    assert not problems, f"{language} placeholder errors: {problems[:5]}"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("uk-UA,uk;q=0.9,en;q=0.8", "uk"),
        ("ru", "ru"),
        ("sr-Cyrl-RS,sr;q=0.9", "sr"),
        ("de-DE,de;q=0.9", "en"),
        ("", "en"),
        ("fr;q=0.9, ru;q=0.8", "ru"),
    ],
)
def test_language_follows_accept_language(header: str, expected: str) -> None:
    assert i18n.choose(None, header) == expected
    assert i18n.choose("sr", header) == "sr"  # the remembered choice wins


def test_pages_speak_the_chosen_language(client: TestClient) -> None:
    page = client.get("/", headers={"Accept-Language": "uk"})
    assert '<html lang="uk">' in page.text
    assert i18n.translations("uk").gettext("Computer players") in page.text
    switched = client.post(
        "/language", data={"lang": "ru", "next": "/rules"}, follow_redirects=False
    )
    assert switched.status_code == 303 and switched.headers["location"] == "/rules"
    rules = client.get("/rules", headers={"Accept-Language": "uk"})
    assert '<html lang="ru">' in rules.text
    assert i18n.translations("ru").gettext("Tips for winning at Hearts") in rules.text
    # The switch never redirects off the site.
    away = client.post("/language", data={"lang": "sr", "next": "//evil.example/"})
    assert away.url.path == "/"


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_template_gettext_renders_as_jinjas_new_style_gettext(language: str) -> None:
    """The templates' lean `_()`, `gettext()` and `ngettext()` give what Jinja's own new-style
    calls give: translated, the variables escaped into the markup, `%%` a percent sign, and
    `{% trans %}` blocks alike."""
    env = make_templates().env
    source = (
        "{{ _('Total') }}|{{ _('Hand %(n)s', n=3) }}|{{ _('Hand %(n)s', n='<b>&') }}|"
        "{{ ngettext('%(num)s card', '%(num)s cards', 1) }}|"
        "{{ ngettext('%(num)s card', '%(num)s cards', 5) }}|{{ _('100%%') }}|"
        "{% trans n='<i>' %}Hand {{ n }}{% endtrans %}"
    )
    jinjas = {
        "_": _gettext_alias,
        "gettext": _make_new_gettext(i18n.gettext),
        "ngettext": _make_new_ngettext(i18n.ngettext),
    }
    ours = {name: env.globals[name] for name in jinjas}
    assert ours["_"] is i18n.template_gettext
    i18n.activate(language)
    try:
        lean = env.from_string(source).render()
        env.globals.update(jinjas)
        reference = env.from_string(source).render()
    finally:
        i18n.activate(i18n.DEFAULT)
    assert lean == reference
    assert "&lt;b&gt;&amp;" in lean and "&lt;i&gt;" in lean and "100%|" in lean
    if language != i18n.DEFAULT:
        assert i18n.translations(language).gettext("Total") in lean
