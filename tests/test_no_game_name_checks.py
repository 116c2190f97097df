"""No caller outside a game's own package decides by a game's name (issue 19).

What differs between games is asked of the game: its `GameSpec` in `cartas/games.py` (family,
hand_play, table_options, team_of, deal_number, banker, raise_to_answer, why) or its state through the contract
(`cartas/contract.py`). This test reads every module of `cartas` (but `cartas/truco/` and
`cartas/vinte_e_um/`, the games themselves), `classroom`, `widgets`, `cartas_server`,
`benchmarks` and `tools` with `ast` and fails on:

- a comparison with a game's key or name (`game == "21"`, `"paulista" != key`,
  `key in ("paulista", "mineiro")`, `scenario["game"] is "truco"`);
- `isinstance(x, TrucoState)` or `VinteEUmState` (a state's class standing for its game);
- `getattr`/`hasattr` on a state for a game's own attribute (`getattr(state, "banker", None)`),
  probing it for what its spec answers.

A dict keyed by family (a dispatch table, `{"truco": draw_truco, "21": draw_21}`) is not a
comparison: it names each game once, where its specifics are wired in. Those tables live in two
places only (issue 30, item 3): the engine's facts in `cartas/` (`GameSpec`, the registry) and the
widgets' drawing facts in `widgets/families.py`. A dict literal keyed by a family or a game's key,
or a literal table of pairs naming them (`[("Truco", "truco"), ("21", "21")]`), anywhere else in
`classroom`, `widgets`, `cartas_server` or `tools` fails `test_family_tables_live_in_the_engine_or_widgets_families`.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("cartas", "classroom", "widgets", "cartas_server", "benchmarks", "tools")
GAMES_OWN = ("cartas/truco/", "cartas/vinte_e_um/")
GAME_NAMES = {"paulista", "mineiro", "21", "truco", "vinte_e_um", "vinte-e-um", "VinteEUm"}
STATE_CLASSES = {"TrucoState", "VinteEUmState"}
GAME_ATTRIBUTES = {"banker", "hand_number", "round_number", "variant", "tricks", "manilhas", "vira",
                   "pending_raise"}
COMPARING = (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot)


def _names_a_game(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in GAME_NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_game(e) for e in node.elts)
    return False


FAMILY_KEYS = {"truco", "21", "paulista", "mineiro", "vinte_e_um"}  # families and the registry's keys
TABLES_SCANNED = ("classroom", "widgets", "cartas_server", "tools")
TABLES_HOME = ("widgets/families.py",)


def _names_a_family(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in FAMILY_KEYS


def family_tables(source: str) -> list[tuple[int, str]]:
    """(line, what) for each table keyed by a game family or a game's key in `source`: a dict
    literal with such a key, or a tuple or list literal of two or more tuples that name one."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict) and any(_names_a_family(k) for k in node.keys):
            found.append((node.lineno, "a dict keyed by game family: " + ast.unparse(node)[:100]))
        elif isinstance(node, ast.Tuple | ast.List):
            rows = [e for e in node.elts if isinstance(e, ast.Tuple) and any(_names_a_family(x) for x in e.elts)]
            if len(rows) >= 2:
                found.append((node.lineno, "a table of pairs by game family: " + ast.unparse(node)[:100]))
    return sorted(found)


