"""Operators written as the TIK guide and the public TIK samples write them (a class holding
the Tik container, its GM tensors and a compute method that ends in BuildCCE), each run twice:
by tikdb.start_debug and by `npuvp run kernel_meta/<name>.json --data DIR`, both bit-exact
against a numpy reference of the vector and cube contract (docs/vector-isa.md)."""
import os
import subprocess

import numpy as np
import pytest
from tbe import tik
from tbe.common.platform import set_current_compile_soc_info

from conftest import tree_sum

CLI = os.environ.get("NPUVP_CLI")


def run_both(op, name, feeds, outputs):
    """The outputs from start_debug, checked equal (bit for bit) to those of the CLI run."""
    got = op.tik_instance.tikdb.start_debug(feeds, interactive=False)
    if CLI:
        os.makedirs("data", exist_ok=True)
        for key, value in feeds.items():
            np.save("data/%s.npy" % key, np.asarray(value))
        r = subprocess.run([CLI, "run", "kernel_meta/%s.json" % name, "--data", "data"], capture_output=True,
                           text=True)
        assert r.returncode == 0, r.stderr
        for g, out in zip(got, outputs):
            assert np.load("data/%s.npy" % out).tobytes() == g.tobytes(), out
    return got


def mmad_ref(a, b):
    """float16 x float16 -> float32: exact products, summed in order in float32."""
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for k in range(a.shape[1]):
        acc = (acc + a[:, k:k + 1].astype(np.float32) * b[k:k + 1, :].astype(np.float32)).astype(np.float32)
    return acc


