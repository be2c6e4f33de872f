"""Loading: positions per JSON pointer, duplicate keys, extends as a merge patch, built-ins."""
from __future__ import annotations

from pathlib import Path

import pytest

from couillon_dsl.builtin import builtin_names, find_builtin, resolve_ruleset
from couillon_dsl.diagnostics import RulesetError, Span, TextSpan, render_json, render_text
from couillon_dsl.loader import load_ruleset, parse_text, pointer_of

REPO = Path(__file__).resolve().parents[1]


def codes(excinfo: pytest.ExceptionInfo[RulesetError]) -> list[str]:
    return [d.code for d in excinfo.value.diagnostics]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_builtin_names_cover_the_rulesets_folder():
    names = builtin_names()
    assert "couillon" in names
    assert names == sorted(p.stem for p in (REPO / "couillon_dsl" / "rulesets").glob("*.yaml"))
    assert find_builtin("couillon") == REPO / "couillon_dsl" / "rulesets" / "couillon.yaml"
    assert not (REPO / "rulesets").exists(), "built-in rulesets are package data: put them in couillon_dsl/rulesets/"


def test_builtin_names_never_resolve_paths():
    assert find_builtin("../rulesets/couillon") is None
    assert find_builtin("Couillon") is None


def test_an_existing_path_wins_over_a_builtin_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "couillon", "id: local\nname: Local\n")
    assert resolve_ruleset("couillon") == Path("couillon")
    assert load_ruleset("couillon").data["id"] == "local"


def test_data_is_plain_and_spans_point_at_values():
    document = load_ruleset("couillon")
    assert document.data["id"] == "couillon"
    assert "extends" not in document.data
    span = document.span_of("/deck/ranks/4")
    assert span is not None and span.file.endswith("rulesets/couillon.yaml")
    line = (REPO / "couillon_dsl/rulesets/couillon.yaml").read_text().splitlines()[span.line - 1]
    assert line[span.column - 1 : span.end_column - 1] == '"10"'


def test_key_span_points_at_the_key_and_nearest_span_walks_up():
    data, origins = parse_text("a:\n  b: 1\n", "f.yaml")
    assert data == {"a": {"b": 1}}
    assert origins["/a/b"].span == Span("f.yaml", 2, 6, 2, 7)
    assert origins["/a/b"].key == Span("f.yaml", 2, 3, 2, 4)


def test_keys_are_their_text_and_scalars_are_plain_values():
    data, _ = parse_text('10: 0\n"9": x\nflag: true\nn: 7\nf: 1.5\nnothing: null\nday: 2024-01-01\n', "f")
    assert data == {"10": 0, "9": "x", "flag": True, "n": 7, "f": 1.5, "nothing": None, "day": "2024-01-01"}


def test_content_span_of_quoted_and_literal_scalars():
    _, origins = parse_text('q: "a and b"\nl: |\n  decided and\n  tie\n', "f")
    assert origins["/q"].content == Span("f", 1, 5)
    literal = origins["/l"].content
    assert isinstance(literal, TextSpan) and (literal.line, literal.column) == (3, 3)
    assert literal.place(2, 1) == (4, 3)  # "tie": the text's second line is the file's fourth


@pytest.mark.parametrize("text, words", [
    ("s: >-\n  a and\n  b or c\n", "a and b or c"),         # folded: the lines join with a space
    ("s: >-\n  a and\n    b or c\n", "a and\n  b or c"),   # a line indented further keeps its place
    ("s: a and\n   b or\n  c # note\n", "a and b or c"),   # a plain scalar over lines folds alike
    ("s: >\n  a and\n\n  b or c\n", "a and\nb or c\n"),   # a blank line is a newline in the text
])
def test_a_position_in_a_folded_text_is_placed_on_its_own_line(text, words):
    data, origins = parse_text(text, "f")
    assert data["s"] == words
    span = origins["/s"].content
    assert isinstance(span, TextSpan)
    lines = text.splitlines()
    for offset, char in enumerate(words):
        if char.isspace():
            continue
        line = words.count("\n", 0, offset) + 1
        column = offset - (words.rfind("\n", 0, offset) + 1) + 1
        file_line, file_column = span.place(line, column)
        assert lines[file_line - 1][file_column - 1] == char, (offset, char)


