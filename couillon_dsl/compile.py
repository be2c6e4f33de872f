"""Compile a validated ruleset document (plus option values) into a frozen model.Ruleset.

Options are applied first (their `sets` pointers and value-keyed `patches`, default or
override, design §2.2); then each section becomes its model dataclass with the language's
defaults filled in, scoring expressions become closures, and the engine tables are built.
Nothing after this stage reads YAML.
"""
from __future__ import annotations

import copy
import dataclasses
import operator
from functools import reduce
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from couillon_dsl.cards import CardMask, DeckLayout, STANDARD_SUITS, SUIT_COLOURS
from couillon_dsl.diagnostics import Diagnostic, RulesetError, did_you_mean, error
from couillon_dsl.engine.declarations import build_declaration_tables
from couillon_dsl.engine.hand import OutcomeExpression
from couillon_dsl.engine.call import call_tables
from couillon_dsl.engine.kitty import build_kitty_tables, class_mask
from couillon_dsl.engine.rollout import make_rollout
from couillon_dsl.engine.tables import (
    OP_KITTY, build_tables, card_set_masks, equal_cards_tables, card_under_trump, point_unit, resolve_seats,
    while_stock_contexts,
)
from couillon_dsl.expr import facts_read
from couillon_dsl.expr.parse import exact
from couillon_dsl.loader import Document, escape, load_ruleset, merged, unescape
from couillon_dsl.model import (
    Announcement, Auction, CardRole, Choose, Contract, DealCheck, DealStep, Dealer, Declaration, DeclarationPattern, Deck, Delegate,
    Draw, DrawExchange, EqualCards, ExchangeTable,
    Bids, Discard, Extra, FirstHand, Kitty, Follow, Limits, Offer, OptionSpec, Outcome, Play, Players, Passing, Promotion, Reading, Ruleset, ScoringRule, Tally,
    PartnerByTrick, PartnerCall, Scoresheet, Session, Source, Suit, Tables, Trump, TrumpContext, deal_cycle, hand_script,
)
from couillon_dsl.schema import with_defaults

_NULL_WORDS = ("null", "none", "~")
_TRUE_WORDS = ("true", "yes", "on", "1")
_FALSE_WORDS = ("false", "no", "off", "0")


def build_ruleset(path_or_name: str | Path, options: Mapping[str, Any] | None = None) -> Ruleset:
    """Load, check and compile a ruleset; raises RulesetError if any diagnostic is an error."""
    from couillon_dsl.validate import check  # validation pulls in jsonschema: import on use

    document = load_ruleset(path_or_name)
    errors = [d for d in check(document) if d.is_error]
    if errors:
        raise RulesetError(errors)
    return compile_ruleset(document, options)


