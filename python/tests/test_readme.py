"""The README's Python example runs as written and gives the values it states."""

import pathlib
import re

import kalah

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_example_runs_and_solves_kalah_six_by_four():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) == 1
    scope = {}
    exec(blocks[0], scope)
    assert scope["solution"].value == 8
    assert scope["solution"].best_turn == "3-6"
    table = scope["table"]
    assert table["position"][0] == str(kalah.start(houses=4, seeds=3))
    assert table["value"][0] == 6
