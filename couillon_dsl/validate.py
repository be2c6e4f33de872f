"""Validation of a loaded ruleset: schema first, then (only on schema-valid data) semantic
checks and expressions. What `couillon validate` runs and what compilation insists on.
"""
from __future__ import annotations

from couillon_dsl.diagnostics import Diagnostic
from couillon_dsl.loader import Document


def check(document: Document) -> list[Diagnostic]:
    """Every diagnostic of a document; the schema's alone when it fails the schema, since the
    later checks assume its shapes."""
    from couillon_dsl.schema import iter_schema_diagnostics

    found = list(iter_schema_diagnostics(document))
    if any(d.is_error for d in found):
        return found
    from couillon_dsl.semantic import iter_document_expression_diagnostics, iter_semantic_diagnostics

    found.extend(iter_semantic_diagnostics(document))
    found.extend(iter_document_expression_diagnostics(document))
    return found
