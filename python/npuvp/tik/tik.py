"""tik.Tik: the TIK DSL container. It records the operator as a statement tree (ir.py), checks
what it can while recording (dtypes, immediate masks and repeats, scopes, UB capacity and
alignment, data paths), serialises it for the C++ interpreter (sw/tik/) and runs it there.

Semantics follow Huawei's TIK API reference (CANN "TIK API" pages, e.g. the vector
instruction template https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/aicpuopapi/atlastikapi_07_0063.html):
masks in continuous (count) or bit-wise [mask_h, mask_l] form, repeat_times in [0, 255]
(an immediate 0 is an error), block and repeat strides in 32-byte blocks, data_move bursts
and gaps in 32-byte blocks.
"""
import json
import os
from contextlib import contextmanager

from . import soc
from .errors import TikError
from .ir import (DTYPE_SIZE, Expr, Scalar, Tensor, all_, any_, check_dtype, enc, fail, user_loc)

scope_gm = "scope_gm"
scope_ubuf = "scope_ubuf"
scope_cbuf = "scope_cbuf"
scope_cbuf_out = "scope_cbuf_out"
scope_ca = "scope_ca"
scope_cb = "scope_cb"
scope_cc = "scope_cc"
_SCOPES = (scope_gm, scope_ubuf, scope_cbuf, scope_cbuf_out, scope_ca, scope_cb, scope_cc)
_ALIGN = {scope_ubuf: 32, scope_cbuf: 32, scope_ca: 512, scope_cb: 512, scope_cc: 1024, scope_cbuf_out: 1024}
_SIZE_KEY = {scope_ubuf: "UB_SIZE", scope_cbuf: "L1_SIZE", scope_ca: "L0A_SIZE", scope_cb: "L0B_SIZE",
             scope_cc: "L0C_SIZE", scope_cbuf_out: "L0C_SIZE"}
_POOL = {scope_cbuf_out: scope_cc}  # L1OUT is the L0C (one pool)

# data_move paths per product (the model's DataCopy table, models/aicore/product.cpp).
_PATHS_ALL = {(scope_gm, scope_ubuf), (scope_ubuf, scope_gm), (scope_ubuf, scope_ubuf), (scope_gm, scope_cbuf)}
_PATHS = {
    "Ascend910": _PATHS_ALL | {(scope_cc, scope_ubuf)},
    "Ascend310P": _PATHS_ALL | {(scope_cc, scope_ubuf), (scope_ubuf, scope_cc), (scope_ubuf, scope_cbuf)},
    "Ascend910B": _PATHS_ALL | {(scope_ubuf, scope_cbuf), (scope_cbuf, scope_gm)},
}

_CMP = {"lt": 0, "gt": 1, "eq": 2, "le": 3, "ge": 4, "ne": 5}
_ROUND = {"": 0, "none": 0, "round": 1, "floor": 2, "ceil": 3, "ceiling": 3, "away-zero": 4, "to-zero": 5,
          "odd": 6}

_BLK_NAMES = ("dst_blk_stride", "src0_blk_stride", "src1_blk_stride")
_REP_NAMES = ("dst_rep_stride", "src0_rep_stride", "src1_rep_stride")
_ARITH = ("float16", "float32", "int32", "int16")
# Elements of one 256-byte repeat addressable by a count mask (at most 128).
_PER_REPEAT = {d: 128 if DTYPE_SIZE[d] <= 2 else 64 for d in DTYPE_SIZE}
_FLOAT = ("float16", "float32")


class CmpMask:
    """What vcmp_* returns: the CMPMASK register, for vsel/vec_sel mode 0."""

    def __init__(self, loc):
        self.loc = loc


