"""Errors a TIK user understands: each a TikError naming the operator's file:line and the rule."""
import re

import numpy as np
import pytest
from tbe import tik

HERE = "test_tik_errors.py"


def line_of(marker):
    with open(__file__) as f:
        for n, text in enumerate(f, 1):
            if marker in text and "line_of" not in text:
                return n
    raise AssertionError(marker)


def ub(t, n=256, dtype="float16", name="u"):
    return t.Tensor(dtype, (n,), name=name, scope=tik.scope_ubuf)


def test_dtype_combination():
    t = tik.Tik()
    a, b = ub(t, name="a"), ub(t, dtype="float32", name="b")
    with pytest.raises(tik.TikError) as e:
        t.vec_add(64, a, a, b, 1, 8, 8, 8)  # MARK-dtype
    assert "%s:%d" % (HERE, line_of("MARK-dtype")) in str(e.value)
    assert "dtypes differ" in str(e.value) and "vec_add" in str(e.value)
    with pytest.raises(tik.TikError, match="dtype int8 is not supported"):
        c = ub(t, dtype="int8", name="c")
        t.vec_exp(128, c, c, 1, 8, 8)


def test_mask_out_of_range():
    t = tik.Tik()
    a = ub(t, dtype="float32")
    with pytest.raises(tik.TikError) as e:
        t.vec_muls(65, a, a, 2.0, 1, 8, 8)  # MARK-mask
    assert "%s:%d" % (HERE, line_of("MARK-mask")) in str(e.value)
    assert "mask 65 out of range [1, 64] for float32" in str(e.value)
    with pytest.raises(tik.TikError, match="mask_h must be 0"):
        t.vec_muls([1, 0], a, a, 2.0, 1, 8, 8)


def test_repeat_out_of_range():
    t = tik.Tik()
    a = ub(t)
    with pytest.raises(tik.TikError, match=r"repeat_times 256 out of range \[1, 255\]"):
        t.vec_adds(128, a, a, 1.0, 256, 8, 8)
    with pytest.raises(tik.TikError, match="may not be 0"):
        t.vadds(128, a, a, 1.0, 0, 1, 1, 8, 8)


def test_dynamic_repeat_out_of_range_names_the_line():
    t = tik.Tik()
    x = t.Tensor("float16", (256,), name="x", scope=tik.scope_gm)
    r = t.InputScalar("int32", name="r")
    a = ub(t)
    t.vec_adds(128, a, a, 1.0, r, 8, 8)  # MARK-dynrep
    t.data_move(x, a, 0, 1, 16, 0, 0)
    t.BuildCCE("dynrep", [r], [x])
    with pytest.raises(tik.TikError) as e:
        t.tikdb.start_debug({"r": 300})
    assert "%s:%d" % (HERE, line_of("MARK-dynrep")) in str(e.value)
    assert "repeat_times 300 out of range [0, 255]" in str(e.value)


def test_ub_overflow():
    t = tik.Tik()
    ub(t, n=100 * 1024, name="big")
    with pytest.raises(tik.TikError) as e:
        t.Tensor("float16", (40 * 1024,), name="bigger", scope=tik.scope_ubuf)  # MARK-overflow
    assert "%s:%d" % (HERE, line_of("MARK-overflow")) in str(e.value)
    assert "does not fit in scope_ubuf" in str(e.value)


def test_ub_freed_at_scope_end():
    t = tik.Tik()
    with t.for_range(0, 2):
        ub(t, n=100 * 1024, name="a")
    ub(t, n=100 * 1024, name="b")  # the loop's tensor is dead: fits again
    with pytest.raises(tik.TikError, match="thread_num=2 holds two copies"):
        with t.for_range(0, 2, thread_num=2):
            ub(t, n=20 * 1024, name="c")


def test_misaligned_operand():
    t = tik.Tik()
    a = ub(t)
    with pytest.raises(tik.TikError) as e:
        t.vec_add(64, a[3], a, a, 1, 8, 8, 8)  # MARK-align
    assert "%s:%d" % (HERE, line_of("MARK-align")) in str(e.value)
    assert "32-byte aligned" in str(e.value)


