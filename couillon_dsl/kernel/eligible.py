"""Can a ruleset and its agents run on the kernel? If not, which concept is missing (no NumPy here).

The kernel plays the concepts of the language it knows, by their values: a ruleset is
declined when it sets a key the kernel does not read (a concept added to the language after
the kernel, such as contracts or auctions), or a known key to a value the kernel does not
play yet, and the reason names that key. The check looks at the compiled model's fields,
never at a ruleset's name, so a new ruleset written with known concepts runs at once.

The scoring facts a ruleset's rules read are tabulated (:func:`scoring_domains`): each read
fact has a finite domain, and the table holds one row per combination of them.
"""
from __future__ import annotations

import dataclasses
from math import prod
from typing import Any, Iterator, Sequence

from couillon_dsl.expr.compile import fact_reader, fact_readers
from couillon_dsl.engine.tables import OP_PACKET, OP_STOCK
from couillon_dsl.model import Ruleset

MAX_CARDS = 63  # hands are int64 masks
SCORE_TABLE_LIMIT = 1 << 18  # fact combinations the scoring table may hold
KERNEL_AGENTS = {"random": (), "greedy": ()}  # agent name -> settings the kernel takes

# every field of each model section the kernel reads, and the values it plays
KNOWN_FIELDS: dict[str, set[str]] = {
    "Ruleset": {"id", "name", "description", "sources", "options", "players", "dealer", "deck", "deal", "trump",
                "play", "announcements", "outcome", "scoresheet", "scoring", "session", "limits", "layout",
                "tables", "rollout", "definitions", "readings"},  # readings: rulebook notes only
    "Players": {"count", "teams", "direction"},
    "Dealer": {"first", "rotation"},
    "Suit": {"id", "name", "symbol", "ranks", "colour"},
    "Deck": {"suits", "ranks", "points", "trump_ranks", "trump_points", "promotions", "trump_suit",
             "card_points", "card_sets"},
    "Promotion": {"card", "name", "by_announcement", "below", "rank", "suit"},  # the contexts hold the cards
    "DealStep": {"packet", "to", "face", "stock", "turn_up", "set_aside", "decide"},
    "Trump": {"method", "offer", "choose", "maker_after_fallback"},
    "Offer": {"on_all_pass", "reoffer_first_speaker", "when_stock_exhausted"},
    "Choose": {"by", "ways", "on_defer"},
    "Play": {"first_lead", "follow", "trick_winner"},
    "Follow": {"led_suit", "when_void", "head", "head_when_trumped", "overtrump", "undertrump", "exempt"},
    "Announcement": {"id", "name", "holder_of", "after", "by"},
    "Outcome": {"compare", "maker_needs", "gap"},
    "Scoresheet": {"start", "goal", "direction", "display", "tie_carry", "tie_mark", "tie_next_dealer", "pass_carry"},
    "ScoringRule": {"name", "when", "team", "delta", "tie_scaled", "when_fn", "team_fn", "delta_fn", "reads",
                    "for_each"},
    "Session": {"games_to_win", "game_name"},  # game_name: the rulebook's word for a game
    "Limits": {"max_hands", "max_games", "max_redeals_in_a_row"},
}
KNOWN_VALUES: dict[tuple[str, str], set[Any]] = {
    ("ScoringRule", "for_each"): {"", "team"},
    ("Dealer", "rotation"): {"next", "same"},
    ("DealStep", "face"): {"down", "up"},
    ("DealStep", "turn_up"): {None, "stock_top", "stock_bottom"},
    ("DealStep", "decide"): {None, "trump"},
    ("Trump", "method"): {"offer", "choose", "turned", "none"},
    ("Trump", "maker_after_fallback"): {"none", "elder_team"},
    ("Offer", "on_all_pass"): {"bottom_card", "next_card", "redeal"},
    ("Offer", "reoffer_first_speaker"): {"elder", "dealer"},
    ("Offer", "when_stock_exhausted"): {"redeal"},
    ("Choose", "by"): {"elder", "dealer"},
    ("Choose", "on_defer"): {None, "first_card_of_next_packet"},
    ("Play", "first_lead"): {"elder", "maker", "dealer"},
    ("Play", "trick_winner"): {"highest_trump"},
    ("Follow", "led_suit"): {"follow_or_trump", "must_follow"},
    ("Follow", "when_void"): {"any", "must_trump"},
    ("Follow", "head"): {"never", "when_able"},
    ("Follow", "overtrump"): {"never", "when_able"},
    ("Follow", "undertrump"): {"allowed", "only_when_forced"},
    ("Announcement", "by"): {None, "opponents", "partners"},
    ("Outcome", "compare"): {"points", "tricks"},
    ("Outcome", "gap"): {"no_score", "tie"},
    ("Scoresheet", "direction"): {"down", "up"},
    ("Scoresheet", "tie_carry"): {"none", "next_decided_double", "cumulative_double"},
    ("Scoresheet", "tie_next_dealer"): {"next", "same"},
    ("Scoresheet", "pass_carry"): {"none", "single", "cumulative"},
}
CHOOSE_WAYS = {"name", "show", "defer"}
DEAL_SELECTORS = {"all", "elder", "dealer", "all_but_elder", "all_but_dealer"}

