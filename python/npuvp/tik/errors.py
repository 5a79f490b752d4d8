"""The exception TIK front-end errors raise."""


class TikError(RuntimeError):
    """A TIK program broke a rule: the message names the operator's file:line and the rule."""
