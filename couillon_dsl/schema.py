"""JSON Schema validation of a loaded ruleset, reported as diagnostics with source positions.

jsonschema's errors carry the instance path; the loader kept a span per JSON pointer, so
every error lands on the line that caused it (the gap check-jsonschema leaves open).
Errors are turned into readable messages (`unknown key 'suitz' in deck`, with a
did-you-mean), deduplicated per pointer and ranked most relevant first. jsonschema is
imported on first use because it dominates the CLI's start-up time.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterator, cast

from couillon_dsl.builtin import package_folder
from couillon_dsl.diagnostics import Diagnostic, did_you_mean, error
from couillon_dsl.loader import Document, escape, unescape

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

SCHEMA_PATH = package_folder() / "schemas" / "ruleset.schema.json"

# How much an error kind explains, most first: a wrong type hides everything below it.
_RANK = {"type": 0, "required": 1, "additionalProperties": 2, "propertyNames": 2, "enum": 3, "const": 3}
_TYPE_NAMES = {"string": "a string", "integer": "an integer", "number": "a number", "boolean": "true or false",
               "object": "a mapping", "array": "a list", "null": "null"}


@lru_cache(maxsize=1)
def load_schema() -> dict[str, Any]:
    """The packaged ruleset schema."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _is_integer(checker: Any, value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@lru_cache(maxsize=1)
def _validator_class() -> Any:
    """Draft 2020-12 with strict integers: 2.0 is not a card count (JSON Schema would accept it)."""
    from jsonschema import Draft202012Validator, validators

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer)
    return validators.extend(Draft202012Validator, type_checker=checker)


@lru_cache(maxsize=1)
def _validator() -> Any:
    return _validator_class()(load_schema())


# ---- fast path: a plain yes/no check of the keywords this schema uses, so that a valid
# ruleset never pays for importing jsonschema (about half of `couillon validate`'s start-up).
# jsonschema stays the authority: it runs, and explains, whenever this says no.

FAST_KEYWORDS = frozenset({
    "$schema", "$id", "$defs", "$ref", "title", "description", "default", "examples",
    "type", "enum", "const", "properties", "additionalProperties", "required", "propertyNames",
    "items", "minItems", "maxItems", "uniqueItems", "minProperties", "minLength", "minimum", "maximum",
    "pattern", "oneOf", "anyOf", "allOf", "if", "then",
})
_TYPE_TESTS = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, but 1 is 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    return type(a) in (int, float) and type(b) in (int, float) and a == b or (type(a) is type(b) and a == b)


def fast_valid(schema: Any, value: Any) -> bool:
    """Whether ``value`` matches ``schema`` (this schema's keyword subset, strict integers)."""
    if schema is True:
        return True
    if schema is False:
        return False
    if "$ref" in schema and not fast_valid(_resolve({"$ref": schema["$ref"]}), value):
        return False
    types = schema.get("type")
    if types is not None and not any(_TYPE_TESTS[t](value) for t in _as_list(types)):
        return False
    if "enum" in schema and not any(_equal(value, c) for c in schema["enum"]):
        return False
    if "const" in schema and not _equal(value, schema["const"]):
        return False
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if number and ("minimum" in schema and value < schema["minimum"] or "maximum" in schema and value > schema["maximum"]):
        return False
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            return False
        if "pattern" in schema and not re.search(schema["pattern"], value):
            return False
    if isinstance(value, list):
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)):
            return False
        if schema.get("uniqueItems") and any(_equal(a, b) for i, a in enumerate(value) for b in value[i + 1:]):
            return False
        if "items" in schema and not all(fast_valid(schema["items"], v) for v in value):
            return False
    if isinstance(value, dict):
        if len(value) < schema.get("minProperties", 0) or any(k not in value for k in schema.get("required", ())):
            return False
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if "propertyNames" in schema and not fast_valid(schema["propertyNames"], key):
                return False
            if not fast_valid(properties.get(key, extra), item):
                return False
    if not all(fast_valid(s, value) for s in schema.get("allOf", ())):
        return False
    if "anyOf" in schema and not any(fast_valid(s, value) for s in schema["anyOf"]):
        return False
    if "oneOf" in schema and sum(fast_valid(s, value) for s in schema["oneOf"]) != 1:
        return False
    return "if" not in schema or not fast_valid(schema["if"], value) or fast_valid(schema.get("then", True), value)


