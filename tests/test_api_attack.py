"""The Python API beyond single checks, attacked as a designer would: opposed margins, result
objects built by hand, stateful models' arguments. Each test names the input that once gave a
wrong answer or a late, misnamed error."""
from __future__ import annotations

import itertools
import re
from collections import defaultdict

import numpy as np
import pytest

import workbench as wb
from workbench import Distribution, ParameterError, WorkbenchError


def brute_margin(actor: Distribution, reactor: Distribution, shift: int = 0) -> dict[int, float]:
    """P(actor - reactor - shift = m) over every pair of outcomes, by hand."""
    out: dict[int, float] = defaultdict(float)
    for (a, pa), (r, pr) in itertools.product(actor.items(), reactor.items()):
        out[a - r - shift] += pa * pr
    return {m: p for m, p in out.items() if p > 0}


def nonzero(dist: Distribution) -> dict[int, float]:
    return {o: p for o, p in dist.items() if p > 0}


# -- margin_distribution over outcomes with gaps ------------------------------------------
@pytest.mark.parametrize("system, params, stat", [
    ("savage-worlds", {"trait": "d6"}, "total"),       # exploding d6 + wild die: no 6, 12
    ("risk", {}, "total"),                             # -2, 0, 2
    ("cortex-prime", {"d6": 2, "d8": 1}, "kept"),      # 0 (hitches), then 2...
])
def test_margin_of_statistics_with_gaps_matches_brute_force(system, params, stat):
    # Before: margin_distribution read the outcomes as first, first+1, ... and so placed the
    # probabilities of (-2, 0, 2) at (-2, -1, 0): Risk's margin came out P(0) = 0.
    dist = wb.check(system, **params).stats[stat]
    assert list(dist.outcomes) != list(range(dist.outcomes[0], dist.outcomes[0] + len(dist)))
    margin = wb.margin_distribution(dist, dist, 1)
    want = brute_margin(dist, dist, 1)
    got = nonzero(margin)
    assert got.keys() == want.keys()
    assert all(got[m] == pytest.approx(want[m], abs=1e-12) for m in want)
    assert margin.mean == pytest.approx(sum(m * p for m, p in want.items()), abs=1e-9)


def test_margin_of_far_apart_outcomes_lists_the_possible_ones():
    # Before: {(0, 10**6) - (0, 10**6)} came out as -10**6, -10**6 + 1, -10**6 + 2.
    coin = Distribution((0, 10**6), (0.5, 0.5))
    assert wb.margin_distribution(coin, coin).to_dict() == {"-1000000": 0.25, "0": 0.5, "1000000": 0.25}


# -- Distributions built by hand -----------------------------------------------------------
@pytest.mark.parametrize("outcomes, probabilities, said", [
    ((1, 0), (0.9, 0.1), "outcome 0 after 1; allowed: whole-number outcomes in increasing order"),
    ((0, 0), (0.5, 0.5), "outcome 0 after 0; allowed: whole-number outcomes in increasing order, each once"),
    (("hit", "hit"), (0.5, 0.5), "outcomes ('hit', 'hit'); allowed: each outcome once"),
])
def test_distribution_refuses_what_its_readings_cannot_read(outcomes, probabilities, said):
    # Before: Distribution((1, 0), (0.9, 0.1)).at_least(1) said 0.0 (it is 0.9): at_least
    # searches the outcomes in order; Distribution((0, 0), ...)[0] read only the first.
    with pytest.raises(WorkbenchError, match="Distribution got ") as caught:
        Distribution(outcomes, probabilities)
    assert said in str(caught.value)


def test_distribution_in_order_reads_as_before():
    d = Distribution((-3, 0, 7), (0.25, 0.25, 0.5))
    assert d.at_least(0) == 0.75 and d.at_least(1) == 0.5 and d.mean == pytest.approx(2.75)
    assert Distribution((np.int64(1), np.int64(2)), (0.5, 0.5)).mean == 1.5
    assert Distribution(("NO!", "YES!"), (0.5, 0.5))["YES!"] == 0.5


