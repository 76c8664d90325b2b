"""Every `docs/iree_gaps.md#<anchor>` pointer in the code names a heading of that document."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
POINTER = re.compile(r"docs/iree_gaps\.md#([\w\-]+)")
FOLDERS = ("core", "dialect", "passes", "pipelines", "runtime", "tools")


def _anchor(heading: str) -> str:
    """A markdown heading's anchor as GitHub writes it: lower case, punctuation dropped,
    spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_iree_gaps_pointers_resolve():
    anchors = {_anchor(line.lstrip("#"))
               for line in (ROOT / "docs" / "iree_gaps.md").read_text().splitlines()
               if line.startswith("#")}
    pointers = [(str(path.relative_to(ROOT)), m.group(1))
                for folder in FOLDERS for path in sorted((ROOT / folder).rglob("*.py"))
                for m in POINTER.finditer(path.read_text())]
    missing = [p for p in pointers if p[1] not in anchors]
    assert not missing, f"no such heading in docs/iree_gaps.md: {missing[:10]}"
    assert len(pointers) > 40
