"""Migration 0006 lets a seat be "expert", keeping every seat and hand result, on both databases;
its downgrade turns Expert seats into Hard ones."""

from __future__ import annotations

import json

import pytest
from alembic import command
from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import IntegrityError

from app.engine import GameHeader, RuleOptions
from tests.store.conftest import alembic_config

NOW = "2026-12-02 10:00:00+00:00"
SEATS = ["human", "expert", "expert", "hard"]


def add_game(conn: Connection, game_id: int, seats: list[str]) -> None:
    conn.execute(
        text(
            "INSERT INTO games (id, player_id, header, seats, seed, fast_play, status,"
            " version, hand_number, totals, winners, created_at, updated_at)"
            " VALUES (:id, 'p', :header, :seats, 1, false, 'active', 0, 0, '[]', '[]', :t, :t)"
        ),
        {
            "id": game_id,
            "header": json.dumps(GameHeader(RuleOptions.standard()).to_json()),
            "seats": json.dumps(seats),
            "t": NOW,
        },
    )
    for seat, kind in enumerate(seats):
        conn.execute(
            text("INSERT INTO game_seats (game_id, seat, kind) VALUES (:g, :s, :k)"),
            {"g": game_id, "s": seat, "k": kind},
        )
        conn.execute(
            text(
                "INSERT INTO hand_results (game_id, hand_number, seat, level, points,"
                " total_after, pass_direction, shot_moon, moon_suffered, queens, hearts,"
                " bonus_cards, tricks_won)"
                " VALUES (:g, 1, :s, :k, 0, 0, 'left', false, false, 0, 0, 0, 0)"
            ),
            {"g": game_id, "s": seat, "k": kind},
        )


def kinds(conn: Connection, table: str, column: str) -> list[str]:
    rows = conn.execute(text(f"SELECT {column} FROM {table} ORDER BY game_id, seat")).scalars()
    return list(rows)


def test_expert_seats_come_and_go_with_the_migration(engine: Engine) -> None:
    with engine.begin() as conn:
        conn.execute(
            text("INSERT INTO players (id, created_at, last_seen_at) VALUES ('p', :t, :t)"),
            {"t": NOW},
        )
        add_game(conn, 1, SEATS)
    with engine.begin() as conn:
        command.downgrade(alembic_config(connection=conn), "0005")
    with engine.connect() as conn:
        assert kinds(conn, "game_seats", "kind") == ["human", "hard", "hard", "hard"]
        assert kinds(conn, "hand_results", "level") == ["human", "hard", "hard", "hard"]
    with pytest.raises(IntegrityError), engine.begin() as conn:
        add_game(conn, 2, SEATS)
    with engine.begin() as conn:
        command.upgrade(alembic_config(connection=conn), "head")
        add_game(conn, 2, SEATS)
    with engine.connect() as conn:
        assert kinds(conn, "game_seats", "kind") == ["human", "hard", "hard", "hard", *SEATS]
        assert len(kinds(conn, "hand_results", "level")) == 8
