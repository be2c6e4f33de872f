"""A compiled ruleset read back as a rulebook (`couillon explain`).

Every word comes from the model: one ``describe_*`` function per concept turns a section
of :class:`~couillon_dsl.model.Ruleset` into blocks of prose, built from small sentence
functions that `diff` reuses, so two rulesets read differently exactly where they play
differently and a new variant gets its rulebook for free. Scoring expressions are parsed
and put into words when they have one of the common shapes, and quoted otherwise.
"""
from __future__ import annotations

import textwrap
from collections import Counter
from fractions import Fraction
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from couillon_dsl.expr.parse import (
    Binary, Call, Name, Node, Number, String, Unary, decimal_text, exact, parse_expression, to_text,
)
from couillon_dsl.model import (
    Announcement, CardRole, Contract, DealCheck, DealStep, Declaration, DeclarationPattern, Follow, Kitty, OptionSpec, Promotion, Reading,
    PartnerCall, Ruleset, ScoringRule, Suit, Tally, hand_script,
)
from couillon_dsl.expr.compile import EACH_SEAT, EACH_TEAM, OPERATIONS, Definition, walk
from couillon_dsl.schema import where

# ---------------------------------------------------------------------- document blocks


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Items:
    items: tuple[str, ...]
    numbered: bool = False


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


Block = Paragraph | Items | Table


@dataclass(frozen=True)
class Section:
    """A titled part of the rulebook; blocks are format-free so one rulebook renders as Markdown or text."""

    title: str
    blocks: tuple[Block, ...]


# ---------------------------------------------------------------------- words

_RANK_WORDS = {
    "A": "ace", "K": "king", "Q": "queen", "C": "knight", "J": "jack", "10": "ten", "9": "nine", "8": "eight",
    "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two",
}
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def rank_word(rank: str, plural: bool = False) -> str:
    """``A`` -> ``ace``; ranks without a usual name keep their id."""
    word = _RANK_WORDS.get(rank.upper())
    if word is None:
        return f"{rank}s" if plural else rank
    return (word + "es" if word.endswith("x") else word + "s") if plural else word


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``count(2, "card")`` -> ``2 cards``."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def counted(name: str, n: int) -> str:
    """``counted("Wizard", 4)`` -> ``four Wizards``; one is the name alone."""
    return name if n == 1 else f"{_NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else n} {name}s"


def grouped(names: Sequence[str]) -> list[str]:
    """Equal names once, counted: ``[Wizard, Wizard, Jester]`` -> ``[two Wizards, Jester]`` (extras named alike)."""
    return [counted(name, n) for name, n in Counter(names).items()]


def join(words: Sequence[str], last: str = "and") -> str:
    """``a, b and c``."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def ordinal(n: int) -> str:
    """``2`` -> ``second``; past ten, ``11th``."""
    return _ORDINALS[n - 1] if 1 <= n <= len(_ORDINALS) else f"{n}th"


def sentence(text: str) -> str:
    """Capitalise the first letter and end with a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ":")) else text + "."


def _value(value: Any) -> str:
    """A YAML-ish rendering of an option value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {_value(item)}" for key, item in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    return str(value)


# ---------------------------------------------------------------------- seats


def _left(rs: Ruleset) -> str:
    """The side play passes to."""
    return "left" if rs.players.direction == "clockwise" else "right"


def _right(rs: Ruleset) -> str:
    return "right" if rs.players.direction == "clockwise" else "left"


def seat(rs: Ruleset, offset: int) -> str:
    """The seat ``offset`` places after the dealer in the order of play, as players say it."""
    n = rs.players.count
    k = offset % n
    if k == 0:
        return "the dealer"
    if k == 1:
        return f"the player on the dealer's {_left(rs)}"
    if k == n - 1:
        return f"the player on the dealer's {_right(rs)}"
    team_of = {s: t for t, seats in enumerate(rs.players.teams) for s in seats}
    if n == 4 and all(team_of[s] == team_of[(s + k) % n] for s in range(n)):
        return "the dealer's partner"
    if 2 * k == n:
        return "the player opposite the dealer"
    return f"the player {k} seats to the dealer's {_left(rs)}"


def elder(rs: Ruleset) -> str:
    return seat(rs, 1)


def _offsets(rs: Ruleset, to: str | tuple[int, ...]) -> tuple[int, ...]:
    """Offsets from the dealer that a deal selector names, in dealing order (as engine.tables.resolve_seats)."""
    if not isinstance(to, str):
        return tuple(to)
    n = rs.players.count
    return tuple({
        "all": range(1, n + 1), "elder": (1,), "dealer": (0,),
        "all_but_elder": range(2, n + 1), "all_but_dealer": range(1, n),
        # the declarer's packets counted as if the elder declared (every seat receives as many either way)
        "declarer": (1,), "all_but_declarer": range(2, n + 1),
    }[to])


def _selector_seats(rs: Ruleset, to: str | tuple[int, ...]) -> tuple[str, ...]:
    return tuple(seat(rs, k) for k in _offsets(rs, to))


def chooser(rs: Ruleset, by: str) -> str:
    return "the dealer" if by == "dealer" else elder(rs)


# ---------------------------------------------------------------------- players and seating


def side_card_holders(rs: Ruleset) -> str:
    """``the side holding the Q♣``: the maker's side with sides by who holds a card (`card_holders`)."""
    return f"the side holding the {_card(rs, rs.players.side_card or '')}"


def players_sentence(rs: Ruleset) -> str:
    players = rs.players
    sizes = sorted({len(team) for team in players.teams})
    if players.sides == "card_holders":
        card = _card(rs, players.side_card or "")
        copies = "a copy of the " if rs.deck.copies > 1 else "the "
        every = "every copy" if rs.deck.copies > 1 else "it"
        text = (f"{players.count} players; in each hand the players dealt {copies}{card} play together against the "
                f"others, and a player dealt {every} plays alone against the other {players.in_play - 1}. Nobody is "
                f"told who holds it: a player knows their own side from their cards, and another player's once that "
                f"player plays the {card} (or every {card} has been seen). Each player keeps their own score")
    elif players.sides == "declarer_alone":
        text = (f"{players.count} players; in each hand the declarer (the player whose bid or choice fixes the "
                f"contract) plays alone against the other {players.in_play - 1}, who play together"
                + (" (when everyone passes the auction, " + ("the players dealt a copy of the "
                   if rs.deck.copies > 1 else "the holder of the ") + _card(rs, side_card) + " play together against "
                   "the others, nobody told who holds it)" if (side_card := rs.trump.auction and
                                                                 rs.trump.auction.all_pass_side_card)
                   else " (when everyone passes the auction, every player plays for themselves)"
                   if rs.tables.all_pass_contract >= 0 else "")
                + ("; in a contract with a call the declarer plays with the holder of the card they call, against "
                   "the others (see Trump); each player" if rs.tables.calls else ", and each player")
                + " keeps their own score")
    elif sizes == [1]:
        text = f"{players.count} players, each playing for themselves"
    elif len(sizes) == 1:
        text = f"{players.count} players in {len(players.teams)} teams of {sizes[0]}"
    else:
        text = f"{players.count} players in teams of {join([str(len(t)) for t in players.teams])}"
    if players.sit_out == "dealer":
        text += (f"; the dealer deals to the other {players.in_play} and sits each hand out: he is dealt no cards, "
                 "is asked nothing and plays no card, and is paid what his side is paid")
    return text


def seating_sentence(rs: Ruleset) -> str:
    players = rs.players
    n = players.count
    team_of = {s: t for t, seats in enumerate(players.teams) for s in seats}
    text = f"the seats are numbered 0 to {n - 1} in the order of play"
    if any(len(team) > 1 for team in players.teams):
        text += "; " + " play against ".join(f"seats {join([str(s) for s in team])}" for team in players.teams)
    if len(players.teams) == 2 and all(team_of[s] != team_of[(s + 1) % n] for s in range(n)):
        text += (", so partners sit opposite each other" if n == 4
                 else ", so the teams sit alternately and a player's neighbours are both opponents")
    return text


def direction_sentence(rs: Ruleset) -> str:
    return f"deal and play go {rs.players.direction}, to the {_left(rs)}"


def dealer_sentence(rs: Ruleset) -> str:
    first = ("the first dealer is chosen at random" if rs.dealer.first == "random"
             else f"seat {rs.dealer.first} deals first")
    if rs.dealer.rotation == "same":
        return f"{first}, and the same player deals every hand"
    passes = f"{first}; after each hand the deal passes to the {_left(rs)}"
    if rs.dealer.stays_when:
        condition = condition_phrase(rs, parse_expression(rs.dealer.stays_when))
        passes += (", except after a hand where " + (condition or f"`{rs.dealer.stays_when}` holds")
                   + ": then the same player deals again (`stays_when`)")
    return passes


def describe_players(rs: Ruleset) -> Section:
    return Section("Players and seating", (Paragraph(" ".join(sentence(s) for s in (
        players_sentence(rs), seating_sentence(rs), direction_sentence(rs), dealer_sentence(rs),
    ))),))


# ---------------------------------------------------------------------- the cards


def _uniform(rs: Ruleset) -> bool:
    """Every suit has the deck's ranks and there is no extra card: the usual pack."""
    return not rs.deck.extras and all(s.ranks is None or s.ranks == rs.deck.ranks for s in rs.deck.suits)


def _suit_words(suits: Sequence[Suit]) -> str:
    return join([f"{s.symbol} {s.name}" if s.symbol != s.name else s.name for s in suits])


def deck_sentence(rs: Ruleset) -> str:
    deck = rs.deck
    if _uniform(rs) and deck.copies == 1:
        return (f"the game uses {len(deck.suits) * len(deck.ranks)} cards: {join(list(deck.ranks))} "
                f"in each of the {len(deck.suits)} suits {_suit_words(deck.suits)}")
    plain = [s for s in deck.suits if s.ranks is None or s.ranks == deck.ranks]
    parts = []
    if plain:
        where = f"in each of the {len(plain)} suits" if len(plain) > 1 else "in the suit"
        parts.append(f"{join(list(deck.ranks))} {where} {_suit_words(plain)}")
    for suit in deck.suits:
        if suit not in plain and suit.ranks:
            parts.append(f"{len(suit.ranks)} {suit.name} ({suit.symbol}) numbered {' '.join(suit.ranks)}")
    for (name, symbol), n in Counter((e.name, e.symbol) for e in deck.extras).items():  # alike listed once
        parts.append(f"the {name} ({symbol}), which belongs to no suit" if n == 1 else
                     f"{counted(name, n)} ({symbol}), which belong to no suit")
    return f"the game uses {rs.layout.size} cards: {join(parts)}"


def copies_sentence(rs: Ruleset) -> str | None:
    """A pack holding every card more than once (`deck.copies`)."""
    copies = rs.deck.copies
    if copies == 1:
        return None
    times = {2: "twice", 3: "three times"}.get(copies, f"{copies} times")
    return (f"each of these cards is in the pack {times}; equal cards rank alike, and of equal cards in one trick "
            + equal_cards_phrase(rs))


def equal_cards_phrase(rs: Ruleset) -> str:
    """Which of equal cards in one trick wins (`play.equal_cards`), after "of equal cards in one trick"."""
    equal = rs.play.equal_cards
    first = "the first played beats the others"
    if equal is None or equal.wins == equal.last_trick == "first":
        return first
    second = "the second played beats the first" if rs.deck.copies == 2 else "each beats those played before it"
    wins, last = (first if w == "first" else second for w in (equal.wins, equal.last_trick))
    rule = wins + (f", except in the last trick, where {'the first wins' if last == first else last}" if last != wins else "")
    if not equal.cards:
        return rule
    number = {2: "two", 3: "three"}.get(rs.deck.copies, str(rs.deck.copies))
    return f"{first}; but of the {number} {join([_card(rs, c) for c in equal.cards], 'or')} {rule}"


def order_sentence(rs: Ruleset) -> str:
    own = [f"{s.name} as trump {' '.join(s.trump_ranks)}" for s in rs.deck.suits if s.trump_ranks]
    return _plain_order(rs) + (f"; but each suit has its own order when it is trump: {join(own)}" if own else "")


def _plain_order(rs: Ruleset) -> str:
    deck = rs.deck
    plain = " ".join(deck.ranks)
    if not _uniform(rs) or deck.trump_suit:
        order = ("every suit ranks from high to low in the order listed" if not _uniform(rs)
                 else f"in every suit the cards rank from high to low {plain}")
        if deck.trump_suit:
            suit = next(s for s in deck.suits if s.id == deck.trump_suit)
            order += f"; the suit {suit.name} is trump in every hand: a trump beats every card of another suit"
        return order
    if rs.trump.method == "none":
        return f"in every suit the cards rank from high to low {plain}"
    if deck.trump_ranks is None or tuple(deck.trump_ranks) == tuple(deck.ranks):
        return f"in every suit, trumps included, the cards rank from high to low {plain}"
    return (f"in the plain suits the cards rank from high to low {plain}; "
            f"in the trump suit the order is {' '.join(deck.trump_ranks)}")


def _card(rs: Ruleset, name: str) -> str:
    """A card name as printed in a rulebook: ``QS`` -> ``Q♠``; ``JT`` -> ``the trump jack``."""
    upper = name.strip().upper()
    ranks = [r.upper() for r in rs.layout.ranks]
    if upper.endswith("T") and upper[:-1] in ranks and "T" not in rs.layout.suits:
        return f"the trump {rank_word(upper[:-1])}"
    card = rs.layout.parse(name)
    if rs.layout.is_extra(card):
        return next(e.name for e in rs.deck.extras if e.id == rs.layout.name(card))
    return rs.layout.pretty(card)


def _promoted(rs: Ruleset, promotion: Promotion) -> str:
    """The card a promotion promotes, as a rulebook names it: ``Q♠``, or ``jack of the other suit of
    the trump's colour``."""
    if promotion.card is not None:
        return _card(rs, promotion.card)
    return f"{rank_word(promotion.rank or '')} of the other suit of the trump suit's colour"


def _announcement(rs: Ruleset, key: str) -> Announcement | None:
    return next((a for a in rs.announcements if a.id == key), None)


def promotion_sentences(rs: Ruleset) -> list[str]:
    out = []
    above = None  # the top promotion before this one
    for promotion in rs.deck.promotions:
        if promotion.below is not None:
            where = f"directly below the trump {rank_word(promotion.below)}"
        elif above is None:
            where = "above every card of the trump suit (its own card among them takes this place)"
        else:
            where = f"directly below the {_promoted(rs, above)}, above every card of the trump suit"
        if promotion.top:
            above = promotion
        if promotion.card is not None:
            what = f"the {_card(rs, promotion.card)} becomes a trump ranking {where}, whatever the trump suit"
        else:
            what = f"the {_promoted(rs, promotion)} becomes a trump ranking {where}"
        what += ", and counts as a trump for following suit"
        announcement = _announcement(rs, promotion.by_announcement) if promotion.by_announcement else None
        within = [c.name for c in rs.contracts if c.enabled and (c.promoted is None or promotion.card in c.promoted)]
        if announcement is None and rs.contracts and len(within) < sum(c.enabled for c in rs.contracts):
            left_out = [c.name for c in rs.contracts if c.enabled and c.name not in within]
            where_played = (f"in every contract but {join(left_out, 'and')}" if len(left_out) < len(within)
                            else f"in {join(within, 'and')} only" if within else "in no contract")
            out.append(f"{promotion.name}: {what}, {where_played} (`promoted`)")
        elif announcement is None:
            out.append(f"{promotion.name}: {what}, always")
        else:
            out.append(f"if the {announcement.name} is announced, {what}")
    return out


def _points_word(value: int | Fraction) -> str:
    return decimal_text(value) if value else "nothing"


def points_sentence(table: dict[str, int | Fraction], ranks: Sequence[str]) -> str:
    """Card points grouped by value in rank order: ``aces 4, kings 3 ... tens and nines nothing``;
    a `default` value closes the list as ``any other card``."""
    groups: list[tuple[int | Fraction, list[str]]] = []
    for rank in ranks:
        if rank not in table and "default" in table:
            continue
        value = table.get(rank, 0)
        if groups and groups[-1][0] == value:
            groups[-1][1].append(rank)
        else:
            groups.append((value, [rank]))
    words = [f"{join([rank_word(r, plural=True) for r in group])} {_points_word(value)}" for value, group in groups]
    if "default" in table:
        words.append(f"any other card {_points_word(table['default'])}")
    return ", ".join(words)


def pack_points(rs: Ruleset) -> int | Fraction:
    """Card points in the whole pack (with one suit counted as trumps when they count differently)."""
    t = rs.tables
    trump = t.fixed_trump if t.fixed_trump >= 0 else (0 if rs.deck.trump_points is not None else -1)
    return exact(Fraction(sum(t.context(trump, 0).points), t.point_unit))


def points_sentences(rs: Ruleset) -> list[str]:
    deck = rs.deck
    ranks = list(dict.fromkeys(r for s in deck.suits for r in (s.ranks or deck.ranks)))
    worthless = not any(deck.points.values())  # a game of tricks, or of a few named cards (Hearts)
    out = [] if worthless and deck.card_points else [
        "cards have no point value" if worthless else "cards count " + points_sentence(dict(deck.points), ranks)]
    if deck.trump_points is not None and dict(deck.trump_points) != dict(deck.points):
        order = deck.trump_ranks or deck.ranks
        out.append("trumps count differently: " + points_sentence(dict(deck.trump_points), order))
    if deck.card_points:
        by_value: dict[int | Fraction, list[str]] = {}
        for card, value in deck.card_points.items():
            by_value.setdefault(value, []).append(_card(rs, card))
        out.append(("only these cards count: " if worthless else "but ")
                   + join([f"{join(cards)} {'count' if len(cards) > 1 else 'counts'} {_points_word(value)}"
                           for value, cards in by_value.items()]))
    if pack_points(rs):
        out.append(f"the pack holds {decimal_text(pack_points(rs))} points")
    if rs.tables.point_unit > 1:
        out.append("points are counted exactly, " + ("halves" if rs.tables.point_unit == 2 else "fractions") + " included")
    bonus = rs.play.last_trick_points
    if bonus:
        out.append(f"the winner of the last trick scores {bonus} more, so a hand is worth "
                   f"{decimal_text(pack_points(rs) + bonus)} card points in all")
    return out


