"""The region-proposal instructions (vconcat, vextract, vrpsort16, vmrgsort4), bit-exact
against numpy: a proposal is 8 elements [x1, y1, x2, y2, score, label, reserved, reserved];
the sorts are stable and descending by score."""
import os
import subprocess

import numpy as np
import pytest
from tbe import tik
from tbe.common.platform import set_current_compile_soc_info
from npuvp.tik import TikError

CLI = os.environ.get("NPUVP_CLI")
UNINIT = 0xA5  # every byte of UB at block start (docs/tik.md)


def uninit(shape, dtype):
    return np.frombuffer(bytes([UNINIT]) * (int(np.prod(shape)) * np.dtype(dtype).itemsize), dtype).reshape(shape)


def sort_groups(props, group):
    """Each run of `group` proposals sorted by score, descending, stably."""
    out = props.copy()
    for g in range(0, len(props), group):
        part = props[g:g + group]
        out[g:g + group] = part[np.argsort(-part[:, 4].astype(np.float32), kind="stable")]
    return out


def merge(queues, stop=False):
    """Merge sorted queues: the largest head score first, the earlier queue on ties; with
    `stop`, end when a queue runs out."""
    heads = [0] * len(queues)
    out = []
    while True:
        best = None
        for q, a in enumerate(queues):
            if heads[q] == len(a):
                continue
            if best is None or np.float32(a[heads[q], 4]) > np.float32(queues[best][heads[best], 4]):
                best = q
        if best is None or (stop and any(heads[q] == len(a) for q, a in enumerate(queues))):
            break
        out.append(queues[best][heads[best]])
        heads[best] += 1
    return np.array(out)