def test_pointer_escaping():
    data, origins = parse_text('"a/b": {"c~d": 1}\n', "f")
    assert pointer_of("a/b", "c~d") == "/a~1b/c~0d"
    assert "/a~1b/c~0d" in origins


def test_duplicate_key_is_reported_at_the_second_key():
    with pytest.raises(RulesetError) as excinfo:
        parse_text("id: a\nname: b\nid: c\n", "f")
    [diagnostic] = excinfo.value.diagnostics
    assert diagnostic.code == "duplicate-key"
    assert (diagnostic.span.line, diagnostic.span.column) == (3, 1)
    assert "line 1" in diagnostic.message


def test_duplicate_key_under_an_anchor_is_found_once_without_expanding_aliases(monkeypatch):
    """The anchor's mapping is checked once, however many aliases reach it (no expansion)."""
    import couillon_dsl.loader as loader
    checked = []
    original = loader._Survey._keyed_children
    monkeypatch.setattr(loader._Survey, "_keyed_children",
                        lambda self, node, pointer: checked.append(pointer) or original(self, node, pointer))
    aliases = ", ".join(["*m"] * 50)
    with pytest.raises(RulesetError) as excinfo:
        parse_text(f"m: &m {{k: 1, k: 2}}\nmany: [{aliases}]\n", "f")
    [diagnostic] = excinfo.value.diagnostics
    assert diagnostic.code == "duplicate-key" and (diagnostic.span.line, diagnostic.span.column) == (1, 14)
    assert checked == ["", "/m"]


def test_alias_bomb_is_reported_where_the_expansion_first_grows_too_large():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 40)]
    with pytest.raises(RulesetError) as excinfo:
        parse_text("\n".join(lines), "f")
    [diagnostic] = excinfo.value.diagnostics
    assert diagnostic.code == "alias-bomb" and diagnostic.pointer == "/a4"  # 111,111 values; a3 holds 11,111


def test_yaml_syntax_error_has_a_position():
    with pytest.raises(RulesetError) as excinfo:
        parse_text("a: [1, 2\nb: 3\n", "f")
    assert codes(excinfo) == ["yaml-syntax"]
    assert excinfo.value.diagnostics[0].span.line == 2


def test_multiple_documents_are_a_syntax_error():
    with pytest.raises(RulesetError) as excinfo:
        parse_text("a: 1\n---\nb: 2\n", "f")
    assert codes(excinfo) == ["yaml-syntax"]


def test_missing_file_and_unknown_name():
    with pytest.raises(RulesetError) as excinfo:
        load_ruleset("couillonn")
    assert codes(excinfo) == ["file-not-found"]
    assert excinfo.value.diagnostics[0].hint == "did you mean 'couillon'?"


def test_extends_merges_and_keeps_each_value_origin(tmp_path):
    child = write(tmp_path, "child.yaml", "extends: couillon\nid: kid\nname: Kid\nscoresheet:\n  start: 7\n"
                                          "outcome: null\nscoring:\n  win: {delta: -2, when: null}\n")
    document = load_ruleset(child)
    data = document.data
    assert data["id"] == "kid" and "extends" not in data
    assert data["scoresheet"]["start"] == 7 and data["scoresheet"]["goal"] == 0  # mappings merge
    assert "outcome" not in data  # null deletes
    assert data["scoring"]["win"] == {"team": "winner", "delta": -2, "tie_scaled": True}
    assert document.span_of("/scoresheet/start").file.endswith("child.yaml")
    assert document.span_of("/scoresheet/goal").file.endswith("couillon.yaml")
    assert document.span_of("/scoring/win/when") is None
    assert document.deleted["/outcome"].line == 6
    assert [p.name for p in document.files] == ["child.yaml", "couillon.yaml"]


