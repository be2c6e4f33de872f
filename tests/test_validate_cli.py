"""`couillon validate`, `couillon rulesets`, `couillon schema`: exit codes 0/1/2, formats, start-up."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from couillon_dsl.builtin import builtin_names
from couillon_dsl.cli import main

REPO = Path(__file__).resolve().parents[1]


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def write(tmp_path: Path, text: str, name: str = "r.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_valid_ruleset_exits_0():
    result = invoke("validate", str(REPO / "couillon_dsl" / "rulesets" / "couillon.yaml"))
    assert result.exit_code == 0
    assert "1 valid" in result.output


def test_builtin_names_are_accepted():
    assert invoke("validate", *builtin_names()).exit_code == 0


def test_invalid_ruleset_exits_1_with_positions(tmp_path):
    path = write(tmp_path, "extends: couillon\nid: r\nname: R\nscoresheet:\n  strat: 7\n")
    result = invoke("validate", path)
    assert result.exit_code == 1
    assert f"{path}:5:3: error[schema-additional-property]: unknown key 'strat' in scoresheet" in result.output
    assert "hint: did you mean 'start'?" in result.output


def test_bad_yaml_exits_1(tmp_path):
    result = invoke("validate", write(tmp_path, "a: [1\n"))
    assert result.exit_code == 1 and "error[yaml-syntax]" in result.output


def test_warnings_do_not_fail(tmp_path):
    result = invoke("validate", write(tmp_path, "extends: couillon\nid: r\nname: R\ntrump:\n  choose: {by: elder}\n"))
    assert result.exit_code == 0
    assert "warning[unused-setting]" in result.output


def test_missing_file_is_a_usage_error_exit_2():
    result = CliRunner().invoke(main, ["validate", "no/such/file.yaml"])
    assert result.exit_code == 2
    assert "no ruleset file or built-in ruleset named 'no/such/file.yaml'" in result.output
    result = CliRunner().invoke(main, ["validate", "couillonn"])
    assert result.exit_code == 2 and "did you mean 'couillon'?" in result.output


def test_no_argument_is_a_usage_error():
    assert CliRunner().invoke(main, ["validate"]).exit_code == 2


def test_one_invalid_among_several_exits_1(tmp_path):
    bad = write(tmp_path, "- a\n")
    result = invoke("validate", "couillon", bad)
    assert result.exit_code == 1
    assert "couillon.yaml: ok" in result.output


def test_json_format(tmp_path):
    bad = write(tmp_path, "extends: couillon\nid: r\nname: R\ndealer: {first: 9}\n")
    result = invoke("validate", "--format", "json", "couillon", bad)
    assert result.exit_code == 1
    payload = json.loads(result.output)
    assert payload["valid"] is False
    first, second = payload["rulesets"]
    assert first["valid"] is True and first["diagnostics"] == []
    [diagnostic] = second["diagnostics"]
    assert (diagnostic["code"], diagnostic["line"], diagnostic["column"]) == ("unknown-seat", 4, 17)
    assert diagnostic["pointer"] == "/dealer/first"


def test_rulesets_lists_name_title_and_path():
    result = invoke("rulesets")
    assert result.exit_code == 0
    line = next(row for row in result.output.splitlines() if row.startswith("couillon "))
    assert "Couillon" in line and line.endswith("couillon.yaml")
    assert len(result.output.splitlines()) == len(builtin_names())


def test_schema_prints_the_packaged_schema():
    result = invoke("schema")
    assert result.exit_code == 0
    assert json.loads(result.output) == json.loads((REPO / "couillon_dsl/schemas/ruleset.schema.json").read_text())


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)


def test_start_up_smoke_test_in_a_subprocess():
    result = subprocess.run([sys.executable, "-m", "couillon_dsl", "validate", "couillon"],
                            capture_output=True, text=True, cwd=REPO, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "1 ruleset checked: 1 valid" in result.stderr


def test_validating_a_valid_ruleset_never_imports_jsonschema_or_the_engine():
    result = run_python(
        "import sys\n"
        "from couillon_dsl.cli import main\n"
        "try:\n    main(['validate', 'couillon'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('jsonschema', 'rich', 'couillon_dsl.engine', 'couillon_dsl.compile') if m in sys.modules))\n")
    assert result.stdout.strip().splitlines()[-1] == "[]", result.stderr


@pytest.mark.parametrize("name", ["broken/schema-type.yaml", "broken/not-text.yaml", "broken/alias-bomb.yaml"])
def test_corpus_files_exit_1_without_traceback(name):
    result = CliRunner().invoke(main, ["validate", str(REPO / "tests" / name)])
    assert result.exit_code == 1 and "Traceback" not in result.output