# -- stateful models: every argument checked up front, under the function's own name ------
def test_burn_scene_checks_progress_before_any_exact_check(monkeypatch):
    # Before: progress="yes" was read only by the simulation loop, after the burn table's
    # exact checks (up to 200,000 of them), and the error named "burn scenes".
    import workbench.stateful.burn as burn

    def no_check(*args, **kwargs):
        raise AssertionError("an exact check ran before the arguments were checked")

    monkeypatch.setattr(burn, "check", no_check)
    scene = [{"traits": ["Nimble"], "aspects": ["Thief"], "d6": 1}] * 3
    with pytest.raises(ParameterError) as caught:
        wb.burn_scene(scene, traits={"Nimble": 2}, aspects={"Thief": 1}, trials=1000, seed=1,
                      progress="yes")
    assert str(caught.value) == "burn_scene: parameter 'progress' got 'yes'; allowed: True or False"


@pytest.mark.parametrize("call", [
    lambda **bad: wb.clock(4, "yellow", **bad),
    lambda **bad: wb.taken_out("yellow", **bad),
    lambda **bad: wb.rounds_until_hits("uwr", {"dice": 4}, {"dice": 3}, **bad),
], ids=["clock", "taken_out", "rounds_until_hits"])
@pytest.mark.parametrize("bad, said", [
    ({"trials": 0}, "parameter 'trials' got 0; allowed: a whole number from 1 to 1e10"),
    ({"trials": 10**12}, "parameter 'trials' got 1000000000000; allowed: a whole number from 1 to 1e10"),
    ({"seed": -1}, "parameter 'seed' got -1; allowed: a whole number from 0 to 2**64 - 1"),
    ({"progress": "yes"}, "parameter 'progress' got 'yes'; allowed: True or False"),
])
def test_exact_answers_do_not_ignore_bad_simulation_arguments(call, bad, said):
    # Before: clock(4, trials=0), taken_out(seed=-1), rounds_until_hits(..., progress="yes")
    # answered exactly (the default method) as if the argument were fine.
    with pytest.raises(ParameterError, match="^(clock|taken_out|rounds_until_hits): ") as caught:
        call(**bad)
    assert said in str(caught.value)


def test_exact_answers_with_good_simulation_arguments_are_unchanged():
    assert wb.clock(4, "yellow", trials=10, seed=3, progress=False).mean == pytest.approx(128 / 27)
    assert wb.rounds_until_hits("uwr", {"dice": 4}, {"dice": 3}, trials=5, seed=0).mean == pytest.approx(
        1 / wb.versus("uwr", {"dice": 4}, {"dice": 3}).p_actor)


# -- the explorer's settings ----------------------------------------------------------------
def _explorer():
    from workbench.widgets import EntrySettings, ExplorerSettings, SettingsError, figure
    return EntrySettings, ExplorerSettings, SettingsError, figure


def test_explorer_settings_read_values_as_the_rest_of_the_workbench():
    # Before: method="Exact" (which clock, taken_out and the CLI accept) was refused, and the
    # numpy index np.int64(1) was no baseline while True was one.
    EntrySettings, ExplorerSettings, SettingsError, _ = _explorer()
    entries = (EntrySettings("uwr"), EntrySettings("hkrpg", {"favor": 1}))
    settings = ExplorerSettings(entries, method=" Exact ", baseline=np.int64(1))
    assert settings.method == "exact" and settings.baseline == 1 and type(settings.baseline) is int
    with pytest.raises(SettingsError) as caught:
        ExplorerSettings(entries, baseline=True)
    assert str(caught.value) == ("explorer setting 'baseline' got True; allowed: a whole number "
                                 "from 0 to 1")