def card_set_sentences(rs: Ruleset) -> list[str]:
    return [f"the {name} are {join([_card(rs, c) for c in cards])}" if _plural_name(name) else
            f"the card set {name} holds {join([_card(rs, c) for c in cards])}" for name, cards in rs.deck.card_sets.items()]


def _plural_name(name: str) -> bool:
    """Whether a card set's name reads as a plural noun ("the trumps are"): its head word ends in s
    (the words before an `_of_`: ace_of_hearts is one ace, kings_of_hearts several kings)."""
    return name.split("_of_")[0].endswith("s")


def describe_cards(rs: Ruleset) -> Section:
    named = (*promotion_sentences(rs), *card_set_sentences(rs))
    return Section("The cards", (
        Paragraph(" ".join(sentence(s) for s in (deck_sentence(rs), copies_sentence(rs), order_sentence(rs), *named)
                           if s)),
        Paragraph(" ".join(sentence(s) for s in points_sentences(rs))),
    ))


# ---------------------------------------------------------------------- the deal


@dataclass(frozen=True)
class _DealCount:
    hand: int  # cards each player ends with (compile ensures equal hands)
    stock: int
    aside: int


def _deal_count(rs: Ruleset, hand_no: int = 0) -> tuple[list[int], _DealCount]:
    """Cards left in the pack before each step, and what the deal ends with, in the game's
    ``hand_no``-th hand (from 0: a schedule of hand sizes changes them from hand to hand)."""
    left = rs.layout.size
    before = []
    hand = stock = aside = 0
    for step in hand_script(rs.deal, hand_no):
        before.append(left)
        kind = step.kind
        if kind == "packet":
            assert isinstance(step.packet, int)
            offsets = _offsets(rs, step.to or "all")
            if stock:  # after a stock, dealt from it
                stock -= len(offsets) * step.packet
            else:
                left -= len(offsets) * step.packet
            if 1 % rs.players.count in (k % rs.players.count for k in offsets):
                hand += step.packet
        elif kind == "stock":
            stock, left = left, 0
        elif kind in ("set_aside", "kitty"):
            given = getattr(step, kind)
            taken = left if given == "rest" else int(given or 0)
            aside += taken
            left -= taken
    offer = rs.trump.offer
    if offer is not None and offer.taken_by is not None and not offer.taker_discards:  # the offered card kept
        stock -= 1 if stock else 0
        hand = rs.tables.tricks_of(hand_no)
    return before, _DealCount(hand, stock, aside + left)


def schedule_text(sizes: Sequence[int]) -> str:
    """A schedule of hand sizes in words, its runs of consecutive numbers shortened:
    ``1 up to 10, then 10 down to 1``."""
    parts, i = [], 0
    while i < len(sizes):
        j = i + 1
        step = sizes[j] - sizes[i] if j < len(sizes) else 0
        while step in (1, -1) and j + 1 < len(sizes) and sizes[j + 1] - sizes[j] == step:
            j += 1
        if j - i >= 2:  # three numbers or more in a row
            parts.append(f"{sizes[i]} {'up' if step == 1 else 'down'} to {sizes[j]}")
            i = j + 1
        else:
            parts.append(str(sizes[i]))
            i += 1
    return ", then ".join(parts)


def _packet_cards(step: DealStep) -> str:
    """A packet step's cards per receiver: a number of cards, or a schedule's changing number."""
    if isinstance(step.packet, tuple):
        return (f"N cards face {step.face}, N changing from hand to hand ({schedule_text(step.packet)}: one number "
                f"per hand of a game in turn, from its first hand)")
    return f"{count(step.packet or 0, 'card')} face {step.face}"


def _packet_sentence(rs: Ruleset, step: DealStep) -> str:
    cards = _packet_cards(step)
    to = step.to or "all"
    if to == "all":
        return f"deal {cards} to each player, starting with {elder(rs)} and ending with the dealer"
    if to == "all_but_dealer":
        return f"deal {cards} to each player except the dealer, starting with {elder(rs)}"
    if to == "all_but_elder":
        return f"deal {cards} to each player except {elder(rs)}, starting with {seat(rs, 2)} and ending with the dealer"
    if to == "declarer":
        return f"deal {cards} to the player who fixed trump"
    if to == "all_but_declarer":
        return f"deal {cards} to each player except the one who fixed trump, starting with {elder(rs)}"
    seats = _selector_seats(rs, to)
    if len(seats) == 1:
        return f"deal {cards} to {seats[0]}"
    return f"deal {cards} to each of {join(list(seats))}, in that order"


def _last_face_up(rs: Ruleset) -> DealStep | None:
    """The step that shows the last card before the decide step: a turn-up or a face-up packet."""
    shown = None
    for step in rs.deal:
        if step.kind == "decide":
            break
        if step.kind == "turn_up" or step.kind == "packet" and step.face == "up":
            shown = step
    return shown


def _offered_card(rs: Ruleset) -> str:
    """The face-up card an offer proposes (or that fixes a turned trump)."""
    step = _last_face_up(rs)
    if step is None:
        return "the face-up card"
    if step.kind == "turn_up":
        return "the turned-up card"
    return f"the card dealt face up to {_selector_seats(rs, step.to or 'all')[-1]}"


def _remaining(rs: Ruleset, left: int) -> str:
    """The cards left in the pack at a step: ``12 cards``, or ``cards`` where a schedule of hand sizes changes them."""
    return count(left, "card") if rs.tables.deal_cycle == 1 else "cards"


def deal_step_sentences(rs: Ruleset) -> list[str]:
    """One instruction per step of the deal script."""
    before, _ = _deal_count(rs)
    out = []
    for step, left in zip(rs.deal, before):
        kind = step.kind
        if kind == "packet":
            out.append(_packet_sentence(rs, step))
        elif kind == "stock":
            use = ("from which the players draw after each trick (see Playing the tricks)" if rs.play.draw
                   else "which is not played")
            out.append(f"put the remaining {_remaining(rs, left)} face down in a stock, {use}")
        elif kind == "turn_up":
            where = "top" if step.turn_up == "stock_top" else "bottom"
            empty = ("; when the deal has left no card in the stock, none is turned and the hand is played "
                     "without trump") if rs.tables.turns_nothing else ""
            under = ("; it stays on the table face up, under the stock, and is the last card drawn"
                     if rs.play.draw else "")
            out.append(f"turn the {where} card of the stock face up{empty}{under}")
        elif kind == "set_aside":
            taken = left if step.set_aside == "rest" else int(step.set_aside or 0)
            which = f"the remaining {_remaining(rs, taken)}" if step.set_aside == "rest" else count(taken, "card")
            out.append(f"set {which} aside face down, unseen and unused")
        elif kind == "kitty":
            taken = left if step.kitty == "rest" else int(step.kitty or 0)
            which = f"the remaining {_remaining(rs, taken)}" if step.kitty == "rest" else count(taken, "card")
            out.append(f"deal {which} face down to the kitty, which belongs to nobody until the contract says what "
                       "becomes of it (see Trump)")
        elif kind == "announce":
            out.append(f"each player in turn, starting with the player on the dealer's {_left(rs)}, may announce "
                       f"{_asked_name(rs, step)} or not, seeing only the cards dealt so far (see Announcements)")
        elif rs.trump.method == "offer":
            out.append(f"trump is decided: the suit of {_offered_card(rs)} is offered to each player in turn "
                       f"(see Trump)")
        elif rs.trump.method == "choose" and rs.trump.choose is not None:
            out.append(f"{chooser(rs, rs.trump.choose.by)} chooses trump (see Trump)")
        elif rs.trump.method == "turned":
            out.append(f"the suit of {_offered_card(rs)} is trump (see Trump)")
        elif rs.trump.method == "drawn":
            out.append("trump is drawn by chance, for all to see (see Trump)")
        else:
            out.append("trump is decided (see Trump)")
    return out


def _outline_step(rs: Ruleset, step: DealStep, left: int) -> str:
    kind = step.kind
    if kind == "packet":
        face = " face up" if step.face == "up" else ""
        to = step.to or "all"
        groups = {"all": "each player", "all_but_dealer": "each player but the dealer",
                  "all_but_elder": f"each player but the one on the dealer's {_left(rs)}",
                  "declarer": "the player who fixed trump", "all_but_declarer": "each other player"}
        who = groups.get(to) if isinstance(to, str) else None
        per = f"N ({schedule_text(step.packet)})" if isinstance(step.packet, tuple) else step.packet
        return f"{per}{face} to {who or join(list(_selector_seats(rs, to)))}"
    if kind == "stock":
        return f"the other {left if rs.tables.deal_cycle == 1 else 'cards'} to a stock"
    if kind == "turn_up":
        empty = " (if any is left)" if rs.tables.turns_nothing else ""
        return f"the {'top' if step.turn_up == 'stock_top' else 'bottom'} stock card turned up{empty}"
    if kind == "set_aside":
        return f"{left if step.set_aside == 'rest' else step.set_aside} set aside"
    if kind == "kitty":
        return f"{left if step.kitty == 'rest' else step.kitty} to the kitty"
    if kind == "announce":
        return f"each player asked for {_asked_name(rs, step)}"
    return {"offer": "trump offered", "choose": "trump chosen", "turned": "its suit trump",
            "drawn": "trump drawn by chance"}.get(rs.trump.method, "trump decided")


def _asked_name(rs: Ruleset, step: DealStep) -> str:
    """The name of the announcement a deal step asks every player (`announce`)."""
    return next(a.name for a in rs.announcements if a.id == step.announce)


def deal_outline(rs: Ruleset) -> str:
    """The deal in one line: ``2 to each player, 2 to each player, the other 8 to a stock, ...``."""
    before, _ = _deal_count(rs)
    return ", ".join(_outline_step(rs, step, left) for step, left in zip(rs.deal, before))


def hand_sentence(rs: Ruleset) -> str:
    sizes = {_deal_count(rs, k)[1] for k in range(rs.tables.deal_cycle)}
    fewest, most = min(sizes, key=lambda c: c.hand), max(sizes, key=lambda c: c.hand)
    if rs.play.draw and fewest == most:  # the stock is played too: each player draws his share of it
        share = most.stock // rs.players.count  # the checks keep every seat in play beside drawing
        text = (f"each player now holds {count(most.hand, 'card')} and draws {share} more from the stock during "
                f"play, so a hand has {count(most.hand + share, 'trick')}")
        if most.aside:
            text += f"; {most.aside} of the {rs.layout.size} cards are not played"
        return text
    if fewest == most:
        text = f"each player now holds {count(most.hand, 'card')}, so a hand has {count(most.hand, 'trick')}"
    else:
        text = (f"each player now holds the hand's N cards, from {fewest.hand} to {most.hand}, so a hand has as many "
                f"tricks")
    unplayed = most.stock + most.aside
    if unplayed:
        more = fewest.stock + fewest.aside
        text += f"; {unplayed if more == unplayed else f'from {unplayed} to {more}'} of the {rs.layout.size} cards are not played"
        if pack_points(rs):  # a pack without card points has none to lose
            text += f", so fewer than {pack_points(rs)} card points may be in play"
    return text


def deal_check_sentence(rs: Ruleset, check: DealCheck) -> str:
    """``a player holding 1T, without the Excuse and with at most 1 trump (Petit sec) ...``."""
    parts = []
    if check.holds:
        parts.append(f"holding {join([_card(rs, c) for c in check.holds])}")
    if check.lacks:
        parts.append(f"without {join([_card(rs, c) for c in check.lacks], 'or')}")
    for kind, key, least, most in check.counts:
        what = (next(s.name for s in rs.deck.suits if s.id == key) if kind == "suit" else f"cards of the {key}")
        if most is not None and least == most:
            parts.append(f"with exactly {least} {what}")
        elif most is not None:
            parts.append(f"with at most {most} {what}" + (f" and at least {least}" if least else ""))
        else:
            parts.append(f"with at least {least} {what}")
    return (f"a player {join(parts)} ({check.name}) must say so at once: the deal is thrown in, nobody scores, "
            f"and the next dealer deals")


def describe_deal(rs: Ruleset) -> Section:
    return Section("The deal", (
        Paragraph(sentence(f"in short: {deal_outline(rs)}")),
        Items(tuple(sentence(s) for s in deal_step_sentences(rs)), numbered=True),
        Paragraph(sentence(hand_sentence(rs))),
        *((Paragraph(" ".join(sentence(deal_check_sentence(rs, c)) for c in rs.deal_checks)),)
          if rs.deal_checks else ()),
    ))


# ---------------------------------------------------------------------- trump


def _redeal(rs: Ruleset) -> str:
    if rs.scoresheet.passed_out_deals == "redealt":
        return "the deal is passed out: nobody scores, and the same dealer shuffles and deals again, a deal not counted"
    who = "the same dealer" if rs.dealer.rotation == "same" else "the next dealer"
    return f"the deal is passed out: nobody scores, and {who} shuffles and deals again"


def _fallback_maker(rs: Ruleset) -> str:
    if rs.trump.maker_after_fallback == "elder_team":
        return f"the team of {elder(rs)} still counts as the maker"
    return "nobody is the maker in this hand"


def can_redeal(rs: Ruleset) -> bool:
    """Whether a deal can be passed out (and so redealt)."""
    offer = rs.trump.offer
    if rs.trump.method != "offer" or offer is None:
        return False
    if offer.on_all_pass == "name_other_suit":
        return not offer.dealer_must_name
    return offer.on_all_pass in ("redeal", "next_card")  # next_card redeals once the stock is exhausted


def has_trumps(rs: Ruleset) -> bool:
    """Whether hands have a trump suit: a procedure fixes one, or the deck has a permanent one."""
    return rs.trump.method != "none" or rs.deck.trump_suit is not None


def trump_sentences(rs: Ruleset) -> list[str]:
    trump = rs.trump
    if trump.auction is not None:
        return auction_sentences(rs)
    if rs.deck.trump_suit is not None:
        suit = next(s for s in rs.deck.suits if s.id == rs.deck.trump_suit)
        return [f"the suit {suit.name} ({suit.symbol}) is trump in every hand; nothing is decided about trumps"]
    if trump.method == "offer" and trump.offer is not None:
        offer = trump.offer
        out = [
            f"the suit of {_offered_card(rs)} is offered as trump: starting with {elder(rs)} and going round "
            f"to the dealer, each player in turn accepts it or passes",
            "the first player to accept makes that suit trump and ends the round; "
            + maker_phrase(rs, "that player's team is the maker"),
        ]
        if offer.taken_by is not None:
            taker = {"dealer": "the dealer", "acceptor": "the player who accepted"}.get(
                offer.taken_by, "the player who fixed trump, by accepting or by naming a suit in a second round,")
            card = "offered" if offer.taken_by == "declarer" else "accepted"  # a named trump takes it too
            if offer.taker_discards:
                out.append(f"{taker} then takes the {card} card into their hand and discards one card face down "
                           "in its place (it may be the card taken); everyone knows they hold that card until they "
                           "play it, unless they discarded it, which only they know")
            else:
                out.append(f"{taker} then takes the {card} card into their hand and keeps it, discarding nothing; "
                           "everyone knows they hold that card until they play it")
        if offer.on_all_pass == "bottom_card":
            out.append(f"if everyone passes, the bottom card of the stock is turned face up and its suit is trump; "
                       f"{_fallback_maker(rs)}")
        elif offer.on_all_pass == "next_card":
            first = "the dealer" if offer.reoffer_first_speaker == "dealer" else elder(rs)
            out.append(f"if everyone passes, the next card of the stock is turned face up and offered in the same way, "
                       f"{first} speaking first, until someone accepts")
            out.append(f"if every card of the stock is refused, {_redeal(rs)}")  # the only when_stock_exhausted
        elif offer.on_all_pass == "name_other_suit":
            out.append(f"if everyone passes, the card is turned face down and there is a second round: starting with "
                       f"{elder(rs)}, each player in turn may name any other suit as trump, or pass; the first to "
                       f"name one makes it trump, " + maker_phrase(rs, "that player's team being the maker"))
            out.append("the dealer, speaking last, may not pass: if nobody named a suit before him he must name one"
                       if offer.dealer_must_name else f"if everyone passes again, {_redeal(rs)}")
        else:
            out.append(f"if everyone passes, {_redeal(rs)}")
        return out
    if trump.method == "choose" and trump.choose is not None:
        choose = trump.choose
        who = chooser(rs, choose.by)
        pre = []
        if choose.first_hand is not None:
            undealt = any(step.kind in ("stock", "set_aside") for step in rs.deal)  # the card may not be dealt
            pre.append(f"on the first hand of a game the player holding {_card(rs, choose.first_hand.holder_of)} "
                       f"chooses{' (if it was dealt to a player)' if undealt else ''}; on later hands {who} does")
            who = "the chooser"
        if choose.delegate is not None:
            times, to = choose.delegate.times, choose.delegate.to
            receiver = "their partner" if to == "partner" else "the next player"
            if times == 1:
                pre.append(f"instead of choosing, {who} may push: hand the choice to {receiver}, who must then choose")
            else:
                # where the last hand-on lands: round the table (next) or back and forth (partner)
                back = times % (rs.players.count if to == "next" else 2) == 0
                last = f"it comes back to {who}, who" if back else "the player it then reaches"
                pre.append(f"instead of choosing, {who} may push: hand the choice to {receiver}, who may choose or "
                           f"push it on in turn, each time to {'their partner' if to == 'partner' else 'the next player'}"
                           f"; after {times} pushes in a hand {last} must choose")
        if rs.contracts:
            return pre + contract_sentences(rs, who)
        ways = {
            "name": "name any suit as trump (they need not hold a card of it)",
            "show": "show one card from their hand, whose suit becomes trump (the card goes back into their hand)",
            "defer": "decline to choose",
        }
        alternatives = [ways.get(w, w) for w in choose.ways]
        if len(alternatives) == 1:
            out = pre + [f"{who} looks at their cards and must {alternatives[0]}"]
        else:
            out = pre + [f"{who} looks at their cards and must either {join(alternatives, 'or')}"]
        if set(choose.ways) - {"defer"}:
            out.append(maker_phrase(rs, "the team of the player who chooses trump is the maker"))
        if "defer" in choose.ways:  # first_card_of_next_packet is the only way a deferral ends
            out.append(f"if they decline, the first card of their next packet is dealt face up: its suit is trump "
                       f"and the card stays in their hand; {_fallback_maker(rs)}")
        return out
    maker = f"the team of {elder(rs)} is the maker" if trump.maker_after_fallback == "elder_team" \
        else "nobody is the maker"
    if trump.method == "drawn":
        layout = rs.layout
        names = [layout.suit_names[layout.suits.index(s)] for s in trump.drawn]
        which = "every suit" if len(names) == len(layout.suits) else f"{join(names)} each"
        return [f"once the cards are dealt, a suit is drawn by chance for everyone to see (a card turned from a "
                f"second pack, say), {which} equally likely: it is trump; nobody decides, and {maker}"]
    if trump.method == "turned":
        step = _last_face_up(rs)
        held = step is not None and step.kind == "packet"
        empty = rs.tables.turns_nothing
        return ([f"the suit of {_offered_card(rs)} is trump: nobody decides, and {maker}"]
                + (["the card stays in that hand and is played like any other"] if held else [])
                + (["a hand that leaves no card in the stock to turn up is played without trump"] if empty else [])
                + turned_card_sentences(rs))
    return ["there are no trumps"]


