"""`bench.learn_play_value` plays Hard's hands with the play-outs from the start of their tricks,
keeps them in a compressed file it resumes, fits and prints its held-out figures (a few hands,
without `--write`); its export is the game's walk of the trees."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import numpy as np
import pytest

from app.bots import play_value
from bench import learn_pass_value, learn_play_value
from tests.bench.helpers import bench_lines

FIGURES = r"play-out (-?\d+\.\d{3}), model (-?\d+\.\d{3})"
LINE = rf"learn_play_value: 6 hands, tricks 2-11, held-out R² of a seat's points: {FIGURES}"


def test_learn_play_value_records_hards_tricks_and_resumes(tmp_path: Path) -> None:
    before = play_value.MODEL.read_text()
    data = tmp_path / "hands.jsonl.gz"
    first = bench_lines("learn_play_value", "--hands", "6", "--seed", "7", "--data", str(data))
    assert [line.split(":")[0] for line in first[:-1]] == [f"trick {t}" for t in range(2, 12)]
    assert all(re.fullmatch(rf"trick \d+: {FIGURES}", line) for line in first[:-1]), first
    assert re.fullmatch(LINE, first[-1]), first
    with gzip.open(data, "rt") as text:
        header, *lines = text.read().splitlines()
    assert json.loads(header) == {"table": "standard-4", "players": "hard", "seed": 7}
    records = sorted(map(json.loads, lines), key=lambda r: r["i"])
    assert [r["i"] for r in records] == list(range(6))
    for r in records:
        assert sum(r["real"]) in (26, 78)
        assert [s["t"] for s in r["starts"]] == list(range(2, 12))
        for start in r["starts"]:
            held = [c for cards in start["hands"] for c in cards]
            assert len(set(held)) == len(held)
            assert all(len(cards) == 14 - start["t"] for cards in start["hands"])
            assert sum(start["taken"]) <= 26 and sum(start["po"]) in (26, 78)
            assert (sum(start["po"]) == 78) is start["pom"]
            if not start["pom"]:
                assert all(p >= t for p, t in zip(start["po"], start["taken"], strict=True))
        last = r["starts"][-1]
        if not last["pom"] and sum(r["real"]) == 26:  # points taken never come back
            assert all(p >= t for p, t in zip(r["real"], last["taken"], strict=True))
    assert learn_play_value.record(("standard-4", 7, 2)) == records[2]  # played again
    again = bench_lines("learn_play_value", "--hands", "6", "--seed", "7", "--data", str(data))
    assert again == first
    with gzip.open(data, "rt") as text:
        assert text.read().splitlines()[1:] == lines  # nothing replayed
    assert play_value.MODEL.read_text() == before


def test_the_written_trees_predict_what_scikit_learn_predicts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--write` on made-up hands (the points follow the queen of spades, the points taken and
    the play-out) stores trees that `play_value.predict`, walking them from the hands as the
    simulator holds them, makes give scikit-learn's predictions: the features are built in the
    same order."""
    rng = np.random.default_rng(1)
    data = tmp_path / "hands.jsonl"
    records, rows = [], []
    for i in range(150):
        order = rng.permutation(52)
        starts = []
        for t in (3, 9):
            left = 14 - t
            hands = [sorted(order[left * s : left * (s + 1)].tolist()) for s in range(4)]
            taken = rng.multinomial(4, [0.25] * 4).tolist()
            more = rng.multinomial(22, [0.25] * 4).tolist()
            po = [p + k for p, k in zip(more, taken, strict=True)]
            lead = int(rng.integers(4))
            starts.append(
                {"t": t, "lead": lead, "hands": hands, "taken": taken, "po": po, "pom": False}
            )
            rows.append((hands, po, taken, lead, t))
        queen = next((s for s in range(4) if 36 in starts[0]["hands"][s]), 0)
        real = [p + (13 if s == queen else 0) for s, p in enumerate(starts[0]["po"])]
        records.append({"i": i, "real": real, "starts": starts})
    header = {"table": "standard-4", "players": "hard", "seed": 7}
    data.write_text("\n".join(json.dumps(r) for r in [header, *records]) + "\n")
    written = tmp_path / "model.json"
    monkeypatch.setattr(play_value, "MODEL", written)
    learn_play_value.main(["--hands", "150", "--seed", "7", "--data", str(data), "--write"])
    out = capsys.readouterr().out.strip().splitlines()
    assert [line.split(":")[0] for line in out[:-1]] == ["trick 3", "trick 9"]
    assert re.fullmatch(LINE.replace("6 hands", "150 hands"), out[-1])
    loaded = play_value.trees(written)
    fitted = json.loads(written.read_text())["fitted"]
    assert fitted["hands"] == 150 and fitted["tricks"] == [2, 11]
    assert fitted["trees"] == len(loaded.start)
    x, y, group, trick = learn_play_value.features(records)
    assert x.shape == (1200, play_value.FEATURES) and group[-1] == 149 and trick[-1] == 9
    expected = learn_pass_value.model(7).fit(x, y).predict(x)
    monkeypatch.setattr(play_value, "trees", lambda: loaded)
    got = []
    for hands, po, taken, lead, t in rows:
        held = np.zeros((1, 4, 52), dtype=np.int8)
        for s, cards in enumerate(hands):
            held[0, s, cards] = 1
        one = play_value.predict(
            held, np.array([po]), np.array([taken]), np.array([lead]), np.array([False]), t
        )
        got.extend(one[0])
    assert np.allclose(got, expected, rtol=0, atol=1e-9)
    assert np.corrcoef(got, y)[0, 1] > 0.9  # the trees learned the queen
