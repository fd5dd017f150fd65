"""The package's results equal the command line's on the same positions, for every preset
(every family), and its errors carry the same messages."""

import csv
import io
import math
import subprocess

import pytest

import kalah

# Boards small enough for both sides to solve in a moment; the cyclic families on 3
# houses, whose retrograde solves grow fastest.
BOARDS = {
    "kalah": (4, 3),
    "kalah-empty": (4, 3),
    "online": (4, 3),
    "online-empty": (4, 3),
    "general": (4, 2),
    "egyptian": (4, 3),
    "nigerian": (4, 2),
    "ethiopian": (3, 2),
    "oware": (3, 2),
}


def rules_args(preset):
    houses, seeds = BOARDS[preset]
    return ["--rules", preset, "--houses", str(houses), "--seeds", str(seeds)]


def test_every_preset_is_compared():
    # Bao, with its own notation and values, is compared in test_bao.py.
    sowing = [p for p in kalah.Rules.presets() if p != "bao"]
    assert sorted(BOARDS) == sorted(sowing)


@pytest.mark.parametrize("preset", sorted(BOARDS))
def test_solve_from_the_start_equals_the_cli(cli, preset):
    houses, seeds = BOARDS[preset]
    pos = kalah.start(preset, houses=houses, seeds=seeds)
    ours = kalah.solve(pos)
    theirs = cli("solve", *rules_args(preset))
    assert str(pos) == theirs["position"]
    assert str(pos.rules) == theirs["rules"]
    assert ours.value == theirs["value"]
    assert ours.exact and ours.lower == ours.upper == ours.value
    # The best turn may differ among equals: its own value must be the position's.
    assert ours.value == kalah.solve(pos.play(ours.best_turn)).value


@pytest.mark.parametrize("preset", sorted(BOARDS))
def test_solve_after_moves_with_north_to_move_equals_the_cli(cli, preset):
    houses, seeds = BOARDS[preset]
    pos = kalah.start(preset, houses=houses, seeds=seeds)
    # The first turn that passes to North.
    pos = next(
        p
        for p in (pos.play(t) for t in pos.turns())
        if p.side_to_move == kalah.Side.NORTH and not p.is_over
    )
    ours = kalah.solve(pos)
    theirs = cli("solve", *rules_args(preset), "--position", str(pos))
    assert ours.value == theirs["value"]
    assert ours.value_for_mover == -ours.value


@pytest.mark.parametrize("preset", ["kalah", "nigerian", "general", "oware"])
def test_openings_equal_the_cli(cli, preset):
    houses, seeds = BOARDS[preset]
    pos = kalah.start(preset, houses=houses, seeds=seeds)
    ours = {(o.turn, o.value, str(o.position_after)) for o in kalah.openings(pos)}
    rows = csv.DictReader(io.StringIO(cli("openings", *rules_args(preset), "--csv", json_output=False)))
    theirs = {(r["turn"], int(r["value"]), r["position_after"]) for r in rows}
    assert ours == theirs


def test_pie_equals_the_cli(cli):
    pos = kalah.start(houses=4, seeds=3)
    ours = kalah.pie(pos)
    theirs = cli("pie", "--houses", "4", "--seeds", "3")
    assert ours.offer == theirs["offer"]
    assert {(c.opening.turn, c.opening.value, c.swap, c.first_player) for c in ours.choices} == {
        (t["turn"], t["value"], t["swap"], t["first_player"]) for t in theirs["turns"]
    }
    assert ours.value == ours.best.first_player == max(t["first_player"] for t in theirs["turns"])


def test_export_table_equals_the_cli_csv(cli, tmp_path):
    pos = kalah.start(houses=4, seeds=3)
    table = kalah.export_table(pos, 2)
    book = tmp_path / "book.csv"
    cli("export", "--houses", "4", "--seeds", "3", "--depth", "2", "-o", str(book),
        json_output=False)
    text = book.read_text()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == len(table["value"])
    for i, row in enumerate(rows):
        assert row["position"] == table["position"][i]
        assert int(row["value"]) == table["value"][i]
        assert int(row["turns"]) == table["turns"][i]
        p = kalah.Position(row["position"], pos.rules)
        assert table["side"][i] == (p.side_to_move == kalah.Side.NORTH)
        assert row["best"] == ("" if table["best"][i] < 0 else p.move_name(int(table["best"][i])))
        for house in range(1, 5):
            cell, ours = row[f"house{house}"], table[f"house{house}"][i]
            assert (cell == "" and math.isnan(ours)) or int(cell) == ours
        assert [table[f"bin{b}"][i] for b in range(1, 11)] == p.counts


def test_probe_equals_the_cli(cli, tmp_path):
    path = tmp_path / "k3.egdb"
    cli("egdb", "build", "--houses", "3", "--max-seeds", "6", "--out", str(path), json_output=False)
    for board in ["1,0,2,3,0,0,0,0:S", "0,1,1,0,2,1,1,2:N", "2,2,2,0,0,0,0,0:N"]:
        pos = kalah.Position(board, kalah.Rules(houses=3, seeds=2))
        ours = kalah.probe(pos, path)
        theirs = cli("egdb", "probe", str(path), "--position", board, quiet=False)
        assert ours.value == theirs["value"]
        assert ours.value_for_mover == theirs["value_for_mover"]
        assert ours.moves == [(str(m["bin"]), m["value"]) for m in theirs["moves"]]
        assert ours.best == [str(m["bin"]) for m in theirs["moves"] if m["best"]]
    with pytest.raises(kalah.RulesMismatchError):
        kalah.probe(kalah.Position("1,0,2,3,0,0,0,0:S", kalah.Rules("kalah-empty", houses=3)), path)
    with pytest.raises(kalah.RulesMismatchError):
        kalah.probe(kalah.start(houses=4), path)


@pytest.mark.parametrize(
    "args, make",
    [
        (["solve", "--houses", "9"], lambda: kalah.Rules(houses=9)),
        (["solve", "--rules", "oware", "--capture", "empty"], lambda: kalah.Rules("oware", capture="empty")),
        (["solve", "--moves", "3,3"], lambda: kalah.start().play("3,3")),
        (["solve", "--position", "1,2,3"], lambda: kalah.Position("1,2,3")),
    ],
)
def test_errors_carry_the_cli_message(cli, args, make):
    with pytest.raises(subprocess.CalledProcessError) as failed:
        cli(*args, json_output=False)
    with pytest.raises(kalah.KalahError) as raised:
        make()
    assert failed.value.returncode == 2
    message = str(raised.value)
    assert message in failed.value.stderr, (message, failed.value.stderr)