@pytest.mark.parametrize("make, setting, said", [
    (lambda E, X: X("uwr"), "entries", "got 'uwr'; allowed: EntrySettings"),
    (lambda E, X: X(("uwr", "fons")), "entries", "got 'uwr'; allowed: EntrySettings"),
    (lambda E, X: X(None), "entries", "got None; allowed: EntrySettings"),
    (lambda E, X: E("uwr", params=5), "params", "got 5; allowed: knob values as a mapping"),
    (lambda E, X: E("uwr", params=["dice"]), "params", "got 'dice'; allowed: (name, value) pairs"),
    (lambda E, X: E("uwr", rungs="Normal"), "rungs", "got 'Normal'; allowed: a list of rung names"),
    (lambda E, X: E("uwr", label=5), "label", "got 5; allowed: legend text, or None"),
])
def test_explorer_settings_refuse_lookalikes_when_made(make, setting, said):
    # Before: ExplorerSettings("uwr") held the entries 'u', 'w', 'r' and failed at drawing
    # with "'str' object has no attribute 'display_label'"; rungs="Normal" became the rungs
    # 'N', 'o', 'r'...; params=5 was a TypeError, None entries too.
    EntrySettings, ExplorerSettings, SettingsError, _ = _explorer()
    with pytest.raises(SettingsError) as caught:
        make(EntrySettings, ExplorerSettings)
    assert caught.value.setting == setting and said in str(caught.value)


def test_figure_of_something_else_names_what_it_wants():
    # Before: figure("uwr") was AttributeError: 'str' object has no attribute 'view'.
    EntrySettings, ExplorerSettings, SettingsError, figure = _explorer()
    with pytest.raises(SettingsError, match="setting 'settings' got 'uwr'; allowed: ExplorerSettings"):
        figure("uwr")
    one = ExplorerSettings(EntrySettings("fate"), view="outcomes")
    assert len(one.entries) == 1 and figure(one).data


# -- results show the seed that was used -------------------------------------------------
@pytest.mark.parametrize("run", [
    lambda seed: wb.burn_scene([{"d6": 2}], trials=1000, seed=seed),
    lambda seed: wb.drama_campaign([{"d6": 2}], trials=1000, seed=seed),
], ids=["burn_scene", "drama_campaign"])
@pytest.mark.parametrize("seed", [3455801360657544005, 2**64 - 1, 12345])
def test_campaign_results_show_their_seed_digit_for_digit(run, seed):
    # Before: the summary was read as one row (a float Series), so burn_scene(seed=
    # 3455801360657544005) showed "seed 3,455,801,360,657,544,192" (2**64 - 1 as
    # ...551,616): typed back in, that seed rolls other dice. Fresh seeds (seed=None) are
    # 64-bit, so almost every default run showed a wrong seed.
    result = run(seed)
    assert result.summary["seed"].iloc[0] == seed
    shown = re.search(r"\bseed ([0-9,]+)", repr(result)).group(1)
    assert shown == str(seed)
    assert f">{seed}<" in result._repr_html_()
    again = run(int(shown))
    assert again.summary.equals(result.summary)


# -- clock_table: the dice as clock() reads them ----------------------------------------------
def test_clock_table_reads_levels_like_clock():
    # Before: clock_table([4, 6], [0, "blue", -1]) gave the row "0" as NaN (the cells were
    # filed under the number 0, the rows under the text "0"); {"advantage": 1} was a
    # TypeError (unhashable dict). Each row is now the die's colour.
    table = wb.clock_table([4, 6], [0, "blue", -1])
    assert list(table.index) == ["yellow", "blue", "red"]
    for size in (4, 6):
        for level, colour in ((0, "yellow"), ("blue", "blue"), (-1, "red")):
            assert table.loc[colour, size] == pytest.approx(wb.clock(size, level).mean, rel=1e-12)
    assert not table.isna().any().any()
    one = wb.clock_table([4], [{"advantage": 1}], within=3)
    assert list(one.index) == ["green"] and one.iloc[0, 0] == pytest.approx(wb.clock(4, 1).within(3))


