"""The projections X W (+ 1 b): each head's queries, keys and values (step ``head{n}.q``, ...),
or every head's at once in the fused layout (step ``q``, then each head's columns); kind
``project``. The weight is W or W^T by the spec's convention, and the builder makes them
(:mod:`mha_symbolic.model.program`; the output's W_O is the ``output`` operation's).

Their values are numbers the backward ring is built from; in code a projection is one
product over the stream's input (:func:`mha_symbolic.model.affine.affine_parts` finds its
parts).
"""

from __future__ import annotations

from mha_symbolic.operations.operation import Operation

OPERATION = Operation(kind="project", ring_values=True)
