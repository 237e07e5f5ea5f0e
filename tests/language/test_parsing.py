"""The safe parser: exact SymPy results, obligations as written, hostile input refused in one line."""
from __future__ import annotations

from pathlib import Path

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symcheck.core.errors import ParseError, SymcheckError
from symcheck.language.parsing import LIMITS, Parsed, parse_activation, parse_expression
from symcheck.language.symbols import A, B, Z

X = sympy.Symbol("x", real=True)
SIGMOID = {"sigmoid": lambda u: 1 / (1 + sympy.exp(-u))}
RELU = {"relu": lambda u: sympy.Max(u, 0)}
Q = sympy.Rational

# --- valid expressions ------------------------------------------------------------------------

VALID = [
    ("Max(z, z/5)", sympy.Max(Z, Z / 5)),
    ("Piecewise((2*z, z > 0), (z/2, True))", sympy.Piecewise((2 * Z, Z > 0), (Z / 2, True))),
    ("z*tanh(log(1+exp(z)))", Z * sympy.tanh(sympy.log(1 + sympy.exp(Z)))),
    ("0.01*z", Q(1, 100) * Z),
    ("1e-3*z", Q(1, 1000) * Z),
    ("1_000.5", Q(2001, 2)),
    ("0x10*z", 16 * Z),
    ("z^2", Z**2),
    ("z^2+1", Z**2 + 1),  # '^' is power with power's precedence, not z**3
    ("z/(1+exp(-z))", Z / (1 + sympy.exp(-Z))),
    ("z/(1+Abs(z))", Z / (1 + sympy.Abs(Z))),
    ("-sqrt(2/pi)/(erfc(1/sqrt(2))*exp(1/2) - 1)",
     -sympy.sqrt(2 / sympy.pi) / (sympy.erfc(1 / sympy.sqrt(2)) * sympy.exp(Q(1, 2)) - 1)),
    ("Piecewise((log(z), z > 0), (0, True))", sympy.Piecewise((sympy.log(Z), Z > 0), (0, True))),
    ("Piecewise((z, z > 0), (-z, z <= 0))", sympy.Piecewise((Z, Z > 0), (-Z, True))),
    ("Piecewise((z, (z > 0) & (z < 1)), (0, True))", sympy.Piecewise((Z, (Z > 0) & (Z < 1)), (0, True))),
    ("Piecewise((z, z > 0 and not z > 1), (0, True))", sympy.Piecewise((Z, (Z > 0) & (Z <= 1)), (0, True))),
    ("Piecewise((z, And(z > 0, z < 1)), (0, True))", sympy.Piecewise((Z, (Z > 0) & (Z < 1)), (0, True))),
    ("Piecewise((1, 0 < z < 1), (0, True))", sympy.Piecewise((1, (Z > 0) & (Z < 1)), (0, True))),
    ("Piecewise((1/z, z != 0), (0, True))", sympy.Piecewise((1 / Z, sympy.Ne(Z, 0)), (0, True))),
    ("Piecewise((1/z, Ne(z, 0)), (0, True))", sympy.Piecewise((1 / Z, sympy.Ne(Z, 0)), (0, True))),
    ("Piecewise((1, z > 0), (-1, z < 0), (0, Eq(z, 0)))",
     sympy.Piecewise((1, Z > 0), (-1, Z < 0), (0, sympy.Eq(Z, 0)))),
    ("sqrt(z**2+1)", sympy.sqrt(Z**2 + 1)),
    ("log(1+exp(z))", sympy.log(1 + sympy.exp(Z))),
    ("Abs(z)**(3/2)", sympy.Abs(Z) ** Q(3, 2)),
    ("exp(z)**2", sympy.exp(2 * Z)),
    ("2**z", 2**Z),
    ("abs(z) + max(z, 0) - min(z, 0)", sympy.Abs(Z) + sympy.Max(Z, 0) - sympy.Min(Z, 0)),
    ("Heaviside(z)*sign(z)", sympy.Heaviside(Z) * sympy.sign(Z)),
    ("sin(z)+cos(z)+sinh(z)+cosh(z)+asinh(z)+atan(z)+erf(z)", sympy.sin(Z) + sympy.cos(Z) + sympy.sinh(Z)
     + sympy.cosh(Z) + sympy.asinh(Z) + sympy.atan(Z) + sympy.erf(Z)),
    ("tan(atan(z))", Z),
    ("tan(1)*z", sympy.tan(1) * Z),
    ("log(exp(z))", Z),
    ("x*tanh(log(1 + exp(x)))", Z * sympy.tanh(sympy.log(1 + sympy.exp(Z)))),  # any one name is the variable
    ("0", sympy.Integer(0)),
    ("1", sympy.Integer(1)),
    ("pi*E", sympy.pi * sympy.E),
    ("(z\n + 1)", Z + 1),
    ("  z  ", Z),
]


