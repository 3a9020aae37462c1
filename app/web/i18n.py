"""Languages: English, Ukrainian, Russian and Serbian (Cyrillic), through gettext (Babel).

The catalogues are the `.po` files under `app/web/locale/`, read and compiled in memory when the
app starts (no build step). The language of a request follows the `hearts_lang` cookie that the
language switch sets, else the browser's `Accept-Language`, else English; it is kept in a context
variable, so the templates' `_()` and `ngettext()` speak it.

Update the catalogues after changing any user-facing string with the two `pybabel` commands
of the README (extract, then update), then translate the new entries (a test fails while any
catalogue lacks a string).
"""

from __future__ import annotations

import io
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from babel import negotiate_locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations
from markupsafe import Markup, escape

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES: dict[str, str] = {
    "en": "English",
    "uk": "Українська",
    "ru": "Русский",
    "sr": "Српски",
}
"""The languages offered, by code, each named in itself."""
DEFAULT = "en"
COOKIE = "hearts_lang"

_current: ContextVar[str] = ContextVar("language", default=DEFAULT)


def N_(message: str) -> str:
    """Mark a message for extraction; it is translated where it is shown."""
    return message


@cache
def translations(language: str) -> NullTranslations:
    """The compiled catalogue of `language` (English is the source language)."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / "messages.po"
    if language == DEFAULT or not path.exists():
        return NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=language)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(fp=buffer)


def current() -> str:
    """The language of the request being served."""
    return _current.get()


def activate(language: str) -> None:
    """Speak `language` for the rest of this request (context)."""
    _current.set(language if language in LANGUAGES else DEFAULT)


def gettext(message: str) -> str:
    """`message` in the current language."""
    return translations(current()).gettext(message)


def name(message_id: str | None) -> Markup:
    """A name the view-model passes as a message id (a seat's name), translated and escaped for
    a template ("" for none); made once per language (a table names seats dozens of times)."""
    return _name(current(), message_id) if message_id else Markup()


@cache
def _name(language: str, message_id: str) -> Markup:
    return escape(translations(language).gettext(message_id))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for `n`, in the current language."""
    return translations(current()).ngettext(singular, plural, n)


def template_gettext(message: str, **variables: Any) -> Markup:
    """The templates' `_()` and `gettext()`: Jinja's new-style gettext for HTML (every template
    is autoescaped), the translation as markup with the variables escaped into it, and always
    formatted (`%%` is a percent sign). Jinja's own calls twice through the template's context
    on the way; a table's answer makes about fifty of them."""
    return Markup(translations(current()).gettext(message)) % variables


def template_ngettext(singular: str, plural: str, n: int, **variables: Any) -> Markup:
    """The templates' `ngettext()`, as `template_gettext` (`num` is `n` unless given)."""
    variables.setdefault("num", n)
    return Markup(translations(current()).ngettext(singular, plural, n)) % variables


def choose(cookie: str | None, accept_language: str | None) -> str:
    """The language for a request: the remembered choice, else the browser's preference."""
    if cookie in LANGUAGES:
        return cookie
    if accept_language:
        wanted = []
        for part in accept_language.split(","):
            tag = part.split(";")[0].strip().replace("-", "_")
            if tag:
                wanted.append(tag)
        found = negotiate_locale(wanted, list(LANGUAGES), sep="_")
        if found is None:  # e.g. "sr_Cyrl_RS" or "uk_UA" against bare codes
            found = next((w.split("_")[0] for w in wanted if w.split("_")[0] in LANGUAGES), None)
        if found in LANGUAGES:
            return found
    return DEFAULT
