from npuvp.tik import *  # noqa: F401,F403
from npuvp.tik import all, any, TikError, Dprofile  # noqa: F401
