"""Runs a recorded TIK program on an npuvp platform.

SystemC elaborates once per process, so every run happens in a forked child that builds its
own platform, runs the program in C++ (npuvp._core) and sends the outputs back through a
pipe; the caller's process stays free to run again, on any platform.
"""
import os
import pickle
import struct
import sys

import numpy as np

from .errors import TikError

NUMPY_DTYPE = {"int8": np.int8, "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16, "int32": np.int32,
               "uint32": np.uint32, "int64": np.int64, "uint64": np.uint64, "float16": np.float16,
               "float32": np.float32, "bfloat16": np.uint16}


def _child(write_fd, program_json, feeds, platform, sets, interactive):
    try:
        from npuvp import _core
        # $NPUVP_SET ("key=value;key=value") overrides platform parameters; $NPUVP_TRACE and
        # $NPUVP_STATS name a Perfetto trace and a statistics JSON to write (as npuvp run's options).
        sets = list(sets) + [kv for kv in os.environ.get("NPUVP_SET", "").split(";") if kv]
        result = _core.run_tik(program_json, feeds, platform or "", sets, os.environ.get("NPUVP_TRACE", ""),
                               os.environ.get("NPUVP_STATS", ""), interactive)
        payload = pickle.dumps(("ok", result))
    except BaseException as e:  # the parent raises it
        payload = pickle.dumps(("error", str(e)))
    with os.fdopen(write_fd, "wb") as w:
        w.write(struct.pack("<Q", len(payload)))
        w.write(payload)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def run_program(program_json, feeds, platform=None, sets=(), interactive=False):
    """Returns the run's dict (outputs as bytes, cycles, ...); raises TikError on an error."""
    r, w = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        _child(w, program_json, feeds, platform, sets, interactive)
    os.close(w)
    with os.fdopen(r, "rb") as rd:
        head = rd.read(8)
        payload = rd.read(struct.unpack("<Q", head)[0]) if len(head) == 8 else b""
    _, status = os.waitpid(pid, 0)
    if not payload:
        raise TikError("the simulation process ended without a result (exit status %d)" % status)
    kind, value = pickle.loads(payload)
    if kind == "error":
        raise TikError(value)
    return value


def feeds_from(inputs, feed_dict):
    """The run's feeds in input order, from a {name: array or number} dict."""
    feeds = []
    for x in inputs:
        if x.name not in feed_dict:
            raise TikError("feed_dict has no entry for input '%s' (given: %s)" % (x.name, ", ".join(feed_dict)))
        v = feed_dict[x.name]
        if hasattr(x, "sid"):  # InputScalar
            v = v.item() if hasattr(v, "item") else v
            feeds.append(float(v) if x.dtype in ("float16", "float32") else int(v))
            continue
        a = np.ascontiguousarray(np.asarray(v))
        want = np.dtype(NUMPY_DTYPE[x.dtype])
        if a.dtype != want:
            raise TikError("feed_dict['%s'] is %s, the tensor is %s" % (x.name, a.dtype, x.dtype))
        if a.size != x.size:
            raise TikError("feed_dict['%s'] has %d elements, the tensor %s has %d" % (x.name, a.size, x.shape, x.size))
        feeds.append(a.tobytes())
    return feeds


def outputs_from(result, outputs):
    return [np.frombuffer(b, dtype=NUMPY_DTYPE[t.dtype]).reshape(t.shape).copy()
            for b, t in zip(result["outputs"], outputs)]
