"""Maintenance commands for operators, safe to run beside a live server.

    python -m app.maintenance purge [--idle-days N] [--batch N] [--dry-run]

`purge` deletes the anonymous players idle for longer than the retention period (env
`HEARTS_RETENTION_DAYS`, 180 days by default) with all their games (README, "Retention"). It
reads `DATABASE_URL` like the app, works in short transactions, prints one summary line and
exits with 0 (1 if the database failed, 2 for bad arguments or settings).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy.exc import SQLAlchemyError

from app.services.maintenance import DEFAULT_BATCH, PurgeReport, purge
from app.settings import Settings
from app.store import make_engine

MAX_IDLE_DAYS = 36500
"""A bound for `--idle-days` (a hundred years), so the cutoff is always a real date."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command named in `argv` (default: the process's arguments); the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
    except ValueError as err:
        parser.error(str(err))
    engine = make_engine(settings.database_url)
    try:
        report = purge(
            engine,
            now=datetime.now(UTC),
            idle_days=args.idle_days or settings.retention_days,
            batch=args.batch,
            dry_run=args.dry_run,
        )
    except SQLAlchemyError as err:
        print(f"purge failed: {err}", file=sys.stderr)
        return 1
    finally:
        engine.dispose()
    print(summary(report))
    return 0


def summary(report: PurgeReport) -> str:
    """The one line a purge prints."""
    verb = "would remove" if report.dry_run else "removed"
    counts = (
        f"{report.players} players, {report.games} games, {report.actions} actions, "
        f"{report.hand_results} hand results"
    )
    batches = "1 batch" if report.batches == 1 else f"{report.batches} batches"
    return (
        f"purge{' (dry run)' if report.dry_run else ''}: {verb} {counts} "
        f"(idle since before {report.cutoff:%Y-%m-%d %H:%M} UTC; {batches}, "
        f"longest transaction {report.longest_transaction * 1000:.0f} ms)"
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m app.maintenance", description="Maintenance commands (DATABASE_URL)."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    purge_command = commands.add_parser(
        "purge",
        help="delete anonymous players idle longer than the retention period, with their games",
        description=(
            "Delete the anonymous players last seen more than the retention period ago (and "
            "with no game updated since), with all their games, in short transactions."
        ),
    )
    purge_command.add_argument(
        "--idle-days",
        type=_days,
        default=None,
        metavar="N",
        help=(
            "purge players idle for more than N days (default: HEARTS_RETENTION_DAYS, 180); "
            "fewer days than the session cookie's lifetime also purges browsers that still "
            "hold a valid cookie (they start afresh)"
        ),
    )
    purge_command.add_argument(
        "--batch",
        type=_count,
        default=DEFAULT_BATCH,
        metavar="N",
        help=f"players per transaction (default: {DEFAULT_BATCH})",
    )
    purge_command.add_argument(
        "--dry-run", action="store_true", help="count what would be removed, delete nothing"
    )
    return parser


def _count(text: str) -> int:
    """A whole number of at least 1, in ASCII digits."""
    if not (text.isascii() and text.isdigit() and len(text) <= 9 and int(text) >= 1):
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    return int(text)


def _days(text: str) -> int:
    days = _count(text)
    if days > MAX_IDLE_DAYS:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_IDLE_DAYS} days, not {text!r}")
    return days


if __name__ == "__main__":
    sys.exit(main())