def turned_card_sentences(rs: Ruleset) -> list[str]:
    """What a turned card that fixes no suit does (`if_turned`): no trump, or the dealer names it."""
    out = []
    for step in rs.deal:
        for cards, then in step.if_turned:
            names = grouped([_card(rs, c) for c in dict.fromkeys(cards)])
            which = f"one of the {names[0]}" if len(names) == 1 and len(cards) > 1 else join(names, "or")
            out.append(f"if the card turned up is {which}, the hand is played without trump" if then == "none" else
                       f"if the card turned up is {which}, the dealer names trump, having seen his cards, for all "
                       "to hear")
    return out


def auction_sentences(rs: Ruleset) -> list[str]:
    """The auction: who speaks, the ladder of contracts, who declares, and what all passing means."""
    auction = rs.trump.auction
    assert auction is not None
    first = "the dealer" if auction.first == "dealer" else elder(rs)
    if auction.procedure == "pairs":
        return pairs_sentences(rs, first)
    if auction.procedure == "rounds":
        return rounds_sentences(rs, first)
    if auction.procedure == "open":
        return open_sentences(rs, first)
    by_id = {c.id: c for c in rs.contracts}
    rungs: dict[int, list[str]] = {}
    for key, rung in zip(auction.ladder, auction.rungs):
        rungs.setdefault(rung, []).append(by_id[key].name)
    ladder = [names[0] if len(names) == 1 else f"{join(names, 'or')} (equal in rank)" for names in rungs.values()]
    order = (f"the contracts from lowest to highest are {join(ladder)}" if len(ladder) > 1 else
             f"the contracts are {ladder[0]}" if len(rungs[0]) > 1 else f"the contract is {ladder[0]}")
    equals = "; of contracts equal in rank none may be bid over another, so the first player to bid one keeps it" \
        if any(len(names) > 1 for names in rungs.values()) else ""
    out = [f"starting with {first} and going round the table once, each player either passes or bids a contract "
           f"higher than the last bid; {order}{equals}",
           f"the highest bidder declares that contract and plays it; {maker_phrase(rs, 'their team is the maker')}",
           "if everyone passes, " + all_pass_phrase(rs)]
    return out + contract_sentences(rs, "the highest bidder")[2:]


def values_shown(values: list[str]) -> str:
    """A numeric auction's values as the rulebook lists them: all of a short list, else the first and the last."""
    return join(values) if len(values) <= 8 else ", ".join(values[:6]) + f" and so on up to {values[-1]}"


def declarer_picks_sentences(rs: Ruleset) -> list[str]:
    """After a numeric auction: the declarer's decision on the kitty, if it is his, the contract he picks, the doubling."""
    auction = rs.trump.auction
    assert auction is not None
    out = []
    if auction.kitty == "declarer_decides":
        out.append("the declarer then either takes the kitty into their hand, unseen by the others, and discards "
                   "as many cards face down (see Discard), or leaves it unseen by everyone (`kitty_taken` below is "
                   "false)")
    contracts = contract_sentences(rs, "the declarer then")
    return out + contracts[:1] + contracts[2:] + doubling_sentences(rs)


def pairs_sentences(rs: Ruleset, first: str) -> list[str]:
    """A numeric auction in pairs: the values, who bids to whom, the survivor, the kitty decision, the contract."""
    auction = rs.trump.auction
    assert auction is not None
    values = [str(v) for v in auction.values]
    shown = values_shown(values)
    out = [f"the players bid numbers, lowest first {shown}; each bid must be higher than the last",
           f"they bid two at a time: the next player after {first} bids to {first}, who says whether they hold "
           "(bid as much themselves) or pass; the bidder then bids higher or passes; whoever passes is out, and "
           "the one left holds in the same way against the next player in turn, to the last",
           "the player left after the last pair declares at the last value bid (`bid_value` below); "
           + maker_phrase(rs, "their team is the maker"),
           "if every other player passed before anyone bid, the one left may bid the lowest value alone or pass; "
           "if everyone passes, " + all_pass_phrase(rs)]
    return out + declarer_picks_sentences(rs)


def rounds_sentences(rs: Ruleset, first: str) -> list[str]:
    """A numeric auction round the table: the values, the turns of the seats still in, the last bidder
    declaring, all passing or the last seat stuck, the kitty decision, the contract."""
    auction = rs.trump.auction
    assert auction is not None
    values = [str(v) for v in auction.values]
    shown = values_shown(values)
    laps = auction.laps
    times = "once" if laps == 1 else "twice" if laps == 2 else f"{laps} times"
    out = [f"the players bid numbers, lowest first {shown}",
           f"starting with {first} and going round the table "
           + ("once" if laps == 1 else f"at most {times} (each player speaks at most {times})" if laps
              else "as often as needed")
           + ", each player still in the bidding either bids any number higher than the last bid or passes"
           + ("; the dealer may instead bid the last bid's number again, holding it: the bid is theirs" +
              ("" if laps == 1 else ", and the player they took it from may then bid higher")
              if auction.dealer_holds else "")
           + "; a player who passes is out of the bidding for the rest of the hand and is not asked again",
           ("when every other player has passed, or " + ("everyone has spoken, " if laps == 1 else
                                                          f"the next to speak has already spoken {times}, ")
            if laps else "when every other player has passed, ")
           + "the last bidder declares at the last number bid (`bid_value` below); "
           + maker_phrase(rs, "their team is the maker")]
    if auction.last_seat_declares:
        last = seat(rs, -1 if auction.first == "dealer" or rs.players.sit_out == "dealer" else 0)
        out.append(f"if every other player passes without a bid, the last to speak ({last}) is not asked: they "
                   f"are stuck with the contract and declare at the lowest number, {values[0]}, so no deal is "
                   "thrown in")
    else:
        out.append("if everyone passes without a bid, " + all_pass_phrase(rs))
    return out + declarer_picks_sentences(rs)


def open_sentences(rs: Ruleset, first: str) -> list[str]:
    """An open auction: the values with a suit, the turns until all others pass, the doubling, the declarer."""
    auction = rs.trump.auction
    assert auction is not None
    values = [str(v) for v in auction.values]
    shown = values_shown(values)
    others = [rs.contracts[c].name for c in rs.tables.fixed_contracts]
    suits = rs.tables.named_contract >= 0 or not rs.contracts
    named = (("a trump suit" if suits else "") + (", or instead of a suit " if suits and others else "")
             + (join(others, 'or') if others else ""))
    strain = "suit" + (" or contract" if others else "")
    if auction.outbid == "value_or_strain":
        ranked = [rs.contracts[c].name if c >= 0 and c != rs.tables.named_contract else rs.layout.suits[suit]
                  for c, suit in rs.tables.auction_strains]
        outbid = (f"each bid must be a higher number than the last, or the same number in a higher {strain}, "
                  f"ranking from lowest {join(ranked)}")
    else:
        outbid = f"each bid must be a higher number than the last, in any {strain}"
    last_call = "bid" if auction.double_ends_bidding or not auction.doubling else "bid, double or redouble"
    declarer = ("the player of the last bidder's side who first bid the last bid's " + strain + " declares"
                if auction.declarer == "first_to_name_strain" else "the last bidder declares")
    out = [f"starting with {first} and going round the table as often as needed, each player either passes or "
           f"bids a number, lowest first {shown}, together with {named}; " + outbid,
           ("a player who passes is out of the bidding for good; the bidding ends when every player but the last "
            "bidder has passed; if all pass, " if auction.pass_is_final else
            f"the bidding ends when every other player has passed in turn after the last {last_call}; if all "
            "pass before anyone bids, ") + all_pass_phrase(rs),
           declarer + ": " + ("the suit or contract they named is played" if others else "their suit is trump")
           + " and the last number bid is the contract (`bid_value` below); "
           + maker_phrase(rs, "their team is the maker")]
    named_contracts = contract_sentences(rs, "", lambda c: c.trump != "named")[2:] if rs.contracts else []
    return out + named_contracts + doubling_sentences(rs)


def all_pass_phrase(rs: Ruleset) -> str:
    """What follows when every player passes the auction: the deal thrown in, or the contract of
    `on_all_pass` played with no declarer, each player for themself."""
    contract = rs.tables.all_pass_contract
    if contract < 0 and rs.scoresheet.passed_out_deals == "redealt":
        return "the deal is thrown in: nobody scores, and the same dealer deals again, a deal not counted"
    if contract < 0:
        return "the deal is thrown in: nobody scores and the next dealer deals"
    side_card = rs.trump.auction.all_pass_side_card if rs.trump.auction else None
    if side_card:
        card = _card(rs, side_card)
        return (f"the hand is played with no declarer in the contract {contract_phrase(rs, rs.contracts[contract])}; "
                f"the players dealt {'a copy of ' if rs.deck.copies > 1 else ''}the {card} play together (the maker, "
                f"in the expressions below) against the others, and a player dealt every copy plays alone; nobody is "
                f"told who holds it: a player knows their own side from their cards, and another player's once that "
                f"player plays the {card} (or every {card} has been seen)")
    return ("the hand is played with no declarer (`maker` is none), each player playing alone, a side of their "
            "own, in the contract " + contract_phrase(rs, rs.contracts[contract]))


def doubling_sentences(rs: Ruleset) -> list[str]:
    """Doubling (`trump.auction.doubling`): who doubles when, who raises it, the levels."""
    auction = rs.trump.auction
    assert auction is not None
    levels = auction.doubling
    if not levels:
        return []
    times = join([f"{level} times" for level in levels])
    raise_ = "" if len(levels) == 1 else (": the players of the other side are then asked in turn whether to raise it "
                                          "to the next level or pass, and so on while there are levels")
    levels_said = f"; the levels are {times} the stake (`doubled` below, 1 when nobody doubled)"
    if auction.procedure == "open":
        aside = ("; an opponent may also double out of turn: after each bid or pass that leaves the bidding open, "
                 "the last bidder's opponents other than the player who just spoke and the next to speak are asked "
                 "in turn whether to double, and their passing is no call" if auction.double_out_of_turn else "")
        if not auction.double_ends_bidding:
            return ["instead of passing or bidding, an opponent of the last bidder may, in turn, double the bid, and "
                    "once it is doubled a player of the bidder's side may raise it to the next level, and so on while "
                    "there are levels; the bidding goes on, and a new bid is undoubled" + levels_said]
        return ["instead of passing or bidding, an opponent of the last bidder may, in turn, double the bid" + aside
                + "; a double closes the bidding" + raise_ + levels_said]
    raise_ = "" if len(levels) == 1 else ("; after a double the declarer's side is asked whether to raise it to the "
                                          "next level, then the opponents again, while there are levels")
    return ["once the declarer has picked the contract and made any announcements, before the first lead, the "
            "declarer's opponents are asked in turn whether to double it" + raise_ + levels_said]


def maker_phrase(rs: Ruleset, with_teams: str) -> str:
    """Who the maker is once a seat fixed the contract: ``with_teams`` says it for fixed teams (said of
    the player where every team is one player); with sides per hand it is that seat alone."""
    if alone(rs):
        return ("that player is the declarer (the maker, in the expressions below) and plays alone against the "
                "others, the defence")
    if all(len(team) == 1 for team in rs.players.teams):
        return _PLAYER_IS_MAKER.get(with_teams, with_teams)
    return with_teams


# maker_phrase's team wordings, said of the player where each plays for himself
_PLAYER_IS_MAKER = {
    "that player's team is the maker": "that player is the maker",
    "that player's team being the maker": "that player being the maker",
    "their team is the maker": "they are the maker",
    "the team of the player who picks it is the maker": "the player who picks it is the maker",
    "the team of the player who chooses trump is the maker": "the player who chooses trump is the maker",
}


def alone(rs: Ruleset) -> bool:
    """Sides are fixed per hand (`players.sides`): the declarer alone against the defence, each player
    keeping their own score; the prose then says the declarer, the defence and the side, not teams."""
    return rs.players.sides != "teams"


def _its(rs: Ruleset) -> str:
    """Whose score a scoring rule changes: a team's, or with sides per hand each player's own."""
    return "their" if alone(rs) else "its"


def contract_sentences(rs: Ruleset, who: str, keep: Callable[[Contract], bool] = lambda c: True) -> list[str]:
    """What a choice among `contracts` picks: each contract's trump, order, points and multiplier (those
    ``keep`` keeps), then those not played."""
    enabled = [rs.contracts[i] for i in (rs.tables.named_contract, *rs.tables.fixed_contracts) if i >= 0]
    enabled.sort(key=rs.contracts.index)  # as written (the contract played when all pass is never picked)
    names = [c.name for c in enabled]
    picks = f"picks one of these contracts: {join(names, 'or')}" if len(names) > 1 else \
        f"picks the one contract there is: {names[0]}" if names else "picks no contract: none is enabled"
    out = [f"{who} looks at their cards and {picks}",
           maker_phrase(rs, "the team of the player who picks it is the maker")]
    out.extend(contract_phrase(rs, c) for c in enabled if keep(c))
    if any(c.offered_when for c in enabled):
        out.append("where no contract may be picked by these conditions, every one may: the declarer is never left "
                   "without a contract (`offered_when`)")
    disabled = [c.name for c in rs.contracts if not c.enabled]
    if disabled:
        out.append(f"{join(disabled)} {'is' if len(disabled) == 1 else 'are'} not played (an option may allow "
                   f"{'it' if len(disabled) == 1 else 'them'})")
    return out


def contract_phrase(rs: Ruleset, c: Contract) -> str:
    """One contract's trump, order, points, kitty, unplayed cards and multiplier."""
    if c.trump == "named":
        text = f"{c.name}: they name any suit as trump"
    elif c.trump == "first_lead":
        text = f"{c.name}: no suit is trump until the first card is led; its suit is then trump for the hand"
    elif c.trump == "none":
        text = f"{c.name}: there are no trumps" + (", so no declaration of trump cards" if names_trump_cards(rs)
                                                   else "")
    elif c.trump == "promoted":
        promoted = [_card(rs, card) for card in c.promoted] if c.promoted is not None \
            else [_promoted(rs, p) for p in rs.deck.promotions if p.card is not None]
        text = (f"{c.name}: no suit is trump; the {promoted[0]} is the only trump" if len(promoted) == 1 else
                f"{c.name}: no suit is trump; the {join(promoted)} are the only trumps, in that order")
    elif c.trump == "all_suits":
        text = all_suits_phrase(rs, c)
    else:
        text = f"{c.name}: {rs.layout.suit_names[rs.layout.suits.index(c.trump)]} are trumps"
    if c.promoted is not None and c.trump != "none":
        text += promoted_phrase(rs, c)
    if c.ranks and c.trump != "all_suits":  # the plain suits' order: a trump suit keeps the trump order
        reordered = "every suit" if c.trump in ("none", "promoted") else "the plain suits"
        text += f", and the cards of {reordered} rank " + " ".join(c.ranks) + " from high to low"
    if c.points:
        text += "; " + ", ".join(f"{rank_word(r, True)} count {v}" for r, v in c.points.items())
    if c.trump_points:
        what = "every card" if c.trump == "all_suits" else "trumps"
        text += f"; {what}: " + ", ".join(f"{rank_word(r, True)} count {v}" for r, v in c.trump_points.items())
    if rs.tables.kitty is not None and not rs.tables.kitty_choice:  # else the declarer's decision says
        text += "; " + kitty_phrase(c.kitty)
    if c.aside_counts_for != "nobody":
        declarer = "the declarer" if alone(rs) else "the declarer's team"
        who = "the side that takes the last trick" if c.aside_counts_for == "last_trick" else declarer \
            if c.aside_counts_for == "declarer" else "the defence" if alone(rs) else "the declarer's opponents"
        unplayed = ("the cards nobody plays (the kitty, or the discard)" if rs.tables.kitty is not None
                    else "the cards dealt to nobody")
        text += f"; {unplayed} count for {who} at the end of the hand"
    if c.bid_values:
        text += f"; it is bid only at {join([str(v) for v in c.bid_values], 'or')}"
    if c.sits_out == "partners":
        text += "; the declarer plays alone, the partners laying their cards aside and sitting the hand out"
    if c.shows_hand:
        text += "; the declarer's cards lie face up for everyone before the first lead, each until it is played"
    if c.call is not None:
        text += "; " + call_phrase(rs, c.call)
    if c.bidder_holds:
        every = "every copy of " if rs.deck.copies > 1 else ""
        text += f"; only a player dealt {every}the {join([_card(rs, card) for card in c.bidder_holds])} may bid it"
    if c.partner_by_trick is not None:
        which = {"any": "", "trump_led": " led with a trump", "plain_led": " led with a card that is not a trump"}
        first = f"the first {c.partner_by_trick.within} tricks" if c.partner_by_trick.within > 1 else "the first trick"
        text += (f"; the first other player to win one of {first}{which[c.partner_by_trick.tricks]} becomes the "
                 "declarer's partner, which everyone sees; until then, and for the whole hand if nobody does, the "
                 "declarer plays alone")
    if c.offered_when:
        condition = condition_phrase(rs, parse_expression(c.offered_when))
        each = ", for each suit they may name," if c.trump == "named" else ""
        known = "their own cards and discard, never an unseen kitty" if any(s.kind == "kitty" for s in rs.deal) else \
            "their own cards"
        text += (f"; it may be picked{each} only when {condition or '`' + c.offered_when + '` holds'}, read with "
                 f"what the declarer knows then: {known} (`offered_when`)")
    if isinstance(c.multiplier, int):
        if c.multiplier != 1:
            text += f"; the hand counts {c.multiplier} times (`multiplier`)"
    else:
        per = ", ".join(f"{rs.layout.suit_names[rs.layout.suits.index(s)]} x{m}" for s, m in c.multiplier.items())
        text += f"; the hand counts as many times as its trump suit says ({per}; `multiplier`)"
    return text


