"""npuvp: SystemC/TLM-2.0 virtual platforms of AI accelerators (Python package).

npuvp.tik is the TIK front end; tbe, te and tikdb are the import names TIK operators use.
The C++ core is npuvp._core (pybind11).
"""
__version__ = "0.1.0"

# The scripting API (docs/exploring.md): each run is its own npuvp process.
from .api import Result, RunError, cli_path, params, platforms, run, samples  # noqa: E402,F401


def sweep(study, results, jobs=None, client=None, progress=True, retry_failed=False):
    """Run (or resume) a study; see npuvp.sweeps.sweep."""
    from .sweeps import sweep as _sweep
    return _sweep(study, results, jobs=jobs, client=client, progress=progress, retry_failed=retry_failed)