# the hand facts scoring may read, as the kernel's variables: name -> the facts it stands for
SCORE_VARIABLES = ("result", "maker", "dealer", "all_tricks", "tricks_per_hand", "points_in_play",
                   "passes_pending", "ties_pending", "points", "tricks", "announcers")
FACT_VARIABLE = {"winner": "result", "loser": "result", "decided": "result", "tie": "result", "no_score": "result",
                 "maker": "maker", "dealer_team": "dealer", "elder_team": "dealer", "all_tricks": "all_tricks",
                 "tricks_per_hand": "tricks_per_hand", "points_in_play": "points_in_play",
                 "passes_pending": "passes_pending", "ties_pending": "ties_pending", "points": "points",
                 "tricks": "tricks", "announcers": "announcers"}


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING


def unknown_concepts(obj: Any, where: str) -> Iterator[str]:
    """Every key of ``obj`` (a model dataclass, or a sequence of them) the kernel does not play."""
    if isinstance(obj, (tuple, list)):
        for i, item in enumerate(obj):
            yield from unknown_concepts(item, f"{where}[{i}]")
        return
    if not dataclasses.is_dataclass(obj):
        return
    kind = type(obj).__name__
    known = KNOWN_FIELDS.get(kind)
    if known is None:
        yield f"`{where}` ({kind})"
        return
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if f.name not in known:
            if not (value in (None, (), {}, False) or value == _default(f)):  # a new concept left at its default is unused
                yield f"`{where}.{f.name}`"
            continue
        allowed = KNOWN_VALUES.get((kind, f.name))
        if allowed is not None and value not in allowed:
            yield f"`{where}.{f.name}: {value}`"
        elif kind not in ("Ruleset", "ScoringRule") or f.name in ("players", "dealer", "deck", "deal", "trump", "play",
                                                                   "announcements", "outcome", "scoresheet",
                                                                   "scoring", "session", "limits"):
            yield from unknown_concepts(value, f"{where}.{f.name}" if where else f.name)


def scoring_domains(rs: Ruleset) -> list[tuple[str, int, int]]:
    """The tabulated variables of the scoring rules: (variable, index within it, number of values).

    Only the variables the rules read are in the table (a tie-scaled rule adds nothing: the
    kernel multiplies its part). Numbers of values: a result is a winning team, a tie or no
    score; a team fact is a team or none; counts run from 0 to their largest possible value.
    """
    reads: set[str] = set()
    for rule in rs.scoring:
        reads |= rule.reads
    reads.discard("options")
    unknown = sorted(reads - set(FACT_VARIABLE))
    if unknown:
        definitions = {d.name: d.text for d in rs.definitions}
        texts = [text for rule in rs.scoring for text in (rule.when, rule.team, rule.delta)
                 if isinstance(text, str) and text.strip()]
        words: set[str] = set()
        for fact in unknown:  # as the rules write it; a fact read only through a card set, by what fills it
            written = {word for text in texts for word in fact_readers(text, frozenset({fact}), definitions)}
            words |= written or {fact_reader(fact)}
        raise ValueError(f"scoring reads facts the kernel does not tabulate yet: {', '.join(sorted(words))}")
    variables = {FACT_VARIABLE[name] for name in reads}
    nteams = len(rs.players.teams)
    hand = hand_size(rs)
    most_points = max_points(rs)
    long_run = rs.limits.max_hands + 1
    size = {
        "result": nteams + 2, "maker": nteams + 1, "dealer": rs.players.count, "all_tricks": 2,
        "tricks_per_hand": hand + 1, "points_in_play": most_points + 1,
        "passes_pending": {"none": 1, "single": 2}.get(rs.scoresheet.pass_carry, long_run),
        "ties_pending": long_run, "points": most_points + 1, "tricks": hand + 1, "announcers": nteams + 1,
    }
    count = {"points": nteams, "tricks": nteams, "announcers": len(rs.announcements)}
    return [(name, i, size[name]) for name in SCORE_VARIABLES if name in variables for i in range(count.get(name, 1))]


