"""The documentation matches the repository: every relative link leads to a file
(and heading) that exists, and every setting the code reads is documented."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(page: Path) -> set[str]:
    """GitHub's anchors for the headings of `page`."""
    found = set()
    for line in page.read_text().splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


def test_relative_links_lead_somewhere() -> None:
    broken = []
    for page in PAGES:
        for target in LINK.findall(page.read_text()):
            if re.match(r"[a-z]+:", target):
                continue  # absolute (http:, mailto:): not ours to check offline
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists():
                broken.append(f"{page.name}: {target} (no such file)")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                broken.append(f"{page.name}: {target} (no such heading)")
    assert not broken, broken


def test_every_setting_read_is_documented() -> None:
    source = (ROOT / "service" / "ops" / "settings.py").read_text()
    names = set(re.findall(r"read\.\w+\(\s*\"([A-Z][A-Z0-9_]+)\"", source))
    assert "DATABASE_URL" in names and len(names) > 20  # the pattern still finds them
    operating = (ROOT / "docs" / "operating.md").read_text()
    terminal_only = {"TERM", "XDG_DATA_HOME"}  # the environment's own, not ours
    missing = sorted(n for n in names - terminal_only if f"`{n}`" not in operating)
    assert not missing, f"settings read but not in docs/operating.md: {missing}"


def test_the_folder_map_names_every_module_of_service() -> None:
    """docs/design.md's "Folder map of `service/`" lists each folder's modules, no
    more and no fewer (a name in brackets is a note on the module before it)."""
    text = (ROOT / "docs" / "design.md").read_text()
    section = text.split("## Folder map of `service/`", 1)[1].split("\n## ", 1)[0]
    mapped: dict[str, set[str]] = {}
    for row in re.findall(r"^\| `([\w/]+)` \| (.+) \|$", section, re.M):
        folder = "" if row[0] == "service/" else row[0].rstrip("/")
        listed = re.sub(r"\([^)]*\)", "", row[1])
        mapped[folder] = {name for name in re.findall(r"`(\w+)`", listed)
                          if not name.startswith("__")}
    service = ROOT / "service"
    actual: dict[str, set[str]] = {}
    for module in service.rglob("*.py"):
        if module.name != "__init__.py":
            folder = str(module.parent.relative_to(service)).replace(".", "")
            actual.setdefault(folder, set()).add(module.stem)
    assert {f: sorted(m) for f, m in mapped.items()} == \
        {f: sorted(m) for f, m in actual.items()}
