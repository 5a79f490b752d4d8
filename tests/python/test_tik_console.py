"""start_debug(interactive=True): a plain console on stdin before the run."""
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


def test_list_print_continue():
    r = run("list\nprint u\nprint nothing\ncontinue\n")
    assert r.returncode == 0, r.stderr
    assert "vec_adds" in r.stdout                   # list shows the recorded instructions
    assert "Tensor(u, float16, (16,), scope_ubuf)" in r.stdout
    assert "no tensor or scalar named nothing" in r.stdout
    assert "RESULT [1.0, 1.0, 1.0, 1.0]" in r.stdout


def test_quit_stops_the_run():
    r = run("quit\n")
    assert "ERROR tikdb: quit" in r.stdout
