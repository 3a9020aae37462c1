"""Fit the learned value of Expert's pass (`app.bots.pass_value`) to Hard's games.

    python -m bench.learn_pass_value [--table standard-4] [--hands 4000] [--seed 100000]
                                     [--jobs 1] [--data FILE] [--write [FILE]]

Hard plays every seat of hands 0 … hands−1 at `--table` (`TABLES`: the standard four-seat table,
or Omnibus at four seats), as `bench.playouts` plays them: hand i is dealt from
`random.Random(seed + i)` as hand (i mod 4) + 1 of a fresh game (so left, right, across and hold
come in turn), every decision drawn with `decision_rng(seed + i, action, seat)`. As the first
trick starts, the hand is also played out once from the true layout with the careful player's
habits, as Expert's pass imagines hands. A hand's record: the four hands then, the first leader,
every seat's play-out points, whether the play-out ended in a moon, and every seat's real
points.

`--data FILE` keeps the records (JSON lines, one a hand) as they come and plays only the hands
the file lacks, so a long run can be resumed and the fit rerun without playing again.
bench/results/pass-value-hands.jsonl holds hands 0–7,999 at the standard table: the shipped
model was fitted to the first 4,000 (`--hands 4000`; to 3,966 of them in fact), and a model
fitted to all 8,000 was measured in play and not adopted.
bench/results/pass-value-hands-omnibus-4.jsonl holds the hands of the Omnibus model fitted and
measured in play, which the game does not use either (bench/results/README.md).

The model (scikit-learn's gradient-boosted trees, a development dependency only: the game reads
the trees from `app/bots/pass_value.json`) predicts a seat's real points from the features
`pass_value` documents. It prints the share of the spread of a seat's real points that is
explained on held-out hands (five folds by hand): by a straight line in its play-out points, and
by the model, `learn_pass_value: TABLE, N hands, held-out R² of a seat's points: play-out P,
model M`. `--write` fits the model on every hand and stores its trees in `app/bots/pass_value.json`
(only for the table the game's model is of, `pass_value.FITTED`), `--write FILE` in FILE.
"""

from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import KFold

from app.bots import hard, pass_value
from bench import playouts

TABLE = pass_value.FITTED
"""The table fitted unless `--table` says otherwise (and the only one `bench.learn_play_value`
fits)."""
TABLES = (TABLE, "omnibus-4")
"""The tables whose hands `pass_value`'s features describe (four seats, hands of 13 cards)."""
PLAYERS = "hard"
SEATS = pass_value.SEATS
FOLDS = 5
Record = dict[str, Any]
"""A hand: `i`, `hands` (four lists of card indexes), `leader`, `playout` (points), `moon`
(whether the play-out ended in one) and `points` (real)."""


SETTINGS = {"max_iter": 300, "learning_rate": 0.05, "max_leaf_nodes": 31, "min_samples_leaf": 40}
"""The model's settings, chosen on held-out hands (bench/results/README.md)."""


def model(seed: int) -> HistGradientBoostingRegressor:
    """The model as fitted (scikit-learn stops adding trees early once a tenth of the seats,
    drawn with `seed`, stops gaining)."""
    return HistGradientBoostingRegressor(**SETTINGS, random_state=seed)


def record(task: tuple[str, int, int]) -> Record:
    """Hand `index` of Hard's self-play at `table` with the play-out of its first trick."""
    table, seed, index = task
    first = playouts.play((table, PLAYERS, seed, index))[0]
    assert first.trick == 1
    return {
        "i": index,
        "hands": [list(h) for h in first.hands],
        "leader": first.leader,
        "playout": list(first.playout),
        "moon": first.playout_moon,
        "points": list(first.real),
    }


def gather(
    hands: int,
    seed: int,
    jobs: int,
    data: Path | None,
    make: Callable[[tuple[str, int, int]], Record] = record,
    table: str = TABLE,
) -> list[Record]:
    """Records of hands 0 … `hands`−1 at `table` (`make((table, seed, i))`), read from `data`
    where it has them (its table and seed must be these), the others played and appended to it.
    A file named `….gz` is read and written compressed."""
    lines = _lines(data) if data is not None and data.exists() else []
    header = {"table": table, "players": PLAYERS, "seed": seed}
    if lines and json.loads(lines[0]) != header:
        raise SystemExit(f"{data} holds hands of another table or seed: {lines[0]}")
    if data is not None and not lines:
        _append(data, header)
    have: dict[int, Record] = {r["i"]: r for r in map(json.loads, lines[1:])}
    tasks = [(table, seed, i) for i in range(hands) if i not in have]
    if tasks:
        hard.warm_up()
        with multiprocessing.Pool(max(1, jobs)) as pool:
            for found in pool.imap_unordered(make, tasks, chunksize=1):
                have[found["i"]] = found
                if data is not None:
                    _append(data, found)
    return [have[i] for i in range(hands)]


def _lines(path: Path) -> list[str]:
    """The lines of `path`, decompressed if it is named `….gz`."""
    if path.suffix == ".gz":
        with gzip.open(path, "rt") as text:
            return text.read().splitlines()
    return path.read_text().splitlines()


def _append(path: Path, found: Record) -> None:
    """Add one JSON line to `path` (a gzip member of its own if it is named `….gz`)."""
    line = json.dumps(found, separators=(",", ":")) + "\n"
    with gzip.open(path, "at") if path.suffix == ".gz" else path.open("a") as out:
        out.write(line)


