"""Editors agree with `couillon validate`: every ruleset names, on its `$schema` line, a schema
that accepts it, and a planted mistake is caught by that schema, by `validate` and by
yaml-language-server (driven over LSP as an editor does; skipped without Node).
"""
from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from couillon_dsl.builtin import builtin_folder, builtin_names
from couillon_dsl.cli import main
from couillon_dsl.scaffold import write_variant

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")
PLANTED = ("follow:\n    when_void: must_trump", "follow:\n    when_void: must_trumpp")  # a misspelt value
SERVER = ROOT / ".ci" / "node" / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"


def schema_named_by(path: Path) -> Path:
    """The schema file a ruleset's first line names, resolved as an editor does (relative to the file)."""
    match = SCHEMA_LINE.match(path.read_text(encoding="utf-8").splitlines()[0])
    assert match, f"{path} does not start with a `# yaml-language-server: $schema=` line"
    return (path.parent / match.group(1)).resolve()


def plain_errors(path: Path) -> list[str]:
    """What plain jsonschema (no couillon code) says about ``path`` against its `$schema` line."""
    schema = json.loads(schema_named_by(path).read_text(encoding="utf-8"))
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [f"{list(e.absolute_path)}: {e.message}" for e in Draft202012Validator(schema).iter_errors(data)]


def tutorial_variant(folder: Path) -> Path:
    """The tutorial's finished `house.yaml`, written to ``folder`` with its `$schema` line made absolute."""
    text = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    body = re.findall(r"<!-- file: house.yaml -->\n```yaml\n(.*?)```", text, re.S)[-1]
    first, rest = body.split("\n", 1)
    absolute = (ROOT / SCHEMA_LINE.match(first).group(1)).as_posix()  # type: ignore[union-attr]
    path = folder / "house.yaml"
    path.write_text(f"# yaml-language-server: $schema={absolute}\n{rest}", encoding="utf-8")
    return path


def editor_files(folder: Path) -> list[Path]:
    """Every shipped ruleset, a fresh scaffold, the tutorial's variant and a variant that deletes a key."""
    scaffold = write_variant(folder / "scaffold.yaml", "mit")
    deleting = write_variant(folder / "deleting.yaml", "couillon")
    with deleting.open("a", encoding="utf-8") as out:
        out.write("trump:\n  offer: null\n")
    return [builtin_folder() / f"{name}.yaml" for name in builtin_names()] + \
        [scaffold, deleting, tutorial_variant(folder)]


def planted(folder: Path) -> Path:
    """The tutorial's variant with one misspelt value (on line ``planted_line``)."""
    path = tutorial_variant(folder)
    text = path.read_text(encoding="utf-8")
    assert PLANTED[0] in text
    path.write_text(text.replace(*PLANTED), encoding="utf-8")
    return path


def planted_line(path: Path) -> int:
    """0-based line of the planted mistake."""
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()) if "must_trumpp" in line)


def test_every_shipped_ruleset_names_a_schema_in_the_package() -> None:
    for name in builtin_names():
        path = builtin_folder() / f"{name}.yaml"
        extends = "extends" in yaml.safe_load(path.read_text(encoding="utf-8"))
        assert schema_named_by(path) == builtin_folder().parent / "schemas" / \
            ("variant.schema.json" if extends else "ruleset.schema.json"), name


def test_plain_jsonschema_accepts_what_validate_accepts(tmp_path: Path) -> None:
    for path in editor_files(tmp_path):
        assert plain_errors(path) == [], path


def test_a_planted_mistake_is_caught_by_the_schema_and_by_validate(tmp_path: Path) -> None:
    path = planted(tmp_path)
    assert any("must_trumpp" in error for error in plain_errors(path))
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert f"house.yaml:{planted_line(path) + 1}:" in result.output and "when_void" in result.output


def test_the_variant_schema_still_checks_what_a_variant_writes(tmp_path: Path) -> None:
    path = write_variant(tmp_path / "house.yaml", "couillon")
    text = path.read_text(encoding="utf-8")
    # a list replaces the parent's whole, so its items stay fully checked; unknown keys stay unknown
    path.write_text(text + "deal:\n  - {to: all}\nplya: {}\n", encoding="utf-8")
    errors = plain_errors(path)
    assert any(e.startswith("['deal', 0]") for e in errors) and any("plya" in e for e in errors)


