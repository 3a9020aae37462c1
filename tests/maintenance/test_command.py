"""`python -m app.maintenance purge` as an operator runs it: a real process on a migrated SQLite
file (`DATABASE_URL`), one summary line, exit code 0; and the retention setting it defaults to."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from app.maintenance import main
from app.settings import DEFAULT_RETENTION_DAYS, Settings
from app.store import make_engine, make_sessionmaker
from app.store.models import Player
from tests.maintenance.players import add_player, add_small_game
from tests.store.conftest import REPO, migrate

SUMMARY = re.compile(
    r"purge( \(dry run\))?: (removed|would remove) (\d+) players, (\d+) games, (\d+) actions, "
    r"(\d+) hand results \(idle since before (\d{4}-\d\d-\d\d \d\d:\d\d) UTC; "
    r"(\d+) batch(es)?, longest transaction \d+ ms\)"
)


@pytest.fixture
def database(tmp_path: Path) -> str:
    """A migrated SQLite file (a URL) with players idle 200, 60 and 1 day(s), one small game
    each, at the real time (the command's clock)."""
    url = f"sqlite:///{tmp_path / 'hearts.db'}"
    migrate(url)
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    now = datetime.now(UTC)
    for player_id, days in (("idle-200", 200), ("idle-60", 60), ("active", 1)):
        add_player(sessions, player_id, now - timedelta(days=days))
        add_small_game(sessions, player_id, now - timedelta(days=days))
    engine.dispose()
    return url


def run(url: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """The command in a new Python process with `DATABASE_URL=url` and no retention setting."""
    environ = {k: v for k, v in os.environ.items() if k != "HEARTS_RETENTION_DAYS"}
    return subprocess.run(
        [sys.executable, "-m", "app.maintenance", *args],
        cwd=REPO,
        env={**environ, "DATABASE_URL": url, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def players(url: str) -> list[str]:
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine)() as session:
            return list(session.scalars(select(Player.id).order_by(Player.id)))
    finally:
        engine.dispose()


def test_command_purges_players_idle_past_the_retention_period_and_prints_one_line(
    database: str,
) -> None:
    done = run(database, "purge")

    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    found = SUMMARY.fullmatch(lines[0])
    assert found, lines[0]
    assert found.group(1, 2) == (None, "removed")
    assert found.group(3, 4, 5, 6) == ("1", "1", "3", "4")
    cutoff = datetime.now(UTC) - timedelta(days=DEFAULT_RETENTION_DAYS)
    assert found.group(7) in {f"{cutoff - timedelta(minutes=m):%Y-%m-%d %H:%M}" for m in range(3)}
    assert players(database) == ["active", "idle-60"]


def test_command_dry_run_deletes_nothing(database: str) -> None:
    done = run(database, "purge", "--dry-run", "--idle-days", "30", "--batch", "1")

    assert done.returncode == 0, done.stderr
    found = SUMMARY.fullmatch(done.stdout.strip())
    assert found, done.stdout
    assert found.group(1, 2, 3, 4, 8) == (" (dry run)", "would remove", "2", "2", "2")
    assert players(database) == ["active", "idle-200", "idle-60"]


def test_command_takes_the_period_from_the_retention_setting(database: str) -> None:
    done = run(database, "purge", HEARTS_RETENTION_DAYS="30")

    assert done.returncode == 0, done.stderr
    assert SUMMARY.fullmatch(done.stdout.strip())
    assert players(database) == ["active"]


@pytest.mark.parametrize(
    "args", [["purge", "--idle-days", "0"], ["purge", "--batch", "²"], ["purge", "--x"], []]
)
def test_command_refuses_bad_arguments_with_usage(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    assert "usage: python -m app.maintenance" in capsys.readouterr().err


def test_retention_setting_defaults_to_180_days_and_sets_the_cookie_lifetime(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("HEARTS_RETENTION_DAYS", raising=False)
    default = Settings.from_env()
    assert default.retention_days == DEFAULT_RETENTION_DAYS == 180
    assert default.session_max_age == 180 * 24 * 3600
    monkeypatch.setenv("HEARTS_RETENTION_DAYS", "30")
    assert Settings.from_env().session_max_age == 30 * 24 * 3600


@pytest.mark.parametrize("value", ["0", "401", "-5", "²", "1e3", "9" * 5000])
def test_retention_setting_refuses_a_period_browsers_cannot_keep(
    value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HEARTS_RETENTION_DAYS", value)
    with pytest.raises(ValueError, match="HEARTS_RETENTION_DAYS"):
        Settings.from_env()
