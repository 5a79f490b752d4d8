"""Operator parameter checks (tbe.common.utils.para_check / te.utils.op_utils).

The decorator and the check_* functions validate what they are given and raise a
RuntimeError naming the rule, as CANN's do; they change nothing.
"""
import functools
import re

from npuvp.tik.ir import DTYPE_SIZE

REQUIRED_INPUT = "required_input"
OPTION_INPUT = "option_input"
DYNAMIC_INPUT = "dynamic_input"
REQUIRED_OUTPUT = "required_output"
OPTION_OUTPUT = "option_output"
DYNAMIC_OUTPUT = "dynamic_output"
REQUIRED_ATTR_INT = "REQUIRED_ATTR_INT"
REQUIRED_ATTR_FLOAT = "REQUIRED_ATTR_FLOAT"
REQUIRED_ATTR_STR = "REQUIRED_ATTR_STR"
REQUIRED_ATTR_BOOL = "REQUIRED_ATTR_BOOL"
REQUIRED_ATTR_LIST_INT = "REQUIRED_ATTR_LIST_INT"
REQUIRED_ATTR_LIST_FLOAT = "REQUIRED_ATTR_LIST_FLOAT"
OPTION_ATTR_INT = "OPTION_ATTR_INT"
OPTION_ATTR_FLOAT = "OPTION_ATTR_FLOAT"
OPTION_ATTR_STR = "OPTION_ATTR_STR"
OPTION_ATTR_BOOL = "OPTION_ATTR_BOOL"
OPTION_ATTR_LIST_INT = "OPTION_ATTR_LIST_INT"
OPTION_ATTR_LIST_FLOAT = "OPTION_ATTR_LIST_FLOAT"
KERNEL_NAME = "kernel_name"
SHAPE_SIZE_LIMIT = 2 ** 31 - 1


def check_kernel_name(kernel_name, param_name="kernel_name"):
    if kernel_name is None:
        return
    if not isinstance(kernel_name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,199}", kernel_name):
        raise RuntimeError("%s '%s' must be 1..200 letters, digits or '_' and not start with a digit"
                           % (param_name, kernel_name))


def check_shape(shape, min_dim=0, max_dim=None, min_rank=0, max_rank=8, max_shape_num=SHAPE_SIZE_LIMIT,
                param_name="shape"):
    if not isinstance(shape, (list, tuple)):
        raise RuntimeError("%s %r must be a list or tuple" % (param_name, shape))
    if not (min_rank <= len(shape) <= max_rank):
        raise RuntimeError("%s %r has rank %d, not in [%d, %d]" % (param_name, shape, len(shape), min_rank, max_rank))
    n = 1
    for d in shape:
        if not isinstance(d, int) or d < min_dim or (max_dim is not None and d > max_dim):
            raise RuntimeError("%s %r has an invalid dimension %r" % (param_name, shape, d))
        n *= max(d, 1)
    if n > max_shape_num:
        raise RuntimeError("%s %r has %d elements, more than %d" % (param_name, shape, n, max_shape_num))


def check_dtype(dtype, check_list=None, param_name="dtype"):
    if dtype is None:
        raise RuntimeError("%s is None" % param_name)
    d = str(dtype).lower()
    if check_list is not None and d not in [c.lower() for c in check_list]:
        raise RuntimeError("%s %s is not one of %s" % (param_name, d, ", ".join(check_list)))
    if check_list is None and d not in DTYPE_SIZE:
        raise RuntimeError("%s %s is not a known dtype" % (param_name, d))


def check_format(data_format, check_list=None, param_name="format"):
    if check_list is not None and data_format not in check_list:
        raise RuntimeError("%s %s is not one of %s" % (param_name, data_format, ", ".join(check_list)))


def check_elewise_shape_range(inputs, support_broadcast=False):
    return None


def check_op_params(*kinds):
    """Decorator: checks tensor dicts (shape, dtype) and the kernel name of an operator call."""
    def wrap(fn):
        @functools.wraps(fn)
        def call(*args, **kwargs):
            for kind, value in zip(kinds, args):
                if kind in (REQUIRED_INPUT, REQUIRED_OUTPUT):
                    if not isinstance(value, dict):
                        raise RuntimeError("%s of %s must be a tensor dict" % (kind, fn.__name__))
                    if "shape" in value:
                        check_shape(value["shape"])
                    if "dtype" in value:
                        check_dtype(value["dtype"])
                elif kind == KERNEL_NAME:
                    check_kernel_name(value)
            if "kernel_name" in kwargs:
                check_kernel_name(kwargs["kernel_name"])
            return fn(*args, **kwargs)
        return call
    return wrap
