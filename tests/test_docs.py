"""The generated documentation is current, and the tutorial's commands still print what it shows.

If a test here fails after a change to the schema, the explain prose or a ruleset,
regenerate the pages with ``python -m couillon_dsl.docgen`` and commit them.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from couillon_dsl import docgen
from couillon_dsl.cli import main
from couillon_dsl.compile import build_ruleset
from couillon_dsl.explain import explain
from couillon_dsl.kernel import available as kernel_available
from couillon_dsl.schema import load_schema

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "docs" / "tutorial.md"


def test_generated_pages_are_current() -> None:
    problems = docgen.stale(ROOT)
    assert not problems, "stale docs: " + "; ".join(problems) + " (regenerate: python -m couillon_dsl.docgen)"


def test_check_mode_names_a_stale_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "couillon_dsl" / "rulesets").mkdir(parents=True)
    (tmp_path / "couillon_dsl" / "rulesets" / "couillon.yaml").write_text(
        (ROOT / "couillon_dsl" / "rulesets" / "couillon.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert docgen.main(["--root", str(tmp_path), "--check"]) == 1
    assert "docs/reference.md is missing" in capsys.readouterr().err
    assert docgen.main(["--root", str(tmp_path)]) == 0
    assert docgen.main(["--root", str(tmp_path), "--check"]) == 0
    orphan = tmp_path / "docs" / "rulesets" / "gone.md"
    orphan.write_text("old\n", encoding="utf-8")
    assert docgen.stale(tmp_path) == ["docs/rulesets/gone.md belongs to no ruleset"]


def _schema_paths(node: dict, path: str) -> list[str]:
    out = []
    items = node.get("items")
    if node.get("type") == "array" and isinstance(items, dict):
        for shape in [items, *items.get("oneOf", ())]:
            out += _schema_paths(shape, f"{path}[]")
    for key, child in node.get("properties", {}).items():
        child_path = f"{path}.{key}" if path else key
        out += [child_path, *_schema_paths(child, child_path)]
    return out


def test_reference_describes_every_key_of_the_schema() -> None:
    schema = load_schema()
    reference = docgen.reference_markdown(schema)
    for path in _schema_paths(schema, ""):
        assert f"`{path}`" in reference, path
    for name, node in schema["$defs"].items():
        assert f"### {name}\n" in reference
        for key in node.get("properties", {}):
            assert f"- `{key}`: " in reference, f"{name}.{key}"


def test_ruleset_pages_are_the_explain_output() -> None:
    page = (ROOT / "docs" / "rulesets" / "kwajongen.md").read_text(encoding="utf-8")
    assert page.endswith(explain(build_ruleset("kwajongen")))


# ---------------------------------------------------------------------- the tutorial

FENCE = re.compile(r"(?:<!-- file: (?P<file>\S+) -->\n)?```(?P<info>\w*)\n(?P<body>.*?)```", re.S)


def tutorial_steps() -> list[tuple[str, str, str]]:
    """("file", name, text) for files the reader writes, ("run", command, expected output) for commands."""
    steps = []
    for match in FENCE.finditer(TUTORIAL.read_text(encoding="utf-8")):
        if match["file"]:
            steps.append(("file", match["file"], match["body"]))
        elif match["info"] == "console":
            for chunk in re.split(r"^\$ ", match["body"], flags=re.M)[1:]:
                command, _, output = chunk.partition("\n")
                steps.append(("run", command, output))
    return steps


def _squeeze(line: str) -> str:
    return " ".join(line.split())  # column widths and trailing blanks are not the point


def matches(expected: str, actual: str) -> bool:
    """Expected output where a line `...` stands for any lines and `...` inside a line for any text.

    Runs of blanks count as one, so table column widths may change.
    """
    pattern = r"\n".join(".*?" if line.strip() == "..." else re.escape(_squeeze(line)).replace(r"\.\.\.", "[^\n]*?")
                         for line in expected.rstrip("\n").split("\n"))
    text = "\n".join(_squeeze(line) for line in actual.rstrip().splitlines())
    return re.fullmatch(pattern, text, re.S) is not None


def test_tutorial_commands_print_what_the_tutorial_shows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    steps = tutorial_steps()
    assert sum(kind == "run" for kind, _, _ in steps) >= 6, "the tutorial's console blocks were not found"
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for kind, what, text in steps:
        if kind == "file":
            (tmp_path / what).write_text(text, encoding="utf-8")
            continue
        program, *args = shlex.split(what)
        assert program == "couillon", f"the tutorial runs only couillon commands, not {what!r}"
        result = runner.invoke(main, args, catch_exceptions=False)
        assert result.exit_code == 0, f"{what} exited {result.exit_code}:\n{result.output}"
        if args[0] in ("simulate", "compare") and not kernel_available():
            continue  # the tutorial shows the compiled engine's figures; the Python engine draws other deals
        assert matches(text, result.output), f"{what} now prints:\n{result.output}"


def _anchor(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    return {_anchor(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, flags=re.M)}


def test_relative_links_reach_a_file_and_a_heading() -> None:
    """A moved section or renamed page breaks no link in the README, docs/ or examples/."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), ROOT / "examples" / "README.md"]
    broken = []
    for page in pages:
        text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)