def build_topk(dtype, n_groups=4):
    """Fields of n_groups * 16 boxes -> proposals (vconcat), sorted per 16 (vrpsort16), merged
    (vmrgsort4 over the 4 queues), then the sorted scores again (vextract)."""
    n = 16 * n_groups
    t = tik.Tik()
    fields = t.Tensor(dtype, (6, n), name="fields", scope=tik.scope_gm)
    props = t.Tensor(dtype, (n, 8), name="props", scope=tik.scope_gm)
    merged = t.Tensor(dtype, (n, 8), name="merged", scope=tik.scope_gm)
    scores = t.Tensor(dtype, (n,), name="scores", scope=tik.scope_gm)
    fu = t.Tensor(dtype, (6, n), name="fu", scope=tik.scope_ubuf)
    pu = t.Tensor(dtype, (n, 8), name="pu", scope=tik.scope_ubuf)
    su = t.Tensor(dtype, (n, 8), name="su", scope=tik.scope_ubuf)
    mu = t.Tensor(dtype, (n, 8), name="mu", scope=tik.scope_ubuf)
    xu = t.Tensor(dtype, (n,), name="xu", scope=tik.scope_ubuf)
    esize = np.dtype(dtype).itemsize
    t.data_move(fu, fields, 0, 1, 6 * n * esize // 32, 0, 0)
    for k in range(6):
        t.vconcat(pu, fu[k * n:], n_groups, k)   # field k of every proposal
    t.vrpsort16(su, pu, n_groups)
    per = 16 * 8
    t.vmrgsort4(mu, [su[0:per], su[per:2 * per], su[2 * per:3 * per], su[3 * per:4 * per]], [16, 16, 16, 16],
                False, 15, 1)
    t.vextract(xu, mu, n_groups, 4)
    t.data_move(props, su, 0, 1, n * 8 * esize // 32, 0, 0)
    t.data_move(merged, mu, 0, 1, n * 8 * esize // 32, 0, 0)
    t.data_move(scores, xu, 0, 1, n * esize // 32, 0, 0)
    t.BuildCCE("topk_props", [fields], [props, merged, scores])
    return t


def reference_topk(f, dtype):
    n = f.shape[1]
    p = uninit((n, 8), dtype).copy()
    p[:, :6] = f.T
    s = sort_groups(p, 16)
    m = merge([s[16 * q:16 * q + 16] for q in range(4)])
    return s, m, m[:, 4].copy()


def fields_data(dtype, n, seed):
    rng = np.random.default_rng(seed)
    f = rng.uniform(-50, 50, (6, n)).astype(dtype)
    f[4, 3] = f[4, 9]       # equal scores: the earlier stays first
    f[4, 20] = f[4, 40]     # across queues: the earlier queue first
    f[4, 5] = -0.0
    f[4, 6] = 0.0           # -0 and +0 are equal
    return f


def test_concat_sort_merge_extract_f16():
    t = build_topk("float16")
    f = fields_data(np.float16, 64, 1)
    got = t.tikdb.start_debug({"fields": f}, interactive=False)
    want = reference_topk(f, np.float16)
    for g, w in zip(got, want):
        assert g.tobytes() == w.astype(np.float16).tobytes()


def test_concat_sort_merge_extract_f32_on_310p():
    set_current_compile_soc_info("Ascend310P3")
    t = build_topk("float32")
    f = fields_data(np.float32, 64, 2)
    got = t.tikdb.start_debug({"fields": f}, interactive=False)
    want = reference_topk(f, np.float32)
    for g, w in zip(got, want):
        assert g.tobytes() == w.astype(np.float32).tobytes()


def test_vmrgsort4_three_queues_stops_when_exhausted():
    t = tik.Tik()
    q = t.Tensor("float16", (48, 8), name="q", scope=tik.scope_gm)
    y = t.Tensor("float16", (48, 8), name="y", scope=tik.scope_gm)
    qu = t.Tensor("float16", (48, 8), name="qu", scope=tik.scope_ubuf)
    yu = t.Tensor("float16", (48, 8), name="yu", scope=tik.scope_ubuf)
    t.data_move(qu, q, 0, 1, 48 * 16 // 32, 0, 0)
    t.vec_dup(128, yu, 7.0, 3, 8)
    # queues of 5, 16 and 9 proposals; a queue may start at any proposal (16 B for half)
    t.vmrgsort4(yu, [qu[8 * 1:], qu[8 * 16:], qu[8 * 32:]], [5, 16, 9, 0], True, 7, 1)
    t.data_move(y, yu, 0, 1, 48 * 16 // 32, 0, 0)
    t.BuildCCE("mrg3", [q], [y])
    rng = np.random.default_rng(3)
    a = rng.uniform(-10, 10, (48, 8)).astype(np.float16)
    queues = [a[1:6], a[16:32], a[32:41]]
    queues = [qq[np.argsort(-qq[:, 4].astype(np.float32), kind="stable")] for qq in queues]
    a[1:6], a[16:32], a[32:41] = queues
    got, = t.tikdb.start_debug({"q": a}, interactive=False)
    m = merge(queues, stop=True)
    want = np.full((48, 8), 7.0, np.float16)
    want[:len(m)] = m
    assert 0 < len(m) < 30
    assert got.tobytes() == want.tobytes()


def test_vmrgsort4_repeats_over_contiguous_queues():
    t = tik.Tik()
    q = t.Tensor("float16", (128, 8), name="q", scope=tik.scope_gm)
    y = t.Tensor("float16", (128, 8), name="y", scope=tik.scope_gm)
    qu = t.Tensor("float16", (128, 8), name="qu", scope=tik.scope_ubuf)
    yu = t.Tensor("float16", (128, 8), name="yu", scope=tik.scope_ubuf)
    t.data_move(qu, q, 0, 1, 128 * 16 // 32, 0, 0)
    t.vrpsort16(qu, qu, 8)                       # in place
    t.vmrgsort4(yu, [qu[0:], qu[128:], qu[256:], qu[384:]], 16, False, 15, 2)
    t.data_move(y, yu, 0, 1, 128 * 16 // 32, 0, 0)
    t.BuildCCE("mrg_rep", [q], [y])
    a = np.random.default_rng(4).uniform(-1, 1, (128, 8)).astype(np.float16)
    got, = t.tikdb.start_debug({"q": a}, interactive=False)
    s = sort_groups(a, 16)
    want = np.concatenate([merge([s[r * 64 + 16 * k:r * 64 + 16 * k + 16] for k in range(4)]) for r in range(2)])
    assert got.tobytes() == want.tobytes()


def _ub_pair(t, dtype="float16", n=16):
    a = t.Tensor(dtype, (n, 8), name="a", scope=tik.scope_ubuf)
    b = t.Tensor(dtype, (n, 8), name="b", scope=tik.scope_ubuf)
    return a, b


def test_errors_name_the_line():
    t = tik.Tik()
    a, b = _ub_pair(t)
    with pytest.raises(TikError) as e:
        t.vconcat(a, b, 1, 6)
    assert "test_tik_proposal.py:" in str(e.value) and "mode_number 6 out of range [0, 5]" in str(e.value)
    with pytest.raises(TikError) as e:
        t.vmrgsort4(a, [a, b], [8, 8], False, 5, 1)
    assert "valid_bit 5 must be 3, 7 or 15" in str(e.value)
    f32a, f32b = t.Tensor("float32", (16, 8), name="fa", scope=tik.scope_ubuf), \
        t.Tensor("float32", (16, 8), name="fb", scope=tik.scope_ubuf)
    with pytest.raises(TikError) as e:
        t.vrpsort16(f32a, f32b, 1)
    assert "float32 proposals need Ascend310P" in str(e.value)


def test_refused_on_910b():
    set_current_compile_soc_info("Ascend910B1")
    t = tik.Tik()
    a, b = _ub_pair(t)
    with pytest.raises(TikError) as e:
        t.vrpsort16(a, b, 1)
    assert "exist on Ascend910 and Ascend310P only; this is Ascend910B" in str(e.value)


def test_sort_reading_outside_its_tensor_is_an_error():
    t = tik.Tik()
    x = t.Tensor("float16", (16, 8), name="x", scope=tik.scope_gm)
    y = t.Tensor("float16", (16, 8), name="y", scope=tik.scope_gm)
    a, b = _ub_pair(t)
    t.data_move(a, x, 0, 1, 8, 0, 0)
    r = t.Scalar("int32", "r", init_value=2)
    t.vrpsort16(b, a, r)      # 32 proposals from a tensor of 16
    t.data_move(y, b, 0, 1, 8, 0, 0)
    t.BuildCCE("rp_oob", [x], [y])
    with pytest.raises(TikError) as e:
        t.tikdb.start_debug({"x": np.zeros((16, 8), np.float16)}, interactive=False)
    assert "vrpsort16" in str(e.value) and "outside" in str(e.value)


@pytest.mark.skipif(not CLI, reason="NPUVP_CLI (the npuvp program) not given")
def test_npuvp_run_topk_props():
    build_topk("float16")
    f = fields_data(np.float16, 64, 5)
    os.makedirs("data")
    np.save("data/fields.npy", f)
    r = subprocess.run([CLI, "run", "kernel_meta/topk_props.json", "--data", "data"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    want = reference_topk(f, np.float16)
    for name, w in zip(("props", "merged", "scores"), want):
        assert np.load("data/%s.npy" % name).tobytes() == w.astype(np.float16).tobytes()
