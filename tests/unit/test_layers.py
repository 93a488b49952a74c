"""Who may import what (cosmicpython's rule, and issue 27's): the adapters (the API,
the pages, the CLI) read a game through the domain's public reading methods and the
service layer, never through the fold's byte codes; only the store speaks SQL to the
engine or opens a database connection of its own; and no module imports another's
private names."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ADAPTERS = ("service/api", "service/web", "service/live", "cli")
BYTE_CODES = {"EMPTY", "SEAT1", "SEAT2", "SYSTEM", "OWNER_CODES", "OWNER_LETTERS",
              "LINE_LETTERS"}
# SQL on the engine's connections; a connection of its own (a DSN with the password)
STORE_ONLY = ("engine.connect", "engine.begin", "engine.raw_connection", "psycopg.connect",
              "hide_password=False")


def _modules(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _imports(path: Path) -> list[tuple[str, str]]:
    """(module, name) of every ``from module import name`` (relative ones resolved)."""
    package = path.relative_to(ROOT).with_suffix("").parts[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            module = ".".join([*base, *(node.module or "").split(".")]).strip(".")
            found += [(module, alias.name) for alias in node.names]
    return found


@pytest.mark.parametrize("path", _modules(*ADAPTERS), ids=_name)
def test_no_adapter_reads_the_folds_byte_codes(path: Path) -> None:
    for module, name in _imports(path):
        if module.startswith("service.domain"):
            assert name not in BYTE_CODES, f"{_name(path)} imports {name} from {module}"
    tree = ast.parse(path.read_text())
    used = {node.attr for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id in ("state", "fold")}
    assert not used & BYTE_CODES, _name(path)


@pytest.mark.parametrize("path", [p for p in _modules("service", "cli")
                                  if "service/store" not in _name(p)], ids=_name)
def test_only_the_store_connects_to_the_database(path: Path) -> None:
    text = path.read_text()
    for needle in STORE_ONLY:
        assert needle not in text, f"{_name(path)}: {needle}"


@pytest.mark.parametrize("path", _modules("service", "cli"), ids=_name)
def test_no_module_imports_private_names_of_another(path: Path) -> None:
    for module, name in _imports(path):
        if module.split(".")[0] in ("service", "cli"):
            assert not name.startswith("_"), f"{_name(path)} imports {name} from {module}"


def test_the_pattern_sees_the_imports_it_checks() -> None:
    """The checks above would see an offender (relative imports resolved)."""
    imports = _imports(ROOT / "service/api/views.py")
    assert ("service.domain.state", "GameState") in imports
    assert ("service.services", "GameSummary") in imports


@pytest.mark.parametrize("path", _modules("service/api", "service/web"), ids=_name)
def test_the_api_and_pages_know_the_service_layer_not_the_store(path: Path) -> None:
    """Their types come from `service.services`; the store's errors reach them as the
    service layer's (`DatabaseUnavailable`), so they sort no SQLAlchemy exception.
    The live streams are a follower of the store instead (docs/design.md, "Layers")."""
    for module, name in _imports(path):
        assert not module.startswith(("service.store", "sqlalchemy")), \
            f"{_name(path)} imports {name} from {module}"
    text = path.read_text()
    assert "import sqlalchemy" not in text and "import psycopg" not in text, _name(path)


def test_no_module_imports_itself_back() -> None:
    """No import cycle between modules (imports made for type checking only aside: they
    never run). The stairs between packages are import-linter's contracts
    (pyproject.toml), which `./dev test` checks with ``lint-imports``."""
    import grimp

    graph = grimp.build_graph("service", "cli", exclude_type_checking_imports=True)
    cycles = [sorted(group) for group in _strongly_connected(
        {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules})
        if len(group) > 1]
    assert cycles == []


def _strongly_connected(edges: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components of `edges` (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root] & edges.keys())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    groups.append(group)
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(edges[child] & edges.keys()))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return groups


def test_the_cycle_check_sees_a_cycle() -> None:
    assert _strongly_connected({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [{"a", "b"}, {"c"}]