def hand_size(rs: Ruleset) -> int:
    """Cards per hand (compile checks every seat gets as many); the largest where a schedule
    changes it from hand to hand, which the kernel declines (a hand's own is ``GameState.hand_tricks``)."""
    return max(rs.tables.hand_tricks)


def max_points(rs: Ruleset) -> int:
    """The most card points a hand can hold in play (every card at its highest value)."""
    return sum(max(ctx.points[c] for ctx in rs.tables.contexts) for c in range(rs.layout.size))


def ruleset_reason(rs: Ruleset) -> str | None:
    """Why ``rs`` cannot run on the kernel (every concept it lacks, so a user sees them all), or None."""
    reasons = []
    if rs.layout.size > MAX_CARDS:
        reasons.append(f"a pack of {rs.layout.size} cards (the kernel holds hands as masks of at most {MAX_CARDS} cards)")
    found = list(dict.fromkeys(concept.replace("`.", "`") for concept in unknown_concepts(rs, "")))
    found += [f"deal selector `to: {step.to}`" for step in rs.deal
              if step.kind == "packet" and isinstance(step.to, str) and step.to not in DEAL_SELECTORS]
    if any(op[0] == OP_PACKET for plan in rs.tables.deal_plans
           for op in plan[next((i for i, op in enumerate(plan) if op[0] == OP_STOCK), len(plan)):]):
        found.append("packets dealt from the stock")
    found += [f"a called partner `contracts.{c.id}.call`" for c in rs.contracts if c.call is not None]
    if rs.tables.deal_cycle > 1:
        found.append("a hand size that changes from deal to deal (a `packet` schedule)")
    choose = rs.trump.choose
    if rs.trump.method == "choose" and choose is not None and set(choose.ways) - CHOOSE_WAYS:
        found.append(f"`trump.choose.ways: {sorted(set(choose.ways) - CHOOSE_WAYS)}`")
    if found:
        reasons.append(f"{', '.join(found)} {'is' if len(found) == 1 else 'are'} not in the kernel yet")
    try:
        domains = scoring_domains(rs)
    except ValueError as exc:
        reasons.append(str(exc))
    else:
        rows = prod(size for _, _, size in domains)
        if rows > SCORE_TABLE_LIMIT:
            names = sorted({name for name, _, _ in domains})
            reasons.append(f"its scoring reads {', '.join(names)}: {rows:,} fact combinations, more than the kernel's "
                           f"table of {SCORE_TABLE_LIMIT:,}")
    return "; ".join(reasons) or None


def agents_reason(specs: Sequence[str]) -> str | None:
    """Why these per-seat agent specs cannot play in the kernel, or None."""
    for spec in specs:
        name, *settings = spec.strip().split(":")
        takes = KERNEL_AGENTS.get(name.strip().lower())
        if takes is None:
            return f"agent {name!r} plays in Python only (the kernel has {' and '.join(KERNEL_AGENTS)})"
        for setting in settings:
            key = setting.partition("=")[0].strip()
            if key not in takes:
                return f"agent setting {key!r} of {name!r} is not in the kernel"
    return None


def reason(rs: Ruleset, specs: Sequence[str]) -> str | None:
    """Why this run cannot use the kernel (the ruleset first, then the agents), or None."""
    from couillon_dsl.agents.greedy import avoids_tricks  # the agents import this module

    if any(spec.strip().split(":")[0].lower() == "greedy" for spec in specs) and avoids_tricks(rs):
        return ruleset_reason(rs) or "greedy's play where tricks cost their taker is not in the kernel yet"
    return ruleset_reason(rs) or agents_reason(specs)