def test_illegal_data_move_direction():
    t = tik.Tik()
    l1 = t.Tensor("float16", (256,), name="l1", scope=tik.scope_cbuf)
    a = ub(t)
    with pytest.raises(tik.TikError) as e:
        t.data_move(a, l1, 0, 1, 16, 0, 0)  # MARK-path
    msg = str(e.value)
    assert "%s:%d" % (HERE, line_of("MARK-path")) in msg
    assert "scope_cbuf" in msg and "not a legal data path on Ascend910" in msg


def test_vector_operand_outside_ub():
    t = tik.Tik()
    g = t.Tensor("float16", (256,), name="g", scope=tik.scope_gm)
    with pytest.raises(tik.TikError, match="must be in scope_ubuf"):
        t.vec_abs(128, g, g, 1, 8, 8)


def test_python_if_on_a_scalar_is_an_error():
    t = tik.Tik()
    s = t.Scalar("int32", "s", init_value=1)
    with pytest.raises(tik.TikError, match="if_scope"):
        if s > 0:
            pass


def test_start_debug_checks_the_feed():
    t = tik.Tik()
    x = t.Tensor("float16", (16,), name="x", scope=tik.scope_gm)
    y = t.Tensor("float16", (16,), name="y", scope=tik.scope_gm)
    a = ub(t, n=16)
    t.data_move(a, x, 0, 1, 1, 0, 0)
    t.data_move(y, a, 0, 1, 1, 0, 0)
    with pytest.raises(tik.TikError, match="BuildCCE first"):
        t.tikdb.start_debug({"x": np.zeros(16, np.float16)})
    t.BuildCCE("feed", [x], [y])
    with pytest.raises(tik.TikError, match="float32, the tensor is float16"):
        t.tikdb.start_debug({"x": np.zeros(16, np.float32)})
    with pytest.raises(tik.TikError, match="no entry for input 'x'"):
        t.tikdb.start_debug({})


def test_element_index_out_of_tensor_at_run_time():
    t = tik.Tik()
    x = t.Tensor("int32", (8,), name="x", scope=tik.scope_gm)
    i = t.InputScalar("int32", name="i")
    a = ub(t, n=8, dtype="int32")
    a[i].set_as(5)  # MARK-index
    t.data_move(x, a, 0, 1, 1, 0, 0)
    t.BuildCCE("index", [i], [x])
    with pytest.raises(tik.TikError) as e:
        t.tikdb.start_debug({"i": 9})
    assert re.search(r"%s:%d.*outside its 32 bytes" % (HERE, line_of("MARK-index")), str(e.value))


def test_vector_instruction_overflowing_its_tensor():
    t = tik.Tik()
    x = t.Tensor("float16", (256,), name="x", scope=tik.scope_gm)
    a = t.Tensor("float16", (256,), name="small", scope=tik.scope_ubuf)
    t.Tensor("float16", (1024,), name="neighbour", scope=tik.scope_ubuf)
    t.vec_adds(128, a, a, 1.0, 3, 8, 8)  # MARK-overrun: 3 repeats of 128 on 256 elements
    t.data_move(x, a, 0, 1, 16, 0, 0)
    t.BuildCCE("overrun", [x], [x])
    with pytest.raises(tik.TikError) as e:
        t.tikdb.start_debug({"x": np.zeros(256, np.float16)})
    assert "%s:%d" % (HERE, line_of("MARK-overrun")) in str(e.value)
    assert "outside tensor small" in str(e.value)


def test_not_yet_implemented_instruction_names_the_line():
    t = tik.Tik()
    a = ub(t, name="a")
    with pytest.raises(tik.TikError) as e:
        t.vbi(a, a, 0)  # MARK-notyet
    assert "%s:%d" % (HERE, line_of("MARK-notyet")) in str(e.value)
    assert "vbi is not implemented by npuvp yet" in str(e.value)
    with pytest.raises(AttributeError):
        t.no_such_instruction
