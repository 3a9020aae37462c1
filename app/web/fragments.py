"""Template fragments rendered once per language and value, then reused.

A move's answer carries this hand's trick history, and every line of it but the newest is the
same as in the answer before: such a line is rendered by its template macro once (per language
and per server process) and taken from a bounded cache afterwards. The value must be hashable
and immutable (the view-model's frozen dataclasses), and the macro must depend on nothing else
than its argument, the language and the environment's globals.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import _CacheInfo, lru_cache

import jinja2
from markupsafe import Markup

from app.web import i18n

CACHE_SIZE = 4096
"""Fragments kept per macro: a few KB each, so at most a few MB; enough for the lines of the
hands being played by several hundred players at once."""


class CachedMacro:
    """Renders `macro` of `template` for a value, in the current language, remembering the
    newest `size` results."""

    def __init__(
        self, env: jinja2.Environment, template: str, macro: str, size: int = CACHE_SIZE
    ) -> None:
        def render(language: str, value: Hashable) -> Markup:
            function = getattr(env.get_template(template).module, macro)
            return Markup(function(value))

        self._render = lru_cache(maxsize=size)(render)

    def __call__(self, value: Hashable) -> Markup:
        return self._render(i18n.current(), value)

    def cache_info(self) -> _CacheInfo:
        """Hits, misses and size of the cache."""
        return self._render.cache_info()