def promoted_phrase(rs: Ruleset, c: Contract) -> str:
    """A contract's own promoted cards (`contracts.<id>.promoted`): the deck's others are plain cards here."""
    kept = {card.upper() for card in c.promoted or ()}
    plain = [_card(rs, p.card) for p in rs.deck.promotions if p.card is not None and p.card.upper() not in kept]
    text = ""
    if c.trump != "promoted":
        text = (f"; of the promoted cards only the {join([_card(rs, card) for card in c.promoted or ()])} are top "
                "trumps, in that order" if kept else "; no card is promoted")
    if plain:
        text += f"; the {join(plain)} are not promoted: they rank as plain cards of their suits"
        suit = c.trump.upper() if c.trump.upper() in rs.layout.suits else None
        in_trump = [_card(rs, p.card) for p in rs.deck.promotions
                    if p.card is not None and p.card.upper() not in kept and suit and rs.layout.suit_of(rs.layout.parse(p.card))
                    == rs.layout.suits.index(suit)]
        if in_trump:
            text += f" (so the {join(in_trump)}, of the trump suit, {'is a trump' if len(in_trump) == 1 else 'are trumps'})"
    return text


def call_cards(rs: Ruleset, cards: tuple[str, ...] | str) -> str:
    """A call's cards as a rulebook lists them: ``the A♣, A♠ or A♦``, or a card set by name."""
    return f"a card of the set {cards}" if isinstance(cards, str) else "the " + join([_card(rs, c) for c in cards], "or")


def call_phrase(rs: Ruleset, call: PartnerCall) -> str:
    """What a contract's call (`contracts.<id>.call`) lets its declarer call, when, and who then plays with whom."""
    before_kitty = call.when == "before_kitty"
    when = ("as soon as the contract is fixed, before anyone sees the kitty or the declarer takes it, "
            "holding only the cards dealt to them," if before_kitty else "before the first lead")
    text = f"{when} the declarer calls {call_cards(rs, call.cards)}"
    fallbacks = [f"{call_cards(rs, tier)} too when they hold all of those{' as well' if i else ''}"
                 for i, tier in enumerate(call.otherwise)]
    if fallbacks:
        text += f" ({', and '.join(fallbacks)})"
    rules = []
    if call.must_hold_suit:
        rules.append("only a card of a suit of which they hold a card that is not a trump")
    rules.append("never a card they hold" if call.own == "forbidden"
                 else "a card they hold too, and then they play alone")
    nobody = "it lies in the kitty" if before_kitty else "it lies in no hand"
    text += (", " + " and ".join(rules) + "; whoever holds the called card plays with the declarer against the "
             f"others (nobody does when {nobody}), known to the others only when they play it")
    if call.plays_when_led:
        text += ", and must play it to the first trick led in its suit"
    if call.alone_by_choice:
        text += "; instead of calling a card the declarer may call nobody and play alone, which everyone learns then"
    if call.if_none == "alone":
        text += ("; a declarer left with no card they may call plays alone, which everyone learns then"
                 " (anyone may bid it without a card to call)")
    duties = []
    if call.leads_it_first:
        duties.append("its holder may not lead another card of its suit before the called card"
                      + (f" unless they hold {call.runs_away_with} cards of that suit or more, and then may (running away)"
                         if call.runs_away_with else ""))
    if call.kept_until_led:
        duties.append("its holder may not throw the called card away on a trick of another suit")
    if call.caller_keeps_suit:
        duties.append("the declarer may not throw a card of its suit on a trick of another suit")
    if duties:
        text += ("; until a trick has been led in the called card's suit, " + "; ".join(duties)
                 + " (a player left with no other card to play plays one)")
    return text


def all_suits_phrase(rs: Ruleset, c: Contract) -> str:
    """A contract of `trump: all_suits`: no single trump suit, every suit played as trumps are."""
    deck = rs.deck
    order = c.ranks or deck.trump_ranks or deck.ranks
    follow = rs.play.follow
    overtake = follow.overtrump == "when_able" or follow.head == "when_able"
    text = (f"{c.name}: no single suit is trump, every suit is played as the trump suit is: its cards rank "
            + " ".join(order) + " from high to low and count the trump points; a player must follow the suit led"
            + (" and beat its best card when they can" if overtake else "")
            + ", and a player without it plays any card (no card of another suit can win)")
    if names_trump_cards(rs):
        text += "; the trump cards the declarations name (KT) may be of any suit, each suit's counting apart"
    return text


def names_trump_cards(rs: Ruleset) -> bool:
    """Some declaration's pattern names trump cards (`KT`, or `of: [trump]`): none without a trump suit."""
    relative = "T" not in rs.layout.suits  # `KT` names the trump king only where no suit is called T
    return any(any(relative and card.upper().endswith("T") or card == "trump" for card in (*p.cards, *p.of))
               for d in rs.declarations for p in d.patterns)


def kitty_phrase(kitty: Kitty) -> str:
    """What a contract does with the kitty, as a clause."""
    if kitty.shown and kitty.taken:
        return ("the kitty is turned face up for everyone to see, then the declarer takes it into their hand and "
                "discards as many cards (see Discard)")
    if kitty.taken:
        return ("the declarer takes the kitty into their hand, unseen by the others, and discards as many cards "
                "(see Discard)")
    if kitty.shown:
        return "the kitty is turned face up for everyone to see and stays out of play"
    return "the kitty stays face down, unseen by everyone"


def _class_words(rs: Ruleset, classes: Sequence[tuple[str, str]]) -> str:
    """Card classes in words: ``kings``, ``trumps``, ``the bouts``, ``the Excuse``."""
    words = []
    for kind, key in classes:
        if kind == "rank":
            words.append(rank_word(key, True))
        elif kind == "suit":
            words.append(rs.layout.suit_names[rs.layout.suits.index(key)])
        elif kind == "set":
            words.append(f"the {key}")
        else:
            words.append(_card(rs, key))
    return join(words, "or")


def discard_sentences(rs: Ruleset) -> list[str]:
    """What the declarer may discard after taking the kitty (the taker, after taking an offered
    card), and who sees the discard."""
    rules = rs.discard
    who = "the declarer" if takes_kitty(rs) else "the taker"
    out = [f"{who} discards {'one card at a time' if takes_kitty(rs) else 'one card'}; the discard is out of play"]
    if rules is None:
        return out + ["any card may be discarded, and nobody else sees the discard"]
    if rules.never:
        out.append(f"{_class_words(rs, rules.never)} may never be discarded")
    if rules.last_resort:
        out.append(f"{_class_words(rs, rules.last_resort)} may be discarded only when the hand holds too few other "
                   "cards it may discard")
    if rules.shown:
        out.append(f"discarded {_class_words(rs, rules.shown)} are shown to everyone; the rest of the discard is "
                   f"seen by nobody but {who}")
    else:
        out.append(f"nobody but {who} sees the discard")
    return out


def takes_kitty(rs: Ruleset) -> bool:
    """Some contract hands the kitty to the declarer, or he may take it by his own decision, and then discards."""
    return rs.tables.kitty is not None and (any(rs.tables.kitty.taken) or rs.tables.kitty_choice)


def discards(rs: Ruleset) -> bool:
    """Some seat discards: a declarer who took the kitty, or the taker of an offered card."""
    offer = rs.trump.offer
    return takes_kitty(rs) or offer is not None and offer.taken_by is not None and offer.taker_discards


def describe_trump(rs: Ruleset) -> Section:
    paragraphs = [Paragraph(" ".join(sentence(s) for s in trump_sentences(rs)))]
    if discards(rs):
        paragraphs.append(Paragraph("Discard: " + " ".join(sentence(s) for s in discard_sentences(rs))))
    return Section("Trump", tuple(paragraphs))


def settled_before_play(rs: Ruleset) -> list[str]:
    """What is done when the steps before the first lead (passing, bids, the declarer's
    announcements) begin, in the engine's order."""
    fixed = "the contract is fixed" if rs.contracts else "trump is fixed" if rs.trump.method != "none" \
        else "the cards are dealt"
    exchanged = ["any kitty exchanged"] if takes_kitty(rs) else ["the offered card taken and a card discarded"] \
        if discards(rs) else []
    return [fixed, *exchanged]


# ---------------------------------------------------------------------- passing


def _pass_receiver(rs: Ruleset, way: str) -> str:
    """Whom a player passes to, seen from the passer's chair (`way` is not none)."""
    n = rs.players.count
    if n == 2:
        return "the other player"
    if way == "across":
        team_of = {s: t for t, seats in enumerate(rs.players.teams) for s in seats}
        partnered = n == 4 and all(team_of[s] == team_of[(s + 2) % n] for s in range(n))
        return "their partner" if partnered else "the player opposite"
    return f"the player on their {_left(rs) if way == 'next' else _right(rs)}"


def _pass_way(rs: Ruleset, way: str) -> str:
    return "nobody passes" if way == "none" else f"to {_pass_receiver(rs, way)}"


def passing_sentences(rs: Ruleset) -> list[str]:
    """The cards passed before play: how many, to whom hand by hand, in what order, and who sees them."""
    passing = rs.passing
    assert passing is not None
    if all(way == "none" for way in passing.to):
        return ["no cards are passed: every entry of `passing.to` is none"]
    cards = count(passing.cards, "card")
    before = "any bids and the first lead" if rs.bids is not None else "the first lead"
    chooses = (f"once {join(settled_before_play(rs))}, before {before}, each player chooses {cards} from their "
               f"hand and passes {'it' if passing.cards == 1 else 'them'} face down")
    if len(passing.to) == 1:
        out = [f"{chooses} {_pass_way(rs, passing.to[0])}"]
    else:
        ways = [f"in the {ordinal(k + 1)}{' hand of a game' if k == 0 else ''} {_pass_way(rs, way)}"
                for k, way in enumerate(passing.to)]
        out = [f"{chooses}: {', '.join(ways[:-1])}, and {ways[-1]}; from the {ordinal(len(passing.to) + 1)} hand "
               f"the same order starts again"]
    out.append(f"the players choose in turn, starting with {elder(rs)} and going round to the dealer, but a player "
               f"takes up the cards passed to them only once everyone has passed, so nobody knows what they will "
               f"receive when they choose")
    out.append("everyone knows who passes to whom, but only the giver and the receiver see the cards passed")
    return out


def describe_passing(rs: Ruleset) -> Section | None:
    if rs.passing is None:
        return None
    return Section("Passing", (Paragraph(" ".join(sentence(s) for s in passing_sentences(rs))),))


# ---------------------------------------------------------------------- bids


def bid_sentences(rs: Ruleset) -> list[str]:
    """The bids of a number of tricks: when and in what order, the range and the hook, and who hears them."""
    bids = rs.bids
    assert bids is not None
    done = [*settled_before_play(rs), *(["any cards passed"] if rs.passing is not None else [])]
    varies = rs.tables.deal_cycle > 1
    out = [f"once {join(done)}, before the first lead, each player in turn bids how many tricks they will take, "
           f"starting with {elder(rs)} and going round to the dealer, who bids last"]
    out.append(f"a bid is a number of tricks from {bids.lowest} to {bids.highest}"
               + (", and never more than the tricks of the hand" if varies else ""))
    total = ("all the bids add up to the number of tricks in the hand" if varies
             else f"all the bids add up to {rs.tables.hand_tricks[0]}, the number of tricks in a hand")
    out.append(f"the dealer may bid any of these numbers, even one that makes {total}" if bids.may_total_tricks
               else f"the dealer may not bid the number that would make {total}, unless it is the only bid allowed")
    heard = "bids are made aloud, so everyone knows every bid"
    if any(len(team) > 1 for team in rs.players.teams) or alone(rs):
        unit = "side" if alone(rs) else "team"
        heard += f"; a {unit}'s bid is the sum of its players' bids"
    out.append(heard)
    places = _counted_in(rs, lambda n: isinstance(n, Call) and n.func in ("bid", "seat_bid"))
    if places:
        out.append(f"the bids count in {places}")
    if bids.blind >= 0:
        out += blind_sentences(rs, bids.blind, bids.blind_when)
    return out


def blind_sentences(rs: Ruleset, bid: int, when: str | None) -> list[str]:
    """A bid made before looking at one's cards: who may, when it is decided, and what the others know."""
    who = "every player"
    if when is not None:
        condition = condition_phrase(rs, parse_expression(when))
        who = f"a player for whom {condition or '`' + when + '` holds'} when the hand is dealt"
    out = [f"{who} may bid {bid} blind: such a player does not look at their cards until their turn to bid, and "
           f"then either bids {bid} without looking at them, or looks at them and bids as any other player"]
    places = _counted_in(rs, lambda n: isinstance(n, Call) and n.func == "seat_blind")
    out.append("everyone knows whether a bid was made blind" + (f"; a blind bid counts in {places}" if places else ""))
    bids = rs.bids
    if bids is not None and bids.exchange:
        cards = count(bids.exchange, "card")
        first, second = ("the blind bidder's partner", "the blind bidder") if bids.exchange_first == "partner" \
            else ("the blind bidder", "their partner")
        out.append(f"when everyone has bid, each player who bid blind and their partner exchange {cards}: {first} "
                   f"passes {cards} face down, and {second}, having taken them up, passes {cards} back (they may "
                   "include cards just received); where both partners bid blind, the one who bid first is the blind "
                   "bidder; everyone knows that the exchange takes place, but only the giver and the receiver see "
                   "the cards passed")
    return out


def describe_bids(rs: Ruleset) -> Section | None:
    if rs.bids is None:
        return None
    return Section("Bids", (Paragraph(" ".join(sentence(s) for s in bid_sentences(rs))),))


# ---------------------------------------------------------------------- announcements


def _counted_in(rs: Ruleset, asks: Callable[[Node], bool]) -> str | None:
    """The definitions and scoring rules with a node that ``asks`` picks out, as words; None when none has."""
    def reads(text: object) -> bool:
        return isinstance(text, str) and bool(text.strip()) and any(asks(n) for n in walk(parse_expression(text)))

    defined = [f"`{d.name}`" for d in rs.definitions if reads(d.text)]
    rules = [rule.name for rule in rs.scoring if any(reads(text) for text in (rule.when, rule.team, rule.delta))]
    places = [f"the value{'s' if len(defined) > 1 else ''} {join(defined)}"] if defined else []
    if rules:
        places.append(f"the scoring rule{'s' if len(rules) > 1 else ''} {join(rules)}")
    return join(places) if places else None


def _mentions(rs: Ruleset, announcement_id: str, functions: tuple[str, ...] = ("announced", "announcer", "times_announced"),
              arg: int = 0) -> str | None:
    """"counts in" the definitions and scoring rules whose expressions ask about an announcement (or,
    with ``functions`` and ``arg``, another quoted id: a declaration); None when none does."""
    places = _counted_in(rs, lambda n: isinstance(n, Call) and n.func in functions and len(n.args) > arg
                         and isinstance(quoted := n.args[arg], String) and quoted.value == announcement_id)
    return f"counts in {places}" if places else None


def announcement_sentence(rs: Ruleset, announcement: Announcement) -> str:
    if announcement.holder_of:
        text = (f"the player holding the {_card(rs, announcement.holder_of)} may announce "
                f"{announcement.name} on their turn in the first trick, before playing a card; staying silent "
                f"is just playing the card, so nobody learns whether a silent player holds it")
    elif announcement.after:
        before = _announcement(rs, announcement.after)
        first = before.name if before else announcement.after
        who = ("a partner of the player who announced it" if announcement.by == "partners"
               else "an opponent of the team that announced it")
        text = (f"right after {first} is announced, {who} may announce {announcement.name}; "
                f"they are asked in turn from the announcer's {_left(rs)}, and the first to announce it ends "
                f"the asking")
    elif announcement.by == "declarer":
        done = [*settled_before_play(rs), *(["any cards passed"] if rs.passing is not None else []),
                *(["the tricks bid"] if rs.bids is not None else [])]  # as the engine orders them
        when = ""
        if announcement.offered_when:
            condition = condition_phrase(rs, parse_expression(announcement.offered_when))
            when = f" (only when {condition or '`' + announcement.offered_when + '` holds'})"
        text = (f"once {join(done)}, before the first lead, the declarer may announce "
                f"{announcement.name}{when}; everyone hears whether they do")
        if announcement.leads:
            text += ", and if they do they lead to the first trick"
    elif announcement.for_side:
        text = side_announcement_sentence(rs, announcement)
    elif announcement.by == "leader":
        text = (f"the player about to lead a trick, any trick, may announce {announcement.name} before leading, "
                f"once a hand; leading without it is declining")
        if announcement.closes_stock:
            least = announcement.min_stock
            text += (f", and it may be announced only while the stock holds {least} cards or more (the turned-up card "
                     "counted)" if least > 1 else ", and it may be announced while cards are left to draw")
            text += (". Once it is announced the stock is closed: nobody draws again, the rules for following bind at "
                     "once, the hand ends when the cards in hand are played out, and the cards left in the stock count "
                     "for nobody")
            if rs.play.last_trick_points:
                text += f", nor does the last trick earn its {rs.play.last_trick_points}"
        if announcement.ends_hand:
            text += (". Once it is announced the hand ends at once, before the lead: the cards not yet played count "
                     "for nobody, and the scoring below judges the claim on the hand as it stands")
    elif announcement.by == "each_seat":
        text = (f"during the deal (see The deal), each player in turn from the dealer's {_left(rs)} is asked "
                f"whether they announce {announcement.name}, seeing only the cards dealt so far; every player may, "
                f"everyone hears each answer, and scoring may count how many did")
    else:
        text = f"{announcement.name} may be announced in the first trick"
    return text


