"""`bench.learn_pass_value` plays Hard's hands with the play-out of their first trick, keeps them
in a file it resumes, fits and prints its held-out figures (a few hands, without `--write`: the
shipped trees come from running it on thousands); its export is the game's walk of the trees."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from app.bots import pass_value
from bench import learn_pass_value
from tests.bench.helpers import bench_lines

LINE = (
    r"learn_pass_value: standard-4, 6 hands, held-out R² of a seat's points: "
    r"play-out (-?\d+\.\d{3}), model (-?\d+\.\d{3})"
)


def test_learn_pass_value_records_hards_hands_and_resumes(tmp_path: Path) -> None:
    before = pass_value.MODEL.read_text()
    data = tmp_path / "hands.jsonl"
    first = bench_lines("learn_pass_value", "--hands", "6", "--seed", "7", "--data", str(data))
    assert re.fullmatch(LINE, first[-1]), first
    header, *lines = data.read_text().splitlines()
    assert json.loads(header) == {"table": "standard-4", "players": "hard", "seed": 7}
    records = sorted(map(json.loads, lines), key=lambda r: r["i"])
    assert [r["i"] for r in records] == list(range(6))
    for r in records:
        cards = sorted(c for held in r["hands"] for c in held)
        assert cards == list(range(52)) and all(len(held) == 13 for held in r["hands"])
        assert 0 in r["hands"][r["leader"]]  # R5.1: the 2♣ leads the first trick
        assert sum(r["points"]) in (26, 78) and sum(r["playout"]) in (26, 78)
        assert (sum(r["playout"]) == 78) is r["moon"]
    assert learn_pass_value.record(("standard-4", 7, 2)) == records[2]  # played again
    again = bench_lines("learn_pass_value", "--hands", "6", "--seed", "7", "--data", str(data))
    assert again == first and data.read_text().splitlines()[1:] == lines  # nothing replayed
    assert pass_value.MODEL.read_text() == before
    with pytest.raises(SystemExit, match="another table or seed"):
        learn_pass_value.gather(6, 8, 1, data)
    with pytest.raises(SystemExit, match="another table or seed"):
        learn_pass_value.gather(6, 7, 1, data, table="omnibus-4")


def test_learn_pass_value_plays_omnibus_hands_at_omnibus(tmp_path: Path) -> None:
    """`--table omnibus-4`: hands played and scored by Omnibus's rules, in the play-out as in real
    play: the J♦ is worth −10 to the seat that takes it, so a hand's points sum to 16, or to 68
    after a moon (R11.2, R20.1, R20.3, TV-34)."""
    data = tmp_path / "hands.jsonl"
    where = ("--table", "omnibus-4", "--data", str(data))
    lines = bench_lines("learn_pass_value", *where, "--hands", "5", "--seed", "7")
    assert re.fullmatch(LINE.replace("standard-4, 6", "omnibus-4, 5"), lines[-1]), lines
    header, *rows = data.read_text().splitlines()
    assert json.loads(header) == {"table": "omnibus-4", "players": "hard", "seed": 7}
    records = sorted(map(json.loads, rows), key=lambda r: r["i"])
    assert [r["i"] for r in records] == list(range(5))
    for r in records:
        assert sum(r["points"]) in (16, 68) and sum(r["playout"]) in (16, 68)
        assert (sum(r["playout"]) == 68) is r["moon"]


def test_the_written_trees_predict_what_scikit_learn_predicts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--write` on made-up hands (the points follow the queen of spades and the play-out) stores
    trees that `pass_value.predict`, walking them from the hands as the game holds them, makes
    give scikit-learn's predictions: the features are built in the same order."""
    rng = np.random.default_rng(1)
    data = tmp_path / "hands.jsonl"
    records = []
    for i in range(300):
        order = rng.permutation(52)
        hands = [sorted(order[13 * s : 13 * (s + 1)].tolist()) for s in range(4)]
        playout = rng.multinomial(26, [0.25] * 4).tolist()
        queen = next(s for s in range(4) if 36 in hands[s])
        points = [p + (13 if s == queen else 0) for s, p in enumerate(playout)]
        records.append(
            {
                "i": i,
                "hands": hands,
                "leader": int(rng.integers(4)),
                "playout": playout,
                "moon": False,
                "points": points,
            }
        )
    header = {"table": "standard-4", "players": "hard", "seed": 7}
    data.write_text("\n".join(json.dumps(r) for r in [header, *records]) + "\n")
    written = tmp_path / "model.json"
    learn_pass_value.main(
        ["--hands", "300", "--seed", "7", "--data", str(data), "--write", str(written)]
    )
    assert re.fullmatch(LINE.replace("6 hands", "300 hands"), capsys.readouterr().out.strip())
    loaded = pass_value.trees(written)
    fitted = json.loads(written.read_text())["fitted"]
    assert fitted["hands"] == 300 and fitted["seed"] == 7 and fitted["trees"] == len(loaded.start)
    x, y, group = learn_pass_value.features(records)
    assert x.shape == (1200, pass_value.FEATURES) and group[-1] == 299
    expected = learn_pass_value.model(7).fit(x, y).predict(x)
    monkeypatch.setattr(pass_value, "trees", lambda: loaded)
    held = np.zeros((300, 4, 52), dtype=np.int8)
    for r, rec in enumerate(records):
        for s, cards in enumerate(rec["hands"]):
            held[r, s, cards] = 1
    got = pass_value.predict(
        held,
        np.array([r["playout"] for r in records]),
        np.array([r["leader"] for r in records]),
        np.zeros(300, dtype=np.bool_),
    )
    assert np.allclose(got.ravel(), expected, rtol=0, atol=1e-9)
    assert np.corrcoef(got.ravel(), y)[0, 1] > 0.9  # the trees learned the queen


def test_the_games_model_is_written_only_from_its_own_table() -> None:
    """The game's model is of the standard four-seat table: `--write` without a file refuses
    another table before playing a hand (the Omnibus model is measured, not shipped)."""
    before = pass_value.MODEL.read_text()
    with pytest.raises(SystemExit, match="fitted at standard-4: --write FILE for omnibus-4"):
        learn_pass_value.main(["--table", "omnibus-4", "--hands", "5", "--write"])
    assert pass_value.MODEL.read_text() == before
