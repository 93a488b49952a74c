"""The page scripts under ``service/web/static`` as a module graph, read without a browser.

The pages load plain ES modules (no build step, nothing downloaded), so nothing but
this test checks their imports before a browser does: every ``import ... from "..."``
(and ``export ... from``) names a file that exists, by a relative path, and a name
that file exports; the graph has no cycle; every module is reachable from a page's
``<script>``; and each shared job has one home: ``$``, ``getJson`` and
``EVENT_TYPES`` are each defined in exactly one file, and only ``common/dom.js``
looks elements up by id, only ``common/api.js`` calls ``fetch`` and only
``common/follow.js`` opens an ``EventSource``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SERVICE = Path(__file__).resolve().parents[2] / "service"
STATIC = SERVICE / "web" / "static"
TEMPLATES = [SERVICE / "web" / "templates", SERVICE / "api" / "templates"]
MAX_LINES = 300

# `import {a, b as c} from "./x.js"`, `import x from "./x.js"`, `export {a} from "./x.js"`
FROM = re.compile(r"\b(import|export)\s+([^;\"'`]*?)\s*\bfrom\s*[\"']([^\"']+)[\"']", re.S)
BARE = re.compile(r"^\s*import\s*[\"']([^\"']+)[\"']", re.M)  # import "./x.js";
DYNAMIC = re.compile(r"\bimport\s*\(\s*[\"']([^\"']+)[\"']")
DEFINED = re.compile(
    r"^export\s+(?:async\s+)?(?:function\s*\*?|class|const|let|var)\s+([\w$]+)", re.M)
EXPORT_LIST = re.compile(r"^export\s*\{([^}]*)\}", re.M)
STATIC_URL = re.compile(r"url_for\(\s*'web\.static'\s*,\s*filename\s*=\s*'([^']+)'\s*\)")
ONE_HOME = {  # a pattern -> the one module allowed to contain it
    r"\bgetElementById\b": "common/dom.js",
    r"\bfetch\s*\(": "common/api.js",
    r"\bnew\s+EventSource\b": "common/follow.js",
}
ONE_DEFINITION = ["$", "getJson", "EVENT_TYPES"]


def strip_comments(source: str) -> str:
    """The source without /* */ and // comments (strings are left alone; a `//`
    inside a string or a template literal is rare in these files and only hides text
    after it, never adds an import)."""
    source = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), source, flags=re.S)
    return re.sub(r"(?<![:\"'`\\])//[^\n]*", "", source)


def modules() -> dict[str, str]:
    """Every script, by its path under static/ ("play/main.js"), without comments."""
    return {p.relative_to(STATIC).as_posix(): strip_comments(p.read_text("utf-8"))
            for p in sorted(STATIC.rglob("*.js"))}


def names_of(clause: str) -> tuple[set[str], bool]:
    """The names an import / export clause takes ({a, b as c} -> {a, b}), and whether
    it takes the whole module (`* as x`, a default import)."""
    braces = re.search(r"\{([^}]*)\}", clause)
    names = set()
    if braces:
        for part in braces.group(1).split(","):
            part = part.strip()
            if part:
                names.add(part.split()[0])
    rest = re.sub(r"\{[^}]*\}", "", clause).strip(" ,")
    return names, bool(rest)


def exported(source: str) -> set[str]:
    names = set(DEFINED.findall(source))
    for group in EXPORT_LIST.findall(source):
        for part in group.split(","):
            if part.strip():
                names.add(part.split()[-1])
    return names


def resolve(importer: str, spec: str) -> str:
    assert spec.startswith(("./", "../")), (
        f"{importer} imports {spec!r}: only relative paths to this folder's files "
        "(nothing is downloaded at run time, there is no bundler)")
    target = (STATIC / importer).parent / spec
    try:
        return target.resolve().relative_to(STATIC.resolve()).as_posix()
    except ValueError:
        pytest.fail(f"{importer} imports {spec!r}, outside static/")


def graph() -> dict[str, list[tuple[str, set[str], bool]]]:
    """importer -> [(imported module, the names taken, whole module?)]"""
    edges: dict[str, list[tuple[str, set[str], bool]]] = {}
    for name, source in modules().items():
        out = []
        for _kind, clause, spec in FROM.findall(source):
            taken, whole = names_of(clause)
            out.append((resolve(name, spec), taken, whole))
        for spec in BARE.findall(source) + DYNAMIC.findall(source):
            out.append((resolve(name, spec), set(), True))
        edges[name] = out
    return edges


def page_entries() -> set[str]:
    found = set()
    for folder in TEMPLATES:
        for template in folder.glob("*.html"):
            found.update(STATIC_URL.findall(template.read_text("utf-8")))
    return found


def test_every_import_names_an_existing_file_and_its_exports() -> None:
    mods = modules()
    edges = graph()
    assert "play/main.js" in mods and "common/dom.js" in mods
    problems = []
    for importer, out in edges.items():
        for target, taken, _whole in out:
            if target not in mods:
                problems.append(f"{importer}: no such module {target}")
                continue
            missing = taken - exported(mods[target])
            if missing:
                problems.append(f"{importer}: {target} does not export {sorted(missing)}")
    assert problems == []


def test_the_module_graph_has_no_cycle() -> None:
    edges = {name: sorted({t for t, _, _ in out}) for name, out in graph().items()}
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> None:
        if node in path:
            pytest.fail("import cycle: " + " -> ".join(path[path.index(node):] + [node]))
        if node in done:
            return
        for nxt in edges.get(node, []):
            visit(nxt, path + [node])
        done.add(node)

    for node in edges:
        visit(node, [])


def test_each_shared_helper_is_defined_once() -> None:
    mods = modules()
    for helper in ONE_DEFINITION:
        name = re.escape(helper)
        definition = re.compile(
            rf"(?:\bfunction\s*\*?\s*|\b(?:const|let|var|class)\s+){name}(?![\w$])")
        homes = sorted(m for m, source in mods.items() if definition.search(source))
        assert len(homes) == 1, f"{helper} is defined in {homes}"
    for pattern, home in ONE_HOME.items():
        found = sorted(m for m, source in mods.items() if re.search(pattern, source))
        assert found == [home], f"{pattern}: {found}"


def test_every_asset_a_page_names_exists_and_every_module_is_used() -> None:
    entries = page_entries()
    assert {"play/main.js", "replay/main.js", "watch/main.js", "common/style.css"} <= entries
    for filename in entries:
        assert (STATIC / filename).is_file(), filename
    edges = graph()
    reached: set[str] = set()
    todo = [e for e in entries if e.endswith(".js")]
    while todo:
        node = todo.pop()
        if node not in reached:
            reached.add(node)
            todo.extend(t for t, _, _ in edges.get(node, []))
    assert sorted(set(edges) - reached) == []


def test_the_scripts_stay_small_and_grouped_by_page() -> None:
    for path in STATIC.rglob("*.js"):
        lines = path.read_text("utf-8").count("\n")
        assert lines <= MAX_LINES, f"{path.relative_to(STATIC)}: {lines} lines"
    # every file in a page's folder (or common/), no flat files with page prefixes
    assert sorted(p.name for p in STATIC.iterdir() if p.is_file()) == []