def side_announcement_sentence(rs: Ruleset, announcement: Announcement) -> str:
    """An announcement made by a seat for its side (`for_side`): who, until when, what it tells."""
    maker = side_card_holders(rs) if rs.players.sides == "card_holders" else "the maker's side"
    side = maker if announcement.for_side == "maker" else (
        "the other side" if rs.players.sides == "card_holders" else "the side against the maker")
    before = announcement.before_card
    names = [a.name for r in announcement.reply_to if (a := _announcement(rs, r)) is not None]
    if announcement.after_declarer:
        side += (f" sitting after the declarer in the order from the dealer's {_left(rs)} (one the auction "
                 f"never asked before the declarer's bid)")
    if announcement.before_lead:
        return (f"once the contract is fixed, before the first lead, each player in turn from the dealer's "
                f"{_left(rs)} is asked once whether they announce {announcement.name}, the first to do so ending "
                f"the round; only a player of {side} may, the others are asked too and may only decline, so "
                f"being asked tells nothing; it is not offered later; an announcement answering it may be made "
                f"until the answerer's first card")
    if before == 0:  # only in reply
        replied = [a for r in announcement.reply_to if (a := _announcement(rs, r)) is not None]
        until = ("until their first card is played" if replied and all(a.before_lead for a in replied)
                 else "until one card later than the announcement it answers could be")
        text = (f"a player of {side} may announce {announcement.name} only once {join(names, 'or')} was announced "
                f"(by the other side), on any of their turns {until}, just before playing a card")
    else:
        deadline = f" until their {ordinal(before)} card is played" if before else ""
        text = f"a player of {side} may announce {announcement.name} on any of their turns{deadline}, just before playing a card"
    if announcement.implies:
        implied = _announcement(rs, announcement.implies)
        name = implied.name if implied else announcement.implies
        text += f"; it includes {name}, announced with it when it was not yet, even past its own time"
    if announcement.reply_to and before:
        text += (f"; in reply to {join(names, 'or')} (made by the other side) it may still be announced one card "
                 f"later than the announcement it answers could be")
    return text


def announcement_effects(rs: Ruleset, announcement: Announcement) -> str | None:
    """Where an announcement matters: the cards it promotes and the values and scoring rules that ask about it."""
    promotes = [_promoted(rs, p) for p in rs.deck.promotions if p.by_announcement == announcement.id]
    effects = []
    if promotes:
        effects.append(f"promotes the {join(promotes)} to a trump (see The cards)")
    counts = _mentions(rs, announcement.id)
    if counts:
        effects.append(counts)
    return f"it {join(effects)}" if effects else None


def sitting_out_sentence(rs: Ruleset, announcement: Announcement) -> str | None:
    """What `sits_out: partners` does: who sits the hand out, and how many cards a trick then has."""
    if announcement.sits_out != "partners":
        return None
    partners = {len(team) - 1 for team in rs.players.teams}
    n = rs.players.count
    who = "partner sits" if partners == {1} else "partners sit"
    cards = (f"the tricks then have {_NUMBER_WORDS[n - partners.pop()]} cards" if len(partners) == 1
             else "each trick then has a card fewer per player sitting out")
    return (f"if {announcement.name} is announced, the announcer's {who} the hand out: they lay their cards face "
            f"down, play none and are never asked to act, and {cards}; play passes over them, and if one of "
            f"them would lead the first trick, the next player in play leads it")


def shown_hand_sentence(announcement: Announcement) -> str | None:
    """What `shows_hand` does: the announcer's cards laid face up before the first lead."""
    if not announcement.shows_hand:
        return None
    return (f"if {announcement.name} is announced, the announcer lays their cards face up before the first lead: "
            "everyone sees them until they are played")


def describe_announcements(rs: Ruleset) -> Section | None:
    if not rs.announcements:
        return None
    times = [when for when, made in (("by the declarer before the first lead",
                                       any(a.by == "declarer" and not a.after for a in rs.announcements)),
                                      ("during the first trick", any(a.holder_of for a in rs.announcements)),
                                      ("by a player for their side, on their turns until a given card of theirs is played",
                                       any(a.for_side and not a.before_lead for a in rs.announcements)),
                                      ("by a player for their side, asked of every player before the first lead",
                                       any(a.before_lead for a in rs.announcements)),
                                      ("by every player in turn during the deal",
                                       any(a.by == "each_seat" for a in rs.announcements)),
                                      ("by the player on lead before leading a trick",
                                       any(a.by == "leader" for a in rs.announcements))) if made]
    told = (" Staying silent is just playing a card, and an announcement for a side tells every player the "
            "announcer's side." if any(a.for_side for a in rs.announcements) else "")
    return Section("Announcements", (
        Paragraph(sentence(f"announcements are made {join(times, 'or')}") + told),
        Items(tuple(f"{a.name}: " + " ".join(sentence(s) for s in (announcement_sentence(rs, a),
                                                                      sitting_out_sentence(rs, a),
                                                                      shown_hand_sentence(a),
                                                                      announcement_effects(rs, a)) if s)
                    for a in rs.announcements)),
    ))


# ---------------------------------------------------------------------- declarations
_SETS = ("", "one", "pair", "three", "four", "five", "six", "seven", "eight")


def _number(n: int) -> str:
    return _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else str(n)


def pattern_phrase(rs: Ruleset, declaration: Declaration, pattern: DeclarationPattern) -> str:
    """What one pattern matches, as a player says it: "a sequence of 3", "four jacks", "the trump king and queen"."""
    if pattern.run is not None:
        longest = max(p.run for p in declaration.patterns if p.run is not None)
        more = " or more" if pattern.run == longest else ""
        return f"a sequence of {pattern.run}{more}"
    copies = pattern.copies
    if pattern.same_rank:
        n = pattern.count or len(rs.layout.suits)
        ranks = join([rank_word(r, plural=True) for r in pattern.same_rank], 'or')
        if rs.layout.copies > 1:  # suits counted (a pack of copies)
            each = "each suit" if n == len(rs.layout.suits) else f"each of {_number(n)} suits"
            return f"{_number(n * copies)} {ranks}, {_number(copies)} of {each}"
        return f"{_number(n)} {ranks}"
    if pattern.cards:
        cards = f"{'the ' if len(pattern.cards) > 1 else ''}{join([_card(rs, c) for c in pattern.cards])}".replace(
            "the the trump", "the trump")
        return f"{_number(copies)} of each of {cards}" if copies > 1 else cards
    names = ["every trump" if c == "trump" else _card(rs, c) for c in pattern.of]
    return f"at least {pattern.at_least} cards among {join(names, 'and')}"


def declaration_sentences(rs: Ruleset, declaration: Declaration) -> list[str]:
    """The rules of one kind of declaration, a sentence each."""
    name = declaration.name
    per_trick = declaration.scope == "trick"
    if per_trick:
        when = (f"when a trick is complete, the {name} its cards form, whoever played them, is found automatically "
                f"and belongs to the player who won the trick")
    elif declaration.when == "first_play":
        when = f"each player declares their {name} with their first card of the hand"
    elif declaration.when == "before_first_play":
        may = "may declare their best" if declaration.optional else "declares their"
        when = (f"each player holding one {may} {name} just before playing their first card of the hand"
                + ("; declaring is optional, and a player who does not simply plays a card" if declaration.optional
                   else ""))
    elif declaration.when == "before_first_lead":
        when = (f"before the first card of the hand is led, every player holding one declares their {name}, in turn "
                f"from the leader")
    elif declaration.when == "trick_won":
        may = "may declare" if declaration.optional else "declares"
        when = (f"a player who has just won a trick {may}, before leading the next, the best {name} they hold that "
                f"was not declared before, one a trick won, its cards shown: they stay in their hand in everyone's "
                f"sight" + (" (cards drawn since the deal count)" if rs.play.draw is not None else "")
                + ("; declaring is optional, and a player who does not simply leads" if declaration.optional else ""))
    elif declaration.when == "led" and declaration.optional:
        when = (f"a player on lead who holds a {name} may declare it before leading: the best {name} they hold that "
                f"was not declared before is shown, and they then lead one of its cards; the rest stays in their hand "
                f"in everyone's sight (cards drawn since the deal count). A player who leads without declaring keeps "
                f"it quiet, even leading one of its cards")
    elif declaration.when == "led":
        when = (f"a player who leads a card of a {name} while holding the rest of it declares that {name} and "
                f"shows the rest, which stays in their hand in everyone's sight (cards drawn since the deal count)")
    else:
        when = f"a player declares {name} on playing the last of its cards (all of them held from the deal)"
    values = [f"{pattern_phrase(rs, declaration, p)}{', ' + p.name if p.name else ''} ({p.value})"
              for p in declaration.patterns]
    out = [when, f"{name} scores {join(values, 'or')}"]
    if declaration.when in ("before_first_play", "before_first_lead") and any(p.of for p in declaration.patterns):
        stand_ins = [_card(rs, c) for p in declaration.patterns for c in p.stand_in]
        out.append("a set of cards is declared by showing exactly as many as the combination needs, the holder's "
                   "lowest" + (f", {join(list(dict.fromkeys(stand_ins)), 'or')} only when the others are too few"
                               if stand_ins else ""))
    if any(p.run is not None for p in declaration.patterns):
        order = " ".join(declaration.run_order or rs.layout.ranks)
        out.append(f"sequences are cards of one suit in the order {order}; a longer sequence counts once, "
                   f"as the longest pattern it reaches")
    if rs.layout.copies > 1 and not per_trick and declaration.disjoint:
        out.append("each copy of a card serves once: a player holding a combination's cards twice holds it twice"
                   + (", unless a pattern takes both" if any(p.copies > 1 for p in declaration.patterns) else ""))
    if len(declaration.patterns) > 1:
        chooses = "is offered" if declaration.optional else "declares"
        holder = "each trick counts" if per_trick else f"each player {chooses}"
        out.append(f"a card serves in at most one {name}, and {holder} the combination worth the most"
                   if declaration.disjoint else f"a card may serve in several {name}")
    if declaration.when in ("first_play", "before_first_play", "before_first_lead") and not per_trick:
        out.append("the declared cards are shown to everyone" if declaration.shown
                   else "only what is declared is told, not the cards")
    if declaration.award == "best_side_only":
        criteria = {"value": "value", "length": "more cards", "top": "higher top card", "trump": "being in trumps"}
        tie = ("both sides score" if declaration.tie == "both"
               else "the player earlier in play order from the first leader wins")
        out.append(f"only the side holding the best single {name} scores, and then all of its {name}; "
                   f"{name} are compared by {join([criteria[c] for c in declaration.compare], 'then')}; "
                   f"on a tie {tie}")
    elif per_trick:
        out.append(f"every {name} scores for the side that won its trick")
    else:
        out.append(f"every {name} declared scores for its side")
    if declaration.void_if_opponents_take_all:
        out.append(f"a side's {name} does not count when the other side takes every trick")
    counts = _mentions(rs, declaration.id, ("declared",), 1)
    if counts:
        out.append(f"it {counts}")
    return out


def describe_declarations(rs: Ruleset) -> Section | None:
    if not rs.declarations:
        return None
    intro = ("players declare the combinations they hold (melds); they are found and declared automatically, "
             "a player always declaring the best")
    if all(d.scope == "trick" for d in rs.declarations):
        intro = "the cards of a trick may form combinations (melds) that score for the side winning the trick"
    elif any(d.scope == "trick" for d in rs.declarations):
        intro += "; where said, the cards of each trick form them instead, for the side winning the trick"
    if all(d.optional for d in rs.declarations):
        intro = "players may declare the combinations they hold; declaring is each holder's choice"
    elif any(d.optional for d in rs.declarations):
        intro += ", except where declaring is said to be optional"
    return Section("Declarations", (
        Paragraph(sentence(intro)),
        Items(tuple(f"{d.name}: " + " ".join(sentence(s) for s in declaration_sentences(rs, d))
                    for d in rs.declarations)),
    ))


# ---------------------------------------------------------------------- play


def first_lead_sentence(rs: Ruleset) -> str:
    lead = rs.play.first_lead
    if rs.play.first_lead_card:  # its holder, whoever first_lead names
        text = f"the player holding {_card(rs, rs.play.first_lead_card)} leads it to the first trick"
    elif lead == "dealer":
        text = "the dealer leads to the first trick"
    elif lead == "maker" and rs.trump.method == "auction":
        text = f"the declarer leads to the first trick ({elder(rs)} if nobody declared)"
    elif lead == "maker" and rs.trump.method != "none":
        text = f"the player who accepted or chose trump leads to the first trick ({elder(rs)} if nobody did)"
    elif lead == "after_maker" and rs.trump.method != "none":
        text = f"the player after the declarer in turn leads to the first trick ({elder(rs)} if nobody declared)"
    elif lead == "chooser" and rs.trump.method == "choose":
        text = "the player first asked to choose trump leads to the first trick, even when someone else chose it"
    else:
        text = f"{elder(rs)} leads to the first trick"
    leading = [a.name for a in rs.announcements if a.leads]
    if leading:
        text += f", except that a declarer who announced {join(leading, 'or')} leads to it"
    if rs.play.dummy:
        text += ("; once that first card is led, the declarer's partner, the dummy, lays his whole hand face up "
                 "for every player to see, and for the rest of the hand the declarer chooses each card it plays")
    return text + "; the winner of each trick leads to the next"


def follow_clauses(rs: Ruleset, follow: Follow | None = None) -> list[str]:
    """The follow obligations, one clause per primitive that applies (any card may be led)."""
    f = follow or rs.play.follow
    if f.led_suit == "any":
        return ["there is no duty to follow suit: you may play any card"]
    trumps = has_trumps(rs)
    out = []
    if f.led_suit == "follow_or_trump" and trumps:
        out.append("if you hold a card of the suit led you must play either a card of that suit or a trump")
    else:
        out.append("you must follow suit if you can")
    if f.when_void == "must_trump" and trumps:
        out.append("if you cannot follow suit you must play a trump if you have one")
    else:
        out.append("if you cannot follow suit you may play any card")
    if f.head == "when_able":
        text = "when you follow suit you must beat the best card of the suit led if you can"
        if trumps:
            text += (", even after the trick has been trumped" if f.head_when_trumped
                     else "; this no longer applies once the trick has been trumped")
        out.append(text)
    if trumps and f.overtrump == "when_able":
        out.append("a trump you play must beat the best trump already in the trick if you can")
    if trumps and (f.overtrump == "when_able" or f.head == "when_able"):
        out.append("when trumps are led you must play a higher trump than the best one in the trick if you can")
    if trumps and f.undertrump == "only_when_forced":
        out.append("you may play a trump lower than one already in the trick only when you have no other legal card")
    elif trumps and f.overtrump == "when_able":
        out.append("if you cannot overtrump, a lower trump is allowed")
    if f.exempt and trumps:
        cards = [c if c.startswith("the ") else f"the {c}" for c in (_card(rs, name) for name in f.exempt)]
        verb = "has" if len(cards) == 1 else "have"
        out.append(f"{join(cards)} never {verb} to be played to follow trumps: "
                   f"holding no other trump you may play any card")
    if f.when_partner_winning == "free" and trumps:
        out.append("if your partner is winning the trick and you cannot follow suit, you may play any card: "
                   "you need not trump or overtrump (a trump lead is followed as usual)")
    return out


def follow_sentence(rs: Ruleset, follow: Follow | None = None) -> str:
    return "; ".join(follow_clauses(rs, follow))


_WINS = {"never": "it never wins a trick",
         "never_except_sweep": "it never wins a trick, except the last one when its side took every other trick",
         "always": "it wins any trick it is played to, over every trump, unless another such card was played to "
                   "the trick before it: of several, the first played wins"}
_LAST_TRICK = {"changes_sides": "played to the last trick it changes sides: it goes to its owner's opponents",
               "to_trick_winner": "played to the last trick it goes with the trick to the winners"}


def role_sentence(rs: Ruleset, role: CardRole) -> str:
    """What is special about a role's cards, one clause per key that differs from an ordinary card."""
    cards = join(grouped([_card(rs, c) for c in role.cards]))
    clauses = []
    if role.play_anytime:
        clauses.append("may be played to any trick, whatever the follow rule would demand")
    if role.wins in _WINS:
        clauses.append(_WINS[role.wins])
    if role.when_led == "next_card_sets_suit":
        clauses.append("when it is led, the next player may play any card and that card sets the suit to follow"
                       + (" (another of them played after it leaves the choice to the player after)"
                          if len(role.cards) > 1 else ""))
    if role.kept_by_owner:
        give = (f", which gives the trick's winners {decimal_text(role.compensation)} card points in exchange"
                if role.compensation else "")
        clauses.append(f"it goes back to its owner's side instead of to the trick's winners{give}")
        if role.on_last_trick in _LAST_TRICK:
            clauses.append(_LAST_TRICK[role.on_last_trick])
    if not clauses:
        return f"{cards}: an ordinary card"
    return f"{cards}: " + "; ".join(clauses)


def trick_sentence(rs: Ruleset) -> str:
    if not has_trumps(rs):
        return "the highest card of the suit led wins the trick"
    return "the highest trump wins the trick; if no trump was played, the highest card of the suit led wins"


