"""Which settings a swept function takes and which it needs, checked before any point runs."""
from __future__ import annotations

import inspect
from typing import Any, Mapping

from ..errors import WorkbenchError
from ..rules.registry import get_system


def need_required(target, names, fixed) -> None:
    """A function's required arguments must come from the grid or the fixed settings, before
    any point runs (``drama_campaign`` needs its ``session``, ``rounds_until_hits`` its
    ``system``)."""
    given = set(names) | set(fixed)
    given |= {name.partition(".")[0] for name in given}   # reactor.dice gives the reactor
    for name, param in inspect.signature(target.function).parameters.items():
        if (param.default is inspect.Parameter.empty and name not in given
                and param.kind not in (param.VAR_KEYWORD, param.VAR_POSITIONAL)):
            raise WorkbenchError(f"sweep {target.name}: no {name!r}; allowed: give {name}=... as "
                                 "a fixed setting or a grid column"
                                 + _REQUIRED_EXAMPLES.get(name, ""))


_REQUIRED_EXAMPLES = {
    "system": " (a system id, variant id or data file, e.g. system=uwr)",
    "session": " (on the command line a JSON list of checks, e.g. session='[{\"d6\": 3}]')",
    "scene": " (on the command line a JSON list of checks, e.g. scene='[{\"d6\": 3}]')",
    "wanted": " (e.g. wanted=Normal=0.7)",
}


def allowed_names(target, names, fixed, points) -> set[str] | None:
    """Parameters the function takes, or ``None`` when each system checks its own (then
    ``check_every_point`` resolves every point, so a misspelt name fails at once)."""
    allowed = target.allowed()
    if allowed is not None:
        return allowed | _rule_options(target, points, fixed)
    if "system" not in fixed and "system" not in names:
        raise WorkbenchError(f"sweep {target.name}: no 'system'; allowed: system=... (a system "
                             "id, variant id or data file) or a grid of systems")
    return None


def _rule_options(target, points: list[dict], fixed: Mapping[str, Any]) -> set[str]:
    """The rule options a function taking ``**rule_options`` (``clock``, ``taken_out``) passes
    to its system: of every system the sweep names (fixed, in the grid, else the default), so
    ``--grid "ladder=steps,spectrum"`` sweeps a rule option as it would a setting."""
    parameters = inspect.signature(target.function).parameters
    if "rule_options" not in parameters:
        return set()
    if "system" in fixed:
        names = [fixed["system"]]
    elif points and "system" in points[0]:
        names = list({_key(point["system"]): point["system"] for point in points}.values())
    else:
        names = [parameters["system"].default]
    options: set[str] = set()
    for name in names:
        try:
            system = get_system(name)
        except (WorkbenchError, TypeError):   # a bad system is refused, named, when it runs
            continue
        options |= {option for option, param in system.params.items() if param.rule_option}
    return options


def _key(system: Any) -> Any:
    return system if isinstance(system, str) else id(system)