def compile_ruleset(document: Document, options: Mapping[str, Any] | None = None) -> Ruleset:
    """Compile a checked document with option overrides (by name; strings are coerced)."""
    data, specs = apply_options(document, options or {})
    with_defaults(data)
    deck = _deck(data["deck"])
    layout = _layout(deck)
    players = _players(data["players"])
    dealer_data = data.get("dealer", {})
    dealer = Dealer(first=dealer_data.get("first", 0), rotation=dealer_data.get("rotation", "next"),
                    stays_when=dealer_data.get("stays_when"))
    deal = tuple(_deal_step(step) for step in data["deal"])
    trump = _trump(data.get("trump", {"method": "none"}), layout.suits)
    play_data = data.get("play", {})
    follow = _follow(play_data.get("follow", {}))
    play = Play(
        first_lead=play_data.get("first_lead", "elder"),
        follow=follow,
        trick_winner=play_data.get("trick_winner", "highest_trump"),
        last_trick_points=play_data.get("last_trick_points", 0),
        lead_once_broken=_card_classes(play_data.get("lead_once_broken")),
        first_lead_card=play_data.get("first_lead_card"),
        not_on_first_trick=_card_classes(play_data.get("not_on_first_trick")),
        no_called_suit_first_lead=play_data.get("no_called_suit_first_lead"),
        equal_cards=_equal_cards(play_data.get("equal_cards")),
        dummy=play_data.get("dummy"),
        draw=_draw(play_data["draw"]) if play_data.get("draw") is not None else None,
        stop_when=play_data.get("stop_when"),
    )
    contracts = tuple(_contract(key, value) for key, value in (data.get("contracts") or {}).items())
    first_hand = trump.choose.first_hand if trump.choose else None
    announcements = tuple(
        Announcement(id=key, name=value.get("name", key), holder_of=value.get("holder_of"),
                     after=value.get("after"), by=value.get("by"), leads=value.get("leads", False),
                     sits_out=value.get("sits_out"), shows_hand=value.get("shows_hand", False),
                     offered_when=value.get("offered_when"), for_side=value.get("for_side"),
                     before_card=value.get("before_card"), reply_to=tuple(value.get("reply_to", ())),
                     before_lead=value.get("before_lead", False), after_declarer=value.get("after_declarer", False),
                     implies=value.get("implies"), closes_stock=value.get("closes_stock", False),
                     min_stock=value.get("min_stock", 1), ends_hand=value.get("ends_hand", False))
        for key, value in (data.get("announcements") or {}).items()
    )
    roles = tuple(_card_role(key, raw) for key, raw in (data.get("card_roles") or {}).items())
    deal_checks = tuple(
        DealCheck(id=key, name=raw.get("name", key), holds=tuple(raw.get("holds", ())), lacks=tuple(raw.get("lacks", ())),
                  counts=tuple(("suit", c["suit"]) + (c.get("min", 0), c.get("max")) if "suit" in c
                               else ("set", c["set"], c.get("min", 0), c.get("max")) for c in raw.get("counts", ())))
        for key, raw in (data.get("deal_checks") or {}).items())
    declarations = tuple(_declaration(key, value) for key, value in (data.get("declarations") or {}).items())
    outcome = Outcome(**(data.get("outcome") or {}))
    scoresheet = Scoresheet(**{"goal": 0, "direction": "down", **data["scoresheet"]})  # the schema's defaults
    names = dataclasses.replace(_expr_names(announcements, specs, players.nsides, declarations),
                                whole_points=point_unit(deck, roles) == 1,
                                card_sets=card_set_masks(layout, deck.card_sets),
                                fixed_teams=players.sides == "teams", tallies=tuple(data.get("tallies") or {}))
    definitions, names = _definitions(data, document, names)
    texts = {d.name: d.text for d in definitions}
    scoring = tuple(_scoring_rule(name, rule, document, names, texts) for name, rule in data["scoring"].items())
    tallies = tuple(_tally(name, raw, document, names, texts) for name, raw in (data.get("tallies") or {}).items())
    game_ends = _scoring_rule("ends_when", {"ends_when": scoresheet.ends_when, "won_by": scoresheet.won_by or "none"},
                              document, names, texts, base="/scoresheet", when_key="ends_when",
                              team_key="won_by") if scoresheet.ends_when else None
    dealer_stays = _scoring_rule("stays_when", {"stays_when": dealer.stays_when, "team": "none"}, document, names,
                                 texts, base="/dealer", when_key="stays_when") if dealer.stays_when else None
    session = Session(**(data.get("session") or {}))
    limits = Limits(**(data.get("limits") or {}))
    hand_size = _check_playable(document, deal, players, layout, trump)
    bids_data = data.get("bids")
    bids = None if bids_data is None else Bids(
        lowest=bids_data.get("lowest", 0), highest=bids_data.get("highest", hand_size),
        may_total_tricks=bids_data.get("may_total_tricks", True), **_blind_bid(bids_data, document, names))
    passing_data = data.get("passing")
    passing = None if passing_data is None else Passing(cards=passing_data["cards"],
                                                        to=tuple(passing_data.get("to", ("next",))))
    tables = build_tables(deck, layout, follow, players, deal, announcements, outcome, scoring, scoresheet,
                          {name: spec.value for name, spec in specs.items()}, session, limits, definitions,
                          contracts, layout.parse(first_hand.holder_of) if first_hand else -1,
                          card_roles=roles, deal_checks=deal_checks,
                          decider=_decider(outcome, document, names, texts), tallies=tallies, game_ends=game_ends,
                          all_pass_contract=next((i for i, c in enumerate(contracts) if trump.auction is not None
                                                  and c.id == trump.auction.all_pass_contract), -1),
                          dealer_stays=dealer_stays)
    if play.draw is not None and play.draw.while_stock is not None:
        tables = dataclasses.replace(tables, contexts=while_stock_contexts(tables.contexts, play.draw.while_stock, layout))
    if play.equal_cards is not None:
        later, later_last = equal_cards_tables(layout, play.equal_cards)
        equalled: dict[int, TrumpContext] = {}  # by id: a context shared by several promotion sets stays shared
        for ctx in tables.contexts:
            if id(ctx) not in equalled:
                equalled[id(ctx)] = dataclasses.replace(ctx, later_beats=later, later_beats_last=later_last)
        tables = dataclasses.replace(tables, contexts=tuple(equalled[id(ctx)] for ctx in tables.contexts))
    if declarations:
        built = build_declaration_tables(declarations, layout)
        tables = dataclasses.replace(tables, declarations=built,
                                     trick_melds=tuple(table for table in built if table.per_trick),
                                     led_melds=(led := tuple(table for table in built if table.when == "led"
                                                             and not table.optional)),
                                     led_offered=tuple(table for table in built if table.when == "led" and table.optional),
                                     won_melds=tuple(table for table in built if table.when == "trick_won"),
                                     led_watch=tuple(reduce(operator.or_, (group.mask for table in led for group in table.sets[t]), 0)
                                                     for t in range(len(layout.suits) + 2)) if led else ())
    tables = dataclasses.replace(
        tables, first_trick_offers=any(a.holder_of for a in announcements) or any(
            d.optional and d.when == "before_first_play" for d in declarations),
        declarer_offers=tuple(i for i, a in enumerate(announcements) if a.by == "declarer" and not a.after),
        leading=tuple(i for i, a in enumerate(announcements) if a.leads),
        sends_partners_out=tuple(i for i, a in enumerate(announcements) if a.sits_out == "partners"),
        shows_hand=tuple(i for i, a in enumerate(announcements) if a.shows_hand),
        leader_offers=tuple((i, a.min_stock if a.closes_stock else 0)
                            for i, a in enumerate(announcements) if a.by == "leader"),
        stock_closers=sum(1 << i for i, a in enumerate(announcements) if a.closes_stock),
        hand_enders=sum(1 << i for i, a in enumerate(announcements) if a.ends_hand),
        turned_no_trump=_turned_cards(deal, layout, "none"),
        turned_named=_turned_cards(deal, layout, "named_by_dealer"),
        scored_in_sight=not (tables.reads_held or tables.reads_top_runs or players.sides != "teams"
                             or any(not d.shown for d in declarations)
                             or any(c.aside_counts_for != "nobody" or c.call for c in contracts)),
        offered_when=_offered_when(announcements, "announcements", document, names),
        calls=call_tables(layout, deck, contracts, play.no_called_suit_first_lead),
        contract_offered=_offered_when(contracts, "contracts", document, names),
        stop_when=_stop_when(play, document, names),
        stop_reads_won=play.stop_when is not None and "won" in facts_read(play.stop_when),
        side_offers=_side_offers(announcements),
        lead_asks=tuple(i for i, a in enumerate(announcements) if a.for_side and a.before_lead),
        after_declarer_only=sum(1 << i for i, a in enumerate(announcements) if a.for_side and a.after_declarer))
    if tables.side_offers:
        deadlines, implies = [-1] * len(announcements), [-1] * len(announcements)
        for i, _, before, _, implied in tables.side_offers:
            deadlines[i], implies[i] = before, implied
        tables = dataclasses.replace(tables, side_deadlines=tuple(deadlines), side_implies=tuple(implies))
    if play.lead_once_broken or play.first_lead_card or play.not_on_first_trick:
        tables = dataclasses.replace(
            tables, unbroken=class_mask(layout, deck, play.lead_once_broken),
            first_lead_card=layout.parse(play.first_lead_card) if play.first_lead_card else -1,
            first_trick_barred=class_mask(layout, deck, play.not_on_first_trick), play_rules=True)
    if any(c.call is not None and (c.call.plays_when_led or c.call.bars or play.no_called_suit_first_lead)
           for c in contracts):  # legal_mask: play_rules
        tables = dataclasses.replace(tables, play_rules=True)
    if follow.when_partner_winning == "free":  # the closure knows no seats: legal_mask applies it (play_rules)
        tables = dataclasses.replace(tables, partner_free=True, play_rules=True)
    if play.draw is not None:  # legal_mask reads the stock (play_rules); each hand has its share of the stock's tricks
        seats = players.count  # the checks keep every seat in play beside drawing
        tables = dataclasses.replace(
            tables, draw=play.draw.cards, free_while_stock=play.draw.follow_obligations == "once_stock_empty",
            play_rules=True, hand_tricks=tuple(dealt + (layout.size - seats * dealt) // seats
                                               for dealt in tables.hand_tricks))
        if play.draw.exchange:  # each trade's card under each trump (none without one), the turned cards it takes
            tables = dataclasses.replace(tables, exchanges=tuple(_exchange_table(layout, e) for e in play.draw.exchange))
    tables = dataclasses.replace(tables, lead_offers=bool(tables.exchanges or tables.leader_offers or tables.won_melds
                                                          or tables.led_offered))
    if tables.led_offered:  # legal_mask: a combination declared by choice is led from (play_rules)
        tables = dataclasses.replace(tables, play_rules=True)
    discard = _discard(data["discard"]) if data.get("discard") else None
    offered_taken = trump.offer is not None and trump.offer.taken_by is not None and trump.offer.taker_discards
    if offered_taken or any(step.kind == "kitty" for step in deal):
        tables = dataclasses.replace(tables, kitty=build_kitty_tables(contracts, discard, layout, deck,
                                                                      tables.deal_plans, OP_KITTY))
    if trump.auction is not None:
        ids = [c.id for c in contracts]
        strains = open_strains(tables, len(layout.suits), bool(contracts)) if trump.auction.procedure == "open" else ()
        tables = dataclasses.replace(tables, auction_ladder=tuple(tables.fixed_contracts.index(ids.index(c))
                                                                  for c in trump.auction.ladder),
                                     auction_rungs=trump.auction.rungs,
                                     partner_tricks=tuple((c.partner_by_trick.within, c.partner_by_trick.tricks)
                                                          if c.partner_by_trick else None for c in contracts)
                                     if any(c.partner_by_trick for c in contracts) else (),
                                     bidder_holds=tuple(sum(layout.copies_mask(layout.parse(card))
                                                            for card in c.bidder_holds) for c in contracts)
                                     if any(c.bidder_holds for c in contracts) else (),
                                     all_pass_side_cards=layout.copies_mask(layout.parse(trump.auction.all_pass_side_card))
                                     if trump.auction.all_pass_side_card else 0,
                                     auction_values=trump.auction.values,
                                     auction_rounds=trump.auction.procedure == "rounds",
                                     kitty_choice=trump.auction.kitty == "declarer_decides",
                                     auction_suits=len(strains), auction_strains=strains,
                                     open_barred=frozenset(
                                         v * len(strains) + s for s, (c, _) in enumerate(strains)
                                         if c >= 0 and contracts[c].bid_values
                                         for v, value in enumerate(trump.auction.values)
                                         if value not in contracts[c].bid_values),
                                     doubling=trump.auction.doubling)
    ruleset = Ruleset(
        id=data["id"],
        name=data["name"],
        description=data.get("description", ""),
        sources=tuple(Source(key=s["key"], title=s["title"], url=s.get("url"), sections=tuple(s.get("sections", ())))
                      for s in data.get("sources", ())),
        options=specs,
        players=players,
        dealer=dealer,
        deck=deck,
        deal=deal,
        trump=trump,
        play=play,
        announcements=announcements,
        outcome=outcome,
        scoresheet=scoresheet,
        scoring=scoring,
        session=session,
        limits=limits,
        layout=layout,
        tables=tables,
        contracts=contracts,
        definitions=definitions,
        card_roles=roles,
        deal_checks=deal_checks,
        declarations=declarations,
        readings=tuple(Reading(r["setting"], _value_at(data, r["setting"]), r["note"]) for r in data["readings"]),
        discard=discard,
        bids=bids,
        tallies=tallies,
        passing=passing,
    )
    return dataclasses.replace(ruleset, rollout=make_rollout(ruleset))


