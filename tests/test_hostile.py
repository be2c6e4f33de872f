"""Hostile input: every case is rejected with exit 1, a clear message, no traceback, in under a second."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from couillon_dsl.cli import main

BILLION_LAUGHS = "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9) if prev else ', '.join(['lol'] * 9)}]\n"
    for prev, name in zip([None, *"abcdefgh"], "abcdefghi")
)
PWNED = Path("/tmp/couillon-dsl-pwned")

CASES: dict[str, tuple[bytes, str, str]] = {
    # name: (file content, expected code, expected text in the output)
    "empty": (b"", "not-a-mapping", "empty"),
    "list": (b"- a\n- b\n", "not-a-mapping", "list"),
    "binary": (b"id: x\n\x00\xff\xfe\x01", "not-text", "UTF-8"),
    "syntax": (b"id: x\nplayers: {count: 4\ndeck: 1\n", "yaml-syntax", ":3:"),
    "duplicate": (b"id: x\nname: y\nid: z\n", "duplicate-key", ":3:1:"),
    "brackets": (b"a: " + b"[" * 20_000 + b"]" * 20_000 + b"\n", "too-deep", "nested"),
    "block-nesting": ("".join(" " * i + "k:\n" for i in range(300)).encode(), "too-deep", "nested"),
    "billion-laughs": (BILLION_LAUGHS.encode(), "alias-bomb", "aliases"),
    "recursive-alias": (b"a: &a [*a]\n", "alias-bomb", "aliases"),
    "python-tag": (f'a: !!python/object/apply:os.system ["touch {PWNED}"]\n'.encode(), "unsafe-tag", "not allowed"),
    "custom-tag": (b"a: !include other.yaml\n", "unsafe-tag", "not allowed"),
    "huge-int": (b"a: " + b"9" * 10_000 + b"\n", "bad-value", "number"),
    "control-char": (b"a: \"x\x07\"\n", "not-text", "U+0007"),
}


def run(path: Path) -> tuple[int, str, float]:
    start = time.perf_counter()
    result = CliRunner().invoke(main, ["validate", str(path)])
    return result.exit_code, result.output, time.perf_counter() - start


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_file_is_rejected_cleanly(tmp_path, name):
    content, code, text = CASES[name]
    path = tmp_path / f"{name}.yaml"
    path.write_bytes(content)
    exit_code, output, seconds = run(path)
    assert exit_code == 1, output
    assert f"error[{code}]" in output
    assert text in output
    assert "Traceback" not in output
    assert seconds < 1.0


def test_a_20_megabyte_file_is_refused_unread(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"a: " + b"x" * 20_000_000 + b"\n")
    exit_code, output, seconds = run(path)
    assert exit_code == 1 and "error[too-large]" in output and "Traceback" not in output
    assert seconds < 1.0


def test_python_tag_is_never_constructed(tmp_path):
    PWNED.unlink(missing_ok=True)
    path = tmp_path / "tag.yaml"
    path.write_bytes(CASES["python-tag"][0])
    run(path)
    assert not PWNED.exists()


def test_extends_cycle_between_two_files(tmp_path):
    (tmp_path / "a.yaml").write_text("extends: b.yaml\nid: a\nname: A\n")
    (tmp_path / "b.yaml").write_text("extends: a.yaml\nid: b\nname: B\n")
    exit_code, output, seconds = run(tmp_path / "a.yaml")
    assert exit_code == 1 and "error[extends-cycle]" in output and "a.yaml -> " in output
    assert "Traceback" not in output and seconds < 1.0


@pytest.mark.parametrize("command", ["validate", "explain", "play"])
def test_a_name_too_long_for_the_file_system_is_a_usage_error(command):
    result = CliRunner().invoke(main, [command, "a" * 5000])
    assert result.exit_code == 2, result.output
    assert "no ruleset file or built-in ruleset" in result.output and "Traceback" not in result.output


def test_extends_a_name_too_long_for_the_file_system(tmp_path):
    (tmp_path / "a.yaml").write_text(f"extends: {'a' * 5000}.yaml\nid: a\nname: A\n")
    exit_code, output, _ = run(tmp_path / "a.yaml")
    assert exit_code == 1 and "error[extends-not-found]" in output and "Traceback" not in output