@pytest.mark.parametrize(("text", "expected"), VALID, ids=[t for t, _ in VALID])
def test_valid_activation(text: str, expected: sympy.Expr) -> None:
    assert parse_activation(text) == expected


@pytest.mark.parametrize(("text", "functions", "expected"), [
    ("x*sigmoid(x)", SIGMOID, Z / (1 + sympy.exp(-Z))),
    ("relu(z)**2", RELU, sympy.Max(Z, 0) ** 2),
    ("sigmoid(relu(z))", {**SIGMOID, **RELU}, 1 / (1 + sympy.exp(-sympy.Max(Z, 0)))),
])
def test_extra_functions(text: str, functions: dict, expected: sympy.Expr) -> None:
    assert parse_activation(text, functions=functions) == expected


def test_extra_functions_add_no_obligations_but_their_arguments_do() -> None:
    assert parse_expression("sigmoid(z)", functions={"sigmoid": lambda u: 1 / u}).obligations == ()
    (ob,) = parse_expression("sigmoid(log(z))", functions=SIGMOID).obligations
    assert (ob.kind, ob.expr, ob.source) == ("positive", Z, "log(z)")


def test_extra_function_needs_one_argument() -> None:
    with pytest.raises(ParseError, match=r"^sigmoid\(\) takes 1 argument, got 2$"):
        parse_expression("sigmoid(z, z)", functions=SIGMOID)


def test_parse_expression_returns_frozen_parsed() -> None:
    parsed = parse_expression("z + 1")
    assert isinstance(parsed, Parsed)
    assert (parsed.expr, parsed.obligations, parsed.variables) == (Z + 1, (), (Z,))
    with pytest.raises(AttributeError):
        parsed.expr = Z  # type: ignore[misc]


def test_every_unknown_name_is_a_real_symbol_by_default() -> None:
    parsed = parse_expression("a*b + x")
    assert parsed.expr == A * B + X
    assert all(s.is_real for s in parsed.variables)


def test_symbols_mapping_restricts_variables() -> None:
    assert parse_expression("a*b", symbols={"a": A, "b": B}).expr == A * B
    with pytest.raises(ParseError, match=r"^unknown variable 'c'; expected one of: a, b$"):
        parse_expression("a*c", symbols={"a": A, "b": B})
    with pytest.raises(ParseError, match=r"^unknown variable 'alpah'; did you mean 'alpha'\?$"):
        parse_expression("alpah*a", symbols={"a": A, "alpha": sympy.Symbol("alpha")})


# --- obligations ---------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "kind", "expr", "source"), [
    ("z/z", "nonzero", Z, "division by z"),
    ("1/(z-1)", "nonzero", Z - 1, "division by (z - 1)"),
    ("z**-2", "nonzero", Z, "z**(-2)"),
    ("z**(1/3)", "nonnegative", Z, "z**(1/3)"),
    ("z**(-1/2)", "positive", Z, "z**(-1/2)"),
    ("z**z", "positive", Z, "z**z"),
    ("log(z)", "positive", Z, "log(z)"),
    ("sqrt(z - 1)", "nonnegative", Z - 1, "sqrt(z - 1)"),
    ("tan(2*z)", "cos-nonzero", 2 * Z, "tan(2*z)"),
])
def test_obligations_as_written(text: str, kind: str, expr: sympy.Expr, source: str) -> None:
    (ob,) = parse_expression(text).obligations
    assert (ob.kind, ob.expr, ob.source, ob.region) == (kind, expr, source, sympy.true)


def test_integer_powers_need_nothing() -> None:
    assert parse_expression("z**2 + z**0 + (z**3)**2").obligations == ()


def test_piecewise_branches_set_the_region() -> None:
    parsed = parse_expression("Piecewise((log(z), z > 0), (1/z, z < -1), (0, True))")
    log_ob, div_ob = parsed.obligations
    assert log_ob.region == (Z > 0)
    assert div_ob.region == sympy.And(Z < -1, Z <= 0)
    assert div_ob.region.as_set() == sympy.Interval.open(-sympy.oo, -1)


def test_piecewise_without_true_records_coverage() -> None:
    (ob,) = parse_expression("Piecewise((z, z > 0))").obligations
    assert ob.kind == "covered" and ob.region == (Z <= 0)


def test_printed_sympy_parses_back() -> None:
    for text in ["Piecewise((z, z > 0), (z/100, True))", "Piecewise((1/z, z != 0), (0, True))",
                 "z*tanh(log(1 + exp(z)))", "Max(z, z/5)", "z*(erf(sqrt(2)*z/2) + 1)/2"]:
        expr = parse_activation(text)
        assert parse_activation(str(expr)) == expr