def draw_sentence(rs: Ruleset) -> str:
    """How the hands are refilled from the stock after each trick (`play.draw`)."""
    draw = rs.play.draw
    assert draw is not None
    each = "the top card" if draw.cards == 1 else f"the top {draw.cards} cards"
    turned = any(step.kind == "turn_up" for step in rs.deal)
    text = (f"after each trick, while the stock lasts, the winner of the trick takes {each} of the stock, then each "
            f"other player in turn does the same, so every hand is full again; you see the cards you draw, not the "
            f"ones the others draw")
    if turned:
        text += ("; the turned-up card is the last card drawn, and everyone sees who takes it")
    for exchange in draw.exchange:
        card = _card(rs, exchange.card)
        who = f"the player who holds {card}" + (" and has won a trick in the hand" if exchange.needs_trick else "")
        which = (f"a turned-up {join([rank_word(r) for r in exchange.turned], 'or')}" if exchange.turned
                 else "the turned-up card")
        text += (f"; {who} may, when it is his turn to lead and before he leads, put it under "
                 f"the stock in the turned-up card's place and take {which} into his hand, in everyone's "
                 f"sight, while the stock holds {exchange.min_stock} cards or more (the turned-up card counted)")
    if draw.exchange:
        text += "; a trade for the turned-up card is made at most once a hand, and leading a card without trading declines it"
    return text + "; once the stock is empty the remaining cards are played out"


def lead_sentence(rs: Ruleset) -> str:
    held, kept_off = rs.play.lead_once_broken, rs.play.not_on_first_trick
    text = "any card may be led"
    if held:
        text += (f", except {_class_words(rs, held)}: they may be led only once one of them has been played to a "
                 "trick of the hand (they are \"broken\"), or by a player who holds nothing else")
    if kept_off:
        text += (f"; {_class_words(rs, kept_off)} may not be played to the first trick, led or discarded, by a player "
                 "who may play another card")
    if rs.play.no_called_suit_first_lead is not None and any(c.call for c in rs.contracts):
        who = "whoever leads the first trick" if rs.play.no_called_suit_first_lead == "everyone" else \
            "the declarer, when they lead the first trick,"
        text += (f"; when a card has been called, {who} may not lead a card of its suit there except the called card"
                 " itself (unless they hold nothing else)")
    return text


def stop_sentence(rs: Ruleset, text: str) -> str:
    """When the hand stops before its last trick (`play.stop_when`)."""
    condition = condition_phrase(rs, parse_expression(text)) or f"`{text}` holds"
    declaring = ", and when a card declares something after the first trick," if rs.declarations else ""
    return (f"after each trick{declaring} the hand stops when "
            f"{condition}: it is scored as it stands, the cards not yet played (a trick begun included) counting "
            f"for nobody")


def follow_paragraphs(rs: Ruleset) -> tuple[Paragraph | Items, ...]:
    """The follow rules, and where the stock changes them (`play.draw`) what binds while it lasts."""
    draw = rs.play.draw
    rules = Items(tuple(sentence(c) for c in follow_clauses(rs)))
    if draw is None or draw.follow_obligations != "once_stock_empty":
        return Paragraph("When you play to a trick that someone else led:"), rules
    if draw.while_stock is None or draw.while_stock.led_suit == "any":
        return Paragraph("While cards are left to draw from the stock you may play any card; once the stock is "
                         "empty, when you play to a trick that someone else led:"), rules
    return (Paragraph("While cards are left to draw from the stock, when you play to a trick that someone else led:"),
            Items(tuple(sentence(c) for c in follow_clauses(rs, draw.while_stock))),
            Paragraph("Once the stock is empty:"), rules)


def describe_play(rs: Ruleset) -> Section:
    return Section("Playing the tricks", (
        Paragraph(sentence(first_lead_sentence(rs)) + " " + sentence(lead_sentence(rs))),
        *follow_paragraphs(rs),
        Paragraph(sentence(trick_sentence(rs))),
        *((Paragraph(sentence(draw_sentence(rs))),) if rs.play.draw else ()),
        *((Paragraph(sentence(stop_sentence(rs, rs.play.stop_when))),) if rs.play.stop_when else ()),
        *((Paragraph("Cards with roles of their own:"), Items(tuple(sentence(role_sentence(rs, r)) for r in rs.card_roles)))
          if rs.card_roles else ()),
    ))


# ---------------------------------------------------------------------- the hand's result


def outcome_sentence(rs: Ruleset) -> str:
    outcome = rs.outcome
    # `play.stop_when` or a claim (`ends_hand`) may stop it before its last trick
    end = "when the hand ends" if rs.play.stop_when or rs.tables.hand_enders else "after the last trick"
    if outcome.maker_wins is not None:
        condition = condition_phrase(rs, parse_expression(outcome.maker_wins)) or f"`{outcome.maker_wins}` holds"
        if rs.players.sides == "card_holders":
            return f"{end} {side_card_holders(rs)} wins the hand when {condition}, else the other side wins it"
        if alone(rs):
            return (f"{end} the declarer wins the hand when {condition}, else the defence wins it; "
                    "a hand without a declarer scores nothing")
        return (f"{end} the maker wins the hand when {condition}, else the maker's opponents win it; "
                "a hand without a maker scores nothing")
    if outcome.winner is not None:
        named = team_phrase(rs, parse_expression(outcome.winner))
        return (f"{end} {named} wins the hand" if named
                else f"{end} the team `{outcome.winner}` names wins the hand (`none`: a tie)")
    what = "card points in the tricks it took" if outcome.compare == "points" else "tricks"
    short = "points" if outcome.compare == "points" else "tricks"
    most = "more" if len(rs.players.teams) == 2 else "the most"
    text = (f"{end} each team counts the {what}; the team with {most} {short} wins the hand "
            f"and equal {short} is a tie")
    if outcome.maker_needs is not None:
        gap = "the hand is not scored" if outcome.gap == "no_score" else "the hand counts as a tie"
        text += (f"; but a maker with {most} {short} and fewer than {outcome.maker_needs} card points does not win: "
                 f"{gap}")
    return text


def describe_hand(rs: Ruleset) -> Section:
    return Section("Winning a hand", (Paragraph(sentence(outcome_sentence(rs))),))


# ---------------------------------------------------------------------- scoring


_UNITS = {  # display -> (unit, unit plural)
    "lines": ("line", "lines"), "loops": ("line", "lines"), "dots": ("line", "lines"),
    "strokes": ("stroke", "strokes"), "numbers": ("point", "points"),
}


def scoresheet_sentence(rs: Ruleset) -> str:
    sheet = rs.scoresheet
    if rs.players.sides != "teams":
        return (f"each player's score starts at {sheet.start}; a change for a side is made to the score of each "
                "player on that side")
    if sheet.direction == "up" or sheet.display == "numbers":
        return f"each team's score starts at {sheet.start}"
    unit, units = _UNITS.get(sheet.display, ("point", "points"))
    text = f"each team starts with {count(sheet.start, unit, units)} on its side of the scoresheet"
    if sheet.display == "loops":
        text += ("; a team may have to draw a loop at the end of one of its lines, and a looped line takes two "
                 "wins to erase, the first removing the loop")
    elif sheet.display == "dots":
        text += "; a line is cancelled by drawing a dot on it rather than by erasing it"
    elif sheet.display == "strokes":
        text += "; a stroke is cancelled by drawing a slash through it"
    return text


def _noun(rs: Ruleset, plural: bool, toward: bool) -> str:
    """The unit a score moves by, as the scoresheet shows it: a looped line is erased, a loop drawn."""
    sheet = rs.scoresheet
    unit, units = _UNITS.get(sheet.display, ("point", "points"))
    if sheet.display == "loops" and sheet.direction != "up":
        return ("lines or loops" if plural else "line or loop") if toward else ("loops" if plural else "loop")
    return units if plural else unit


def _toward(rs: Ruleset, amount: str, plural: bool, more: str = "") -> str:
    """Moving ``amount`` units (and ``more``) towards the goal, as the scoresheet shows it."""
    sheet = rs.scoresheet
    quantity = f"{amount} {_noun(rs, plural, True)}{more}"
    if sheet.direction == "up":
        return f"scores {quantity}"
    if sheet.display == "numbers":
        return f"takes {quantity} off {_its(rs)} score"
    if sheet.display in ("lines", "loops"):
        return f"erases {quantity}"
    return f"cancels {quantity}"


def _away(rs: Ruleset, amount: str, plural: bool, more: str = "") -> str:
    """Moving ``amount`` units (and ``more``) away from the goal."""
    sheet = rs.scoresheet
    quantity = f"{amount} {_noun(rs, plural, False)}{more}"
    if sheet.direction == "up":
        return f"loses {quantity}"
    if sheet.display == "numbers":
        return f"adds {quantity} to {_its(rs)} score"
    if sheet.display == "loops":
        return f"draws {quantity}"
    return f"adds {quantity}"


def _amount_word(n: int) -> str:
    return _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else str(n)


_PER = {
    "passes_pending": "for each passed-out deal owed to this hand",
    "ties_pending": "for each tie owed to this hand",
}


def _per_phrase(rs: Ruleset, node: Node) -> str | None:
    """``for each ...`` for a quantity a delta is multiplied by."""
    if isinstance(node, Name):
        return _PER.get(node.name)
    if isinstance(node, Call) and node.func in ("points", "tricks") and len(node.args) == 1:
        team = team_phrase(rs, node.args[0])
        what = "card point" if node.func == "points" else "trick"
        return f"for each {what} of {team}" if team else None
    if isinstance(node, Call) and node.func == "bid" and len(node.args) == 1:
        team = team_phrase(rs, node.args[0])
        return f"for each trick bid by {team}" if team else None
    return None


def _linear(node: Node) -> tuple[int, Node | None] | None:
    """``-2 * passes_pending`` -> (-2, passes_pending); ``3`` -> (3, None); None for other shapes
    (fractional factors included: a whole delta with one is rounded, and is quoted)."""
    if isinstance(node, Number):
        return (node.value, None) if isinstance(node.value, int) else None
    if isinstance(node, Unary) and node.op == "-":
        inner = _linear(node.operand)
        return (-inner[0], inner[1]) if inner else None
    if isinstance(node, Binary) and node.op == "*":
        for factor, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(factor, Number) and isinstance(factor.value, int) and not isinstance(other, Number):
                return factor.value, other
        return None
    return 1, node


def delta_phrase(rs: Ruleset, delta: int | str) -> str:
    """What a rule's delta does to the team's score, in the scoresheet's words."""
    shape = (delta, None) if isinstance(delta, int) else _linear(parse_expression(delta))
    per = _per_phrase(rs, shape[1]) if shape and shape[1] is not None else None
    if shape is None or (shape[1] is not None and per is None):
        summed = _sum_phrase(rs, parse_expression(str(delta)))
        if summed is not None:
            return summed
        worded = value_phrase(rs, parse_expression(str(delta)))
        return f"changes {_its(rs)} score by {worded or f'`{delta}`'}"
    amount = shape[0]
    if amount == 0:
        return "scores nothing"
    forward = -1 if rs.scoresheet.direction == "down" else 1  # the sign that moves towards the goal
    move = _toward if amount * forward > 0 else _away
    text = move(rs, _amount_word(abs(amount)), abs(amount) != 1)
    return f"{text} {per}" if per else text


def _sum_phrase(rs: Ruleset, node: Node) -> str | None:
    """``10 + bid(team)`` as ``scores ten points plus one point for each trick bid by that team``: a sum of
    whole amounts, each alone or per something, all moving the score the same way; None for other shapes."""
    terms = _flatten(node, "+")
    shapes = [_linear(term) for term in terms]
    if len(terms) < 2 or any(shape is None or shape[0] == 0 for shape in shapes):
        return None
    fixed = 0
    parts: list[tuple[int, str | None]] = []  # the fixed amount first, then the amounts per something
    for shape in shapes:
        assert shape is not None
        per = None if shape[1] is None else _per_phrase(rs, shape[1])
        if shape[1] is not None and per is None:
            return None
        if per is None:
            fixed += shape[0]
        else:
            parts.append((shape[0], per))
    parts = [(fixed, None), *parts] if fixed else parts
    if not parts or len({amount > 0 for amount, _ in parts}) > 1:
        return None  # a bonus less a penalty: quoted
    forward = -1 if rs.scoresheet.direction == "down" else 1
    toward = parts[0][0] * forward > 0
    (first, per), rest = parts[0], parts[1:]
    more = (f" {per}" if per else "") + "".join(
        f" plus {_amount_word(abs(amount))} {_noun(rs, abs(amount) != 1, toward)}" + (f" {each}" if each else "")
        for amount, each in rest)
    return (_toward if toward else _away)(rs, _amount_word(abs(first)), abs(first) != 1, more)


def _scaled(rs: Ruleset, rule: ScoringRule) -> str:
    if not rule.tie_scaled or rs.scoresheet.tie_carry == "none":
        return ""
    return "; this counts double after a tie" if rs.scoresheet.tie_carry == "next_decided_double" \
        else "; this is doubled for every tie before it"


def _plural_team(team: str) -> bool:
    """Whether a team phrase takes a plural verb ("the maker's opponents have")."""
    return team.endswith(("opponents", "partners"))


def _as_plural(change: str) -> str:
    """A change phrase ("changes its score by ...", "scores ...") with the verb a plural team takes."""
    verb, _, rest = change.partition(" ")
    verb = verb[:-1] if verb.endswith("s") else verb
    rest = rest.replace("its ", "their ", 1) if rest.startswith("its ") else rest
    return f"{verb} {rest}" if rest else verb


def scoring_rule_sentence(rs: Ruleset, rule: ScoringRule) -> str:
    """``if the maker loses the hand, the maker draws one loop``; unusual expressions are quoted."""
    when = str(rule.when).lower() if isinstance(rule.when, bool) else rule.when  # `when: true` in YAML
    condition = parse_expression(when)
    if rule.for_each == "seat":
        team = "that player" if alone(rs) else "that player's team"
    elif rule.for_each:
        team = "each team"
    else:
        team = team_phrase(rs, parse_expression(rule.team)) or f"the team `{rule.team}`"
        if alone(rs) and team == "the defence":  # the change is made to each defender's own score
            team = "each defender"
    change = delta_phrase(rs, rule.delta)
    action = f"{team} {_as_plural(change) if _plural_team(team) else change}{_scaled(rs, rule)}"
    if rule.for_each == "seat":  # the player is named by the rule, the condition read about him
        phrase = condition_phrase(rs, condition)
        whom = "" if condition == Name("true") else \
            f" for whom {phrase if phrase is not None else f'`{to_text(condition)}` holds'}"
        if phrase is not None and phrase.startswith("that player is"):  # a role: "each player who is the declarer"
            whom = " who" + phrase[len("that player"):]
        elif phrase is not None and Name(EACH_SEAT) not in walk(condition):  # about the hand, not the player
            return f"if {phrase}, for each player, {action}"
        return f"for each player{whom}, {action}"
    if condition == Name("true"):
        return f"after every hand, {action}"
    if condition == Name("false"):
        return f"never (the rule is switched off): {action}"
    clause = condition_phrase(rs, condition)
    if clause is None:
        return f"when `{to_text(condition)}`, {action}"
    subject = "that team "  # the team of `for_each`, named by the condition before the rule names it
    if rule.for_each and clause.startswith(subject) and isinstance(condition, Binary) \
            and condition.op not in ("and", "or"):
        return f"{team} that {clause[len(subject):]} {action[len(team) + 1:]}"
    return f"if {clause}, {action}"


def tie_sentences(rs: Ruleset) -> list[str]:
    sheet = rs.scoresheet
    out = []
    if sheet.tie_carry == "none":
        out.append("a tie carries nothing over to the next hand")
    elif sheet.tie_carry == "next_decided_double":
        out.append("after a tie, the next hand won by a team counts double, however many ties came in between")
    else:
        out.append("every tie doubles the next hand won by a team again: twice after one tie, four times after "
                   "two ties in a row, and so on")
    if sheet.tie_mark:
        out.append("a tie is marked on the scoresheet with a circle crossed by a stroke")
    if sheet.tie_next_dealer == "same":
        out.append("after a tie the same dealer deals a replacement hand")
    return out


def pass_sentence(rs: Ruleset) -> str | None:
    if not can_redeal(rs):
        return None
    carry = rs.scoresheet.pass_carry
    if carry == "none":
        return "a passed-out deal scores nothing and is forgotten"
    if carry == "single":
        return ("a passed-out deal scores nothing, but the next hand won by a team has one passed-out deal owed to it, "
                "however many deals were passed out in a row; a tie keeps it waiting")
    return ("a passed-out deal scores nothing, but the next hand won by a team has owed to it every deal passed out "
            "since the last hand a team won; a tie keeps them waiting")


def definition_sentence(rs: Ruleset, definition: Definition) -> str:
    """``made is true when the maker has at least 41 card points``; unusual expressions are quoted."""
    text = definition.text
    if not isinstance(text, str):
        return f"`{definition.name}` is {str(text).lower() if isinstance(text, bool) else text}"
    node = parse_expression(text)
    if definition.kind == "bool":
        worded = condition_phrase(rs, node)
        return f"`{definition.name}` holds when {worded}" if worded else f"`{definition.name}` is `{to_text(node)}`"
    worded = team_phrase(rs, node) if definition.kind == "team" else value_phrase(rs, node)
    return f"`{definition.name}` is {worded}" if worded else f"`{definition.name}` is `{to_text(node)}`"


def describe_scoring(rs: Ruleset) -> Section:
    rules = tuple(f"{rule.name}: {sentence(scoring_rule_sentence(rs, rule))}" for rule in rs.scoring)
    extra = [*tie_sentences(rs), *filter(None, [pass_sentence(rs)])]
    defined: tuple[Paragraph | Items, ...] = ()
    if rs.definitions:
        defined = (Paragraph(sentence("after every hand these values are worked out first, each from those before it")),
                   Items(tuple(sentence(definition_sentence(rs, d)) for d in rs.definitions)))
    return Section("Scoring", (
        Paragraph(sentence(scoresheet_sentence(rs))),
        *defined,
        Paragraph(sentence("after every hand these rules are applied, in this order")),
        Items(rules),
        Paragraph(" ".join(sentence(s) for s in extra)),
    ))


