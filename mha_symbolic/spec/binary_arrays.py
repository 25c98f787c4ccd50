"""Binary float arrays read exactly at model scale: every float is ``m * 2^e``, so a whole
array becomes integers in NumPy and one FLINT matrix, and its SymPy entries are made only
when something reads them (a GPT-2 layer's 2.4 million weights in a fraction of a second,
not a SymPy Rational each)."""

from __future__ import annotations

from typing import Any

import sympy as sp
from sympy.core.basic import Basic

# Integers below 2^62 are FLINT's small integers (fmpz held in a machine word, fast).
_SMALL = 62
# A float64 has 53 significant bits: the floats of 10 consecutive binades, scaled so that
# the largest is below 2^62, are all integers.
_BINADES = _SMALL - 53 + 1
# A group of binades is built as a whole matrix only when it holds at least 1/8 of the
# entries; the rare others are set one by one.
_DENSE_SHARE = 8


def fraction_matrix(values: Any) -> Any:
    """The exact ``fmpq_mat`` of a finite 2-d float array. Scaled by one power of two, float32
    weights are all integers below 2^62: one ``fmpz_mat`` built at once and divided by that
    power, instead of a fraction per entry. Values spread over more binades than that (float64
    data, subnormals beside large numbers) are built in groups of binades that each are."""
    import flint
    import numpy as np

    values = np.ascontiguousarray(values, dtype=np.float64)  # float16/32 widen exactly
    rows, cols = values.shape
    nonzero = values != 0  # -0.0 too is the rational 0
    if not nonzero.any():
        return flint.fmpq_mat(rows, cols)
    binades = np.frexp(values)[1]  # |v| < 2^binade
    top = int(binades[nonzero].max())
    whole = _integers(values, nonzero, top)
    if whole is not None:
        return whole
    group = np.where(nonzero, (top - binades) // _BINADES, -1)
    numbers, counts = np.unique(group[nonzero], return_counts=True)
    total = flint.fmpq_mat(rows, cols)
    for number, count in zip(numbers.tolist(), counts.tolist()):
        members = group == number
        if count * _DENSE_SHARE >= rows * cols:
            part = _integers(np.where(members, values, 0.0), members, top - number * _BINADES)
            assert part is not None  # 10 binades below 2^62: integers by construction
            total += part
        else:
            for i, j in zip(*(axis.tolist() for axis in np.nonzero(members))):
                total[i, j] = flint.fmpq(*float(values[i, j]).as_integer_ratio())
    return total


def _integers(values: Any, nonzero: Any, top: int) -> Any:
    """``values`` (each below 2^top in size) as ``fmpz_mat / 2^k``, or None when scaling them
    below 2^62 leaves one that is not a whole number."""
    import flint
    import numpy as np

    scaled = np.ldexp(values, _SMALL - top)  # exact: times a power of two, unless it underflows
    if not ((scaled == np.trunc(scaled)) & ((scaled != 0) == nonzero)).all():
        return None
    whole = scaled.astype(np.int64)
    common = int(np.bitwise_or.reduce(whole, axis=None))
    zeros = (common & -common).bit_length() - 1  # the trailing zero bits every entry has
    whole >>= zeros
    rows, cols = values.shape
    fractions = flint.fmpq_mat(flint.fmpz_mat(rows, cols, whole.ravel().tolist()))
    power = top - _SMALL + zeros
    return fractions * (1 << power) if power >= 0 else fractions / (1 << -power)


_ARGS = Basic.__dict__["_args"]  # Basic's slot for a SymPy object's arguments


class BinaryMatrix(sp.ImmutableDenseMatrix):
    """An ImmutableMatrix of exact rationals held as a FLINT ``fmpq_mat``: equal (``==``,
    ``hash``) to the matrix of the same entries, and read like it, but its SymPy entries
    (``args``) and SymPy's own representation are made the first time they are read. The
    exact structure (:mod:`mha_symbolic.exact.structured`) reads :func:`flint_of` instead,
    so a model-sized layer never makes a SymPy entry it does not show."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        # SymPy rebuilds a matrix (a copy, an unpickled one) from its entries: a plain one.
        return sp.ImmutableDenseMatrix(*args, **kwargs)

    @classmethod
    def of(cls, fractions: Any) -> BinaryMatrix:
        matrix = Basic.__new__(cls)
        _ARGS.__delete__(matrix)  # made when first read (see _args)
        matrix._rows, matrix._cols = fractions.nrows(), fractions.ncols()
        matrix.__dict__["_fractions"] = fractions
        return matrix

    @classmethod
    def repeated(cls, base: Any, kv: int, group: int, by_rows: bool) -> BinaryMatrix:
        """``base`` (``kv`` blocks of rows, or of columns unless ``by_rows``) with each block
        standing ``group`` times in a row: grouped-query attention's key/value weights, one
        block per key/value head, repeated for the query heads that share it. The repeated
        matrix is made only when read; the exact structure reads :func:`repeats_of`."""
        matrix = Basic.__new__(cls)
        _ARGS.__delete__(matrix)
        rows, cols = base.nrows(), base.ncols()
        matrix._rows, matrix._cols = (rows * group, cols) if by_rows else (rows, cols * group)
        matrix.__dict__["_repeats"] = (base, kv, group, by_rows)
        return matrix

    def held(self) -> Any:
        """The FLINT ``fmpq_mat`` of the entries (a repeated one made on first reading)."""
        fractions = self.__dict__.get("_fractions")
        if fractions is None:
            fractions = self.__dict__["_fractions"] = expanded(*self.__dict__["_repeats"])
        return fractions

    @classmethod
    def _fromrep(cls, rep: Any) -> Any:
        """What SymPy makes from this matrix (a transpose, a product) is a plain matrix."""
        return sp.ImmutableDenseMatrix._fromrep(rep)

    @property
    def _rep(self) -> Any:
        made = self.__dict__.get("_made_rep")
        if made is None:
            made = self.__dict__["_made_rep"] = _sympy_rep(self.held())
        return made

    @property
    def _args(self) -> tuple[Basic, ...]:
        try:
            return _ARGS.__get__(self)
        except AttributeError:
            made = self._rep.to_sympy().to_list_flat()
            args = (sp.Integer(self._rows), sp.Integer(self._cols), sp.Tuple(*made, sympify=False))
            _ARGS.__set__(self, args)
            return args

    @_args.setter
    def _args(self, args: tuple[Basic, ...]) -> None:
        _ARGS.__set__(self, args)

    def __hash__(self) -> int:
        """The hash of the plain ImmutableMatrix of the same entries (they compare equal)."""
        return hash(("ImmutableDenseMatrix", *self._hashable_content()))

    @property
    def free_symbols(self) -> set[sp.Symbol]:
        return set()  # numbers only: no need to make the entries to know it

    def __reduce_ex__(self, protocol: Any) -> Any:
        entries = self.held().entries()
        return (_unpickle, (self.shape, [(int(q.p), int(q.q)) for q in entries]))


def _unpickle(shape: tuple[int, int], ratios: list[tuple[int, int]]) -> BinaryMatrix:
    import flint

    return BinaryMatrix.of(flint.fmpq_mat(*shape, [flint.fmpq(p, q) for p, q in ratios]))


def _sympy_rep(fractions: Any) -> Any:
    """SymPy's own representation of the matrix: the sparse one its constructor makes from
    the same entries (SymPy's == compares the representations' forms too)."""
    from sympy.polys.domains import QQ
    from sympy.polys.matrices import DomainMatrix

    rows, cols = fractions.nrows(), fractions.ncols()
    flat = [QQ(int(q.p), int(q.q)) for q in fractions.entries()]
    return DomainMatrix.from_list_flat(flat, (rows, cols), QQ).to_sparse()


def expanded(base: Any, kv: int, group: int, by_rows: bool) -> Any:
    """The ``fmpq_mat`` of :meth:`BinaryMatrix.repeated`'s entries."""
    import flint

    matrix = base if by_rows else base.transpose()
    rows, cols = matrix.nrows(), matrix.ncols()
    size = rows // kv * cols  # entries of one block of rows
    entries = matrix.entries()
    out = [e for b in range(kv) for _ in range(group) for e in entries[b * size : (b + 1) * size]]
    made = flint.fmpq_mat(rows * group, cols, out)
    return made if by_rows else made.transpose()


def flint_of(matrix: Any) -> Any:
    """The FLINT ``fmpq_mat`` a :class:`BinaryMatrix` holds, or None for any other matrix."""
    return matrix.held() if isinstance(matrix, BinaryMatrix) else None


def repeats_of(matrix: Any) -> tuple[Any, int, int, bool] | None:
    """(base, kv, group, by_rows) of a :meth:`BinaryMatrix.repeated` matrix, else None."""
    return matrix.__dict__.get("_repeats") if isinstance(matrix, BinaryMatrix) else None
