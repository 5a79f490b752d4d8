"""tbe.common.utils: para_check and shape helpers."""
from . import para_check  # noqa: F401
from . import shape_util  # noqa: F401