def tally_sentence(rs: Ruleset, tally: Tally) -> str:
    """One tally: what it counts, how it grows after a hand and what it pays each time it is full,
    or, a pot, after which hand it goes to which team."""
    adds = tally.adds if isinstance(tally.adds, int) else (
        value_phrase(rs, parse_expression(tally.adds)) or f"`{tally.adds}`")
    name = tally.name.replace("_", " ")
    what = f"{sentence(tally.description)} " if tally.description else ""
    grows = f"{what}After every hand each team adds {adds} to its {name}"
    cleared = "" if tally.clears_when is False else \
        f" After {_hand_where(rs, tally.clears_when)}, every team's {name} goes back to 0."
    if tally.every:
        return (f"{grows}; each time the count reaches {tally.every}, it drops by {tally.every} and the team "
                f"{delta_phrase(rs, tally.delta)}.{cleared}")
    if not tally.is_pot:
        return f"{grows}; it pays nothing, and is read by the rules above.{cleared}"
    team = team_phrase(rs, parse_expression(tally.to)) or f"the team `{tally.to}`"
    return (f"{grows}; after {_hand_where(rs, tally.when)}, every team's {name} goes to {team}, whose score grows "
            f"by their sum, and each {name} starts again from 0: until then it is held.{cleared}")


def _hand_where(rs: Ruleset, condition: str | bool) -> str:
    """"every hand", or "a hand where ..." in words (quoted when it has no common shape)."""
    when = parse_expression(str(condition).lower() if isinstance(condition, bool) else condition)
    if when == Name("true"):
        return "every hand"
    phrase = condition_phrase(rs, when)
    return f"a hand where {phrase}" if phrase is not None else f"a hand where `{to_text(when)}`"


def describe_tallies(rs: Ruleset) -> Section | None:
    if not rs.tallies:
        return None
    return Section("Tallies", (
        Paragraph(sentence("besides its score each team keeps " + (
            "a tally, starting at 0 with every game and counted after the scoring rules of every hand"
            if len(rs.tallies) == 1 else
            "tallies, each starting at 0 with every game and counted after the scoring rules of every hand, "
            "in this order"))),
        Items(tuple(f"{tally.name}: {tally_sentence(rs, tally)}" for tally in rs.tallies)),
    ))


# ---------------------------------------------------------------------- the end


def both_can_reach(rs: Ruleset) -> bool:
    """Whether one hand may bring two teams to the goal: a rule may move a team other than the
    hand's winner toward it (a constant moving away from the goal cannot)."""
    toward = 1 if rs.scoresheet.direction == "up" else -1
    for rule in rs.scoring:
        if isinstance(rule.delta, int) and rule.delta * toward <= 0:
            continue
        if rule.for_each or rule.team.strip() != "winner":
            return True
    return False


def game_end_sentence(rs: Ruleset) -> str:
    sheet = rs.scoresheet
    if sheet.races_to_no_goal():
        best = "highest" if sheet.direction == "up" else "lowest"
        last = "the player whose side won the last hand" if alone(rs) else "the team that won the last hand"
        ends = f"the game ends after {_hand_where(rs, sheet.ends_when)}" if sheet.ends_when else ""
        if sheet.deals:
            counted = "thrown-in deals included" if sheet.passed_out_deals == "counted" else \
                "a deal thrown in and dealt again not counted"
            ends = f"a game is {sheet.deals} deals, {counted}" + (f", and {ends} before" if ends else "")
        then = "then" if sheet.ends_when else "after the last one"
        if sheet.won_by and sheet.ends_when:
            named = team_phrase(rs, parse_expression(sheet.won_by)) or f"the team `{sheet.won_by}` names"
            after = f" (after the last deal, the {best} total)" if sheet.deals else ""
            return f"{ends}; {then} the game goes to {named}{after}"
        return f"{ends}; {then} the {best} total wins, and if two are equal, {last}"
    if sheet.direction == "up":
        reach = f"reach {sheet.goal} or more"
    elif sheet.display in ("lines", "loops", "dots", "strokes") and sheet.goal == 0:
        unit = _UNITS[sheet.display][0]
        verb = "erase" if sheet.display in ("lines", "loops") else "cancel"
        reach = f"{verb} its last {unit}"
    else:
        reach = f"get down to {sheet.goal} or below"
    if sheet.at_goal == "ends_game":
        who = "player" if alone(rs) or all(len(team) == 1 for team in rs.players.teams) else "team"
        up = sheet.direction == "up"
        return (f"when a hand brings any {who} to {sheet.goal} or {'more' if up else 'below'}, the game ends: the "
                f"{'lowest' if up else 'highest'} score, the furthest from {sheet.goal}, wins, and if two are equal, "
                f"the lower-numbered {who}")
    if not both_can_reach(rs):  # only the hand's winner moves toward the goal: no tie-break to state
        return f"the first team to {reach} wins the game"
    if sheet.when_both_reach == "first_by_rule_order":
        return (f"the first team to {reach} wins the game; if two teams get there in the same hand, the scoring rules "
                "count one at a time in their order above, and the team that reaches the goal first wins (within one rule, the "
                "one further past the goal)")
    return (f"the first team to {reach} wins the game; if two teams get there in the same hand, the one further past "
            f"the goal wins, and if that is equal, the team that won the hand")


def session_sentence(rs: Ruleset) -> str | None:
    games = rs.session.games_to_win
    if games <= 1:
        return None
    name = rs.session.game_name
    called = f" (a won game is called a {name})" if name != "game" else ""
    return (f"the first team to win {games} {name}s wins the session{called}; the scoresheet starts afresh for every "
            f"game")


def limits_sentence(rs: Ruleset) -> str:
    text = f"a game still running after {rs.limits.max_hands} hands is abandoned"
    if rs.session.games_to_win > 1:
        text += f", as is a session still undecided after {rs.limits.max_games} games"
    if can_redeal(rs):
        text += f", and so is one with more than {rs.limits.max_redeals_in_a_row} passed-out deals in a row"
    return text + " (a safety limit for simulations, not a rule of play)"


def describe_game_end(rs: Ruleset) -> Section:
    parts = [game_end_sentence(rs), session_sentence(rs), limits_sentence(rs)]
    return Section("End of the game", tuple(Paragraph(sentence(s)) for s in parts if s))


# ---------------------------------------------------------------------- options and sources


def allowed_values(spec: OptionSpec) -> str:
    if spec.choices is not None:
        return ", ".join(_value(c) for c in spec.choices)
    if spec.type == "integer":
        low = spec.minimum if spec.minimum is not None else "any"
        high = spec.maximum if spec.maximum is not None else "any"
        return f"a whole number from {low} to {high}"
    return {"boolean": "true, false", "string": "any text"}.get(spec.type or "", "any value")


def option_value(spec: OptionSpec) -> str:
    value = _value(spec.value)
    return value if spec.value == spec.default and type(spec.value) is type(spec.default) \
        else f"{value} (default {_value(spec.default)})"


def option_sentence(spec: OptionSpec) -> str:
    return f"{option_value(spec)}; allowed: {allowed_values(spec)}"


def describe_options(rs: Ruleset) -> Section | None:
    if not rs.options:
        return None
    rows = tuple((name, option_value(spec), allowed_values(spec), " ".join(spec.description.split()))
                 for name, spec in rs.options.items())
    return Section("Options", (
        Paragraph(sentence("the rules above use these values; change one with `--option NAME=VALUE`")),
        Table(("option", "value", "allowed", "meaning"), rows),
    ))


def reading_sentence(reading: Reading) -> str:
    """A setting that is this ruleset's own reading where the sources are silent, with why (a section,
    or a list of steps, by its place alone: the note says what of it is read)."""
    whole = isinstance(reading.value, dict) or isinstance(reading.value, (list, tuple)) and any(
        isinstance(item, (dict, list, tuple)) for item in reading.value)  # a section or a list of steps
    shown = where(reading.setting) if whole else f"{where(reading.setting)}: {_value(reading.value)}"
    return f"`{shown}`: {' '.join(reading.note.split())}"


def describe_readings(rs: Ruleset) -> Section | None:
    if not rs.readings:
        return None
    items = tuple(reading_sentence(r) for r in rs.readings)
    return Section("Readings", (
        Paragraph(sentence("where the sources are silent or unclear, these rules are this ruleset's own reading")),
        Items(items),
    ))


def describe_sources(rs: Ruleset) -> Section | None:
    if not rs.sources:
        return None
    items = []
    for source in rs.sources:
        text = f"{source.key}: {source.title}"
        if source.sections:
            text += f", sections {join(list(source.sections))}"
        if source.url:
            text += f", <{source.url}>"
        items.append(text)
    return Section("Sources", (Items(tuple(items)),))


# ---------------------------------------------------------------------- expressions in words


_TEAM_NAMES = {
    "last_trick_winner": "the team that took the last trick",
    "winner": "the winning team", "loser": "the losing team", "maker": "the maker",
    "dealer_team": "the dealer's team", "none": "no team",
}


def team_phrase(rs: Ruleset, node: Node) -> str | None:
    if alone(rs):  # the declarer against the defence: sides, not teams
        worded = _side_phrase(rs, node)
        if worded is not None:
            return worded
    if isinstance(node, Name):
        if node.name == "elder_team":
            return f"the team of {elder(rs)}"
        if node.name == EACH_TEAM:
            return "that team"
        if any(d.name == node.name for d in rs.definitions):
            return f"`{node.name}`"
        return _TEAM_NAMES.get(node.name)
    if isinstance(node, Call) and len(node.args) == 1:
        arg = node.args[0]
        if node.func == "opponents":
            inner = team_phrase(rs, arg)
            if inner == "the maker":
                return "the maker's opponents"
            return f"the opponents of {inner}" if inner else None
        if node.func == "announcer" and isinstance(arg, String):
            return f"the team that announced {_announcement_name(rs, arg.value)}"
        if node.func == "trick_winner":
            return f"the team that took {trick_phrase(rs, arg)}"
        if node.func in EXTREME_CARD and isinstance(arg, String):
            return extreme_card_phrase(node.func, arg.value, "team")
        if node.func == "team_of" and isinstance(arg, Name) and arg.name == EACH_SEAT:
            return "that player's side" if alone(rs) else "that player's team"
    if isinstance(node, Call) and node.func == "if" and len(node.args) == 3:  # a team chosen by a condition
        condition = condition_phrase(rs, node.args[0])
        first, other = team_phrase(rs, node.args[1]), team_phrase(rs, node.args[2])
        if condition is not None and first and other:
            return f"{first} if {condition}, else {other}"
    return None


_SIDE_NAMES = {"maker": "the declarer", "last_trick_winner": "the side that took the last trick",
               "winner": "the winning side", "loser": "the losing side", "dealer_team": "the dealer's side"}


def _side_phrase(rs: Ruleset, node: Node) -> str | None:
    """A team expression in the words of sides fixed per hand (None: as with teams)."""
    holders = rs.players.sides == "card_holders"
    if isinstance(node, Name):
        return side_card_holders(rs) if holders and node.name == "maker" else _SIDE_NAMES.get(node.name)
    if isinstance(node, Call) and len(node.args) == 1:
        if node.func == "opponents" and node.args[0] == Name("maker"):
            return "the other side" if holders else "the defence"
        if node.func == "trick_winner":
            return f"the side that took {trick_phrase(rs, node.args[0])}"
        if node.func in EXTREME_CARD and isinstance(node.args[0], String):
            return extreme_card_phrase(node.func, node.args[0].value, "side")
    return None


# holder_of_highest and its kin: function -> (what the team did, the card of the set it did it with)
EXTREME_CARD = {"holder_of_highest": ("was dealt", "the highest of the {} dealt"),
                "holder_of_lowest": ("was dealt", "the lowest of the {} dealt"),
                "taker_of_highest": ("took", "the highest of the {} played"),
                "taker_of_lowest": ("took", "the lowest of the {} played")}


def extreme_card_phrase(func: str, card_set: str, team: str) -> str:
    """``holder_of_highest("trumps")`` in words: "the team that was dealt the highest of the trumps dealt"."""
    did, card = EXTREME_CARD[func]
    return f"the {team} that {did} {card.format(card_set)} (nobody, if none was)"


def _announcement_name(rs: Ruleset, key: str) -> str:
    announcement = _announcement(rs, key)
    return announcement.name if announcement else key


def trick_phrase(rs: Ruleset, node: Node) -> str:
    """Trick n of `in_trick`/`trick_winner`/`taken_with` in words: "the first trick", "the last
    trick", "the second-to-last trick"; a computed number is named as it is written."""
    number = node.operand if isinstance(node, Unary) and node.op == "-" else node
    if isinstance(number, Number) and isinstance(number.value, int):
        n = -number.value if number is not node else number.value
        if n == -1:
            return "the last trick"
        word = ordinal(abs(n))
        return f"the {word} trick" if n > 0 else f"the {word}-to-last trick"
    return f"trick {value_phrase(rs, node) or _quoted(node)} (counted back from the last when negative)"


_INT_NAMES = {
    "passes_pending": "the number of passed-out deals owed to this hand",
    "ties_pending": "the number of ties owed to this hand",
    "tricks_per_hand": "the number of tricks in a hand",
    "points_in_play": "the card points in play",
    "multiplier": "the contract's multiplier",
    "bid_value": "the value the auction was won at",
    "doubled": "the level the bid was doubled to (1 when nobody doubled)",
    "most_points": "the most card points any side took",
    "fewest_tricks": "the fewest tricks any side took",
    "fewest_points_with_tricks": "the fewest card points any side that took a trick took",
    "hand_number": "the number of this deal in the game (1 for the first, thrown-in deals counted)",
}


def int_phrase(rs: Ruleset, node: Node) -> str | None:
    if isinstance(node, Number):
        return decimal_text(node.value)
    if isinstance(node, Name):
        if any(d.name == node.name for d in rs.definitions):
            return f"`{node.name}`"
        return _INT_NAMES.get(node.name)
    if isinstance(node, Call) and len(node.args) == 1:
        arg = node.args[0]
        if node.func in ("points", "tricks"):
            team = team_phrase(rs, arg)
            what = "card points" if node.func == "points" else "tricks"
            return f"the number of {what} won by {team}" if team else None  # a number: "... is 9" agrees
        if node.func == "bid":
            team = team_phrase(rs, arg)
            return f"the number of tricks bid by {team}" if team else None
        if node.func == "bidders_tricks":
            team = team_phrase(rs, arg)
            return f"the number of tricks won by the players of {team} who bid more than nothing" if team else None
        if node.func == "option" and isinstance(arg, String):
            return f"the value of option {arg.value}"
        if node.func == "score":
            team = team_phrase(rs, arg)
            return f"the score of {team} before the hand" if team else None
        if node.func == "seats":
            team = team_phrase(rs, arg)
            team = "the declarer's side" if team == "the declarer" else team  # sides per hand: the maker is a side
            return f"the number of players on {team}" if team else None
        if node.func == "top_run":
            team = team_phrase(rs, arg)
            return (f"the number of the highest trumps in a row, from the top one down, {team} held (with the "
                    f"cards that count for {team} unplayed), or, when the top one was not among them, the number "
                    f"missing above the highest held") if team else None
    if isinstance(node, Call) and node.func == "seat_held" and len(node.args) == 2 and isinstance(node.args[0], String) \
            and node.args[1] == Name("seat"):
        return f"the number of the {node.args[0].value} that player held at the start of play"
    if isinstance(node, Call) and node.func == "tally" and len(node.args) == 2 and isinstance(node.args[1], String):
        team = team_phrase(rs, node.args[0])
        return f"the {node.args[1].value.replace('_', ' ')} tally of {team} before the hand" if team else None
    if isinstance(node, Call) and node.func == "tricks_worth" and len(node.args) == 2 \
            and isinstance(node.args[1], Number):
        team = team_phrase(rs, node.args[0])
        return f"the number of tricks {team} took holding at least {node.args[1].value} card points" if team else None
    if isinstance(node, Call) and node.func in ("count", "held", "captured") and len(node.args) == 2 \
            and isinstance(node.args[0], String):
        team = team_phrase(rs, node.args[1])
        if team is None:
            return None
        if node.func == "captured":
            return f"the number of {node.args[0].value} in the tricks of {team} played by its opponents"
        if node.func == "held":
            return f"the number of the {node.args[0].value} the players of {team} held at the start of play"
        return f"the number of {node.args[0].value} in the tricks of {team}"
    return None


_BOOL_NAMES = {
    "decided": "a team wins the hand", "tie": "the hand is a tie", "no_score": "the hand is not scored",
    "all_tricks": "the winning team took every trick", "true": "always", "false": "never",
    "kitty_taken": "the declarer took the kitty into their hand",
}
_NOT_BOOL = {
    "decided": "no team wins the hand", "tie": "the hand is not a tie", "no_score": "the hand is scored",
    "all_tricks": "the winning team did not take every trick",
    "kitty_taken": "the declarer left the kitty unseen",
}
_MORE = {">": "more {what} than", "<": "fewer {what} than", ">=": "at least as many {what} as",
         "<=": "at most as many {what} as", "==": "as many {what} as", "!=": "not as many {what} as"}
_THAN_NUMBER = {">": "more than {n} {what}", "<": "fewer than {n} {what}", ">=": "at least {n} {what}",
                "<=": "at most {n} {what}", "==": "exactly {n} {what}", "!=": "other than {n} {what}"}
_BID_MORE = {">": "more tricks than", "<": "fewer tricks than", ">=": "at least as many tricks as",
             "<=": "at most as many tricks as", "==": "exactly as many tricks as", "!=": "more or fewer tricks than"}
_IS = {">": "is more than", "<": "is less than", ">=": "is at least", "<=": "is at most", "==": "is", "!=": "is not"}
_OWED = {"passes_pending": "a passed-out deal is owed to this hand", "ties_pending": "a tie is owed to this hand"}
_FLIP = {">": "<", "<": ">", ">=": "<=", "<=": ">=", "==": "==", "!=": "!="}