# ---- 1. layer norm over rows, one row per core, with work tensors ----
class LayerNorm:
    ROWS, COLS, EPS = 4, 64, 1e-5

    def __init__(self):
        self.tik_instance = tik.Tik()
        t = self.tik_instance
        self.x_gm = t.Tensor("float32", (self.ROWS, self.COLS), name="x", scope=tik.scope_gm)
        self.gamma_gm = t.Tensor("float32", (self.COLS,), name="gamma", scope=tik.scope_gm)
        self.beta_gm = t.Tensor("float32", (self.COLS,), name="beta", scope=tik.scope_gm)
        self.y_gm = t.Tensor("float32", (self.ROWS, self.COLS), name="y", scope=tik.scope_gm)

    def compute(self):
        t = self.tik_instance
        n = self.COLS
        with t.for_range(0, self.ROWS, block_num=self.ROWS) as row:
            x_ub = t.Tensor("float32", (n,), name="x_ub", scope=tik.scope_ubuf)
            sq_ub = t.Tensor("float32", (n,), name="sq_ub", scope=tik.scope_ubuf)
            gamma_ub = t.Tensor("float32", (n,), name="gamma_ub", scope=tik.scope_ubuf)
            beta_ub = t.Tensor("float32", (n,), name="beta_ub", scope=tik.scope_ubuf)
            work_ub = t.Tensor("float32", (64,), name="work_ub", scope=tik.scope_ubuf)
            red_ub = t.Tensor("float32", (8,), name="red_ub", scope=tik.scope_ubuf)
            t.data_move(x_ub, self.x_gm[row, 0], 0, 1, n // 8, 0, 0)
            t.data_move(gamma_ub, self.gamma_gm, 0, 1, n // 8, 0, 0)
            t.data_move(beta_ub, self.beta_gm, 0, 1, n // 8, 0, 0)
            t.vec_reduce_add(64, red_ub, x_ub, work_ub, 1, 8)
            mean = t.Scalar("float32", name="mean")
            mean.set_as(red_ub[0] * (1.0 / n))
            t.vec_adds(64, x_ub, x_ub, -mean, 1, 8, 8)
            t.vec_mul(64, sq_ub, x_ub, x_ub, 1, 8, 8, 8)
            t.vec_reduce_add(64, red_ub, sq_ub, work_ub, 1, 8)
            var = t.Scalar("float32", name="var")
            var.set_as(red_ub[0] * (1.0 / n) + self.EPS)
            t.vec_dup(8, red_ub, var, 1, 8)
            t.vec_rsqrt(8, red_ub, red_ub, 1, 8, 8)
            rstd = t.Scalar("float32", name="rstd", init_value=red_ub[0])
            t.vec_muls(64, x_ub, x_ub, rstd, 1, 8, 8)
            t.vec_mul(64, x_ub, x_ub, gamma_ub, 1, 8, 8, 8)
            t.vec_add(64, x_ub, x_ub, beta_ub, 1, 8, 8, 8)
            t.data_move(self.y_gm[row, 0], x_ub, 0, 1, n // 8, 0, 0)
        t.BuildCCE("layer_norm", [self.x_gm, self.gamma_gm, self.beta_gm], [self.y_gm])
        return t


def test_layer_norm_with_work_tensors():
    op = LayerNorm()
    op.compute()
    rng = np.random.default_rng(41)
    x = rng.uniform(-2, 2, (4, 64)).astype(np.float32)
    g = rng.uniform(0.5, 1.5, 64).astype(np.float32)
    b = rng.uniform(-0.5, 0.5, 64).astype(np.float32)
    y, = run_both(op, "layer_norm", {"x": x, "gamma": g, "beta": b}, ["y"])
    want = np.empty_like(x)
    for r in range(4):
        mean = np.float32(float(tree_sum(x[r], np.float32)) * (1.0 / 64))   # the scalar unit: double, stored
        xc = (x[r] - mean).astype(np.float32)
        var = np.float32(float(tree_sum(xc * xc, np.float32)) * (1.0 / 64) + 1e-5)
        rstd = np.float32(1.0 / np.sqrt(np.float64(var)))                    # Rsqrt: in double, rounded once
        want[r] = ((xc * rstd) * g) + b
    assert y.tobytes() == want.tobytes()


# ---- 2. argmax and max of each row, rows split over two cores ----
class ArgMax:
    ROWS, COLS, CORES = 8, 256, 2

    def __init__(self):
        self.tik_instance = tik.Tik()
        t = self.tik_instance
        self.x_gm = t.Tensor("float16", (self.ROWS, self.COLS), name="x", scope=tik.scope_gm)
        self.idx_gm = t.Tensor("int32", (self.CORES, 8), name="idx", scope=tik.scope_gm)
        self.max_gm = t.Tensor("float16", (self.CORES, 16), name="max", scope=tik.scope_gm)

    def compute(self):
        t = self.tik_instance
        rows = self.ROWS // self.CORES
        with t.for_range(0, self.CORES, block_num=self.CORES) as core:
            x_ub = t.Tensor("float16", (rows, self.COLS), name="x_ub", scope=tik.scope_ubuf)
            idx_ub = t.Tensor("int32", (8,), name="idx_ub", scope=tik.scope_ubuf)
            max_ub = t.Tensor("float16", (16,), name="max_ub", scope=tik.scope_ubuf)
            t.vec_dup(8, idx_ub, -1, 1, 8)
            t.vec_dup(16, max_ub, 0.0, 1, 8)
            t.data_move(x_ub, self.x_gm[core * rows, 0], 0, 1, rows * self.COLS // 16, 0, 0)
            t.h_reduce_argmax(idx_ub, x_ub, axis=1)
            t.h_reduce_max(max_ub, x_ub, axis=1)
            t.data_move(self.idx_gm[core, 0], idx_ub, 0, 1, 1, 0, 0)
            t.data_move(self.max_gm[core, 0], max_ub, 0, 1, 1, 0, 0)
        t.BuildCCE("argmax_rows", [self.x_gm], [self.idx_gm, self.max_gm])


def test_argmax_rows_on_two_cores():
    op = ArgMax()
    op.compute()
    x = np.random.default_rng(42).integers(-300, 300, (8, 256)).astype(np.float16) / np.float16(8)
    idx, mx = run_both(op, "argmax_rows", {"x": x}, ["idx", "max"])
    want_idx = np.full((2, 8), -1, np.int32)
    want_max = np.zeros((2, 16), np.float16)
    want_idx[:, :4] = x.argmax(axis=1).reshape(2, 4)   # ties: the lowest index, as numpy
    want_max[:, :4] = x.max(axis=1).reshape(2, 4)
    assert idx.tolist() == want_idx.tolist()
    assert mx.tobytes() == want_max.tobytes()


# ---- 3. a 3x3 convolution: im2col by load3dv1, mmad, fixpipe (Ascend910B) ----
class Conv3x3:
    H = W = 6
    C0, COUT, M_PAD = 16, 16, 48

    def __init__(self):
        set_current_compile_soc_info("Ascend910B2")
        self.tik_instance = tik.Tik()
        t = self.tik_instance
        self.fm_gm = t.Tensor("float16", (1, self.H, self.W, self.C0), name="fm", scope=tik.scope_gm)
        self.wt_gm = t.Tensor("float16", (1, 3, 3, self.COUT, self.C0), name="wt", scope=tik.scope_gm)
        self.out_gm = t.Tensor("float16", (1, self.H * self.W, 16), name="out", scope=tik.scope_gm)

    def compute(self):
        t = self.tik_instance
        h, w, c0 = self.H, self.W, self.C0
        fm = t.Tensor("float16", (1, h, w, c0), name="fm_l1", scope=tik.scope_cbuf)
        wt = t.Tensor("float16", (1, 3, 3, self.COUT, c0), name="wt_l1", scope=tik.scope_cbuf)
        la = t.Tensor("float16", (self.M_PAD, 9 * c0), name="la", scope=tik.scope_ca)
        lb = t.Tensor("float16", (9 * c0, self.COUT), name="lb", scope=tik.scope_cb)
        lc = t.Tensor("float32", (1, self.M_PAD, 16), name="lc", scope=tik.scope_cbuf_out)
        t.data_move(fm, self.fm_gm, 0, 1, h * w, 0, 0)
        t.data_move(wt, self.wt_gm, 0, 1, 9 * self.COUT, 0, 0)
        # repeat_mode 0: 16 output positions, all 9 kernel positions (9 C0 column blocks).
        for mb in range(self.M_PAD // 16):
            oh, ow = divmod(16 * mb, w)
            t.load3dv1(la[mb * 16, 0], fm, [1, 1, 1, 1], h, w, 0, 0, 0, ow - 1, oh - 1, 1, 1, 3, 3, 1, 1, 1, 0, 9)
        t.load2dv1(lb, wt, 0, 9, 1, 0)
        t.mmad(lc, la, lb, h * w, 9 * c0, self.COUT, 0)
        t.fixpipe(self.out_gm, lc, 1, h * w * 16 * 4 // 32, 0, 0,
                  extend_params={"quantize_params": {"mode": "fp322fp16"}})
        t.BuildCCE("conv3x3", [self.fm_gm, self.wt_gm], [self.out_gm])


def test_im2col_conv_load3dv1_mmad_fixpipe():
    op = Conv3x3()
    op.compute()
    rng = np.random.default_rng(43)
    x = rng.uniform(-1, 1, (1, 6, 6, 16)).astype(np.float16)
    k = rng.uniform(-1, 1, (1, 3, 3, 16, 16)).astype(np.float16)
    out, = run_both(op, "conv3x3", {"fm": x, "wt": k}, ["out"])
    xp = np.zeros((8, 8, 16), np.float16)
    xp[1:7, 1:7] = x[0]
    cols = np.array([[xp[i + a, j + b, z] for a in range(3) for b in range(3) for z in range(16)]
                     for i in range(6) for j in range(6)], np.float16)
    want = mmad_ref(cols, k[0].transpose(0, 1, 3, 2).reshape(144, 16)).astype(np.float16)
    assert out.reshape(36, 16).tobytes() == want.tobytes()


# ---- 4. 2-D transposes by vnchwconv: float16 (16 x 64) and float32 (16 x 32) ----
class Transpose:
    def __init__(self):
        self.tik_instance = tik.Tik()
        t = self.tik_instance
        self.a_gm = t.Tensor("float16", (16, 64), name="a", scope=tik.scope_gm)
        self.b_gm = t.Tensor("float32", (16, 32), name="b", scope=tik.scope_gm)
        self.at_gm = t.Tensor("float16", (64, 16), name="at", scope=tik.scope_gm)
        self.bt_gm = t.Tensor("float32", (32, 16), name="bt", scope=tik.scope_gm)

    def compute(self):
        t = self.tik_instance
        a_ub = t.Tensor("float16", (16, 64), name="a_ub", scope=tik.scope_ubuf)
        at_ub = t.Tensor("float16", (64, 16), name="at_ub", scope=tik.scope_ubuf)
        b_ub = t.Tensor("float32", (16, 32), name="b_ub", scope=tik.scope_ubuf)
        bt_ub = t.Tensor("float32", (32, 16), name="bt_ub", scope=tik.scope_ubuf)
        t.data_move(a_ub, self.a_gm, 0, 1, 64, 0, 0)
        t.data_move(b_ub, self.b_gm, 0, 1, 64, 0, 0)
        # repeat r: columns 16r..16r+15 of the rows -> rows 16r..16r+15 of the result
        src_list = [a_ub[j, 0] for j in range(16)]
        dst_list = [at_ub[i, 0] for i in range(16)]
        t.vnchwconv(False, False, dst_list, src_list, 4, 16, 1)
        # float32: repeat r takes columns 8r..8r+7; result blocks 2k, 2k+1 are row 8r+k
        src_list = [b_ub[j, 0] for j in range(16)]
        dst_list = [bt_ub[k, 8 * hh] for k in range(8) for hh in range(2)]
        t.vec_trans_scatter(False, False, dst_list, src_list, 4, 16, 1)
        t.data_move(self.at_gm, at_ub, 0, 1, 64, 0, 0)
        t.data_move(self.bt_gm, bt_ub, 0, 1, 64, 0, 0)
        t.BuildCCE("transpose2d", [self.a_gm, self.b_gm], [self.at_gm, self.bt_gm])


def test_transpose_by_vnchwconv_16_and_32_bit():
    op = Transpose()
    op.compute()
    rng = np.random.default_rng(44)
    a = rng.uniform(-4, 4, (16, 64)).astype(np.float16)
    b = rng.uniform(-4, 4, (16, 32)).astype(np.float32)
    at, bt = run_both(op, "transpose2d", {"a": a, "b": b}, ["at", "bt"])
    assert at.tobytes() == np.ascontiguousarray(a.T).tobytes()
    assert bt.tobytes() == np.ascontiguousarray(b.T).tobytes()


# ---- 5. y = relu(x * 1.5 + 0.25) over an InputScalar length: cores, double buffering, a tail ----
class ScaleRelu:
    MAX_N, CORES, TILE, TILES = 4 * 2 * 1024, 4, 1024, 2

    def __init__(self):
        self.tik_instance = tik.Tik()
        t = self.tik_instance
        self.x_gm = t.Tensor("float16", (self.MAX_N,), name="x", scope=tik.scope_gm)
        self.y_gm = t.Tensor("float16", (self.MAX_N,), name="y", scope=tik.scope_gm)
        self.n = t.InputScalar("int32", name="n")

    def _tile(self, x_ub, base, count):
        """count elements (a multiple of 16) at base: whole repeats, then a masked tail."""
        t = self.tik_instance
        t.data_move(x_ub, self.x_gm[base], 0, 1, count // 16, 0, 0)
        repeats = t.Scalar("int32", name="repeats", init_value=count // 128)
        tail = t.Scalar("int32", name="tail", init_value=count % 128)
        with t.if_scope(repeats > 0):
            t.vec_muls(128, x_ub, x_ub, 1.5, repeats, 8, 8)
            t.vec_adds(128, x_ub, x_ub, 0.25, repeats, 8, 8)
            t.vec_relu(128, x_ub, x_ub, repeats, 8, 8)
        with t.if_scope(tail > 0):
            t.vec_muls(tail, x_ub[repeats * 128], x_ub[repeats * 128], 1.5, 1, 8, 8)
            t.vec_adds(tail, x_ub[repeats * 128], x_ub[repeats * 128], 0.25, 1, 8, 8)
            t.vec_relu(tail, x_ub[repeats * 128], x_ub[repeats * 128], 1, 8, 8)
        t.data_move(self.y_gm[base], x_ub, 0, 1, count // 16, 0, 0)

    def compute(self):
        t = self.tik_instance
        per_core = self.TILE * self.TILES
        with t.for_range(0, self.CORES, block_num=self.CORES) as core:
            with t.for_range(0, self.TILES, thread_num=2) as i:
                x_ub = t.Tensor("float16", (self.TILE,), name="x_ub", scope=tik.scope_ubuf)
                base = core * per_core + i * self.TILE
                left = t.Scalar("int32", name="left", init_value=self.n - base)
                with t.if_scope(left >= self.TILE):
                    self._tile(x_ub, base, self.TILE)
                with t.elif_scope(left > 0):
                    self._tile(x_ub, base, left)
        t.BuildCCE("scale_relu", [self.x_gm, self.n], [self.y_gm])


def test_double_buffered_multicore_elementwise_with_input_scalar_length():
    op = ScaleRelu()
    op.compute()
    n = 5 * 1024 + 400   # core 2 ends in a tail of 400 = 3 repeats + 16; core 3 does nothing
    x = np.random.default_rng(45).uniform(-2, 2, op.MAX_N).astype(np.float16)
    y, = run_both(op, "scale_relu", {"x": x, "n": np.int32(n)}, ["y"])
    v = (x[:n] * np.float16(1.5)) + np.float16(0.25)
    want = np.where(v > 0, v, np.float16(0)).astype(np.float16)
    assert y[:n].tobytes() == want.tobytes()
    # Never written: the documented uninitialised-GM pattern.
    assert y[n:].view(np.uint16).tolist() == [0xA5A5] * (op.MAX_N - n)


# ---- 6. the TIK samples' multi-core vadd: 2-D GM tensors indexed by flat offsets ----
class VaddSample:
    """As the public sample writes it: sizes from get_soc_spec, a flat offset per core into
    2-D GM tensors (one index addresses a tensor as 1-D, TIK API reference "Obtaining Partial
    Tensor Data"), 255-repeat chunks, then whole repeats, then a masked tail."""

    def __init__(self, shape, dtype):
        import te.platform as tbe_platform
        from te.platform import cce_intrin
        self.tik_instance = tik.Tik()
        t = self.tik_instance
        self.cores = tbe_platform.get_soc_spec("CORE_NUM")
        self.per_block = 32 // (cce_intrin.get_bit_len(dtype) // 8)
        self.ub_elems = tbe_platform.get_soc_spec("UB_SIZE") // (cce_intrin.get_bit_len(dtype) // 8) // 2
        self.mask_max = 8 * self.per_block
        self.num = shape[0] * shape[1]
        self.x_gm = t.Tensor(dtype, shape, name="input_x_gm", scope=tik.scope_gm)
        self.y_gm = t.Tensor(dtype, shape, name="input_y_gm", scope=tik.scope_gm)
        self.z_gm = t.Tensor(dtype, shape, name="output_z_gm", scope=tik.scope_gm)
        self.dtype = dtype

    def compute(self):
        t = self.tik_instance
        each = self.num // self.cores
        with t.for_range(0, self.cores, block_num=self.cores) as index:
            self.x_ub = t.Tensor(self.dtype, (self.ub_elems,), name="input_x_ub", scope=tik.scope_ubuf)
            self.y_ub = t.Tensor(self.dtype, (self.ub_elems,), name="input_y_ub", scope=tik.scope_ubuf)
            self._each_loop(index * each, each)
        t.BuildCCE(kernel_name="vadd_sample", inputs=[self.x_gm, self.y_gm], outputs=[self.z_gm])

    def _each_loop(self, offset, num):
        t = self.tik_instance
        burst = (num + self.per_block - 1) // self.per_block
        t.data_move(self.x_ub, self.x_gm[offset], 0, 1, burst, 0, 0)
        t.data_move(self.y_ub, self.y_gm[offset], 0, 1, burst, 0, 0)
        chunks = num // (self.mask_max * 255)
        add_offset = 0
        if chunks > 0:
            with t.for_range(0, chunks) as k:
                o = k * self.mask_max * 255
                t.vec_add(self.mask_max, self.x_ub[o], self.x_ub[o], self.y_ub[o], 255, 8, 8, 8)
            add_offset = chunks * self.mask_max * 255
        repeats = num % (self.mask_max * 255) // self.mask_max
        if repeats > 0:
            t.vec_add(self.mask_max, self.x_ub[add_offset], self.x_ub[add_offset], self.y_ub[add_offset], repeats,
                      8, 8, 8)
            add_offset += repeats * self.mask_max
        last = num % self.mask_max
        if last > 0:
            t.vec_add(last, self.x_ub[add_offset], self.x_ub[add_offset], self.y_ub[add_offset], 1, 8, 8, 8)
        t.data_move(self.z_gm[offset], self.x_ub, 0, 1, burst, 0, 0)


def test_vadd_sample_with_flat_offsets_into_2d_tensors():
    op = VaddSample((32, 32768 + 48), "float16")   # per core: 128 x 255 + 1 repeat + 48 elements
    op.compute()
    rng = np.random.default_rng(46)
    x = rng.uniform(1, 10, (32, 32816)).astype(np.float16)
    y = rng.uniform(1, 10, (32, 32816)).astype(np.float16)
    z, = run_both(op, "vadd_sample", {"input_x_gm": x, "input_y_gm": y}, ["output_z_gm"])
    assert z.tobytes() == (x + y).tobytes()


def test_one_index_addresses_a_tensor_as_1d():
    t = tik.Tik()
    g = t.Tensor("float32", (4, 16), name="g", scope=tik.scope_gm)
    assert g[20].boff == 80 and g[20].shape == (44,)        # not row 20
    assert g[-8].boff == 56 * 4                             # from the end
    assert g[16:32].boff == 64 and g[16:32].shape == (16,)
    assert g[1, 4].boff == 80                               # a full tuple: row and column
    with pytest.raises(tik.TikError) as e:
        g[64]
    assert "outside the 64 elements of tensor g" in str(e.value)


# ---- 7. a GM index table given by init_value (as the ROI-pooling sample keeps its assist data) ----
def test_gm_tensor_init_value_table():
    t = tik.Tik()
    rows = [list(range(16))] * 4                        # a nested list, as the sample builds it
    assist = t.Tensor("float32", (4, 16), name="assist_gm", scope=tik.scope_gm, init_value=rows)
    x = t.Tensor("float32", (64,), name="x", scope=tik.scope_gm)
    y = t.Tensor("float32", (64,), name="y", scope=tik.scope_gm)
    au = t.Tensor("float32", (64,), name="au", scope=tik.scope_ubuf)
    xu = t.Tensor("float32", (64,), name="xu", scope=tik.scope_ubuf)
    t.data_move(au, assist, 0, 1, 8, 0, 0)
    t.data_move(xu, x, 0, 1, 8, 0, 0)
    t.vec_add(64, xu, xu, au, 1, 8, 8, 8)
    t.data_move(y, xu, 0, 1, 8, 0, 0)
    t.BuildCCE("assist_table", [x], [y])

    class Op:
        tik_instance = t
    a = np.random.default_rng(48).uniform(-1, 1, 64).astype(np.float32)
    got, = run_both(Op, "assist_table", {"x": a}, ["y"])
    assert got.tobytes() == (a + np.tile(np.arange(16, dtype=np.float32), 4)).tobytes()
    with pytest.raises(tik.TikError) as e:
        t.Tensor("float32", (8,), name="bad", scope=tik.scope_gm, init_value=[1, 2, 3])
    assert "test_tik_guide_ops.py:" in str(e.value) and "holds 3 values, the tensor 8" in str(e.value)