@pytest.mark.parametrize("segments, dice, said", [
    ([4, 4], None, "parameter 'segments' got [4, 4]; allowed: each size once (4 is listed twice)"),
    ([4], ["yellow", "Yellow"], "parameter 'dice' got ['yellow', 'Yellow']; allowed: each die once"),
    ([4], ["yellow", 0], "parameter 'dice' got ['yellow', 0]; allowed: each die once (yellow is listed twice)"),
    ([4], ["purple"], "parameter 'dice' got 'purple'; allowed: a die colour of erzahlspiel"),
])
def test_clock_table_refuses_a_die_or_size_twice(segments, dice, said):
    # Before: [4, 4] silently gave one column, ["yellow", 0] a NaN row.
    with pytest.raises(ParameterError, match="^clock_table: ") as caught:
        wb.clock_table(segments, dice)
    assert said in str(caught.value)


# -- conditions over statistics and parameters ------------------------------------------------
@pytest.mark.parametrize("system, params, condition, same_as", [
    ("dnd5e", {"advantage": True}, "advantage", "true"),
    ("dnd5e", {"advantage": False}, "advantage", "false"),
    ("dnd5e", {"advantage": True}, "advantage or critical", "true"),
    ("uwr", {"dice": 3, "half": True}, "half and total >= 1", "total >= 1"),
    ("uwr", {"dice": 3}, "half", "false"),
])
def test_a_yes_no_parameter_stands_alone_in_a_condition(system, params, condition, same_as):
    # Before: probability("advantage") was refused ("is a number, not a condition: compare
    # it") although "not advantage" and "advantage and critical" were read.
    result = wb.check(system, **params)
    assert result.probability(condition) == pytest.approx(result.probability(same_as), abs=1e-12)


def test_conditions_match_brute_force_over_every_face():
    # Every roll of 3d6 scored by hand (Shadowrun: 5 and 6 hit, 1s are ones).
    result = wb.check("shadowrun-5e", dice=3)
    faces = list(itertools.product(range(1, 7), repeat=3))
    conditions = {
        "hits >= 2": lambda h, o: h >= 2,
        "hits == 0 and ones >= 1": lambda h, o: h == 0 and o >= 1,
        "1 <= hits + ones <= 2": lambda h, o: 1 <= h + o <= 2,
        "ones > dice / 2": lambda h, o: o > 3 / 2,
        "hits // 2 == ones % 2": lambda h, o: h // 2 == o % 2,
        "max(hits, ones) == 1 if ones else hits == 3": lambda h, o: max(h, o) == 1 if o else h == 3,
    }
    for text, holds in conditions.items():
        count = sum(holds(sum(f >= 5 for f in roll), sum(f == 1 for f in roll)) for roll in faces)
        assert result.probability(text) == pytest.approx(count / len(faces), abs=1e-12), text


@pytest.mark.parametrize("system, params, condition, said", [
    ("uwr", {"dice": 3}, "total >= target",
     "parameter 'target' is None in this check; conditions read whole numbers"),
    # A choice among words is read compared with one of its words.
    ("savage-worlds", {}, "trait == 6",
     "'trait' is a choice among words (d4, d6, d8, d10, d12): compare it with one of them, "
     "e.g. trait == \"d4\""),
    ("arrata", {"stat": "B4"}, "quality == 1",
     "parameter 'quality' is 'B' in this check; conditions read whole numbers"),
])
def test_a_parameter_that_is_no_number_is_named_as_such(system, params, condition, said):
    # Before: "unknown name 'target'; names here: dice, favor, ..." although target is a
    # parameter of UWR (left unset here).
    with pytest.raises(WorkbenchError) as caught:
        wb.check(system, **params).probability(condition)
    assert str(caught.value).startswith(f"condition {condition!r}: {said}")
    assert "unknown name" not in str(caught.value)


