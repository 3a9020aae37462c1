"""Reading the statistics pages in tests: the figures table and the headline tiles."""

from __future__ import annotations

import re
from html.parser import HTMLParser


class FigureCells(HTMLParser):
    """Collects the text of every `<td data-subject>` of every `<tr data-row>`, and of every
    `<dd data-figure>` tile, with whitespace collapsed."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: dict[tuple[str, str], str] = {}
        self.tiles: dict[str, str] = {}
        self._row: str | None = None
        self._target: tuple[str, str] | None = None
        self._tile: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "tr":
            self._row = values.get("data-row")
        elif tag == "td" and self._row and values.get("data-subject"):
            self._target = (self._row, values["data-subject"] or "")
            self._text = []
        elif tag == "dd" and values.get("data-figure"):
            self._tile = values["data-figure"]
            self._text = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._target is not None:
            self.cells[self._target] = " ".join("".join(self._text).split())
            self._target = None
        elif tag == "dd" and self._tile is not None:
            self.tiles[self._tile] = " ".join("".join(self._text).split())
            self._tile = None
        elif tag == "tr":
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._target is not None or self._tile is not None:
            self._text.append(data)


def read_figures(html: str) -> FigureCells:
    """The figures of a statistics page."""
    parser = FigureCells()
    parser.feed(html)
    return parser


def subjects(html: str) -> list[str]:
    """The subjects (columns) of the figures table, in order."""
    return re.findall(r'<th scope="col" data-subject="(\w+)"', html)
