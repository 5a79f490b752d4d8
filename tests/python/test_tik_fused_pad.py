"""The fused multiply-adds (vmla/vmadd/vmaddrelu in both generations), data_move_pad, h_cmpv,
h_sel, h_div by a scalar, and the guide's conveniences (for_range(n), counts computed with '/',
Scalar init_value from a tensor element); bit-exact against numpy references of the contract
(the fused forms round the product and the sum each in float32, f16 then once to half:
docs/vector-isa.md)."""
import math
import re

import numpy as np
import pytest
from tbe import tik
from tbe.common.platform import set_current_compile_soc_info
from npuvp.tik import TikError

PER = {"float16": 128, "float32": 64}


def fused_ref(name, a, b, d):
    f = np.float32
    a, b, d = a.astype(f), b.astype(f), d.astype(f)
    if name == "mla":
        r = (a * b).astype(f) + d
    else:
        r = (a * d).astype(f) + b
    r = r.astype(f)
    if name == "maddrelu":
        r = np.where(r > 0, r, f(0)).astype(f)
    return r


@pytest.mark.parametrize("gen", ["vec_", "v"])
@pytest.mark.parametrize("name", ["mla", "madd", "maddrelu"])
@pytest.mark.parametrize("dtype,n", [("float16", 300), ("float32", 200)])
def test_fused_multiply_add_with_tail(gen, name, dtype, n):
    t = tik.Tik()
    size = np.dtype(dtype).itemsize
    per = PER[dtype]
    gm = {k: t.Tensor(dtype, (n,), name=k, scope=tik.scope_gm) for k in ("a", "b", "d", "out")}
    ub = {k: t.Tensor(dtype, (n,), name=k + "_ub", scope=tik.scope_ubuf) for k in ("a", "b", "d")}
    burst = math.ceil(n * size / 32)
    for k in ("a", "b", "d"):
        t.data_move(ub[k], gm[k], 0, 1, burst, 0, 0)
    op = getattr(t, gen + name)
    full, tail = divmod(n, per)
    if gen == "vec_":
        op(per, ub["d"], ub["a"], ub["b"], full, 8, 8, 8)
        op(tail, ub["d"][full * per], ub["a"][full * per], ub["b"][full * per], 1, 8, 8, 8)
    else:
        op(per, ub["d"], ub["a"], ub["b"], full, 1, 1, 1, 8, 8, 8)
        op(tail, ub["d"][full * per], ub["a"][full * per], ub["b"][full * per], 1, 1, 1, 1, 8, 8, 8)
    t.data_move(gm["out"], ub["d"], 0, 1, burst, 0, 0)
    t.BuildCCE("fused", [gm["a"], gm["b"], gm["d"]], [gm["out"]])
    rng = np.random.default_rng(24)
    a, b, d = (rng.uniform(-3, 3, n).astype(dtype) for _ in range(3))
    out, = t.tikdb.start_debug({"a": a, "b": b, "d": d})
    assert out.tobytes() == fused_ref(name, a, b, d).astype(dtype).tobytes()


def test_fused_multiply_add_rejects_mixed_types():
    t = tik.Tik()
    d = t.Tensor("float32", (64,), name="d", scope=tik.scope_ubuf)
    a = t.Tensor("float16", (128,), name="a", scope=tik.scope_ubuf)
    with pytest.raises(TikError, match=r"test_tik_fused_pad.py:\d+.*vec_mla.*dtypes differ"):
        t.vec_mla(64, d, a, a, 1, 8, 8, 8)


def test_data_move_pad_unaligned_rows():
    """Rows of 13 float16 (26 bytes) in, each padded to 16 elements with -1 in UB, doubled, out
    13 at a time at byte granularity (UB addresses stay 32-byte aligned)."""
    set_current_compile_soc_info("Ascend910B1")
    rows, cols = 5, 13
    t = tik.Tik()
    x = t.Tensor("float16", (rows * cols,), name="x", scope=tik.scope_gm)
    y = t.Tensor("float16", (rows * cols,), name="y", scope=tik.scope_gm)
    p = t.Tensor("float16", (rows * 16,), name="p", scope=tik.scope_gm)
    xu = t.Tensor("float16", (rows * 16,), name="xu", scope=tik.scope_ubuf)
    t.data_move_pad(xu, x, rows, cols * 2, 0, 0, right_padding=2, left_padding=0, padding_value=-1.0)
    t.data_move(p, xu, 0, 1, rows, 0, 0)
    t.vec_muls(16 * rows, xu, xu, 2.0, 1, 8, 8)
    with t.for_range(rows) as r:  # for_range(n), as the guide writes it
        t.data_move_pad(y[r * cols], xu[r * 16], 1, cols * 2, 0, 0)
    t.BuildCCE("pad", [x], [y, p])
    a = np.arange(rows * cols).astype(np.float16)
    got_y, got_p = t.tikdb.start_debug({"x": a})
    want_p = np.full((rows, 16), -1.0, np.float16)
    want_p[:, :cols] = a.reshape(rows, cols)  # then right padding and the block's rest: -1
    assert got_p.tobytes() == want_p.tobytes()
    assert got_y.tobytes() == (a * np.float16(2)).tobytes()


