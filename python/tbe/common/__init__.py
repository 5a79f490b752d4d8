"""tbe.common: the platform and parameter-check helpers TIK operators import."""
