"""`bench.strength` prints its figures for duplicate deals and for whole games, any pair of
levels (a few deals and games: the figures themselves come from running the benchmark)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from app.engine import PASS_CYCLES, random_deal
from bench import strength
from tests.bench.helpers import bench_lines


def run(*flags: str) -> list[str]:
    return bench_lines("strength", *flags)


def test_deals_of_the_expert_pair() -> None:
    lines = run("--pairs", "expert-vs-hard", "--deals", "1", "--table", "standard-3")
    assert re.fullmatch(
        r"expert-vs-hard standard-3: 1 deals, tested -?\d+\.\d\d points/hand, "
        r"opponents -?\d+\.\d\d, D -?\d+\.\d\d ± 0\.00",
        lines[0],
    ), lines[0]
    assert re.fullmatch(
        r"strength: medium-vs-easy n/a, hard-vs-medium n/a, expert-vs-hard -?\d+\.\d\d ± 0\.00 "
        r"points/hand",
        lines[-1],
    ), lines[-1]


def test_whole_games() -> None:
    lines = run("--pairs", "medium-vs-easy", "--games", "3", "--table", "standard-3", "--jobs", "1")
    found = re.fullmatch(
        r"medium-vs-easy standard-3: 3 games, won ([\d.]+) \(([\d.]+) % ± [\d.]+\), "
        r"parity 33\.3 %",
        lines[-1],
    )
    assert found is not None, lines[-1]
    assert 0 <= float(found.group(1)) <= 3
    assert abs(float(found.group(2)) - 100 * float(found.group(1)) / 3) < 0.06


def test_whole_games_are_recorded_for_the_fair_play_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    figures = tmp_path / "strength.json"
    figures.write_text(json.dumps({"pairs": [{"pair": "hard-vs-medium", "table": "standard-4"}]}))
    monkeypatch.setattr(strength, "FIGURES", figures)
    log = tmp_path / "games.jsonl"
    flags = ["--pairs", "medium-vs-easy", "--games", "2", "--table", "standard-3", "--log"]
    strength.main([*flags, str(log), "--record"])
    printed = capsys.readouterr().out.splitlines()[-1]
    recorded = json.loads(figures.read_text())
    assert recorded["pairs"] == [{"pair": "hard-vs-medium", "table": "standard-4"}]
    [row] = recorded["games"]
    shares = [json.loads(line)["r"][0] for line in log.read_text().splitlines()[1:]]
    assert row["games"] == 2 and row["won"] == sum(shares) and row["rate"] == sum(shares) / 2
    assert row["parity"] == 1 / 3 and row["table"] == "standard-3"
    assert f"won {row['won']:g} ({100 * row['rate']:.1f} % ± " in printed


def test_a_logged_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    flags = ("--pairs", "medium-vs-easy", "--table", "standard-3", "--log", str(log))
    run(*flags, "--deals", "2")
    first = log.read_text().splitlines()
    assert json.loads(first[0])["code"] == strength.code_fingerprint()
    assert sorted(json.loads(line)["i"] for line in first[1:]) == [0, 1]
    # A line cut short by a stopped run is dropped and that deal played again.
    log.write_text(log.read_text() + '{"i": 2, "r": [1.0')
    resumed = run(*flags, "--deals", "4", "--jobs", "2")
    lines = log.read_text().splitlines()
    assert lines[:3] == first
    assert sorted(json.loads(line)["i"] for line in lines[1:]) == [0, 1, 2, 3]
    # The figures equal those of a run without a log.
    assert resumed == run("--pairs", "medium-vs-easy", "--table", "standard-3", "--deals", "4")


def test_a_log_of_other_settings_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    header = strength.log_header("deals", "medium-vs-easy", "standard-3", 0)
    log.write_text(json.dumps({**header, "code": "0000"}) + "\n")
    with pytest.raises(SystemExit, match="other code or settings"):
        strength.main(["--pairs", "medium-vs-easy", "--table", "standard-3", "--log", str(log)])
    assert log.read_text() == json.dumps({**header, "code": "0000"}) + "\n"


def test_the_fingerprint_follows_the_bots_code(tmp_path: Path) -> None:
    for package in strength.FINGERPRINTED:
        (tmp_path / package).mkdir()
        (tmp_path / package / "a.py").write_text("x = 1\n")
    before = strength.code_fingerprint(tmp_path)
    (tmp_path / "bots" / "a.py").write_text("x = 2\n")
    changed = strength.code_fingerprint(tmp_path)
    (tmp_path / "bots" / "notes.txt").write_text("not code")
    assert before != changed == strength.code_fingerprint(tmp_path)


def test_decisions_shared_between_playings_change_no_result() -> None:
    # Each playing on its own, nothing shared, gives the same points as play_deal.
    table, tested, other, seed = "standard-3", "medium", "easy", 5
    options = strength.table_options(table)
    for index in range(3):
        deal = random.Random(seed + index)
        cycle = len(PASS_CYCLES[options.pass_cycle])
        start = strength.game_at_hand(options, random_deal(options, deal), index % cycle + 1)
        results = [
            strength.play_hand(start, [tested if s == j else other for s in range(3)], seed + index)
            for j in range(3)
        ]
        alone = [result.points for result in results]
        mine = sum(points[j] for j, points in enumerate(alone)) / 3
        theirs = (
            sum(p for j, points in enumerate(alone) for s, p in enumerate(points) if s != j) / 6
        )
        shared = strength.play_deal((table, tested, other, seed, index))
        assert (shared.tested, shared.others) == (mine, theirs)
        assert shared.moons == tuple(-1 if r.shooter is None else r.shooter for r in results)


def write_log(path: Path, code: str, results: dict[int, list[float]], table: str = "x") -> Path:
    header = {"mode": "deals", "pair": "expert-vs-hard", "table": table, "seed": 0, "code": code}
    rows = [json.dumps({"i": i, "r": r}) for i, r in results.items()]
    path.write_text("\n".join([json.dumps(header), *rows, '{"i": 9, "r": [1']) + "\n")
    return path


def test_two_logs_of_the_same_deals_are_compared_deal_by_deal(tmp_path: Path) -> None:
    # D per deal: new 2, 4, 0 (deal 3 only in new); base 1, 1, 0 (deal 4 only in base).
    new = write_log(
        tmp_path / "new.jsonl",
        "aaaa",
        {0: [5.0, 7.0], 1: [4.0, 8.0], 2: [6.0, 6.0], 3: [0.0, 9.0]},
    )
    base = write_log(
        tmp_path / "base.jsonl", "bbbb", {2: [6.0, 6.0], 0: [6.0, 7.0], 1: [7.0, 8.0], 4: [0, 1]}
    )
    c = strength.compare_logs(new, base)
    assert (c.deals, c.identical) == (3, 1)
    assert c.first.difference == pytest.approx(2.0) and c.second.difference == pytest.approx(2 / 3)
    # Paired differences 1, 3, 0: mean 4/3, sd sqrt(7/3).
    assert c.difference == pytest.approx(4 / 3)
    assert c.half_width == pytest.approx(1.96 * (7 / 3) ** 0.5 / 3**0.5)
    lines = run("--compare", str(new), str(base))
    assert lines == [
        "compare: 3 deals in common (1 with the same result), D 2.00 ± 2.26 against "
        "0.67 ± 0.65, difference +1.33 ± 1.73 points/hand"
    ]
    other_table = write_log(tmp_path / "other.jsonl", "aaaa", {0: [5.0, 7.0]}, table="y")
    with pytest.raises(SystemExit, match="differ in table"):
        strength.compare_logs(new, other_table)


def test_a_log_is_carried_to_new_code_only_if_its_results_come_out_the_same(
    tmp_path: Path,
) -> None:
    log = tmp_path / "run.jsonl"
    flags = ("--pairs", "medium-vs-easy", "--table", "standard-3", "--log", str(log))
    run(*flags, "--deals", "3")
    today = strength.code_fingerprint()
    header, results = strength.read_log(log)
    lines = log.read_text().splitlines()
    # As if made by the code before a change that alters nothing these deals see.
    log.write_text("\n".join([json.dumps({**header, "code": "old0"}), *lines[1:]]) + "\n")
    assert run("--carry", str(log), "--check", "2") == [
        f"carry: 2 of 2 identical, {log} now code {today} (was old0)"
    ]
    carried = log.read_text().splitlines()
    assert json.loads(carried[0]) == {**header, "carried": [{"from": "old0", "checked": 2}]}
    assert carried[1:] == lines[1:]
    run(*flags, "--deals", "4")  # the carried log resumes
    assert sorted(strength.read_log(log)[1]) == [0, 1, 2, 3]
    # A result that today's code does not reproduce: the log is left as it was.
    wrong = {**results, 1: [results[1][0] + 1, results[1][1]]}
    rows = [json.dumps({"i": i, "r": r}) for i, r in wrong.items()]
    log.write_text("\n".join([json.dumps({**header, "code": "old1"}), *rows]) + "\n")
    before = log.read_text()
    assert run("--carry", str(log), "--check", "3") == [
        f"carry: 2 of 3 identical, {log} left at code old1"
    ]
    assert log.read_text() == before


def test_spread_picks_from_first_to_last() -> None:
    assert strength.spread([9, 0, 3, 6, 12], 3) == [0, 6, 12]
    assert strength.spread([4, 2], 5) == [2, 4]
    assert strength.spread(range(100), 1) == [0]


def test_the_moons_of_a_log_are_counted_for_each_level(tmp_path: Path) -> None:
    # Playing j seats the tested level in seat j. Deal 0: it shoots in playings 0 and 3. Deal 1:
    # seat 1 (the other level) shoots in playing 0, against it; the tested level in playing 2.
    log = write_log(tmp_path / "moons.jsonl", "aaaa", {})
    rows = [
        {"i": 0, "r": [5.0, 7.0], "moons": [0, -1, -1, 3]},
        {"i": 1, "r": [5.0, 7.0], "moons": [1, -1, 2, -1]},
    ]
    log.write_text(log.read_text().splitlines()[0] + "\n" + "\n".join(map(json.dumps, rows)))
    m = strength.moon_rates(log)
    assert (m.deals, m.tested, m.other, m.against) == (2, 3 / 8, 1 / 24, 1 / 8)
    assert run("--moons", str(log)) == [
        "moons: 2 deals, the tested level shot the moon in 37.50 % of its hands, the other "
        "level in 4.17 % of its hands in the same seats; a moon against the tested level in "
        "12.50 % of its hands"
    ]
    with pytest.raises(SystemExit, match="names no shooters"):
        strength.moon_rates(write_log(tmp_path / "old.jsonl", "aaaa", {0: [5.0, 7.0]}))


def test_a_logged_deal_names_who_shot_the_moon(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    run("--pairs", "medium-vs-easy", "--table", "standard-3", "--deals", "2", "--log", str(log))
    rows = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    for row in rows:
        played = strength.play_deal(("standard-3", "medium", "easy", 0, row["i"]))
        assert row["moons"] == list(played.moons) and len(played.moons) == 3
