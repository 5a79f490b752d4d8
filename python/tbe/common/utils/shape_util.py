"""Shape helpers operators call."""
import functools


def shape_to_list(shape):
    return [int(d) for d in shape]


def get_shape_size(shape):
    return functools.reduce(lambda a, b: a * b, shape, 1)
