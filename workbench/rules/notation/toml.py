"""A formula's data file as TOML text (``workbench pmf FORMULA --as-toml``), written with
tomlkit so the encodings the vocabulary has no word for are said in comments beside them."""
from __future__ import annotations

ORDER = ("id", "name", "mechanic", "pool_parameter", "description", "total", "pass_if")


def _inline(value):
    import tomlkit  # lazy: tomlkit (only --as-toml writes TOML)
    if isinstance(value, dict):
        table = tomlkit.inline_table()
        for key, item in value.items():
            table[key] = _inline(item)
        return table
    if isinstance(value, list) and value and isinstance(value[0], dict):
        array = tomlkit.array()
        for item in value:
            array.append(_inline(item))
        return array
    return value


def as_toml(text: str, data: dict, notes: dict) -> str:
    """The TOML form of a formula's tables; ``notes`` (by ``dice.NAME``) become comments in
    those tables."""
    import tomlkit  # lazy: tomlkit (only --as-toml writes TOML)
    doc = tomlkit.document()
    doc.add(tomlkit.comment(f"The data file of the one-line formula {text}"))
    doc.add(tomlkit.comment("(workbench pmf FORMULA --as-toml); load it with workbench pmf FILE.toml"))
    doc.add(tomlkit.nl())
    for key in ORDER:
        if key in data:
            doc[key] = data[key]
    dice = tomlkit.table(is_super_table=True)
    for name, die in data["dice"].items():
        table = tomlkit.table()
        if f"dice.{name}" in notes:
            table.add(tomlkit.comment(notes[f"dice.{name}"]))
        for key, value in die.items():
            table[key] = _inline(value)
        dice[name] = table
    doc["dice"] = dice
    for section in ("params", "stats"):
        if data.get(section):
            outer = tomlkit.table(is_super_table=True)
            for name, entry in data[section].items():
                table = tomlkit.table()
                for key, value in entry.items():
                    table[key] = _inline(value)
                outer[name] = table
            doc[section] = outer
    if data.get("ladder"):
        rungs = tomlkit.aot()
        for rung in data["ladder"]:
            table = tomlkit.table()
            table["name"] = rung["name"]
            table["set"] = _inline(rung["set"])
            rungs.append(table)
        doc.add(tomlkit.comment("rungs across the total's range, made from the formula"))
        doc["ladder"] = rungs
    return tomlkit.dumps(doc).rstrip("\n")