class Tik:
    """tik.Tik(profile=None, ...): a TIK DSL container."""

    def __init__(self, profile=None, disable_debug=False, err_msg_level=0):
        self.profile = profile if profile is not None else soc.Dprofile()
        self._spec = soc.current_spec()
        self._platform = soc.current_platform()
        self._tensors = []      # JSON records
        self._tensor_objs = []  # Tensor objects (roots)
        self._scalars = []
        self._scalar_objs = []
        self._body = []
        self._cur = self._body
        self._tops = {s: 0 for s in _ALIGN}
        self._high = {s: 0 for s in _ALIGN}
        self._db_loop = -1     # the innermost thread_num=2 loop
        self._loops = 0
        self._depth = 0        # for_range nesting
        self._block_num = 1
        self._last_if = None
        self._instructions = 0
        self._built = None     # (kernel name, inputs, outputs, program dict)
        self._atomic = 0
        from .debug import Debugger
        self.tikdb = Debugger(self)

    # ---- recording ----
    def _emit(self, stmt):
        self._cur.append(stmt)
        self._last_if = None

    def _ins(self, rec):
        rec["k"] = "i"
        rec["loc"] = user_loc(3)
        self._cur.append(rec)
        self._last_if = None
        self._instructions += 1

    # ---- declarations ----
    def Tensor(self, dtype, shape, scope=scope_ubuf, name="", enable_buffer_reuse=False, no_reuse_list=None,
               reuse_list=None, is_workspace=False, is_atomic_add=False, is_global_tensor=False, **kwargs):
        loc = user_loc()
        dtype = check_dtype(dtype)
        if scope not in _SCOPES:
            fail("scope '%s' is not a TIK scope (%s)" % (scope, ", ".join(_SCOPES)), "Tensor", loc)
        shape = tuple(shape) if isinstance(shape, (list, tuple)) else (shape,)
        dynamic = False
        for s in shape:
            if isinstance(s, Expr) and s.dtype.startswith(("int", "uint")):
                dynamic = True  # a Scalar-valued dimension, sized at run time
            elif not isinstance(s, int) or s <= 0:
                fail("shape %s of tensor %s must hold positive integers, or integer Scalars/Exprs"
                     % (shape, name), "Tensor", loc)
        n = 1
        for s in shape:
            n *= s
        max_mem_size = kwargs.get("max_mem_size")
        if dynamic:
            # TIK API reference, Tensor: with a variable in the shape, max_mem_size is the space the
            # tensor occupies (at least the shape's product times the dtype size at run time).
            # npuvp reserves exactly that; accesses past it are errors when they run.
            if not isinstance(max_mem_size, int) or isinstance(max_mem_size, bool) or max_mem_size <= 0:
                fail("tensor %s has a Scalar in its shape %s: give max_mem_size, the bytes it may occupy "
                     "(npuvp reserves that much)" % (name, shape), "Tensor", loc)
            nbytes = max_mem_size
        else:
            nbytes = n * DTYPE_SIZE[dtype]
            if max_mem_size is not None and (not isinstance(max_mem_size, int) or max_mem_size < nbytes):
                fail("max_mem_size %r of tensor %s is less than its %d bytes" % (max_mem_size, name, nbytes),
                     "Tensor", loc)
        tid = len(self._tensors)
        name = name or "tensor_%d" % tid
        rec = {"name": name, "dtype": dtype, "scope": scope, "bytes": nbytes}
        if scope != scope_gm:
            pool = _POOL.get(scope, scope)
            align = _ALIGN[pool]
            capacity = self._spec[_SIZE_KEY[pool]]
            copies = 2 if self._db_loop >= 0 else 1
            addrs = []
            for _ in range(copies):
                start = (self._tops[pool] + align - 1) // align * align
                end = start + nbytes
                if end > capacity:
                    fail("tensor %s (%d B) does not fit in %s: %d of its %d bytes are in use by live tensors"
                         "%s" % (name, nbytes, scope, start, capacity,
                                 " (thread_num=2 holds two copies)" if copies == 2 else ""), "Tensor", loc)
                self._tops[pool] = end
                self._high[pool] = max(self._high[pool], end)
                addrs.append(start)
            rec["addr"] = addrs
            if copies == 2:
                rec["db"] = self._db_loop
        init_value = kwargs.get("init_value")
        if init_value is not None and dynamic:
            fail("init_value needs a fixed shape; tensor %s's shape holds a Scalar" % name, "Tensor", loc)
        if init_value is not None:
            rec["init"] = _init_bytes(init_value, dtype, n, scope, name, loc)
        self._tensors.append(rec)
        t = Tensor(self, tid, dtype, shape, scope, name, 0, nbytes)
        self._tensor_objs.append(t)
        return t

    def Scalar(self, dtype="int64", name="reg_buf", init_value=None):
        dtype = check_dtype(dtype)
        sid = len(self._scalars)
        self._scalars.append({"name": name, "dtype": dtype})
        s = Scalar(self, dtype, name, sid)
        self._scalar_objs.append(s)
        if init_value is not None:  # a number, an expression or a tensor element (read by the scalar unit)
            self._emit({"k": "set", "s": sid, "v": enc(init_value), "loc": user_loc()})
        return s

    def InputScalar(self, dtype="int64", name="input_scalar"):
        s = self.Scalar(dtype, name)
        self._scalars[s.sid]["input"] = True
        return s

    # ---- control ----
    @contextmanager
    def _scope(self, body):
        saved_cur, saved_tops = self._cur, dict(self._tops)
        self._cur = body
        try:
            yield
        finally:
            self._cur = saved_cur
            self._tops = saved_tops

    @contextmanager
    def for_range(self, begint, endt=None, name="i", thread_num=1, thread_type="whole", block_num=1,
                  dtype="int32", for_type="serial"):
        loc = user_loc(3)
        if endt is None:  # for_range(n), as the TIK guide writes it: 0 .. n
            begint, endt = 0, begint
        if thread_num not in (1, 2):
            fail("thread_num %r must be 1 or 2" % (thread_num,), "for_range", loc)
        if not isinstance(block_num, int) or block_num < 1 or block_num > 65535:
            fail("block_num %r must be an integer in [1, 65535]" % (block_num,), "for_range", loc)
        if block_num > 1:
            if self._depth > 0 or self._block_num > 1:
                fail("block_num > 1 is only allowed on one outermost for_range", "for_range", loc)
            self._block_num = block_num
        var = self.Scalar(dtype, name)
        loop = self._loops
        self._loops += 1
        body = []
        stmt = {"k": "for", "s": var.sid, "loop": loop, "b": enc(begint), "e": enc(endt), "body": body,
                "block_num": block_num, "thread_num": thread_num, "loc": loc}
        self._emit(stmt)
        saved_db = self._db_loop
        if thread_num == 2:
            self._db_loop = loop
        self._depth += 1
        with self._scope(body):
            yield var
        self._depth -= 1
        self._db_loop = saved_db
        self._last_if = None

    @contextmanager
    def if_scope(self, cond):
        stmt = {"k": "if", "c": enc(cond), "then": [], "loc": user_loc(3)}
        self._emit(stmt)
        with self._scope(stmt["then"]):
            yield
        self._last_if = stmt

    @contextmanager
    def elif_scope(self, cond):
        prev = self._last_if
        if prev is None:
            fail("elif_scope must follow an if_scope or elif_scope", "elif_scope", user_loc(3))
        stmt = {"k": "if", "c": enc(cond), "then": [], "loc": user_loc(3)}
        prev["else"] = [stmt]
        with self._scope(stmt["then"]):
            yield
        self._last_if = stmt

    @contextmanager
    def else_scope(self):
        prev = self._last_if
        if prev is None:
            fail("else_scope must follow an if_scope or elif_scope", "else_scope", user_loc(3))
        prev["else"] = []
        with self._scope(prev["else"]):
            yield
        self._last_if = None

    @contextmanager
    def new_stmt_scope(self, disable_sync=False):
        with self._scope(self._cur):
            yield

    def tik_break(self):
        self._emit({"k": "break", "loc": user_loc()})

    def set_atomic_add(self, mode):
        """0: off, 1: float32 add, 2: float16 add, on GM writes of data_move."""
        self._ins({"kind": "atomic", "api": "set_atomic_add", "p": [enc(mode)]})

    # ---- operand checks ----
    def _operand(self, t, what, api, align=32, loc=None):
        if not isinstance(t, Tensor):
            fail("%s must be a Tensor, not %r" % (what, t), api, loc)
        if t.scope != scope_ubuf:
            fail("%s (tensor %s) must be in scope_ubuf, not %s" % (what, t.name, t.scope), api, loc)
        if isinstance(t.boff, int) and t.boff % align:
            fail("%s (tensor %s) starts at byte %d of the tensor: vector operands must be %d-byte aligned"
                 % (what, t.name, t.boff, align), api, loc)
        return t.j_view()

    @staticmethod
    def _mask(mask, dtype, api, loc, mask_mode="normal"):
        per = 128 if DTYPE_SIZE[dtype] <= 2 else 64
        if mask_mode == "counter":
            return ["c", enc(mask)]
        if isinstance(mask, (list, tuple)):
            if len(mask) != 2:
                fail("a bit-wise mask is a list [mask_h, mask_l] of two values", api, loc)
            hi, lo = mask
            if isinstance(hi, int) and isinstance(lo, int):
                if not (0 <= hi < 2 ** 64 and 0 <= lo < 2 ** 64):
                    fail("mask_h/mask_l %r out of range [0, 2**64-1]" % (list(mask),), api, loc)
                if per == 64 and hi != 0:
                    fail("mask_h must be 0 for 32-bit %s (64 elements per repeat)" % dtype, api, loc)
                if hi == 0 and lo == 0:
                    fail("mask [0, 0] enables no element", api, loc)
                # as signed 64-bit for JSON's integers
                hi = hi - 2 ** 64 if hi >= 2 ** 63 else hi
                lo = lo - 2 ** 64 if lo >= 2 ** 63 else lo
            return ["b", enc(hi), enc(lo)]
        if isinstance(mask, int) and not (1 <= mask <= per):
            fail("mask %d out of range [1, %d] for %s" % (mask, per, dtype), api, loc)
        return ["n", enc(mask)]

    @staticmethod
    def _repeat(repeat, api, loc, limit=255):
        if isinstance(repeat, int) and not (1 <= repeat <= limit):
            fail("repeat_times %d out of range [1, %d] (an immediate repeat_times may not be 0)"
                 % (repeat, limit), api, loc)
        return enc(repeat)

    @staticmethod
    def _stride(v, what, api, loc):
        if isinstance(v, int) and not (0 <= v <= 65535):
            fail("%s %d out of range [0, 65535]" % (what, v), api, loc)
        return enc(v)

    @staticmethod
    def _types(api, loc, allowed, *tensors):
        dt = tensors[0].dtype
        for t in tensors[1:]:
            if t.dtype != dt:
                fail("dtypes differ: %s" % ", ".join("%s is %s" % (x.name, x.dtype) for x in tensors), api, loc)
        if allowed and dt not in allowed:
            fail("dtype %s is not supported (%s)" % (dt, ", ".join(allowed)), api, loc)
        return dt

    def _vec(self, api, op, dtype, mask, dst, srcs, repeat, blk, rep, scalar=0, extra=None, mask_mode="normal",
             dst_align=32, loc=None, repeat_limit=255):
        loc = loc or user_loc(3)
        # A vector instruction is recorded as one flat tuple (the compact form docs/tik.md
        # describes): ("v", api, loc, op, dtype, mask form, mask value, mask low word,
        # dst tensor, dst offset, src0 tensor, src0 offset, src1 ..., src2 ..., repeat,
        # 3 block strides, 3 repeat strides, scalar, extra); an absent operand is None, None.
        # One tuple of numbers and strings is one allocation, and the garbage collector stops
        # tracking it once it has seen it. The common case (immediate operands in range, UB
        # views at known aligned offsets) takes the inline checks below; anything else goes
        # through the checks that name the rule.
        if extra and "mask" in extra:
            extra = dict(extra)
            m = extra.pop("mask")
            mf, ma, mb = m[0], m[1], m[2] if len(m) > 2 else None
        elif type(mask) is int and mask_mode == "normal" and 0 < mask <= _PER_REPEAT[dtype]:
            mf, ma, mb = "n", mask, None
        elif mask is not None:
            m = self._mask(mask, dtype, api, loc, mask_mode)
            mf, ma, mb = m[0], m[1], m[2] if len(m) > 2 else None
        else:
            mf, ma, mb = "b", -1 if DTYPE_SIZE[dtype] <= 2 else 0, -1
        t0 = o0 = t1 = o1 = t2 = o2 = None
        n = len(srcs)
        i = 0
        for t in srcs:
            if t is not None:
                if type(t) is Tensor and t.scope is scope_ubuf and type(t.boff) is int and not t.boff & 31:
                    tid, off = t.tid, t.boff
                else:
                    tid, off = self._operand(t, ("src0", "src1", "src2")[i] if n > 1 else "src", api, 32, loc)
                if i == 0:
                    t0, o0 = tid, off
                elif i == 1:
                    t1, o1 = tid, off
                else:
                    t2, o2 = tid, off
            i += 1
        if dst is None:
            td = od = None
        elif type(dst) is Tensor and dst.scope is scope_ubuf and type(dst.boff) is int and not dst.boff % dst_align:
            td, od = dst.tid, dst.boff
        else:
            td, od = self._operand(dst, "dst", api, dst_align, loc)
        b0, b1, b2 = blk
        r0, r1, r2 = rep
        # All immediates: one test for all six strides in [0, 65535] (a negative one sets high bits).
        if not (type(repeat) is type(b0) is type(b1) is type(b2) is type(r0) is type(r1) is type(r2) is int
                and 0 < repeat <= repeat_limit and not (b0 | b1 | b2 | r0 | r1 | r2) >> 16):
            repeat = (repeat if type(repeat) is int and 1 <= repeat <= repeat_limit
                      else self._repeat(repeat, api, loc, repeat_limit))
            b0, b1, b2 = (v if type(v) is int and 0 <= v <= 65535 else self._stride(v, name, api, loc)
                          for v, name in zip(blk, _BLK_NAMES))
            r0, r1, r2 = (v if type(v) is int and 0 <= v <= 65535 else self._stride(v, name, api, loc)
                          for v, name in zip(rep, _REP_NAMES))
        if not (type(scalar) is float or type(scalar) is int):
            scalar = enc(scalar)
        self._cur.append(("v", api, loc, op, dtype, mf, ma, mb, td, od, t0, o0, t1, o1, t2, o2,
                          repeat, b0, b1, b2, r0, r1, r2, scalar, extra or 0))
        self._last_if = None
        self._instructions += 1

    def _patch_last(self, field, value):
        """Replaces one field of the vector instruction just recorded (records are tuples)."""
        rec = self._cur[-1]
        self._cur[-1] = rec[:field] + (value,) + rec[field + 1:]

    def _patch_last_mask(self, mask_j):
        """Replaces the mask (form and words) of the vector instruction just recorded."""
        rec = self._cur[-1]
        self._cur[-1] = rec[:5] + (mask_j[0], mask_j[1], mask_j[2] if len(mask_j) > 2 else None) + rec[8:]

    # ---- data movement ----
    def data_move(self, dst, src, sid=0, nburst=1, burst=1, src_stride=0, dst_stride=0, *args, **kwargs):
        self._move("data_move", dst, src, nburst, burst, src_stride, dst_stride, user_loc())

    def tensor_mov(self, dst, src, block_mode, nburst, burst_len, dst_stride, src_stride, deqscale=None,
                   onthefly_mode="", sid_store_mode=None, relu=False, pad_mode=None, pad_value=None,
                   **kwargs):
        loc = user_loc()
        if block_mode not in ("", "m", "v"):
            fail("block_mode '%s' is not '', 'm' or 'v'" % block_mode, "tensor_mov", loc)
        self._move("tensor_mov", dst, src, nburst, burst_len, src_stride, dst_stride, loc, block_mode)

    def _move(self, api, dst, src, nburst, burst, src_stride, dst_stride, loc, block_mode=""):
        # Operators compute counts with '/' (the TIK guide does): whole floats are counts.
        nburst, burst, src_stride, dst_stride = (int(v) if type(v) is float and v.is_integer() else v
                                                 for v in (nburst, burst, src_stride, dst_stride))
        for what, t in (("dst", dst), ("src", src)):
            if not isinstance(t, Tensor):
                fail("%s must be a Tensor, not %r" % (what, t), api, loc)
        product = self._spec["product"]
        if (src.scope, dst.scope) not in _PATHS[product]:
            legal = ", ".join("%s->%s" % p for p in sorted(_PATHS[product]))
            fail("moving %s (%s) to %s (%s) is not a legal data path on %s (legal: %s)"
                 % (src.name, src.scope, dst.name, dst.scope, product, legal), api, loc)
        convert = src.scope == scope_cc and (src.dtype, dst.dtype) == ("float32", "float16")
        if src.dtype != dst.dtype and DTYPE_SIZE[src.dtype] != DTYPE_SIZE[dst.dtype] and not convert:
            fail("dtypes differ: %s is %s, %s is %s" % (dst.name, dst.dtype, src.name, src.dtype), api, loc)
        if isinstance(nburst, int) and not (1 <= nburst <= 4095):
            fail("nburst %d out of range [1, 4095]" % nburst, api, loc)
        if isinstance(burst, int) and not (1 <= burst <= 65535):
            fail("burst %d out of range [1, 65535]" % burst, api, loc)
        for v, n in ((src_stride, "src_stride"), (dst_stride, "dst_stride")):
            self._stride(v, n, api, loc)
        unit = 32
        if scope_cc in (src.scope, dst.scope) or block_mode == "m":
            unit = 1024 if DTYPE_SIZE[src.dtype] == 4 else 512  # one 16x16 fractal
        rec = {"kind": "move", "api": api, "dst": dst.j_view(), "src": src.j_view(), "dt": dst.dtype, "unit": unit,
               "st": src.dtype if convert else dst.dtype,
               "p": [enc(nburst), enc(burst), enc(src_stride), enc(dst_stride)], "k": "i", "loc": loc}
        self._cur.append(rec)
        self._last_if = None
        self._instructions += 1

    # ---- vector: two sources ----
    # The wrappers below are the hot path of recording (docs/performance.md, "TIK front end"):
    # the common operand types are checked inline, the rest by _types, which names the rule.
    def _binary(self, api, op, allowed, mask, dst, src0, src1, repeat, blk, rep):
        loc = user_loc(3)
        dt = getattr(dst, "dtype", None)
        if not (type(src0) is Tensor and type(src1) is Tensor and dt in allowed and src0.dtype == dt
                and src1.dtype == dt):
            dt = self._types(api, loc, allowed, dst, src0, src1)
        self._vec(api, op, dt, mask, dst, (src0, src1), repeat, blk, rep, loc=loc)

    def _unary(self, api, op, allowed, mask, dst, src, repeat, blk, rep):
        loc = user_loc(3)
        dt = getattr(dst, "dtype", None)
        if not (type(src) is Tensor and dt in allowed and src.dtype == dt):
            dt = self._types(api, loc, allowed, dst, src)
        self._vec(api, op, dt, mask, dst, (src,), repeat, (blk[0], blk[1], 0), (rep[0], rep[1], 0), loc=loc)

    def _with_scalar(self, api, op, allowed, mask, dst, src, scalar, repeat, blk, rep, mask_mode="normal"):
        loc = user_loc(3)
        dt = getattr(dst, "dtype", None)
        if not (type(src) is Tensor and dt in allowed and src.dtype == dt):
            dt = self._types(api, loc, allowed, dst, src)
        self._vec(api, op, dt, mask, dst, (src,), repeat, (blk[0], blk[1], 0), (rep[0], rep[1], 0), scalar,
                  mask_mode=mask_mode, loc=loc)

    # ---- vector: reductions ----
    def _whole_reduce(self, api, op, mask, dst, src, repeat, dst_rep, src_blk, src_rep, order=0):
        loc = user_loc(3)
        dt = self._types(api, loc, _FLOAT, dst, src)
        self._vec(api, op, dt, mask, dst, (src,), repeat, (1, src_blk, 0), (dst_rep, src_rep, 0),
                  extra={"order": order}, dst_align=DTYPE_SIZE[dt], loc=loc)

    def _reduce(self, api, op, mask, dst, src, work, repeat, src_rep, cal_index=False):
        loc = user_loc(3)
        dt = self._types(api, loc, _FLOAT, dst, src)
        if not isinstance(work, Tensor) or work.scope != scope_ubuf:
            fail("work_tensor must be a Tensor in scope_ubuf", api, loc)
        self._vec(api, op, dt, mask, dst, (src,), repeat, (1, 1, 0), (0, src_rep, 0),
                  extra={"order": 0 if cal_index else 2}, dst_align=DTYPE_SIZE[dt], loc=loc, repeat_limit=4095)

    def _compare(self, api, mode, dst, src0, src1, repeat, blk, rep):
        loc = user_loc(3)
        dt = self._types(api, loc, _FLOAT, src0, src1)
        if dst.dtype not in ("uint8", "uint16", "uint32", "uint64"):
            fail("dst %s must be an unsigned integer tensor of bits, not %s" % (dst.name, dst.dtype), api, loc)
        full = [-1, -1] if DTYPE_SIZE[dt] == 2 else [0, -1]
        self._vec(api, "Compare", dt, None, dst, (src0, src1), repeat, blk, rep,
                  extra={"cmp": _CMP[mode], "mask": ["b"] + full}, loc=loc)

    def _select(self, api, mask, mode, dst, sel, src0, src1, repeat, blk, rep):
        loc = user_loc(3)
        if mode not in (0, 1, 2):
            fail("mode %r must be 0 (CMPMASK), 1 (tensor, scalar) or 2 (tensor, tensor)" % (mode,), api, loc)
        if mode == 1:
            dt = self._types(api, loc, _FLOAT, dst, src0)
        else:
            if not isinstance(src1, Tensor):
                fail("mode %d needs a tensor src1" % mode, api, loc)
            dt = self._types(api, loc, _FLOAT, dst, src0, src1)
        if mode == 0:
            if isinstance(sel, Tensor):  # a tensor of bits: loaded into CMPMASK first
                self._vec(api, "SetCmpMask", dt, None, None, (sel,), 1, (1, 1, 0), (8, 8, 0), loc=loc)
            elif not isinstance(sel, CmpMask):
                fail("mode 0 selects with the CMPMASK a vcmp_* returned (or a bit tensor)", api, loc)
            self._vec(api, "Select", dt, mask, dst, (src0, src1), repeat, blk, rep, extra={"sel": 0}, loc=loc)
        elif mode == 1:
            self._vec(api, "Select", dt, mask, dst, (src0, None, sel), repeat, blk, rep, scalar=src1,
                      extra={"sel": 1}, loc=loc)
        else:
            self._vec(api, "Select", dt, mask, dst, (src0, src1, sel), repeat, blk, rep, extra={"sel": 2}, loc=loc)

    # ---- cube ----
    def load2dv1(self, dst, src, index, repeat_times, src_stride, sid=0, if_transpose=False, addr_mode=None):
        self._load2d("load2dv1", dst, src, index, repeat_times, src_stride, 0, if_transpose, user_loc())

    def load2dv2(self, dst, src, start_index, repeat_times, dst_gap, src_stride, sid=0, if_transpose=False,
                 addr_mode=None):
        self._load2d("load2dv2", dst, src, start_index, repeat_times, src_stride, dst_gap, if_transpose, user_loc())

    def _load2d(self, api, dst, src, start, repeat, src_stride, dst_gap, transpose, loc):
        for what, t in (("dst", dst), ("src", src)):
            if not isinstance(t, Tensor):
                fail("%s must be a Tensor" % what, api, loc)
        if dst.scope not in (scope_ca, scope_cb, scope_cbuf) or src.scope not in (scope_gm, scope_cbuf):
            fail("loads %s -> %s; it loads scope_cbuf or scope_gm into scope_ca/scope_cb" % (src.scope, dst.scope),
                 api, loc)
        self._repeat(repeat, api, loc)
        rec = {"kind": "load2d", "api": api, "dst": dst.j_view(), "src": src.j_view(), "dt": src.dtype,
               "transpose": bool(transpose),
               "p": [enc(start), enc(repeat), enc(src_stride), enc(dst_gap)], "k": "i", "loc": loc}
        self._cur.append(rec)
        self._instructions += 1

    def mmad(self, dst_fm, src_fm, src_filter, matrix_m, matrix_k, matrix_n, is_bias, fm_offset=0,
             en_weight_offset=False, smask=None, en_small_channel=False, en_small_k=False, en_ssparse=False,
             en_winograd_a=False, en_winograd_b=False):
        loc = user_loc()
        if dst_fm.scope not in (scope_cc, scope_cbuf_out) or src_fm.scope != scope_ca or src_filter.scope != scope_cb:
            fail("mmad takes dst in scope_cc, src_fm in scope_ca and src_filter in scope_cb", "mmad", loc)
        rec = {"kind": "mmad", "api": "mmad", "dst": dst_fm.j_view(), "src0": src_fm.j_view(),
               "src1": src_filter.j_view(), "ta": src_fm.dtype, "tb": src_filter.dtype, "tc": dst_fm.dtype,
               "p": [enc(matrix_m), enc(matrix_k), enc(matrix_n), enc(is_bias)], "k": "i", "loc": loc}
        self._cur.append(rec)
        self._instructions += 1

    def matmul(self, dst, a, b, m, k, n, init_l1out=True):
        """dst (scope_cbuf_out, [N1, M, N0]) (+)= a (scope_cbuf, [K1, M, K0]) x b (scope_cbuf, [K1, N, K0]).

        Lowered as the cube runs it: LoadData2D of a's fractals into L0A (ZZ order) and of b's
        into L0B, one Mmad per K chunk that fits L0A/L0B, accumulating in L1OUT (the L0C).
        """
        loc = user_loc()
        api = "matmul"
        if dst.scope not in (scope_cbuf_out, scope_cc) or a.scope != scope_cbuf or b.scope != scope_cbuf:
            fail("matmul takes dst in scope_cbuf_out and a, b in scope_cbuf", api, loc)
        combos = {("float16", "float16"): "float32", ("int8", "int8"): "int32"}
        if (a.dtype, b.dtype) not in combos or dst.dtype != combos[(a.dtype, b.dtype)]:
            fail("dtypes a=%s, b=%s, dst=%s are not float16 x float16 -> float32 or int8 x int8 -> int32"
                 % (a.dtype, b.dtype, dst.dtype), api, loc)
        for v, what, hi in ((m, "m", 4096), (n, "n", 4096), (k, "k", 16384 if a.dtype == "float16" else 32768)):
            if not isinstance(v, int) or not 1 <= v <= hi:
                fail("%s %r out of range [1, %d] (an immediate)" % (what, v, hi), api, loc)
        k0 = 32 // DTYPE_SIZE[a.dtype]
        m1, k1, n1 = (m + 15) // 16, (k + k0 - 1) // k0, (n + 15) // 16
        if a.size < k1 * m1 * 16 * k0 or b.size < k1 * n1 * 16 * k0 or dst.size < n1 * m1 * 256:
            fail("a needs [%d, %d, %d], b [%d, %d, %d] and dst [%d, %d, 16] elements"
                 % (k1, m1 * 16, k0, k1, n1 * 16, k0, n1, m1 * 16), api, loc)
        fr = 16 * k0  # elements per fractal
        mt, nt, chunk = _cube_tiles(self._spec, m1, n1, k1, fr * DTYPE_SIZE[a.dtype], fr * DTYPE_SIZE[b.dtype])
        with self._scope(self._cur):
            la = self.Tensor(a.dtype, (mt * chunk * fr,), scope_ca, "matmul_l0a")
            lb = self.Tensor(b.dtype, (nt * chunk * fr,), scope_cb, "matmul_l0b")
            for m0 in range(0, m1, mt):
                mtc = min(mt, m1 - m0)
                for j0 in range(0, n1, nt):
                    ntc = min(nt, n1 - j0)
                    for c0 in range(0, k1, chunk):
                        kc = min(chunk, k1 - c0)
                        for i in range(mtc):  # a's fractals (k, m0 + i) -> L0A fractal (i, k - c0)
                            self._load2d(api, la[i * kc * fr], a, c0 * m1 + m0 + i, kc, m1, 0, False, loc)
                        _load_b_columns(self, api, lb, b, c0, kc, j0, ntc, n1, fr, loc)
                        kk = min(k, (c0 + kc) * k0) - c0 * k0
                        accumulate = 0 if (c0 == 0 and init_l1out) else 1
                        # The result tile [ntc, mtc*16, 16] is contiguous in dst [N1, M, 16]:
                        # either all of M (mtc == m1) or one fractal column (ntc == 1).
                        out = _flat(dst)[(j0 * m1 * 16 + m0 * 16) * 16]
                        self._cur.append({"kind": "mmad", "api": api, "dst": out.j_view(), "src0": la.j_view(),
                                          "src1": lb.j_view(), "ta": a.dtype, "tb": b.dtype, "tc": dst.dtype,
                                          "p": [min(m - m0 * 16, mtc * 16), kk, min(n - j0 * 16, ntc * 16),
                                                accumulate], "k": "i", "loc": loc})
                        self._instructions += 1

    def fixpipe(self, dst, src, cburst_num, burst_len, dst_stride, src_stride, extend_params=None):
        """L1OUT [N1, M, N0] -> GM [N1, m, N0]: cburst_num = N1, burst_len = m * N0 * src size / 32."""
        loc = user_loc()
        api = "fixpipe"
        # TIK API reference, fixpipe: src in L1OUT, dst in GM or UB.
        if src.scope not in (scope_cbuf_out, scope_cc) or dst.scope not in (scope_gm, scope_ubuf):
            fail("fixpipe moves scope_cbuf_out to scope_gm or scope_ubuf", api, loc)
        if dst.scope == scope_ubuf and self._spec["product"] == "Ascend910B":
            fail("fixpipe to scope_ubuf: Ascend910B's FixPipe writes GM or L1 (L0C has no path to UB there)",
                 api, loc)
        ext = extend_params or {}
        quant = (ext.get("quantize_params") or {}).get("mode") if isinstance(ext.get("quantize_params"), dict) \
            else ext.get("quantize_params")
        want = {None: src.dtype, "fp322fp16": "float16"}.get(quant)
        if want is None or dst.dtype != want:
            fail("quantize mode %r with dst %s is not supported (None keeps %s, 'fp322fp16' gives float16)"
                 % (quant, dst.dtype, src.dtype), api, loc)
        if ext.get("bias") is not None:
            fail("a bias in fixpipe is not modelled", api, loc)
        for v, what in ((cburst_num, "cburst_num"), (burst_len, "burst_len")):
            if not isinstance(v, int) or v < 1:
                fail("%s %r must be a positive immediate" % (what, v), api, loc)
        ssize = DTYPE_SIZE[src.dtype]
        m = burst_len * 32 // (16 * ssize)
        if m * 16 * ssize != burst_len * 32:
            fail("burst_len %d is not a whole number of 16-element rows of %s" % (burst_len, src.dtype), api, loc)
        m_pad = (m + 15) // 16 * 16 + src_stride * 16
        drow = m * 16 * DTYPE_SIZE[dst.dtype]
        if drow % 32:
            fail("a burst of %d rows of %s is not 32-byte aligned in dst" % (m, dst.dtype), api, loc)
        if self._spec["product"] == "Ascend910B":
            self._cur.append({"kind": "fixpipe", "api": api, "dst": dst.j_view(), "src": src.j_view(),
                              "tc": src.dtype, "td": dst.dtype, "nz2nd": False, "relu": bool(ext.get("relu", False)),
                              "p": [m, cburst_num * 16, m_pad, drow // 32 + dst_stride], "k": "i", "loc": loc})
            self._instructions += 1
            return
        # Products without a FixPipe unit (310P): L0C leaves through UB, as their compiler does it:
        # the fractal columns in matrix mode (converting float32 to float16), then the m valid
        # rows of each column to GM.
        with self._scope(self._cur):
            frac = m_pad // 16
            ub = self.Tensor(dst.dtype, (cburst_num * m_pad * 16,), scope_ubuf, "fixpipe_ub")
            unit = 1024 if ssize == 4 else 512
            self._cur.append({"kind": "move", "api": api, "dst": ub.j_view(), "src": src.j_view(), "dt": dst.dtype,
                              "st": src.dtype, "unit": unit, "p": [1, cburst_num * frac, 0, 0], "k": "i", "loc": loc})
            self._instructions += 1
            if ext.get("relu"):
                # ReLU on the vector unit in UB. After the conversion rather than before, as the
                # FixPipe does it: rounding keeps the sign, so the bits are the same.
                per = 256 // DTYPE_SIZE[dst.dtype]
                for off, lanes, r in _h_spans(cburst_num * m_pad * 16, per):
                    self._vec(api, "Relu", dst.dtype, lanes, ub[off], (ub[off],), r, (1, 1, 0), (8, 8, 0), loc=loc)
            dsize = DTYPE_SIZE[dst.dtype]
            self._cur.append({"kind": "move", "api": api, "dst": dst.j_view(), "src": ub.j_view(), "dt": dst.dtype,
                              "unit": 32, "p": [cburst_num, drow // 32, (m_pad - m) * 16 * dsize // 32, dst_stride],
                              "k": "i", "loc": loc})
            self._instructions += 1

    # ---- build and run ----
    def _program(self, kernel_name, inputs, outputs, flowtable=None):
        args = []
        for x in list(inputs) + list(flowtable or []):
            if isinstance(x, Scalar):
                args.append({"scalar": x.sid})
            elif isinstance(x, Tensor):
                if x.scope != scope_gm:
                    fail("BuildCCE inputs must be scope_gm tensors or InputScalars (%s is %s)" % (x.name, x.scope))
                args.append({"tensor": x.tid})
            else:
                fail("BuildCCE input %r is not a Tensor or InputScalar" % (x,))
        outs = []
        for x in outputs:
            if not isinstance(x, Tensor) or x.scope != scope_gm:
                fail("BuildCCE outputs must be scope_gm tensors")
            outs.append(x.tid)
        return {"format": "npuvp-tik/1", "kernel_name": kernel_name, "platform": self._platform,
                "tensors": self._tensors, "scalars": self._scalars, "inputs": args, "outputs": outs,
                "block_num": self._block_num, "loops": self._loops, "body": self._body}

    def BuildCCE(self, kernel_name, inputs, outputs, output_files_path=None, enable_l2=False, config=None,
                 flowtable=None, evaluates=None, extend_params=None):
        loc = user_loc()
        if not isinstance(kernel_name, str) or not kernel_name:
            fail("kernel_name must be a non-empty string", "BuildCCE", loc)
        inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
        program = self._program(kernel_name, inputs, outputs, flowtable)
        text = json.dumps(program, separators=(",", ":"))
        # start_debug hands `program` itself to C++ (no text round trip); the .o keeps the text.
        self._built = (kernel_name, inputs + list(flowtable or []), outputs, program)
        global _LAST_BUILT
        _LAST_BUILT = self
        out_dir = output_files_path or os.path.join(os.getcwd(), "kernel_meta")
        os.makedirs(out_dir, exist_ok=True)
        with open(os.path.join(out_dir, kernel_name + ".o"), "w") as f:
            f.write(text)

        def arg(x):
            if isinstance(x, Scalar):
                return {"name": x.name, "kind": "scalar", "dtype": x.dtype}
            return {"name": x.name, "kind": "tensor", "dtype": x.dtype, "shape": list(x.shape)}
        meta = {"binFileName": kernel_name, "binFileSuffix": ".o", "blockDim": self._block_num,
                "kernelName": kernel_name, "magic": "RT_DEV_BINARY_MAGIC_ELF",
                "npuvp": {"format": "npuvp-tik/1", "program": kernel_name + ".o", "platform": self._platform,
                          "inputs": [arg(x) for x in inputs + list(flowtable or [])],
                          "outputs": [arg(x) for x in outputs]}}
        with open(os.path.join(out_dir, kernel_name + ".json"), "w") as f:
            json.dump(meta, f, indent=1)
        return self

    def get_ub_size(self):
        return self._spec["UB_SIZE"]

    def __getattr__(self, name):
        # Only reached for names the class lacks: TIK instructions npuvp does not implement yet
        # fail at the operator's line instead of with a bare AttributeError.
        if name in _NOT_YET:
            fail("TIK instruction %s is not implemented by npuvp yet (docs/tik.md, \"Not yet\")" % name, name)
        raise AttributeError("'Tik' object has no attribute '%s'" % name)


_LAST_BUILT = None

# TIK reference instructions real operators use that npuvp lacks (docs/tik.md, "Not yet").
_NOT_YET = frozenset(("vbi", "vmulconv", "vaddreluconv", "vsubreluconv", "vadddeqrelu",
                      "vrpac", "viou", "vaadd", "vpadding", "v4dtrans",
                      "vgather", "vscatter"))


def _init_bytes(init_value, dtype, n, scope, name, loc):
    """A GM tensor's init_value (a number or a nested list of n numbers) as hex bytes: the
    launch copies them into GM before the blocks start, as the TIK reference describes for
    scope_gm tensors with init_value (operators keep index tables this way)."""
    import numpy as np
    if scope != scope_gm:
        fail("init_value is for scope_gm tensors; %s is %s" % (name, scope), "Tensor", loc)
    if dtype == "bfloat16":
        fail("init_value of a bfloat16 tensor is not supported by npuvp", "Tensor", loc)
    a = np.asarray(init_value, dtype=np.dtype(dtype)).ravel()
    if a.size == 1:
        a = np.full(n, a[0], dtype=a.dtype)
    if a.size != n:
        fail("init_value of tensor %s holds %d values, the tensor %d" % (name, a.size, n), "Tensor", loc)
    return a.tobytes().hex()


def last_built():
    """The Tik container BuildCCE ran on last (tikdb.start_debug's default)."""
    return _LAST_BUILT


def _define(name, fn):
    setattr(Tik, name, fn)


def _cube_tiles(spec, m1, n1, k1, a_frac_bytes, b_frac_bytes):
    """(M fractals, N fractals, K fractals) per Mmad so that the A tile fits L0A and the B tile
    L0B. All of M when one K fractal of it fits (then N as wide as fits); else M in parts, one
    N fractal column at a time, so each result tile is contiguous in the [N1, M, 16] output."""
    a_fracs = spec["L0A_SIZE"] // a_frac_bytes
    b_fracs = spec["L0B_SIZE"] // b_frac_bytes
    mt = min(m1, a_fracs)
    nt = min(n1, b_fracs) if mt == m1 else 1
    chunk = min(k1, a_fracs // mt, b_fracs // nt)
    return mt, nt, chunk


def _load_b_columns(self, api, lb, b, c0, kc, j0, ntc, n1, fr, loc):
    """B's fractals (k, j0 .. j0 + ntc) for k in [c0, c0 + kc) into L0B, k-major as Mmad reads
    them (b in L1 is [K1, N, K0]: fractal (k, j) at k * n1 + j)."""
    if ntc == n1:  # whole rows of fractals: one contiguous run
        start, left = c0 * n1, kc * n1
        while left:
            r = min(left, 255)
            self._load2d(api, lb[(start - c0 * n1) * fr], b, start, r, 1, 0, False, loc)
            start += r
            left -= r
        return
    for kk in range(kc):
        self._load2d(api, lb[kk * ntc * fr], b, (c0 + kk) * n1 + j0, ntc, 1, 0, False, loc)


# The vector instructions in both naming generations. vec_*: (mask, dst, src..., repeat_times,
# dst_rep_stride, src_rep_stride...), block strides 1; v*: block strides given before the
# repeat strides.
_BINARY = {"add": ("Add", _ARITH), "sub": ("Sub", _ARITH), "mul": ("Mul", _ARITH), "div": ("Div", _FLOAT),
           "max": ("Max", _ARITH), "min": ("Min", _ARITH), "and": ("And", ("int16", "uint16")),
           "or": ("Or", ("int16", "uint16"))}
for _n, (_op, _allowed) in _BINARY.items():
    def _new(self, mask, dst, src0, src1, repeat_times, dst_rep_stride, src0_rep_stride, src1_rep_stride,
             _api="vec_" + _n, _op=_op, _allowed=_allowed):
        self._binary(_api, _op, _allowed, mask, dst, src0, src1, repeat_times, (1, 1, 1),
                     (dst_rep_stride, src0_rep_stride, src1_rep_stride))

    def _old(self, mask, dst, src0, src1, repeat_times, dst_blk_stride, src0_blk_stride, src1_blk_stride,
             dst_rep_stride, src0_rep_stride, src1_rep_stride, stride_unit=0, _api="v" + _n, _op=_op,
             _allowed=_allowed):
        self._binary(_api, _op, _allowed, mask, dst, src0, src1, repeat_times,
                     (dst_blk_stride, src0_blk_stride, src1_blk_stride),
                     (dst_rep_stride, src0_rep_stride, src1_rep_stride))
    _define("vec_" + _n, _new)
    _define("v" + _n, _old)

_UNARY = {"abs": ("Abs", _FLOAT), "exp": ("Exp", _FLOAT), "ln": ("Ln", _FLOAT), "rec": ("Reciprocal", _FLOAT),
          "sqrt": ("Sqrt", _FLOAT), "rsqrt": ("Rsqrt", _FLOAT), "relu": ("Relu", _FLOAT + ("int32",)),
          "not": ("Not", ("int16", "uint16"))}
for _n, (_op, _allowed) in _UNARY.items():
    def _new(self, mask, dst, src, repeat_times, dst_rep_stride, src_rep_stride, _api="vec_" + _n, _op=_op,
             _allowed=_allowed):
        self._unary(_api, _op, _allowed, mask, dst, src, repeat_times, (1, 1), (dst_rep_stride, src_rep_stride))

    def _old(self, mask, dst, src, repeat_times, dst_blk_stride, src_blk_stride, dst_rep_stride, src_rep_stride,
             _api="v" + _n, _op=_op, _allowed=_allowed):
        self._unary(_api, _op, _allowed, mask, dst, src, repeat_times, (dst_blk_stride, src_blk_stride),
                    (dst_rep_stride, src_rep_stride))
    _define("vec_" + _n, _new)
    _define("v" + _n, _old)

# vec_exp/sqrt_high_preci (names some operators use; not on the reference's pages): the plain
# operation. The reference's rec/rsqrt/ln/expm1 forms are in high_preci_ops.py.
for _n in ("exp", "sqrt"):
    def _hp(self, mask, dst, src, work_tensor, repeat_times, dst_rep_stride, src_rep_stride, _api=_n,
            _op=_UNARY[_n][0]):
        loc = user_loc()
        if not isinstance(work_tensor, Tensor) or work_tensor.scope != scope_ubuf:
            fail("work_tensor must be a Tensor in scope_ubuf", "vec_%s_high_preci" % _api, loc)
        self._unary("vec_%s_high_preci" % _api, _op, _FLOAT, mask, dst, src, repeat_times, (1, 1),
                    (dst_rep_stride, src_rep_stride))
    _define("vec_%s_high_preci" % _n, _hp)
    _define("v%s_high_preci" % _n, _hp)

_SCALAR = {"adds": ("Adds", _ARITH), "muls": ("Muls", _ARITH), "maxs": ("Maxs", _ARITH), "mins": ("Mins", _ARITH),
           "axpy": ("Axpy", _FLOAT), "lrelu": ("LeakyRelu", _FLOAT)}
for _n, (_op, _allowed) in _SCALAR.items():
    def _new(self, mask, dst, src, scalar, repeat_times, dst_rep_stride, src_rep_stride, mask_mode="normal",
             _api="vec_" + _n, _op=_op, _allowed=_allowed):
        self._with_scalar(_api, _op, _allowed, mask, dst, src, scalar, repeat_times, (1, 1),
                          (dst_rep_stride, src_rep_stride), mask_mode)

    def _old(self, mask, dst, src, scalar, repeat_times, dst_blk_stride, src_blk_stride, dst_rep_stride,
             src_rep_stride, stride_unit=0, round_en=False, mask_mode="normal", _api="v" + _n, _op=_op,
             _allowed=_allowed):
        self._with_scalar(_api, _op, _allowed, mask, dst, src, scalar, repeat_times,
                          (dst_blk_stride, src_blk_stride), (dst_rep_stride, src_rep_stride), mask_mode)
    _define("vec_" + _n, _new)
    _define("v" + _n, _old)


def _vec_dup(self, mask, dst, scalar, repeat_times, dst_rep_stride, mask_mode="normal"):
    loc = user_loc()
    dt = self._types("vec_dup", loc, None, dst)
    self._vec("vec_dup", "Duplicate", dt, mask, dst, (), repeat_times, (1, 1, 0), (dst_rep_stride, 0, 0), scalar,
              mask_mode=mask_mode, loc=loc)


def _vector_dup(self, mask, dst, scalar, repeat_times, dst_blk_stride, dst_rep_stride, stride_unit=0,
                mask_mode="normal"):
    loc = user_loc()
    dt = self._types("vector_dup", loc, None, dst)
    self._vec("vector_dup", "Duplicate", dt, mask, dst, (), repeat_times, (dst_blk_stride, 1, 0),
              (dst_rep_stride, 0, 0), scalar, mask_mode=mask_mode, loc=loc)


def _conv(self, api, mask, round_mode, dst, src, repeat_times, blk, rep, deqscale, loc):
    if round_mode not in _ROUND:
        fail("round_mode '%s' is not one of %s" % (round_mode, ", ".join(repr(r) for r in _ROUND)), api, loc)
    for what, t in (("dst", dst), ("src", src)):
        if not isinstance(t, Tensor):
            fail("%s must be a Tensor" % what, api, loc)
    if dst.dtype == src.dtype:
        fail("dst and src are both %s: vconv converts between types" % dst.dtype, api, loc)
    wide = max(DTYPE_SIZE[dst.dtype], DTYPE_SIZE[src.dtype])
    mdt = "float32" if wide == 4 else "float16"
    extra = {"ddt": dst.dtype, "round": _ROUND[round_mode]}
    scalar = 0
    if deqscale is not None:
        # deq mode (TIK vconv/vec_conv "deqscale": int32 -> float16, each value times the scale,
        # a float16 immediate or Scalar): the Cast with the DEQSCALE value (docs/tik.md).
        if (src.dtype, dst.dtype) != ("int32", "float16"):
            fail("deqscale is for int32 -> float16 (deq mode), not %s -> %s" % (src.dtype, dst.dtype), api, loc)
        if isinstance(deqscale, Tensor):
            fail("a deqscale Tensor (vdeq mode, int16 -> int8) is not modelled by npuvp; give a float16 "
                 "immediate or Scalar", api, loc)
        if isinstance(deqscale, Expr) and deqscale.dtype != "float16":
            fail("deqscale Scalar %s must be float16 (the DEQSCALE register holds a half)" % deqscale.dtype, api, loc)
        if not isinstance(deqscale, (int, float, Expr)) or isinstance(deqscale, bool):
            fail("deqscale %r is not a number or a float16 Scalar" % (deqscale,), api, loc)
        extra["deq"] = 1
        scalar = deqscale
    self._vec(api, "Cast", src.dtype, mask, dst, (src,), repeat_times, (blk[0], blk[1], 0), (rep[0], rep[1], 0),
              scalar, extra=extra, loc=loc)
    self._patch_last_mask(self._mask(mask, mdt, api, loc))


def _vec_conv(self, mask, round_mode, dst, src, repeat_times, dst_rep_stride, src_rep_stride, deqscale=None,
              ldst_high_half=False):
    _conv(self, "vec_conv", mask, round_mode, dst, src, repeat_times, (1, 1), (dst_rep_stride, src_rep_stride),
          deqscale, user_loc())


def _vconv(self, mask, round_mode, dst, src, repeat_times, dst_blk_stride, src_blk_stride, dst_rep_stride,
           src_rep_stride, deqscale=None, ldst_high_half=False, stride_unit=0):
    _conv(self, "vconv", mask, round_mode, dst, src, repeat_times, (dst_blk_stride, src_blk_stride),
          (dst_rep_stride, src_rep_stride), deqscale, user_loc())


_define("vec_dup", _vec_dup)
_define("vector_dup", _vector_dup)
_define("vec_conv", _vec_conv)
_define("vconv", _vconv)

for _m in _CMP:
    def _cmpv(self, dst, src0, src1, repeat_times, src0_rep_stride, src1_rep_stride, _m=_m):
        self._compare("vec_cmpv_" + _m, _m, dst, src0, src1, repeat_times, (1, 1, 1),
                      (0, src0_rep_stride, src1_rep_stride))

    def _vcmpv(self, dst, src0, src1, repeat_times, src0_blk_stride, src1_blk_stride, src0_rep_stride,
               src1_rep_stride, _m=_m):
        self._compare("vcmpv_" + _m, _m, dst, src0, src1, repeat_times, (1, src0_blk_stride, src1_blk_stride),
                      (0, src0_rep_stride, src1_rep_stride))

    def _vcmp(self, mask, src0, src1, src0_stride, src1_stride, _m=_m):
        loc = user_loc()
        dt = self._types("vcmp_" + _m, loc, _FLOAT, src0, src1)
        self._vec("vcmp_" + _m, "CompareToCmpMask", dt, mask, None, (src0, src1), 1, (1, src0_stride, src1_stride),
                  (0, 8, 8), extra={"cmp": _CMP[_m]}, loc=loc)
        return CmpMask(loc)
    _define("vec_cmpv_" + _m, _cmpv)
    _define("vcmpv_" + _m, _vcmpv)
    _define("vcmp_" + _m, _vcmp)


def _vec_sel(self, mask, mode, dst, sel, src0, src1, repeat_times=1, dst_rep_stride=0, src0_rep_stride=0,
             src1_rep_stride=0):
    self._select("vec_sel", mask, mode, dst, sel, src0, src1, repeat_times, (1, 1, 1),
                 (dst_rep_stride, src0_rep_stride, src1_rep_stride))


def _vsel(self, mask, mode, dst, sel, src0, src1, repeat_times, dst_blk_stride, src0_blk_stride, src1_blk_stride,
          dst_rep_stride=0, src0_rep_stride=0, src1_rep_stride=0, name=None):
    self._select("vsel", mask, mode, dst, sel, src0, src1, repeat_times,
                 (dst_blk_stride, src0_blk_stride, src1_blk_stride), (dst_rep_stride, src0_rep_stride, src1_rep_stride))


_define("vec_sel", _vec_sel)
_define("vsel", _vsel)


def _vcadd(self, mask, dst, src, repeat_times, dst_rep_stride, src_blk_stride, src_rep_stride, stride_unit=0):
    self._whole_reduce("vcadd", "WholeReduceSum", mask, dst, src, repeat_times, dst_rep_stride, src_blk_stride,
                       src_rep_stride)


def _vcmax(self, mask, dst, src, repeat_times, dst_rep_stride, src_blk_stride, src_rep_stride, max_cnt_index=None):
    self._whole_reduce("vcmax", "WholeReduceMax", mask, dst, src, repeat_times, dst_rep_stride, src_blk_stride,
                       src_rep_stride)


def _vcmin(self, mask, dst, src, repeat_times, dst_rep_stride, src_blk_stride, src_rep_stride, min_cnt_index=None):
    self._whole_reduce("vcmin", "WholeReduceMin", mask, dst, src, repeat_times, dst_rep_stride, src_blk_stride,
                       src_rep_stride)


def _vcg(op, api):
    def f(self, mask, dst, src, repeat_times, dst_rep_stride, src_blk_stride, src_rep_stride):
        loc = user_loc()
        dt = self._types(api, loc, _FLOAT, dst, src)
        self._vec(api, op, dt, mask, dst, (src,), repeat_times, (1, src_blk_stride, 0), (dst_rep_stride, src_rep_stride, 0),
                  loc=loc)
    return f


def _reduce_add(self, mask, dst, src, work_tensor, repeat_times, src_rep_stride):
    self._reduce("vec_reduce_add", "ReduceSum", mask, dst, src, work_tensor, repeat_times, src_rep_stride)


def _reduce_max(self, mask, dst, src, work_tensor, repeat_times, src_rep_stride, cal_index=False):
    self._reduce("vec_reduce_max", "ReduceMax", mask, dst, src, work_tensor, repeat_times, src_rep_stride, cal_index)


def _reduce_min(self, mask, dst, src, work_tensor, repeat_times, src_rep_stride, cal_index=False):
    self._reduce("vec_reduce_min", "ReduceMin", mask, dst, src, work_tensor, repeat_times, src_rep_stride, cal_index)


def _vtranspose(self, dst, src):
    loc = user_loc()
    dt = self._types("vtranspose", loc, ("float16", "int16", "uint16"), dst, src)
    self._vec("vtranspose", "Transpose", dt, None, dst, (src,), 1, (1, 1, 0), (8, 8, 0), loc=loc)


_define("vcadd", _vcadd)
_define("vcmax", _vcmax)
_define("vcmin", _vcmin)
_define("vcgadd", _vcg("BlockReduceSum", "vcgadd"))
_define("vcgmax", _vcg("BlockReduceMax", "vcgmax"))
_define("vcgmin", _vcg("BlockReduceMin", "vcgmin"))
_define("vec_reduce_add", _reduce_add)
_define("vec_reduce_max", _reduce_max)
_define("vec_reduce_min", _reduce_min)
_define("vtranspose", _vtranspose)
_define("vec_trans", _vtranspose)

__all__ = ["Tik", "CmpMask", "scope_gm", "scope_ubuf", "scope_cbuf", "scope_cbuf_out", "scope_ca", "scope_cb",
           "scope_cc", "all_", "any_", "TikError"]


# ---- the tensor-level h_* forms: whole tensors, lowered to full repeats plus a masked tail ----
def _h_spans(n, per):
    """(element offset, mask, repeat) covering n elements, at most 255 repeats each."""
    full, rem = divmod(n, per)
    out = []
    for start in range(0, full, 255):
        out.append((start * per, per, min(255, full - start)))
    if rem:
        out.append((full * per, rem, 1))
    return out


def _fixed_size(t, api=None, loc=None):
    # Tensor-level instructions unroll over the elements while recording.
    if not isinstance(t.size, int):
        fail("tensor-level instructions need a fixed shape; tensor %s's shape holds a Scalar" % t.name, api,
             loc or user_loc())


def _flat(t):
    _fixed_size(t)
    return t.reshape((t.size,)) if len(t.shape) != 1 else t


def _h_elementwise(self, api, op, dst, srcs, scalar=0, allowed=None, loc=None):
    loc = loc or user_loc(3)
    tensors = [dst] + [s for s in srcs if isinstance(s, Tensor)]
    for x in tensors:
        _fixed_size(x, api, loc)
    for x in tensors:
        if x.size != dst.size:
            fail("shapes differ: %s has %d elements, %s has %d" % (dst.name, dst.size, x.name, x.size), api, loc)
    dt = self._types(api, loc, allowed, *tensors)
    per = 256 // DTYPE_SIZE[dt]
    flats = [_flat(x) for x in tensors]
    for off, mask, rep in _h_spans(dst.size, per):
        views = [f[off] for f in flats]
        self._vec(api, op, dt, mask, views[0], tuple(views[1:]), rep, (1, 1, 1 if len(views) > 2 else 0),
                  (8, 8, 8 if len(views) > 2 else 0), scalar, loc=loc)


def _h_div_scalar(self, dst, src, scalar, loc):
    """h_div by a scalar: the scalar duplicated into one repeat of UB, then Div reading that
    repeat again and again (src1 repeat stride 0), so the quotient is the vector unit's."""
    api = "h_div"
    dt = self._types(api, loc, _FLOAT, dst, src)
    if src.size != dst.size:
        fail("shapes differ: %s has %d elements, %s has %d" % (dst.name, dst.size, src.name, src.size), api, loc)
    per = 256 // DTYPE_SIZE[dt]
    with self._scope(self._cur):
        rep = self.Tensor(dt, (per,), scope_ubuf, "h_div_scalar")
        self._vec(api, "Duplicate", dt, per, rep, (), 1, (1, 1, 0), (8, 0, 0), scalar, loc=loc)
        fd, fs = _flat(dst), _flat(src)
        for off, mask, r in _h_spans(dst.size, per):
            self._vec(api, "Div", dt, mask, fd[off], (fs[off], rep), r, (1, 1, 1), (8, 8, 0), loc=loc)


_H_BINARY = {"add": ("Add", "Adds", 1), "sub": ("Sub", "Adds", -1), "mul": ("Mul", "Muls", 1),
             "div": ("Div", None, 0), "max": ("Max", "Maxs", 1), "min": ("Min", "Mins", 1),
             "and": ("And", None, 0), "or": ("Or", None, 0)}
for _n, (_op, _sop, _sign) in _H_BINARY.items():
    def _h_bin(self, dst, src0, src1, _api="h_" + _n, _op=_op, _sop=_sop, _sign=_sign):
        loc = user_loc()
        if isinstance(src1, Tensor):
            _h_elementwise(self, _api, _op, dst, (src0, src1), loc=loc)
        elif _api == "h_div":
            _h_div_scalar(self, dst, src0, src1, loc)
        elif _sop is None:
            fail("src1 must be a Tensor", _api, loc)
        else:
            _h_elementwise(self, _api, _sop, dst, (src0,), src1 if _sign > 0 else -src1, loc=loc)
    _define("h_" + _n, _h_bin)

for _n, (_op, _allowed) in _UNARY.items():
    def _h_un(self, dst, src, _api="h_" + _n, _op=_op, _allowed=_allowed):
        _h_elementwise(self, _api, _op, dst, (src,), allowed=_allowed, loc=user_loc())
    _define("h_" + _n, _h_un)


def _h_duplicate(self, dst, scalar):
    _h_elementwise(self, "h_duplicate", "Duplicate", dst, (), scalar, loc=user_loc())


def _h_cast(self, dst, src, round_mode=""):
    loc = user_loc()
    if dst.size != src.size:
        fail("shapes differ: %s has %d elements, %s has %d" % (dst.name, dst.size, src.name, src.size), "h_cast", loc)
    per = 256 // max(DTYPE_SIZE[dst.dtype], DTYPE_SIZE[src.dtype])
    fd, fs = _flat(dst), _flat(src)
    for off, mask, rep in _h_spans(dst.size, per):
        _conv(self, "h_cast", mask, round_mode, fd[off], fs[off], rep, (1, 1),
              (per * DTYPE_SIZE[dst.dtype] // 32, per * DTYPE_SIZE[src.dtype] // 32), None, loc)


def _h_data_move(self, dst, src):
    loc = user_loc()
    nbytes = min(dst.size * DTYPE_SIZE[dst.dtype], src.size * DTYPE_SIZE[src.dtype])
    self._move("h_data_move", dst, src, 1, (nbytes + 31) // 32, 0, 0, loc)


_define("h_duplicate", _h_duplicate)
_define("h_cast", _h_cast)
_define("h_data_move", _h_data_move)


# ---- compare with a scalar, pairwise sums, scalar helpers ----
for _m in _CMP:
    def _cmpvs(self, dst, src, scalar, repeat_times, src_rep_stride, _m=_m):
        loc = user_loc()
        dt = self._types("vec_cmpvs_" + _m, loc, _FLOAT, src)
        full = [-1, -1] if DTYPE_SIZE[dt] == 2 else [0, -1]
        self._vec("vec_cmpvs_" + _m, "CompareScalar", dt, None, dst_bits(dst, "vec_cmpvs_" + _m, loc), (src,),
                  repeat_times, (1, 1, 0), (0, src_rep_stride, 0), scalar, extra={"cmp": _CMP[_m], "mask": ["b"] + full},
                  loc=loc)

    def _vcmpvs(self, dst, src, scalar, repeat_times, src_blk_stride, src_rep_stride, _m=_m):
        loc = user_loc()
        dt = self._types("vcmpvs_" + _m, loc, _FLOAT, src)
        full = [-1, -1] if DTYPE_SIZE[dt] == 2 else [0, -1]
        self._vec("vcmpvs_" + _m, "CompareScalar", dt, None, dst_bits(dst, "vcmpvs_" + _m, loc), (src,),
                  repeat_times, (1, src_blk_stride, 0), (0, src_rep_stride, 0), scalar,
                  extra={"cmp": _CMP[_m], "mask": ["b"] + full}, loc=loc)
    _define("vec_cmpvs_" + _m, _cmpvs)
    _define("vcmpvs_" + _m, _vcmpvs)


def dst_bits(dst, api, loc):
    if not isinstance(dst, Tensor) or dst.dtype not in ("uint8", "uint16", "uint32", "uint64"):
        fail("dst must be an unsigned integer tensor of bits", api, loc)
    return dst


def _vcpadd(self, mask, dst, src, repeat_times, dst_rep_stride, src_blk_stride, src_rep_stride):
    loc = user_loc()
    dt = self._types("vcpadd", loc, _FLOAT, dst, src)
    self._vec("vcpadd", "PairReduceSum", dt, mask, dst, (src,), repeat_times, (1, src_blk_stride, 0),
              (dst_rep_stride, src_rep_stride, 0), loc=loc)


def _get_available_buffer_size(self, buffer_scope):
    """Bytes of `buffer_scope` not held by live tensors."""
    if buffer_scope not in _ALIGN:
        fail("scope %r has no local buffer" % (buffer_scope,), "get_available_buffer_size")
    pool = _POOL.get(buffer_scope, buffer_scope)
    return self._spec[_SIZE_KEY[pool]] - self._tops[pool]


def _scalar_max(self, dst, src0, src1):
    dst.set_as(Expr(["max", enc(src0), enc(src1)], dst.dtype))


def _scalar_min(self, dst, src0, src1):
    dst.set_as(Expr(["min", enc(src0), enc(src1)], dst.dtype))


def _scalar_abs(self, dst, src):
    dst.set_as(Expr(["max", enc(src), ["neg", enc(src)]], dst.dtype))


# scalar_conv's round modes for a float converted to an integer (TIK reference, scalar_conv):
# the value is rounded by the scalar unit, then stored (exact); '' and 'none' truncate.
_SCALAR_ROUND = {"floor": "floor", "ceil": "ceil", "ceiling": "ceil", "round": "rint", "away-zero": "round",
                 "to-zero": "trunc"}


def _scalar_conv(self, round_mode, dst, src):
    """Scalar conversion: to an integer dst by round_mode; to a float dst the store rounds to
    nearest ('odd' is not modelled: it rounds to nearest too)."""
    if round_mode not in _ROUND:
        fail("round_mode '%s' is not one of %s" % (round_mode, ", ".join(repr(r) for r in _ROUND)), "scalar_conv")
    op = _SCALAR_ROUND.get(round_mode)
    if op is not None and dst.dtype not in ("float16", "float32", "bfloat16"):
        dst.set_as(Expr([op, enc(src)], "float32"))
    else:
        dst.set_as(src)


_define("vcpadd", _vcpadd)
_define("get_available_buffer_size", _get_available_buffer_size)
_define("scalar_max", _scalar_max)
_define("scalar_min", _scalar_min)
_define("scalar_abs", _scalar_abs)
_define("scalar_conv", _scalar_conv)


# ---- vnchwconv / vec_trans_scatter: 16 blocks of 16-bit elements transposed ----
def _trans_scatter(self, api, dst_high_half, src_high_half, dst_list, src_list, repeat_times, dst_rep_stride,
                   src_rep_stride):
    """dst_list[i][j] = src_list[j][i] for 16-bit types, per repeat: the 16 source blocks are
    gathered into a 16x16 matrix, transposed by the vector unit, and scattered (UB -> UB moves on
    the vector pipe around one Transpose)."""
    loc = user_loc(3)
    if len(dst_list) != 16 or len(src_list) != 16:
        fail("dst_list and src_list hold 16 tensors each", api, loc)
    dt = self._types(api, loc, ("float16", "int16", "uint16"), *(list(dst_list) + list(src_list)))
    if not isinstance(repeat_times, int) or not 1 <= repeat_times <= 255:
        fail("repeat_times %r must be an immediate in [1, 255] here" % (repeat_times,), api, loc)
    for v, what in ((dst_rep_stride, "dst_rep_stride"), (src_rep_stride, "src_rep_stride")):
        if not isinstance(v, int) or not 0 <= v <= 65535:
            fail("%s %r must be an immediate in [0, 65535] here" % (what, v), api, loc)
    for t in list(dst_list) + list(src_list):
        self._operand(t, "operand", api, 32, loc)
    per = 16  # 16-bit elements per 32 B block
    with self._scope(self._cur):
        a = self.Tensor(dt, (256,), scope_ubuf, api + "_in")
        b = self.Tensor(dt, (256,), scope_ubuf, api + "_out")
        for r in range(repeat_times):
            for j, s in enumerate(src_list):
                self._move(api, a[j * per], s.shifted(r * src_rep_stride * per), 1, 1, 0, 0, loc)
            self._vec(api, "Transpose", dt, None, b, (a,), 1, (1, 1, 0), (8, 8, 0), loc=loc)
            for i, d in enumerate(dst_list):
                self._move(api, d.shifted(r * dst_rep_stride * per), b[i * per], 1, 1, 0, 0, loc)


# The public names, for every element width, are defined in trans_ops.py on top of _trans_scatter.


# ---- conv2d: img2col into L0A (LoadData3D), weights into L0B, Mmad into L1OUT ----
def _conv2d(self, dst, feature_map, weight, fm_shape, kernel_shape, stride, pad, dilation, pad_value=0,
            init_l1out=True):
    """dst (scope_cbuf_out, [Cout/16, round(Ho*Wo, 16), 16]) (+)= conv of feature_map (scope_cbuf,
    [C1, H, W, C0]) with weight (scope_cbuf, [C1, KH, KW, Cout, C0]); pad is [left, right, top,
    bottom], stride [h, w], dilation [h, w]. K is split into chunks that fit L0A and L0B."""
    loc = user_loc()
    api = "conv2d"
    if dst.scope not in (scope_cbuf_out, scope_cc) or feature_map.scope != scope_cbuf or weight.scope != scope_cbuf:
        fail("conv2d takes dst in scope_cbuf_out, feature_map and weight in scope_cbuf", api, loc)
    combos = {("float16", "float16"): "float32", ("int8", "int8"): "int32"}
    if combos.get((feature_map.dtype, weight.dtype)) != dst.dtype:
        fail("dtypes feature_map=%s, weight=%s, dst=%s are not float16 -> float32 or int8 -> int32"
             % (feature_map.dtype, weight.dtype, dst.dtype), api, loc)
    c1, h, w, c0 = fm_shape
    kc1, kh, kw, cout, kc0 = kernel_shape
    if kc1 != c1 or kc0 != c0 or c0 != 32 // DTYPE_SIZE[feature_map.dtype]:
        fail("fm_shape %s and kernel_shape %s disagree on C1/C0 (C0 is %d for %s)"
             % (list(fm_shape), list(kernel_shape), 32 // DTYPE_SIZE[feature_map.dtype], feature_map.dtype), api, loc)
    if cout % 16:
        fail("Cout %d must be a multiple of 16" % cout, api, loc)
    pl, pr, pt, pb = pad
    sh, sw = stride
    dh, dw = dilation
    ho = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    wo = (w + pl + pr - dw * (kw - 1) - 1) // sw + 1
    if ho < 1 or wo < 1:
        fail("the output would be %d x %d" % (ho, wo), api, loc)
    m_pad = (ho * wo + 15) // 16 * 16
    n1 = cout // 16
    k1 = c1 * kh * kw
    if dst.size < n1 * m_pad * 16:
        fail("dst needs [%d, %d, 16] elements" % (n1, m_pad), api, loc)
    mt, nt, chunk = _cube_tiles(self._spec, m_pad // 16, n1, k1, 512, 512)
    chunk = min(chunk, 4095 // c0)
    m1 = m_pad // 16
    with self._scope(self._cur):
        la = self.Tensor(feature_map.dtype, (mt * 16 * chunk * c0,), scope_ca, "conv2d_l0a")
        lb = self.Tensor(weight.dtype, (nt * chunk * 16 * c0,), scope_cb, "conv2d_l0b")
        out_flat = _flat(dst)
        for m0 in range(0, m1, mt):
            mtc = min(mt, m1 - m0)
            for j0 in range(0, n1, nt):
                ntc = min(nt, n1 - j0)
                for c in range(0, k1, chunk):
                    kc = min(chunk, k1 - c)
                    self._cur.append({"kind": "load3d", "api": api, "dst": la.j_view(), "src": feature_map.j_view(),
                                      "dt": feature_map.dtype, "k": "i", "loc": loc,
                                      "l3": {"fm_h": h, "fm_w": w, "channels": c1 * c0, "pad": [pl, pr, pt, pb],
                                             "stride_w": sw, "stride_h": sh, "kernel_w": kw, "kernel_h": kh,
                                             "dilation_w": dw, "dilation_h": dh, "m_start": m0 * 16,
                                             "m_extent": mtc * 16, "k_start": c * c0, "k_extent": kc * c0,
                                             "pad_value": float(pad_value)}})
                    _load_b_columns(self, api, lb, weight, c, kc, j0, ntc, n1, 16 * c0, loc)
                    accumulate = 0 if (c == 0 and init_l1out) else 1
                    # as in matmul: the result tile is contiguous in dst [Cout/16, m_pad, 16]
                    out = out_flat[(j0 * m_pad + m0 * 16) * 16]
                    self._cur.append({"kind": "mmad", "api": api, "dst": out.j_view(), "src0": la.j_view(),
                                      "src1": lb.j_view(), "ta": feature_map.dtype, "tb": weight.dtype,
                                      "tc": dst.dtype,
                                      "p": [min(ho * wo - m0 * 16, mtc * 16), kc * c0, min(cout - j0 * 16, ntc * 16),
                                            accumulate], "k": "i", "loc": loc})
                    self._instructions += 2


_define("conv2d", _conv2d)


def _broadcast_ub_to_l0c(self, dst, src, nburst, burst_len, src_gap, dst_gap):
    """UB -> L0C (Ascend310P): each 16-element unit of src fills a 16x16 fractal of equal rows;
    src_gap counts 32 B blocks, dst_gap 16x16 fractals."""
    loc = user_loc()
    api = "broadcast_ub_to_l0c"
    if self._spec["product"] != "Ascend310P":
        fail("only the Ascend310P AI Core has it; this is %s" % self._spec["product"], api, loc)
    if src.scope != scope_ubuf or dst.scope not in (scope_cc, scope_cbuf_out):
        fail("moves scope_ubuf to scope_cc/scope_cbuf_out", api, loc)
    if dst.dtype != src.dtype or dst.dtype not in ("float16", "float32", "int32"):
        fail("dst and src must both be float16, float32 or int32 (%s, %s)" % (dst.dtype, src.dtype), api, loc)
    for v, what in ((nburst, "nburst"), (burst_len, "burst_len")):
        if isinstance(v, int) and not 1 <= v <= 255:
            fail("%s %d out of range [1, 255]" % (what, v), api, loc)
    self._cur.append({"kind": "move", "api": api, "dst": dst.j_view(), "src": src.j_view(), "dt": dst.dtype,
                      "unit": 16 * DTYPE_SIZE[dst.dtype], "bcast": True,
                      "p": [enc(nburst), enc(burst_len), enc(src_gap), enc(dst_gap)], "k": "i", "loc": loc})
    self._instructions += 1


_define("broadcast_ub_to_l0c", _broadcast_ub_to_l0c)


def _mov_cmpmask_to_tensor(self, dst, src_cmpmask):
    """The CMPMASK register's 128 bits (16 bytes) to dst (scope_ubuf)."""
    loc = user_loc()
    if not isinstance(src_cmpmask, CmpMask):
        fail("src_cmpmask must be what vcmp_* or mov_tensor_to_cmpmask returned", "mov_cmpmask_to_tensor", loc)
    self._vec("mov_cmpmask_to_tensor", "GetCmpMask", "uint16", None, dst, (), 1, (1, 1, 0), (8, 8, 0), loc=loc)
    self._patch_last(4, "float16")  # the register's width does not depend on the tensor's type


def _mov_tensor_to_cmpmask(self, src):
    """16 bytes at src (scope_ubuf) into the CMPMASK register; returns it for vsel mode 0."""
    loc = user_loc()
    self._vec("mov_tensor_to_cmpmask", "SetCmpMask", "float16", None, None, (src,), 1, (1, 1, 0), (8, 8, 0), loc=loc)
    return CmpMask(loc)


_define("mov_cmpmask_to_tensor", _mov_cmpmask_to_tensor)
_define("mov_tensor_to_cmpmask", _mov_tensor_to_cmpmask)
_define("vec_cpadd", _vcpadd)


def _record_load3d(self, api, loc, dst, src, m_start, k_start, fmap, pad, stride, kernel, dilation, extents,
                   pad_value):
    """One LoadData3D record (load3dv1 and load3dv2): the feature map (h, w, channels) in L1, the
    window's (w, h) strides, kernel and dilation, and the (m, k) extents from m_start/k_start."""
    (fm_h, fm_w, channels), (pl, pr, pt, pb) = fmap, pad
    self._cur.append({"kind": "load3d", "api": api, "dst": dst.j_view(), "src": src.j_view(), "dt": src.dtype,
                      "k": "i", "loc": loc, "p": [enc(m_start), enc(k_start)],
                      "l3": {"fm_h": fm_h, "fm_w": fm_w, "channels": channels, "pad": [pl, pr, pt, pb],
                             "stride_w": stride[0], "stride_h": stride[1], "kernel_w": kernel[0],
                             "kernel_h": kernel[1], "dilation_w": dilation[0], "dilation_h": dilation[1],
                             "m_start": 0, "m_extent": extents[0], "k_start": 0, "k_extent": extents[1],
                             "pad_value": float(pad_value or 0)}})
    self._last_if = None
    self._instructions += 1


def _load3dv1(self, dst, src, pad, l1_h, l1_w, c1_index, fetch_filter_w, fetch_filter_h, left_top_w, left_top_h,
              stride_w, stride_h, filter_w, filter_h, dilation_filter_w, dilation_filter_h, jump_offset, repeat_mode,
              repeat_time, _csize=0, pad_value=None):
    """img2col of an L1 feature map [C1, l1_h, l1_w, C0] into L0A/L0B fractals (LoadData3D).

    repeat_mode 1: repeat r is the 16 output positions starting 16*r after the one whose window
    starts at (left_top_h, left_top_w), for the kernel position (fetch_filter_h, fetch_filter_w)
    of channel block c1_index; repeat_mode 0: the 16 positions from (left_top_h, left_top_w),
    repeat r the r-th C0 column block after that kernel position (w, then h, then c1). Fractal r
    is written at dst + r * 512 B."""
    loc = user_loc()
    api = "load3dv1"
    if src.scope != scope_cbuf or dst.scope not in (scope_ca, scope_cb):
        fail("loads scope_cbuf into scope_ca/scope_cb (npuvp models no img2col into scope_ubuf), not %s -> %s"
             % (src.scope, dst.scope), api, loc)
    if src.dtype != dst.dtype or src.dtype not in ("float16", "int8", "uint8"):
        fail("dst and src must both be float16, int8 or uint8 (%s, %s)" % (dst.dtype, src.dtype), api, loc)
    if repeat_mode not in (0, 1):
        fail("repeat_mode %r must be 0 or 1" % (repeat_mode,), api, loc)
    for v, what in ((repeat_time, "repeat_time"), (l1_h, "l1_h"), (l1_w, "l1_w"), (filter_w, "filter_w"),
                    (filter_h, "filter_h"), (stride_w, "stride_w"), (stride_h, "stride_h"),
                    (dilation_filter_w, "dilation_filter_w"), (dilation_filter_h, "dilation_filter_h")):
        if not isinstance(v, int) or v < 1:
            fail("%s %r must be a positive immediate here" % (what, v), api, loc)
    c0 = 32 // DTYPE_SIZE[src.dtype]
    pl, pr, pt, pb = pad
    wo = (l1_w + pl + pr - dilation_filter_w * (filter_w - 1) - 1) // stride_w + 1
    m_start = ((left_top_h + pt) // stride_h) * wo + (left_top_w + pl) // stride_w
    k_start = ((c1_index * filter_h + fetch_filter_h) * filter_w + fetch_filter_w) * c0
    channels = max(1, (src.root_bytes // DTYPE_SIZE[src.dtype]) // (l1_h * l1_w) // c0) * c0
    m_extent, k_extent = (16 * repeat_time, c0) if repeat_mode == 1 else (16, c0 * repeat_time)
    _record_load3d(self, api, loc, dst, src, m_start, k_start, (l1_h, l1_w, channels), pad, (stride_w, stride_h),
                   (filter_w, filter_h), (dilation_filter_w, dilation_filter_h), (m_extent, k_extent), pad_value)


_define("load3dv1", _load3dv1)


from . import more_ops  # noqa: E402,F401 (defines its instructions on Tik)
from . import trans_ops  # noqa: E402,F401 (vnchwconv / vec_trans_scatter for 8-, 16- and 32-bit types)
from . import argreduce_ops  # noqa: E402,F401 (h_reduce_argmax / h_reduce_argmin)
from . import scalar_relu_ops  # noqa: E402,F401 (scalar_sqrt, scalar_countbit0/1, scalar_countleading0, vaddrelu, vsubrelu)
from . import load3dv2_ops  # noqa: E402,F401 (load3dv2)
from . import proposal_ops  # noqa: E402,F401 (vconcat, vextract, vrpsort16, vmrgsort4)
from . import reduce_axes_ops  # noqa: E402,F401 (h_reduce_* over adjacent axes of 3-D+ tensors)
from . import high_preci_ops  # noqa: E402,F401 (vec_rec/rsqrt/ln/expm1_high_preci with work tensors)
