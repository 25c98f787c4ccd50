"""A wide matrix of balls times an exact rational matrix, in fixed point: the output
projection of a model-scale enclosure (``concat_h(A_h V_h) W_O``: 256 x 4096 balls times
4096 x 4096 float32 weights for a LLaMA-7B-wide layer, 4.3 billion multiply-adds).

arb's own product turns the balls into integer matrices block by block, at the full working
precision and with room for their spread of exponents. Here every midpoint is rounded down
to a multiple of ``2^-s`` (``s`` a little below the working precision) once, the integers
are cut into slices of :data:`LIMB` bits, and each slice is multiplied by the weights'
integer numerators in one FLINT product whose sums stay within two machine words (measured
at 256 x 2048 x 2048: about 2x quicker than arb's product, slices and all). Certified as
arb's: each ball's radius and its rounding (at most ``2^-s``) are carried through the
weights as one row of error balls, ``(0 +/- r) @ W``, added to every row.
"""

from __future__ import annotations

import flint

from mha_symbolic.exact.head_pool import packed

# Bits of each slice: a slice times a weight's numerator (float32 weights over their common
# power of two: about 50 bits) summed over 4096 terms stays below 2^127. Measured at
# 256 x 2048 x 2048: 62-bit slices 1.2 s, 63 or 64-bit ones 2.0-2.2 s a product.
LIMB = 62
# Columns of the weights below which arb's own product is as quick: each ball is turned into
# an integer in Python (about 1.4 us), which a product of few columns does not win back.
COLUMNS = 2048
# Bits of the midpoints' rounding below the working precision (the radii of the balls are
# about 2^-(precision - 5) of their size; a rounding of 2^-(precision - 13) times the sum of
# a column's weights stays far below the 2^-(precision - 32) an enclosure asks for).
BELOW = 13
# A denominator of the weights beyond this many bits (rationals of many unrelated
# denominators, not floats) makes the numerators too long for the slices: arb's product.
_DENOMINATOR_BITS = 128


def times_exact(balls: flint.arb_mat, exact: flint.fmpq_mat) -> flint.arb_mat:
    """``balls @ exact`` at the context's precision: every exact product of the balls'
    values and ``exact`` lies in the ball of its entry."""
    whole, denominator = exact.numer_denom()
    if exact.ncols() < COLUMNS or int(denominator).bit_length() > _DENOMINATOR_BITS:
        return balls * flint.arb_mat(exact)
    bits = flint.ctx.prec - BELOW
    rows, cols, ints, widest = packed(balls, bits)
    top = max((abs(n) for n in ints), default=0).bit_length() + 1  # (a sign bit)
    mask = (1 << LIMB) - 1
    total = None
    for k in range(max(1, -(-top // LIMB))):
        shift = k * LIMB
        last = (k + 1) * LIMB >= top
        part = [n >> shift if last else (n >> shift) & mask for n in ints]
        product = flint.fmpz_mat(rows, cols, part) * whole
        total = product if total is None else total + product * (1 << shift)
    assert total is not None
    unit = flint.arb((1, -bits))
    scale = unit / flint.arb(flint.fmpz(denominator))
    middles = flint.arb_mat(total) * scale
    # each value is its integer times 2^-bits, plus at most the widest radius and the unit
    error = flint.arb(0, flint.arb(widest) + unit)
    inner = exact.nrows()  # (the numerators' balls are made exactly, quicker than fractions')
    spread = flint.arb_mat(1, inner, [error] * inner) * flint.arb_mat(whole)
    row = (spread * (1 / flint.arb(flint.fmpz(denominator)))).entries()
    return middles + flint.arb_mat(rows, exact.ncols(), row * rows)
