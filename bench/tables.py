"""Table names used by the benchmarks' `--table` option."""

from __future__ import annotations

from app.engine import RuleOptions


def parse_table(name: str) -> RuleOptions:
    """`standard-N` (3–7), `omnibus-4` (Omnibus at N seats) or `cancellation-N` (6–11)."""
    kind, _, count = name.partition("-")
    n = int(count) if count else 4
    if kind == "standard":
        return RuleOptions.standard(n)
    if kind == "omnibus":
        return RuleOptions.standard(n, omnibus=True)
    if kind == "cancellation":
        return RuleOptions.cancellation(n)
    raise ValueError(f"unknown table {name!r}: use standard-N, omnibus-N or cancellation-N")
