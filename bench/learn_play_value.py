"""Fit the learned value of Expert's cards (`app.bots.play_value`) to Hard's games.

    python -m bench.learn_play_value [--hands 4000] [--seed 100000] [--jobs 1] [--data FILE]
                                     [--write [FILE]]

The hands are `bench.learn_pass_value`'s: Hard plays every seat of hands 0 … hands−1 at the
standard four-seat table, hand i dealt from `random.Random(seed + i)` as hand (i mod 4) + 1 of a
fresh game, every decision drawn with `decision_rng(seed + i, action, seat)`. As each trick from
the second to the eleventh starts (`play_value.FIRST`, `play_value.LAST`), the hand is also
played out from there with the careful player's habits in the true layout, as Expert's
play-outs imagine hands (`bench.playouts`). A hand's record: its real points, and for each of
those tricks its number, its leader, the four hands, the points taken so far, the play-out's
points and whether the play-out ended in a moon.

`--data FILE` keeps the records (JSON lines, compressed if FILE is named `….gz`) and plays only
the hands the file lacks. bench/results/play-value-hands.jsonl.gz holds the hands the shipped
model was fitted to.

The model (scikit-learn's gradient-boosted trees with `bench.learn_pass_value`'s settings; a
development dependency only, the game reads the trees from `app/bots/play_value.json`) predicts a
seat's real points from the features `play_value` documents, one row per seat of every trick of
every hand. It prints, for each trick, the share of the spread of a seat's real points explained
on held-out hands (five folds by hand) by a straight line in its play-out points and by the
model, `trick T: play-out P, model M`, then the same over every trick, `learn_play_value: N
hands, tricks 2-11, held-out R² of a seat's points: play-out P, model M`. `--write` fits the
model on every hand and stores its trees in `app/bots/play_value.json` (`--write FILE`: in FILE).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import KFold

from app.bots import play_value
from bench import learn_pass_value, playouts
from bench.learn_pass_value import FOLDS, PLAYERS, SEATS, TABLE, Record, model, r2, seat_rows

TRICKS = range(play_value.FIRST, play_value.LAST + 1)


def record(task: tuple[str, int, int]) -> Record:
    """Hand `index` of Hard's self-play at `table` with the play-outs from the start of its
    tricks `TRICKS`."""
    table, seed, index = task
    positions = playouts.play((table, PLAYERS, seed, index))
    return {
        "i": index,
        "real": list(positions[0].real),
        "starts": [
            {
                "t": pos.trick,
                "lead": pos.leader,
                "hands": [list(h) for h in pos.hands],
                "taken": list(pos.taken),
                "po": list(pos.playout),
                "pom": pos.playout_moon,
            }
            for pos in positions
            if pos.trick in TRICKS
        ],
    }


def features(records: Sequence[Record]) -> tuple[np.ndarray, ...]:
    """The model's features (one row per seat of every trick of every hand, in `play_value`'s
    order), the seats' real points, the hand each row belongs to and its trick."""
    rows, target, group, trick = [], [], [], []
    for h, rec in enumerate(records):
        for start in rec["starts"]:
            total, taken = sum(start["po"]), sum(start["taken"])
            heads = [
                [
                    own,
                    total - own,
                    mine,
                    taken - mine,
                    float(start["lead"] == s),
                    float(start["pom"]),
                    float(start["t"]),
                ]
                for s, (own, mine) in enumerate(zip(start["po"], start["taken"], strict=True))
            ]
            rows.extend(seat_rows(heads, start["hands"]))
            target.extend(rec["real"])
            group.extend([h] * SEATS)
            trick.extend([start["t"]] * SEATS)
    return np.array(rows), np.array(target, dtype=np.float64), np.array(group), np.array(trick)


def held_out(records: Sequence[Record], seed: int) -> dict[int | None, tuple[float, float]]:
    """R² of a seat's real points on held-out hands (five folds by hand), by trick (those the
    records hold) and over every trick (`None`): the play-out's points by a straight line
    fitted at each trick, and the model."""
    x, y, group, trick = features(records)
    line, fitted = np.zeros_like(y), np.zeros_like(y)
    folds = KFold(FOLDS, shuffle=True, random_state=seed).split(np.arange(len(records)))
    for train, test in folds:
        fit_rows, test_rows = np.isin(group, train), np.isin(group, test)
        for t in TRICKS:
            a, b = fit_rows & (trick == t), test_rows & (trick == t)
            if a.any() and b.any():
                line[b] = LinearRegression().fit(x[a, :1], y[a]).predict(x[b, :1])
        fitted[test_rows] = model(seed).fit(x[fit_rows], y[fit_rows]).predict(x[test_rows])
    out: dict[int | None, tuple[float, float]] = {None: (r2(y, line), r2(y, fitted))}
    for t in sorted(set(trick.tolist())):
        at = trick == t
        out[t] = (r2(y[at], line[at]), r2(y[at], fitted[at]))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """Play (or read), fit, print the held-out figures and write the model if asked."""
    args = learn_pass_value.arguments(argv, __doc__, tables=(TABLE,))
    path = learn_pass_value.destination(args, play_value.MODEL)
    records = learn_pass_value.gather(args.hands, args.seed, args.jobs, args.data, record)
    figures = held_out(records, args.seed)
    line, fitted = figures.pop(None)
    for t, (by_line, by_model) in figures.items():
        print(f"trick {t}: play-out {by_line:.3f}, model {by_model:.3f}")
    print(
        f"learn_play_value: {len(records)} hands, tricks {TRICKS[0]}-{TRICKS[-1]}, "
        f"held-out R² of a seat's points: play-out {line:.3f}, model {fitted:.3f}"
    )
    if path is not None:
        x, y, _, _ = features(records)
        tricks = [TRICKS[0], TRICKS[-1]]
        learn_pass_value.write(
            path, x, y, args.seed, (line, fitted), hands=len(records), tricks=tricks
        )


if __name__ == "__main__":
    main()