def features(records: Sequence[Record]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The model's features (one row per seat of every hand, in `pass_value`'s order), the
    seats' real points, and the hand each row belongs to."""
    rows, target, group = [], [], []
    for h, rec in enumerate(records):
        total = sum(rec["playout"])
        heads = [
            [own, total - own, float(rec["leader"] == s), float(rec["moon"])]
            for s, own in enumerate(rec["playout"])
        ]
        rows.extend(seat_rows(heads, rec["hands"]))
        target.extend(rec["points"])
        group.extend([h] * SEATS)
    return np.array(rows), np.array(target, dtype=np.float64), np.array(group)


def seat_rows(heads: Sequence[Sequence[float]], hands: Sequence[Sequence[int]]) -> list[np.ndarray]:
    """Every seat's row of features: its head, then the four hands as card indicators, its own
    first, then the seats to its left in turn (as `pass_value` and `play_value` read them)."""
    cards = np.zeros((SEATS, 52))
    for s, held in enumerate(hands):
        cards[s, list(held)] = 1.0
    return [
        np.concatenate([head, *(cards[(s + k) % SEATS] for k in range(SEATS))])
        for s, head in enumerate(heads)
    ]


def r2(y: np.ndarray, guess: np.ndarray) -> float:
    """The share of the spread of `y` that `guess` explains."""
    return 1 - float(((y - guess) ** 2).sum()) / float(((y - y.mean()) ** 2).sum())


def held_out(records: Sequence[Record], seed: int) -> tuple[float, float]:
    """R² of a seat's real points on held-out hands (five folds by hand): the play-out's points
    by a straight line, and the model."""
    x, y, group = features(records)
    line, fitted = np.zeros_like(y), np.zeros_like(y)
    folds = KFold(FOLDS, shuffle=True, random_state=seed).split(np.arange(len(records)))
    for train, test in folds:
        fit_rows, test_rows = np.isin(group, train), np.isin(group, test)
        linear = LinearRegression().fit(x[fit_rows, :1], y[fit_rows])
        line[test_rows] = linear.predict(x[test_rows, :1])
        trees = model(seed).fit(x[fit_rows], y[fit_rows])
        fitted[test_rows] = trees.predict(x[test_rows])
    return r2(y, line), r2(y, fitted)


def export(trees: HistGradientBoostingRegressor) -> dict[str, Any]:
    """The fitted trees in `pass_value`'s format (from scikit-learn's own node tables)."""
    out = []
    for (predictor,) in trees._predictors:
        nodes = predictor.nodes
        if nodes["is_categorical"].any():
            raise ValueError("categorical splits are not supported")
        out.append(
            {
                "feature": nodes["feature_idx"].tolist(),
                "threshold": [float(t) for t in nodes["num_threshold"]],
                "left": nodes["left"].tolist(),
                "right": nodes["right"].tolist(),
                "leaf": nodes["is_leaf"].astype(int).tolist(),
                "value": [float(v) for v in nodes["value"]],
            }
        )
    baseline = float(np.ravel(trees._baseline_prediction)[0])
    return {"features": int(trees.n_features_in_), "baseline": baseline, "trees": out}


def arguments(
    argv: Sequence[str] | None, doc: str, tables: Sequence[str] = TABLES
) -> argparse.Namespace:
    """The command line shared with `bench.learn_play_value` (which fits at `TABLE` only)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--table", default=TABLE, choices=tables)
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=100000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--data", type=Path)
    parser.add_argument("--write", nargs="?", const="", metavar="FILE")
    args = parser.parse_args(argv)
    if args.hands < FOLDS:
        raise SystemExit(f"--hands must be at least {FOLDS}")
    return args


def destination(args: argparse.Namespace, game: Path) -> Path | None:
    """Where `--write` stores the trees: its FILE, or else the game's model `game` (fitted at
    `TABLE`, so only for `--table TABLE`); None without `--write`."""
    if args.write is None:
        return None
    if args.write:
        return Path(args.write)
    if args.table != TABLE:
        raise SystemExit(f"the game's model is fitted at {TABLE}: --write FILE for {args.table}")
    return game


def write(
    path: Path,
    x: np.ndarray,
    y: np.ndarray,
    seed: int,
    held: tuple[float, float],
    table: str = TABLE,
    **about: Any,
) -> None:
    """Fit the model to every row of hands played at `table` and store its trees in `path`, with
    a record of the fit (`about` adds to it; `held` is the held-out R² of the play-out and of
    the model)."""
    data = export(model(seed).fit(x, y))
    settings = ", ".join(f"{name}={value}" for name, value in SETTINGS.items())
    data["fitted"] = {
        "players": PLAYERS,
        "table": table,
        **about,
        "seed": seed,
        "model": f"HistGradientBoostingRegressor({settings})",
        "trees": len(data["trees"]),
        "held_out_r2": {"model": round(held[1], 3), "play_out": round(held[0], 3)},
        "date": datetime.now(UTC).date().isoformat(),
    }
    path.write_text(json.dumps(data, separators=(",", ":")))


def main(argv: Sequence[str] | None = None) -> None:
    """Play (or read), fit, print the held-out figures and write the model if asked."""
    args = arguments(argv, __doc__)
    path = destination(args, pass_value.MODEL)
    records = gather(args.hands, args.seed, args.jobs, args.data, table=args.table)
    line, fitted = held_out(records, args.seed)
    print(
        f"learn_pass_value: {args.table}, {len(records)} hands, held-out R² of a seat's points: "
        f"play-out {line:.3f}, model {fitted:.3f}"
    )
    if path is not None:
        x, y, _ = features(records)
        write(path, x, y, args.seed, (line, fitted), args.table, hands=len(records))


if __name__ == "__main__":
    main()
