"""Random convolution windows for the convolution tests: kernel sizes, strides, padding from
-1 to 2, lhs and rhs dilation and reversal, as the window text of `stablehlo.convolution`,
with the output size they give; and a seeded sample of cases."""
from __future__ import annotations


def random_window(rng, size: list[int]):
    """(kernel sizes, window text, output sizes) for an input of spatial `size`, or None when
    the window does not fit the padded input."""
    nd = len(size)
    kernel = [int(rng.integers(1, 4)) for _ in range(nd)]
    stride = [int(rng.integers(1, 3)) for _ in range(nd)]
    pad = [[int(rng.integers(-1, 3)), int(rng.integers(-1, 3))] for _ in range(nd)]
    lhs_dilation = [int(rng.integers(1, 3)) for _ in range(nd)]
    rhs_dilation = [int(rng.integers(1, 3)) for _ in range(nd)]
    reverse = [bool(rng.integers(0, 2)) for _ in range(nd)]
    out = []
    for i in range(nd):
        padded = (size[i] - 1) * lhs_dilation[i] + 1 + sum(pad[i])
        window = (kernel[i] - 1) * rhs_dilation[i] + 1
        if padded < window:
            return None
        out.append((padded - window) // stride[i] + 1)
    flags = ", ".join("true" if r else "false" for r in reverse)
    text = (f"{{stride = {stride}, pad = {pad}, lhs_dilate = {lhs_dilation}, "
            f"rhs_dilate = {rhs_dilation}, reverse = [{flags}]}}")
    return kernel, text, out


def sample(make, count: int, seed: int) -> list:
    """`count` cases from `make(rng, index)`, skipping the Nones it returns."""
    import numpy as np
    rng = np.random.default_rng(seed)
    cases = []
    while len(cases) < count:
        case = make(rng, len(cases))
        if case is not None:
            cases.append(case)
    return cases
