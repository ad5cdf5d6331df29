"""Attack round on the shown numbers: a probability the dice make exactly a half-step (15/16 =
93.75%) is shown the same whichever route computed it, float noise or not."""
from fractions import Fraction

import pytest

from conftest import run_cli
from workbench.numbers import fixed


def _half_up(exact: Fraction, digits: int) -> str:
    """``exact`` as a percentage with ``digits`` decimals, halves rounded up (as on paper)."""
    scaled = exact * 100 * 10 ** digits
    whole = int(scaled + Fraction(1, 2))
    text = f"{whole / 10 ** digits:.{digits}f}"
    return text + "%"


@pytest.mark.parametrize("noisy, exact", [
    (0.9374999999999994, Fraction(15, 16)),   # blades at 4 dice, summed from its pmf
    (0.9374999999999989, Fraction(15, 16)),   # fons-exploding's Trivial rung at 4 dice
    (0.28125000000000044, Fraction(9, 32)),
    (0.01875 - 3e-16, Fraction(3, 160)),
])
def test_a_half_step_under_float_noise_rounds_as_the_exact_number(noisy, exact):
    for digits in (0, 1, 2):
        assert fixed(noisy, digits, percent=True) == _half_up(exact, digits)


def test_fixed_keeps_every_digit_asked_for():
    assert fixed(0.123456789012345, 13, percent=True) == "12.3456789012345%"
    assert fixed(1 / 3, 12) == "0.333333333333"


def test_blades_table_and_pmf_agree_on_fifteen_sixteenths(capsys):
    """P(pass) of Blades at 4 dice is 1 - (1/2)**4 = 15/16 = 93.75%: the table (one decimal)
    shows 93.8%, as UWR's Easy rung with the very same odds does, and pmf shows 93.75%."""
    code, table, _ = run_cli(capsys, "table", "blades", "--pools", "4")
    assert code == 0 and "93.8%" in table and "93.7%" not in table
    code, uwr, _ = run_cli(capsys, "table", "uwr", "--pools", "4")
    assert code == 0 and "93.8%" in uwr.splitlines()[2]
    code, pmf, _ = run_cli(capsys, "pmf", "blades", "dice=4")
    assert code == 0 and "| p_pass     | 93.75%  |" in pmf


@pytest.mark.parametrize("style, digits, value, shown", [
    ("percent", 1, 0.9995, "> 99.9%"),            # 1999/2000: 99.95% rounds up to 100.0%
    ("percent", 1, 0.9994999999999999, "> 99.9%"),  # the same under float noise
    ("percent", 0, 0.995, "> 99%"),
    ("percent", 2, 0.99995, "> 99.99%"),
    ("digits", 3, 0.9995, "> 0.999"),
    ("percent", 1, 0.0005, "0.1%"),               # halves round up: 0.05% is shown 0.1%
    ("percent", 1, 0.99949, "99.9%"),
])
def test_a_probability_below_1_is_never_shown_as_certain(style, digits, value, shown):
    from workbench.export.tables import NumberFormat

    assert NumberFormat(style, digits).text(value) == shown


def test_a_table_never_shows_a_possible_failure_as_100_percent(capsys):
    """1d1000 + 1d2 misses 3 only on 1 and 1: P(total >= 3) = 1999/2000 = 99.95%."""
    code, out, _ = run_cli(capsys, "table", "(@dice)d1000+1d2", "--pools", "1",
                           "--condition", "total >= 3", "--format", "md")
    assert code == 0 and "100.0%" not in out and "> 99.9%" in out


def test_the_report_at_a_glance_rounds_as_the_tables_do():
    """The balance report's one-line ladders (P(pass), easiest to hardest) wrote Python's
    ``.1%``: Blades at 4 dice 93.7% beside UWR's Easy 93.8% for the same 15/16, 1/16 as 6.2%,
    and 0.99999 as 100.0%."""
    from workbench.report.sections import _glance, _percent
    from workbench.rules.registry import get_system

    frame = _glance([get_system("blades"), get_system("uwr")]).items[0].frame
    steps = list(frame["P(pass), easiest to hardest"])
    assert steps[0] == "pass 93.8%" and steps[1].startswith("Easy 93.8% → ")
    assert (_percent(1 / 16), _percent(0.99999), _percent(0.00001)) == ("6.3%", "> 99.9%", "< 0.1%")


def test_a_simulated_table_gives_every_probability_its_standard_error(capsys):
    """``--simulate`` tables gave the outcomes a stderr column, but the tiers and P(pass) (also
    estimated from the trials) none, as if they were exact."""
    import csv
    import io
    import math

    code, out, err = run_cli(capsys, "pmf", "unnamed", "d6=3", "d8=2", "--simulate",
                             "--trials", "10000", "--seed", "7", "--format", "csv")
    assert code == 0, err
    blocks = [list(csv.reader(io.StringIO(block))) for block in out.strip().split("\n\n")]
    tiers = next(b for b in blocks if b[0][0] == "tier")
    summary = next(b for b in blocks if b[0][0] == "quantity")
    assert tiers[0] == ["tier", "probability", "stderr"] and summary[0] == ["quantity", "value"]
    rows = dict(summary[1:])
    for p, stderr in [row[1:] for row in tiers[1:]] + [[rows["p_pass"], rows["p_pass_stderr"]]]:
        assert math.isclose(float(stderr), math.sqrt(float(p) * (1 - float(p)) / 10000), rel_tol=1e-9)
    code, json_out, _ = run_cli(capsys, "pmf", "unnamed", "d6=3", "d8=2", "--simulate",
                                "--trials", "10000", "--seed", "7", "--format", "json")
    import json
    pmf = {int(k): v for k, v in json.loads(json_out)["pmf"].items()}
    mean = sum(k * v for k, v in pmf.items())
    sd = math.sqrt(sum((k - mean) ** 2 * v for k, v in pmf.items()))
    assert math.isclose(float(rows["mean_stderr"]), sd / 100, rel_tol=1e-9)
    assert rows["trials"] == "10000" and rows["seed"] == "7"
    code, md, _ = run_cli(capsys, "pmf", "unnamed", "d6=3", "d8=2", "--simulate", "--trials",
                          "10000", "--seed", "7")
    assert "| tier                 | probability   | stderr   |" in md
    code, exact, _ = run_cli(capsys, "pmf", "unnamed", "d6=3", "d8=2")   # exact: no column
    assert "stderr" not in exact
