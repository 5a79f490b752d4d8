from tbe.common.platform import *  # noqa: F401,F403
scope_gm = "scope_gm"
scope_ubuf = "scope_ubuf"
scope_cbuf = "scope_cbuf"
scope_ca = "scope_ca"
scope_cb = "scope_cb"
scope_cc = "scope_cc"