def where(pointer: str) -> str:
    """A readable location for a pointer: ``deal[2].to``, ``scoring.win``, or ``the ruleset``."""
    out = ""
    for token in pointer.split("/")[1:]:
        token = unescape(token)
        out += f"[{token}]" if token.isdigit() else (f".{token}" if out else token)
    return out or "the ruleset"


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else f"'{value}'"
    return text if len(text) <= 60 else text[:57] + "..."


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return {**load_schema()["$defs"][ref.split("/")[-1]], **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def _pick(context: list[ValidationError], instance: Any) -> ValidationError | None:
    """The branch error of a oneOf/anyOf that best explains the failure, or None if only types clash."""
    deeper = [c for c in context if c.relative_path]
    if deeper:
        return min(deeper, key=lambda c: (-len(c.relative_path), _RANK.get(str(c.validator), 9)))
    typed = [c for c in context if c.validator != "type"]
    if not typed:
        return None
    if isinstance(instance, str):
        typed.sort(key=lambda c: c.validator not in ("enum", "const", "pattern"))
    else:
        typed.sort(key=lambda c: c.validator in ("enum", "const", "pattern"))
    return typed[0]


class _Mapper:
    """Turns one jsonschema error into diagnostics placed in the document."""

    def __init__(self, document: Document) -> None:
        self.document = document

    def pointer(self, err: ValidationError, extra: str | None = None) -> str:
        pointer = "".join("/" + escape(str(p)) for p in err.absolute_path)
        return pointer + "/" + escape(extra) if extra is not None else pointer

    def diag(self, code: str, message: str, pointer: str, hint: str | None = None, key: bool = False) -> Diagnostic:
        return error(code, message, self.document.nearest_span(pointer, key=key), pointer, hint)

    def map(self, err: ValidationError) -> Iterator[Diagnostic]:
        """Diagnostics for one error in the ruleset's words; a failed oneOf/anyOf is explained by its best branch."""
        kind = str(err.validator)
        pointer = self.pointer(err)
        name = where(pointer)
        instance: Any = err.instance
        value: Any = err.validator_value  # jsonschema types these loosely (a union with Unset)
        schema: dict[str, Any] = err.schema if isinstance(err.schema, dict) else {}
        if "propertyNames" in err.schema_path:
            key_pointer = self.pointer(err, str(instance))
            allowed = value if kind == "enum" else []
            if kind == "enum":
                yield self.diag("schema-additional-property", f"unknown key '{instance}' in {name}", key_pointer,
                                did_you_mean(instance, allowed) or f"allowed keys: {', '.join(allowed)}", key=True)
            else:
                yield self.diag("schema-pattern", f"'{instance}' is not a valid name in {name}", key_pointer,
                                "names are lower case: a letter, then letters, digits, '-' or '_'", key=True)
            return
        if kind in ("oneOf", "anyOf"):
            context = list(err.context or [])
            alternatives = [b.get("required", [None])[0] for b in value if set(b) == {"required"}]
            if kind == "oneOf" and not context and len(alternatives) == len(value) and isinstance(instance, dict):
                both = [k for k in alternatives if k in instance]  # every branch passed: more than one key given
                yield self.diag("schema-additional-property", f"{name} takes one of the keys {', '.join(both)}, "
                                "not both", self.pointer(err, both[-1]), f"remove `{both[-1]}` or `{both[0]}`", key=True)
                return
            if context and all(c.validator == "required" for c in context):
                keys = [cast(Any, c.validator_value)[0] for c in context if c.validator_value]
                yield self.diag("schema-required", f"{name} needs one of the keys {', '.join(keys)}", pointer,
                                f"for example: {keys[0]}: ...", key=True)
                return
            best = _pick(context, instance)
            if best is not None:
                yield from self.map(best)
                return
            expected = [_TYPE_NAMES.get(t, t) for c in context for t in _as_list(c.validator_value) if c.validator == "type"]
            yield self.diag("schema-type", f"{name} must be {' or '.join(dict.fromkeys(expected))}, not {_show(instance)}",
                            pointer, self.type_hint(expected, instance))
            return
        if kind == "type":
            expected = [_TYPE_NAMES.get(t, t) for t in _as_list(value)]
            yield self.diag("schema-type", f"{name} must be {' or '.join(expected)}, not {_show(instance)}",
                            pointer, self.type_hint(expected, instance))
        elif kind == "required":
            missing = [k for k in value if isinstance(instance, dict) and k not in instance]
            for key in missing:
                yield self.diag("schema-required", f"{name} is missing the required key '{key}'", pointer,
                                self.required_hint(schema, pointer, key), key=True)
        elif kind == "additionalProperties":
            allowed = list(schema.get("properties", {}))
            for key in [k for k in instance if k not in allowed]:
                homes = key_homes().get(key, ())
                home = homes[0] if len(homes) == 1 and not _at_home(homes[0], self.pointer(err)) else None
                yield self.diag("schema-additional-property", f"unknown key '{key}' in {name}", self.pointer(err, key),
                                f"'{key}' is a key of {home}, not of {name}" if home else
                                did_you_mean(key, allowed) or f"allowed keys: {', '.join(allowed)}", key=True)
        elif kind in ("enum", "const"):
            choices = value if kind == "enum" else [value]
            listed = ", ".join(_show(c) for c in choices)
            yield self.diag("schema-enum", f"{name} is {_show(instance)}; expected one of {listed}", pointer,
                            did_you_mean(instance, choices) if isinstance(instance, str) else None)
        elif kind == "pattern":
            yield self.diag("schema-pattern", f"{name} {_show(instance)} is not well formed", pointer,
                            schema.get("description"))
        elif kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            bound = "at least" if "inimum" in kind else "at most"
            yield self.diag("schema-range", f"{name} is {_show(instance)}; it must be {bound} {value}", pointer)
        elif kind in ("minItems", "maxItems", "minProperties", "maxProperties", "minLength", "maxLength"):
            yield self.diag("schema-size", f"{name}: {err.message}", pointer, schema.get("description"))
        elif kind == "uniqueItems":
            yield self.diag("schema-unique", f"{name} lists a value twice", pointer)
        else:
            yield self.diag("schema-invalid", f"{name}: {err.message}", pointer)

    def type_hint(self, expected: list[str], instance: Any) -> str | None:
        """A hint for the usual YAML type slips: quotes missing around a string, or around a number."""
        if "a string" in expected and isinstance(instance, (int, float)) and not isinstance(instance, bool):
            return f'write it in quotes: "{instance}"'
        if any(t in expected for t in ("an integer", "a number")) and isinstance(instance, str) and instance.lstrip("-").isdigit():
            return "remove the quotes"
        return None

    def required_hint(self, schema: dict[str, Any], pointer: str, key: str) -> str | None:
        """Why a required key is missing when a `null` in a child file deleted it; else what the key is for."""
        deleted = self.document.deleted.get(f"{pointer}/{escape(key)}")
        if deleted is not None:
            return (f"`{key}: null` at {deleted} deleted it: in a file that extends another, null removes a key "
                    "(merge patch); omit the key or give a value")
        prop = _resolve(schema.get("properties", {}).get(key, {}))
        description = prop.get("description")
        return f"{key}: {description}" if description else None


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _relevance(diagnostic: Diagnostic, kind_rank: int) -> tuple[int, int, int, int]:
    span = diagnostic.span
    return (diagnostic.pointer.count("/"), kind_rank, span.line if span else 0, span.column if span else 0)


def iter_schema_diagnostics(document: Document) -> Iterator[Diagnostic]:
    """Schema errors of ``document.data``, one per place, most relevant first."""
    if fast_valid(load_schema(), document.data):
        return
    mapper = _Mapper(document)
    found: dict[tuple[str, str], tuple[tuple[int, int, int, int], Diagnostic]] = {}
    for err in _validator().iter_errors(document.data):
        rank = _RANK.get(str(err.validator), 5)
        for diagnostic in mapper.map(err):
            key = (diagnostic.pointer, diagnostic.message if diagnostic.code in ("schema-required", "schema-additional-property") else "")
            score = _relevance(diagnostic, rank)
            if key not in found or score < found[key][0]:
                found[key] = (score, diagnostic)
    unknown_parents = {d.pointer.rsplit("/", 1)[0] for _, d in found.values() if d.code == "schema-additional-property"}
    ranked = sorted(found.values(), key=lambda item: item[0])
    for _, diagnostic in ranked:
        if diagnostic.code == "schema-required" and "needs one of the keys" in diagnostic.message and diagnostic.pointer in unknown_parents:
            continue  # the unknown key already explains it (a misspelt step kind)
        yield diagnostic


def _branches(node: dict[str, Any]) -> list[dict[str, Any]]:
    """Subschemas a value may (also) have to match: combinators and the `then` of conditionals."""
    out = [_resolve(b) for key in ("oneOf", "anyOf", "allOf") for b in node.get(key, [])]
    out += [_resolve(b["then"]) for b in node.get("allOf", []) if isinstance(b, dict) and "then" in b]
    return out


@lru_cache(maxsize=1)
def key_homes() -> dict[str, tuple[str, ...]]:
    """Each key the schema knows -> where the mappings that take it sit (``contracts.<id>.call``), so an
    unknown key that is a real key put in the wrong place is told where it goes."""
    homes: dict[str, tuple[str, ...]] = {}
    level = [(_resolve(load_schema()), "the top level")]
    for _ in range(12):  # the schema's nesting is shallower; bounded all the same
        following: list[tuple[dict[str, Any], str]] = []
        for node, where_ in level:
            for branch in [node, *_branches(node)]:
                for key, sub in branch.get("properties", {}).items():
                    if where_ not in homes.setdefault(key, ()):
                        homes[key] += (where_,)
                    following.append((_resolve(sub), key if where_ == "the top level" else f"{where_}.{key}"))
                if isinstance(branch.get("additionalProperties"), dict):
                    following.append((_resolve(branch["additionalProperties"]), f"{where_}.<id>"))
                if isinstance(branch.get("items"), dict):
                    following.append((_resolve(branch["items"]), f"{where_}[]"))
        level = following
    return homes


def _at_home(home: str, pointer: str) -> bool:
    """Whether the mapping at ``pointer`` is one the place ``home`` (from :func:`key_homes`) names."""
    wanted = [] if home == "the top level" else home.replace("[]", ".[]").split(".")
    tokens = [unescape(t) for t in pointer.split("/")[1:]]
    return len(wanted) == len(tokens) and all(w in ("<id>", t) or w == "[]" and t.isdigit()
                                              for w, t in zip(wanted, tokens))


def subschema_at(pointer: str) -> dict[str, Any] | None:
    """The schema a value at ``pointer`` must match, or None when the schema allows nothing there."""
    nodes = [_resolve(load_schema())]
    for token in pointer.split("/")[1:]:
        token = unescape(token)
        following: list[dict[str, Any]] = []
        while nodes:
            node = nodes.pop()
            nodes.extend(_branches(node))
            if token in node.get("properties", {}):
                following.append(_resolve(node["properties"][token]))
            elif isinstance(node.get("additionalProperties"), dict):
                following.append(_resolve(node["additionalProperties"]))
            elif token.isdigit() and isinstance(node.get("items"), dict):
                following.append(_resolve(node["items"]))
        if not following:
            return None
        nodes = following
    return nodes[0]


def value_errors(subschema: dict[str, Any], value: Any) -> list[str]:
    """Messages for ``value`` against a subschema from :func:`subschema_at` (with the root's $defs)."""
    if fast_valid(subschema, value):
        return []
    validator = _validator_class()({**subschema, "$defs": load_schema()["$defs"]})
    return [f"{where(_pointer(e))}: {e.message}" if e.absolute_path else e.message for e in validator.iter_errors(value)]


def document_errors(data: Any) -> list[str]:
    """Plain messages for a whole (unplaced) document, most relevant first: for patched variants."""
    if fast_valid(load_schema(), data):
        return []
    errors = sorted(_validator().iter_errors(data), key=lambda e: (len(e.absolute_path), _RANK.get(str(e.validator), 5)))
    return [f"{where(_pointer(e))}: {e.message}" for e in errors]


def _pointer(err: ValidationError) -> str:
    return "".join("/" + escape(str(p)) for p in err.absolute_path)


def with_defaults(data: Any, schema: dict[str, Any] | None = None) -> Any:
    """``data`` with the default the schema states filled in for every missing key (in place).

    Compilation reads filled data, so a missing key means what the schema (and the language
    reference generated from it) says it means: one source for every default. Defaults are
    followed through ``$ref``, ``properties``, ``additionalProperties``, ``items`` and
    ``if``/``then`` branches that hold; ``oneOf``/``anyOf`` alternatives state none.
    """
    schema = _resolve(load_schema() if schema is None else schema)
    if isinstance(data, dict):
        properties = schema.get("properties", {})
        for key, sub in properties.items():
            if key not in data and "default" in _resolve(sub):
                data[key] = json.loads(json.dumps(_resolve(sub)["default"]))
            if key in data:
                with_defaults(data[key], sub)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            for key, value in data.items():
                if key not in properties:
                    with_defaults(value, extra)
    elif isinstance(data, list) and isinstance(schema.get("items"), dict):
        for item in data:
            with_defaults(item, schema["items"])
    for branch in [schema, *schema.get("allOf", ())]:
        if "if" in branch and fast_valid(branch["if"], data):
            with_defaults(data, branch.get("then", {}))
        elif branch is not schema and "if" not in branch:
            with_defaults(data, branch)
    return data