def test_extends_lists_replace_and_new_mappings_drop_nulls(tmp_path):
    child = write(tmp_path, "child.yaml", "extends: couillon\nid: kid\nname: Kid\ndeck:\n  ranks: [A, K]\n"
                                          "announcements:\n  mit: {name: Mit, holder_of: QS, after: null}\n")
    data = load_ruleset(child).data
    assert data["deck"]["ranks"] == ["A", "K"]
    assert data["announcements"] == {"mit": {"name": "Mit", "holder_of": "QS"}}


def test_extends_a_relative_path_and_chains(tmp_path):
    write(tmp_path, "base.yaml", "extends: couillon\nid: base\nname: Base\nscoresheet: {start: 9}\n")
    (tmp_path / "sub").mkdir()
    leaf = write(tmp_path / "sub", "leaf.yaml", "extends: ../base.yaml\nid: leaf\nname: Leaf\n")
    document = load_ruleset(leaf)
    assert document.data["scoresheet"]["start"] == 9
    assert document.data["deck"]["ranks"][0] == "A"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("extends: couillonn\nid: a\nname: A\n", "extends-not-found"),
        ("extends: 3\nid: a\nname: A\n", "extends-invalid"),
        ("extends: couillon\nname: A\n", "extends-needs-id"),
        ("extends: me.yaml\nid: a\nname: A\n", "extends-cycle"),
    ],
)
def test_extends_errors(tmp_path, text, code):
    path = write(tmp_path, "me.yaml", text)
    with pytest.raises(RulesetError) as excinfo:
        load_ruleset(path)
    assert codes(excinfo) == [code]
    assert excinfo.value.diagnostics[0].span.line == 1


def test_extends_not_found_suggests_a_builtin(tmp_path):
    path = write(tmp_path, "me.yaml", "extends: kujongg\nid: a\nname: A\n")
    with pytest.raises(RulesetError) as excinfo:
        load_ruleset(path)
    assert excinfo.value.diagnostics[0].hint == "did you mean 'kujong'?"


def test_render_text_shows_source_line_caret_and_hint(tmp_path):
    path = write(tmp_path, "f.yaml", "id: a\nname: b\nid: c\n")
    with pytest.raises(RulesetError) as excinfo:
        load_ruleset(path)
    text = render_text(excinfo.value.diagnostics)
    lines = text.splitlines()
    assert lines[0].endswith("f.yaml:3:1: error[duplicate-key]: duplicate key 'id' (first at line 1)")
    assert lines[1].endswith("| id: c")
    assert lines[2].endswith("| ^^")
    assert lines[3].startswith("  hint: ")
    assert "\x1b[" in render_text(excinfo.value.diagnostics, color=True)


def test_render_json_is_flat_and_complete(tmp_path):
    import json

    path = write(tmp_path, "f.yaml", "id: a\nid: c\n")
    with pytest.raises(RulesetError) as excinfo:
        load_ruleset(path)
    [entry] = json.loads(render_json(excinfo.value.diagnostics))
    assert entry["code"] == "duplicate-key" and entry["line"] == 2 and entry["column"] == 1
    assert set(entry) == {"code", "severity", "message", "file", "line", "column", "end_line", "end_column", "pointer", "hint"}


def test_a_cached_file_keeps_where_a_folded_texts_lines_are(tmp_path, monkeypatch):
    """A file read again from the loader's cache places positions in a folded text as a fresh read does."""
    from couillon_dsl import loader_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    text = "s: >-\n  a and\n  b or c\n"
    data, origins = parse_text(text, "f")
    loader_cache.remember(text, "f", data, origins)
    again = loader_cache.cached(text, "f")
    assert again is not None and again[1]["/s"].content == origins["/s"].content
    assert again[1]["/s"].content.place(1, 7) == (3, 3)  # "b", on the file's third line