_ROUNDED = {"floor": "rounded down", "ceil": "rounded up", "round": "rounded to the nearest whole number (halves up)"}


def value_phrase(rs: Ruleset, node: Node) -> str | None:
    """A number in words: the common names and calls, a sum or difference of two of them, and
    ``if``/``min``/``max``/``abs``/rounding around them (other arithmetic inside is quoted);
    None for other shapes (the caller quotes them)."""
    simple = int_phrase(rs, node)
    if simple is not None:
        return simple
    if isinstance(node, Binary) and node.op in ("+", "-"):
        left, right = int_phrase(rs, node.left), int_phrase(rs, node.right)
        if left and right:
            return f"{left} {'plus' if node.op == '+' else 'less'} {right}"
        terms = _summands(node)  # a longer sum: three or more named values
        words = [int_phrase(rs, term) for term in terms]
        return f"the sum of {join([w or '' for w in words])}" if len(terms) > 2 and all(words) else None
    if isinstance(node, Unary) and node.op == "-":
        inner = value_phrase(rs, node.operand)
        return f"minus {inner}" if inner else None
    if not isinstance(node, Call) or node.func not in OPERATIONS:
        return None
    args = [value_phrase(rs, arg) or _quoted(arg) for arg in node.args]
    if node.func == "if":
        condition = condition_phrase(rs, node.args[0]) or f"`{to_text(node.args[0])}` holds"
        if isinstance(node.args[1], Call) and node.args[1].func == "if":  # an if inside the first branch
            return f"{args[2]} unless {condition}, in which case {args[1]}"
        return f"{args[1]} if {condition}, else {args[2]}"
    if node.func in ("min", "max"):
        word = ("smaller" if node.func == "min" else "larger") if len(args) == 2 else \
            ("smallest" if node.func == "min" else "largest")
        return f"the {word} of {join(args, 'and')}"
    if node.func == "abs":
        return f"{args[0]} without its sign"
    if node.func == "pow":
        return f"{args[0]} to the power {args[1]}"
    return f"{args[0]} {_ROUNDED[node.func]}"


def _summands(node: Node) -> list[Node]:
    """The terms of ``a + b + c`` (a sum's left-nested additions), in order."""
    if isinstance(node, Binary) and node.op == "+":
        return [*_summands(node.left), node.right]
    return [node]


def _quoted(node: Node) -> str:
    return f"`{to_text(node)}`"


def condition_phrase(rs: Ruleset, node: Node) -> str | None:
    """A condition in words, or None when it has no common shape (the caller quotes it)."""
    if isinstance(node, Name):
        if any(d.name == node.name for d in rs.definitions):
            return f"`{node.name}` holds"
        return _BOOL_NAMES.get(node.name)
    if isinstance(node, Call) and node.func in ("in_trick", "taken_with") and len(node.args) == 2 \
            and isinstance(node.args[1], String):
        trick, cards = trick_phrase(rs, node.args[0]), node.args[1].value
        return f"a card of the {cards} is in {trick}" if node.func == "in_trick" else \
            f"{trick} was taken with a card of the {cards}"
    if isinstance(node, Call) and len(node.args) == 1 and isinstance(node.args[0], String):
        if node.func == "announced":
            return f"{_announcement_name(rs, node.args[0].value)} was announced"
        if node.func == "option":
            return f"option {node.args[0].value} is on"
        if node.func == "in_last_trick":
            return f"a card of the {node.args[0].value} is in the last trick"
        return None
    if isinstance(node, Unary) and node.op == "not":
        inner = node.operand
        if isinstance(inner, Name) and inner.name in _NOT_BOOL:
            return _NOT_BOOL[inner.name]
        if isinstance(inner, Call) and inner.func == "announced" and inner.args and isinstance(inner.args[0], String):
            return f"{_announcement_name(rs, inner.args[0].value)} was not announced"
        text = _grouped(rs, inner)
        return f"it is not the case that {text}" if text else None
    if isinstance(node, Binary) and node.op in ("and", "or"):
        nodes = _flatten(node, node.op)
        parts = []
        for part in _without_guards(nodes) if node.op == "and" else nodes:
            text = _grouped(rs, part)
            if text is None or text == "always":
                return None
            parts.append(text)
        return join(parts, node.op)
    if isinstance(node, Binary):
        return _comparison_phrase(rs, node)
    return None


def _grouped(rs: Ruleset, node: Node) -> str | None:
    """A condition inside another: ``either a or b`` / ``both a and b`` keep the grouping readable."""
    text = condition_phrase(rs, node)
    if text is None or not (isinstance(node, Binary) and node.op in ("and", "or")):
        return text
    parts = _flatten(node, node.op)
    if len(_without_guards(parts) if node.op == "and" else parts) < 2:
        return text
    return ("either " if node.op == "or" else "both ") + text


def _flatten(node: Node, op: str) -> list[Node]:
    if isinstance(node, Binary) and node.op == op:
        return _flatten(node.left, op) + _flatten(node.right, op)
    return [node]


def _without_guards(nodes: list[Node]) -> list[Node]:
    """Drop `decided` and `T != none` when another condition says T wins or loses: the words imply them."""
    implied: set[Node] = {Name("decided")} if Name("all_tricks") in nodes else set()
    for node in nodes:
        if isinstance(node, Binary) and node.op == "==":
            for side, other in ((node.left, node.right), (node.right, node.left)):
                if isinstance(side, Name) and side.name in ("winner", "loser") and other != Name("none"):
                    implied |= {Name("decided"), Binary("!=", other, Name("none")), Binary("!=", Name("none"), other)}
    kept = [n for n in nodes if n not in implied]
    return kept or nodes


_ROLE_WORDS = {"declarer": "the declarer", "partner": "the declarer's partner",
               "defender": "a defender (against the declarer)", "none": "in a hand nobody declared"}


def role_phrase(rs: Ruleset, node: Node) -> str | None:
    """``role(seat) == "partner"`` in words: "that player is the declarer's partner"."""
    if not (isinstance(node, Binary) and node.op in ("==", "!=")):
        return None
    for call, other in ((node.left, node.right), (node.right, node.left)):
        if isinstance(call, Call) and call.func == "role" and isinstance(other, String) \
                and other.value in _ROLE_WORDS and call.args == (Name(EACH_SEAT),):
            if other.value == "none":
                return "nobody declared the hand" if node.op == "==" else "someone declared the hand"
            return f"that player {'is' if node.op == '==' else 'is not'} {_ROLE_WORDS[other.value]}"
    return None


def _comparison_phrase(rs: Ruleset, node: Binary) -> str | None:
    op, left, right = node.op, node.left, node.right
    role = role_phrase(rs, node)
    if role is not None:
        return role
    if op in ("==", "!=") and (team_phrase(rs, left) or team_phrase(rs, right)):
        return _team_comparison(rs, op, left, right)
    if op in ("==", "!=") and left == Name("contract") and isinstance(right, String):
        contract = next((c.name for c in rs.contracts if c.id == right.value), right.value)
        return f"the contract is {'' if op == '==' else 'not '}{contract}"
    if isinstance(left, Number) and not isinstance(right, Number):
        op, left, right = _FLIP[op], right, left
    bids = _bid_comparison(rs, op, left, right)
    if bids is not None:
        return bids
    counted = {"points": "card points", "tricks": "tricks"}
    if isinstance(left, Call) and left.func in counted and len(left.args) == 1:
        who = team_phrase(rs, left.args[0])
        what = counted[left.func]
        if who is None:
            return None
        has = "have" if _plural_team(who) else "has"
        if isinstance(right, Number):
            if (op, right.value) in ((">", 0), (">=", 1)):
                return f"{who} {has} {'won a trick' if left.func == 'tricks' else 'won card points'}"
            return f"{who} {has} {_THAN_NUMBER[op].format(n=right.value, what=what)}"
        if isinstance(right, Call) and right.func == left.func and len(right.args) == 1:
            other = team_phrase(rs, right.args[0])
            return f"{who} {has} {_MORE[op].format(what=what)} {other}" if other else None
    if isinstance(left, Call) and left.func == "tricks_at" and len(left.args) == 2 and isinstance(right, Number) \
            and isinstance(left.args[0], String) and (who := team_phrase(rs, left.args[1])) is not None:
        when = _announcement_name(rs, left.args[0].value)
        return f"{who} had {_THAN_NUMBER[op].format(n=right.value, what='tricks')} when {when} was announced"
    if isinstance(left, Name) and left.name in _OWED and right == Number(0) and op == ">":
        return _OWED[left.name]
    a, b = int_phrase(rs, left), int_phrase(rs, right)
    if a is None or b is None:
        return None
    return f"{a} {_IS[op]} {b}"


def _bid_comparison(rs: Ruleset, op: str, left: Node, right: Node) -> str | None:
    """``that team took exactly as many tricks as it bid``, ``the maker bid at least 3 tricks``; None for other shapes."""
    def team_of(node: Node, func: str) -> Node | None:
        return node.args[0] if isinstance(node, Call) and node.func == func and len(node.args) == 1 else None

    if team_of(left, "bid") is not None and team_of(right, "tricks") is not None:
        op, left, right = _FLIP[op], right, left  # the tricks taken are the subject
    taken, bid = team_of(left, "tricks"), team_of(right, "bid")
    if taken is not None and bid is not None:
        who, whose = team_phrase(rs, taken), team_phrase(rs, bid)
        if who is None or whose is None:
            return None
        pronoun = "they" if alone(rs) else "it"
        return f"{who} took {_BID_MORE[op]} {pronoun if taken == bid else whose} bid"
    bidder = team_of(left, "bid")
    if bidder is not None and isinstance(right, Number):
        who = team_phrase(rs, bidder)
        return f"{who} bid {_THAN_NUMBER[op].format(n=right.value, what='tricks')}" if who else None
    return None


def _team_comparison(rs: Ruleset, op: str, left: Node, right: Node) -> str | None:
    if isinstance(left, Name) and left.name == "none":
        left, right = right, left
    negate = op == "!="
    if isinstance(right, Name) and right.name == "none":
        if isinstance(left, Name) and left.name == "maker":
            return "there is a maker" if negate else "there is no maker"
        if isinstance(left, Name) and left.name in ("winner", "loser"):
            return ("a team wins the hand" if negate else "no team wins the hand")
        if isinstance(left, Call) and left.func == "announcer" and left.args and isinstance(left.args[0], String):
            name = _announcement_name(rs, left.args[0].value)
            return f"{name} was announced" if negate else f"{name} was not announced"
    for subject, other in ((left, right), (right, left)):
        if isinstance(subject, Name) and subject.name in ("winner", "loser"):
            who = team_phrase(rs, other)
            if who is None:
                return None
            verb = "wins" if subject.name == "winner" else "loses"
            return f"{who} {'does not ' + verb[:-1] if negate else verb} the hand"
        trick = "the last trick" if subject == Name("last_trick_winner") else \
            trick_phrase(rs, subject.args[0]) if isinstance(subject, Call) and subject.func == "trick_winner" \
            and len(subject.args) == 1 else None
        if trick is not None:  # "the declarer took the last trick"
            who = team_phrase(rs, other)
            return f"{who} {'did not take' if negate else 'took'} {trick}" if who else None
    a, b = team_phrase(rs, left), team_phrase(rs, right)
    if a is None or b is None:
        return None
    return f"{a} {'is not' if negate else 'is'} {b}"


# ---------------------------------------------------------------------- one line per rule (for diff)


def rule_sentences(rs: Ruleset) -> dict[str, tuple[str, ...]]:
    """Every rule as short sentences under a stable label; `diff` compares these label by label."""
    out: dict[str, tuple[str, ...]] = {
        "Players": (players_sentence(rs),),
        "Seating": (seating_sentence(rs),),
        "Direction": (direction_sentence(rs),),
        "Dealer": (dealer_sentence(rs),),
        "Cards": tuple(s for s in (deck_sentence(rs), copies_sentence(rs)) if s),
        "Card order": (order_sentence(rs),),
        "Card points": tuple(points_sentences(rs)),
    }
    for promotion, text in zip(rs.deck.promotions, promotion_sentences(rs)):
        out[f"Promotion {promotion.name}"] = (text,)
    for name, text in zip(rs.deck.card_sets, card_set_sentences(rs)):
        out[f"Card set {name}"] = (text,)
    out["Deal"] = (deal_outline(rs),)
    out["Hand size"] = (hand_sentence(rs),)
    for check in rs.deal_checks:
        out[f"Deal check {check.id}"] = (deal_check_sentence(rs, check),)
    out["Trump"] = tuple(trump_sentences(rs))
    if discards(rs):
        out["Discard"] = tuple(discard_sentences(rs))
    if rs.passing is not None:
        out["Passing"] = tuple(passing_sentences(rs))
    if rs.bids is not None:
        out["Bids"] = tuple(bid_sentences(rs))
    for announcement in rs.announcements:
        out[f"Announcement {announcement.name}"] = tuple(s for s in (announcement_sentence(rs, announcement),
                                                                      sitting_out_sentence(rs, announcement),
                                                                      shown_hand_sentence(announcement)) if s)
    for declaration in rs.declarations:
        out[f"Declaration {declaration.name}"] = tuple(declaration_sentences(rs, declaration))
    out["First lead"] = (first_lead_sentence(rs),)
    out["Lead"] = (lead_sentence(rs),)
    out["Follow"] = (follow_sentence(rs),)
    out["Trick"] = (trick_sentence(rs),)
    for role in rs.card_roles:
        out[f"Card role {role.id}"] = (role_sentence(rs, role),)
    out["Hand result"] = (outcome_sentence(rs),)
    out["Scoresheet"] = (scoresheet_sentence(rs),)
    for definition in rs.definitions:
        out[f"Definition {definition.name}"] = (definition_sentence(rs, definition),)
    for rule in rs.scoring:
        out[f"Scoring rule {rule.name}"] = (scoring_rule_sentence(rs, rule),)
    for tally in rs.tallies:
        out[f"Tally {tally.name}"] = (tally_sentence(rs, tally),)
    out["Ties"] = tuple(tie_sentences(rs))
    passes = pass_sentence(rs)
    if passes:
        out["Passed-out deals"] = (passes,)
    out["Game end"] = (game_end_sentence(rs),)
    session = session_sentence(rs)
    if session:
        out["Session"] = (session,)
    out["Limits"] = (f"a game is abandoned after {rs.limits.max_hands} hands or "
                     f"{rs.limits.max_redeals_in_a_row} passed-out deals in a row",)
    for name, spec in rs.options.items():
        out[f"Option {name}"] = (option_sentence(spec),)
    if rs.readings:
        out["Readings"] = tuple(reading_sentence(reading) for reading in rs.readings)
    return out


# ---------------------------------------------------------------------- the whole rulebook


DESCRIBERS: tuple[Callable[[Ruleset], Section | None], ...] = (
    describe_players, describe_cards, describe_deal, describe_trump, describe_passing, describe_bids,
    describe_announcements, describe_declarations, describe_play, describe_hand, describe_scoring, describe_tallies,
    describe_game_end, describe_readings, describe_options, describe_sources,
)


def describe(rs: Ruleset) -> list[Section]:
    """The rulebook's sections, in the order a player needs them."""
    return [section for section in (d(rs) for d in DESCRIBERS) if section is not None]


def _intro(rs: Ruleset) -> list[str]:
    changed = [f"{name} = {_value(spec.value)}" for name, spec in rs.options.items()
               if not (spec.value == spec.default and type(spec.value) is type(spec.default))]
    out = [" ".join(rs.description.split())] if rs.description else []
    note = f"Ruleset `{rs.id}`"
    note += f", with the options {', '.join(changed)}." if changed else ", with its default options."
    out.append(note)
    return out


def explain(rs: Ruleset, fmt: str = "markdown") -> str:
    """The whole rulebook as Markdown (``markdown``) or plain wrapped text (``text``)."""
    if fmt == "markdown":
        return render_markdown(rs.name, _intro(rs), describe(rs))
    if fmt == "text":
        return render_text(rs.name, _intro(rs), describe(rs))
    raise ValueError(f"unknown format {fmt!r} (markdown or text)")


def _markdown_cell(text: str) -> str:
    return text.replace("|", "\\|")


def render_markdown(title: str, intro: Sequence[str], sections: Sequence[Section]) -> str:
    lines = [f"# {title}", ""]
    for text in intro:
        lines += [text, ""]
    for section in sections:
        lines += [f"## {section.title}", ""]
        for block in section.blocks:
            if isinstance(block, Paragraph):
                lines.append(block.text)
            elif isinstance(block, Items):
                lines += [f"{i}. {item}" if block.numbered else f"- {item}" for i, item in enumerate(block.items, 1)]
            else:
                lines.append("| " + " | ".join(block.header) + " |")
                lines.append("|" + "|".join("---" for _ in block.header) + "|")
                lines += ["| " + " | ".join(_markdown_cell(c) for c in row) + " |" for row in block.rows]
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


WIDTH = 88


def _wrap(text: str, initial: str = "", subsequent: str = "") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=initial, subsequent_indent=subsequent,
                         break_long_words=False, break_on_hyphens=False)


def render_text(title: str, intro: Sequence[str], sections: Sequence[Section]) -> str:
    lines = [title.upper(), "=" * len(title), ""]
    for text in intro:
        lines += [*_wrap(text), ""]
    for section in sections:
        lines += [section.title, "-" * len(section.title)]
        for block in section.blocks:
            if isinstance(block, Paragraph):
                lines += _wrap(block.text)
            elif isinstance(block, Items):
                for i, item in enumerate(block.items, 1):
                    bullet = f"{i}. " if block.numbered else "- "
                    lines += _wrap(item, "  " + bullet, " " * (2 + len(bullet)))
            else:
                for head, *rest in block.rows:
                    cells = "; ".join(f"{label}: {cell}" for label, cell in zip(block.header[1:], rest))
                    lines += _wrap(f"{head}: {cells}", "  - ", "    ")
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"
