"""couillon-dsl: trick-taking card games written down as data.

Pipeline, one module per stage, data flowing one way:
YAML text -> load -> validate (schema, semantic) -> compile -> engine -> agents
-> simulate/stats -> CLI.
"""
__version__ = "0.1.0"
