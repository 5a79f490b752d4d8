from npuvp.tik.soc import get_soc_spec, set_current_compile_soc_info, te_set_version, api_check_support  # noqa: F401
