"""The build's one step beyond pyproject.toml: the translations' catalogs
(``service/translations/<lang>/LC_MESSAGES/<domain>.po``) compiled to the ``.mo``
files Flask-Babel reads, into the built package (a wheel, ``pip install .``). The
``.mo`` files are not kept in git; ``./dev`` compiles them in the checkout for an
editable install (`compile_catalogs`). Babel's public API only (`babel.messages`).
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

CATALOGS = Path("service") / "translations"


def compile_catalogs(source: Path = CATALOGS, target: Path = CATALOGS) -> list[Path]:
    """Every ``.po`` under `source` as a ``.mo`` at the same place under `target`;
    fuzzy entries are left out (they are guesses, not translations)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(source.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as f:
            catalog = read_po(f)
        mo = target / po.relative_to(source).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with mo.open("wb") as f:
            write_mo(f, catalog, use_fuzzy=False)
        written.append(mo)
    return written


class BuildWithCatalogs(build_py):
    """setuptools' build_py, then the catalogs compiled into the build."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:  # an editable install reads the checkout's (./dev)
            compile_catalogs(target=Path(self.build_lib) / CATALOGS)


if __name__ == "__main__":
    setup(cmdclass={"build_py": BuildWithCatalogs})
