"""couillon-dsl: trick-taking card games written down as data.

Pipeline, one module per stage, data flowing one way:
YAML text -> load -> validate (schema, semantic) -> compile -> engine -> agents
-> simulate/stats -> CLI.
"""
__version__ = "0.1.0"

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from couillon_dsl.api import load, new_game, simulate
    from couillon_dsl.diagnostics import Diagnostic, RulesetError

__all__ = ["load", "simulate", "new_game", "RulesetError", "Diagnostic", "__version__"]

# name -> module: imported on first use, so `import couillon_dsl` (and the CLI's start-up) stays light
_LAZY = {"load": "api", "simulate": "api", "new_game": "api", "RulesetError": "diagnostics",
         "Diagnostic": "diagnostics"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"couillon_dsl.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'couillon_dsl' has no attribute {name!r}")
