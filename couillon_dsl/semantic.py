"""Cross-field checks on schema-valid ruleset data: what a JSON Schema cannot say.

Does the deal fit the deck, does every card reference name a card, do the teams partition
the seats, can the trump procedure run, can a game end, is every redeal loop bounded, do
options point at real settings? Each finding is a Diagnostic with a stable code, placed
on the value that causes it. Options with ``patches`` are also checked in every patched
form, so a choice that breaks the deal is caught before anyone picks it.
"""
from __future__ import annotations

import copy
import math
from dataclasses import replace
from typing import Any, Iterator, Literal, Mapping

from couillon_dsl.cards import SUIT_COLOURS
from couillon_dsl.diagnostics import Diagnostic, Severity, Span, did_you_mean, error
from couillon_dsl.loader import Document, escape, merged, unescape
from couillon_dsl.schema import where

DEFAULT_SUITS = ["S", "H", "D", "C"]
_ONE_SEAT = {"elder": [1], "dealer": [0]}  # packet receivers as offsets from the dealer
# the declarer's packets are counted as if the elder declared (`Checker.declarer`); where the deal also deals
# to named seats after them, once for every seat that may declare, as hand sizes then depend on who does
_DECLARER = 1
_TO_DECLARER = ("declarer", "all_but_declarer")


# the engine builds a trump context per set of promotions in force (2 ** n per trump suit): past this it would
# take seconds and gigabytes to compile (Doppelkopf, the most of the shipped rulesets, has 9)
MAX_PROMOTIONS = 16

def _same(a: Any, b: Any) -> bool:
    """Equality that keeps true apart from 1 (YAML and Python both blur them)."""
    return type(a) is type(b) and a == b


class _Place:
    """Finds spans: in the document, or for a patched variant inside the patch where the patch
    writes the value's path, else at the document's own value (which the variant inherits)."""

    def __init__(self, document: Document, base: str = "") -> None:
        self.document = document
        self.base = base  # pointer of the patch a variant came from; "" for the document itself

    def _patched(self, pointer: str) -> str | None:
        """The closest ancestor-or-self of ``pointer`` the patch writes ("" for the root: the patch
        itself), or None when the patch touches nothing on its path: the variant's value there is
        the document's own, written in the document's own file."""
        inside = pointer
        while inside:
            if self.document.span_of(self.base + inside) is not None:
                return inside
            inside = inside.rsplit("/", 1)[0]
        return None if pointer else ""

    def _written_at(self, pointer: str) -> str | None:
        """The document pointer of the text of the value at ``pointer``; None if no text holds it."""
        if not self.base:
            return pointer
        patched = self._patched(pointer)
        if patched is None:
            return pointer
        return self.base + pointer if patched == pointer else None

    def span(self, pointer: str, key: bool = False) -> Span | None:
        if not self.base:
            return self.document.nearest_span(pointer, key)
        patched = self._patched(pointer)
        if patched is None:
            return self.document.nearest_span(pointer, key) or self.document.nearest_span(self.base)
        whole = self.base + patched
        return (self.document.key_span_of(whole) if key else self.document.span_of(whole)) \
            or self.document.nearest_span(self.base)

    def content(self, pointer: str) -> Span | None:
        """Where a scalar's text starts, so positions inside it (expressions) can be placed."""
        written = self._written_at(pointer)
        return (self.document.content_span_of(written) if written is not None else None) or self.span(pointer)

    def inside(self, pointer: str, offset: int, length: int) -> Span | None:
        """A span inside a plain scalar's text, e.g. the suit letter of a card."""
        written = self._written_at(pointer)
        start = self.document.content_span_of(written) if written is not None else None
        if start is None:
            return self.span(pointer)
        column = start.column + offset
        return Span(start.file, start.line, column, start.line, column + length)


