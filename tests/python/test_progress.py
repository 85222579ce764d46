"""A long run shows a progress bar (tqdm when importable, else nothing) and
Ctrl-C stops it cleanly: SIGINT sent from another thread, or to a child
process from outside, ends the run after the step in progress with
KeyboardInterrupt, and the package keeps working. tqdm is replaced by a
stub that records what the bar was told (the test environment need not
have tqdm)."""
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import types

import pytest

import shardsim as ss
from shardsim import _program

LONG = 10 ** 6  # steps: far longer than any test waits


def scenario(root):
    return os.path.join(root, "scenarios", "data_parallel.shard")


class StubBar:
    made = []

    def __init__(self, total, unit):
        self.total, self.n, self.closed = total, 0, False
        StubBar.made.append(self)

    def update(self, k):
        self.n += k

    def close(self):
        self.closed = True


@pytest.fixture
def stub_tqdm(monkeypatch):
    StubBar.made = []
    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=StubBar))
    return StubBar


def test_a_short_run_shows_no_bar_and_a_long_one_does(root, stub_tqdm, monkeypatch):
    ss.load(scenario(root)).run(steps=3)
    assert stub_tqdm.made == []  # done before PROGRESS_AFTER_SECONDS
    monkeypatch.setattr(_program, "PROGRESS_AFTER_SECONDS", 0.0)
    ss.load(scenario(root)).run(steps=5)
    [bar] = stub_tqdm.made
    assert bar.total == 5 and bar.n == 5 and bar.closed


def test_without_tqdm_a_run_shows_nothing(root, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm fails
    monkeypatch.setattr(_program, "PROGRESS_AFTER_SECONDS", 0.0)
    ss.load(scenario(root)).run(steps=3)
    out = capsys.readouterr()
    assert out.err == "" and out.out == ""


def test_sigint_from_another_thread_stops_the_run_after_a_step(root, stub_tqdm, monkeypatch):
    monkeypatch.setattr(_program, "PROGRESS_AFTER_SECONDS", 0.0)
    assert threading.current_thread() is threading.main_thread()
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            ss.load(scenario(root)).run(steps=LONG)
    finally:
        timer.cancel()
    assert time.monotonic() - t0 < 60
    [bar] = stub_tqdm.made
    assert 0 < bar.n < LONG and bar.closed  # stopped part way, bar closed
    assert ss.load(scenario(root)).run(steps=2).steps == 2  # still usable


CHILD = textwrap.dedent("""
    import sys, types
    class Bar:
        def __init__(self, total, unit):
            self.n = 0
        def update(self, k):
            self.n += k
        def close(self):
            print("bar closed at", self.n, flush=True)
    sys.modules["tqdm"] = types.SimpleNamespace(tqdm=Bar)
    import shardsim as ss
    from shardsim import _program
    _program.PROGRESS_AFTER_SECONDS = 0.0
    prog = ss.load(sys.argv[1])
    print("loaded", flush=True)
    try:
        prog.run(steps=%d, progress=True)
    except KeyboardInterrupt:
        print("stopped", flush=True)
        print("after:", prog.run(steps=1).steps, flush=True)
        sys.exit(3)
""" % LONG)


def test_ctrl_c_in_a_child_process_stops_it_cleanly(root, tmp_path):
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    p = subprocess.Popen([sys.executable, str(script), scenario(root)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        assert p.stdout.readline() == "loaded\n"
        time.sleep(0.5)  # some steps
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 3, out + err
    lines = out.splitlines()
    assert lines[-2] == "stopped" and lines[-1] == "after: 1", out + err
    assert any(line.startswith("bar closed at ") for line in lines), out
    assert "Traceback" not in err, err
