"""What users of ruff, yamllint and check-jsonschema expect of a command line."""
from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from couillon_dsl.builtin import builtin_folder, builtin_names
from couillon_dsl.cli import main
from couillon_dsl.cli.conventions import use_color

BAD = "id: bad\nname: Bad\nextends: couillon\nplay: {follow: {led_suit: folow}}\n"


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.output


def couillon(*args: str, **kwargs: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "couillon_dsl", *args], **kwargs)  # type: ignore[call-overload]


def test_validate_takes_a_folder_and_checks_every_yaml_file_under_it(tmp_path: Path) -> None:
    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / "bad.yml").write_text(BAD, encoding="utf-8")
    (tmp_path / "good.yaml").write_text((builtin_folder() / "mit.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a ruleset", encoding="utf-8")
    code, output = invoke("validate", str(tmp_path))
    assert code == 1
    assert "good.yaml: ok" in output and "bad.yml:4:" in output and "notes" not in output
    assert "2 rulesets checked: 1 valid, 1 error" in output
    code, output = invoke("validate", str(builtin_folder()))
    assert code == 0 and f"{len(builtin_names())} rulesets checked: {len(builtin_names())} valid" in output


def test_validate_reads_standard_input() -> None:
    assert invoke("validate", "-", stdin=(builtin_folder() / "couillon.yaml").read_text(encoding="utf-8"))[0] == 0
    code, output = invoke("validate", "-", stdin=BAD)
    assert code == 1 and "<stdin>:4:" in output and "led_suit" in output


def test_validate_reports_every_file_when_one_is_missing() -> None:
    code, output = invoke("validate", "couillon", "no/such.yaml", "mitt")
    assert code == 2
    assert "couillon.yaml: ok" in output
    assert "named 'no/such.yaml'" in output and "did you mean 'mit'?" in output
    assert "3 rulesets checked: 1 valid" in output


def test_validate_annotates_for_github_actions(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(BAD, encoding="utf-8")
    code, output = invoke("validate", "--format", "github", str(path))
    assert code == 1
    annotation = next(line for line in output.splitlines() if line.startswith("::error "))
    assert f"file={path}" in annotation or "file=" in annotation
    assert ",line=4,col=" in annotation and ",title=schema-enum::" in annotation and "led_suit" in annotation


def test_a_mistyped_command_gets_a_suggestion() -> None:
    code, output = invoke("simulat", "couillon")
    assert code == 2 and "no command 'simulat'; did you mean 'simulate'?" in output


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_for_a_terminal_and_never_under_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(_Terminal()) and not use_color(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color(_Terminal())


@pytest.mark.parametrize(("args", "flag", "said"), [
    (["simulate", "couillon", "--option", "lines=99"], "--option", "99 is out of range"),
    (["compare", "couillon", "mit", "--option", "lines=99"], "--option", "99 is out of range"),
    (["explain", "couillon", "-o", "lines=x"], "--option", "lines"),
    (["diff", "couillon", "mit", "--base-option", "lines=99"], "--base-option", "99 is out of range"),
    (["simulate", "couillon", "--agents", "pimc:sample=3"], "--agents", "samples=24"),
])
def test_usage_errors_name_the_flag_they_come_from(args: list[str], flag: str, said: str) -> None:
    code, output = invoke(*args, "--games", "2") if args[0] in ("simulate", "compare") else invoke(*args)
    assert code == 2
    assert f"Invalid value for '{flag}'" in output or f"Invalid value for {flag}" in output
    assert said in output and "couillon.yaml:" not in output  # blamed on the flag, not on a ruleset line


def test_diff_exit_code_says_whether_the_rules_differ() -> None:
    assert invoke("diff", "couillon", "couillon", "--exit-code")[0] == 0
    assert invoke("diff", "couillon", "couillon-force", "--exit-code")[0] == 1
    assert invoke("diff", "couillon", "couillon-force")[0] == 0


def on_terminal(*args: str, **env: str) -> tuple[int, str]:
    """Run `couillon ARGS` with stdout and stderr on a pseudo-terminal; exit code and what it showed."""
    leader, follower = pty.openpty()
    process = couillon(*args, stdout=follower, stderr=follower, env={**os.environ, "COLUMNS": "100", **env})
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return process.wait(timeout=60), b"".join(chunks).decode("utf-8", "replace")


def test_explain_renders_for_a_terminal_and_stays_markdown_when_piped() -> None:
    piped = invoke("explain", "couillon")[1]
    assert piped.startswith("# Couillon")
    code, shown = on_terminal("explain", "couillon", TERM="xterm")
    assert code == 0
    assert "Couillon" in shown and "# Couillon" not in shown  # a heading, not Markdown source


@pytest.mark.parametrize("args", [["simulate"], ["validate"], ["explain"], ["diff", "couillon"]])
def test_no_color_is_honoured_by_every_command_on_a_terminal(tmp_path: Path, args: list[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD, encoding="utf-8")
    code, coloured = on_terminal(*args, str(bad), TERM="xterm")
    assert code == 1 and "\x1b[" in coloured
    code, plain = on_terminal(*args, str(bad), TERM="xterm", NO_COLOR="1")
    assert code == 1 and "\x1b[" not in plain and "led_suit" in plain


@pytest.mark.parametrize("args", [
    ["explain", "couillon", "--format", "markdown"],
    ["compare", "couillon", "couillon-force", "--games", "20", "--workers", "1"],  # a rich table
])
def test_a_closed_pipe_ends_quietly_with_exit_0(args: list[str]) -> None:
    process = couillon(*args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader is gone before the first line (as `| head -0`)
    error = process.stderr.read().decode()
    assert process.wait(timeout=60) == 0 and error == ""


def test_shell_completion_offers_built_in_ruleset_names() -> None:
    env = {**os.environ, "_COUILLON_COMPLETE": "bash_complete", "COMP_WORDS": "couillon simulate mi", "COMP_CWORD": "2"}
    done = subprocess.run([sys.executable, "-m", "couillon_dsl"], env=env, capture_output=True, text=True, timeout=60)
    offered = done.stdout.splitlines()
    assert [line for line in offered if line.startswith("plain,")] == \
        [f"plain,{name}" for name in builtin_names() if name.startswith("mi")]
    assert "file,mi" in offered  # and files, by the shell's own completion
    env["COMP_WORDS"], env["COMP_CWORD"] = "couillon vali", "1"
    done = subprocess.run([sys.executable, "-m", "couillon_dsl"], env=env, capture_output=True, text=True, timeout=60)
    assert "plain,validate" in done.stdout.splitlines()


def test_json_output_of_validate_lists_every_argument(tmp_path: Path) -> None:
    code, output = invoke("validate", "--format", "json", "couillon", "nope")
    payload = json.loads(output[output.index("{"):])
    assert code == 2 and [r["input"] for r in payload["rulesets"]] == ["couillon", "nope"]
