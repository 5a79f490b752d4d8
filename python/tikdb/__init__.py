"""tikdb.start_debug(feed_dict, interactive=False): runs the last operator built with BuildCCE
(or `tik_instance`) on an npuvp platform and returns its outputs as numpy arrays."""
from npuvp.tik.errors import TikError


def start_debug(feed_dict, interactive=False, tik_instance=None):
    from npuvp.tik import tik as _tik
    inst = tik_instance or _tik.last_built()
    if inst is None:
        raise TikError("tikdb.start_debug: no operator was built (call BuildCCE first)")
    return inst.tikdb.start_debug(feed_dict, interactive)
