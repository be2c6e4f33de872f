"""Any ruleset as an environment of the game-AI and RL ecosystems (the optional ``rl`` extra).

``pettingzoo.env(ruleset, **options)`` is a PettingZoo AEC environment; importing
``openspiel`` registers the OpenSpiel game ``python_couillon_dsl``. Both observe a seat
through :func:`~couillon_dsl.interop.encoding.ViewEncoder`, built from the seat's
:class:`~couillon_dsl.engine.SeatView` alone, so nothing hidden from a seat reaches it.
"""
