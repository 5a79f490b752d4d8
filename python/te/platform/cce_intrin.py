from npuvp.tik.soc import get_bit_len  # noqa: F401
