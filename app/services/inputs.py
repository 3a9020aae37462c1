"""Reading numbers and dates that come from outside (paths, forms, query strings) strictly.

`str.isdigit()` is true for "²" and "٣", which `int()` then refuses or reads as another number,
and a 5,000-digit number overflows the database's integers: every number from a request is read
here, as ASCII digits within bounds, and every date within a range the database and the
calendar arithmetic can hold.
"""

from __future__ import annotations

import re
from datetime import date

_DIGITS = re.compile(r"[0-9]{1,18}")
MAX_ID = 2**63 - 1
"""The largest id the databases can hold (a signed 64-bit integer)."""
FIRST_DAY = date(2000, 1, 1)
LAST_DAY = date(2100, 12, 31)


def ascii_int(text: str, low: int = 0, high: int = MAX_ID) -> int | None:
    """`text` as a whole number in `low..high` if it is 1–18 ASCII digits; else None."""
    if not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if low <= value <= high else None


def day(text: str) -> date | None:
    """`text` as an ISO date (YYYY-MM-DD) between `FIRST_DAY` and `LAST_DAY`; else None."""
    if len(text) != 10 or not text.isascii():
        return None
    try:
        value = date.fromisoformat(text)
    except ValueError:
        return None
    return value if FIRST_DAY <= value <= LAST_DAY else None
