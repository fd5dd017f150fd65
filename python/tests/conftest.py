"""What the tests share: the `kalah` command line to compare with, and an environment in
which neither the package nor the command line reads or fills a database cache."""

import json
import os
import pathlib
import shutil
import subprocess

import pytest

# Both sides build their endgame databases in memory: no cache in the user's home.
os.environ["KALAH_CACHE"] = "off"
os.environ.pop("KALAH_EGDB_PATH", None)

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _binary():
    given = os.environ.get("KALAH_BIN")
    if given:
        return given
    for candidate in (ROOT / "target" / "release" / "kalah", shutil.which("kalah")):
        if candidate and pathlib.Path(candidate).is_file():
            return str(candidate)
    return None


@pytest.fixture(scope="session")
def cli():
    """Runs the `kalah` binary and returns its standard output (parsed JSON with json=True).

    Skips where no binary is built, unless KALAH_REQUIRE_CLI is set (as .ci/run does)."""
    binary = _binary()
    if binary is None:
        if os.environ.get("KALAH_REQUIRE_CLI"):
            pytest.fail("no kalah binary: set KALAH_BIN or build target/release/kalah")
        pytest.skip("no kalah binary (cargo build --release, or set KALAH_BIN)")

    def run(*args, json_output=True, quiet=True):
        out = subprocess.run(
            [binary, *args] + (["--quiet"] if quiet else []) + (["--json"] if json_output else []),
            check=True,
            capture_output=True,
            text=True,
            timeout=300,
        ).stdout
        return json.loads(out) if json_output else out

    return run
