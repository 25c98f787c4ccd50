"""A step's line at the numbers the solution chose (chosen.py), and the words before it.

A step whose chosen value is an earlier step's is named by that step (``V_1 = X_1``: a chosen
W_V of the identity passes the slice on) instead of printing the matrix twice. The last step
is the answer a student hands in: it keeps its numbers (``O = MultiHead ≈ [...]``) and says in
one sentence which chosen matrix is the identity and why its value is the earlier one's.
"""

from __future__ import annotations

from mha_symbolic.exact.derivation import Step
from mha_symbolic.language.locales import step_title
from mha_symbolic.solution import latex
from mha_symbolic.solution.chosen import at_chosen, identity_factors, is_earlier_step
from mha_symbolic.solution.context import Context


def chosen_lines(context: Context, step: Step, shown: latex.Shown) -> tuple[str | None, str | None]:
    """The step's value at the chosen numbers, and the words said before it (None: the usual
    "With the chosen numbers:"); the name of an earlier step instead of the value when that
    printed the same matrix (``V_1 = X_1``, a given slice), both when the step is the last
    (``O = MultiHead ≈ [...]``, with why); nothing when the earlier step's general value is
    this one's too (one head's C is head_1)."""
    general = shown.exact
    line = at_chosen(step, context.chosen, context.settings_for(step.key), context.subterms)
    if line is None:
        if context.chosen and not shown.named and general is not None:
            printed = (r" \approx " + shown.approx) if shown.approx else " = " + general
            context.chosen_shown.setdefault(printed, (step.symbol.name, general))
        return None, None
    name = step.symbol.name
    for relation in (r" \approx ", " = "):
        if line.startswith(name + relation):
            value = relation + line[len(name + relation) :]
            earlier, exact = context.chosen_shown.setdefault(value, (name, general))
            if earlier == name:
                return line, None
            if general is not None and exact == general:
                return None, None
            if not is_earlier_step(context.d, context.chosen, step, earlier):
                return name + relation + earlier, None
            if not context.facts.is_a(step.kind, "final"):
                return name + " = " + earlier, None  # equal decimals, and equal exactly
            return name + " = " + earlier + value, _why_earlier(context, step, earlier)
    return line, None


def _why_earlier(context: Context, step: Step, earlier: str) -> str | None:
    """``W_O is the identity here, so O equals MultiHead ("Concatenated heads") ...``."""
    names = identity_factors(context.d, context.chosen, step)
    found = [s for s in context.d.steps if s.symbol.name == earlier]
    if len(names) != 1 or not found:
        return None
    options = context.options
    title = step_title(found[0].key, found[0].head, options.lang, options.templates)
    return context.words(
        "text",
        "chosen_identity",
        identity=names[0],
        name=step.symbol.name,
        earlier=earlier,
        title=title,
    )
