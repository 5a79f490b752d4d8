"""TIK operators' import name 'tbe' (npuvp's TIK front end)."""