# --- hostile and invalid input --------------------------------------------------------------

PINNED = [
    ("__import__('os').system('echo hi')",
     "name '__import__' is not allowed: names starting with '_' are reserved"),
    ("().__class__.__bases__[0].__subclasses__()", "attribute access is not allowed: '__class__'"),
    ("z.__class__", "attribute access is not allowed: '__class__'"),
    ("z.real", "attribute access is not allowed: 'real'"),
    ("lambda: 1", "lambda expressions are not allowed"),
    ("[x for x in ()]", "comprehensions are not allowed"),
    ('"a"', "strings are not allowed: 'a'"),
    ("f'{z}'", "f-strings are not allowed"),
    ("(x := 1)", "assignment expressions (:=) are not allowed"),
    ("z[0]", "subscripts are not allowed"),
    ("exp(*z)", "starred arguments are not allowed"),
    ("exp(z=1)", "keyword arguments are not allowed: 'z='"),
    ("z % 2", "operator '%' is not allowed"),
    ("z if z > 0 else 0", "conditional expressions are not allowed; use Piecewise((a, cond), (b, True))"),
    ("a__b", "name 'a__b' is not allowed: names containing '__' are reserved"),
    ("9**9**9**9",
     "exponent 387420489 is not allowed: a numeric exponent must be a fraction p/q with |p| <= 100 and q <= 100"),
    ("10**10**10",
     "exponent 10000000000 is not allowed: a numeric exponent must be a fraction p/q with |p| <= 100 and q <= 100"),
    ("(z**100)**100", "nested powers too large: total exponent 10000 exceeds 1000"),
    ("((z**50)**50)**50", "nested powers too large: total exponent 2500 exceeds 1000"),
    ("(1e300*z)**100", "power too large: (1e300*z)**100 would need about 99800 bits (limit 10000)"),
    ("z**pi",
     "exponent pi is not allowed: a numeric exponent must be a fraction p/q with |p| <= 100 and q <= 100"),
    ("1e99999", "number literal out of range: 1e99999"),
    ("(" * 500 + "z" + ")" * 500, "expression too long: 1001 characters (limit 1000)"),
    ("(" * 31 + "z" + ")" * 31, "expression nested too deeply: more than 30 levels of brackets"),
    ("-" * 5000 + "z", "expression too long: 5001 characters (limit 1000)"),
    ("-" * 500 + "z", "expression nested too deeply: more than 100 levels"),
    ("Max(" + ",".join(["z"] * 400) + ")", "expression too large: more than 400 nodes"),
    ("+".join(["z"] * 300), "expression nested too deeply: more than 100 levels"),
    ("", "empty expression"),
    ("   ", "empty expression"),
    ("z\x00", "non-printable character '\\x00' at position 1"),
    ("z +", "syntax error: invalid syntax"),
    ("Max($)", "syntax error at column 5: invalid syntax"),
    ("(z\n+", "syntax error at column 1: '(' was never closed"),
    ("(z,\n$)", "syntax error at line 2, column 1: invalid syntax"),
    ("z + y", "expected one variable, found 2: y, z; if y is a parameter, declare it with --param "
              "(e.g. --param \"y>0\", or params={'y': 'y>0'} in Python)"),
    ("x - x + y", "expected one variable, found 2: x, y; if y is a parameter, declare it with --param "
                  "(e.g. --param \"y>0\", or params={'y': 'y>0'} in Python)"),  # as written, not as simplified
    ("1j*z", "not real-valued: imaginary number 1j"),
    ("Max(z, sqrt(-1))", "not real-valued: Max(z, sqrt(-1)) compares a number that is not real"),
    ("tanhh(z)", "unknown function 'tanhh'; did you mean 'tanh'?"),
    ("qux(z)", "unknown function 'qux'"),  # 'foo' is now close to 'floor'
    ("exp(z, 2)", "exp() takes 1 argument, got 2"),
    ("log(z, 2)", "log() takes 1 argument, got 2"),
    ("Max(z)", "Max() takes at least 2 arguments, got 1"),
    ("exp", "'exp' is a function; call it, as in exp(z)"),
    ("Piecewise((z, z > 0), z)", "Piecewise arguments must be (expression, condition) pairs"),
    ("Piecewise((z, z), (0, True))",
     "expected a condition (a comparison, And/Or/Not, True or False), got 'z'"),
    ("z > 0", "a comparison cannot be used as a number: 'z > 0'"),
    ("True", "a condition cannot be used as a number: True"),
    ("(1, 2)", "a tuple is only allowed as a Piecewise (expression, condition) pair"),
    ("Piecewise((z, z > 0 & z < 1), (0, True))",
     "'&' joins conditions, not numbers; put parentheses around comparisons, as in (z > 0) & (z < 1)"),
]