# ---------------------------------------------------------------------- options
def apply_options(document: Document, overrides: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, OptionSpec]]:
    """The document's data with every option applied, and the option specs with their values."""
    data = copy.deepcopy(document.data)
    declared: dict[str, Any] = data.get("options") or {}
    problems: list[Diagnostic] = []
    for name in overrides:
        if name not in declared:
            problems.append(error(
                "unknown-option", f"this ruleset has no option '{name}'", document.span_of("/options"), "/options",
                did_you_mean(name, declared) or (f"options: {', '.join(declared)}" if declared else "it declares no options"),
            ))
    specs: dict[str, OptionSpec] = {}
    for name, raw in declared.items():
        pointer = f"/options/{escape(name)}"
        choices = tuple(raw["choices"]) if "choices" in raw else None
        spec = OptionSpec(
            name=name, description=raw.get("description", ""), default=raw.get("default"), value=None,
            choices=choices, type=raw.get("type"), minimum=raw.get("minimum"), maximum=raw.get("maximum"),
            sets=tuple(raw.get("sets", ())),
            patches=tuple((p["value"], p["patch"]) for p in raw.get("patches", ())),
        )
        given = name in overrides
        value = _coerce(spec, overrides[name]) if given else spec.default
        problem = _option_problem(spec, value)
        if problem:
            problems.append(error(
                "bad-option-value", f"option '{name}': {problem}", document.span_of(pointer), pointer,
                f"allowed: {_allowed(spec)}",
            ))
            continue
        specs[name] = dataclasses.replace(spec, value=value)
    if problems:
        raise RulesetError(problems)
    # an option asked for sets its targets after every patch, so it wins over another option's patch that
    # writes the same setting (a player count whose patch sets the game's deals, beside a `deals` option); one left
    # at its default yields to such a patch, and takes the value the patch wrote. A patch that replaces what
    # holds the target (a list, a mapping) keeps it: `_overridden` refuses a value asked for there
    for spec in specs.values():
        if spec.name not in overrides:
            for target in spec.sets:
                _set_pointer(data, target, copy.deepcopy(spec.value))
    applied = [patch for spec in specs.values() for value, patch in spec.patches if _same(value, spec.value)]
    for patch in applied:
        data = merged(data, patch)
    for name, spec in specs.items():
        if name in overrides:
            for target in spec.sets:
                if not any(_replaces(patch, target) for patch in applied):
                    _set_pointer(data, target, copy.deepcopy(spec.value))
        elif spec.sets and any(_writes_at(patch, spec.sets[0]) for patch in applied):
            specs[name] = dataclasses.replace(spec, value=_value_at(data, spec.sets[0]))
    changed = [name for name in overrides if not _same(specs[name].value, specs[name].default)]
    overridden = [_overridden(document, specs, name) for name in changed]
    if any(overridden):
        raise RulesetError([problem for problem in overridden if problem is not None])
    if changed:
        _check_option_values(document, data, changed)
    return data, specs


