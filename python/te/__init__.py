"""TIK operators' import name 'te' (npuvp's TIK front end)."""
from . import platform  # noqa: F401
from . import tik  # noqa: F401
