"""The tensor-level h_* forms: whole tensors in one call, lowered to full repeats and a masked tail."""
import numpy as np
from tbe import tik


def test_h_forms_with_odd_sizes():
    n = 1000  # 7 full float16 repeats + 104; 15 float32 repeats + 40
    t = tik.Tik()
    x = t.Tensor("float16", (n,), name="x", scope=tik.scope_gm)
    y = t.Tensor("float16", (n,), name="y", scope=tik.scope_gm)
    z = t.Tensor("float32", (n,), name="z", scope=tik.scope_gm)
    xu = t.Tensor("float16", (n,), name="xu", scope=tik.scope_ubuf)
    yu = t.Tensor("float16", (n,), name="yu", scope=tik.scope_ubuf)
    zu = t.Tensor("float32", (n,), name="zu", scope=tik.scope_ubuf)
    t.h_data_move(xu, x)
    t.h_duplicate(yu, 0.5)
    t.h_add(yu, xu, yu)          # x + 0.5
    t.h_mul(yu, yu, 3.0)         # scalar form
    t.h_sub(yu, yu, 1.0)
    t.h_abs(yu, yu)
    t.h_cast(zu, yu)             # float16 -> float32, exact
    t.h_data_move(y, yu)
    t.h_data_move(z, zu)
    t.BuildCCE("hforms", [x], [y, z])
    a = np.random.default_rng(16).uniform(-2, 2, n).astype(np.float16)
    got_y, got_z = t.tikdb.start_debug({"x": a})
    want = np.abs(((a + np.float16(0.5)) * np.float16(3)) + np.float16(-1))
    assert got_y.tobytes() == want.tobytes()
    assert got_z.tobytes() == want.astype(np.float32).tobytes()
