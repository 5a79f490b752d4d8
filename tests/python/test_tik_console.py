"""start_debug(interactive=True): block 0 stops before each statement at a prompt on stdin
(next, step, continue, break LINE, print NAME, where, quit)."""
import os
import subprocess
import sys

SCRIPT = r'''
import numpy as np
from tbe import tik
t = tik.Tik()
x = t.Tensor("float16", (16,), name="x", scope=tik.scope_gm)
y = t.Tensor("float16", (16,), name="y", scope=tik.scope_gm)
u = t.Tensor("float16", (16,), name="u", scope=tik.scope_ubuf)
s = t.Scalar("int32", name="s")
t.data_move(u, x, 0, 1, 1, 0, 0)
t.vec_adds(16, u, u, 1.0, 1, 8, 8)
t.data_move(y, u, 0, 1, 1, 0, 0)
t.BuildCCE("console", [x], [y])
try:
    out, = t.tikdb.start_debug({"x": np.zeros(16, np.float16)}, interactive=True)
    print("RESULT", out[:4].tolist())
except tik.TikError as e:
    print("ERROR", e)
'''


def run(stdin):
    import tbe
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(tbe.__file__))))
    return subprocess.run([sys.executable, "-c", SCRIPT], input=stdin, capture_output=True, text=True, timeout=120,
                          env=env)


def line_of(text):
    return next(i for i, l in enumerate(SCRIPT.splitlines(), 1) if text in l)


def test_step_print_break_continue():
    # Stop at the first statement (data_move), print u before and after it,
    # break at the last data_move's line, continue to it, continue to the end.
    last = line_of("t.data_move(y, u")
    r = run("print u\nnext\nprint u\nbreak %d\nprint s\nwhere\nprint nothing\ncontinue\ncontinue\n" % last)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "tikdb: <string>:%d data_move" % line_of("t.data_move(u, x") in out
    assert "Tensor u (float16, 16 elements) = -0.0" in out          # 0xA5A5 before the move
    assert "Tensor u (float16, 16 elements) = 0 0 0" in out          # after it
    assert "tikdb: <string>:%d vec_adds" % line_of("t.vec_adds") in out
    assert "breakpoint at %d" % last in out
    assert "Scalar s (int32): not set" in out
    assert "no tensor or Scalar named nothing" in out
    assert "tikdb: <string>:%d data_move" % last in out
    assert "RESULT [1.0, 1.0, 1.0, 1.0]" in out


def test_quit_stops_the_run():
    r = run("quit\n")
    assert "ERROR" in r.stdout and "tikdb: quit" in r.stdout
