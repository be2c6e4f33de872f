"""The compiled simulation engine: whole games played by a Numba kernel from a ruleset's tables.

The Python engine (:mod:`couillon_dsl.engine`) stays the reference: the kernel plays the
same rules from the same compiled model, turned into arrays (:mod:`.arrays`), and every
game it plays can be recorded and replayed through :class:`~couillon_dsl.engine.GameState`.

* :mod:`.eligible` says, without importing NumPy, whether a ruleset and its agents can run
  on the kernel, and if not which concept it does not take yet;
* :mod:`.arrays` turns a compiled :class:`~couillon_dsl.model.Ruleset` into flat arrays
  (deal plans, trump procedure, follow flags, per-context card tables, scoring tabulated
  over the hand facts its rules read);
* :mod:`.play` holds the ``@njit`` functions (cached on disk by Numba);
* :mod:`.driver` plays a range of games and folds them into the simulator's
  :class:`~couillon_dsl.simulation.Tally`, with records when asked.

Numba is the optional extra ``couillon-dsl[fast]``; without it :func:`available` is False
and the simulator plays on the Python engine.
"""
from __future__ import annotations

import importlib.util


def available() -> bool:
    """Whether Numba (the ``fast`` extra) is installed, without importing it."""
    return importlib.util.find_spec("numba") is not None