class _Checks:
    """The checks on one effective ruleset (the document, or one patched variant of it)."""

    def __init__(self, data: dict[str, Any], place: _Place, context: str = "") -> None:
        self.data = data
        self.place = place
        self.context = context  # "with option pack = 32: " for a patched variant
        self.document_options: dict[str, Any] = data.get("options") or {}  # a variant's: its document's
        self.found: list[Diagnostic] = []
        deck = data["deck"]
        suits = deck.get("suits", DEFAULT_SUITS)
        self.suits = [s if isinstance(s, str) else s["id"] for s in suits]
        self.ranks: list[str] = deck["ranks"]
        # suit -> its ranks (the deck's unless it lists its own); every rank any suit has
        self.suit_ranks = {sid: list(s.get("ranks") or self.ranks) if isinstance(s, dict) else self.ranks
                           for sid, s in zip(self.suits, suits)}
        self.all_ranks = list(dict.fromkeys(r for ranks in self.suit_ranks.values() for r in ranks))
        self.extras = [e["id"] for e in deck.get("extras", [])]
        self.copies: int = deck.get("copies", 1)  # every card so many times
        self.seats: int = data["players"]["count"]
        self.announcements: dict[str, Any] = data.get("announcements", {})
        self.kitty_size: int | None = None  # cards of the deal's kitty step (None: no kitty)
        self.hand_at_decide = 0  # cards a hand holds when the contract is fixed (the smallest hand's)
        self.tricks = 0  # tricks in a hand (the largest, with a schedule of hand sizes)
        self.fewest_tricks = 0  # tricks in the smallest hand of a schedule (every hand's without one)
        players = data["players"]
        self.nsides = _side_count(players)
        self.dealer_sits_out = players.get("sit_out") == "dealer"
        self.declarer = _DECLARER  # the seat (offset from the dealer) the deal walk counts as the declarer

    def report(self, code: str, message: str, pointer: str, hint: str | None = None, *, key: bool = False,
               span: Span | None = None, severity: Severity = "error") -> None:
        where_ = span or self.place.span(pointer, key)
        self.found.append(Diagnostic(code, severity, self.context + message, where_, pointer, hint))

    def run(self) -> list[Diagnostic]:
        self.check_deck()
        self.check_players()
        self.check_deal_and_trump()
        self.check_announcements()
        self.check_declarations()
        self.check_play()
        self.check_roles()
        self.check_deal_checks()
        self.check_deal_announcements()
        self.check_contracts()
        self.check_discard()
        self.check_leads()
        self.check_equal_cards()
        self.check_bids()
        self.check_tallies()
        self.check_passing()
        self.check_outcome()
        self.check_game_end()
        self.check_redeal()
        self.check_readings()
        return self.found

    def check_readings(self) -> None:
        for i, reading in enumerate(self.data.get("readings", [])):
            if not _data_at(self.data, reading["setting"])[0]:
                self.report("reading-target-missing", f"the reading names {reading['setting']}, which this ruleset "
                            "does not set", f"/readings/{i}/setting", "name a setting the ruleset (or its parent) writes")

    # ---- references
    def card(self, pointer: str, text: str, key: bool = False, trump_relative: bool = False) -> bool:
        """Check a card name; an unknown suit or rank is placed on its own letters inside the scalar.

        With ``trump_relative`` a rank followed by ``T`` (``JT``: the jack of trumps) is a card too,
        unless the deck has a suit T."""
        if text.upper() in self.extras:
            return True
        rank, suit = text[:-1].upper(), text[-1].upper()
        ranks = self.suit_ranks.get(suit, self.all_ranks)
        if rank in ranks and suit in self.suits:
            return True
        if trump_relative and suit == "T" and suit not in self.suits and rank in self.all_ranks:
            return True
        if rank in self.all_ranks and suit not in self.suits:
            self.report("unknown-suit", f"'{text}': '{suit}' is not a suit of this deck", pointer,
                        did_you_mean(suit, self.suits) or f"suits: {', '.join(self.suits)}",
                        span=None if key else self.place.inside(pointer, len(rank), 1), key=key)
        elif suit in self.suits:
            self.report("unknown-rank", f"'{text}': '{rank}' is not a rank of {self.suit_word(suit)}", pointer,
                        did_you_mean(rank, ranks) or f"ranks: {', '.join(ranks)}",
                        span=None if key else self.place.inside(pointer, 0, len(rank)), key=key)
        else:
            cards = [r + s for s in self.suits for r in self.suit_ranks[s]] + self.extras
            self.report("unknown-card", f"'{text}' is not a card of this deck", pointer,
                        did_you_mean(text, cards) or "write the rank then the suit, e.g. QS", key=key)
        return False

    def suit_word(self, suit: str) -> str:
        return "this deck" if self.suit_ranks[suit] is self.ranks else f"suit {suit}"

    def rank(self, pointer: str, rank: str, key: bool = False) -> bool:
        if rank in self.all_ranks:
            return True
        self.report("unknown-rank", f"'{rank}' is not a rank of this deck", pointer,
                    did_you_mean(rank, self.all_ranks) or f"ranks: {', '.join(self.all_ranks)}", key=key)
        return False

    def announcement(self, pointer: str, name: str) -> None:
        if name not in self.announcements:
            declared = ", ".join(self.announcements) or "none"
            self.report("unknown-announcement", f"no announcement '{name}' is declared", pointer,
                        did_you_mean(name, self.announcements) or f"declared announcements: {declared}")

    def seat(self, pointer: str, seat: int, what: str = "seat") -> bool:
        if seat < self.seats:
            return True
        self.report("unknown-seat", f"{what} {seat} does not exist with {self.seats} players", pointer,
                    f"seats are numbered 0 to {self.seats - 1}")
        return False

    # ---- sections
    def check_deck(self) -> None:
        deck = self.data["deck"]
        seen: set[str] = set()
        for i, suit in enumerate(self.suits):
            if suit in seen:
                self.report("duplicate-suit", f"suit '{suit}' is listed twice", f"/deck/suits/{i}")
            seen.add(suit)
        for i, extra in enumerate(self.extras):
            if extra in seen or any(extra == r + s for s in self.suits for r in self.suit_ranks[s]):
                self.report("duplicate-suit", f"the extra card '{extra}' has the name of a suit's card or of another "
                            "extra", f"/deck/extras/{i}/id", "give it another two-letter id")
            seen.add(extra)
        trump_suit = deck.get("trump_suit")
        if trump_suit is not None and trump_suit not in self.suits:
            self.report("unknown-suit", f"trump_suit '{trump_suit}' is not a suit of this deck", "/deck/trump_suit",
                        did_you_mean(trump_suit, self.suits) or f"suits: {', '.join(self.suits)}")
        method = (self.data.get("trump") or {}).get("method", "none")
        if trump_suit is not None and method in ("offer", "choose", "turned", "drawn"):
            self.report("trump-suit-and-method", f"the deck makes {trump_suit} trump in every hand, but trump.method "
                        f"is {method}", "/deck/trump_suit", "remove trump_suit, or set trump.method: none")
        for table in ("card_points", "card_sets"):
            for name, value in (deck.get(table) or {}).items():
                if table == "card_points":
                    self.card(f"/deck/card_points/{escape(name)}", name, key=True)
                    continue
                for j, card in enumerate(value):
                    self.card(f"/deck/card_sets/{escape(name)}/{j}", card, trump_relative=True)
        fixed = {str(c).upper() for c in deck.get("card_points") or {}}
        for table in ("points", "trump_points"):
            points = deck.get(table)
            if points is None:
                continue
            for rank in points:
                if rank != "default":
                    self.rank(f"/deck/{table}/{escape(rank)}", rank, key=True)
            suits = [trump_suit] if table == "trump_points" and trump_suit in self.suits else self.suits
            missing = [] if "default" in points or (table == "trump_points" and "default" in deck["points"]) else list(
                dict.fromkeys(r for s in suits for r in self.suit_ranks[s] if r not in points and r + s not in fixed))
            if missing:
                listed = ", ".join(f"'{r}'" for r in missing)
                self.report("rank-without-points", f"deck.{table} gives no value for {listed}", f"/deck/{table}",
                            f"add e.g. \"{missing[0]}\": 0", key=True)
        trump_ranks = deck.get("trump_ranks")
        if trump_ranks is not None:
            known = [self.rank(f"/deck/trump_ranks/{i}", r) for i, r in enumerate(trump_ranks)]
            missing = [r for r in self.ranks if r not in trump_ranks]
            if all(known) and missing:
                self.report("trump-ranks-not-permutation", f"trump_ranks leaves out {', '.join(missing)}",
                            "/deck/trump_ranks", "list every rank once, highest trump first")
        for i, suit in enumerate(deck.get("suits", DEFAULT_SUITS)):
            if isinstance(suit, dict) and "trump_ranks" in suit:
                own = self.suit_ranks[suit["id"]]
                base = f"/deck/suits/{i}/trump_ranks"
                missing = [r for r in own if r not in suit["trump_ranks"]]
                extra = [r for r in suit["trump_ranks"] if r not in own]
                if missing or extra:
                    wrong = f"leaves out {', '.join(missing)}" if missing else f"lists {', '.join(extra)}, not a rank of the suit"
                    self.report("trump-ranks-not-permutation", f"suit {suit['id']}'s trump_ranks {wrong}", base,
                                f"list each of its ranks once, highest trump first: {', '.join(own)}")
        if len(deck.get("promotions", [])) > MAX_PROMOTIONS:
            self.report("promotions-too-many", f"deck.promotions lists {len(deck['promotions'])} cards, more than the "
                        f"{MAX_PROMOTIONS} the engine tabulates (its tables double with each one)", "/deck/promotions",
                        "promote only the cards that leave their suit; reorder a suit with `trump_ranks` (the deck's, "
                        "or a suit's own)", key=True)
        for i, promotion in enumerate(deck.get("promotions", [])):
            base = f"/deck/promotions/{i}"
            if "card" in promotion:
                self.card(f"{base}/card", promotion["card"])
            self.check_relative_promotion(base, promotion, deck.get("suits", DEFAULT_SUITS))
            if ("below" in promotion) == bool(promotion.get("top")):
                self.report("promotion-place-unclear", "a promotion needs either `below` (a trump rank) or "
                            "`top: true`, not both", base, "write below: A to rank it under the trump ace, or top: "
                            "true to rank it above every card of the trump suit")
            elif "below" in promotion:
                self.rank(f"{base}/below", promotion["below"])
            if "by_announcement" in promotion:
                self.announcement(f"{base}/by_announcement", promotion["by_announcement"])

    def check_relative_promotion(self, base: str, promotion: dict[str, Any], suits: list[Any]) -> None:
        """A promotion names a fixed `card` or a `rank` with a trump-relative `suit`, not both; with
        ``same_colour`` every suit that may be trump needs exactly one other suit of its colour."""
        fixed, relative = "card" in promotion, "rank" in promotion and "suit" in promotion
        if fixed == relative or not relative and ("rank" in promotion or "suit" in promotion):
            self.report("promotion-card-unclear", "a promotion needs either `card` or both `rank` and `suit`", base,
                        "write card: QS for a fixed card, or rank: J with suit: same_colour for a card that depends "
                        "on trump")
            return
        if not relative or not self.rank(f"{base}/rank", promotion["rank"]):
            return
        colours = {s if isinstance(s, str) else s["id"]: SUIT_COLOURS.get(s) if isinstance(s, str)
                   else s.get("colour", SUIT_COLOURS.get(s["id"])) for s in suits}
        trump_suit = self.data["deck"].get("trump_suit")
        for suit in [trump_suit] if trump_suit in colours else list(colours):
            pair = [s for s in colours if s != suit and colours[s] is not None and colours[s] == colours[suit]]
            if len(pair) != 1:
                shared = f"with {len(pair)} other suits" if pair else "with no other suit"
                self.report("promotion-colour-unpaired", f"suit {suit} shares its colour ({colours[suit] or 'none'}) "
                            f"{shared}, so no one card is the {promotion['rank']} of the same colour",
                            f"{base}/suit", "give every suit a colour shared with exactly one other suit "
                            "(deck.suits: {id: ..., colour: ...})")
                return
            if promotion["rank"] not in self.suit_ranks[pair[0]]:
                self.report("unknown-rank", f"suit {pair[0]} has no rank '{promotion['rank']}'", f"{base}/rank")
                return

    def check_players(self) -> None:
        players = self.data["players"]
        if "side_card" in players and players.get("sides", "teams") != "card_holders":
            self.report("side-card-unused", "players.side_card is read only with sides: card_holders",
                        "/players/side_card", "leave it out, or say sides: card_holders", key=True)
        if players.get("sides", "teams") != "teams":
            self.check_sides(players)
        elif "teams" not in players:
            self.report("teams-missing", "players.teams is missing: with sides: teams the partnerships keep the score",
                        "/players", "list them, e.g. teams: [[0, 2], [1, 3]]; or say sides: declarer_alone when each "
                        "hand's contract fixes the sides", key=True)
        else:
            self.check_teams(players["teams"])
        first = self.data.get("dealer", {}).get("first", 0)
        if isinstance(first, int):
            self.seat("/dealer/first", first, "dealer seat")
        if self.dealer_sits_out:
            self.check_dealer_asked()

    def check_dealer_asked(self) -> None:
        """A dealer who sits the hand out is asked nothing and plays nothing: no rule may turn to him,
        and two seats at least must be left to play."""
        if self.seats < 3:
            self.report("dealer-sits-out-asked", f"with {self.seats} players a dealer sitting out leaves one to play",
                        "/players/sit_out", "seat three players or more, or leave sit_out out")
        trump, play = self.data["trump"], self.data.get("play", {})
        for pointer, value, what in (
                ("/trump/choose/by", trump.get("choose", {}).get("by"), "choose trump"),
                ("/trump/auction/first", trump.get("auction", {}).get("first"), "speak first in the auction"),
                ("/trump/offer/reoffer_first_speaker", trump.get("offer", {}).get("reoffer_first_speaker"),
                 "speak first on a new card"),
                ("/trump/offer/taken_by", trump.get("offer", {}).get("taken_by"), "take the offered card"),
                ("/play/first_lead", play.get("first_lead"), "lead the first trick")):
            if value == "dealer":
                self.report("dealer-sits-out-asked", f"the dealer sits the hand out (players.sit_out) but is asked to "
                            f"{what}", pointer, "name the elder (the seat after the dealer), or leave sit_out out")
        self.check_every_seat_plays("/players/sit_out", "sit_out", [])
        if "passing" in self.data:
            self.report("dealer-sits-out-asked", "the dealer sits the hand out (players.sit_out) but passing goes round "
                        "every seat", "/passing", "leave out passing or sit_out", key=True)

    def check_sides(self, players: dict[str, Any]) -> None:
        """Sides fixed with the contract: no fixed teams, and a declarer in every hand that is played."""
        sides = players["sides"]
        if "teams" in players:
            self.report("teams-with-sides", f"players.teams is unused with sides: {sides}", "/players/teams",
                        "leave teams out: each hand's contract fixes the sides, and every seat keeps its own score",
                        key=True)
        if sides == "card_holders":
            self.check_card_holders(players)
            return
        trump = self.data["trump"]
        method = trump["method"]
        if method == "none":
            self.report("sides-without-declarer", f"sides: {sides} needs a declarer in every hand, but trump.method "
                        "none fixes no contract", "/players/sides",
                        "use trump.method auction, choose or offer, or sides: teams with fixed partnerships")
            return
        fallback = (method in ("turned", "drawn")
                    or method == "offer" and trump.get("offer", {}).get("on_all_pass", "bottom_card") == "bottom_card"
                    or method == "choose" and "defer" in trump.get("choose", {}).get("ways", ["name"]))
        if fallback and trump.get("maker_after_fallback", "none") == "none":
            self.report("sides-without-declarer", f"sides: {sides} needs a declarer in every hand, but a trump fixed "
                        "by a fallback has no maker", "/trump/maker_after_fallback" if "maker_after_fallback" in trump
                        else "/players/sides", "set trump.maker_after_fallback: elder_team (the elder declares)")

    # what sides hidden until revealed (card_holders) are not played with: each would tell a seat who
    # plays with whom (a partner's trick freeing a card, a partner's announcement or bid) or needs a
    # declarer the hidden sides do not have
    HIDDEN_SIDES_APART = {"/trump/method": "a trump decided by the players", "/bids": "bids of tricks",
                          "/announcements": "announcements", "/declarations": "declarations",
                          "/passing": "passing cards", "/card_roles": "card roles", "/contracts": "contracts",
                          "/play/follow/when_partner_winning": "a partner's trick freeing a card",
                          "/players/sit_out": "a dealer sitting out",
                          "/deal": "a deal leaving cards out of the hands (the side card might be dealt to nobody)"}

    def check_card_holders(self, players: dict[str, Any]) -> None:
        """Sides by who holds a card: the card named, and no rule the hidden sides would leak through."""
        if "side_card" not in players:
            self.report("side-card-missing", "sides: card_holders needs the card whose holders play together",
                        "/players/sides", "add e.g. side_card: QC (the holders of the queen of clubs against the rest)")
        else:
            self.card("/players/side_card", str(players["side_card"]))
        self.check_hidden_sides("sides: card_holders", self.HIDDEN_SIDES_APART, "play fixed teams (sides: teams)")

    def check_hidden_sides(self, subject: str, apart: dict[str, str], instead: str) -> None:
        """No rule of ``apart`` that sides by who holds a card, hidden until revealed, would leak through."""
        data, players = self.data, self.data["players"]
        present = {"/trump/method": data["trump"].get("method", "none") != "none",
                   "/players/sit_out": "sit_out" in players,
                   "/deal": any(isinstance(step, dict) and not {"packet", "decide"} >= step.keys() - {"to", "face"}
                                for step in data.get("deal") or ()),
                   "/play/follow/when_partner_winning":
                       data.get("play", {}).get("follow", {}).get("when_partner_winning", "as_usual") != "as_usual"}
        # an announcement made for the announcer's side (for_side) tells that side, which the hidden sides allow
        others = [key for key, item in (data.get("announcements") or {}).items()
                  if not (isinstance(item, dict) and "for_side" in item)]
        present["/announcements"] = bool(others)
        for pointer, what in apart.items():
            if not present.get(pointer, bool(data.get(pointer[1:]))):
                continue
            if pointer == "/announcements":
                pointer, what = f"/announcements/{escape(others[0])}", "an announcement not made for a side (for_side)"
            self.report("hidden-sides-unsupported", f"{subject} keeps the sides hidden until revealed, "
                        f"which {what} would break or is not supported with", pointer,
                        f"leave it out, or {instead}")

    def check_teams(self, teams: list[list[int]]) -> None:
        owner: dict[int, int] = {}
        for t, team in enumerate(teams):
            for s, seat in enumerate(team):
                pointer = f"/players/teams/{t}/{s}"
                if not self.seat(pointer, seat):
                    continue
                if seat in owner:
                    self.report("teams-not-partition", f"seat {seat} is in team {owner[seat]} and team {t}", pointer,
                                "each seat belongs to exactly one team")
                owner.setdefault(seat, t)
        lonely = [s for s in range(self.seats) if s not in owner]
        if lonely:
            self.report("teams-not-partition", f"seat{'s' if len(lonely) > 1 else ''} {', '.join(map(str, lonely))} "
                        f"belong{'' if len(lonely) > 1 else 's'} to no team", "/players/teams",
                        f"the teams must cover seats 0 to {self.seats - 1}")

    def receivers(self, pointer: str, to: Any) -> list[int]:
        """Seats (as offsets from the dealer, 1 = elder) that receive a packet."""
        n = self.seats
        if isinstance(to, list):
            return [o for i, o in enumerate(to) if self.seat(f"{pointer}/{i}", o, "offset")]
        everyone = [(1 + i) % n for i in range(n)]  # the elder first, the dealer last
        if to in _ONE_SEAT:
            return _ONE_SEAT[to]
        if to == "declarer":
            return [self.declarer]
        if to == "all_but_declarer":
            return [o for o in everyone if o != self.declarer]
        if to == "all_but_elder":
            return [o for o in everyone if o != 1]
        if to == "all_but_dealer":
            return [o for o in everyone if o != 0]
        return everyone

    def check_deal_and_trump(self) -> None:
        """Walk the deal script of every hand its schedules of hand sizes deal (one hand without
        a schedule): each check then holds for every size, and a problem every hand shares is
        reported once. Tricks are the largest hand's (what may be bid or scored), the cards
        at the decision the smallest's (what a chooser or discarder surely holds)."""
        steps = self.data["deal"]
        cycle = math.lcm(*(len(step["packet"]) for step in steps if isinstance(step.get("packet"), list)))
        first, context = len(self.found), self.context
        tricks, at_decide = [], []
        # packets to the declarer beside packets to named seats: the hands' sizes depend on who declares
        named = any(isinstance(step, dict) and "packet" in step and step.get("to", "all") not in (*_TO_DECLARER, "all")
                    for step in steps)
        to_declarer = any(isinstance(step, dict) and step.get("to") in _TO_DECLARER for step in steps)
        declarers = list(range(1 if self.dealer_sits_out else 0, self.seats)) if named and to_declarer else [_DECLARER]
        for hand in range(cycle):
            script = [dict(step, packet=step["packet"][hand % len(step["packet"])])
                      if isinstance(step.get("packet"), list) else step for step in steps]
            for self.declarer in declarers:
                parts = ([f"in hand {hand + 1} of a game"] if cycle > 1 else []) + (
                    [f"when the {self.offset_name(self.declarer)} declares"] if len(declarers) > 1 else [])
                self.context = context + (", ".join(parts) + ": " if parts else "")
                most, decided = self.walk_deal(script, hand)
                tricks.append(most)
                at_decide.append(decided)
        self.context, self.declarer = context, _DECLARER
        once: dict[tuple[str, str | None], Diagnostic] = {}
        for found in self.found[first:]:
            once.setdefault((found.code, found.pointer), found)
        self.found[first:] = once.values()
        self.tricks, self.fewest_tricks = max(tricks), min(tricks)
        self.hand_at_decide = min(at_decide)

    def walk_deal(self, steps: list[dict[str, Any]], hand_no: int) -> tuple[int, int]:
        """Walk one hand's deal script (the game's ``hand_no``-th, its packets numbers) counting cards
        per seat, then check the trump procedure against what it dealt; (the cards a seat holds
        once dealt, the cards it holds when trump is decided)."""
        size = self.size()
        hand = [0] * self.seats
        dealt, rest_taken, overdealt = 0, False, False
        stock: int | None = None
        face_up_before_decide = False
        offered_from_stock = False  # the last face-up card before the decide step was turned from the stock
        decides: list[int] = []
        hand_at_decide: list[int] = []
        after_decide: list[list[int]] = []
        to_declarer = False
        stock_left = 0  # the stock's cards not yet dealt or turned up: later packets come from its top
        from_stock = False
        for i, step in enumerate(steps):
            pointer = f"/deal/{i}"
            need = 0
            if "packet" in step:
                who = self.receivers(f"{pointer}/to", step.get("to", "all"))
                if self.dealer_sits_out and 0 in who and hand_no == 0:
                    self.report("dealer-sits-out-dealt", f"the dealer sits the hand out (players.sit_out) but deal step "
                                f"{i + 1} deals him cards ({step.get('to', 'all')})",
                                f"{pointer}/to" if "to" in step else pointer, "deal `to: all_but_dealer`, or name "
                                "the seats that receive the packet")
                if step.get("to") in _TO_DECLARER and not to_declarer:  # the first such packet tells
                    to_declarer = True
                    self.check_declarer_packet(f"{pointer}/to", decides)
                need = step["packet"] * len(who)
                for offset in who:
                    hand[offset] += step["packet"]
                if stock is not None and need <= stock_left:  # dealt from the stock, already counted
                    stock_left -= need
                    need = 0
                    if not from_stock:  # the first packet from the stock tells
                        from_stock = True
                        self.check_packet_from_stock(pointer)
                if decides:
                    after_decide.append(who)
                elif step.get("face") == "up":
                    face_up_before_decide = True
                    offered_from_stock = False
            elif "stock" in step:
                stock = stock_left = need = max(0, size - dealt)
                rest_taken = True
            elif "turn_up" in step:
                self.check_turned_cards(pointer, step)
                if step.get("if_stock_empty") and stock is not None and not stock_left:
                    face_up_before_decide = True  # nothing to turn: the hand is played without trump
                    self.check_empty_turn_up(f"{pointer}/if_stock_empty")
                elif not stock and not overdealt:
                    self.report("turn-up-without-stock", "turn_up needs a stock with cards, made earlier by {stock: rest}",
                                pointer, "add {stock: rest} before this step")
                elif not stock_left and not overdealt:
                    face_up_before_decide = True  # reported here, not again as a missing face-up card
                    self.report("turn-up-without-stock", f"the packets before this step leave no card in the stock "
                                f"to turn up (it had {stock})", pointer, "deal fewer cards, or play such a hand without "
                                "trump: `if_stock_empty: no_trump` (with trump.method: turned)")
                elif not decides:
                    face_up_before_decide = offered_from_stock = True
                stock_left = max(0, stock_left - 1)
            elif "set_aside" in step or "kitty" in step:
                kind = "set_aside" if "set_aside" in step else "kitty"
                rest = step[kind] == "rest"
                need = size - dealt if rest else step[kind]
                rest_taken = rest_taken or rest
                if kind == "kitty":
                    self.check_kitty_step(pointer, decides)
                    self.kitty_size = need
            elif "announce" in step:
                pass  # asks a question, deals nothing (check_deal_announcements)
            else:
                decides.append(i)
                hand_at_decide = list(hand)
            if dealt + need > size and not overdealt:
                overdealt = True
                scheduled = self.data["deal"][i].get("packet")
                if isinstance(scheduled, list):
                    left, entry = max(0, size - dealt), hand_no % len(scheduled)
                    self.report("hand-size-too-big", f"the schedule deals {step['packet']} cards to each of {need // step['packet']} "
                                f"players ({need}), but only {left} of the {size} are left", f"{pointer}/packet/{entry}",
                                f"deal at most {left // (need // step['packet'])} cards in a hand here")
                else:
                    self.report("deal-too-many-cards", f"deal step {i + 1} needs {need} cards but only {max(0, size - dealt)} "
                                f"of the {size} are left", pointer, "deal fewer cards or use a bigger deck")
            dealt += need
        if dealt < size and not overdealt:
            self.report("deal-cards-unaccounted", f"{size - dealt} of the {size} cards are never dealt, set aside or "
                        "put in a stock", "/deal", "end the deal with {set_aside: rest} or {stock: rest}", key=True)
        taker = self.offered_card_keeper()
        if taker is not None:  # he holds the offered card beside his dealt ones
            hand[taker] += 1
        playing = range(1 if self.dealer_sits_out else 0, self.seats)  # a dealer sitting out holds nothing
        if len({hand[o] for o in playing}) > 1 or not any(hand):
            counts = ", ".join(f"{self.offset_name(o)} {hand[o]}" for o in playing)
            self.report("deal-uneven-hands", f"every player needs the same number of cards; this deal gives {counts}",
                        "/deal", key=True)
        if not overdealt:  # otherwise missing stock or face-up cards are consequences, not causes
            self.check_trump(decides, face_up_before_decide, stock, hand_at_decide, after_decide)
            if face_up_before_decide and not offered_from_stock:
                self.check_offer_not_taken_from_a_hand()
        return max(hand), max(hand_at_decide or hand)

    def offered_card_keeper(self) -> int | None:
        """The seat (an offset from the dealer) that keeps an offered card without a discard, or None."""
        trump = self.data["trump"]
        offer = trump.get("offer", {}) if trump["method"] == "offer" else {}
        if "taken_by" not in offer or offer.get("taker_discards", True):
            return None
        if offer["taken_by"] != "declarer" and offer.get("on_all_pass") == "name_other_suit":
            self.report("kept-card-not-always-taken", f"with taken_by: {offer['taken_by']} a trump named in the "
                        "second round takes no card, so that hand's seats would hold different numbers of cards, "
                        "the keeper's card missing", "/trump/offer/taker_discards",
                        "use taken_by: declarer (whoever fixes trump keeps the card), or let the taker discard")
        return 0 if offer["taken_by"] == "dealer" else self.declarer

    def check_turned_cards(self, pointer: str, step: dict[str, Any]) -> None:
        """`if_turned` names cards of the deck, each once, and belongs to `trump.method: turned`, which
        needs it for every card outside the suits (`deck.extras`): such a card has no suit to be trump."""
        method = self.data["trump"]["method"]
        entries = step.get("if_turned") or []
        if entries and method != "turned":
            self.report("turned-card-rule-not-turned", f"if_turned says what a card turned up does to trump, but "
                        f"trump.method is {method}, which does not take trump from the turned card",
                        f"{pointer}/if_turned", "use trump.method: turned, or leave if_turned out", key=True)
            return
        named: set[str] = set()
        for i, entry in enumerate(entries):
            for j, card in enumerate(entry.get("cards") or ()):
                where = f"{pointer}/if_turned/{i}/cards/{j}"
                if self.card(where, card) and card in named:
                    self.report("turned-card-twice", f"{card} is named by two entries of if_turned", where,
                                "name each card once")
                named.add(card)
        if method == "turned":
            suitless = [extra["id"] for extra in self.data["deck"].get("extras") or () if extra.get("id") not in named]
            if suitless:
                self.report("turned-card-without-suit", f"{', '.join(suitless)} may be turned up, but belong"
                            f"{'s' if len(suitless) == 1 else ''} to no suit, so trump would be no suit",
                            pointer, "add if_turned: [{cards: [...], trump: none}] (or named_by_dealer)")

    def check_empty_turn_up(self, pointer: str) -> None:
        """A hand without trump when the stock is empty is the `turned` method's: an offer or a
        choice would have no card to go by, or would not need one."""
        method = self.data["trump"]["method"]
        if method != "turned":
            self.report("empty-turn-up-not-turned", f"if_stock_empty: no_trump plays a hand without trump when no "
                        f"card is left to turn up, but trump.method is {method}, which does not take trump from "
                        "the turned card", pointer, "use trump.method: turned, or deal fewer cards so one is left")

    def check_packet_from_stock(self, pointer: str) -> None:
        """A packet dealt from the stock's top needs a stock the trump procedure leaves alone: a
        re-offer or a bottom card taken from it would be dealt a second time."""
        trump = self.data["trump"]
        fallback = trump.get("offer", {}).get("on_all_pass", "bottom_card") if trump["method"] == "offer" else None
        if fallback in ("next_card", "bottom_card"):
            self.report("packet-from-changing-stock", f"this packet is dealt from the stock, which on_all_pass: "
                        f"{fallback} also takes cards from", pointer,
                        "use on_all_pass: redeal or name_other_suit, or deal the packet before {stock: rest}")

    def check_declarer_packet(self, pointer: str, decides: list[int]) -> None:
        """A packet to the declarer follows the decide step, in a ruleset where every played hand has one."""
        if not decides:
            self.report("declarer-packet-before-decide", "a packet to the declarer (or to everyone but him) comes "
                        "before {decide: trump}, when nobody has declared yet", pointer,
                        "move it after the decide step, or address it to all, elder, dealer...")
            return
        trump = self.data["trump"]
        method = trump["method"]
        why = None
        if method in ("none", "turned", "drawn"):
            why = f"trump.method {method} lets nobody decide"
        elif method == "offer" and trump.get("offer", {}).get("on_all_pass", "bottom_card") == "bottom_card":
            why = "when everyone passes, the bottom card fixes trump (on_all_pass: bottom_card) and nobody declares"
        elif method == "choose" and "defer" in trump.get("choose", {}).get("ways", ["name"]):
            why = "a chooser who defers leaves trump to a card and declares nothing"
        if why is not None:
            self.report("declarer-packet-without-declarer", f"a packet to the declarer needs one in every hand "
                        f"played, but {why}", pointer, "address the packet to all, elder, dealer..., or let a "
                        "seat always fix trump")

    def check_offer_not_taken_from_a_hand(self) -> None:
        """`offer.taken_by` moves the offered card into a hand, so it must not be in one already
        (the last card of a face-up packet)."""
        trump = self.data["trump"]
        if trump["method"] == "offer" and "taken_by" in trump.get("offer", {}):
            self.report("offer-taken-from-hand", "taken_by takes the offered card into a hand, but the card offered "
                        "is the last card of a face-up packet, already in a hand", "/trump/offer/taken_by",
                        "turn the offered card up from the stock ({turn_up: stock_top}), or remove taken_by")

    def check_kitty_step(self, pointer: str, decides: list[int]) -> None:
        """One kitty, dealt before the contract that says what happens to it."""
        if self.kitty_size is not None:
            self.report("kitty-repeated", "the deal has a second kitty step; a hand has one kitty", pointer,
                        "deal every kitty card in one {kitty: N} step")
        elif decides:
            self.report("kitty-after-decide", "the kitty is dealt after the decide step, so the contract could not "
                        "say what happens to it", pointer, "move the kitty step before {decide: trump}")

    def check_drawn(self, drawn: dict[str, Any]) -> None:
        """The suits a trump draw may give are the deck's, and more than one: a draw of one suit is no chance."""
        suits = drawn.get("suits", self.suits)
        for i, suit in enumerate(suits):
            if suit not in self.suits:
                self.report("unknown-suit", f"'{suit}' is not a suit of this deck", f"/trump/drawn/suits/{i}",
                            did_you_mean(suit, self.suits) or f"suits: {', '.join(self.suits)}")
        if len(suits) == 1:
            self.report("drawn-single-suit", f"the trump draw can only give {suits[0]}: nothing is left to chance",
                        "/trump/drawn/suits", f"list two suits or more, or make {suits[0]} trump in every hand "
                        "(deck.trump_suit, trump.method: none)", severity="warning")

    def offset_name(self, offset: int) -> str:
        return {0: "dealer", 1: "elder"}.get(offset, f"dealer+{offset}")

    def check_trump(self, decides: list[int], face_up: bool, stock: int | None, hand_at_decide: list[int],
                    after_decide: list[list[int]]) -> None:
        trump = self.data["trump"]
        method = trump["method"]
        wanted = 0 if method == "none" else 1
        if len(decides) != wanted:
            pointer = f"/deal/{decides[wanted]}" if len(decides) > wanted else "/deal"
            self.report("decide-step-count", f"trump method '{method}' needs {'no' if wanted == 0 else 'exactly one'} "
                        f"{{decide: trump}} step; the deal has {len(decides)}", pointer,
                        "put one {decide: trump} where the trump procedure runs" if wanted else "remove the decide step",
                        key=pointer == "/deal")
        for section in ("offer", "choose", "drawn"):
            if section in trump and method != section:
                self.report("unused-setting", f"trump.{section} is ignored with method '{method}'", f"/trump/{section}",
                            f"remove it (in a file that extends another: `{section}: null`)", key=True, severity="warning")
        if method in ("offer", "turned") and decides and not face_up:
            self.report("offer-without-turn-up", f"the {method} method needs a face-up card before {{decide: trump}}",
                        f"/deal/{decides[0]}", "add {turn_up: stock_top} or a packet with face: up before it")
        if method == "drawn":
            self.check_drawn(trump.get("drawn") or {})
        if method == "offer":
            offer = trump.get("offer", {})
            fallback = offer.get("on_all_pass", "bottom_card")
            if offer.get("dealer_must_name") and fallback != "name_other_suit":
                self.report("unused-setting", f"trump.offer.dealer_must_name is ignored with on_all_pass: {fallback}",
                            "/trump/offer/dealer_must_name", "use on_all_pass: name_other_suit, or remove it", key=True,
                            severity="warning")
            if fallback in ("bottom_card", "next_card") and not stock:
                self.report("fallback-without-stock", f"on_all_pass: {fallback} needs a stock to take cards from",
                            "/trump/offer/on_all_pass" if "on_all_pass" in offer else "/trump/method",
                            "add {stock: rest} to the deal, or use on_all_pass: redeal")
        elif method == "choose" and decides:
            choose = trump.get("choose", {})
            chooser = 1 % self.seats if choose.get("by", "elder") == "elder" else 0
            ways = choose.get("ways", ["name"])
            if "show" in ways and not hand_at_decide[chooser]:
                self.report("show-without-cards", "the chooser holds no card to show at the decide step",
                            "/trump/choose/ways", "deal the chooser a packet before {decide: trump}")
            if "defer" in ways and not any(chooser in who for who in after_decide):
                self.report("defer-without-packet", "deferring turns the first card of the chooser's next packet, but no "
                            "packet reaches the chooser after {decide: trump}", "/trump/choose/ways")

    def check_announcements(self) -> None:
        in_reported_cycle: set[str] = set()
        for name, item in self.announcements.items():
            base = f"/announcements/{escape(name)}"
            if "holder_of" in item and self.card(f"{base}/holder_of", item["holder_of"]):
                self.single_holder(f"{base}/holder_of", "announcements.<id>.holder_of")
            if "after" in item:
                self.announcement(f"{base}/after", item["after"])
            self.check_declarer_announcement(base, item)
            self.check_side_announcement(base, item, in_reported_cycle)
            self.check_each_seat_announcement(base, name, item)
            self.check_leader_announcement(base, item)
            if "sits_out" in item:
                self.check_sitting_out(base, item)
            chain, current = [name], item
            while "after" in current and current["after"] in self.announcements and name not in in_reported_cycle:
                if current["after"] in chain:
                    cycle = chain[chain.index(current["after"]):]
                    in_reported_cycle.update(cycle)
                    self.report("announcement-cycle", f"announcements {' -> '.join(cycle + cycle[:1])} wait on each other "
                                "through `after`, so none is ever offered", f"{base}/after",
                                "the first announcement of a chain needs holder_of")
                    break
                chain.append(current["after"])
                current = self.announcements[current["after"]]

    def check_side_announcement(self, base: str, item: dict[str, Any], in_reported_cycle: set[str]) -> None:
        """`for_side` stands alone (offered by the seat's side on its turns); `before_card`, `reply_to` and
        `implies` belong to it, and name announcements for a side: the other side's, its own side's."""
        for_side = item.get("for_side")
        if for_side is None:
            for key in ("before_card", "reply_to", "implies", "before_lead", "after_declarer"):
                if key in item:
                    self.report("side-announcement-key", f"{key} belongs to an announcement made by a seat for its "
                                "side, but this one has no for_side", f"{base}/{key}",
                                f"add for_side: maker or opponents (and leave out holder_of, after and by), or leave "
                                f"{key} out", key=True)
            return
        for key in ("holder_of", "after", "by", "leads", "sits_out", "shows_hand", "offered_when"):
            if key in item:
                self.report("side-announcement-shape", f"an announcement for a side (for_side) is offered to a seat "
                            f"of that side on its own turns, so it takes no {key}", f"{base}/{key}",
                            f"leave {key} out, or for_side", key=True)
        if self.data["players"].get("sides", "teams") == "teams" and self.data["trump"].get("method", "none") == "none":
            self.report("side-announcement-without-maker", f"for_side: {for_side} names a side by its maker, but with "
                        "fixed teams and trump.method none no hand has a maker, so it is never offered",
                        f"{base}/for_side", "use players.sides: card_holders, or a trump decided by the players")
        if item.get("after_declarer") and self.data["trump"].get("method", "none") != "auction":
            self.report("side-announcement-after-declarer", "after_declarer counts the seats after the declarer in "
                        "the auction's order, but this ruleset has no auction, so no seat is after a declarer",
                        f"{base}/after_declarer", "use trump.method: auction, or leave after_declarer out", key=True)
        if item.get("before_lead"):
            for key in ("before_card", "reply_to"):
                if key in item:
                    self.report("side-announcement-before-lead", f"before_lead asks every seat once before the first "
                                f"lead, so the announcement takes no {key}", f"{base}/{key}",
                                f"leave {key} out, or before_lead", key=True)
        if item.get("before_card") == 0 and not item.get("reply_to"):
            self.report("side-announcement-never-offered", "before_card: 0 offers an announcement only in reply to "
                        "one of its reply_to, but it has none, so it is never offered", f"{base}/before_card",
                        "name the announcements it replies to (reply_to), or give it a deadline of its own "
                        "(before_card: 1 or more)")
        refs = [("implies", item["implies"], True)] if isinstance(item.get("implies"), str) else []
        refs += [(f"reply_to/{i}", name, False) for i, name in enumerate(item.get("reply_to") or ()) if isinstance(name, str)]
        for key, name, own in refs:
            self.announcement(f"{base}/{key}", name)
            other = self.announcements.get(name)
            wanted = for_side if own else ("opponents" if for_side == "maker" else "maker")
            if isinstance(other, dict) and other.get("for_side") != wanted:
                what = "its own side" if own else "the other side"
                self.report("side-announcement-reference", f"{key.split('/')[0]} names {name}, which is not an "
                            f"announcement for {what} (for_side: {wanted})", f"{base}/{key}",
                            f"name an announcement with for_side: {wanted}")
        seen: list[str] = [base.rsplit("/", 1)[1]]
        current: Any = item
        while isinstance(current, dict) and isinstance(current.get("implies"), str):
            nxt = current["implies"]
            if nxt in seen:
                if nxt != seen[0] or nxt in in_reported_cycle:
                    break
                in_reported_cycle.update(seen)
                self.report("announcement-cycle", f"announcements {' -> '.join(seen + [nxt])} imply each other "
                            "through `implies`", f"{base}/implies", "end the chain with an announcement that implies none")
                break
            seen.append(nxt)
            current = self.announcements.get(nxt)

    def check_each_seat_announcement(self, base: str, name: str, item: dict[str, Any]) -> None:
        """`by: each_seat` is asked of every seat by a deal step (`announce`), and nowhere else."""
        if item.get("by") != "each_seat":
            return
        for key in ("holder_of", "after"):
            if key in item:
                self.report("each-seat-announcement-shape", f"an announcement asked of every seat (by: each_seat) is "
                            f"asked by a deal step, so it takes no {key}", f"{base}/{key}", f"leave {key} out", key=True)
        if not any(isinstance(step, dict) and step.get("announce") == name for step in self.data["deal"]):
            self.report("each-seat-announcement-unasked", f"announcement {name} (by: each_seat) is asked of every "
                        "seat by a deal step, but no deal step asks it: it is never made", f"{base}/by",
                        f"add the step {{announce: {name}}} to the deal where it is asked, e.g. between two packets")

    def check_leader_announcement(self, base: str, item: dict[str, Any]) -> None:
        """`by: leader` is offered beside the cards of the seat to lead, before any lead, and stands alone;
        `closes_stock` and `ends_hand` belong to it, `closes_stock` needs a stock drawn from (`play.draw`),
        `min_stock` belongs to `closes_stock`."""
        leader = item.get("by") == "leader"
        if leader:
            for key in ("holder_of", "after", "leads", "sits_out", "shows_hand", "offered_when"):
                if key in item:
                    self.report("leader-announcement-shape", f"an announcement of the leader (by: leader) is offered "
                                f"beside his cards before any lead, so it takes no {key}", f"{base}/{key}",
                                f"leave {key} out", key=True)
        for key, needs, hint, what in (("closes_stock", leader, "add by: leader", "that closes the stock"),
                                       ("min_stock", item.get("closes_stock"), "add closes_stock: true",
                                        "that closes the stock"),
                                       ("ends_hand", leader, "add by: leader", "that ends the hand")):
            if key in item and not needs:
                self.report("leader-announcement-shape", f"{key} belongs to an announcement of the leader {what}",
                            f"{base}/{key}", f"{hint}, or leave {key} out", key=True)
        if item.get("closes_stock") and self.data.get("play", {}).get("draw") is None:
            self.report("closes-stock-without-draw", "closes_stock stops the drawing from the stock, but nobody draws: "
                        "the game has no play.draw", f"{base}/closes_stock", "add play.draw, or leave closes_stock out",
                        key=True)

    def check_deal_announcements(self) -> None:
        """A deal step `announce` names an announcement asked of every seat (`by: each_seat`), once."""
        asked: set[str] = set()
        for i, step in enumerate(self.data["deal"]):
            if not isinstance(step, dict) or not isinstance(step.get("announce"), str):
                continue
            name, pointer = step["announce"], f"/deal/{i}/announce"
            item = self.announcements.get(name)
            if item is None:
                self.announcement(pointer, name)
            elif not isinstance(item, dict) or item.get("by") != "each_seat":
                self.report("deal-announcement-reference", f"deal step {i + 1} asks every seat for {name}, which is "
                            "not an announcement asked of every seat (by: each_seat)", pointer,
                            f"add by: each_seat to announcement {name} (and leave out holder_of, after and "
                            "for_side), or ask another")
            elif name in asked:
                self.report("deal-announcement-repeated", f"deal step {i + 1} asks every seat for {name} a second "
                            "time in the same deal", pointer, "ask it in one deal step")
            asked.add(name)

    def check_declarer_announcement(self, base: str, item: dict[str, Any]) -> None:
        """`by: declarer` stands alone (made before the first lead, by a declarer some hand has);
        `leads` belongs to it."""
        by_declarer = item.get("by") == "declarer"
        for key in ("holder_of", "after"):
            if by_declarer and key in item:
                self.report("declarer-announcement-shape", f"a declarer's announcement (by: declarer) is made before "
                            f"the first lead, so it takes no {key}", f"{base}/{key}",
                            f"leave {key} out; answers to it say after: ID with by: opponents or partners", key=True)
        for key, what in (("shows_hand", "lays the announcer's cards face up before the first lead"),
                          ("offered_when", "says when the announcement is put to the declarer")):
            if key in item and not by_declarer:
                self.report("declarer-announcement-key", f"{key} {what}, but only a declarer's announcement is made "
                            "before the first lead", f"{base}/{key}",
                            f"add by: declarer (and leave out holder_of and after), or leave {key} out", key=True)
        if item.get("leads") and not by_declarer:
            self.report("leads-without-declarer", "leads: true gives the first lead to the announcer, but only a "
                        "declarer's announcement is made before the first lead", f"{base}/leads",
                        "add by: declarer (and leave out holder_of and after), or leave leads out", key=True)
        method = self.data["trump"]["method"]
        if by_declarer and method in ("none", "turned", "drawn"):
            self.report("announcement-without-declarer", f"by: declarer is never offered: trump.method {method} lets "
                        "nobody decide, so no hand has a declarer", f"{base}/by",
                        "use trump.method auction, choose or offer, or drop the announcement")

    def check_sitting_out(self, base: str, item: dict[str, Any]) -> None:
        """`sits_out: partners` sends the announcer's partners out before the first lead: it needs an
        announcement made then (`by: declarer`), fixed partnerships, and none of the concepts that
        count a seat's cards or turn as every seat's (card roles, declarations, bids of tricks, a card
        that opens the first trick)."""
        pointer = f"{base}/sits_out"
        if item.get("by") != "declarer":
            self.report("sits-out-without-declarer", "sits_out sends seats out of the whole hand's play, but only a "
                        "declarer's announcement is made before the first lead", pointer,
                        "add by: declarer (and leave out holder_of and after), or leave sits_out out", key=True)
        players = self.data["players"]
        teams = players.get("teams") or []
        if players.get("sides", "teams") != "teams" or all(len(team) < 2 for team in teams):
            self.report("sits-out-needs-partners", "sits_out: partners needs fixed partnerships (players.sides: teams "
                        "with teams of two or more seats): here the announcer has no partner", pointer,
                        "give players.teams partnerships, e.g. teams: [[0, 2], [1, 3]]", key=True)
        first_card = ["play.first_lead_card"] if self.data.get("play", {}).get("first_lead_card") else []
        self.check_every_seat_plays(pointer, "sits_out", first_card)  # its holder may be the one sitting out

    def check_every_seat_plays(self, pointer: str, setting: str, also: list[str]) -> None:
        """Seats sitting a hand out cannot be combined with the concepts that count a card from every
        seat in every trick (card roles, declarations, bids of tricks), nor with ``also``."""
        present = [key for key in ("card_roles", "declarations", "bids") if self.data.get(key)] + also
        if present:
            self.report("sits-out-unsupported", f"{setting} cannot be combined with {' or '.join(present)} yet: "
                        "they assume every seat plays a card to every trick", pointer,
                        f"drop {setting}, or {' and '.join(present)}", key=True)

    def check_deal_checks(self) -> None:
        for key, check in (self.data.get("deal_checks") or {}).items():
            base = f"/deal_checks/{escape(key)}"
            for field in ("holds", "lacks"):
                for i, card in enumerate(check.get(field, [])):
                    self.card(f"{base}/{field}/{i}", card)
            for i, count in enumerate(check.get("counts", [])):
                if "suit" in count and count["suit"] not in self.suits:
                    self.report("unknown-suit", f"'{count['suit']}' is not a suit of this deck", f"{base}/counts/{i}/suit",
                                did_you_mean(count["suit"], self.suits) or f"suits: {', '.join(self.suits)}")
                if "set" in count:
                    self.card_set(f"{base}/counts/{i}/set", count["set"], "a deal check")

    def check_roles(self) -> None:
        for key, role in (self.data.get("card_roles") or {}).items():
            for i, card in enumerate(role["cards"]):
                self.card(f"/card_roles/{escape(key)}/cards/{i}", card)

    def single_holder(self, pointer: str, setting: str) -> None:
        """A rule that picks the one seat holding a card needs a pack with one copy of it."""
        if self.copies > 1:
            self.report("card-holder-ambiguous", f"{setting} picks the seat holding a card, but the pack has "
                        f"{self.copies} copies of every card (deck.copies), so more than one seat may hold it", pointer,
                        f"leave {setting.split('.')[-1]} out, or play with one copy of each card")

    def card_or_trump_card(self, pointer: str, text: str) -> None:
        """A card, or a rank followed by T for that rank of the trump suit (``KT``)."""
        rank = text[:-1].upper()
        if not text.upper().endswith("T") or "T" in self.suits:
            self.card(pointer, text)
        elif rank not in self.ranks:
            self.report("unknown-rank", f"'{text}': '{rank}' is not a rank of this deck", pointer,
                        did_you_mean(rank, self.ranks) or f"ranks: {', '.join(self.ranks)}",
                        span=self.place.inside(pointer, 0, len(rank)))

    def check_declarations(self) -> None:
        """Patterns name real ranks and cards, have one shape each, can be held, and fit `when`."""
        shapes = ("run", "same_rank", "cards", "of")
        trumpless = self.data.get("trump", {}).get("method", "none") == "none"
        for name, item in (self.data.get("declarations") or {}).items():
            base = f"/declarations/{escape(name)}"
            order = item.get("run_order", self.ranks)
            for i, rank in enumerate(item.get("run_order", [])):
                self.rank(f"{base}/run_order/{i}", rank)
            seen: dict[tuple[str, Any], int] = {}
            for i, pattern in enumerate(item["patterns"]):
                at = f"{base}/patterns/{i}"
                given = [k for k in shapes if k in pattern]
                if len(given) > 1:
                    self.report("declaration-pattern-shape", f"a pattern has one shape, this one has {' and '.join(given)}",
                                at, "split it into one pattern per shape")
                    continue
                shape = given[0]
                for key, belongs in (("count", "same_rank"), ("at_least", "of")):
                    if key in pattern and shape != belongs:
                        self.report("declaration-pattern-shape", f"`{key}` goes with `{belongs}`, not with `{shape}`",
                                    f"{at}/{key}", key=True)
                if "copies" in pattern:
                    if shape not in ("cards", "same_rank"):
                        self.report("declaration-pattern-shape", f"`copies` goes with `cards` or `same_rank`, not with "
                                    f"`{shape}`", f"{at}/copies", key=True)
                    elif pattern["copies"] > self.copies:
                        self.report("declaration-unreachable", f"{pattern['copies']} copies of each card, but the pack "
                                    f"holds {self.copies} (deck.copies)", f"{at}/copies", "lower it or set deck.copies")
                if shape == "run" and pattern["run"] > len(order):
                    self.report("declaration-unreachable", f"a run of {pattern['run']} needs more ranks than the "
                                f"{len(order)} of the run order", f"{at}/run", "lower it or lengthen run_order")
                elif shape == "same_rank":
                    for j, rank in enumerate(pattern["same_rank"]):
                        self.rank(f"{at}/same_rank/{j}", rank)
                    if pattern.get("count", 0) > len(self.suits):
                        self.report("declaration-unreachable", f"{pattern['count']} cards of one rank, but the deck has "
                                    f"{len(self.suits)} suits", f"{at}/count")
                elif shape in ("cards", "of"):
                    for j, card in enumerate(pattern[shape]):
                        if card != "trump":
                            self.card_or_trump_card(f"{at}/{shape}/{j}", card)
                    relative = any(c == "trump" or c.upper().endswith("T") and "T" not in self.suits
                                   for c in pattern[shape])
                    if relative and trumpless:
                        self.report("declaration-needs-trump", "this pattern names trump cards, but the game has no trump",
                                    f"{at}/{shape}", "name the cards, or give the game a trump", severity="warning")
                    led_trump = [k for k, c in (self.data.get("contracts") or {}).items()
                                 if isinstance(c, dict) and c.get("trump") == "first_lead"]
                    if relative and led_trump and item.get("when", "first_play") != "trick_won":
                        self.report("trump-fixed-after-declaring", f"this pattern names trump cards, but under "
                                    f"{', '.join(led_trump)} trump is fixed by the first card led, and melds declared "
                                    f"`when: {item.get('when', 'first_play')}` are found before it",
                                    f"{at}/{shape}", "declare them when: trick_won, or fix those contracts' trump")
                    if shape == "of":
                        fixed = self.data["deck"].get("trump_suit")
                        longest = len(self.suit_ranks[fixed]) if fixed in self.suit_ranks else max(
                            len(ranks) for ranks in self.suit_ranks.values())
                        most = sum(longest if c == "trump" else 1 for c in pattern["of"])
                        if pattern["at_least"] > most:
                            self.report("declaration-unreachable", f"at least {pattern['at_least']} cards of a set of "
                                        f"{most}", f"{at}/at_least")
                self.check_stand_in(item, pattern, shape, at)
                measure = pattern.get(shape) if shape == "run" else (
                    tuple(pattern[shape]), pattern.get("count", pattern.get("at_least")), pattern.get("copies", 1))
                ident = (shape, measure)
                if ident in seen:
                    self.report("declaration-duplicate-pattern", f"patterns {seen[ident]} and {i} match the same cards",
                                at, "keep one of them")
                seen.setdefault(ident, i)
            when = item.get("when")
            if when in ("last_card_played", "led") and self.copies > 1 and item.get("scope") != "trick":
                self.report("declaration-copies-when", f"when: {when} declares a combination by the card played, "
                            "which is not combined yet with a pack of copies (deck.copies), where either copy may be "
                            "the one played", f"{base}/when", "declare it before_first_lead, before_first_play, first_play or trick_won")
            if when in ("last_card_played", "led"):
                needs = "only then is there a last card to play" if when == "last_card_played" else (
                    "only then do the led card and the rest of the combination say which cards are shown")
                for i, pattern in enumerate(item["patterns"]):
                    if "cards" not in pattern:
                        self.report("declaration-when-shape", f"when: {when} needs given cards (a `cards` "
                                    f"pattern): {needs}", f"{base}/patterns/{i}", "use when: first_play for runs and sets")
            if when == "led" and not item.get("shown") and item.get("scope") != "trick":
                self.report("declaration-led-shown", "a combination declared on a lead is proved by showing the rest "
                            "of it, which stays in the holder's hand in everyone's sight", f"{base}/when",
                            "add shown: true")
            if when == "trick_won" and not item.get("shown") and item.get("scope") != "trick":
                self.report("declaration-trick-won-shown", "a combination declared after winning a trick is laid "
                            "face up, its cards staying in the holder's hand in everyone's sight until played",
                            f"{base}/when", "add shown: true")
            if item.get("scope") == "trick":
                self.check_trick_melds(item, base)
            elif item.get("optional") and item.get("when") not in ("before_first_play", "trick_won", "led"):
                self.report("declaration-optional-when", "an optional declaration is offered beside the holder's cards, "
                            "before his first one, on his lead, or on his lead after winning a trick: it needs when: "
                            "before_first_play, led or trick_won", f"{base}/optional", key=True)
            if item.get("award", "always") == "always":
                for key in ("compare", "tie"):
                    if key in item:
                        self.report("declaration-unused-key", f"`{key}` only matters with award: best_side_only",
                                    f"{base}/{key}", key=True, severity="warning")

    def check_trick_melds(self, item: dict[str, Any], base: str) -> None:
        """Melds of a trick (`scope: trick`) are nobody's to declare, and fit in the cards of one trick."""
        for key in ("when", "optional", "shown"):
            if key in item:
                self.report("declaration-scope-key", f"`{key}` is about a player declaring the melds of his hand, "
                            "but melds of a trick (scope: trick) are found when the trick is complete and its cards "
                            "are public", f"{base}/{key}", "leave it out, or use scope: hand", key=True)
        size = self.data["players"]["count"]  # every seat plays to every trick (sits_out refuses declarations)
        for i, pattern in enumerate(item["patterns"]):
            needs = pattern.get("run") or pattern.get("count") or pattern.get("at_least") or len(
                pattern.get("cards") or ()) or len(self.suits)
            if needs > size:
                shape = next(key for key in ("run", "count", "at_least", "cards", "same_rank") if key in pattern)
                self.report("declaration-unreachable", f"this pattern needs {needs} cards, but a trick holds "
                            f"{size}", f"{base}/patterns/{i}/{shape}", "lower it, or use scope: hand")

    def check_stand_in(self, item: dict[str, Any], pattern: dict[str, Any], shape: str, at: str) -> None:
        """Stand-ins belong to an `of` pattern declared before the first play, and to its set."""
        if "stand_in" not in pattern:
            return
        if shape != "of" or item.get("when") not in ("before_first_play", "before_first_lead"):
            self.report("declaration-stand-in", "`stand_in` goes with an `of` pattern of a declaration made "
                        "before_first_play or before_first_lead (only then are the shown cards chosen)", f"{at}/stand_in", key=True)
            return
        for j, card in enumerate(pattern["stand_in"]):
            if card not in pattern["of"]:
                self.report("declaration-stand-in", f"the stand-in {card} is not one of the set's cards",
                            f"{at}/stand_in/{j}", "list it in `of` too")

    def check_exempt(self, follow: dict[str, Any], at: str) -> None:
        """A follow block's exempt cards (`play.follow`, `play.draw.while_stock`) are cards of the pack."""
        for i, card in enumerate(follow.get("exempt", [])):
            self.card(f"{at}/exempt/{i}", card, trump_relative=True)

    def check_play(self) -> None:
        self.check_exempt(self.data.get("play", {}).get("follow", {}), "/play/follow")
        players = self.data["players"]
        alone = players.get("sides", "teams") == "teams" and all(len(team) < 2 for team in players.get("teams") or [[]])
        if self.data.get("play", {}).get("follow", {}).get("when_partner_winning") == "free" and alone:
            self.report("unused-setting", "when_partner_winning: free never applies: no seat has a partner",
                        "/play/follow/when_partner_winning", "leave it out, or give players.teams partnerships",
                        severity="warning")
        play = self.data.get("play", {})
        if play.get("dummy") and (players.get("sides", "teams") != "teams" or play.get("first_lead") != "after_maker"
                                  or any(len(team) != 2 for team in players.get("teams", [[0]]))
                                  or "sit_out" in players):
            self.report("dummy-invalid", "a dummy is the declarer's partner, laid face up after the opening lead: it "
                        "needs teams of two, every seat in play, and the opening lead by the player after the "
                        "declarer", "/play/dummy", "use teams of two seats and first_lead: after_maker, or drop dummy")
        if play.get("draw") is not None:
            self.check_draw(play["draw"], play.get("follow", {}))
        if play.get("first_lead") == "chooser" and self.data["trump"]["method"] != "choose":
            self.report("unused-setting", "first_lead: chooser needs trump.method choose; the elder leads instead",
                        "/play/first_lead", "use first_lead: elder", severity="warning")

    def check_draw(self, draw: dict[str, Any], follow: dict[str, Any]) -> None:
        """Drawing from the stock needs a stock that every player's draws empty together, and stays out
        of the concepts that move cards or fix the hand's length otherwise (not combined yet)."""
        steps = self.data["deal"]
        if not any("stock" in step for step in steps):
            self.report("draw-without-stock", "play.draw refills the hands from a stock, but the deal makes none",
                        "/play/draw", "end the deal with {stock: rest} (and {turn_up: stock_top} for a turned trump)")
            return
        beside = [what for what, used in (
            ("cards set aside", any("set_aside" in step for step in steps)),
            ("a kitty", any("kitty" in step for step in steps)),
            ("a packet dealt after the decide step", any("packet" in step for step in steps[next(
                (i for i, step in enumerate(steps) if "decide" in step), len(steps)):])),
            ("players.sit_out", "sit_out" in self.data["players"]),
            ("deck.copies", self.data["deck"].get("copies", 1) > 1),
            ("contracts", bool(self.data.get("contracts"))),
            ("trump.offer", self.data["trump"].get("method") == "offer"),
            ("trump.auction", "auction" in self.data["trump"]),
            ("bids", "bids" in self.data), ("passing", "passing" in self.data),
            ("declarations found in the hands as dealt (all but scope: trick, when: led and when: trick_won)", any(
                item.get("scope") != "trick" and item.get("when") not in ("led", "trick_won")
                for item in (self.data.get("declarations") or {}).values())),
            ("play.dummy", bool(self.data.get("play", {}).get("dummy")))) if used]
        if beside:
            self.report("draw-not-combined", f"play.draw is not combined yet with {', '.join(beside)}", "/play/draw",
                        "leave those out of a game that draws from the stock")
            return
        cards, seats, size = draw.get("cards", 1), self.seats, self.size()
        shares = []
        if "exchange" in draw:
            if not any("turn_up" in step for step in self.data["deal"]):
                self.report("exchange-without-turn-up", "the exchange trades a card for the card turned up under the "
                            "stock, but the deal turns none up", "/play/draw/exchange",
                            "add {turn_up: stock_top} after the deal's stock step")
            trades = draw["exchange"]
            for i, exchange in enumerate(trades) if isinstance(trades, list) else ((None, trades),):
                self.check_exchange(exchange, size - seats * self.fewest_tricks,
                                    "/play/draw/exchange" + ("" if i is None else f"/{i}"))
        for dealt in sorted({self.fewest_tricks, self.tricks}):
            stock = size - seats * dealt
            if stock % (seats * cards):
                self.report("draw-uneven", f"after a deal of {dealt} cards each the stock holds {stock} cards "
                            f"(the turned card included), which the {seats} players drawing {cards} each after a "
                            "trick do not take evenly", "/play/draw", "change the cards dealt, drawn or the deck")
            shares.append(dealt + stock // seats)
        self.fewest_tricks, self.tricks = min(shares), max(shares)  # the hand's tricks: dealt and drawn
        if draw.get("follow_obligations") == "once_stock_empty" and follow.get("led_suit") == "any":
            self.report("unused-setting", "follow_obligations: once_stock_empty changes nothing: play.follow sets no "
                        "duty to follow", "/play/draw/follow_obligations", "leave it out", severity="warning")
        if "while_stock" in draw:
            self.check_while_stock(draw)

    def check_while_stock(self, draw: dict[str, Any]) -> None:
        """What binds while cards are left to draw replaces `play.follow` only then (once_stock_empty), and
        knows no seats: a partner's trick frees nobody while the stock lasts."""
        at = "/play/draw/while_stock"
        if draw.get("follow_obligations") != "once_stock_empty":
            self.report("while-stock-unused", "while_stock says what binds while cards are left to draw, but "
                        "play.follow binds every trick (follow_obligations: always)", at,
                        "add follow_obligations: once_stock_empty, or leave while_stock out", key=True)
        if "when_partner_winning" in draw["while_stock"]:
            self.report("while-stock-unused", "a partner's winning card frees nobody while cards are left to draw: "
                        "when_partner_winning is read in play.follow only", f"{at}/when_partner_winning",
                        "leave it out", key=True)
        self.check_exempt(draw["while_stock"], at)

    def check_exchange(self, exchange: dict[str, Any], stock: int, at: str) -> None:
        """The card traded for the turned card is a card of the pack (or a rank of the trump suit, in a game
        with trump), the stock the deal leaves (``stock``, at its
        largest, the turned card included) may hold `min_stock` cards, and the turned ranks are the deck's."""
        card = str(exchange["card"])
        for j, rank in enumerate(exchange.get("turned", [])):
            self.rank(f"{at}/turned/{j}", str(rank))
        self.card_or_trump_card(f"{at}/card", card)
        if card.upper().endswith("T") and "T" not in self.suits \
                and self.data.get("trump", {}).get("method", "none") == "none" and "trump_suit" not in self.data["deck"]:
            self.report("exchange-needs-trump", f"'{card}' names a card of the trump suit, but the game has no trump",
                        f"{at}/card", "name the card, or give the game a trump (trump.method: turned)", severity="warning")
        least = exchange.get("min_stock", 2)
        if least > stock:
            self.report("exchange-never-offered", f"min_stock: {least}, but the deal leaves {stock} cards in the stock "
                        "at most (the turned card included): the exchange is never offered", f"{at}/min_stock",
                        f"ask for {stock} or fewer", severity="warning")

    def check_auction_values(self, auction: dict[str, Any]) -> None:
        """A ladder of contracts is bid once round (procedure once); numbers rising from the lowest are bid in
        pairs, round the table or open (procedures pairs, rounds, open); the declarer's kitty decision needs a
        contract picked after the numbers (pairs, rounds), a kitty, and no bids of tricks; only an auction round
        the table has a last seat left to stick with the lowest value."""
        procedure = auction.get("procedure", "once")
        pairs = procedure != "once"  # pairs, rounds and open bid numbers
        values = auction.get("values")
        if auction.get("on_all_pass") == "last_seat_declares" and procedure != "rounds":
            self.report("last-seat-declares-invalid", "on_all_pass: last_seat_declares gives the contract to the "
                        "last seat left when every other seat has passed out of the bidding, which only procedure "
                        f"rounds has; the procedure is {procedure}", "/trump/auction/on_all_pass",
                        "use procedure: rounds, or on_all_pass: redeal")
        if pairs != (values is not None) or pairs == ("ladder" in auction):
            self.report("auction-values-invalid", "procedures pairs, rounds and open bid `values` (numbers), procedure once "
                        "a `ladder` of contracts; this auction gives " + ("neither" if values is None and
                        "ladder" not in auction else "the other"), "/trump/auction",
                        "write procedure: pairs with values: [18, 20, ...], or ladder: [...] alone")
            return
        self.check_doubling(auction, procedure)
        self.check_open_keys(auction, procedure)
        if values is not None and any(b <= a for a, b in zip(values, values[1:])):
            self.report("auction-values-invalid", "the auction's values must rise, each above the one before",
                        "/trump/auction/values", "list the numbers lowest first, without repeats")
        if values is not None and "bids" in self.data:
            self.report("auction-values-invalid", "a numeric auction and bids of tricks would share the `bid N` "
                        "actions", "/trump/auction/values", "drop the `bids` section")
        if auction.get("kitty", "by_contract") == "declarer_decides":
            takes = [k for k, c in (self.data.get("contracts") or {}).items() if (c.get("kitty") or {}).get("taken")]
            picked = procedure in ("pairs", "rounds")  # the contract picked after the auction
            if not picked or self.kitty_size is None or takes:
                why = ("needs procedure pairs or rounds (the contract picked after the auction)" if not picked else
                       "needs a kitty step in the deal" if self.kitty_size is None else
                       f"leaves no kitty for contract {takes[0]} to take")
                where = f"/contracts/{escape(takes[0])}/kitty" if takes and picked \
                    and self.kitty_size is not None else "/trump/auction/kitty"
                self.report("kitty-choice-invalid", f"kitty: declarer_decides {why}", where,
                            "deal a {kitty: N} step, use procedure pairs or rounds, and take the kitty by the "
                            "declarer's decision alone")

    def check_all_pass(self, auction: dict[str, Any], contracts: dict[str, Any]) -> None:
        """`on_all_pass: {contract}` plays a contract with no declarer, each seat for itself: it must name
        a contract that needs no declarer (its trump fixed, the cards aside nobody's or the last trick's),
        and the scoresheet must keep a score per seat."""
        rule = auction.get("on_all_pass")
        if not isinstance(rule, dict):
            return
        key, pointer = rule["contract"], "/trump/auction/on_all_pass/contract"
        contract = contracts.get(key)
        if contract is None:
            self.report("all-pass-contract-invalid", f"on_all_pass names '{key}', which is not a contract", pointer,
                        did_you_mean(key, contracts) or "declare the contract under `contracts` and name it here")
        else:
            base = f"/contracts/{escape(key)}"
            trump, aside = contract.get("trump", "named"), contract.get("aside_counts_for", "nobody")
            why, where, hint = (
                ("lets its trump be named, but nobody declares it", f"{base}/trump",
                 "fix its trump: a suit, none, promoted or all_suits") if trump == "named" else
                (f"gives the cards aside to the {aside}, but nobody declares it", f"{base}/aside_counts_for",
                 "give them to nobody or last_trick") if aside in ("declarer", "opponents") else
                ("is not enabled", f"{base}/enabled", "enable it") if not contract.get("enabled", True)
                else (None, "", ""))
            if why:
                self.report("all-pass-contract-invalid", f"contract {key} is played when everyone passes "
                            f"(trump.auction.on_all_pass) and {why}", where, hint)
        sides = self.data["players"].get("sides", "teams")
        if sides != "declarer_alone":
            self.report("all-pass-contract-sides", f"on_all_pass plays contract {key} with every seat for itself, "
                        f"but players.sides: {sides} keeps the score by {'fixed teams' if sides == 'teams' else 'side'}",
                        "/trump/auction/on_all_pass",
                        "use players.sides: declarer_alone (a score per seat), or on_all_pass: redeal")
        if "side_card" in rule:  # the hand everyone passed into is played by hidden sides, as card_holders'
            self.card("/trump/auction/on_all_pass/side_card", str(rule["side_card"]))
            self.check_hidden_sides("on_all_pass with a side_card", {
                p: what for p, what in self.HIDDEN_SIDES_APART.items() if p not in ("/trump/method", "/contracts")},
                "leave the side_card out (every seat for itself)")

    # what a called partner (contracts.<id>.call) is not played with: the rules card_holders' hidden sides
    # are not played with, but for the trump decided by the players and the contracts the call belongs to, card
    # roles and declarations (their sides are read when the hand is scored, or on its forced last trick), and the
    # declarer's own announcements (his side is public); announcements that ask or seat his partners are refused
    CALL_APART = tuple(p for p in HIDDEN_SIDES_APART
                       if p not in ("/trump/method", "/contracts", "/deal", "/card_roles", "/declarations"))

    def check_calls(self, contracts: dict[str, Any], all_pass: str | None) -> None:
        """A contract's call: its cards exist, its declarer is one seat whose side the call completes, and
        no rule the hidden partner would leak through."""
        called = [key for key, contract in contracts.items() if "call" in contract]
        sides = self.data["players"].get("sides", "teams")
        for key in called:
            base = f"/contracts/{escape(key)}/call"
            fallbacks = contracts[key]["call"].get("otherwise", [])
            tiers = fallbacks if fallbacks and isinstance(fallbacks, list) and isinstance(fallbacks[0], list) else None
            lists = [("cards", contracts[key]["call"]["cards"])] + (
                [(f"otherwise/{i}", tier) for i, tier in enumerate(tiers)] if tiers else [("otherwise", fallbacks)])
            for part, cards in lists:
                if isinstance(cards, str):
                    self.card_set(f"{base}/{part}", cards, "a call")
                else:
                    for i, card in enumerate(cards):
                        self.card(f"{base}/{part}/{i}", str(card))
            if sides != "declarer_alone":
                self.report("call-needs-declarer-sides", f"contract {key} calls a partner for its declarer, but "
                            f"players.sides: {sides} fixes the sides otherwise", base,
                            "use players.sides: declarer_alone (the declarer, and the holder of the card he calls)")
            trump = self.data["trump"]
            if trump["method"] != "auction" or (trump.get("auction") or {}).get("procedure", "once") != "once":
                self.report("call-needs-ladder", f"contract {key} calls a partner, which only a ladder bid once round "
                            "lets a seat bid when it has a card to call", base,
                            "use trump: {method: auction, auction: {ladder: [...]}} (procedure once)")
            self.check_call_duties(key, contracts[key]["call"], base)
            if key == all_pass:
                self.report("call-without-declarer", f"contract {key} is played when everyone passes, with no "
                            "declarer to call a partner", base, "leave the call out of that contract")
            steps = [step for step in self.data.get("deal") or () if isinstance(step, dict)]
            later = next((i for i, step in enumerate(steps) if "decide" in step), len(steps)) + 1 < len(steps)
            if contracts[key]["call"].get("when") == "before_kitty" and not later \
                    and not any("kitty" in step for step in steps):
                self.report("unused-setting", f"contract {key} calls before the kitty, but the deal has no kitty "
                            "and nothing dealt after the decision: the call comes at the same moment either way",
                            f"{base}/when", "leave `when` out", severity="warning")
        if not called:
            return
        data, players = self.data, self.data["players"]
        present = {"/players/sit_out": "sit_out" in players, "/deck/copies": data["deck"].get("copies", 1) > 1,
                   # the declarer's own announcements tell nothing hidden, nor one made for the announcer's side,
                   # nor one asked of every seat during the deal
                   "/announcements": any(not isinstance(a, dict) or "for_side" not in a and a.get("by") != "each_seat"
                                         and (a.get("by") != "declarer" or {"after", "holder_of", "sits_out"} & a.keys())
                                         for a in (data.get("announcements") or {}).values()),
                   "/play/follow/when_partner_winning":
                       data.get("play", {}).get("follow", {}).get("when_partner_winning", "as_usual") != "as_usual"}
        apart = {**{p: self.HIDDEN_SIDES_APART[p] for p in self.CALL_APART}, "/deck/copies": "copies of a card"}
        for pointer, what in apart.items():
            if present.get(pointer, bool(data.get(pointer[1:]))):
                self.report("hidden-sides-unsupported", f"a called partner (contracts.{called[0]}.call) stays hidden "
                            f"until the card is played, which {what} would break or is not supported with", pointer,
                            "leave it out, or drop the call")

    def check_bid_by_play(self, contracts: dict[str, Any], all_pass: str | None) -> None:
        """`bidder_holds` and `partner_by_trick` belong to a contract bid on a ladder once round (the legal bids
        read the bidder's cards; the partner joins a declarer alone); no card roles beside a partner by a trick."""
        auction = self.data["trump"].get("auction") or {}
        on_ladder = self.data["trump"]["method"] == "auction" and auction.get("procedure", "once") == "once"
        sides = self.data["players"].get("sides", "teams")
        for key, contract in contracts.items():
            base = f"/contracts/{escape(key)}"
            if "bidder_holds" in contract:
                for i, card in enumerate(contract["bidder_holds"]):
                    self.card(f"{base}/bidder_holds/{i}", str(card))
                if not on_ladder or key == all_pass:
                    self.report("bidder-holds-invalid", f"contract {key} may be bid only by the holder of its cards, "
                                "which only a ladder bid once round checks" if key != all_pass else
                                f"contract {key} is played when everyone passes, bid by nobody",
                                f"{base}/bidder_holds", "use trump: {method: auction, auction: {ladder: [...]}}, or "
                                "leave bidder_holds out")
            if "partner_by_trick" not in contract:
                continue
            why = ("players.sides is " + sides + ", not declarer_alone" if sides != "declarer_alone" else
                   "it is not bid on a ladder once round" if not on_ladder else
                   "it calls a partner too" if "call" in contract else
                   "it is played when everyone passes, with no declarer" if key == all_pass else
                   "card roles settle tricks otherwise" if self.data.get("card_roles") else None)
            if why:
                self.report("partner-by-trick-invalid", f"contract {key} finds the declarer a partner by a trick, "
                            f"but {why}", f"{base}/partner_by_trick",
                            "a declarer alone (players.sides: declarer_alone) who bid it on a ladder once round")

    def check_called_suit_lead(self, contracts: dict[str, Any]) -> None:
        """`play.no_called_suit_first_lead` bars the suit of a called card: some contract must call one, here
        or in a variant an option of the document makes (a player count whose patch brings the call)."""
        who = (self.data.get("play") or {}).get("no_called_suit_first_lead")
        if who is None or any("call" in contract for contract in contracts.values()):
            return
        patches = [entry.get("patch") for option in (self.document_options or {}).values() if isinstance(option, dict)
                   for entry in option.get("patches") or () if isinstance(entry, dict)]
        if not any(isinstance(patch, dict) and isinstance(patch.get("contracts"), dict)
                   and any(isinstance(c, dict) and c.get("call") for c in patch["contracts"].values())
                   for patch in patches):
            self.report("called-suit-lead-without-call", f"play.no_called_suit_first_lead: {who} bars the called card's "
                        "suit from the first lead, but no contract calls a card", "/play/no_called_suit_first_lead",
                        "give a contract a `call` (contracts.<id>.call), or leave no_called_suit_first_lead out")

    def check_call_duties(self, key: str, call: dict[str, Any], base: str) -> None:
        """A call's running away (`runs_away_with`) lifts `leads_it_first`, and needs as many cards of a suit as the deck has."""
        run = call.get("runs_away_with")
        if run is None:
            return
        if not call.get("leads_it_first", False):
            self.report("call-runs-away-without-lead-duty", f"contract {key}'s call lets the holder run away with {run} cards "
                        "of the called suit, but no duty (leads_it_first) keeps him from leading them", f"{base}/runs_away_with",
                        "add leads_it_first: true, or leave runs_away_with out")
        ranks = self.data["deck"].get("ranks")
        per_suit = len(ranks) * self.data["deck"].get("copies", 1) if isinstance(ranks, list) else None
        if per_suit is not None and run > per_suit:
            self.report("call-runs-away-unreachable", f"contract {key}'s call lets the holder run away with {run} cards of "
                        f"the called suit, but a suit has {per_suit}", f"{base}/runs_away_with",
                        f"use at most {per_suit}, or leave runs_away_with out")

    def fact_ranges(self) -> dict[str, tuple[float, float]]:
        """The least and most of the facts an auction settles: the value bid and the doubling level."""
        auction = self.data["trump"].get("auction") or {}
        values, levels = auction.get("values"), auction.get("doubling") or [1]
        ranges = {"doubled": (1.0, float(max(levels)))}
        if values:
            ranges["bid_value"] = (float(min(values)), float(max(values)))
        return ranges

    def check_open_keys(self, auction: dict[str, Any], procedure: str) -> None:
        """How a bid outbids the last, who declares and whether a double closes the bidding are an open
        auction's (the bidding goes round, each bid a value and a strain)."""
        for key, default in (("outbid", "value"), ("declarer", "last_bidder"), ("double_ends_bidding", True)):
            if auction.get(key, default) != default and procedure != "open":
                self.report("open-auction-key", f"{key} says how an open auction's bidding goes, but the procedure is "
                            f"{procedure}", f"/trump/auction/{key}", "use procedure: open, or drop it")
        values = auction.get("values") or []
        for name, contract in (self.data.get("contracts") or {}).items():
            bid_at = contract.get("bid_values") if isinstance(contract, dict) else None
            if bid_at is None:
                continue
            pointer = f"/contracts/{escape(name)}/bid_values"
            if procedure != "open":
                self.report("open-auction-key", f"bid_values says at which values an open auction bids {name}, but "
                            f"the procedure is {procedure}", pointer, "use procedure: open, or drop it", key=True)
            elif any(v not in values for v in bid_at):
                wrong = [v for v in bid_at if v not in values]
                self.report("open-auction-key", f"bid_values {wrong} are not values of the auction ({values})",
                            pointer, "name values of trump.auction.values")
        if auction.get("pass_is_final") and (procedure != "open" or auction.get("doubling")):
            self.report("open-auction-key", "pass_is_final takes a player out of an open auction for good, but "
                        + (f"the procedure is {procedure}" if procedure != "open" else "this one doubles, and a "
                           "double is answered by seats that may have passed"), "/trump/auction/pass_is_final",
                        "use procedure: open without doubling, or drop it", key=True)
        for key, what in (("laps", "limits how often each player bids round the table"),
                          ("dealer_holds", "lets the dealer hold the last bid round the table")):
            if key in auction and procedure != "rounds":
                self.report("unused-setting", f"{key} {what}, but the procedure is {procedure}",
                            f"/trump/auction/{key}", f"use procedure: rounds, or drop {key}", key=True,
                            severity="warning")
        if not auction.get("double_ends_bidding", True) and auction.get("double_out_of_turn"):
            self.report("doubling-invalid", "double_out_of_turn asks whether to double between calls, but a double "
                        "that does not end the bidding is a call of its own", "/trump/auction/double_out_of_turn",
                        "drop double_out_of_turn, or let a double end the bidding")

    def check_doubling(self, auction: dict[str, Any], procedure: str) -> None:
        """Doubling raises the last bid of an open auction (the bidding goes round, so an opponent is
        asked after it) or the contract a pairs auction fixed, each level above the one before."""
        levels = auction.get("doubling")
        if auction.get("double_out_of_turn") and (levels is None or procedure != "open"):
            self.report("doubling-invalid", "double_out_of_turn asks the opponents of an open auction's last bid "
                        "whether to double it, but " + ("there is no doubling" if levels is None else
                                                        f"the procedure is {procedure}"),
                        "/trump/auction/double_out_of_turn", "use procedure: open with doubling: [2, 4], or drop it")
        if levels is None:
            return
        if procedure == "once":
            self.report("doubling-invalid", "doubling needs procedure open, pairs or rounds; a ladder bid once "
                        "round has no bid value for `doubled` to raise", "/trump/auction/doubling",
                        "use procedure: open, pairs or rounds, or drop doubling")
        elif any(b <= a for a, b in zip(levels, levels[1:])):
            self.report("doubling-invalid", "the levels of doubling must rise, each above the one before",
                        "/trump/auction/doubling", "list them lowest first, as [2, 4]")

    def check_contracts(self) -> None:
        """Contracts go with a choice; one at most has its trump named; their orders, points and suits exist."""
        contracts: dict[str, Any] = self.data.get("contracts") or {}
        choose = self.data["trump"].get("choose", {})
        if "first_hand" in choose and self.card("/trump/choose/first_hand/holder_of", choose["first_hand"]["holder_of"]):
            self.single_holder("/trump/choose/first_hand/holder_of", "trump.choose.first_hand.holder_of")
        delegate = choose.get("delegate")
        players = self.data["players"]
        if delegate and delegate.get("to", "partner") == "partner" and (players.get("sides", "teams") != "teams" or any(
                len(team) != 2 for team in players.get("teams", [[0, 1]]))):  # sides per hand: no partner yet
            self.report("delegate-needs-partner", "delegate to: partner needs teams of exactly two seats",
                        "/trump/choose/delegate", "use to: next, or teams of two")
        auction = self.data["trump"].get("auction") or {}
        open_auction = auction.get("procedure") == "open"  # its bids name a suit (or a contract)
        if self.data["trump"]["method"] == "auction" and not ((contracts or open_auction) and auction):
            self.report("auction-ladder-invalid", "an auction needs `contracts` and `trump.auction` with their ladder",
                        "/trump/method", "declare the contracts, then trump: {method: auction, auction: {ladder: [...]}}")
        elif auction:
            self.check_auction_values(auction)
            self.check_all_pass(auction, contracts)
        if not contracts:
            return
        if self.data["trump"]["method"] not in ("choose", "auction"):
            self.report("contracts-need-choose", "contracts are picked by a chooser, but trump.method is "
                        f"'{self.data['trump']['method']}'", "/contracts", "use trump: {method: choose}", key=True)
        all_pass = auction.get("on_all_pass")
        all_pass = all_pass.get("contract") if isinstance(all_pass, dict) else None
        # the contract played when everyone passes is offered to no declarer
        enabled = {k: c for k, c in contracts.items() if c.get("enabled", True) and k != all_pass}
        # a list in the ladder is a rung of equal contracts: each is checked where it stands
        named_at = [(f"/trump/auction/ladder/{i}", item) if isinstance(item, str) else (f"/trump/auction/ladder/{i}/{j}", key)
                    for i, item in enumerate(auction.get("ladder", [])) for j, key in enumerate(
                        [item] if isinstance(item, str) else item)]
        seen: set[str] = set()
        for pointer, key in named_at:
            contract = contracts.get(key)
            if contract is None or key not in enabled or contract.get("trump", "named") == "named" or key in seen:
                why = ("is not a contract" if contract is None else "is played when everyone passes "
                       "(trump.auction.on_all_pass), never bid" if key == all_pass else "is not enabled"
                       if key not in enabled else "lets its trump be named, which a bid cannot say"
                       if contract.get("trump", "named") == "named" else "it names already")
                named_trump = contract is not None and contract.get("trump", "named") == "named"
                hint = ((did_you_mean(key, enabled) if contract is None else None)
                        or "to bid a number and name trump after, use a numeric auction (trump.auction.values)"
                        if named_trump else "list enabled contracts that fix their trump (a suit or none), each once")
                self.report("auction-ladder-invalid", f"the auction's ladder names '{key}', which {why}", pointer, hint)
            seen.add(key)
        named = [k for k, c in enabled.items() if c.get("trump", "named") == "named"]
        if not enabled:
            self.report("contracts-none-enabled", "every contract has enabled: false or is played when everyone "
                        "passes: the chooser could pick nothing",
                        "/contracts", "enable at least one contract", key=True)
        if len(named) > 1:
            self.report("contracts-several-named", f"contracts {', '.join(named)} all let the chooser name the trump "
                        "suit; `name SUIT` could not say which", f"/contracts/{escape(named[1])}/trump",
                        "keep one contract with trump: named (others fix a suit or have none)")
        self.check_calls(contracts, all_pass)
        self.check_bid_by_play(contracts, all_pass)
        for key, contract in contracts.items():
            base = f"/contracts/{escape(key)}"
            kitty = contract.get("kitty") or {}
            if (kitty.get("shown") or kitty.get("taken")) and self.kitty_size is None:
                self.report("kitty-without-step", f"contract {key} shows or takes the kitty, but the deal has no "
                            "kitty step", f"{base}/kitty", "deal the kitty with a {kitty: N} step before {decide: trump}")
            if contract.get("aside_counts_for") == "opponents" and self.nsides != 2:
                self.report("aside-needs-two-teams", "aside_counts_for: opponents needs exactly two teams",
                            f"{base}/aside_counts_for", "use declarer or nobody, or two teams")
            trump = str(contract.get("trump", "named"))
            fixed = [str(p["card"]).upper() for p in self.data["deck"].get("promotions", []) if "card" in p]
            own = [str(c) for c in contract.get("promoted", fixed)]
            for i, card in enumerate(own if "promoted" in contract else ()):
                if self.card(f"{base}/promoted/{i}", card) and card.upper() not in fixed:
                    self.report("contract-promoted-not-promotion", f"contract {key} promotes {card}, which no "
                                "promotion of the deck names", f"{base}/promoted/{i}",
                                f"deck.promotions' cards: {', '.join(fixed)}" if fixed
                                else "promote it in deck.promotions first ({card: ..., top: true})")
            if trump == "promoted" and not own:
                self.report("trump-promoted-without-cards", f"contract {key} makes the promoted cards the only trumps, "
                            "but " + ("its `promoted` lists none" if fixed else "the deck promotes no fixed card"),
                            f"{base}/trump", "promote cards with deck.promotions (card: JC, top: true) and list "
                            "them in the contract's promoted, or use trump: none")
            if trump == "none" and "promoted" in contract:
                self.report("unused-setting", f"contract {key} has no trumps: its `promoted` cards stay plain cards",
                            f"{base}/promoted", "remove promoted, or use trump: promoted", key=True,
                            severity="warning")
            if trump == "all_suits" and contract.get("points"):
                self.report("unused-setting", f"contract {key} plays every suit as trumps: its cards count "
                            "trump_points, never points", f"{base}/points", "write the points as trump_points",
                            key=True, severity="warning")
            if trump not in ("named", "none", "promoted", "all_suits", "first_lead") and trump not in self.suits:
                self.report("unknown-suit", f"'{trump}' is not a suit of this deck", f"{base}/trump",
                            did_you_mean(trump, self.suits) or f"suits: {', '.join(self.suits)}")
            ranks = [str(r) for r in contract.get("ranks") or []]
            if ranks:
                known = [self.rank(f"{base}/ranks/{i}", r) for i, r in enumerate(ranks)]
                missing = [r for r in self.ranks if r not in ranks]
                if all(known) and missing:
                    self.report("contract-ranks-not-permutation", f"contract {key}: ranks leaves out "
                                f"{', '.join(missing)}", f"{base}/ranks", "list every rank once, highest first")
            for table in ("points", "trump_points"):
                for rank in contract.get(table) or {}:
                    self.rank(f"{base}/{table}/{escape(str(rank))}", str(rank), key=True)
            multiplier = contract.get("multiplier", 1)
            if isinstance(multiplier, dict):
                for suit in multiplier:
                    if suit not in self.suits:
                        self.report("unknown-suit", f"'{suit}' is not a suit of this deck", f"{base}/multiplier/{suit}",
                                    did_you_mean(suit, self.suits) or f"suits: {', '.join(self.suits)}", key=True)
                if trump != "named":
                    self.report("unused-setting", f"contract {key} fixes its trump: a multiplier per suit has one "
                                "value that applies", f"{base}/multiplier", "give a single number", key=True,
                                severity="warning")

    def card_class(self, pointer: str, item: dict[str, Any]) -> set[str]:
        """The cards of one card class ({rank: K}, {suit: T}, {set: bouts}, {card: EX}), checking its id."""
        kind, key = next(iter(item.items()))
        key = str(key)
        if kind == "rank":
            if not self.rank(f"{pointer}/rank", key):
                return set()
            return {key + s for s in self.suits if key in self.suit_ranks[s]}
        if kind == "suit":
            if key not in self.suits:
                self.report("unknown-suit", f"'{key}' is not a suit of this deck", f"{pointer}/suit",
                            did_you_mean(key, self.suits) or f"suits: {', '.join(self.suits)}")
                return set()
            return {r + key for r in self.suit_ranks[key]}
        if kind == "set":
            if not self.card_set(f"{pointer}/set", key, "a card class"):
                return set()
            return {c.upper() for c in self.data["deck"]["card_sets"][key]}
        return {key.upper()} if self.card(f"{pointer}/card", key) else set()

    def card_set(self, pointer: str, name: str, user: str) -> bool:
        """Whether ``name`` is a card set of the deck holding the same cards in every hand (reported where not)."""
        sets = self.data["deck"].get("card_sets") or {}
        if name not in sets:
            self.report("unknown-card-set", f"no card set '{name}' in deck.card_sets", pointer,
                        did_you_mean(name, sets) or f"card sets: {', '.join(sets) or 'none'}")
            return False
        return self.fixed_set(pointer, name, user)

    def fixed_set(self, pointer: str, name: str, user: str) -> bool:
        """Whether card set ``name`` holds the same cards in every hand; a set naming trump cards (``AT``)
        is reported: only expressions follow the hand's trump (``user`` says what reads the set here)."""
        extras = {e.upper() for e in self.extras}
        trump_cards = [c for c in self.data["deck"]["card_sets"][name]
                       if str(c).upper().endswith("T") and "T" not in self.suits and str(c).upper() not in extras]
        if trump_cards:
            self.report("card-set-follows-trump", f"card set '{name}' names trump cards ({', '.join(trump_cards)}), "
                        f"which change with the hand's trump; {user} needs cards fixed before the deal", pointer,
                        "name the cards themselves in a set of their own, or read the set in a scoring expression")
        return not trump_cards

    def check_leads(self) -> None:
        """The cards the lead rules name exist; the called suit's bar has a call to read."""
        play = self.data.get("play") or {}
        self.check_called_suit_lead(self.data.get("contracts") or {})
        for key in ("lead_once_broken", "not_on_first_trick"):
            for i, item in enumerate(play.get(key) or []):
                self.card_class(f"/play/{key}/{i}", item)
        if play.get("first_lead_card") is not None and self.card("/play/first_lead_card", str(play["first_lead_card"])):
            self.single_holder("/play/first_lead_card", "play.first_lead_card")
            undealt = [step for step in self.data["deal"] if isinstance(step, dict) and
                       any(key in step for key in ("stock", "set_aside", "kitty"))]
            if undealt:
                self.report("first-lead-card-undealt", "play.first_lead_card needs every card dealt to the players, but "
                            "the deal keeps some back: who leads would tell the table whether the card was dealt",
                            "/play/first_lead_card", "leave first_lead_card out, or deal every card")

    def check_equal_cards(self) -> None:
        """`play.equal_cards` needs a pack of copies, names cards of the pack, and lets a later copy
        win only where no follow duty asks for a card that beats the winning one."""
        play = self.data.get("play") or {}
        equal = play.get("equal_cards")
        if equal is None:
            return
        for i, card in enumerate(equal.get("cards") or []):
            self.card(f"/play/equal_cards/cards/{i}", str(card))
        if self.copies == 1:
            self.report("equal-cards-without-copies", "play.equal_cards says which of equal cards wins a trick, but the "
                        "pack has one copy of each card (deck.copies), so no two cards are equal", "/play/equal_cards",
                        "leave equal_cards out, or set deck.copies")
            return
        follow = play.get("follow") or {}
        duties = [key for key in ("head", "overtrump") if follow.get(key, "never") != "never"]
        if duties and "second" in (equal.get("wins"), equal.get("last_trick")):
            self.report("equal-cards-heading", f"play.equal_cards lets the second of equal cards win, but the follow "
                        f"duty to beat the winning card (play.follow.{duties[0]}) does not count a copy of it as higher",
                        "/play/equal_cards", f"leave play.follow.{duties[0]} at never, or let the first of equal cards win")

    def check_bids(self) -> None:
        """Some bid is possible, and none above the tricks of a hand."""
        bids = self.data.get("bids")
        if bids is None:
            return
        lowest, highest = bids.get("lowest", 0), bids.get("highest", self.tricks)
        largest = "a hand" if self.fewest_tricks == self.tricks else "the largest hand"
        if highest > self.tricks:
            self.report("bids-out-of-range", f"bids.highest is {highest}, but {largest} has only {self.tricks} tricks",
                        "/bids/highest", f"bid at most {self.tricks}, or leave highest out (the tricks of a hand)")
        elif lowest > min(highest, self.fewest_tricks):  # a hand's bids stop at its tricks
            self.report("bids-out-of-range", f"bids.lowest ({lowest}) is above the highest bid "
                        f"({min(highest, self.fewest_tricks)}{'' if highest <= self.fewest_tricks else ' in the smallest hand'}): "
                        "nobody could bid", "/bids/lowest", "make lowest at most highest")
        blind = bids.get("blind")
        if "blind_exchange" in bids:
            self.check_blind_exchange(bids["blind_exchange"], blind is not None)
        if blind is None:
            return
        if not lowest <= blind["bid"] <= min(highest, self.fewest_tricks):
            self.report("bids-out-of-range", f"bids.blind.bid is {blind['bid']}, outside the bids "
                        f"({lowest} to {min(highest, self.fewest_tricks)})", "/bids/blind/bid",
                        "make the blind bid one of the bids")
        looked = [what for what, used in (
            (f"trump.method {self.data['trump']['method']}",
             self.data["trump"]["method"] not in ("none", "turned", "drawn")),
            ("passing", "passing" in self.data)) if used]
        if looked:
            self.report("blind-bid-after-decision", f"a blind bid is made before looking at one's cards, but "
                        f"the seats decide with their cards before the bids ({', '.join(looked)})", "/bids/blind",
                        "use blind bids where nothing is decided before the bids (trump.method none, turned or "
                        "drawn, no passing)")

    def check_blind_exchange(self, exchange: dict[str, Any], blind: bool) -> None:
        """A blind bidder exchanges cards with his partner across the table, fewer than a hand holds."""
        players = self.data["players"]
        n = players["count"]
        teams = players.get("teams", [])
        across = players.get("sides", "teams") == "teams" and n % 2 == 0 and len(teams) == n // 2 and all(
            len(team) == 2 and (team[0] + n // 2) % n == team[1] for team in teams)
        if not blind:
            self.report("blind-exchange-invalid", "bids.blind_exchange is the blind bidders' exchange, but nobody "
                        "may bid blind (no bids.blind)", "/bids/blind_exchange", "add bids.blind, or drop the exchange",
                        key=True)
        elif not across:
            self.report("blind-exchange-invalid", "a blind bidder exchanges cards with his partner, but the seats "
                        "are not in teams of two partners seated opposite", "/bids/blind_exchange",
                        "seat partners across the table (teams: [[0, 2], [1, 3]]), or drop the exchange", key=True)
        elif exchange["cards"] >= self.fewest_tricks:
            self.report("blind-exchange-invalid", f"the exchange gives {exchange['cards']} cards, but a hand "
                        f"holds {self.fewest_tricks}", "/bids/blind_exchange/cards", "give fewer cards than a hand holds")

    def check_tallies(self) -> None:
        """A tally is a team's count: the teams must stay the same from hand to hand."""
        sides = self.data["players"].get("sides", "teams")
        if self.data.get("tallies") and sides != "teams":
            self.report("tallies-need-teams", f"tallies are counted per team, but with sides: {sides} the sides "
                        "change from hand to hand", "/tallies", "use tallies with fixed teams (players.teams)")
        read = ids_read(self.data, "tally", 1)
        for name, tally in (self.data.get("tallies") or {}).items():
            pointer = f"/tallies/{escape(name)}"
            counted = {"every", "delta"} & tally.keys()
            if counted and counted != {"every", "delta"} or counted and "to" in tally or "when" in tally and "to" not in tally:
                written = ", ".join(k for k in ("every", "delta", "to", "when") if k in tally)
                self.report("tally-payout-unclear", f"a tally pays out every so many (`every` and `delta`), whole "
                            f"to a team (`to`, with `when`), or not at all (a count the expressions read with "
                            f"tally()); this one has {written}", pointer,
                            "give `every` and `delta`, or `to` (and `when`, by default decided), or neither", key=True)
            elif not counted and "to" not in tally and name not in read:
                self.report("tally-unread", f"tally '{name}' pays nothing, and no expression reads it with "
                            f"tally(team, \"{name}\")", pointer,
                            "read it in a rule or definition, or give it `every` and `delta` or `to`",
                            severity="warning", key=True)

    def check_passing(self) -> None:
        """Each player holds the cards it passes, and `across` has a player opposite."""
        passing = self.data.get("passing")
        if passing is None:
            return
        count = self.data["players"]["count"]
        if passing["cards"] > self.fewest_tricks:
            self.report("passing-out-of-range", f"passing.cards is {passing['cards']}, but a player holds only "
                        f"{self.fewest_tricks} cards", "/passing/cards", f"pass at most {self.fewest_tricks}")
        if "across" in passing.get("to", ()) and count % 2:
            index = passing["to"].index("across")
            self.report("passing-out-of-range", f"nobody sits across with {count} players", f"/passing/to/{index}",
                        "pass to next or previous")

    def check_discard(self) -> None:
        """The discard's card classes exist; a discard needs a kitty someone takes; it can always be made."""
        discard = self.data.get("discard")
        if not discard:
            return
        classes = {field: set().union(*(self.card_class(f"/discard/{field}/{i}", item)
                                        for i, item in enumerate(discard.get(field, []))))
                   for field in ("never", "last_resort", "shown")}
        takers = [k for k, c in (self.data.get("contracts") or {}).items() if (c.get("kitty") or {}).get("taken")]
        trump = self.data["trump"]
        offered_taken = trump["method"] == "offer" and "taken_by" in trump.get("offer", {})
        declarer_takes = trump["method"] == "auction" and (trump.get("auction") or {}).get("kitty") == "declarer_decides"
        if not takers and not offered_taken and not declarer_takes:
            self.report("discard-without-kitty", "no contract takes the kitty, the declarer may not take it and no "
                        "offered card is taken, so nobody ever discards", "/discard", "give a contract kitty: "
                        "{taken: true}, set trump.auction.kitty: declarer_decides or trump.offer.taken_by, or "
                        "remove the discard section", key=True, severity="warning")
        elif len(classes["never"]) > self.hand_at_decide:
            self.report("discard-may-stick", f"{len(classes['never'])} cards may never be discarded, more than the "
                        f"{self.hand_at_decide} a declarer keeps: he could be left unable to discard, and the engine "
                        "then lets him discard any card", "/discard/never", "allow more cards to be discarded",
                        severity="warning")

    def size(self) -> int:
        """The cards of the pack, every copy (`deck.copies`) counted."""
        return (sum(len(ranks) for ranks in self.suit_ranks.values()) + len(self.extras)) * self.copies

    def total_points(self) -> float:
        """The most card points the pack can hold (a trump's value counted where it is higher)."""
        deck = self.data["deck"]
        plain, trump = deck["points"], deck.get("trump_points") or {}
        fixed = {str(c).upper(): v for c, v in (deck.get("card_points") or {}).items()}
        total = sum(fixed.get(e, 0) for e in self.extras)
        for suit in self.suits:
            for r in self.suit_ranks[suit]:
                value = max(plain.get(r, plain.get("default", 0)), trump.get(r, trump.get("default", 0)))
                total += fixed.get(r + suit, value)
        return total * self.copies

    def check_schedule_length(self, deals: int) -> None:
        """A game of a fixed number of deals whose schedule of hand sizes it plays only in part: the
        schedule starts again after its last entry, so a game cut partway through it is most likely a
        miscount (Oh Hell's 1..10..1 is twenty deals)."""
        for i, step in enumerate(self.data["deal"]):
            schedule = step.get("packet")
            if isinstance(schedule, list) and deals % len(schedule):
                passes = "before it is through" if deals < len(schedule) else \
                    f"{deals % len(schedule)} deals into its pass number {deals // len(schedule) + 1}"
                self.report("schedule-cut-short", f"the game lasts {deals} deals but the schedule of hand sizes has "
                            f"{len(schedule)} entries: the game ends {passes}", "/scoresheet/deals",
                            f"make scoresheet.deals {len(schedule)} or a multiple of it, or give deal step {i + 1} "
                            f"{deals} entries", severity="warning")

    def check_outcome(self) -> None:
        needs = self.data.get("outcome", {}).get("maker_needs")
        if needs is not None and needs > self.total_points():
            self.report("maker-needs-unreachable", f"the maker needs {needs} points but the pack holds {self.total_points()}",
                        "/outcome/maker_needs")

    def check_game_end(self) -> None:
        dealer = self.data.get("dealer") or {}
        if "stays_when" in dealer and dealer.get("rotation", "next") != "next":
            self.report("unused-setting", "dealer.stays_when keeps the dealer for another hand, but with rotation: "
                        "same the dealer never changes", "/dealer/stays_when", "remove stays_when, or use rotation: next",
                        key=True, severity="warning")
        games, most = self.data.get("session", {}).get("games_to_win", 1), self.data.get("limits", {}).get("max_games", 100)
        if games > most:
            self.report("game-cannot-end", f"a session needs {games} games won but is abandoned after {most} games",
                        "/session/games_to_win", "raise limits.max_games or lower session.games_to_win")
        sheet = self.data["scoresheet"]
        if "won_by" in sheet and "ends_when" not in sheet:
            self.report("won-by-without-ends-when", "scoresheet.won_by names the winner of a game ends_when ends, "
                        "but this scoresheet has no ends_when", "/scoresheet/won_by",
                        "add scoresheet.ends_when, or leave won_by out", key=True)
        ends = sheet.get("at_goal") == "ends_game"
        no_race = "deals" in sheet or "ends_when" in sheet
        for key, unused in (("at_goal", ends and no_race),
                            ("when_both_reach", ends and sheet.get("when_both_reach", "furthest_past") != "furthest_past")):
            if unused:
                self.report("unused-setting", f"scoresheet.{key} is ignored: "
                            + ("a game of a fixed number of deals, or one ends_when ends, has no goal to reach"
                               if key == "at_goal"
                               else "with at_goal: ends_game the furthest from the goal wins, whoever got there first"),
                            f"/scoresheet/{key}", f"remove scoresheet.{key}", key=True, severity="warning")
        if "deals" in sheet:  # a fixed number of deals always ends
            self.check_schedule_length(sheet["deals"])
            return
        if "ends_when" in sheet:  # the rules' own end, bounded by limits.max_hands
            return
        start, goal, down = sheet["start"], sheet.get("goal", 0), sheet.get("direction", "down") == "down"
        if (start <= goal) if down else (start >= goal):
            self.report("game-cannot-end", f"teams start at {start}, already at the goal {goal}: no hand would be played",
                        "/scoresheet/start", "start above the goal when counting down, below it when counting up")
            return
        computed = False  # a rule whose change is an expression: it may bring a team to the goal, unproven
        compare = self.data.get("outcome", {}).get("compare", "points")
        for rule in self.data["scoring"].values():
            delta, team, when = rule["delta"], rule.get("team", ""), rule.get("when", True)
            moves: tuple[float, float] | None = (delta, delta) if isinstance(delta, int) else None
            if isinstance(delta, str):
                # the winner of a hand compared by tricks, one of two sides, took more than half of them
                won = self.tricks // 2 + 1 if compare == "tricks" and self.nsides == 2 and _requires_decided(when) else 0
                moves = _delta_range(delta, self.tricks, self.total_points(), won, self.fact_ranges(),
                                     self.data.get("define") or {})
            if moves is not None and (moves[1] < 0 if down else moves[0] > 0) and team.strip() == "winner" \
                    and when is not False:
                return
            # a side banking its card points every hand: each hand's points bring someone closer
            banked = "team" if rule.get("for_each") == "team" else team.strip()
            if when in (True, "true") and isinstance(delta, str) and self.total_points() > 0 and banked \
                    and _banks_points(delta, banked, -1 if down else 1):
                return
            computed = computed or (isinstance(delta, str) and when is not False)
        if computed:
            self.report("game-may-not-end", f"no scoring rule is sure to move a team toward the goal ({goal}); "
                        "only an expression might, which this check cannot follow", "/scoring",
                        f"a game that never gets there is abandoned after limits.max_hands "
                        f"({self.data.get('limits', {}).get('max_hands', 500)}) hands", key=True, severity="warning")
            return
        toward = "negative" if down else "positive"
        self.report("game-cannot-end", f"no scoring rule moves the hand winner toward the goal ({goal}) by a constant, "
                    "nor banks a team's card points every hand", "/scoring",
                    f"add a rule like `win: {{when: decided, team: winner, delta: {'-1' if down else '1'}}}` "
                    f"(a {toward} delta)" + ("" if down else ", or `cards: {for_each: team, delta: points(team)}`"),
                    key=True)

    def check_redeal(self) -> None:
        trump = self.data["trump"]
        if trump["method"] != "offer":
            return
        offer = trump.get("offer", {})
        fallback = offer.get("on_all_pass", "bottom_card")
        redeals = fallback in ("redeal", "next_card") or fallback == "name_other_suit" and not offer.get("dealer_must_name")
        if redeals and "max_redeals_in_a_row" not in self.data.get("limits", {}):
            self.report("unbounded-redeal", f"on_all_pass: {fallback} can throw in deal after deal, and "
                        "limits.max_redeals_in_a_row is not set", "/trump/offer/on_all_pass",
                        "set limits: {max_redeals_in_a_row: 50} so every game ends")


def _side_count(players: dict[str, Any]) -> int:
    """How many sides play a hand: the teams, or two with sides per hand (or teams missing: reported apart)."""
    return len(players["teams"]) if players.get("sides", "teams") == "teams" and "teams" in players else 2


def _requires_decided(when: Any) -> bool:
    """Whether a rule's ``when`` holds only in a decided hand: ``decided``, or ``decided and ...``."""
    from couillon_dsl.expr.parse import Binary, ExpressionError, Name, parse_expression

    try:
        node: Any = parse_expression(str(when))
    except ExpressionError:
        return False
    while isinstance(node, Binary) and node.op == "and":
        if isinstance(node.left, Name) and node.left.name == "decided":
            return True
        node = node.right
    return isinstance(node, Name) and node.name == "decided"


def _delta_range(delta: str, tricks: int, points: float, winner_tricks: int,
                 facts: Mapping[str, tuple[float, float]] | None = None,
                 definitions: Mapping[str, Any] | None = None) -> tuple[float, float] | None:
    """The least and the most ``delta`` can be in any hand, where each side takes 0 to ``tricks``
    tricks (the winner at least ``winner_tricks``) and 0 to ``points`` card points, and each of
    ``facts`` (a name: its least and most) lies in its range; either branch of an if() may be taken;
    a definition (``definitions``: name -> its text or number) ranges as its text does; None when it
    reads something else. Enough to see that Whist's odd tricks, ``tricks(winner) - 6``, a won
    contract's ``(160 + bid_value) * doubled`` and Hokm's ``value`` (1, 2 or 3) are positive."""
    from couillon_dsl.expr.parse import Binary, Call, ExpressionError, Name, Number, Unary, parse_expression

    try:
        root: Any = parse_expression(delta)
    except ExpressionError:
        return None
    following: set[str] = set()

    def span(node: Any) -> tuple[float, float] | None:
        if isinstance(node, Number):
            return float(node.value), float(node.value)
        if isinstance(node, Unary) and node.op == "-":
            inner = span(node.operand)
            return None if inner is None else (-inner[1], -inner[0])
        if isinstance(node, Binary) and node.op in ("+", "-", "*"):
            left, right = span(node.left), span(node.right)
            if left is None or right is None:
                return None
            if node.op == "+":
                return left[0] + right[0], left[1] + right[1]
            if node.op == "-":
                return left[0] - right[1], left[1] - right[0]
            products = [a * b for a in left for b in right]
            return min(products), max(products)
        if isinstance(node, Call) and len(node.args) == 1 and isinstance(node.args[0], Name) \
                and node.func in ("tricks", "points"):
            if node.func == "points":
                return 0.0, points
            return float(winner_tricks if node.args[0].name == "winner" else 0), float(tricks)
        if isinstance(node, Name) and facts and node.name in facts:
            return facts[node.name]
        if isinstance(node, Name) and definitions and node.name in definitions and node.name not in following:
            value = definitions[node.name]
            if isinstance(value, bool) or not isinstance(value, (int, float, str)):
                return None
            if not isinstance(value, str):
                return float(value), float(value)
            try:
                text = parse_expression(value)
            except ExpressionError:
                return None
            following.add(node.name)  # a definition met again inside its own text is a cycle: no range
            found = span(text)
            following.discard(node.name)
            return found
        if isinstance(node, Call) and node.func == "if" and len(node.args) == 3:
            yes, no = span(node.args[1]), span(node.args[2])
            return None if yes is None or no is None else (min(yes[0], no[0]), max(yes[1], no[1]))
        if isinstance(node, Call) and node.func in ("min", "max") and node.args:
            spans = [span(arg) for arg in node.args]
            if any(s is None for s in spans):
                return None
            pick = min if node.func == "min" else max
            return pick(s[0] for s in spans if s), pick(s[1] for s in spans if s)
        return None

    return span(root)


def _banks_points(delta: str, team: str, sign: int = 1) -> bool:
    """True when ``delta`` adds ``points(team)`` (times a positive factor) to whatever else it adds,
    or with ``sign`` -1 (a scoresheet counting down) subtracts it: ``-points(team)``.

    Only the sum's own terms count (``points(team) + 5``, ``points(team) * multiplier``), so the
    banked points can never be cancelled inside the expression."""
    from couillon_dsl.expr.parse import Binary, Call, ExpressionError, Name, Number, Unary, parse_expression

    try:
        node: Any = parse_expression(delta)
    except ExpressionError:
        return False  # reported by the expression checks

    def positive(factor: Any) -> bool:
        return (isinstance(factor, Number) and factor.value > 0) or (isinstance(factor, Name) and factor.name == "multiplier")

    def banks(term: Any) -> bool:
        if isinstance(term, Call) and term.func == "points" and len(term.args) == 1:
            return isinstance(term.args[0], Name) and term.args[0].name == team
        if isinstance(term, Binary) and term.op == "+":
            return banks(term.left) or banks(term.right)
        if isinstance(term, Binary) and term.op == "*":
            return (banks(term.left) and positive(term.right)) or (banks(term.right) and positive(term.left))
        return False

    if sign < 0:
        return isinstance(node, Unary) and node.op == "-" and banks(node.operand)
    return banks(node)


# ---- options

def _fits_type(value: Any, kind: str) -> bool:
    return {"integer": isinstance(value, int) and not isinstance(value, bool), "boolean": isinstance(value, bool),
            "string": isinstance(value, str)}[kind]


def option_type(option: dict[str, Any]) -> str:
    """An option's value type for expressions: int, bool, str or any."""
    kinds = {"integer": "int", "boolean": "bool", "string": "str"}
    if "type" in option:
        return kinds[option["type"]]
    found = {("bool" if isinstance(c, bool) else "int" if isinstance(c, int) else "str" if isinstance(c, str) else "any")
             for c in option.get("choices", [])}
    return found.pop() if len(found) == 1 else "any"


def _data_at(data: Any, pointer: str) -> tuple[bool, Any]:
    for token in pointer.split("/")[1:]:
        token = unescape(token)
        if isinstance(data, dict) and token in data:
            data = data[token]
        elif isinstance(data, list) and token.isdigit() and int(token) < len(data):
            data = data[int(token)]
        else:
            return False, None
    return True, data


def _yaml_scalar(value: Any) -> str:
    """A scalar as YAML writes it, for hints the author can paste."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


class _OptionChecks:
    """The checks of ``options:``: domains, defaults, ``sets`` targets, and each patched variant in full."""

    def __init__(self, document: Document) -> None:
        self.document = document
        self.data = document.data
        self.place = _Place(document)
        self.found: list[Diagnostic] = []
        self._own: set[tuple[str, str, str]] | None = None

    def report(self, code: str, message: str, pointer: str, hint: str | None = None, *, key: bool = False,
               severity: Severity = "error") -> None:
        self.found.append(Diagnostic(code, severity, message, self.place.span(pointer, key), pointer, hint))

    def run(self) -> list[Diagnostic]:
        for name, option in self.data.get("options", {}).items():
            self.check(name, option, f"/options/{escape(name)}")
        return self.found

    def in_domain(self, option: dict[str, Any], value: Any) -> bool:
        """Whether ``value`` is one of the option's choices, or fits its type and bounds."""
        if "choices" in option:
            return any(_same(value, c) for c in option["choices"])
        if "type" in option:
            if not _fits_type(value, option["type"]):
                return False
            low, high = option.get("minimum"), option.get("maximum")
            return option["type"] != "integer" or ((low is None or value >= low) and (high is None or value <= high))
        return True

    def check(self, name: str, option: dict[str, Any], base: str) -> None:
        from couillon_dsl.schema import subschema_at, value_errors

        if "choices" not in option and "type" not in option:
            self.report("option-without-domain", f"option '{name}' has neither `choices` nor `type`", base,
                        "add e.g. `choices: [5, 7]` or `type: integer`", key=True)
            return
        default = option["default"]
        if not self.in_domain(option, default):
            domain = f"one of {option['choices']}" if "choices" in option else f"of type {option['type']} within its bounds"
            self.report("option-default-invalid", f"the default {default!r} of option '{name}' is not {domain}", f"{base}/default")
        if not option.get("sets") and not option.get("patches") and name not in ids_read(self.data, "option", 0):
            self.report("option-without-effect", f"option '{name}' changes nothing: it has neither `sets` nor `patches`, "
                        f"and no expression reads it with option(\"{name}\")", base, key=True, severity="warning")
        if "choices" in option:
            values = [(c, f"{base}/choices/{k}") for k, c in enumerate(option["choices"])]
        else:
            values = [(default, f"{base}/default")] + [(option[b], f"{base}/{b}") for b in ("minimum", "maximum") if b in option]
        for i, pointer in enumerate(option.get("sets", [])):
            at = f"{base}/sets/{i}"
            schema = subschema_at(pointer)
            exists, current = _data_at(self.data, pointer)
            parent_exists = _data_at(self.data, pointer.rsplit("/", 1)[0])[0]
            if schema is None or not parent_exists:
                reason = "the language has no such setting" if schema is None else "that section is absent from this ruleset"
                self.report("option-target-missing", f"option '{name}' sets {pointer}, but {reason}", at,
                            self.close_pointer(pointer))
                continue
            for value, value_at in values:
                problems = value_errors(schema, value)
                if problems:
                    self.report("option-value-invalid", f"option '{name}' cannot set {pointer} to {value!r}: {problems[0]}",
                                value_at)
            parent, _, key = pointer.rpartition("/")
            if not exists and self.in_domain(option, default) and isinstance(_data_at(self.data, parent)[1], dict):
                variant = copy.deepcopy(self.data)  # compiling writes the default there: check what that plays
                _data_at(variant, parent)[1][unescape(key)] = copy.deepcopy(default)
                self.check_variant(name, default, variant, at)
            if exists and not _same(current, default) and self.in_domain(option, default):
                self.report("option-default-mismatch", f"{where(pointer)} is {current!r} but option '{name}' defaults to "
                            f"{default!r}, which replaces it", pointer,
                            f"to play with {current!r}, write `options: {{{name}: {{default: {_yaml_scalar(current)}}}}}` "
                            f"(or run with --option {name}={_yaml_scalar(current)})",
                            severity="warning")
        for i, entry in enumerate(option.get("patches", [])):
            self.check_patch(name, option, f"{base}/patches/{i}", entry)

    def close_pointer(self, pointer: str) -> str | None:
        parent, _, last = pointer.rpartition("/")
        exists, container = _data_at(self.data, parent)
        if exists and isinstance(container, dict):
            return did_you_mean(last, container)
        return None

    def check_patch(self, name: str, option: dict[str, Any], at: str, entry: dict[str, Any]) -> None:
        """Apply one patch and run every check on the result, placing findings inside the patch."""
        value = entry["value"]
        if not self.in_domain(option, value):
            self.report("option-value-invalid", f"option '{name}' has a patch for {value!r}, which it cannot take",
                        f"{at}/value")
            return
        self.check_variant(name, value, merged(self.data, entry["patch"]), f"{at}/patch")

    def check_variant(self, name: str, value: Any, variant: dict[str, Any], at: str) -> None:
        """Run every check on the ruleset option ``name`` at ``value`` makes (``variant``), placing
        findings at ``at``: a patch, or a setting the option writes where the ruleset wrote none."""
        from couillon_dsl.schema import document_errors

        variant.pop("options", None)  # the variant is one choice made; its own options are not re-applied
        context = f"with option {name} = {_yaml_scalar(value)}: "
        problems = document_errors(variant)
        if problems:
            self.report("option-value-invalid", context + problems[0], at)
            return
        place = _Place(self.document, at)
        checks = _Checks(variant, place, context)
        checks.document_options = self.data.get("options") or {}
        found = [*checks.run(),
                 *iter_expression_diagnostics(variant, place, context, self.data.get("options", {}))]
        own = self.own_findings()
        self.found.extend(d for d in found if (d.code, d.pointer, d.message.removeprefix(context)) not in own)

    def own_findings(self) -> set[tuple[str, str, str]]:
        """The document's own findings as (code, pointer, message): a patched variant that merely
        inherits one (an error in a child of a ruleset with patches) does not report it again."""
        if self._own is None:
            found = [*_Checks(self.data, self.place).run(), *iter_expression_diagnostics(self.data, self.place)]
            self._own = {(d.code, d.pointer, d.message) for d in found}
        return self._own


# ---- expressions

def ids_read(data: Any, func: str, index: int) -> set[str]:
    """The quoted ids some expression of the ruleset passes to ``func`` as its argument ``index``
    (the tallies read with tally(team, "name"), the options with option("name"))."""
    from couillon_dsl.expr.compile import walk
    from couillon_dsl.expr.parse import Call, ExpressionError, String, parse_expression

    read: set[str] = set()
    for text in _texts(data):
        if func not in text:
            continue
        try:
            nodes = list(walk(parse_expression(text)))
        except ExpressionError:  # prose, or an expression the expression checks report
            continue
        read.update(arg.value for node in nodes if isinstance(node, Call) and node.func == func
                    and len(node.args) > index and isinstance(arg := node.args[index], String))
    return read


def _texts(value: Any) -> Iterator[str]:
    """Every string in a ruleset's data, prose included: where an expression may be written."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def expression_names(data: dict[str, Any], options: dict[str, Any] | None = None) -> Any:
    """The expression name table of a ruleset: its announcements, option types and team count."""
    from couillon_dsl.expr import ExprNames

    options = data.get("options", {}) if options is None else options
    deck = data["deck"]
    values = [*deck["points"].values(), *(deck.get("trump_points") or {}).values(),
              *(deck.get("card_points") or {}).values()]
    return ExprNames(
        announcements=frozenset(data.get("announcements", {})),
        options={name: option_type(o) for name, o in options.items()},
        team_count=_side_count(data["players"]),
        players=data["players"]["count"],
        declarations=tuple(data.get("declarations") or {}),
        tallies=tuple(data.get("tallies") or {}),
        whole_points=all(float(v).is_integer() for v in values if isinstance(v, (int, float))),
        card_sets=dict.fromkeys(deck.get("card_sets") or {}, 0),
        fixed_teams=data["players"].get("sides", "teams") == "teams",
        bids="bids" in data,
        numeric_auction="values" in (data["trump"].get("auction") or {}),
        partners=data["players"].get("sides", "teams") == "teams"
        or any("call" in c for c in (data.get("contracts") or {}).values() if isinstance(c, dict)),
    )


def iter_expression_diagnostics(data: dict[str, Any], place: _Place, context: str = "",
                                options: dict[str, Any] | None = None) -> Iterator[Diagnostic]:
    """Syntax, name and type diagnostics of the definitions and of every scoring expression,
    placed inside the YAML scalar."""
    from couillon_dsl.expr import EACH_SEAT, EACH_TEAM, check_definitions, check_expression

    items = [(name, text, place.content(f"/define/{escape(name)}"), f"/define/{escape(name)}")
             for name, text in (data.get("define") or {}).items()]
    checked = check_definitions(items, expression_names(data, options))
    found = list(checked.diagnostics)
    for name, rule in data["scoring"].items():
        bound = {"team": EACH_TEAM, "seat": EACH_SEAT}.get(rule.get("for_each", ""))
        names = replace(checked.names, bound=frozenset({bound})) if bound else checked.names
        for field, kind in (("when", "bool"), ("team", "team"), ("delta", "int")):
            pointer = f"/scoring/{escape(name)}/{field}"
            if isinstance(text := rule.get(field), str):
                found += check_expression(text, kind, names, place.content(pointer), pointer)  # type: ignore[arg-type]
    each_team = replace(checked.names, bound=frozenset({EACH_TEAM}))
    for name, tally in (data.get("tallies") or {}).items():
        pointer = f"/tallies/{escape(name)}/adds"
        if isinstance(text := tally.get("adds"), str):
            found += check_expression(text, "int", each_team, place.content(pointer), pointer)
        pot_fields: tuple[tuple[str, Literal["team", "bool"]], ...] = (("to", "team"), ("when", "bool"),
                                                                       ("clears_when", "bool"))
        for field, kind in pot_fields:  # a pot's payee and moment, and when every count is wiped: the hand's facts
            pointer = f"/tallies/{escape(name)}/{field}"
            if isinstance(text := tally.get(field), str):
                found += check_expression(text, kind, checked.names, place.content(pointer), pointer)
    if isinstance(text := data["scoresheet"].get("ends_when"), str):
        found += check_expression(text, "bool", checked.names, place.content("/scoresheet/ends_when"),
                                  "/scoresheet/ends_when")
    if isinstance(text := (data.get("dealer") or {}).get("stays_when"), str):
        found += check_expression(text, "bool", checked.names, place.content("/dealer/stays_when"),
                                  "/dealer/stays_when")
    if isinstance(text := data["scoresheet"].get("won_by"), str):
        found += check_expression(text, "team", checked.names, place.content("/scoresheet/won_by"),
                                  "/scoresheet/won_by")
    found += _outcome_expression_diagnostics(data, place, checked.names, definitions_ok=not checked.diagnostics)
    found += _offered_when_diagnostics(data, place, checked.names)
    found += _contract_offered_diagnostics(data, place, checked.names)
    found += _blind_when_diagnostics(data, place, checked.names)
    found += _stop_when_diagnostics(data, place, checked.names)
    for diagnostic in found:
        yield Diagnostic(diagnostic.code, diagnostic.severity, context + diagnostic.message, diagnostic.span,
                         diagnostic.pointer, diagnostic.hint)


# what a declarer's announcement's `offered_when` may read: the facts settled before the first lead
SETTLED_FACTS = frozenset({"maker", "dealer_team", "elder_team", "contract", "multiplier", "trump", "kitty_taken",
                           "bid_value", "options", "tricks_per_hand", "seat_sides",
                           "scores", "tallies", "hand_number"})  # the scoresheet is public


def _read_then_diag(code: str, text: str, names: Any, place: _Place, pointer: str, settled: frozenset[str],
                    when_read: str, decided_by: str, hint: str) -> list[Diagnostic]:
    """A true/false expression read at one moment of the hand: checked, then kept to the facts
    ``settled`` by then (``when_read`` and ``decided_by`` word the error)."""
    from couillon_dsl.expr import check_expression, facts_read

    from couillon_dsl.expr.compile import fact_readers

    checked = check_expression(text, "bool", names, place.content(pointer), pointer)
    later = fact_readers(text, facts_read(text) - settled) if not checked else []
    if later:
        checked.append(error(code, f"{when_read}, but reads {', '.join(later)}, which {decided_by}",
                             place.content(pointer), pointer, hint))
    return checked


def _offered_when_diagnostics(data: dict[str, Any], place: _Place, names: Any) -> list[Diagnostic]:
    """`announcements.<id>.offered_when`: a true/false expression read before the first lead, so it may
    read only what is settled then (no definitions, which may read the play)."""
    found: list[Diagnostic] = []
    for name, item in (data.get("announcements") or {}).items():
        text = item.get("offered_when")
        if isinstance(text, str):
            found += _read_then_diag("offered-when-reads-play", text, replace(names, definitions={}), place,
                                     f"/announcements/{escape(name)}/offered_when", SETTLED_FACTS,
                                     "offered_when is read before the first lead", "the play decides",
                                     "read the contract, kitty_taken, bid_value, trump or maker instead")
    return found


# what `play.stop_when` may read beside the settled facts: what the tricks so far have settled
TRICK_FACTS = SETTLED_FACTS | {"points", "tricks", "declared", "last_trick_winner", "won"}


def _stop_when_diagnostics(data: dict[str, Any], place: _Place, names: Any) -> list[Diagnostic]:
    """`play.stop_when`: a true/false expression read after each trick, so it may read only what the
    tricks so far have settled (no definitions, which may read the whole hand)."""
    text = (data.get("play") or {}).get("stop_when")
    if not isinstance(text, str):
        return []
    return _read_then_diag("stop-when-reads-later", text, replace(names, definitions={}), place, "/play/stop_when",
                           TRICK_FACTS, "stop_when is read after each trick", "only the whole hand settles",
                           "read points, tricks, count(), declared, last_trick_winner or the settled facts")


# what a contract's `offered_when` may read beside the settled facts: the declarer's own run of top trumps
CHOICE_FACTS = SETTLED_FACTS | {"top_runs"}


def _contract_offered_diagnostics(data: dict[str, Any], place: _Place, names: Any) -> list[Diagnostic]:
    """`contracts.<id>.offered_when`: a true/false expression read when a seat picks its contract, so the
    contract must be one a seat picks, and it may read only what the picker knows then: the settled facts
    and his own run of top trumps (`top_run(maker)`), never another side's cards nor the play."""
    from couillon_dsl.expr import check_expression, facts_read, parse_expression
    from couillon_dsl.expr.compile import fact_readers, walk
    from couillon_dsl.expr.parse import Call, Name

    trump = data.get("trump") or {}
    auction = trump.get("auction") or {}
    picked = trump.get("method") == "choose" or trump.get("method") == "auction" and bool(auction.get("values"))
    all_pass = auction["on_all_pass"] if isinstance(auction.get("on_all_pass"), dict) else {}
    found: list[Diagnostic] = []
    for name, item in (data.get("contracts") or {}).items():
        text = (item or {}).get("offered_when")
        if not isinstance(text, str):
            continue
        pointer = f"/contracts/{escape(name)}/offered_when"
        if not picked or all_pass.get("contract") == name:
            found.append(error("contract-offered-when-unpicked", f"contract {name!r} has an offered_when, but no seat "
                               "picks it: " + ("it is played when everyone passes" if picked else
                                               "it is fixed by the bidding, not picked after it"),
                               place.content(pointer), pointer, "give offered_when to contracts the declarer picks "
                               "after a numeric auction (trump.auction.values) or with trump.method: choose"))
            continue
        checked = check_expression(text, "bool", replace(names, definitions={}), place.content(pointer), pointer)
        if checked:
            found += checked
            continue
        later = fact_readers(text, facts_read(text) - CHOICE_FACTS)
        others = [node for node in walk(parse_expression(text)) if isinstance(node, Call) and node.func == "top_run"
                  and node.args != (Name("maker"),)]
        if later or others:
            what = ", ".join(later) if later else "the run of top trumps of a side other than maker (cards he has not seen)"
            found.append(error("contract-offered-when-reads-hidden", f"offered_when is read when the declarer picks "
                               f"his contract, but reads {what}, which he does not know then", place.content(pointer),
                               pointer, "read bid_value, kitty_taken, multiplier, trump, contract, option(...), "
                               "the scoresheet (score(), tally(), hand_number) and top_run(maker), his own run "
                               "of top trumps"))
    return found


# what `bids.blind.when` may read: what is settled before anyone looks at the deal
BEFORE_THE_DEAL_FACTS = frozenset({"scores", "tallies", "hand_number", "options", "dealer_team", "elder_team",
                                   "tricks_per_hand", "seat_sides"})


def _blind_when_diagnostics(data: dict[str, Any], place: _Place, names: Any) -> list[Diagnostic]:
    """`bids.blind.when`: a true/false expression with `seat` and `team` bound, read at the start of the
    hand, so it may read only what is settled before the cards are looked at (no definitions)."""
    from couillon_dsl.expr import EACH_SEAT, EACH_TEAM

    text = ((data.get("bids") or {}).get("blind") or {}).get("when")
    if not isinstance(text, str):
        return []
    bound = replace(names, definitions={}, bound=frozenset({EACH_SEAT, EACH_TEAM}))
    return _read_then_diag("blind-when-reads-play", text, bound, place, "/bids/blind/when", BEFORE_THE_DEAL_FACTS,
                           "bids.blind.when is read before anyone looks at the deal", "the hand decides",
                           "read score(), the options, dealer_team or elder_team instead")


def _outcome_expression_diagnostics(data: dict[str, Any], place: _Place, names: Any,
                                    definitions_ok: bool) -> list[Diagnostic]:
    """`outcome.maker_wins` (true/false) or `outcome.winner` (a team): an expression that decides the
    hand, so it may not read its outcome (followed through the definitions when they are sound)."""
    from couillon_dsl.expr import OUTCOME_FACTS, check_expression, facts_read

    outcome = data.get("outcome") or {}
    if isinstance(outcome.get("maker_wins"), str) and isinstance(outcome.get("winner"), str):
        pointer = "/outcome/winner"
        return [error("outcome-two-deciders", "outcome.winner and outcome.maker_wins both decide who wins the "
                      "hand", place.span(pointer, key=True), pointer, "keep one of them")]
    found: list[Diagnostic] = []
    for key, kind in (("maker_wins", "bool"), ("winner", "team")):
        text = outcome.get(key)
        if not isinstance(text, str):
            continue
        pointer = f"/outcome/{key}"
        if key == "maker_wins" and names.team_count != 2:
            return [error("maker-wins-needs-two-sides", f"outcome.maker_wins gives the hand to the maker or its "
                          f"opponents, but a hand here has {names.team_count} sides", place.span(pointer), pointer,
                          "use it with two teams or sides per hand, or compare: points")]
        found += check_expression(text, kind, names, place.content(pointer), pointer)  # type: ignore[arg-type]
        if not found and definitions_ok:
            definitions = {k: v for k, v in (data.get("define") or {}).items() if isinstance(v, str)}
            circular = sorted(facts_read(text, definitions) & OUTCOME_FACTS)
            if circular:
                found.append(error("outcome-reads-outcome", f"outcome.{key} reads {', '.join(circular)}, which it "
                                   "decides", place.content(pointer), pointer,
                                   "read the hand's facts instead: points(maker), count(\"set\", maker), "
                                   "tricks(maker), last_trick_winner..."))
    return found


def iter_semantic_diagnostics(document: Document) -> Iterator[Diagnostic]:
    """Cross-field diagnostics of a schema-valid document, then of its options and their patched forms."""
    yield from _Checks(document.data, _Place(document)).run()
    yield from _OptionChecks(document).run()


def iter_document_expression_diagnostics(document: Document) -> Iterator[Diagnostic]:
    """Expression diagnostics of a schema-valid document."""
    yield from iter_expression_diagnostics(document.data, _Place(document))
