"""Shared helpers of the TIK front-end tests: numpy references of SPEC.md's numeric contract
(docs/vector-isa.md) and a fixture that runs each test in its own kernel_meta folder."""
import ctypes
import os

import numpy as np
import pytest

_libm = ctypes.CDLL("libm.so.6")
_libm.expf.restype = ctypes.c_float
_libm.expf.argtypes = [ctypes.c_float]
_libm.logf.restype = ctypes.c_float
_libm.logf.argtypes = [ctypes.c_float]


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NPUVP_PLATFORM", raising=False)
    from tbe.common.platform import set_current_compile_soc_info
    set_current_compile_soc_info("Ascend910")
    yield


def expf(x):
    """The contract's Exp: libm expf of the input widened to float, rounded to its type."""
    w = np.asarray(x, dtype=np.float32).ravel()
    out = np.array([_libm.expf(float(v)) for v in w], dtype=np.float32).reshape(np.shape(x))
    return out.astype(np.asarray(x).dtype)


def logf(x):
    w = np.asarray(x, dtype=np.float32).ravel()
    out = np.array([_libm.logf(float(v)) for v in w], dtype=np.float32).reshape(np.shape(x))
    return out.astype(np.asarray(x).dtype)


def _add(a, b, dtype):
    if dtype == np.float16:
        s = np.float32(a) + np.float32(b)
        r = np.float16(s)
        if np.isinf(r) and np.isfinite(s):
            r = np.float16(np.copysign(65504.0, s))
        return r
    return np.float32(np.float32(a) + np.float32(b))


def tree_sum(values, dtype):
    """A sum as the vector unit's reductions make it: a binary tree of adjacent pairs over a
    power-of-two number of lanes, disabled lanes -0."""
    lanes = [dtype(v) for v in values]
    n = 1
    while n < len(lanes):
        n *= 2
    lanes += [dtype(-0.0)] * (n - len(lanes))
    while len(lanes) > 1:
        lanes = [_add(lanes[2 * i], lanes[2 * i + 1], dtype) for i in range(len(lanes) // 2)]
    return lanes[0]
