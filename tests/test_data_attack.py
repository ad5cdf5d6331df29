"""A designer's own data files, attacked: keys combined in ways data/README.md does not show,
checked against brute force over every roll, and odd files that must be refused clearly."""
from __future__ import annotations

import itertools
import textwrap
from collections import Counter
from fractions import Fraction

import pytest

import workbench as wb
from workbench.errors import DataFileError

from conftest import pool_toml


def _write(tmp_path, text: str, name: str = "mine.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def _brute(dice, outcome) -> dict:
    """outcome -> exact probability over every roll of ``dice`` (a list of face lists)."""
    shares: Counter = Counter()
    rolls = list(itertools.product(*dice))
    for roll in rolls:
        shares[outcome(roll)] += 1
    return {k: Fraction(v, len(rolls)) for k, v in shares.items()}


def _shares(distribution) -> dict:
    return {k: float(p) for k, p in zip(distribution.outcomes, distribution.probabilities) if p > 0}


def _assert_same(distribution, brute) -> None:
    got = _shares(distribution)
    assert set(got) == {k for k, v in brute.items() if v > 0}
    for k, v in brute.items():
        assert got[k] == pytest.approx(float(v), abs=1e-12), k


# --- a variant that replaces the tiers of a file that ranks them with tier_order ----------

def test_variant_replacing_the_tiers_of_a_ranked_file_ranks_its_own_tiers(tmp_path):
    # Blades ranks its tiers with tier_order; a variant with two tiers of its own was refused
    # with "tier_order ['Bad outcome', ...]: 'Bad outcome' is no tier", a key it never wrote.
    path = _write(tmp_path, """
        base = "blades"
        id = "blades-two-tiers"
        name = "Blades, hit or miss"

        [[tiers]]
        name = "Miss"
        max = 4

        [[tiers]]
        name = "Hit"
        min = 5
        """)
    tiers = wb.check(path, dice=2).tiers
    assert tiers.outcomes == ("Miss", "Hit")
    brute = _brute([range(1, 7)] * 2, lambda roll: "Hit" if max(roll) >= 5 else "Miss")
    _assert_same(tiers, brute)


def test_variant_keeping_the_tiers_may_rerank_them_and_inherits_the_ranking_otherwise(tmp_path):
    kept = _write(tmp_path, """
        base = "blades"
        id = "blades-kept"
        name = "Blades, 6s explode nowhere"
        """, "kept.toml")
    assert wb.check(kept).tiers.outcomes == wb.check("blades").tiers.outcomes
    reranked = _write(tmp_path, """
        base = "blades"
        id = "blades-reranked"
        name = "Blades, ranked backwards"
        tier_order = ["Critical", "Full success", "Partial success", "Bad outcome"]
        """, "reranked.toml")
    assert wb.check(reranked).tiers.outcomes == ("Critical", "Full success", "Partial success",
                                                 "Bad outcome")


def test_variant_with_new_tiers_and_its_own_tier_order(tmp_path):
    path = _write(tmp_path, """
        base = "blades"
        id = "blades-fumble"
        name = "Blades with fumbles"
        tier_order = ["Fumble", "Miss", "Hit"]

        [[tiers]]
        name = "Fumble"
        condition = "dice > 0 and highest == 1"

        [[tiers]]
        name = "Hit"
        min = 5

        [[tiers]]
        name = "Miss"
        max = 4
        """)
    tiers = wb.check(path, dice=2).tiers
    assert tiers.outcomes == ("Fumble", "Miss", "Hit")
    brute = _brute([range(1, 7)] * 2, lambda roll: "Fumble" if max(roll) == 1
                   else "Hit" if max(roll) >= 5 else "Miss")
    _assert_same(tiers, brute)


# --- names that are words of the expression language -------------------------------------

def _file(tmp_path, top="", die="", rest=""):
    return _write(tmp_path, pool_toml("mine", "Mine", top=top, die="sides = 6\n" + die, most=5,
                                      more=textwrap.dedent(rest)))


def test_a_statistic_named_true_is_refused_instead_of_read_as_the_constant(tmp_path):
    # Before: pass_if = "true" read the constant, not the statistic: P(pass) was 1 for a
    # statistic that is never true.
    path = _file(tmp_path, top='pass_if = "true"', rest="""
        [stats.true]
        expression = "total > 100"
        """)
    with pytest.raises(DataFileError) as err:
        wb.check(path)
    text = str(err.value)
    assert str(path) in text and "'stats.true'" in text
    assert "'true'" in text and "and, or, not, if, else, true, false" in text and "choose another" in text


@pytest.mark.parametrize("where, top, die, rest", [
    ("stats.and", "", "", '[stats.and]\nsum = "value"\n'),
    ("dice.d6.counts.or", "", 'counts = { or = "face == 1" }', ""),
    ("params.not", 'total = "not + 1"', "", "[params.not]\ndefault = 1\nmin = 0\nmax = 3\n"),
])
def test_counts_statistics_and_parameters_named_like_keywords_are_refused(tmp_path, where, top, die,
                                                                          rest):
    path = _file(tmp_path, top=top, die=die, rest=rest)
    with pytest.raises(DataFileError) as err:
        wb.check(path)
    text = str(err.value)
    assert str(path) in text and f"'{where}'" in text and "choose another" in text
    assert f"'{where.rsplit('.', 1)[1]}'" in text


def test_a_count_named_like_a_parameter_names_its_entry(tmp_path):
    path = _file(tmp_path, die='counts = { dice = "face >= 5" }')
    with pytest.raises(DataFileError) as err:
        wb.check(path)
    assert "'dice.d6.counts.dice'" in str(err.value) and "already a parameter" in str(err.value)


def test_tier_order_in_a_file_without_tiers_says_there_are_none(tmp_path):
    # Before: "allowed: every tier's name once, worst first ( in some order)".
    path = _file(tmp_path, top='tier_order = ["Fail", "Pass"]')
    with pytest.raises(DataFileError) as err:
        wb.check(path)
    text = str(err.value)
    assert str(path) in text and "['Fail', 'Pass']" in text and "'Fail' is no tier" in text
    assert "the file has no [[tiers]] to rank" in text and "( in some order)" not in text


# --- a variant whose base never loads -----------------------------------------------------

@pytest.fixture
def variants_folder(tmp_path, monkeypatch):
    """A WORKBENCH_PATH folder with a variants/ folder; the catalogue is read again after."""
    from workbench.rules import registry
    (tmp_path / "variants").mkdir()
    monkeypatch.setenv("WORKBENCH_PATH", str(tmp_path))
    registry.reload()
    yield tmp_path / "variants"
    monkeypatch.undo()
    registry.reload()


def test_a_variant_naming_itself_as_base_says_so(variants_folder):
    # Before: "unknown system 'mine'", while the file itself is 'mine'.
    path = _write(variants_folder, 'base = "Mine"\nid = "mine"\nname = "Mine"\n')
    for load in (wb.check, lambda _: wb.check(path)):
        with pytest.raises(DataFileError) as err:
            load("mine")
        text = str(err.value)
        assert str(path) in text and "'base'" in text and "'Mine' is this file's own id" in text
        assert "unknown system" not in text and "allowed: the id of another system" in text


def test_variants_naming_each_other_as_base_name_the_loop(variants_folder):
    _write(variants_folder, 'base = "b"\nid = "a"\nname = "A"\n', "a.toml")
    b = _write(variants_folder, 'base = "a"\nid = "b"\nname = "B"\n', "b.toml")
    with pytest.raises(DataFileError) as err:
        wb.check("a")
    text = str(err.value)
    assert str(b) in text and "'base'" in text and "(a -> b -> a)" in text
    assert "unknown system" not in text


def test_a_ceiling_beyond_a_billion_is_refused_as_a_floor_is(tmp_path):
    # Before: floor = 10**18 was refused, ceiling = -10**18 loaded and every total read -10**18.
    path = _file(tmp_path, top="ceiling = -1000000000000000000")
    with pytest.raises(DataFileError) as err:
        wb.check(path)
    text = str(err.value)
    assert str(path) in text and "'ceiling'" in text and "1000000000000000000" in text
    assert "less than or equal to 1000000000" in text or "greater than or equal to -1000000000" in text


# --- a variant that numbers a die another way ---------------------------------------------

def test_a_variant_giving_faces_to_a_die_of_sides_replaces_them(tmp_path):
    # Blades' d6 is `sides = 6`; a variant writing `faces` for it was refused with "needs
    # exactly one of faces, sides or percentile; got faces, sides" although it wrote one.
    path = _write(tmp_path, """
        base = "blades"
        id = "blades-d8"
        name = "Blades with d8s whose 7 and 8 read 6"

        [dice.d6]
        faces = [1, 2, 3, 4, 5, 6, 6, 6]
        """)
    result = wb.check(path, dice=2)
    values = [1, 2, 3, 4, 5, 6, 6, 6]

    def tier(roll):          # faces 1..8; a critical is two faces numbered 6 (counts read `face`)
        top = max(values[f - 1] for f in roll)
        return ("Critical" if roll.count(6) >= 2 else "Full success" if top == 6
                else "Partial success" if top >= 4 else "Bad outcome")
    _assert_same(result.tiers, _brute([range(1, 9)] * 2, tier))
    _assert_same(result.pmf, _brute([values] * 2, max))


def test_a_variant_giving_sides_to_a_die_of_faces_replaces_them(tmp_path):
    path = _write(tmp_path, """
        base = "uwr"
        id = "uwr-d4"
        name = "UWR on d4s"

        [dice.d6]
        sides = 4
        """)
    _assert_same(wb.check(path, dice=2).pmf, _brute([range(1, 5)] * 2, sum))


# --- pass_if with a target the condition cannot see ---------------------------------------

def _glitch(pass_if: str, more: str = "") -> str:
    """d6s counting ones, a target (default 5) and ``pass_if``; ``more`` at the end."""
    return pool_toml("mine", "Mine", top=f'pass_if = "{pass_if}"',
                     die='sides = 6\ncounts = { ones = "face == 1" }', more='''
[params.target]
default = 5
min = 0
max = 20
effect = "target"
''' + more)


def test_pass_if_reading_the_target_matches_brute_force(tmp_path):
    path = _write(tmp_path, _glitch("total >= target and ones == 0", ""))
    for target in (5, 7):
        brute = _brute([range(1, 7)] * 2, lambda roll: sum(roll) >= target and 1 not in roll)
        assert wb.check(path, dice=2, target=target).p_pass == pytest.approx(float(brute[True]), abs=1e-12)


def test_add_to_target_beside_pass_if_is_refused_instead_of_ignored(tmp_path):
    # Before: Hard (+2 to the target) moved the margin but not P(pass): 2/3 at target 5 with
    # and without it, where brute force gives 19/36 for the target 7 it means.
    path = _write(tmp_path, _glitch("total >= target and ones == 0", """
    [params.hard]
    default = 0
    min = 0
    max = 5
    effect = { add_to_target = 2 }
    """))
    with pytest.raises(DataFileError) as err:
        wb.check(path, dice=2, hard=1)
    text = str(err.value)
    assert str(path) in text and "'params.hard.effect[0].add_to_target'" in text
    assert "pass_if" in text and "would change nothing" in text and "allowed:" in text


@pytest.mark.parametrize("pass_if, refused", [
    ("total >= 8", True),
    ("ok", False),                   # read through a statistic
    ("total >= 0", False),           # read through the total
])
def test_a_target_pass_if_never_reads_is_refused(tmp_path, pass_if, refused):
    more = '[stats.ok]\nexpression = "total >= target"\n'
    text = _glitch(pass_if, more)
    if pass_if == "total >= 0":
        text = text.replace('pass_if = "total >= 0"', 'pass_if = "total >= 0"\ntotal = "ones - target"')
    path = _write(tmp_path, text)
    if not refused:
        assert wb.check(path, dice=2, target=3).p_pass is not None
        return
    with pytest.raises(DataFileError) as err:
        wb.check(path, dice=2, target=3)
    text = str(err.value)
    assert "'params.target.effect[0].target'" in text and "does not read 'target'" in text
    assert "'total >= 8'" in text


@pytest.mark.parametrize("where, die, rest", [
    ("stats.höhe", "", '[stats."höhe"]\npick = "highest"\n'),
    ("stats.my-best", "", '[stats.my-best]\npick = "highest"\n'),
    ("stats.2nd", "", '[stats.2nd]\npick = "highest"\nposition = 2\n'),
    ("dice.d6.counts.six es", 'counts = { "six es" = "face == 6" }', ""),
])
def test_counts_and_statistics_expressions_cannot_read_are_refused(tmp_path, where, die, rest):
    # Before: [stats."höhe"] loaded, and then `.probability("höhe >= 5")`, a tier condition or
    # pass_if could not name it ("unexpected 'ö' at character 2").
    path = _file(tmp_path, die=die, rest=rest)
    with pytest.raises(DataFileError) as err:
        wb.check(path)
    text = str(err.value)
    assert str(path) in text and f"'{where}'" in text
    assert f"{where.rsplit('.', 1)[1]!r} cannot be read by an expression" in text
    assert "allowed: letters A-Z and a-z, digits and _" in text


@pytest.mark.parametrize("stat, modifier", [
    ('keep = "middle"\ncount = 1\nskip = 1', "skip"),
    ('pick = "middle"\nposition = 2', "position"),
])
def test_skip_or_position_on_the_middle_dice_is_refused_instead_of_ignored(tmp_path, stat, modifier):
    # Before: keep = "middle" with skip = 1 (pick = "middle" with position = 2) loaded and gave
    # the distribution of the plain middle die, the skip or position silently dropped.
    path = _file(tmp_path, rest=f"[stats.mid]\n{stat}\n")
    with pytest.raises(DataFileError) as err:
        wb.check(path, dice=3)
    text = str(err.value)
    assert str(path) in text and "'stats.mid'" in text
    assert f'{modifier} does not go with' in text and '"middle"' in text and '"highest" or "lowest"' in text


def test_middle_dice_match_brute_force(tmp_path):
    path = _file(tmp_path, rest="""
        [stats.mid]
        pick = "middle"

        [stats.middle_two]
        keep = "middle"
        count = 2

        [stats.second]
        pick = "highest"
        position = 2
        """)
    for n in range(0, 5):
        result = wb.check(path, dice=n)
        faces = [range(1, 7)] * n
        ranked = lambda roll: sorted(roll, reverse=True)  # noqa: E731
        _assert_same(result.stats["mid"], _brute(faces, lambda r: ranked(r)[(n - 1) // 2] if r else 0))
        low = max((n - 2) // 2, 0)
        _assert_same(result.stats["middle_two"], _brute(faces, lambda r: sum(ranked(r)[low:low + 2])))
        _assert_same(result.stats["second"], _brute(faces, lambda r: ranked(r)[1] if n >= 2 else 0))


# --- an effect word set to false ----------------------------------------------------------

_COINS = """
    id = "coins"
    name = "Coins"
    mechanic = "pool"
    pool_parameter = "dice"
    floor = 1

    [dice.coin]
    faces = [0, 1]

    [params.dice]
    default = 2
    min = 0
    max = 10
    effect = {{ add_dice = "coin" }}

    [params.x]
    default = 1
    min = 0
    max = 3
    effect = {{ {word} = {value} }}
    """


@pytest.mark.parametrize("word", ["reroll_misses", "remove_floor", "target", "obstacle"])
def test_an_effect_word_set_to_false_is_refused_instead_of_acting_as_true(tmp_path, word):
    # Before: reroll_misses = false rerolled a miss (P(0 successes) of 2 coins 1/8, not 1/4),
    # remove_floor = false removed the floor and target = false set the target.
    path = _write(tmp_path, _COINS.format(word=word, value="false"))
    with pytest.raises(DataFileError) as err:
        wb.check(path)
    text = str(err.value)
    assert str(path) in text and "'params.x.effect[0]'" in text
    assert f"{word} = false has no meaning" in text and f"allowed: {word} = true" in text


def test_the_effect_words_set_to_true_match_brute_force(tmp_path):
    coin = [0, 1]
    reroll = wb.check(_write(tmp_path, _COINS.format(word="reroll_misses", value="true"), "r.toml"))

    def one_reroll(roll):             # one miss (a 0) is rolled again and counts: (a, b, again)
        a, b, again = roll
        return max(1, a + b + (again if 0 in (a, b) else 0))
    _assert_same(reroll.pmf, _brute([coin, coin, coin], one_reroll))
    no_floor = wb.check(_write(tmp_path, _COINS.format(word="remove_floor", value="true"), "f.toml"))
    _assert_same(no_floor.pmf, _brute([coin, coin], sum))
    floored = wb.check(_write(tmp_path, _COINS.format(word="remove_floor", value="true"), "g.toml"), x=0)
    _assert_same(floored.pmf, _brute([coin, coin], lambda roll: max(1, sum(roll))))


def test_a_rung_that_sets_and_adds_to_one_parameter_is_refused(tmp_path):
    # Before: set = { target = 2 }, add = { target = 1 } read as target 2 (25% with two coins
    # of 0/1, where 2 + 1 would be 0%), the add dropped without a word.
    path = _write(tmp_path, """
        id = "rungs"
        name = "Rungs"
        mechanic = "pool"
        pool_parameter = "dice"

        [dice.coin]
        faces = [0, 1]

        [params.dice]
        default = 2
        min = 0
        max = 10
        effect = { add_dice = "coin" }

        [params.target]
        default = 1
        min = 0
        max = 10
        effect = "target"

        [[ladder]]
        name = "Hard"
        set = { target = 2 }
        add = { target = 1 }
        """)
    with pytest.raises(DataFileError) as err:
        wb.check(path)
    text = str(err.value)
    assert str(path) in text and "'ladder.Hard.add.target'" in text
    assert "also sets target = 2" in text and "allowed: set target or add to it, not both" in text


def test_outcome_labels_too_few_for_the_pool_say_which_totals_and_labels(tmp_path):
    # Before: "totals 0..2 fall outside the 2 outcome labels": 0 and 1 do not.
    path = _write(tmp_path, """
        id = "labels"
        name = "Labels"
        mechanic = "pool"

        [outcome]
        labels = ["No", "Yes"]
        pass_from = "Yes"

        [dice.story]
        faces = ["No", "Yes"]

        [params.dice]
        default = 1
        min = 1
        max = 2
        effect = { add_dice = "story" }
        """)
    one = wb.check(path)
    assert one.pmf.outcomes == ("No", "Yes") and one.p_pass == pytest.approx(0.5)
    with pytest.raises(wb.errors.WorkbenchError) as err:
        wb.check(path, dice=2)
    text = str(err.value)
    assert "labels" in text and str(path) in text and "totals 0 to 2" in text
    assert "name the totals 0 to 1 ('No', 'Yes')" in text and "allowed:" in text


_ADVANTAGE = """
    id = "advantage"
    name = "Advantage"
    mechanic = "pool"
    pool_parameter = "dice"

    [dice.d6]
    sides = 6

    [params.dice]
    default = 2
    min = 0
    max = 5
    effect = { add_dice = "d6" }

    [params.adv]
    default = 0
    min = 0
    max = 2
    effect = { keep_highest = "d6" }

    [stats.STAT]
    sum = "value == 1"
    """


def test_a_statistic_named_kept_beside_keep_highest_is_the_file_s_own(tmp_path):
    # Before: the keep was a statistic the workbench named 'kept', so a file's own statistic of
    # that name was refused. The dice kept are now the roll itself: any name is the file's.
    path = _write(tmp_path, _ADVANTAGE.replace("STAT", "kept"))
    result = wb.check(path, dice=2, adv=1)
    faces = [range(1, 7)] * 3
    _assert_same(result.stats["kept"], _brute(faces, lambda roll: sorted(roll)[1:].count(1)))


def test_keep_highest_beside_statistics_matches_brute_force(tmp_path):
    # The dice set aside are out of the roll for every statistic: the 1s counted are the kept
    # dice's (before, a 1 set aside still counted).
    result = wb.check(_write(tmp_path, _ADVANTAGE.replace("STAT", "ones")), dice=2, adv=1)
    faces = [range(1, 7)] * 3
    _assert_same(result.pmf, _brute(faces, lambda roll: sum(sorted(roll)[1:])))
    _assert_same(result.stats["ones"], _brute(faces, lambda roll: sorted(roll)[1:].count(1)))


def test_a_die_that_explodes_too_often_is_refused_exactly_and_simulated_by_its_rolls(tmp_path):
    # Before: wb.simulate said only "die 'd': explodes so often ...; make fewer faces explode"
    # (which system? what would do?), where wb.check named the system. The check still refuses
    # (naming the system and what would do); the simulation now rolls every chain, die by die,
    # as the refusal suggests.
    faces = ", ".join(str(face) for face in range(2, 101))
    path = _file(tmp_path, rest=f"""
        [dice.d100]
        sides = 100
        explode = [{faces}]

        [params.d100]
        default = 1
        min = 0
        max = 3
        effect = {{ add_dice = "d100" }}

        [stats.top]
        pick = "highest"
        """)
    with pytest.raises(wb.errors.WorkbenchError) as err:
        wb.check(path, dice=0)
    text = str(err.value)
    # Refused before any work, naming the system and what would do: the chain itself, or (a
    # check that reads the total alone, computed as a sum) its exact work.
    assert text.startswith(("mine: die 'd100': explodes so often", "mine: an exact check (1 dice "
                            "of type 'd100' with explosion chains")), text
    assert ("allowed: fewer exploding faces, or an explode_limit on the die" in text
            or "use fewer dice, fewer faces or explosions, or simulate instead" in text), text
    trials = 4000
    result = wb.simulate(path, trials=trials, seed=1, dice=0)
    # One chain: C = X + [X >= 2] C', X uniform on 1..100: its mean and variance.
    p, mean_x, square_x, x_on_explode = 0.99, 50.5, 338350 / 100, 5049 / 100
    mean = mean_x / (1 - p)
    variance = (square_x + 2 * x_on_explode * mean) / (1 - p) - mean ** 2
    tops, chances = result.stats["top"].outcomes, result.stats["top"].probabilities
    assert result.trials == trials and max(tops) > 20_000   # chains of hundreds of dice
    assert abs(sum(t * c for t, c in zip(tops, chances)) - mean) < 6 * (variance / trials) ** 0.5


@pytest.mark.parametrize("counts, shown", [
    ("[1.5, 0, 0, 0, 0, 0]", "counts.a[0]: got 1.5"),
    ("[true, false, false, false, false, false]", "counts.a[0]: got True"),
    ("1", "counts.a: got 1"),
])
def test_counts_that_are_not_whole_numbers_say_what_is_allowed(tmp_path, counts, shown):
    # Before: "entry 'dice.d6.counts.a': Input should be a valid string; got [1.5, 0, ...]",
    # as if only an expression were allowed.
    path = _file(tmp_path, die=f"counts = {{ a = {counts} }}")
    with pytest.raises(DataFileError) as err:
        wb.check(path)
    text = str(err.value)
    assert str(path) in text and "'dice.d6.counts'" in text and shown in text
    assert "allowed: one whole number per face" in text and 'expression such as "face >= 5"' in text


EXPLODES_INTO = """id = "chain-owner"
name = "a chain belongs to the die rolled first"
mechanic = "pool"
pool_parameter = "a"

[dice.a]
faces = [1, 2]
explode = [2]
explode_into = "b"

[dice.b]
faces = [10, 20]

[params.a]
default = 1
min = 0
max = 3
effect = { add_dice = "a" }

[params.b]
default = 0
min = 0
max = 3
effect = { add_dice = "b" }

[params.target]
default = 1
min = 0
max = 100
effect = "target"

[stats.from_a]
sum = "value"
dice = "a"

[stats.from_b]
sum = "value"
dice = "b"
"""


def test_an_explosion_into_another_type_counts_for_the_die_rolled_first(tmp_path):
    """As data/README.md says: the chain a -> b is one `a` die (brute force: an `a` shows 1,
    or 2 and then a `b` of 10 or 20); a `b` die rolled as such is read by dice = "b"."""
    path = tmp_path / "chain-owner.toml"
    path.write_text(EXPLODES_INTO, encoding="utf-8")
    system = wb.load_system(path)
    one = wb.check(system, a=1)
    assert one.stats["from_a"].to_dict() == pytest.approx({"1": 0.5, "12": 0.25, "22": 0.25})
    assert one.stats["from_b"].to_dict() == {"0": 1.0}
    both = wb.check(system, a=1, b=1)
    assert both.stats["from_b"].to_dict() == pytest.approx({"10": 0.5, "20": 0.5})
    assert both.stats["from_a"].to_dict() == pytest.approx({"1": 0.5, "12": 0.25, "22": 0.25})