def test_data_move_pad_is_an_error_without_datacopypad():
    t = tik.Tik()  # Ascend910 (the fixture's SoC)
    x = t.Tensor("float16", (16,), name="x", scope=tik.scope_gm)
    xu = t.Tensor("float16", (16,), name="xu", scope=tik.scope_ubuf)
    with pytest.raises(TikError, match=r"test_tik_fused_pad.py:\d+.*data_move_pad.*Ascend910 has no data_move_pad"):
        t.data_move_pad(xu, x, 1, 26, 0, 0)
    from tbe.common.platform import api_check_support
    assert not api_check_support("tik.data_move_pad")


@pytest.mark.parametrize("dtype,n", [("float16", 300), ("float32", 100)])
def test_h_cmpv_h_sel(dtype, n):
    t = tik.Tik()
    x = t.Tensor(dtype, (n,), name="x", scope=tik.scope_gm)
    y = t.Tensor(dtype, (n,), name="y", scope=tik.scope_gm)
    z1 = t.Tensor(dtype, (n,), name="z1", scope=tik.scope_gm)
    z2 = t.Tensor(dtype, (n,), name="z2", scope=tik.scope_gm)
    xu = t.Tensor(dtype, (n,), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor(dtype, (n,), name="yu", scope=tik.scope_ubuf)
    zu = t.Tensor(dtype, (n,), name="zu", scope=tik.scope_ubuf)
    mask = t.Tensor("bool", (n,), name="mask", scope=tik.scope_ubuf)
    t.h_data_move(xu, x)
    t.h_data_move(yu, y)
    t.h_cmpv(mask, xu, yu, "GT")
    t.h_sel(zu, xu, yu, mask)           # max
    t.h_data_move(z1, zu)
    t.h_cmpv(mask, xu, 0.5, "LE")
    t.h_sel(zu, xu, -2.0, mask)         # x <= 0.5 ? x : -2
    t.h_data_move(z2, zu)
    t.BuildCCE("cmpsel", [x, y], [z1, z2])
    rng = np.random.default_rng(7)
    a = rng.uniform(-1, 1, n).astype(dtype)
    b = rng.uniform(-1, 1, n).astype(dtype)
    g1, g2 = t.tikdb.start_debug({"x": a, "y": b})
    assert g1.tobytes() == np.where(a > b, a, b).tobytes()
    assert g2.tobytes() == np.where(a <= np.asarray(0.5, dtype), a, np.asarray(-2.0, dtype)).astype(dtype).tobytes()


def test_guide_style_scalars_and_h_div_by_scalar():
    """Counts computed with '/' (the guide's burse_len), a Scalar initialised from a tensor
    element, and h_div of a row by that Scalar (the division the vector unit does)."""
    n = 160
    t = tik.Tik()
    x = t.Tensor("float32", (2, n), name="x", scope=tik.scope_gm)
    z = t.Tensor("float32", (2, n), name="z", scope=tik.scope_gm)
    xu = t.Tensor("float32", (2, n), name="xu", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 2 * n / 8, 0, 0)
    for i in range(2):
        s = t.Scalar(init_value=xu[i, 0], dtype="float32")
        t.h_div(xu[i, :], xu[i, :], s)
    t.data_move(z, xu, 0, 1, 2 * n / 8, 0, 0)
    t.BuildCCE("hdiv", [x], [z])
    a = np.random.default_rng(3).uniform(1, 2, (2, n)).astype(np.float32)
    got, = t.tikdb.start_debug({"x": a})
    want = np.empty_like(a)
    for i in range(2):
        want[i] = a[i] / a[i, 0]
        want[i, 0] = np.float32(1)  # the row's first element divided by itself
    assert got.tobytes() == want.tobytes()


def test_reading_a_scalar_before_it_is_set_is_an_error():
    t = tik.Tik()
    x = t.Tensor("int32", (8,), name="x", scope=tik.scope_gm)
    xu = t.Tensor("int32", (8,), name="xu", scope=tik.scope_ubuf)
    s = t.Scalar("int32", name="count")
    t.data_move(xu, x, 0, 1, 1, 0, 0)
    with t.if_scope(xu[0] > 100):
        s.set_as(1)
    xu[1].set_as(s + 1)  # MARK: s unset when x[0] <= 100
    t.data_move(x, xu, 0, 1, 1, 0, 0)
    t.BuildCCE("unset", [x], [x])
    got, = t.tikdb.start_debug({"x": np.full(8, 200, np.int32)})
    assert got[1] == 2
    with pytest.raises(TikError, match=r"test_tik_fused_pad.py:\d+: set_as: Scalar count is read before it is set"):
        t.tikdb.start_debug({"x": np.zeros(8, np.int32)})


def test_vmla_and_data_move_pad_through_buildcce_and_npuvp_run():
    """The same operator through kernel_meta and `npuvp run` (into a new --out folder) and
    through start_debug: the same bits, those of the reference."""
    import os
    import subprocess
    set_current_compile_soc_info("Ascend910B1")
    t = tik.Tik()
    a = t.Tensor("float16", (128,), name="a", scope=tik.scope_gm)
    d = t.Tensor("float16", (128,), name="d", scope=tik.scope_gm)
    au = t.Tensor("float16", (128,), name="au", scope=tik.scope_ubuf)
    du = t.Tensor("float16", (128,), name="du", scope=tik.scope_ubuf)
    t.data_move_pad(au, a, 1, 200, 0, 0)      # 100 elements; the rest of UB block 7 repeats a[96]
    t.data_move(du, d, 0, 1, 8, 0, 0)
    t.vmla(100, du, au, au, 1, 1, 1, 1, 8, 8, 8)
    t.data_move(d, du, 0, 1, 8, 0, 0)
    t.BuildCCE("mla_cli", [a, d], [d])
    x = np.linspace(-1, 1, 128).astype(np.float16)
    y = np.ones(128, np.float16)
    os.makedirs("data")
    np.save("data/a.npy", x)
    np.save("data/d.npy", y)
    r = subprocess.run([os.environ["NPUVP_CLI"], "run", "kernel_meta/mla_cli.json", "--data", "data", "--out",
                        "new/out"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    got = np.load("new/out/d.npy")
    dbg, = t.tikdb.start_debug({"a": x, "d": y})
    want = y.copy()
    want[:100] = (x[:100].astype(np.float32) * x[:100].astype(np.float32) + np.float32(1)).astype(np.float16)
    assert got.tobytes() == want.tobytes()
    assert dbg.tobytes() == want.tobytes()


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_h_reduce_rows_and_whole(dtype):
    """Rows of 144 (a full repeat and a tail for float16, two and a tail for float32) and the
    whole tensor; integer-valued inputs keep every sum exact, so any summation order agrees."""
    rows, n = 3, 144
    t = tik.Tik()
    x = t.Tensor(dtype, (rows, n), name="x", scope=tik.scope_gm)
    y = t.Tensor(dtype, (32,), name="y", scope=tik.scope_gm)
    xu = t.Tensor(dtype, (rows, n), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor(dtype, (32,), name="yu", scope=tik.scope_ubuf)
    t.h_data_move(xu, x)
    t.h_duplicate(yu, 0.0)
    t.h_reduce_sum(yu, xu, 1)
    t.h_reduce_max(yu[8:], xu, axis=-1)
    t.h_reduce_min(yu[16:], xu, 1)
    t.h_reduce_sum(yu[24:], xu)
    t.h_data_move(y, yu)
    t.BuildCCE("hreduce", [x], [y])
    a = np.random.default_rng(5).integers(-8, 9, (rows, n)).astype(dtype)
    got, = t.tikdb.start_debug({"x": a})
    want = np.zeros(32, dtype)
    want[0:3] = a.sum(axis=1)
    want[8:11] = a.max(axis=1)
    want[16:19] = a.min(axis=1)
    want[24] = a.sum()
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("pattern", [1, 2, 5, "tensor"])
def test_vreduce_gathers_by_pattern(pattern):
    t = tik.Tik()
    x = t.Tensor("float16", (256,), name="x", scope=tik.scope_gm)
    p = t.Tensor("uint16", (16,), name="p", scope=tik.scope_gm)
    y = t.Tensor("float16", (256,), name="y", scope=tik.scope_gm)
    xu = t.Tensor("float16", (256,), name="xu", scope=tik.scope_ubuf)
    pu = t.Tensor("uint16", (16,), name="pu", scope=tik.scope_ubuf)
    yu = t.Tensor("float16", (256,), name="yu", scope=tik.scope_ubuf)
    t.data_move(xu, x, 0, 1, 16, 0, 0)
    t.data_move(pu, p, 0, 1, 1, 0, 0)
    t.vec_dup(128, yu, 0.0, 2, 8)
    t.vreduce(128, yu, xu, pu if pattern == "tensor" else pattern, 2, 1, 8, 0)
    t.data_move(y, yu, 0, 1, 16, 0, 0)
    t.BuildCCE("vreduce", [x, p], [y])
    a = np.arange(256).astype(np.float16)
    bits = np.random.default_rng(2).integers(0, 2, 128).astype(bool)
    words = np.zeros(16, np.uint16)  # 128 bits, then one unused block half
    words[:8] = np.packbits(bits, bitorder="little").view(np.uint16)
    got, = t.tikdb.start_debug({"x": a, "p": words})
    i = np.arange(128)
    sel = {1: i % 2 == 0, 2: i % 2 == 1, 5: i % 4 == 2, "tensor": bits}[pattern]
    kept = np.concatenate([a[:128][sel], a[128:][sel]])   # the same pattern bits for both repeats
    want = np.zeros(256, np.float16)
    want[:kept.size] = kept
    assert got.tobytes() == want.tobytes()