# -- drama_campaign: a check's settings never silently overruled ---------------------------
def test_drama_pool_given_in_a_check_is_not_silently_overruled():
    # Before: drama_campaign([{"d6": 2, "drama_pool": "source_page"}]) ran with the seed's
    # pool maximum (10 for 4 players, tier 1) instead of the source page's 6, silently.
    with pytest.raises(ParameterError) as caught:
        wb.drama_campaign([{"d6": 2, "drama_pool": "source_page"}], trials=1000, seed=1)
    assert str(caught.value).startswith(
        "drama_campaign: parameter 'session 1 check 1: drama_pool' got 'source_page'; allowed: "
        "left out, or the campaign's 'seed' (give drama_pool to drama_campaign")
    same = wb.drama_campaign([{"d6": 2, "drama_pool": "Source_Page"}], drama_pool="source_page",
                             trials=1000, seed=1)
    assert same.summary["pool_max"].iloc[0] == wb.pool_maximum(4, 1, "source_page") == 6


def test_a_bad_number_in_a_policy_plan_is_named_by_its_place():
    # Before: "parameter 'policy' got 3" for the third check's entry.
    with pytest.raises(ParameterError, match=r"parameter 'policy\[2\]' got 3; allowed: a whole number from 0 to 2"):
        wb.drama_campaign([{"d6": 2}] * 3, policy=[0, 1, 3], trials=1000, seed=1)


def test_explorer_reads_its_arguments_as_its_settings_do():
    # Before: Explorer(method="Exact") or view="Curve" was a traitlets TraitError ("Invalid
    # selection: value not found"), Explorer("uwr") added the systems 'u', 'w', 'r', and
    # pool_sizes=[0] failed in the slider ("setting lower > upper").
    from workbench.widgets import Explorer
    explorer = Explorer("uwr", view=" Curve", method="Exact", trials="2e5", pool_sizes=[0])
    settings = explorer.settings()
    assert [e.system for e in settings.entries] == ["uwr"]
    assert (settings.view, settings.method, settings.trials, settings.pool_sizes) == (
        "curve", "exact", 200_000, (1,))


@pytest.mark.parametrize("bad, setting, said", [
    ({"view": "pie"}, "view", "got 'pie'; allowed: one of curve, outcomes, difference, "
                               "distribution, at_least, at_most"),
    ({"method": "guess"}, "method", "got 'guess'; allowed: one of exact, simulate"),
    ({"trials": "x"}, "trials", "got 'x'; allowed: a whole number from 1 to 1e10"),
    ({"pool_sizes": []}, "pool_sizes", "got []; allowed: one to 1001 pool sizes"),
])
def test_explorer_refuses_a_bad_argument_by_name(bad, setting, said):
    # Before: TraitError (view, method), ValueError "invalid literal for int()" (trials) and
    # "min() arg is an empty sequence" (pool_sizes).
    from workbench.widgets import Explorer, SettingsError
    with pytest.raises(SettingsError) as caught:
        Explorer(["uwr"], **bad)
    assert caught.value.setting == setting and said in str(caught.value)


def test_explorer_settings_read_the_view_as_the_explorer_does():
    # Before: ExplorerSettings(view="Curve") was refused while Explorer(view="Curve") drew.
    EntrySettings, ExplorerSettings, SettingsError, _ = _explorer()
    assert ExplorerSettings((EntrySettings("uwr"),), view=" Outcomes").view == "outcomes"


def test_burn_scene_reads_trait_names_as_the_character_keeps_them():
    # Before: traits={1: 2} with a check using traits [1] was refused: "parameter
    # 'scene[0].traits' got 1; allowed: one of the character's traits: 1" (kept as '1').
    by_number = wb.burn_scene([{"d6": 1, "traits": [1]}], traits={1: 2}, policy="always",
                              trials=2000, seed=4)
    by_text = wb.burn_scene([{"d6": 1, "traits": ["1"]}], traits={"1": 2}, policy="always",
                            trials=2000, seed=4)
    assert by_number.checks.equals(by_text.checks) and by_number.stacks.equals(by_text.stacks)