def _last_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def name_checks(source: str) -> list[tuple[int, str]]:
    """(line, what) for each decision by a game's name in `source`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(isinstance(op, COMPARING) for op in node.ops):
            if any(_names_a_game(part) for part in [node.left, *node.comparators]):
                found.append((node.lineno, "compares a game's name: " + ast.unparse(node)))
        elif isinstance(node, ast.Call) and len(node.args) >= 2:
            called = _last_name(node.func)
            second = node.args[1]
            if called == "isinstance":
                classes = second.elts if isinstance(second, ast.Tuple) else [second]
                if any(_last_name(c) in STATE_CLASSES for c in classes):
                    found.append((node.lineno, "tells a game by its state's class: " + ast.unparse(node)))
            elif (called in ("getattr", "hasattr") and isinstance(second, ast.Constant)
                  and second.value in GAME_ATTRIBUTES and "state" in ast.unparse(node.args[0]).lower()):
                found.append((node.lineno, "probes a state for a game's attribute: " + ast.unparse(node)))
    return sorted(found)


def scanned_files() -> list[Path]:
    files = []
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if not path.relative_to(ROOT).as_posix().startswith(GAMES_OWN):
                files.append(path)
    return files


def test_the_scan_finds_each_kind_of_game_name_check():
    source = '''
if game == "21": pass
if "paulista" != key: pass
ok = key in ("paulista", "mineiro")
truco = isinstance(state, truco.TrucoState) or isinstance(s, (int, VinteEUmState))
banker = getattr(state, "banker", None)
fine = {"truco": 1, "21": 2}[family] + (points == 21) + getattr(view, "lang", 0)
for key in ("paulista", "mineiro"): pass
'''
    assert [line for line, _ in name_checks(source)] == [2, 3, 4, 5, 5, 6]


def test_the_scan_finds_each_kind_of_family_table():
    source = '''
pane = {"truco": self._truco_fields, "21": self._fields_21}[family]
builders = {"paulista": truco, "mineiro": truco, "21": vinte}
options = [("Truco", "truco"), ("21", "21")]
panes = (("truco", box), ("21", box21))
fine = {"lang": "pt", 21: 1}, [("a", 1), ("b", 2)], ("truco", "21"), {spec.family: 1 for spec in specs}
lone = {"game": "truco"}, [("truco", 1)]
'''
    assert [line for line, _ in family_tables(source)] == [2, 3, 4, 5]


def test_family_tables_live_in_the_engine_or_widgets_families():
    """Issue 30, item 3: what differs by family is asked of the engine's GameSpec (`cartas/`) or
    looked up in the widgets' one table (`widgets/families.py`), never a table of its own."""
    files = [path for folder in TABLES_SCANNED for path in sorted((ROOT / folder).rglob("*.py"))
             if path.relative_to(ROOT).as_posix() not in TABLES_HOME]
    assert any(p.name == "cenarios.py" for p in files) and not any(p.name == "families.py" for p in files)
    found = [f"{path.relative_to(ROOT)}:{line}: {what}" for path in files
             for line, what in family_tables(path.read_text(encoding="utf-8"))]
    assert not found, "ask the game's GameSpec (cartas/) or widgets.families instead:\n" + "\n".join(found)


def test_no_caller_outside_a_games_own_package_compares_game_names():
    files = scanned_files()
    assert any(p.name == "mesa.py" for p in files) and not any("vinte_e_um/state" in str(p) for p in files)
    found = [f"{path.relative_to(ROOT)}:{line}: {what}" for path in files
             for line, what in name_checks(path.read_text(encoding="utf-8"))]
    assert not found, "ask the game's GameSpec or state instead:\n" + "\n".join(found)


def test_the_widgets_name_each_family_of_the_registry_once():
    """Issue 30, item 3: widgets.families is the one table of what pages draw and open per game
    family; it has exactly the registry's families, and a family it lacks is refused by name."""
    import pytest

    from cartas.games import all_games
    from widgets.families import FAMILIES, views_of

    assert set(FAMILIES) == {spec.family for spec in all_games()}
    with pytest.raises(ValueError, match="euchre"):
        views_of("euchre")


def test_no_page_keeps_its_own_table_of_drawings_or_game_pages():
    """The drawings and the play pages of each family are looked up in widgets.families only
    (mesa, cenarios and tarefa each had their own)."""
    pages = ROOT / "widgets" / "pages"
    offenders = []
    for path in pages.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Dict) and {getattr(k, "value", None) for k in node.keys} == {"truco", "21"}:
                used = {ast.unparse(v) for v in node.values}
                if any("picture" in u or "play" in u or "Page(" in u for u in used):
                    offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []
