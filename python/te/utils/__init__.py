"""te.utils: para_check (op_utils is its older name)."""
from tbe.common.utils import para_check  # noqa: F401
from tbe.common.utils import para_check as op_utils  # noqa: F401
from tbe.common.utils import shape_util  # noqa: F401
