"""Hostile values and specs, each through the command line: one exact line on stderr, exit
code 2, no traceback, an answer within 10 s, and no file written in the folder.

Every case runs in a process of its own, forked from one warm interpreter (tests/hostile_runner.py)
so that 150 runs take seconds rather than minutes; a few also run as `python -m mha_symbolic.cli`
to cover the real entry point.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cpu_bound import WALL_FACTOR, processor_limit
from tests.forked import fork_command
from tests.hostile_cases import bmatrix, entry, toml_string, with_x

TIMEOUT = 10.0  # processor seconds: the bound for every hostile input
DERIVE = ["derive", "spec.toml", "-o", "out.md"]
CHECK = ["check", "spec.toml"]
TEMPERATURE = ["derive", "--example", "temperature"]

# (text of x[1,1], the message after "mha-symbolic: ")
ENTRY_ROWS = [
    ("1\\,000", 'spec.toml: x[1,1] = "1\\,000": a thin space (\\,) inside a number; write 1000'),
    ("1~000", 'spec.toml: x[1,1] = "1~000": a non-breaking space (~) inside a number; write 1000'),
    (
        "1\\cdot 000",
        'spec.toml: x[1,1] = "1\\cdot 000": \\cdot between digit groups (1\\cdot 000) is not read as a product; write 1000, or 1 \\times 000 for a product',
    ),
    ("1_000", 'spec.toml: x[1,1] = "1_000": an underscore inside a number (1_000); write 1000'),
    (
        "0.\\overline{3}",
        'spec.toml: x[1,1] = "0.\\overline{3}": a repeating decimal (\\overline) is not read; write the fraction, such as 1/3',
    ),
    (
        "1\\frac{1}{2}",
        'spec.toml: x[1,1] = "1\\frac{1}{2}": a mixed number (1\\frac…) is not read; write 1 + \\frac{…}{…}, or 1 \\cdot \\frac{…}{…}',
    ),
    (
        "1\\quad 5",
        'spec.toml: x[1,1] = "1\\quad 5": two numbers side by side (1\\quad 5); write 1 \\cdot 5 for a product',
    ),
    (
        "e2",
        'spec.toml: x[1,1] = "e2": a number right after e with no operator (e2); write e \\cdot 2',
    ),
    (
        "\\log(100)",
        'spec.toml: x[1,1] = "\\log(100)": \\log needs an explicit base: write \\log_{10}(100), \\log_{2}(8) or \\ln(2)',
    ),
    (
        "1e999999999",
        'spec.toml: x[1,1] = "1e999999999": the exponent 999999999 is beyond the limit of ±1,000',
    ),
    ("10^{10^{10}}", 'spec.toml: x[1,1] = "10^{10^{10}}": an exponent beyond the limit of ±1,000'),
    (
        "\\binom{10^9}{5*10^8}",
        'spec.toml: x[1,1] = "\\binom{10^9}{5*10^8}": \\binom is not read (its values grow too fast); write the number',
    ),
    (
        "\\Gamma(5)",
        'spec.toml: x[1,1] = "\\Gamma(5)": \\Gamma is not read: functions are not, and a Greek letter must be a declared parameter ([parameters] Gamma = "real")',
    ),
    (
        "\\zeta(1)",
        'spec.toml: x[1,1] = "\\zeta(1)": \\zeta is not read: functions are not, and a Greek letter must be a declared parameter ([parameters] zeta = "real")',
    ),
    (
        "f(1)",
        'spec.toml: x[1,1] = "f(1)": f(…) looks like a function call; functions are not read (for a product write f \\cdot (…))',
    ),
    ("1\\;000", 'spec.toml: x[1,1] = "1\\;000": a space (\\;) inside a number; write 1000'),
    ("1\\:000", 'spec.toml: x[1,1] = "1\\:000": a space (\\:) inside a number; write 1000'),
    (
        "1\\!000",
        'spec.toml: x[1,1] = "1\\!000": a negative space (\\!) inside a number; write 1000',
    ),
    ("1\\ 000", 'spec.toml: x[1,1] = "1\\ 000": a space (\\ ) inside a number; write 1000'),
    (
        "1\\qquad 000",
        'spec.toml: x[1,1] = "1\\qquad 000": a space (\\qquad) inside a number; write 1000',
    ),
    ("1 000", 'spec.toml: x[1,1] = "1 000": a space inside a number; write 1000'),
    (
        "1\u2009000",
        'spec.toml: x[1,1] = "1\\u2009000": a space (U+2009) inside a number; write 1000',
    ),
    ("1\xa0000", 'spec.toml: x[1,1] = "1\\xa0000": a space (U+00A0) inside a number; write 1000'),
    ("1,000", 'spec.toml: x[1,1] = "1,000": a comma inside a number (1,000); write 1000'),
    ("0,5", 'spec.toml: x[1,1] = "0,5": a decimal comma (0,5); write 0.5'),
    ("1'000", "spec.toml: x[1,1] = \"1'000\": an apostrophe inside a number (1'000); write 1000"),
    ("12_345", 'spec.toml: x[1,1] = "12_345": an underscore inside a number (12_345); write 12345'),
    (
        "1\\cdot 500",
        'spec.toml: x[1,1] = "1\\cdot 500": \\cdot between digit groups (1\\cdot 500) is not read as a product; write 1500, or 1 \\times 500 for a product',
    ),
    (
        "2 3",
        'spec.toml: x[1,1] = "2 3": two numbers side by side (2 3); write 2 \\cdot 3 for a product',
    ),
    ("1.2.3", 'spec.toml: x[1,1] = "1.2.3": two decimal points in one number (1.2.3)'),
    ("1..2", 'spec.toml: x[1,1] = "1..2": two decimal points in one number (1..2)'),
    ("0x10", 'spec.toml: x[1,1] = "0x10": a hexadecimal number (0x10) is not read; write 16'),
    ("0XFF", 'spec.toml: x[1,1] = "0XFF": a hexadecimal number (0XFF) is not read; write 255'),
    ("0b101", 'spec.toml: x[1,1] = "0b101": a letter right after a number (0b); write 0 \\cdot b'),
    ("007", 'spec.toml: x[1,1] = "007": a leading zero (007); write 7'),
    ("00.5", 'spec.toml: x[1,1] = "00.5": a leading zero (00.5); write 0.5'),
    (
        "2e",
        'spec.toml: x[1,1] = "2e": a letter right after a number (2e); write 2 \\cdot e, or 2e3 for scientific notation',
    ),
    (
        "2E",
        'spec.toml: x[1,1] = "2E": a letter right after a number (2E); write 2 \\cdot E, or 2E3 for scientific notation',
    ),
    (
        "1e",
        'spec.toml: x[1,1] = "1e": a letter right after a number (1e); write 1 \\cdot e, or 1e3 for scientific notation',
    ),
    (
        "1e+",
        'spec.toml: x[1,1] = "1e+": a letter right after a number (1e); write 1 \\cdot e, or 1e3 for scientific notation',
    ),
    (
        "1.5e",
        'spec.toml: x[1,1] = "1.5e": a letter right after a number (1.5e); write 1.5 \\cdot e, or 1.5e3 for scientific notation',
    ),
    (
        "2tau",
        'spec.toml: x[1,1] = "2tau": a letter right after a number (2tau); write 2 \\cdot tau',
    ),
    ("3x", 'spec.toml: x[1,1] = "3x": a letter right after a number (3x); write 3 \\cdot x'),
    ("1e1001", 'spec.toml: x[1,1] = "1e1001": the exponent 1001 is beyond the limit of ±1,000'),
    ("1e-1001", 'spec.toml: x[1,1] = "1e-1001": the exponent 1001 is beyond the limit of ±1,000'),
    (
        "1.5E99999999999",
        'spec.toml: x[1,1] = "1.5E99999999999": the exponent 99999999999 is beyond the limit of ±1,000',
    ),
    (
        "abc",
        "spec.toml: x[1,1]: cannot read \"abc\" as a number ('abc' is not a declared parameter; declare it under [parameters], or put \\cdot between letters for a product)",
    ),
    (
        "ab",
        "spec.toml: x[1,1]: cannot read \"ab\" as a number ('ab' is not a declared parameter; declare it under [parameters], or put \\cdot between letters for a product)",
    ),
    ("pi", "spec.toml: x[1,1]: cannot read \"pi\" as a number ('pi' is not read; write \\pi)"),
    (
        "sqrt(2)",
        "spec.toml: x[1,1]: cannot read \"sqrt(2)\" as a number ('sqrt' is not read; write \\sqrt{2})",
    ),
    (
        "exp(1)",
        "spec.toml: x[1,1]: cannot read \"exp(1)\" as a number ('exp' is not read; write \\exp(1) or e^{1})",
    ),
    (
        "ln(2)",
        "spec.toml: x[1,1]: cannot read \"ln(2)\" as a number ('ln' is not read; write \\ln(2))",
    ),
    (
        "log(2)",
        "spec.toml: x[1,1]: cannot read \"log(2)\" as a number ('log' is not read; write \\log_{10}(100) or \\ln(2))",
    ),
    ("E", 'spec.toml: x[1,1] = "E": E is not read; write e for Euler\'s number'),
    (
        "i",
        'spec.toml: x[1,1] = "i": i is not read (it would be the imaginary unit); values are real',
    ),
    (
        "I",
        'spec.toml: x[1,1] = "I": I is not read (it would be the imaginary unit); values are real',
    ),
    ("e_{1}", 'spec.toml: x[1,1] = "e_{1}": e is Euler\'s number and takes no subscript'),
    (
        "\\alpha",
        'spec.toml: x[1,1] = "\\alpha": \\alpha is not read: functions are not, and a Greek letter must be a declared parameter ([parameters] alpha = "real")',
    ),
    (
        "\\tau",
        'spec.toml: x[1,1] = "\\tau": \\tau is not read: functions are not, and a Greek letter must be a declared parameter ([parameters] tau = "real")',
    ),
    ("x_{!}", 'spec.toml: x[1,1] = "x_{!}": the subscript of x_{!} is not a name'),
    (
        "x_12",
        'spec.toml: x[1,1] = "x_12": a number right after x_1 with no operator (x_12); write x_1 \\cdot 2',
    ),
    (
        "f (1)",
        'spec.toml: x[1,1] = "f (1)": f(…) looks like a function call; functions are not read (for a product write f \\cdot (…))',
    ),
    (
        "\\sin(1)",
        'spec.toml: x[1,1] = "\\sin(1)": \\sin is not read; a value takes numbers, + - \\cdot \\times /, \\frac, \\sqrt, e^{...}, \\exp, \\ln, \\log_{b}, \\pi and declared parameters',
    ),
    (
        "\\cos(0)",
        'spec.toml: x[1,1] = "\\cos(0)": \\cos is not read; a value takes numbers, + - \\cdot \\times /, \\frac, \\sqrt, e^{...}, \\exp, \\ln, \\log_{b}, \\pi and declared parameters',
    ),
    (
        "\\max(1, 2)",
        'spec.toml: x[1,1] = "\\max(1, 2)": \\max is not read; a value takes numbers, + - \\cdot \\times /, \\frac, \\sqrt, e^{...}, \\exp, \\ln, \\log_{b}, \\pi and declared parameters',
    ),
    (
        "\\operatorname{f}(1)",
        'spec.toml: x[1,1] = "\\operatorname{f}(1)": \\operatorname is not read; a value takes numbers, + - \\cdot \\times /, \\frac, \\sqrt, e^{...}, \\exp, \\ln, \\log_{b}, \\pi and declared parameters',
    ),
    (
        "\\text{one}",
        'spec.toml: x[1,1] = "\\text{one}": \\text is not read; a value takes numbers, + - \\cdot \\times /, \\frac, \\sqrt, e^{...}, \\exp, \\ln, \\log_{b}, \\pi and declared parameters',
    ),
    (
        "\\mathrm{e}",
        'spec.toml: x[1,1] = "\\mathrm{e}": \\mathrm is not read; a value takes numbers, + - \\cdot \\times /, \\frac, \\sqrt, e^{...}, \\exp, \\ln, \\log_{b}, \\pi and declared parameters',
    ),
    (
        "\\mathit{2}",
        'spec.toml: x[1,1] = "\\mathit{2}": \\mathit{…} takes a name, such as \\mathit{tau}',
    ),
    ("--1", 'spec.toml: x[1,1] = "--1": two signs in a row (--)'),
    ("1 + -2", 'spec.toml: x[1,1] = "1 + -2": two signs in a row (+-)'),
    ("+", 'spec.toml: x[1,1] = "+": the value ends too early (an operand is missing)'),
    ("1+", 'spec.toml: x[1,1] = "1+": the value ends too early (an operand is missing)'),
    ("*2", "spec.toml: x[1,1] = \"*2\": '*' is not read here"),
    ("2*", 'spec.toml: x[1,1] = "2*": the value ends too early (an operand is missing)'),
    (
        "2 \\cdot",
        'spec.toml: x[1,1] = "2 \\cdot": the value ends too early (an operand is missing)',
    ),
    ("(1", "spec.toml: x[1,1] = \"(1\": ( needs ')' but found the end"),
    ("1)", "spec.toml: x[1,1] = \"1)\": ')' is not read here"),
    ("{1", "spec.toml: x[1,1] = \"{1\": { needs '}' but found the end"),
    ("}", "spec.toml: x[1,1] = \"}\": '}' is not read here"),
    ("[1]", "spec.toml: x[1,1] = \"[1]\": '[' is not read here"),
    ("\\left(1", "spec.toml: x[1,1] = \"\\left(1\": \\left( needs '\\right' but found the end"),
    (
        "\\left[1\\right]",
        "spec.toml: x[1,1] = \"\\left[1\\right]\": \\left needs '(' but found '['",
    ),
    (
        "2^3^4",
        'spec.toml: x[1,1] = "2^3^4": a double exponent (a^b^c); write a^{b^{c}} or (a^{b})^{c}',
    ),
    (
        "e^23",
        'spec.toml: x[1,1] = "e^23": write the exponent in braces: ^{23} (LaTeX reads ^23 as ^2 3)',
    ),
    ("2^-1", 'spec.toml: x[1,1] = "2^-1": write the exponent in braces: ^{…}'),
    ("x^", 'spec.toml: x[1,1] = "x^": write the exponent in braces: ^{…}'),
    ("^2", "spec.toml: x[1,1] = \"^2\": '^' is not read here"),
    (
        "1/2 e",
        'spec.toml: x[1,1] = "1/2 e": a product right after / (2 e) is ambiguous; write \\frac{a}{b c} or \\frac{a}{b} c',
    ),
    ("\\frac12", "spec.toml: x[1,1] = \"\\frac12\": \\frac needs '{' but found '12'"),
    ("\\sqrt2", "spec.toml: x[1,1] = \"\\sqrt2\": \\sqrt needs '{' but found '2'"),
    (
        "\\sqrt[0]{2}",
        'spec.toml: x[1,1] = "\\sqrt[0]{2}": \\sqrt[n]{x} takes a whole number n from 1 to 1,000',
    ),
    (
        "\\sqrt[x]{2}",
        'spec.toml: x[1,1] = "\\sqrt[x]{2}": \\sqrt[n]{x} takes a whole number n from 1 to 1,000',
    ),
    (
        "\\sqrt[2000]{2}",
        'spec.toml: x[1,1] = "\\sqrt[2000]{2}": \\sqrt[n]{x} takes a whole number n from 1 to 1,000',
    ),
    ("\\log_{1}(5)", 'spec.toml: x[1,1] = "\\log_{1}(5)": \\log_{1} divides by zero (log 1 = 0)'),
    (
        "\\log_b(2)",
        'spec.toml: x[1,1] = "\\log_b(2)": write the base of \\log in braces: \\log_{10}(100)',
    ),
    ("\\ln 2", 'spec.toml: x[1,1] = "\\ln 2": \\ln needs its argument in parentheses: \\ln(2)'),
    ("\\exp 2", 'spec.toml: x[1,1] = "\\exp 2": \\exp needs its argument in parentheses: \\exp(2)'),
    ("|x|", "spec.toml: x[1,1] = \"|x|\": '|' is not read here"),
    ("5!", "spec.toml: x[1,1] = \"5!\": '!' is not read here"),
    ("50\\%", "spec.toml: x[1,1] = \"50\\%\": '\\%' is not read here"),
    ("1 = 1", "spec.toml: x[1,1] = \"1 = 1\": '=' is not read here"),
    (
        "\\approx 1",
        'spec.toml: x[1,1] = "\\approx 1": \\approx is not read; a value takes numbers, + - \\cdot \\times /, \\frac, \\sqrt, e^{...}, \\exp, \\ln, \\log_{b}, \\pi and declared parameters',
    ),
    (
        "1 \\pm 2",
        'spec.toml: x[1,1] = "1 \\pm 2": \\pm is not read; a value takes numbers, + - \\cdot \\times /, \\frac, \\sqrt, e^{...}, \\exp, \\ln, \\log_{b}, \\pi and declared parameters',
    ),
    ("$1$", "spec.toml: x[1,1] = \"$1$\": '$' is not read here"),
    ("1 & 2", 'spec.toml: x[1,1] = "1 & 2": a column break (&) where one number goes'),
    ("1 \\\\ 2", 'spec.toml: x[1,1] = "1 \\\\ 2": a row break (\\\\) where one number goes'),
    (
        "\\begin{bmatrix}1\\end{bmatrix}",
        'spec.toml: x[1,1] = "\\begin{bmatrix}1\\end{bmatrix}": a matrix where one number goes',
    ),
    ("1/0", 'spec.toml: x[1,1]: "1/0" divides by zero'),
    ("\\frac{1}{0}", 'spec.toml: x[1,1]: "\\frac{1}{0}" divides by zero'),
    ("\\frac{1}{1-1}", 'spec.toml: x[1,1]: "\\frac{1}{1-1}" divides by zero'),
    ("0^{-1}", 'spec.toml: x[1,1]: "0^{-1}" is not a finite number'),
    ("\\ln(0)", 'spec.toml: x[1,1]: "\\ln(0)" is not a finite number'),
    ("\\ln(-1)", 'spec.toml: x[1,1]: "\\ln(-1)" is not a real number'),
    ("\\sqrt{-1}", 'spec.toml: x[1,1]: "\\sqrt{-1}" is not a real number'),
    ("\\infty", 'spec.toml: x[1,1]: "\\infty" is not a finite number'),
    ("-\\infty", 'spec.toml: x[1,1]: "-\\infty" is not a finite number'),
    (
        "nan",
        "spec.toml: x[1,1]: cannot read \"nan\" as a number ('nan' is not read; NaN is not a number)",
    ),
    (
        "inf",
        "spec.toml: x[1,1]: cannot read \"inf\" as a number ('inf' is not read; infinity is not a finite number)",
    ),
    (
        "(10^{1000})^{1000}",
        'spec.toml: x[1,1] = "(10^{1000})^{1000}": a power of about 1,000,022 digits; at most 10,000 are computed',
    ),
    ("2^{100000}", 'spec.toml: x[1,1] = "2^{100000}": an exponent beyond the limit of ±1,000'),
    ("e^{e^{10}}", 'spec.toml: x[1,1] = "e^{e^{10}}": an exponent beyond the limit of ±1,000'),
    (
        "\\exp(10^{4})",
        'spec.toml: x[1,1] = "\\exp(10^{4})": an exponent beyond the limit of ±1,000',
    ),
    (
        "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))",
        'spec.toml: x[1,1] = "(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((…": nested more than 50 deep',
    ),
    (
        "\x1b[31m1",
        'spec.toml: x[1,1] = "\\x1b[31m1": a control character (\\x1b)',
    ),
    (
        "1\n2",
        'spec.toml: x[1,1] = "1\\n2": two numbers side by side (1\\n2); write 1 \\cdot 2 for a product',
    ),
    ("−1", "spec.toml: x[1,1] = \"−1\": the character '−' (U+2212) is not read"),
    ("×2", "spec.toml: x[1,1] = \"×2\": the character '×' (U+00D7) is not read"),
    ("\x00", 'spec.toml: x[1,1] = "\\x00": a control character (\\x00)'),
]
BMATRIX_ROWS = [
    ("0x10", 'spec.toml: x[1,1] = "0x10": a hexadecimal number (0x10) is not read; write 16'),
    ("1.2.3", 'spec.toml: x[1,1] = "1.2.3": two decimal points in one number (1.2.3)'),
    (
        "2 3",
        'spec.toml: x[1,1] = "2 3": two numbers side by side (2 3); write 2 \\cdot 3 for a product',
    ),
    (
        "ab",
        "spec.toml: x[1,1]: cannot read \"ab\" as a number ('ab' is not a declared parameter; declare it under [parameters], or put \\cdot between letters for a product)",
    ),
    ("1\\,000", 'spec.toml: x[1,1] = "1\\,000": a thin space (\\,) inside a number; write 1000'),
    (
        "\\Gamma(5)",
        'spec.toml: x[1,1] = "\\Gamma(5)": \\Gamma is not read: functions are not, and a Greek letter must be a declared parameter ([parameters] Gamma = "real")',
    ),
    (
        "e2",
        'spec.toml: x[1,1] = "e2": a number right after e with no operator (e2); write e \\cdot 2',
    ),
]

# (id, spec text, or how to make the spec path: fifo, devzero, dir, missing, big, latin1; argv;
# the message after "mha-symbolic: ")
OTHER_ROWS: list[tuple[str, str | None, list[str], str]] = [
    ("5000 digits", entry("1" * 5000), DERIVE,
     'spec.toml: x[1,1] = "11111111111111111111111111111111111111111111111111111111111…": '
     "a number of 5,000 digits; at most 1,000 are read"),
    ("1001 digits", entry("9" * 1001), DERIVE,
     'spec.toml: x[1,1] = "99999999999999999999999999999999999999999999999999999999999…": '
     "a number of 1,001 digits; at most 1,000 are read"),
    ("1001 decimals", entry("0." + "3" * 1001), DERIVE,
     'spec.toml: x[1,1] = "0.333333333333333333333333333333333333333333333333333333333…": '
     "a number of 1,002 digits; at most 1,000 are read"),
    ("root of 400 digits", entry("\\sqrt{" + "7" * 400 + "}"), DERIVE,
     'spec.toml: x[1,1] = "\\sqrt{77777777777777777777777777777777777777777777777777777…": '
     "a root of a number over 300 digits is not computed"),
    ("frac 60 deep", entry("\\frac{" * 60 + "1" + "}{2}" * 60), DERIVE,
     'spec.toml: x[1,1] = "\\frac{\\frac{\\frac{\\frac{\\frac{\\frac{\\frac{\\frac{\\frac{\\frac…": '
     "nested more than 50 deep"),
    ("parentheses 60 deep", entry("(" * 60 + "1" + ")" * 60), DERIVE,
     'spec.toml: x[1,1] = "(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((…": '
     "nested more than 50 deep"),
    ("frac 5000 deep", entry("\\frac{" * 5000 + "1" + "}{2}" * 5000), DERIVE,
     'spec.toml: x[1,1] = "\\frac{\\frac{\\frac{\\frac{\\frac{\\frac{\\frac{\\frac{\\frac{\\frac…": '
     "a value of 50,001 characters; at most 10,000 are read"),
    ("20000-term sum", entry("+".join(["1"] * 20000)), DERIVE,
     'spec.toml: x[1,1] = "1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1…": '
     "a value of 39,999 characters; at most 10,000 are read"),
    ("heads huge", "heads = 99999999999999\nx = [[1]]\n", DERIVE,
     "spec.toml: heads = 99999999999999 is more than the 64 a spec may have"),
    ("heads 65", "heads = 65\nx = [[1]]\n", DERIVE,
     "spec.toml: heads = 65 is more than the 64 a spec may have"),
    ("heads 0", "heads = 0\nx = [[1]]\n", DERIVE,
     "spec.toml: heads must be a positive integer, got 0"),
    ("heads text", 'heads = "2"\nx = [[1]]\n', DERIVE,
     "spec.toml: heads must be a positive integer, got '2'"),
    ("kv_heads huge", "heads = 2\nkv_heads = 99999999999\nx = [[1, 0]]\n", DERIVE,
     "spec.toml: kv_heads = 99999999999 does not divide heads = 2"),
    ("TOML float exponent", "x = [[1e999999999, 0], [0, 1]]\n", DERIVE,
     'spec.toml: x[1,1] = "1E+999999999": the exponent 999999999 is beyond the limit of ±1,000'),
    ("TOML float -exponent", "x = [[1e-999999999, 0], [0, 1]]\n", DERIVE,
     'spec.toml: x[1,1] = "1E-999999999": the exponent 999999999 is beyond the limit of ±1,000'),
    ("TOML float digits", "x = [[0." + "1" * 1200 + ", 0], [0, 1]]\n", DERIVE,
     'spec.toml: x[1,1] = "0.111111111111111111111111111111111111111111111111111111111…": '
     "a number of 1,201 digits; at most 1,000 are read"),
    ("TOML nan", "x = [[nan, 0], [0, 1]]\n", DERIVE,
     "spec.toml: x[1,1]: NaN is not a finite number"),
    ("TOML inf", "x = [[inf, 0], [0, 1]]\n", DERIVE,
     "spec.toml: x[1,1]: Infinity is not a finite number"),
    ("TOML arrays 5000 deep", "x = " + "[" * 5000 + "]" * 5000 + "\n", DERIVE,
     "spec.toml: invalid TOML: nested more than 16 levels deep"),
    ("TOML arrays 20 deep", "x = " + "[" * 20 + "1" + "]" * 20 + "\n", DERIVE,
     "spec.toml: invalid TOML: nested more than 16 levels deep"),
    ("TOML tables 3000 deep", with_x("claims = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n"),
     DERIVE, "spec.toml: invalid TOML: nested more than 16 levels deep"),
    ("matrix 5000 wide", "x = [[" + ", ".join(["0"] * 5000) + "]]\n", DERIVE,
     "spec.toml: x has shape (1, 5000); a spec matrix has at most 4,096 rows and columns and "
     "262,144 entries"),
    ("matrix 600 x 600", "x = [" + ", ".join(["[" + ", ".join(["0"] * 600) + "]"] * 600) + "]\n",
     DERIVE, "spec.toml: x has shape (600, 600); a spec matrix has at most 4,096 rows and "
     "columns and 262,144 entries"),
    ("scale separator", with_x('scale = "1\\\\,000"\n'), DERIVE,
     'spec.toml: scale = "1\\,000": a thin space (\\,) inside a number; write 1000'),
    ("scale hex", with_x('scale = "0x10"\n'), DERIVE,
     'spec.toml: scale = "0x10": a hexadecimal number (0x10) is not read; write 16'),
    ("scale huge", with_x('scale = "1e999999999"\n'), DERIVE,
     'spec.toml: scale = "1e999999999": the exponent 999999999 is beyond the limit of ±1,000'),
    ("mask bmatrix",
     with_x("mask = " + toml_string("\\begin{bmatrix} 1 & 0 \\\\ 1 & 0x1 \\end{bmatrix}") + "\n"),
     DERIVE, 'spec.toml: mask[2,2] = "0x1": a hexadecimal number (0x1) is not read; write 1'),
    ("mask entry", with_x('mask = [[1, 0], [1, "1\\\\,0"]]\n'), DERIVE,
     'spec.toml: mask[2,2] = "1\\,0": two numbers side by side (1\\,0); '
     "write 1 \\cdot 0 for a product"),
    ("b_q entry", with_x('[weights]\nb_q = ["1_0", 0]\n'), DERIVE,
     'spec.toml: b_q[1] = "1_0": an underscore inside a number (1_0); write 10'),
    ("w_o bmatrix",
     with_x("[weights]\nw_o = " + toml_string("\\begin{bmatrix} 1 & 0 \\\\ 0 & e2 \\end{bmatrix}")),
     DERIVE, 'spec.toml: w_o[2,2] = "e2": a number right after e with no operator (e2); '
     "write e \\cdot 2"),
    ("w_q entry", with_x('[weights]\nw_q = [[[1, "\\\\Gamma(5)"], [0, 1]]]\n'), DERIVE,
     'spec.toml: w_q[1][1,2] = "\\Gamma(5)": \\Gamma is not read: functions are not, and a '
     'Greek letter must be a declared parameter ([parameters] Gamma = "real")'),
    ("loss target",
     with_x('[loss]\nkind = "mse"\ntarget = [["0.\\\\overline{3}", 0], [0, 1]]\n'), DERIVE,
     'spec.toml: loss.target[1,1] = "0.\\overline{3}": a repeating decimal (\\overline) is not '
     "read; write the fraction, such as 1/3"),
    ("parameter misspelt", with_x('scale = "1/tauu"\n[parameters]\ntau = "positive"\n'), DERIVE,
     "spec.toml: scale: cannot read \"1/tauu\" as a number ('tauu' is not declared; "
     "did you mean 'tau'?)"),
    ("parameter called", with_x('scale = "tau(2)"\n[parameters]\ntau = "positive"\n'), DERIVE,
     'spec.toml: scale = "tau(2)": tau(…) looks like a function call; functions are not read '
     "(for a product write tau \\cdot (…))"),
    ("bmatrix not closed", "x = " + toml_string("\\begin{bmatrix} 1 & 0") + "\n", DERIVE,
     'spec.toml: x: cannot read "\\begin{bmatrix} 1 & 0" as a matrix'),
    ("bmatrix 2.4 MB",
     "x = " + toml_string("\\begin{bmatrix} " + " & ".join(["1"] * 600000) + " \\end{bmatrix}"),
     DERIVE, "spec.toml: x: a matrix of 2,400,027 characters; at most 1,000,000 are read"),
    ("claim 1 MB decimal", with_x('[claims]\n"x[1,1]" = "0.' + "1" * 1_000_000 + '"\n'), CHECK,
     "spec.toml: claim 'x[1,1]': a claimed value of 1,000,002 characters; "
     "at most 1,000,000 are read"),
    ("claim 5000 digits", with_x('[claims]\n"x[1,1]" = "0.' + "1" * 5000 + '"\n'), CHECK,
     "spec.toml: claim 'x[1,1]' = \"0.111111111111111111111111111111111111111111111111111111111…"
     '": a number of 5,001 digits; at most 1,000 are read'),
    ("claim exponent", with_x('[claims]\n"x[1,1]" = "7.3 \\\\times 10^{999999999}"\n'), CHECK,
     "spec.toml: claim 'x[1,1]' = \"7.3 \\times 10^{999999999}\": an exponent beyond the limit "
     "of ±1,000"),
    ("claim nested", with_x('[claims]\n"x" = "' + "[" * 3000 + "1" + "]" * 3000 + '"\n'), CHECK,
     "spec.toml: claim 'x': the claimed value is nested more than 50 deep"),
    ("claim separator", with_x('[claims]\n"x[1,1]" = "1\\\\,000"\n'), CHECK,
     "spec.toml: claim 'x[1,1]' = \"1 000\": a space inside a number; write 1000"),
    ("claim hex", with_x('[claims]\n"x" = "[[0x1, 0], [0, 1]]"\n'), CHECK,
     "spec.toml: claim 'x' = \"0x1\": a hexadecimal number (0x1) is not read; write 1"),
    ("claim mixed number",
     with_x('[claims]\n"x" = "\\\\begin{bmatrix} 1\\\\frac{1}{2} & 0 \\\\\\\\ 0 & 1 '
            '\\\\end{bmatrix}"\n'), CHECK,
     "spec.toml: claim 'x' = \"1\\frac{1}{2}\": a mixed number (1\\frac…) is not read; "
     "write 1 + \\frac{…}{…}, or 1 \\cdot \\frac{…}{…}"),
    ("claim log", with_x('[claims]\n"x[1,1]" = "\\\\log(10)"\n'), CHECK,
     "spec.toml: claim 'x[1,1]' = \"\\log(10)\": \\log needs an explicit base: write "
     "\\log_{10}(100), \\log_{2}(8) or \\ln(2)"),
    ("--limit huge", None, [*TEMPERATURE, "--limit", "tau=1e999999999"],
     'limit point = "1e999999999": the exponent 999999999 is beyond the limit of ±1,000'),
    ("--limit Gamma", None, [*TEMPERATURE, "--limit", "tau=\\Gamma(1)"],
     'limit point = "\\Gamma(1)": \\Gamma is not read: functions are not, and a Greek letter '
     'must be a declared parameter ([parameters] Gamma = "real")'),
    ("--limit hex", None, [*TEMPERATURE, "--limit", "tau=0x1"],
     'limit point = "0x1": a hexadecimal number (0x1) is not read; write 1'),
    ("--plot hex", None, [*TEMPERATURE, "--plot", "tau=0x1:2", "--plot-file", "p.png"],
     "--plot 'tau=0x1:2' = \"0x1\": a hexadecimal number (0x1) is not read; write 1"),
    ("--plot huge", None, [*TEMPERATURE, "--plot", "tau=1:1e999999", "--plot-file", "p.png"],
     "--plot 'tau=1:1e999999' = \"1e999999\": the exponent 999999 is beyond the limit of ±1,000"),
    ("a FIFO", "fifo", ["derive", "fifo"], "fifo: is not a regular file (a pipe or a device?)"),
    ("/dev/zero", "devzero", ["derive", "/dev/zero"],
     "/dev/zero: is not a regular file (a pipe or a device?)"),
    ("a folder", "dir", ["derive", "folder"], "folder: is a directory, not a spec file"),
    ("no file", "missing", ["derive", "missing.toml"], "missing.toml: no such file"),
    ("6 MB file", "big", ["derive", "spec.toml"],
     "spec.toml: is 6,000,011 bytes; at most 5,000,000 are read"),
    ("Latin-1 file", "latin1", ["derive", "spec.toml"],
     "spec.toml: cannot read: not UTF-8 text (invalid continuation byte at byte 12)"),
]  # fmt: skip

CASES = (
    [(f"x[1,1]={text!r}", entry(text), DERIVE, message) for text, message in ENTRY_ROWS]
    + [(f"bmatrix {text!r}", bmatrix(text), DERIVE, message) for text, message in BMATRIX_ROWS]
    + OTHER_ROWS
)


def _prepare(folder: Path, spec: str | None) -> None:
    """Write the spec (or make the odd path a case names) in ``folder``."""
    if spec == "fifo":
        os.mkfifo(folder / "fifo")
    elif spec == "dir":
        (folder / "folder").mkdir()
    elif spec == "big":
        (folder / "spec.toml").write_text("x = [[1]]\n" + "#" * 6_000_000 + "\n")
    elif spec == "latin1":
        (folder / "spec.toml").write_bytes('title = "café"\nx = [[1]]\n'.encode("latin-1"))
    elif spec not in (None, "devzero", "missing"):
        (folder / "spec.toml").write_text(spec, encoding="utf-8")


@pytest.fixture(scope="module")
def runner() -> Callable[[Path, list[str]], dict[str, Any]]:
    """Runs the command in a process forked from a warm interpreter (tests/forked.py)."""

    def run(folder: Path, argv: list[str]) -> dict[str, Any]:
        done = fork_command(argv, folder, timeout=TIMEOUT)
        return {
            "code": done.code,
            "stdout": done.stdout.decode("utf-8", "replace"),
            "stderr": done.stderr,
            "timed_out": done.code is None,
        }

    return run


@pytest.mark.parametrize(("spec", "argv", "message"), [c[1:] for c in CASES],
                         ids=[c[0][:60] for c in CASES])  # fmt: skip
def test_hostile_input_is_one_line_exit_2(runner, tmp_path, spec, argv, message):
    _prepare(tmp_path, spec)
    before = sorted(os.listdir(tmp_path))
    result = runner(tmp_path, argv)
    assert not result["timed_out"], f"no answer within {TIMEOUT} s"
    assert result["stderr"] == f"mha-symbolic: {message}\n"
    assert result["code"] == 2
    assert "Traceback" not in result["stderr"]
    assert result["stdout"] == ""
    assert sorted(os.listdir(tmp_path)) == before  # nothing written, not even a fragment


def test_the_table_is_large():
    assert len(CASES) >= 150
    assert len({c[0] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("row", [0, 3, 5, 9])  # 1\\,000, 1_000, 1\\frac{1}{2}, 1e999999999
def test_the_real_entry_point_answers_the_same(tmp_path, row):
    """`python -m mha_symbolic.cli` itself, in a subprocess (the table runs in forks)."""
    text, message = ENTRY_ROWS[row]
    (tmp_path / "spec.toml").write_text(entry(text), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "mha_symbolic.cli", *DERIVE],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=(TIMEOUT + 20) * WALL_FACTOR,  # the clock: only the last guard
        preexec_fn=processor_limit(TIMEOUT + 20),  # an interpreter start and the sympy import
    )
    assert (result.returncode, result.stderr) == (2, f"mha-symbolic: {message}\n")
    assert sorted(os.listdir(tmp_path)) == ["spec.toml"]


# Values that once crashed or hung and are valid: read to their true value, within the bound.
BIG_ENTRY = "x = [[10000000000000, 0], [0, 1]]\n"


def test_a_huge_score_derives_within_the_bound(runner, tmp_path):
    """x[1,1] = 10^13: a score of 10^26, weights e^{5*10^25 sqrt 2}/(1 + ...), printed 1.0000."""
    (tmp_path / "spec.toml").write_text(BIG_ENTRY, encoding="utf-8")
    result = runner(tmp_path, DERIVE)
    assert not result["timed_out"], f"no answer within {TIMEOUT} s"
    assert (result["code"], result["stderr"]) == (0, "wrote out-head1.svg\nwrote out.md\n")
    text = (tmp_path / "out.md").read_text(encoding="utf-8")
    assert r"\begin{bmatrix} 10000000000000 & 0 \\ 0 & 1 \end{bmatrix}" in text
    assert r"e^{50000000000000000000000000 \sqrt{2}}" in text


def test_claims_on_a_huge_score_are_judged_within_the_bound(runner, tmp_path):
    claims = (
        '[claims]\n"head1.weights[1,2]" = "0.00"\n"head1.weights[2,2]" = "0.67"\n'
        '"head1.weights[2,1]" = "0.34"\n'
    )
    (tmp_path / "spec.toml").write_text(BIG_ENTRY + claims, encoding="utf-8")
    result = runner(tmp_path, CHECK)
    assert not result["timed_out"], f"no answer within {TIMEOUT} s"
    assert "Traceback" not in result["stderr"]
    lines = result["stdout"].splitlines()
    assert lines[-1] == "spec.toml: 3 claims: 2 hold (0 exact, 2 rounded), 1 wrong"
    assert result["code"] == 1