def _overridden(document: Document, specs: Mapping[str, OptionSpec], name: str) -> Diagnostic | None:
    """An error when another option's patch in force replaces a mapping or list above what option
    ``name`` sets, so that the value asked for would be silently lost or land in a setting of
    another shape (a hand size under a schedule that replaces the whole deal). A patch writing the
    very setting yields to the option asked for."""
    spec = specs[name]
    for target in spec.sets:
        for other in specs.values():
            if other.name != name and any(_same(value, other.value) and _replaces(patch, target)
                                          for value, patch in other.patches):
                pointer = f"/options/{escape(name)}"
                values = [*(other.choices or ()), other.default, *(value for value, _ in other.patches)]
                leave = [v for v in dict.fromkeys(map(repr, values))
                         if not any(repr(value) == v and _replaces(patch, target) for value, patch in other.patches)]
                hint = (f"set option '{other.name}' to {' or '.join(leave)} as well" if leave
                        else f"no value of '{other.name}' leaves {target} alone")
                return error("option-overridden", f"option '{name}' = {spec.value!r} has no effect: option "
                             f"'{other.name}' = {other.value!r} replaces {target}", document.span_of(pointer),
                             pointer, hint)
    return None


def _writes_at(patch: Any, pointer: str) -> bool:
    """Whether a merge patch writes the value at ``pointer`` itself, along mappings only."""
    node = patch
    for token in (unescape(t) for t in pointer.split("/")[1:]):
        if not isinstance(node, dict) or token not in node:
            return False
        node = node[token]
    return True


def _replaces(patch: Any, pointer: str) -> bool:
    """Whether a merge patch writes over a value above ``pointer`` (a list or scalar replacing the
    mapping or list that holds it), not the value at ``pointer`` itself."""
    node = patch
    tokens = [unescape(t) for t in pointer.split("/")[1:]]
    for depth, token in enumerate(tokens, 1):
        if not isinstance(node, dict) or token not in node:
            return False
        node = node[token]
        if not isinstance(node, dict):
            return depth < len(tokens)
    return False


def _check_option_values(document: Document, data: dict[str, Any], changed: list[str]) -> None:
    """Check the ruleset the chosen option values make, as `validate` checks the defaults' one.

    A value can have the option's type and still not fit the key it sets (a free string
    where a card is wanted), so the whole effective ruleset is checked again.
    """
    from couillon_dsl.validate import check

    # the options are applied already: their patches and settings are not applied again over the result
    # (a patch removing what another value's patch names would fail there), their names and types stay
    # for `option(...)`
    applied = {**data, "options": {name: {k: v for k, v in spec.items() if k not in ("patches", "sets")}
                                   for name, spec in (data.get("options") or {}).items()}}
    errors = [d for d in check(dataclasses.replace(document, data=applied)) if d.is_error]
    if errors:
        pointer = f"/options/{escape(changed[0])}"
        names = ", ".join(f"'{name}'" for name in changed)
        raise RulesetError([error(
            "bad-option-value", f"option {names}: the ruleset it makes is invalid: {d.message}",
            document.span_of(pointer), pointer, d.hint or "choose a value the setting accepts",
        ) for d in errors])


def _same(a: Any, b: Any) -> bool:
    """Equality that keeps True apart from 1 (YAML `true` and `1` are different choices)."""
    return type(a) is type(b) and a == b or (a is None and b is None)


def _coerce(spec: OptionSpec, raw: Any) -> Any:
    """Turn a command-line string into the option's value type; other values pass through."""
    if not isinstance(raw, str):
        return raw
    text = raw.strip()
    if spec.choices is not None:
        for choice in spec.choices:
            if isinstance(choice, str) and choice == text:
                return choice
        for choice in spec.choices:
            if choice is None and text.lower() in _NULL_WORDS:
                return None
            if isinstance(choice, bool) and text.lower() in (_TRUE_WORDS if choice else _FALSE_WORDS):
                return choice
            if isinstance(choice, int) and not isinstance(choice, bool) and text.lstrip("-").isdigit() and int(text) == choice:
                return choice
        return raw
    if spec.type == "integer" and text.lstrip("-").isdigit():
        return int(text)
    if spec.type == "boolean" and text.lower() in _TRUE_WORDS + _FALSE_WORDS:
        return text.lower() in _TRUE_WORDS
    return raw


def _option_problem(spec: OptionSpec, value: Any) -> str | None:
    if spec.choices is not None:
        return None if any(_same(value, c) for c in spec.choices) else f"{value!r} is not one of the choices"
    if spec.type == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            return f"{value!r} is not an integer"
        if spec.minimum is not None and value < spec.minimum or spec.maximum is not None and value > spec.maximum:
            return f"{value} is out of range"
    elif spec.type == "boolean" and not isinstance(value, bool):
        return f"{value!r} is not true or false"
    elif spec.type == "string" and not isinstance(value, str):
        return f"{value!r} is not a string"
    return None


def _allowed(spec: OptionSpec) -> str:
    if spec.choices is not None:
        return ", ".join("null" if c is None else str(c).lower() if isinstance(c, bool) else str(c) for c in spec.choices)
    if spec.type == "integer":
        return f"an integer from {spec.minimum if spec.minimum is not None else '-inf'} to {spec.maximum if spec.maximum is not None else 'inf'}"
    return {"boolean": "true or false", "string": "any text"}.get(spec.type or "", "any value")


def _value_at(data: Any, pointer: str) -> Any:
    """The value at a JSON pointer that semantic checks found present."""
    for token in pointer.split("/")[1:]:
        data = data[int(token)] if isinstance(data, list) else data[unescape(token)]
    return data