def test_schema_write_copies_both_schemas(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["schema", "--write", str(tmp_path / "schemas")])
    assert result.exit_code == 0, result.output
    written = [Path(line) for line in result.output.splitlines()]
    assert [p.name for p in written] == ["ruleset.schema.json", "variant.schema.json"]
    variant = CliRunner().invoke(main, ["schema", "--variant"]).output
    assert json.loads(written[1].read_text(encoding="utf-8")) == json.loads(variant)


# ---------------------------------------------------------------------- yaml-language-server over LSP


class LanguageServer:
    """Just enough of an LSP client: JSON-RPC over the server's stdin/stdout."""

    def __init__(self, command: list[str], root: Path) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.last_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        answer = self.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": {}})
        assert "capabilities" in answer
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": {"yaml": {
            "validate": True, "completion": True, "hover": True, "schemaStore": {"enable": False}}}})

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while (line := stream.readline().decode()) not in ("\r\n", ""):
                if line.lower().startswith("content-length:"):
                    length = int(line.split(":")[1])
            if not line:
                return
            self.inbox.put(json.loads(stream.read(length)))

    def _send(self, message: dict[str, Any]) -> None:
        data = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(data), data))
        self.process.stdin.flush()

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self._send({"method": method, "params": params})

    def request(self, method: str, params: dict[str, Any]) -> Any:
        self.last_id += 1
        wanted = self.last_id
        self._send({"id": wanted, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == wanted and "method" not in m)["result"]

    def wait(self, wanted: Any, timeout: float = 30) -> dict[str, Any]:
        """The next message ``wanted`` accepts; the server's own requests get empty answers meanwhile."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = self.inbox.get(timeout=left)
            except queue.Empty:
                break
            if "id" in message and "method" in message:  # e.g. workspace/configuration
                items = message.get("params", {}).get("items")
                self._send({"id": message["id"], "result": [{} for _ in items] if items else None})
            elif wanted(message):
                return message
        raise AssertionError("yaml-language-server did not answer in time")

    def open(self, path: Path, text: str | None = None) -> list[dict[str, Any]]:
        """Open a document; its diagnostics."""
        uri = path.resolve().as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": text or path.read_text(encoding="utf-8")}})
        message = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                            and m["params"]["uri"] == uri)
        return list(message["params"]["diagnostics"])

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


@pytest.fixture(scope="module")
def server() -> Any:
    node = shutil.which("node")
    script = Path(os.environ.get("YAML_LANGUAGE_SERVER", SERVER))
    if node is None or not script.is_file():
        if node is not None and os.environ.get("COUILLON_REQUIRE_LSP"):
            pytest.fail(f"node is here but yaml-language-server is not at {script} (.ci/run installs it)")
        pytest.skip("needs node and yaml-language-server (.ci/run installs it with npm)")
    client = LanguageServer([node, str(script), "--stdio"], ROOT)
    yield client
    client.close()


def test_editor_shows_no_diagnostics_on_valid_files(server: LanguageServer, tmp_path: Path) -> None:
    for path in editor_files(tmp_path):
        assert server.open(path) == [], path


def test_editor_reports_the_planted_mistake(server: LanguageServer, tmp_path: Path) -> None:
    path = planted(tmp_path)
    diagnostics = server.open(path)
    assert [d["range"]["start"]["line"] for d in diagnostics] == [planted_line(path)]
    assert "must_trump" in diagnostics[0]["message"]


def test_editor_completes_the_keys_under_play_follow(server: LanguageServer, tmp_path: Path) -> None:
    path = tutorial_variant(tmp_path)
    text = path.read_text(encoding="utf-8").replace("    when_void: must_trump\n", "    \n")
    server.open(path, text)
    line = text.splitlines().index("    ")
    answer = server.request("textDocument/completion", {
        "textDocument": {"uri": path.resolve().as_uri()}, "position": {"line": line, "character": 4}})
    labels = {item["label"] for item in (answer["items"] if isinstance(answer, dict) else answer)}
    from couillon_dsl.schema import load_schema

    schema = load_schema()
    follow = schema["properties"]["play"]["properties"]["follow"]  # a reference to the shared follow block
    keys = set(schema["$defs"][follow["$ref"].rsplit("/", 1)[-1]]["properties"])
    assert keys <= labels, keys - labels
