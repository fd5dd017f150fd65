"""Long calls release the GIL, stop on KeyboardInterrupt, and report progress."""

import os
import signal
import threading

import pytest

import kalah

# Kalah(6,6) without an endgame database: far longer than any test may wait, so only an
# interrupt ends these solves.
LONG = dict(egdb_seeds=0, hash_mb=16, threads=1)


@pytest.fixture(autouse=True)
def sigint_raises_keyboard_interrupt():
    # A process started in the background by a shell without job control inherits SIGINT
    # ignored, and Python then installs no handler: the SIGINT these tests send would be
    # lost and the long solves never end. Python's own handler, for each test.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def long_position():
    return kalah.start(houses=6, seeds=6)


def test_keyboard_interrupt_stops_a_long_solve_and_python_runs_meanwhile():
    running = threading.Event()
    counted = []

    def interrupter():
        running.wait()
        # Python code runs while the solve does: the GIL is released.
        total = 0
        for i in range(200_000):
            total += i
        counted.append(total)
        os.kill(os.getpid(), signal.SIGINT)

    helper = threading.Thread(target=interrupter)
    helper.start()
    with pytest.raises(KeyboardInterrupt):
        kalah.solve(long_position(), progress=lambda p: running.set(), **LONG)
    helper.join()
    assert counted == [sum(range(200_000))]


def test_keyboard_interrupt_stops_a_long_analysis():
    running = threading.Event()

    def interrupter():
        running.wait()
        os.kill(os.getpid(), signal.SIGINT)

    helper = threading.Thread(target=interrupter)
    helper.start()
    with pytest.raises(KeyboardInterrupt):
        kalah.analyse(long_position(), progress=lambda a: running.set(), **LONG)
    helper.join()


def test_an_exception_of_the_progress_callback_stops_the_solve_and_is_raised():
    class Enough(Exception):
        pass

    seen = []

    def progress(p):
        seen.append(p)
        raise Enough()

    with pytest.raises(Enough):
        kalah.solve(long_position(), progress=progress, **LONG)
    assert len(seen) == 1
    report = seen[0]
    assert isinstance(report, kalah.Progress)
    assert report.lower <= report.upper and report.nodes >= 0


def test_progress_reports_bounds_that_hold_the_value():
    pos = kalah.start(houses=5, seeds=3)
    reports = []
    solution = kalah.solve(pos, progress=reports.append, threads=1)
    for p in reports:
        assert p.lower <= solution.value <= p.upper


def interrupted_by_the_first_report(call):
    """Runs `call(progress)` and sends SIGINT once its progress callback has run; the call
    must end with the KeyboardInterrupt."""
    running = threading.Event()

    def interrupter():
        running.wait()
        os.kill(os.getpid(), signal.SIGINT)

    helper = threading.Thread(target=interrupter)
    helper.start()
    with pytest.raises(KeyboardInterrupt):
        call(lambda _: running.set())
    helper.join()


def test_keyboard_interrupt_stops_a_long_bao_solve():
    # Bao(3,2)'s graph (21.6 million positions) takes far longer than a test may wait.
    start = kalah.start("bao", houses=3, seeds=2)
    interrupted_by_the_first_report(lambda progress: kalah.solve(start, progress=progress))


def test_keyboard_interrupt_stops_a_long_bao_analysis_and_an_engines():
    start = kalah.start("bao")
    interrupted_by_the_first_report(
        lambda progress: kalah.analyse(start, time=1e5, progress=progress)
    )
    engine = kalah.Engine(**LONG)
    interrupted_by_the_first_report(
        lambda progress: engine.analyse(long_position(), progress=progress)
    )
    assert engine.solvers_made == 1
