"""npuvp: SystemC/TLM-2.0 virtual platforms of AI accelerators (Python package).

npuvp.tik is the TIK front end; tbe, te and tikdb are the import names TIK operators use.
The C++ core is npuvp._core (pybind11).
"""
__version__ = "0.1.0"