def _set_pointer(data: dict[str, Any], pointer: str, value: Any) -> None:
    """Write ``value`` at a JSON pointer, creating missing mappings on the way."""
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
    node: Any = data
    for token in tokens[:-1]:
        node = node[int(token)] if isinstance(node, list) else node.setdefault(token, {})
    last = tokens[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


# ---------------------------------------------------------------------- sections
def _players(raw: Mapping[str, Any]) -> Players:
    """The players; with sides fixed per hand, every seat is a team of its own on the scoresheet."""
    count, sides = raw["count"], raw.get("sides", "teams")
    teams = tuple(tuple(team) for team in raw["teams"]) if sides == "teams" else tuple((s,) for s in range(count))
    return Players(count=count, teams=teams, direction=raw.get("direction", "clockwise"), sides=sides,
                   side_card=raw.get("side_card"), sit_out=raw.get("sit_out"))


def _suit(raw: Any) -> Suit:
    if isinstance(raw, str):
        name, symbol = STANDARD_SUITS.get(raw, (raw, raw))
        return Suit(raw, name, symbol, colour=SUIT_COLOURS.get(raw))
    known = STANDARD_SUITS.get(raw["id"], (raw["id"], raw["id"]))
    ranks, trump_ranks = raw.get("ranks"), raw.get("trump_ranks")
    return Suit(raw["id"], raw.get("name", known[0]), raw.get("symbol", known[1]),
                tuple(str(r) for r in ranks) if ranks else None, raw.get("colour", SUIT_COLOURS.get(raw["id"])),
                tuple(str(r) for r in trump_ranks) if trump_ranks else None)


def _promotion(raw: Mapping[str, Any]) -> Promotion:
    card, rank = raw.get("card"), raw.get("rank")
    default_name = card if card else f"the {rank} of the trump's colour"
    return Promotion(card=card, name=raw.get("name", default_name), by_announcement=raw.get("by_announcement"),
                     below=None if "below" not in raw else str(raw["below"]), rank=None if rank is None else str(rank),
                     suit=raw.get("suit"), top=raw.get("top", False))


def _layout(deck: Deck) -> DeckLayout:
    """The card numbering of the compiled deck (suit-major, ranks high to low, extras last)."""
    suits = deck.suits
    return DeckLayout(tuple(s.id for s in suits), deck.ranks, tuple(s.name for s in suits), tuple(s.symbol for s in suits),
                      tuple(s.ranks or deck.ranks for s in suits), tuple(e.id for e in deck.extras),
                      tuple(e.symbol for e in deck.extras), deck.copies)


def exact_points(value: Any) -> int | Fraction:
    """A point value as written (``4.5`` reaches us as a YAML float) made exact: no float survives."""
    if isinstance(value, float):
        value = Fraction(str(value))
    return exact(Fraction(value))


def _points(table: Mapping[str, Any]) -> dict[str, int | Fraction]:
    return {str(k): exact_points(v) for k, v in table.items()}


def _deck(deck: Mapping[str, Any]) -> Deck:
    trump_ranks = deck.get("trump_ranks")
    return Deck(
        suits=tuple(_suit(s) for s in deck["suits"]),
        ranks=tuple(str(r) for r in deck["ranks"]),
        points=_points(deck["points"]),
        trump_ranks=tuple(str(r) for r in trump_ranks) if trump_ranks else None,
        trump_points=_points(deck["trump_points"]) if deck.get("trump_points") else None,
        promotions=tuple(_promotion(p) for p in deck.get("promotions") or ()),
        extras=tuple(Extra(e["id"], e.get("name", e["id"]), e.get("symbol", e["id"])) for e in deck.get("extras") or ()),
        trump_suit=deck.get("trump_suit"),
        card_points=_points(deck.get("card_points") or {}),
        card_sets={name: tuple(cards) for name, cards in (deck.get("card_sets") or {}).items()},
        copies=deck.get("copies", 1),
    )


def _card_role(key: str, raw: Mapping[str, Any]) -> CardRole:
    kept = raw.get("kept_by_owner")
    return CardRole(
        id=key, cards=tuple(raw["cards"]), play_anytime=raw.get("play_anytime", False),
        wins=raw.get("wins", "normally"), when_led=raw.get("when_led", "normal"), kept_by_owner=kept is not None,
        compensation=exact_points((kept or {}).get("compensation", 0)),
        on_last_trick=(kept or {}).get("on_last_trick", "kept"),
    )


def _turned_cards(deal: Sequence[DealStep], layout: DeckLayout, trump: str) -> CardMask:
    """Every copy of the cards the deal's turn-up steps say fix trump so when turned (`if_turned`)."""
    return layout.with_copies(layout.parse_mask([card for step in deal for cards, then in step.if_turned
                                                 if then == trump for card in cards]))


def _deal_step(raw: Mapping[str, Any]) -> DealStep:
    to = raw.get("to")
    return DealStep(
        packet=tuple(raw["packet"]) if isinstance(raw.get("packet"), list) else raw.get("packet"),
        to=tuple(to) if isinstance(to, list) else to,
        face=raw.get("face", "down"),
        stock=raw.get("stock"),
        turn_up=raw.get("turn_up"),
        if_stock_empty=raw.get("if_stock_empty"),
        if_turned=tuple((tuple(str(c) for c in entry["cards"]), entry["trump"]) for entry in raw.get("if_turned", ())),
        set_aside=raw.get("set_aside"),
        decide=raw.get("decide"),
        kitty=raw.get("kitty"),
        announce=raw.get("announce"),
    )


def open_strains(tables: Tables, nsuits: int, contracts: bool) -> tuple[tuple[int, int], ...]:
    """What an open auction's bid may name beside its value, as (contract, trump suit): each suit
    (under the contract whose trump is named, or none without contracts), then every other enabled
    contract (its own trump: a suit, or -1)."""
    named = tables.named_contract
    suits = tuple((named, s) for s in range(nsuits)) if named >= 0 or not contracts else ()
    return suits + tuple((c, tables.contract_trump[c]) for c in tables.fixed_contracts)


def _contract(key: str, raw: Mapping[str, Any]) -> Contract:
    """One contract; rank keys are strings (YAML may give numbers)."""
    def ranks_to(values: Mapping[Any, int] | None) -> Mapping[str, int] | None:
        return {str(k): v for k, v in values.items()} if values else None

    multiplier = raw.get("multiplier", 1)
    return Contract(
        id=key, name=raw.get("name", key), trump=str(raw.get("trump", "named")), enabled=raw.get("enabled", True),
        ranks=tuple(str(r) for r in raw["ranks"]) if raw.get("ranks") else None,
        points=ranks_to(raw.get("points")), trump_points=ranks_to(raw.get("trump_points")),
        multiplier=multiplier if isinstance(multiplier, int) else dict(multiplier),
        aside_counts_for=raw.get("aside_counts_for", "nobody"),
        kitty=Kitty(**raw.get("kitty", {})),
        call=_call(raw["call"]) if "call" in raw else None,
        promoted=tuple(str(c) for c in raw["promoted"]) if "promoted" in raw else None,
        bidder_holds=tuple(str(c) for c in raw.get("bidder_holds", ())),
        partner_by_trick=PartnerByTrick(**raw["partner_by_trick"]) if "partner_by_trick" in raw else None,
        offered_when=raw.get("offered_when"),
        sits_out=raw.get("sits_out"),
        bid_values=tuple(raw.get("bid_values", ())),
        shows_hand=raw.get("shows_hand", False),
    )


def _call(raw: Mapping[str, Any]) -> PartnerCall:
    """A contract's call: card lists as tuples of names, a set's name as a string; ``otherwise`` as a
    tuple of tiers (one card list or set is one tier)."""
    def cards(value: Any) -> tuple[str, ...] | str:
        return value if isinstance(value, str) else tuple(str(c) for c in value)

    def tiers(value: Any) -> tuple[tuple[str, ...] | str, ...]:
        if not value:
            return ()
        return tuple(map(cards, value)) if isinstance(value, list) and isinstance(value[0], list) else (cards(value),)

    return PartnerCall(cards=cards(raw["cards"]), must_hold_suit=raw.get("must_hold_suit", False),
                       own=raw.get("own", "forbidden"), otherwise=tiers(raw.get("otherwise")),
                       plays_when_led=raw.get("plays_when_led", False), leads_it_first=raw.get("leads_it_first", False),
                       runs_away_with=raw.get("runs_away_with", 0), kept_until_led=raw.get("kept_until_led", False),
                       caller_keeps_suit=raw.get("caller_keeps_suit", False), when=raw.get("when", "after_kitty"),
                       if_none=raw.get("if_none", "may_not_bid"), alone_by_choice=raw.get("alone_by_choice", False))


def _equal_cards(raw: Mapping[str, Any] | None) -> EqualCards | None:
    """`play.equal_cards`; ``last_trick`` left out: as ``wins``."""
    if raw is None:
        return None
    wins = raw.get("wins", "first")
    return EqualCards(wins=wins, cards=tuple(str(c) for c in raw.get("cards") or ()),
                      last_trick=raw.get("last_trick", wins))


def _follow(raw: Mapping[str, Any]) -> Follow:
    """Follow obligations (`play.follow`, `play.draw.while_stock`)."""
    settings: dict[str, Any] = {k: tuple(v) if k == "exempt" else v for k, v in raw.items()}
    return Follow(**settings)


def _draw(raw: Mapping[str, Any]) -> Draw:
    """`play.draw`, its `exchange` (one trade or a list) as :class:`DrawExchange` trades, its `while_stock` as a
    :class:`Follow`."""
    exchange, while_stock = raw.get("exchange") or (), raw.get("while_stock")
    trades = (exchange,) if isinstance(exchange, Mapping) else tuple(exchange)
    return Draw(**{**raw, "exchange": tuple(DrawExchange(**{**e, "turned": tuple(str(r) for r in e.get("turned", ()))})
                                            for e in trades),
                   "while_stock": _follow(while_stock) if while_stock is not None else None})


def _exchange_table(layout: DeckLayout, exchange: DrawExchange) -> ExchangeTable:
    """One trade for the turned card compiled (names were checked by the semantic checks)."""
    cards = tuple(card_under_trump(layout, exchange.card, trump) for trump in range(-1, len(layout.suits)))
    ranks = [r.upper() for r in exchange.turned]
    turned = sum(1 << c for c in range(layout.size) if layout.rank_name(c).upper() in ranks) if ranks else layout.full_mask
    return ExchangeTable(tuple(-1 if card is None else card for card in cards), turned, exchange.min_stock,
                         exchange.needs_trick)


def _card_classes(raw: Any) -> tuple[tuple[str, str], ...]:
    """Card classes as (kind, id) pairs: ({rank: K} -> ("rank", "K")); ids are strings (YAML may give numbers)."""
    return tuple((kind, str(key)) for item in raw or () for kind, key in item.items())


def _discard(raw: Mapping[str, Any]) -> Discard:
    return Discard(never=_card_classes(raw.get("never")), last_resort=_card_classes(raw.get("last_resort")),
                   shown=_card_classes(raw.get("shown")))


def _trump(raw: Mapping[str, Any], suits: Sequence[str]) -> Trump:
    """The trump section; a method's settings block may be left out (every setting has a default)."""
    method = raw.get("method", "none")
    offer = raw.get("offer") or {}
    choose: dict[str, Any] = {k: tuple(v) if k == "ways" else v for k, v in (raw.get("choose") or {}).items()}
    if "first_hand" in choose:
        choose["first_hand"] = FirstHand(holder_of=choose["first_hand"]["holder_of"])
    if "delegate" in choose:
        choose["delegate"] = Delegate(**choose["delegate"])
    return Trump(
        method=method,
        offer=Offer(**offer) if method == "offer" else None,
        choose=Choose(**choose) if method == "choose" else None,
        maker_after_fallback=raw.get("maker_after_fallback", "none"),
        drawn=tuple((raw.get("drawn") or {}).get("suits") or suits) if method == "drawn" else (),
        auction=_auction(raw["auction"]) if method == "auction" and raw.get("auction") else None,
    )


def _auction(raw: Mapping[str, Any]) -> Auction:
    """`trump.auction`; a list in the ladder is a rung of contracts equal in rank."""
    rungs = {key: rung for rung, item in enumerate(raw.get("ladder", ()))
             for key in ([item] if isinstance(item, str) else item)}
    on_all_pass = raw.get("on_all_pass", "redeal")
    return Auction(ladder=tuple(rungs), rungs=tuple(rungs.values()), first=raw.get("first", "elder"),
                   procedure=raw.get("procedure", "once"), values=tuple(raw.get("values", ())),
                   kitty=raw.get("kitty", "by_contract"), doubling=tuple(raw.get("doubling", ())),
                   double_out_of_turn=raw.get("double_out_of_turn", False),
                   pass_is_final=raw.get("pass_is_final", False),
                   laps=raw.get("laps", 0),
                   dealer_holds=raw.get("dealer_holds", False),
                   outbid=raw.get("outbid", "value"), double_ends_bidding=raw.get("double_ends_bidding", True),
                   declarer=raw.get("declarer", "last_bidder"),
                   # on_all_pass: redeal (no contract), last_seat_declares, or {contract: id, side_card: card}
                   all_pass_contract=None if isinstance(on_all_pass, str) else on_all_pass["contract"],
                   all_pass_side_card=None if isinstance(on_all_pass, str) else on_all_pass.get("side_card"),
                   last_seat_declares=on_all_pass == "last_seat_declares")


def _declaration(key: str, raw: Mapping[str, Any]) -> Declaration:
    """One declaration kind; its pattern keys are the model's field names."""
    lists = ("same_rank", "cards", "of", "stand_in")
    patterns = tuple(
        DeclarationPattern(value=p["value"], run=p.get("run"), count=p.get("count"), at_least=p.get("at_least"),
                           name=p.get("name"), copies=p.get("copies", 1), **{k: tuple(str(x) for x in p.get(k, ())) for k in lists})
        for p in raw["patterns"])
    return Declaration(
        id=key, name=raw.get("name", key), patterns=patterns, description=raw.get("description", ""),
        when=raw.get("when", "first_play"), optional=raw.get("optional", False), shown=raw.get("shown", False),
        run_order=tuple(str(r) for r in raw["run_order"]) if raw.get("run_order") else None,
        disjoint=raw.get("disjoint", True), award=raw.get("award", "always"),
        compare=tuple(raw.get("compare", ("value", "length", "top", "trump"))), tie=raw.get("tie", "earliest_seat"),
        void_if_opponents_take_all=raw.get("void_if_opponents_take_all", False), scope=raw.get("scope", "hand"),
    )


def _expr_names(announcements: tuple[Announcement, ...], specs: Mapping[str, OptionSpec], teams: int,
                declarations: tuple[Declaration, ...] = ()) -> Any:
    from couillon_dsl.expr import ExprNames

    return ExprNames(announcements=frozenset(a.id for a in announcements),
                     options={name: _option_kind(spec) for name, spec in specs.items()}, team_count=teams,
                     declarations=tuple(d.id for d in declarations))


def _option_kind(spec: OptionSpec) -> str:
    """The expression type of an option's values: bool, int, str, or any when mixed."""
    values = list(spec.choices) if spec.choices is not None else [spec.value]
    if spec.type:
        return {"integer": "int", "boolean": "bool", "string": "str"}[spec.type]
    kinds = {"bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "str" if isinstance(v, str) else "any"
             for v in values}
    return kinds.pop() if len(kinds) == 1 else "any"


def _definitions(data: Mapping[str, Any], document: Document, names: Any) -> tuple[tuple[Any, ...], Any]:
    """The `define` section checked and compiled in evaluation order, and the name table that knows it."""
    from couillon_dsl.expr import check_definitions

    items = [(name, text, document.content_span_of(f"/define/{escape(name)}"), f"/define/{escape(name)}")
             for name, text in (data.get("define") or {}).items()]
    checked = check_definitions(items, names)
    if checked.diagnostics:
        raise RulesetError(list(checked.diagnostics))
    return checked.order, checked.names


def _tally(name: str, raw: Mapping[str, Any], document: Document, names: Any,
           definitions: Mapping[str, Any]) -> Tally:
    """A tally, its `adds` compiled as the delta of a `for_each: team` rule; a pot's `when` and `to`
    as a rule's `when` and `team`."""
    base = f"/tallies/{escape(name)}"
    rule = _scoring_rule(name, {"for_each": "team", "adds": raw["adds"]}, document, names, definitions,
                         base=base, delta_key="adds")
    pays = _scoring_rule(name, {"when": raw.get("when", "decided"), "team": raw["to"]}, document, names, definitions,
                         base=base) if "to" in raw else None
    clears = _scoring_rule(name, {"clears_when": raw["clears_when"], "team": "none"}, document, names, definitions,
                           base=base, when_key="clears_when") if raw.get("clears_when", False) is not False else None
    return Tally(name=name, description=raw.get("description", ""), adds=rule.delta, every=raw.get("every", 0),
                 delta=raw.get("delta", 0), adds_fn=rule.delta_fn,
                 reads=rule.reads.union(*(extra.reads for extra in (pays, clears) if extra is not None)),
                 to=raw.get("to", ""), when=raw.get("when", "decided"), pays=pays,
                 clears_when=raw.get("clears_when", False), clears=clears)


def _scoring_rule(name: str, raw: Mapping[str, Any], document: Document, names: Any,
                  definitions: Mapping[str, Any], base: str = "", delta_key: str = "delta",
                  when_key: str = "when", team_key: str = "team") -> ScoringRule:
    from couillon_dsl.expr import EACH_SEAT, EACH_TEAM, compile_expression, facts_read

    base = base or f"/scoring/{escape(name)}"
    for_each = raw.get("for_each", "")
    if for_each:
        names = dataclasses.replace(names, bound=frozenset({EACH_SEAT if for_each == "seat" else EACH_TEAM}))

    def compiled(key: str, kind: str, default: Any) -> tuple[Any, Callable[[Any], object]]:
        value = raw.get(key, default)
        if isinstance(value, (bool, int)):
            return value, (lambda facts, constant=value: constant)
        span = document.content_span_of(f"{base}/{key}")
        return value, compile_expression(str(value), kind, names, span)  # type: ignore[arg-type]

    when, when_fn = compiled(when_key, "bool", "true")
    if for_each == "seat":  # the change goes to the seat's team (its side in this hand)
        team, team_fn = "", (lambda facts: facts.seat_sides[facts.each_seat])
    else:
        team, team_fn = ("", operator.attrgetter("each_team")) if for_each else compiled(team_key, "team", "winner")
    delta, delta_fn = compiled(delta_key, "int", 0)
    reads = frozenset().union(*(facts_read(v, definitions, trump_sets(names)) for v in (when, team, delta)
                                if isinstance(v, str) and v))
    if for_each == "seat":
        reads |= {"seat_sides"}
    return ScoringRule(name=name, when=when, team=team, delta=delta, tie_scaled=bool(raw.get("tie_scaled", False)),
                       when_fn=when_fn, team_fn=team_fn, delta_fn=delta_fn, reads=reads,
                       for_each=for_each)


def _side_offers(announcements: tuple[Announcement, ...]) -> tuple[tuple[int, int, int, tuple[int, ...], int], ...]:
    """The announcements made by a seat for its side (`for_side`), as the engine reads them (Tables.side_offers)."""
    index = {a.id: i for i, a in enumerate(announcements)}
    # asked before the first lead (`before_lead`): deadline 0, never offered beside the cards, a reply to it
    # before the replier's first card
    return tuple((i, 0 if a.for_side == "maker" else 1,
                  0 if a.before_lead else 1 << 20 if a.before_card is None else a.before_card,
                  tuple(index[r] for r in a.reply_to), index[a.implies] if a.implies else -1)
                 for i, a in enumerate(announcements) if a.for_side)


def _offered_when(items: Sequence[Announcement] | Sequence[Contract], section: str, document: Document,
                  names: Any) -> tuple[Callable[[Any], object] | None, ...]:
    """Each announcement's or contract's (``section``) `offered_when` compiled (None where it has none);
    () when none has one."""
    from couillon_dsl.expr import compile_expression

    if not any(item.offered_when for item in items):
        return ()
    return tuple(compile_expression(item.offered_when, "bool", names, document.content_span_of(
        f"/{section}/{escape(item.id)}/offered_when")) if item.offered_when else None for item in items)


def _stop_when(play: Play, document: Document, names: Any) -> Callable[[Any], object] | None:
    """`play.stop_when` compiled (None without it)."""
    from couillon_dsl.expr import compile_expression

    if play.stop_when is None:
        return None
    return compile_expression(play.stop_when, "bool", names, document.content_span_of("/play/stop_when"))


def _blind_bid(bids: Mapping[str, Any], document: Document, names: Any) -> dict[str, Any]:
    """`bids.blind` as the Bids fields: its bid, its `when` compiled with `seat` and `team` bound, and the
    blind bidders' exchange (`bids.blind_exchange`)."""
    from couillon_dsl.expr import EACH_SEAT, EACH_TEAM, compile_expression

    blind = bids.get("blind")
    if blind is None:
        return {}
    when = blind.get("when")
    fn = None if when is None else compile_expression(
        when, "bool", dataclasses.replace(names, bound=frozenset({EACH_SEAT, EACH_TEAM})),
        document.content_span_of("/bids/blind/when"))
    exchange = bids.get("blind_exchange") or {}
    return {"blind": blind["bid"], "blind_when": when, "blind_when_fn": fn, "exchange": exchange.get("cards", 0),
            "exchange_first": exchange.get("first", "partner")}


def _decider(outcome: Outcome, document: Document, names: Any, definitions: Mapping[str, Any]) -> OutcomeExpression | None:
    """`outcome.maker_wins` or `outcome.winner` compiled, with the facts it reads (None with neither)."""
    from couillon_dsl.expr import compile_expression, facts_read

    names_winner = outcome.maker_wins is None
    text = outcome.winner if names_winner else outcome.maker_wins
    if text is None:
        return None
    fn = compile_expression(text, "team" if names_winner else "bool", names,
                            document.content_span_of("/outcome/winner" if names_winner else "/outcome/maker_wins"))
    return OutcomeExpression(fn, facts_read(text, definitions, trump_sets(names)), names_winner)


def trump_sets(names: Any) -> frozenset[str]:
    """The card sets that name trump cards (``AT``): their masks follow the hand's trump."""
    return frozenset(name for name, masks in names.card_sets.items() if isinstance(masks, tuple))


def _check_playable(document: Document, deal: tuple[DealStep, ...], players: Players, layout: DeckLayout,
                    trump: Trump) -> int:
    """Engine preconditions on the deal script, in every hand of its schedules, that no later
    stage can recover from; the most cards a seat is dealt."""
    return max(_check_hand(document, hand_script(deal, hand), players, layout, trump) for hand in range(deal_cycle(deal)))


def _check_hand(document: Document, deal: tuple[DealStep, ...], players: Players, layout: DeckLayout,
                trump: Trump) -> int:
    """:func:`_check_playable` for one hand's script; the number of cards each seat is dealt."""
    n = players.count
    problems: list[Diagnostic] = []

    def problem(message: str, index: int | None = None) -> None:
        pointer = "/deal" if index is None else f"/deal/{index}"
        problems.append(error("deal-unplayable", message, document.span_of(pointer), pointer))

    left = layout.size
    sizes = [0] * n
    face_up_seen = stock = stock_made = False
    in_stock = 0  # its cards not yet dealt or turned up: packets after it come from its top
    declarer = 1 % n  # packets to the declarer counted as if the elder declared (any seat gives the same sizes)
    decides = [i for i, s in enumerate(deal) if s.kind == "decide"]
    for i, step in enumerate(deal):
        kind = step.kind
        if kind == "packet":
            assert isinstance(step.packet, int)  # one hand's script (model.hand_script)
            seats = resolve_seats(step.to, 0, n, declarer)  # type: ignore[arg-type]
            need = len(seats) * step.packet
            if need > (in_stock if stock else left):
                problem(f"deal step {i + 1} needs {need} cards but only {in_stock if stock else left} are left", i)
                break
            if stock:
                in_stock -= need
            else:
                left -= need
            for seat in seats:
                sizes[seat] += step.packet
            face_up_seen = face_up_seen or step.face == "up"
        elif kind == "stock":
            stock, stock_made = left > 0, True
            in_stock, left = left, 0
        elif kind == "turn_up":
            face_up_seen = True
            if step.if_stock_empty and stock_made and in_stock <= 0:
                continue  # nothing left to turn: the hand is played without trump
            in_stock -= 1
            if not stock or in_stock < 0:
                problem("turn_up needs a stock with a card left", i)
        elif kind in ("set_aside", "kitty"):
            given = getattr(step, kind)
            count = left if given == "rest" else int(given)
            if count > left:
                problem(f"{kind} {count} but only {left} cards are left", i)
                break
            left -= count
        elif kind == "decide" and trump.method in ("offer", "turned") and not face_up_seen:
            problem(f"the {trump.method} method has no face-up card: turn one up or deal one face up before `decide`", i)
    offer = trump.offer
    if offer is not None and offer.taken_by is not None and not offer.taker_discards:  # the offered card kept
        sizes[0 if offer.taken_by == "dealer" else declarer] += 1
    if len(set(sizes[1:] if players.sit_out == "dealer" else sizes)) > 1:  # seat 0 deals: sitting out, it holds none
        problem(f"the deal gives hands of different sizes {sizes}; every player must hold as many cards")
    if trump.method != "none" and len(decides) != 1:
        problem("a trump method needs exactly one `decide: trump` step")
    if trump.method == "offer" and trump.offer and trump.offer.on_all_pass == "bottom_card" and not stock:
        problem("on_all_pass: bottom_card needs a stock")
    if trump.method == "choose" and trump.choose and "defer" in trump.choose.ways and decides:
        chooser = 0 if trump.choose.by == "dealer" else 1 % n
        later = [s for s in deal[decides[0] + 1:] if s.kind == "packet"
                 and chooser in resolve_seats(s.to, 0, n)]  # type: ignore[arg-type]
        if not later:
            problem("`defer` needs a packet to the chooser after the decide step")
    if problems:
        raise RulesetError(problems)
    return max(sizes)