@pytest.mark.parametrize(("text", "message"), PINNED, ids=[repr(t[:40]) for t, _ in PINNED])
def test_refused_with_exact_message(text: str, message: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_activation(text)
    assert str(info.value) == message
    assert "\n" not in str(info.value)
    assert info.value.text == text


@pytest.mark.parametrize("text", ["9**9**9**9", "10**10**10", "2**2**2**2**2**2", "(10**300)**(1/99)",
                                  "((z**30)**30)**30", "1e300**100", "z" + "**z" * 200])
def test_huge_powers_fail_fast(text: str) -> None:
    # fast = refused by a static limit before anything is built, not by the build-time safety net
    # (which would mean SymPy started computing the number); no wall-clock threshold
    with pytest.raises(ParseError) as info:
        parse_activation(text)
    assert "too expensive to build" not in str(info.value)
    assert any(limit in str(info.value) for limit in ("is not allowed", "too large", "too deeply")), info.value


def test_parse_errors_are_value_errors_too() -> None:
    with pytest.raises(ValueError):
        parse_activation("z.__class__")


def test_no_code_runs(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    attempts = [
        f"__import__('os').system('touch {marker}')",
        f"exec(\"open('{marker}', 'w')\")",
        f"eval(\"open('{marker}', 'w')\")",
        f"open('{marker}', 'w')",
        f"(lambda: open('{marker}', 'w'))()",
        f"[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == 'Popen'][0](['touch', '{marker}'])",
        f"z + sympify(\"__import__('os').system('touch {marker}')\")",
    ]
    for text in attempts:
        with pytest.raises(ParseError):
            parse_activation(text)
    assert not marker.exists()


def test_limits_are_published() -> None:
    assert (LIMITS.max_length, LIMITS.max_depth, LIMITS.max_nodes) == (1000, 30, 400)
    assert LIMITS.max_exponent == 100 and LIMITS.max_total_exponent == 1000


def test_exact_limits_are_accepted() -> None:
    assert parse_activation("(" * 30 + "z" + ")" * 30) == Z
    assert parse_activation("z**100") == Z**100
    assert parse_activation("(z**10)**100") == Z**1000
    assert parse_activation("1e300*z") == 10**300 * Z


# --- speed ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "z/(1+exp(-z))", "z*tanh(log(1+exp(z)))", "z/(1+Abs(z))",
    "-sqrt(2/pi)/(erfc(1/sqrt(2))*exp(1/2) - 1)", "Max(z, z/5)", "z*(1 + erf(z/sqrt(2)))/2",
])
def test_catalogue_expressions_take_the_fast_path(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A catalogue activation's definedness is proved by assumptions or certified ranges alone:
    no case split and no solver (the slow path; its time is measured by benchmarks/bench_cli.py,
    never asserted here)."""
    from symcheck.language import definedness

    slow: list[str] = []
    for name in ("_decide_by_cases", "_violation_set"):
        real = getattr(definedness, name)

        def spy(*args: object, _real=real, _name=name, **kwargs: object) -> object:
            slow.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(definedness, name, spy)
    parse_activation(text)
    assert slow == [], f"{text}: definedness took the slow path ({slow})"


# --- properties ----------------------------------------------------------------------------------

SEEDS = [text for text, _ in VALID] + ["log(z)", "tan(z)", "Piecewise((z, z > 0))", "x*sigmoid(x)"]
TOKENS = list("z()+-*/^,.<>=!&|~ 0123456789_[]'\"") + [
    "**", "exp", "log", "sqrt", "tan", "Piecewise", "True", "pi", "E", "Max", "1e300", "1e-3", "(z, z>0)",
    "__", ".__class__", "lambda", "sigmoid", "9**9", "j",
]


@st.composite
def mutations(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        piece = draw(st.sampled_from(TOKENS))
        text = draw(st.sampled_from([text[:at] + piece + text[at:], text[:at] + text[at + 1:],
                                     text[:at] + piece + text[at + 1:]]))
    return text


def _only_symcheck_errors(text: str) -> None:
    try:
        result = parse_activation(text, functions=SIGMOID)
    except SymcheckError as err:
        assert str(err) and "\n" not in str(err)
    else:
        assert result.free_symbols <= {Z}


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=60))
def test_random_text_raises_only_symcheck_errors(text: str) -> None:
    _only_symcheck_errors(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations())
def test_mutated_expressions_raise_only_symcheck_errors(text: str) -> None:
    _only_symcheck_errors(text)
