"""Migration 0002 backfills the table of existing games and their seats, on both databases."""

from __future__ import annotations

import json

from alembic import command
from sqlalchemy import Engine, text

from app.engine import GameHeader, RuleOptions
from tests.store.conftest import alembic_config

NOW = "2026-11-30 10:00:00+00:00"


def test_existing_games_get_their_table_and_seats(database_url: str, engine: Engine) -> None:
    with engine.begin() as conn:
        command.downgrade(alembic_config(connection=conn), "0001")
    games = {
        1: (RuleOptions.standard(omnibus=True), ["human", "hard", "hard", "hard"]),
        2: (RuleOptions.cancellation(7), ["human"] + ["easy"] * 6),
        3: (RuleOptions.standard(3), ["human", "medium", "medium"]),
    }
    with engine.begin() as conn:
        conn.execute(
            text("INSERT INTO players (id, created_at, last_seen_at) VALUES ('p', :t, :t)"),
            {"t": NOW},
        )
        for game_id, (options, seats) in games.items():
            conn.execute(
                text(
                    "INSERT INTO games (id, player_id, header, seats, seed, fast_play, status,"
                    " version, hand_number, totals, winners, created_at, updated_at)"
                    " VALUES (:id, 'p', :header, :seats, 1, false, 'active', 0, 0, '[]', '[]',"
                    " :t, :t)"
                ),
                {
                    "id": game_id,
                    "header": json.dumps(GameHeader(options).to_json()),
                    "seats": json.dumps(seats),
                    "t": NOW,
                },
            )
    with engine.begin() as conn:
        command.upgrade(alembic_config(connection=conn), "head")
    with engine.connect() as conn:
        tables = conn.execute(
            text("SELECT id, variant, num_players, omnibus FROM games ORDER BY id")
        ).all()
        assert [(i, v, n, bool(o)) for i, v, n, o in tables] == [
            (1, "standard", 4, True),
            (2, "cancellation", 7, False),
            (3, "standard", 3, False),
        ]
        for game_id, (_, seats) in games.items():
            kinds = conn.execute(
                text("SELECT kind FROM game_seats WHERE game_id = :g ORDER BY seat"),
                {"g": game_id},
            ).scalars()
            assert list(kinds) == seats
    command.check(alembic_config(database_url))
