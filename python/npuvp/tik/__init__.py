"""The TIK front end (import it as `from tbe import tik` or `from te import tik`)."""
from .errors import TikError
from .soc import Dprofile, get_bit_len
from .ir import Expr, Scalar, Tensor
from .ir import all_ as all  # noqa: A001 (TIK's names)
from .ir import any_ as any  # noqa: A001
from .tik import (Tik, CmpMask, scope_gm, scope_ubuf, scope_cbuf, scope_cbuf_out, scope_ca, scope_cb, scope_cc)

