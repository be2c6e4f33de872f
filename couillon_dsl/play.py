"""Play one whole game (or session) of any ruleset at one seat, against bots, in plain text.

:class:`Table` runs the loop: deals come from the game's own seeded generator, bots answer
through the :class:`~couillon_dsl.agents.Agent` protocol, and the person's choices are read
line by line from an input stream, so a test can drive a whole game with a string. At each
of the person's decisions it shows the scoresheet, dealer, trump and maker, face-up cards,
the trick in progress, the hand and the numbered legal choices; an illegal card is refused
with the engine's reason (:func:`~couillon_dsl.engine.why.explain_legal`). After each trick
it says who won and why, after each hand the points, the outcome and the scoresheet. With
sides fixed per hand (`players.sides`) it names each hand's sides, the declarer's and the
defence, while the scoresheet stays per seat; it says only what the person's seat may know
(the kitty once shown, a discard only when shown or the person's own). With bids of tricks
(`bids`) the person's bid is asked as a number, and every bid stays in sight beside the
tricks taken, since a bid is made or broken by that count. With cards passed before play
(`passing`) the person names the cards to pass; a bot's passes are told only as a count, since
nobody but giver and receiver sees them, and the person learns what it received once every
seat has passed.

Nothing here knows a variant: every word comes from the compiled ruleset and the engine.
"""
from __future__ import annotations

import random
from fractions import Fraction
from typing import Sequence, TextIO

import click

from couillon_dsl.agents import Agent
from couillon_dsl.cards import Card, CardNotationError, iter_bits
from couillon_dsl.engine import (
    CHANCE,
    GameState,
    IllegalAction,
    explain_legal,
    explain_trick,
    play_orders,
)
from couillon_dsl.engine.results import SeatView
from couillon_dsl.engine.why import why_wins
from couillon_dsl.expr.parse import decimal_text, exact
from couillon_dsl.model import Contract, Ruleset
from couillon_dsl.simulation import AGENTS_SALT

QUIT_WORDS = frozenset({"quit", "exit", "q", ":q"})
HELP_WORDS = frozenset({"help", "?", "h"})
TRUMP_FIXED = frozenset({"play", "bid", "pass", "announce", "discard"})  # phases after the trump procedure



def each_alone(sides: Sequence[int]) -> bool:
    """Whether every seat is a side of its own this hand (everyone passed the auction: `on_all_pass`)."""
    return len(set(sides)) == len(sides) > 2

class Quit(Exception):
    """The person ended the game: ``quit`` typed, or the input ran out."""


class Table:
    """One game at one table: the person at ``seat``, ``agents[s]`` at every other seat."""

    def __init__(self, ruleset: Ruleset, *, seat: int, agents: Sequence[Agent | None], seed: int | None,
                 agent_names: Sequence[str] = (), inp: TextIO, out: TextIO | None = None,
                 echo_input: bool = False) -> None:
        self.rs = ruleset
        self.seat = seat
        self.agents = agents
        self.agent_names = tuple(agent_names)
        self.state = GameState(ruleset, seed=seed)
        self.rng = random.Random((seed or 0) ^ AGENTS_SALT)  # the agents' generator, apart from the deals'
        self.inp = inp
        self.out = out
        self.echo_input = echo_input
        self.layout = ruleset.layout
        self.team_of = ruleset.tables.team_of
        self.per_hand = ruleset.players.sides != "teams"  # sides fixed per hand: the declarer's (0) and the rest
        card = ruleset.players.side_card or (ruleset.trump.auction.all_pass_side_card if ruleset.trump.auction else None)
        # what a side is called: the declarer and the defence, with sides by who holds a card (hidden
        # until revealed) the side holding it and the other side, with a called partner the declarer's side
        self.holder_names = (f"the side holding the {self.layout.pretty(self.layout.parse(card))}", "the other side") \
            if card else None
        self.declarer_names = ("the declarer's side", "the defence") if ruleset.tables.calls \
            else ("the declarer", "the defence")
        self.hidden_discards = 0  # another seat's discards so far, which the person does not see
        self.games_won = (0,) * len(ruleset.players.teams)  # the games won when the last hand ended
        # card points count in this game: else the points lines (always 0) give way to the tricks
        self.card_points = bool(ruleset.play.last_trick_points) or any(any(c.points) for c in ruleset.tables.contexts)

    @property
    def side_names(self) -> tuple[str, str]:
        """What the two sides of this hand are called: by who holds the side card, when it says the sides
        (`players.sides: card_holders`, or the hand everyone passed into with a `side_card`), else by
        the declarer."""
        holders = self.rs.tables.side_cards or self.state.all_passed and self.rs.tables.all_pass_side_cards
        return self.holder_names if holders and self.holder_names else self.declarer_names

    # ------------------------------------------------------------------ output helpers
    def say(self, text: str = "") -> None:
        click.echo(text, file=self.out)

    def card(self, card: Card) -> str:
        """``♥J``, the way the engine's explanations write cards."""
        return self.layout.suit_first(card)

    def suit(self, suit: int) -> str:
        return f"{self.layout.suit_symbols[suit]} {self.layout.suit_names[suit]}"

    def who(self, seat: int) -> str:
        return "you" if seat == self.seat else f"seat {seat}"

    def subject(self, seat: int) -> str:
        """``who`` at the start of a sentence."""
        return "You" if seat == self.seat else f"Seat {seat}"

    def seats(self, members: Sequence[int]) -> str:
        """``you, seats 0, 2``: the person first, then the other seats."""
        others = [str(s) for s in members if s != self.seat]
        words = ["you"] if len(others) < len(members) else []
        if others:
            words.append(f"seat{'s' if len(others) > 1 else ''} {', '.join(others)}")
        return ", ".join(words)

    def team(self, team: int | None) -> str:
        """A team of the scoresheet (with sides fixed per hand, one seat)."""
        if team is None:
            return "nobody"
        members = self.rs.players.teams[team]
        if len(members) == 1:
            return self.who(members[0])
        return f"team {team} ({self.seats(members)})"

    def side(self, side: int | None, sides: Sequence[int] | None) -> str:
        """A side of this hand: a team, or with sides fixed per hand ``the declarer (seat 2)`` or
        ``the defence (you, seats 0, 3)``, ``sides`` giving each seat's side."""
        if not self.per_hand or side is None or not sides:
            return self.team(side)
        if each_alone(sides):
            return self.who(side)
        members = [s for s, of in enumerate(sides) if of == side]
        return f"{self.side_names[min(side, 1)]} ({self.seats(members)})" if members else self.side_names[min(side, 1)]

    def sides_text(self, sides: Sequence[int]) -> str:
        """``the declarer (seat 2) against the defence (you, seats 0, 3)``."""
        if each_alone(sides):
            return "every player for themselves"
        return f"{self.side(0, sides)} against {self.side(1, sides)}"

    def points(self, units: int) -> str:
        """Card points as the game counts them (the engine counts in 1/point_unit of a point)."""
        return decimal_text(exact(Fraction(units, self.rs.tables.point_unit)))

    def tricks(self, count: int) -> str:
        return f"{count} trick{'' if count == 1 else 's'}"

    def cards_passed(self) -> str:
        """``3 cards``: what each seat passes in a hand where cards are passed."""
        count = self.rs.pass_cards
        return f"{count} card{'' if count == 1 else 's'}"

    def bids_text(self, view: SeatView) -> str:
        """``seat 1 3, seat 2 0 blind, you 2``: the bids made, in the bidding's order (from the elder), a bid
        made before looking at the cards said as such."""
        order = self.rs.tables.rounds[self.rs.tables.next_seat[view.dealer]]
        return ", ".join(f"{self.who(s)} {view.bids[s]}{' blind' if view.blind >> s & 1 else ''}"
                         for s in order if view.bids[s] >= 0) or "none yet"

    def bids_and_tricks(self, bids: Sequence[int], tricks: Sequence[int], sides: Sequence[int] | None) -> str:
        """``you bid 2, took 1 | seat 1 bid 3, took 0``, per side; a side of several seats adds its
        seats' bids (``bid 5 (you 2, seat 2 3)``), as its scoring does."""
        of = sides or self.team_of
        parts = []
        for side, taken in enumerate(tricks):
            seats = [s for s in range(len(bids)) if of[s] == side and bids[s] >= 0]
            if not seats:
                continue
            each = f" ({', '.join(f'{self.who(s)} {bids[s]}' for s in seats)})" if len(seats) > 1 else ""
            parts.append(f"{self.side(side, sides)} bid {sum(bids[s] for s in seats)}{each}, took {taken}")
        return " | ".join(parts)

    def contract(self, contract_id: str | None) -> Contract | None:
        return next((c for c in self.rs.contracts if c.id == contract_id), None)

    def contract_words(self, contract_id: str | None) -> str:
        """``, contract Garde`` for a contract that is more than a trump named (else nothing)."""
        c = self.contract(contract_id)
        return f", contract {c.name}" if c is not None and (c.trump != "named" or self.per_hand) else ""

    def cards_text(self, mask: int) -> str:
        return " ".join(self.card(c) for c in iter_bits(mask))

    def hand_text(self, mask: int) -> str:
        """The cards grouped by suit: ``♠ A K  ♥ 10  ♣ Q 9``."""
        groups = []
        for s in range(len(self.layout.suits)):
            ranks = [self.layout.rank_name(c) for c in iter_bits(mask & self.layout.suit_mask(s))]
            if ranks:
                groups.append(self.layout.suit_symbols[s] + " " + " ".join(ranks))
        extras = [self.layout.pretty(c) for c in iter_bits(mask) if self.layout.is_extra(c)]
        if extras:
            groups.append(" ".join(extras))
        return "   ".join(groups) if groups else "(no cards)"

    def scoresheet(self, scores: Sequence[int], tallies: Sequence[Sequence[int]] = ()) -> str:
        """The scores, with the goal, and each tally's counts (`Bags: you 3 | them 7`)."""
        sheet = self.rs.scoresheet
        parts = [f"{self.team(t)} {v}" for t, v in enumerate(scores)]
        best = 'lowest' if sheet.direction == 'down' else 'best'
        if sheet.ends_when:
            goal = f"the game ends when `{sheet.ends_when}`, the {best} total wins"
        elif sheet.deals is not None:
            goal = f"{sheet.deals} deal{'s' if sheet.deals > 1 else ''}, the {best} total wins"
        elif sheet.at_goal == "ends_game":
            goal = (f"the game ends at {sheet.goal}, the {'highest' if sheet.direction == 'down' else 'lowest'} "
                    "score winning")
        else:
            goal = f"first to {sheet.goal} {'or below' if sheet.direction == 'down' else 'or more'}"
        counted = "".join(f"\n{tally.name.capitalize()}: " + " | ".join(f"{self.team(t)} {n}" for t, n in enumerate(counts))
                          + (f"   ({tally.delta:+d} every {tally.every})" if tally.every else
                             "   (held for a later hand)" if tally.is_pot else "   (read by the scoring)")
                          for tally, counts in zip(self.rs.tallies, tallies))
        return "Scoresheet: " + " | ".join(parts) + f"   ({goal})" + counted

    def choice_label(self, action: int, legal: Sequence[int]) -> str:
        kind, arg = self.state.actions.decode(action)
        if kind == "card":
            return self.card(arg)
        if kind == "name":
            return f"{self.state.action_to_string(action)} ({self.suit(arg)})"
        if kind == "show":
            return f"show {self.card(arg)}"
        if kind == "announce":
            return f"{self.state.action_to_string(action)} ({self.rs.announcements[arg].name})"
        if kind == "no":
            return f"no (do not announce {self.offered_announcement(legal)})"
        if kind == "contract":
            return f"{self.state.action_to_string(action)} ({self.contract_name(arg)})"
        if kind == "discard":
            return f"discard {self.card(arg)}"
        if kind == "give":  # a card to pass is named as a card played is
            return self.card(arg)
        if kind == "call":
            return "call nobody (play alone)" if arg == self.rs.layout.size else f"call {self.card(arg)}"
        if kind == "exchange":
            return (f"exchange (trade {self.card(self.state.exchange_card())} for the turned-up "
                    f"{self.card(self.state.turned_card())}, then lead)")
        if kind == "declare":
            name, meld = self.rs.declarations[arg].name, self.state.offered_meld(arg)
            if meld is None:
                return f"{self.state.action_to_string(action)} ({name})"
            label = self.rs.tables.declarations[arg].labels[meld.pattern]
            return f"{self.state.action_to_string(action)} ({name}: {label}, {meld.value}: {self.cards_text(meld.cards)})"
        if kind == "bid" and (self.rs.tables.auction_suits or self.rs.tables.doubling):
            return f"{self.state.action_to_string(action)} ({self.open_bid(arg)})"
        return self.state.action_to_string(action)

    def open_bid(self, arg: int) -> str:
        """A numeric auction's bid as said: ``90 ♥`` (open) or ``18``, or the double and the level it raises
        the stake to."""
        t = self.rs.tables
        if arg < t.double_offset:
            value, strain = divmod(arg, t.auction_suits or 1)
            return f"{t.auction_values[value]}" + (f" {self.strain(strain)}" if t.auction_suits else "")
        level = self.state.doubled
        return f"doubled to x{t.doubling[t.doubling.index(level) + 1] if level > 1 else t.doubling[0]}"

    def strain(self, strain: int) -> str:
        """What an open auction's bid names beside its value, as said: a suit, or a contract's name."""
        contract, suit = self.rs.tables.auction_strains[strain]
        if contract < 0 or contract == self.rs.tables.named_contract:
            return self.suit(suit)
        return self.rs.contracts[contract].name

    def contract_name(self, fixed: int) -> str:
        """The name of the contract a contract action picks (``fixed``: its index among the actions)."""
        return self.rs.contracts[self.rs.tables.fixed_contracts[fixed]].name

    def offered_announcement(self, legal: Sequence[int]) -> str:
        decode = self.state.actions.decode
        offered = [arg for kind, arg in map(decode, legal) if kind == "announce"]
        return self.rs.announcements[offered[0]].name if offered else "anything"

    def deed(self, seat: int, action: int, legal: Sequence[int], offered: Card | None, phase: str = "") -> str:
        """What ``seat`` did, as a sentence: ``Seat 1 plays ♠K.``; ``phase`` is the one it acted in (a
        numeric auction's hold, a declarer's kitty decision and a pass when asked out of turn whether to
        double, ``out_of_turn``, are said as such)."""
        kind, arg = self.state.actions.decode(action)
        values = self.rs.tables.auction_values
        who = self.subject(seat)
        s = "" if seat == self.seat else "s"
        if kind == "card":
            return f"{who} play{s} {self.card(arg)}."
        if phase == "kitty":
            return f"{who} take{s} the kitty into {'their' if s else 'your'} hand." if kind == "accept" \
                else f"{who} leave{s} the kitty unseen."
        if kind in ("accept", "pass") and phase == "bid":  # a blind bid, or looking at one's cards first
            blind = self.rs.bids.blind  # type: ignore[union-attr]
            return f"{who} bid{s} {self.tricks(blind)} blind, before looking at {'their' if s else 'your'} cards." \
                if kind == "accept" else f"{who} look{s} at {'their' if s else 'your'} cards."
        if kind == "accept" and phase == "auction":
            return f"{who} hold{s} {self.state.auction_value}."
        if kind == "accept":
            took = f" {self.card(offered)}" if offered is not None else ""
            return f"{who} accept{s}{took}."
        if kind == "pass" and phase == "out_of_turn":  # asked whether to double out of turn: no call
            return f"{who} do{'es' if s else ''} not double."
        if kind == "pass":
            return f"{who} pass{'es' if s else ''}."
        if kind == "defer":
            return f"{who} defer{s} the choice of trump."
        if kind == "name":
            return f"{who} name{s} {self.suit(arg)} as trump."
        if kind == "show":
            return f"{who} show{s} {self.card(arg)}."
        if kind == "announce" and self.rs.announcements[arg].closes_stock:
            return f"{who} announce{s} {self.rs.announcements[arg].name}: the stock is closed, nobody draws again."
        if kind == "announce" and self.rs.announcements[arg].ends_hand:
            return f"{who} announce{s} {self.rs.announcements[arg].name}: the hand ends here."
        if kind == "announce":
            return f"{who} announce{s} {self.rs.announcements[arg].name}!"
        if kind == "no":
            return f"{who} {'does' if s else 'do'} not announce {self.offered_announcement(legal)}."
        if kind == "contract":
            # a ladder's contracts are bids; after a numeric auction the declarer picks one
            verb = "choose" if self.rs.trump.method != "auction" else "pick" if self.rs.tables.auction_values else "bid"
            return f"{who} {verb}{s} {self.contract_name(arg)}."
        if kind == "push":
            return f"{who} push{'es' if s else ''} the choice on to {self.who(self.state.current_player())}."
        if kind == "discard":
            return f"{who} discard{s} {self.card(arg)}."
        if kind == "bid" and self.rs.tables.doubling and arg == self.rs.tables.double_offset:  # said after it
            return f"{who} double{s}: the stake is now x{self.state.doubled}."
        if kind == "bid" and self.rs.tables.auction_suits:
            return f"{who} bid{s} {self.open_bid(arg)}."
        if kind == "bid":
            return f"{who} bid{s} {values[arg] if values else self.tricks(arg)}."
        if kind == "call" and arg == self.rs.layout.size:
            return f"{who} call{s} nobody and play{s} alone against all the others."
        if kind == "call":
            return (f"{who} call{s} {self.card(arg)}: whoever holds it plays with {'you' if s == '' else 'them'}, "
                    "the others told who only when it is played.")
        if kind == "exchange" and (made := self.state.view(self.seat).exchanged) is not None:
            return (f"{who} trade{s} {self.card(made[1])} for the turned-up {self.card(made[2])}: "
                    f"{self.card(made[1])} now lies under the stock, the last card to be drawn.")
        if kind == "give":  # only the person's own: another seat's passes are told as a count (pass_news)
            return f"{who} pass{'es' if s else ''} {self.card(arg)} to {self.who(self.receiver(seat))}."
        return f"{who}: {self.state.action_to_string(action)}."

    # ------------------------------------------------------------------ the game
    def run(self) -> GameState:
        """Play to the end; raises :class:`Quit` when the person stops."""
        state = self.state
        if self.rs.tables.side_cards:
            self.say(f"{self.rs.name}: you are seat {self.seat}. Each hand {self.side_names[0]} plays against "
                     f"{self.side_names[1]}, nobody told who holds it; every seat keeps its own score.")
        elif self.per_hand:
            passed = f"; when everyone passes, {self.holder_names[0]} plays against {self.holder_names[1]}, nobody " \
                "told who holds it" if self.rs.tables.all_pass_side_cards and self.holder_names else ""
            self.say(f"{self.rs.name}: you are seat {self.seat}. Each hand the declarer plays alone against "
                     f"the other seats{passed}; every seat keeps its own score.")
        elif len(self.rs.players.teams[self.team_of[self.seat]]) == 1:
            self.say(f"{self.rs.name}: you are seat {self.seat}; every seat plays for itself.")
        else:
            self.say(f"{self.rs.name}: you are seat {self.seat}, {self.team(self.team_of[self.seat])}.")
        bots = [f"seat {s} {self.agent_names[s]}" for s in range(self.rs.players.count)
                if s != self.seat and s < len(self.agent_names)]
        if bots:
            self.say("Bots: " + ", ".join(bots) + ".")
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                self.deal()
                continue
            legal = state.legal_actions()
            if len(legal) == 1 and legal[0] < state.actions.ncards:
                action = legal[0]  # a forced card is played without asking
            elif seat == self.seat:
                action = self.ask(legal)
            else:
                agent = self.agents[seat]
                assert agent is not None, f"no agent at seat {seat}"
                action = legal[0] if len(legal) == 1 else agent.act(state, legal, self.rng)
            self.act(seat, action, legal)
        self.finish()
        return state

    def deal(self) -> None:
        state = self.state
        state.deal_shuffled()
        view = state.view(self.seat)
        self.say()
        game = f"Game {view.game + 1}, hand" if self.rs.session.games_to_win > 1 else "Hand"
        # where a schedule changes the hand size, how many cards this deal gives
        cards = state.hand_tricks
        each = f" {cards} card{'' if cards == 1 else 's'} each." if self.rs.tables.deal_cycle > 1 else ""
        out = f" and sit{'' if view.dealer == self.seat else 's'} the hand out" if view.dealer in view.sitting_out else ""
        self.say(f"=== {game} {view.hand_number}: {self.who(view.dealer)} deal{'' if view.dealer == self.seat else 's'}"
                 f"{out}.{each} ===")
        if view.offered is not None:
            self.say(f"Turned up: {self.card(view.offered)}.")
        if view.face_up:
            self.say(self.face_up_text(view))
        if view.trump is not None and self.rs.trump.method == "drawn":  # chance drew it, after the pack
            maker = f" Its makers: {self.team(view.maker)}." if view.maker is not None else ""
            self.say(f"Trump drawn by chance: {self.suit(view.trump)}.{maker}")
        elif view.trump is not None:
            self.say(f"Trump is {self.suit(view.trump)}.")
        if self.rs.passing is not None and not state.passing_offset():
            self.say("Nobody passes cards this hand.")

    def face_up_text(self, view: SeatView) -> str:
        return "Face up: " + ", ".join(f"{self.card(c)} ({'table' if s is None else self.who(s)})"
                                       for c, s in view.face_up) + "."

    def act(self, seat: int, action: int, legal: Sequence[int]) -> None:
        state = self.state
        tricks = len(state.finished_tricks())
        hands = len(state.hands)
        ctx = state.context
        view = state.view(self.seat)
        phase = "out_of_turn" if state.asked_out_of_turn else view.phase
        state.apply(action)
        kind, _ = state.actions.decode(action)
        if kind == "discard" and seat != self.seat:
            self.hidden_discards += 1  # face down: counted, told once the discard is over
        elif kind == "give" and seat != self.seat:
            self.pass_news(seat)
        elif kind != "declare":  # a declaration is told with its cards (news)
            self.say(self.deed(seat, action, legal, view.offered, phase))
        self.news(view, state.view(self.seat))
        if len(state.hands) > hands:
            summary = state.hands[-1]
            if len(summary.played_tricks) > tricks:
                last = summary.played_tricks[-1]  # the engine has moved on: explain with the hand's context
                self.trick_done(len(summary.played_tricks), last, why_wins(self.rs, ctx, last[1], True), summary.sitting_out)
            self.hand_done()
            return
        if len(state.finished_tricks()) > tricks:
            self.trick_done(len(state.finished_tricks()), state.finished_tricks()[-1], explain_trick(state, -1),
                            state.sitting_out)

    def receiver(self, seat: int) -> int:
        """The seat ``seat`` passes its cards to in this hand."""
        return (seat + self.state.passing_offset()) % self.rs.players.count

    def pass_news(self, seat: int) -> None:
        """Another seat has passed a card: told only once it has passed all its cards, and only
        how many and to whom, since the cards are seen by their receiver alone (in an exchange, the
        person receiving them is told which at once: he takes them up before giving his own)."""
        state = self.state
        if state.view(self.seat).phase == "pass" and state.current_player() == seat:
            return
        received = state.view(self.seat).received
        if self.rs.passing is None and self.receiver(seat) == self.seat and received:  # an exchange: taken up at once
            self.say(f"{self.subject(seat)} passes you {self.cards_text(received)}.")
            return
        self.say(f"{self.subject(seat)} passes {self.cards_passed()} to {self.who(self.receiver(seat))}.")

    def news(self, before: SeatView, after: SeatView) -> None:
        """What the person's seat learns from one action beyond the deed itself: the trump or
        contract fixed and who plays with whom, the kitty shown or taken, a discard finished,
        declarations made."""
        if after.phase == "over" or after.hand_number != before.hand_number:
            return  # the hand is over: its summary says the rest
        stuck = [s for s, word in after.decisions[len(before.decisions):] if word == "stuck"]
        if stuck:  # `on_all_pass: last_seat_declares`: the last seat left declares at the lowest value, unasked
            mine = stuck[0] == self.seat
            self.say(f"Everyone else passed: {self.who(stuck[0])} {'are' if mine else 'is'} stuck with the "
                     f"lowest bid, {self.state.auction_value}, and {'declare' if mine else 'declares'}.")
        # card_holders (or the hand everyone passed into played so), or a called partner
        hidden = bool(self.rs.tables.side_cards) or self.state.called >= 0 \
            or self.state.all_passed and bool(self.rs.tables.all_pass_side_cards)
        if hidden and after.sides is not None:  # sides hidden until revealed: those this seat learns now
            for who, side in enumerate(after.sides):
                if side >= 0 and (before.sides is None or before.sides[who] < 0):
                    self.say(f"{self.subject(who)} {'are' if who == self.seat else 'is'} on {self.side_names[side]}.")
        elif after.sides is not None and before.sides is not None and after.sides != before.sides:
            for who in range(len(after.sides)):  # a partner found by a trick (`partner_by_trick`), in everyone's sight
                if after.sides[who] != before.sides[who]:
                    self.say(f"{self.subject(who)} {'join' if who == self.seat else 'joins'} the declarer's side.")
        if self.state.all_passed and before.contract is None:
            c = self.contract(after.contract)
            sides = "the holders of a side card against the rest" if self.rs.tables.all_pass_side_cards \
                else "every player for themselves"
            self.say(f"Everyone passed: {c.name if c is not None else after.contract} is played with no declarer, "
                     f"{sides}.")
        elif self.per_hand and not hidden and after.sides is not None and before.sides is None:
            c = self.contract(after.contract)
            declarer = after.sides.index(0)  # side 0 is the declarer's
            what = f" with {c.name}" if c is not None else ""
            mine = declarer == self.seat
            teams = f"{'you call' if mine else 'they call'} a partner's card next" if c is not None and c.call \
                else self.sides_text(after.sides)
            self.say(f"{self.subject(declarer)} {'are' if mine else 'is'} the declarer{what}: {teams}.")
            if after.trump is not None and c is not None and c.trump == "named":
                self.say(f"Trump is {self.suit(after.trump)}.")
        elif after.trump is not None and after.trump != before.trump:
            maker = f", made by {self.side(after.maker, after.sides)}" if after.maker is not None else ""
            bid = self.state.auction_value if self.rs.tables.auction_suits else None
            at = f" at {bid}" + (f", doubled x{after.doubled}" if after.doubled > 1 else "") if bid else ""
            self.say(f"Trump is {self.suit(after.trump)}{maker}{at}.")
        elif after.contract is not None and before.contract is None and after.trump is None:
            c = self.contract(after.contract)
            trumps = {"all_suits": "every suit played as trumps", "first_lead": "the suit of the first card led "
                      "is trump"}.get(c.trump if c is not None else "", "no trump")
            self.say(f"Contract: {c.name if c is not None else after.contract}, {trumps}.")
        elif after.offered is not None and after.offered != before.offered:
            self.say(f"Turned up: {self.card(after.offered)}.")
        fixed = self.contract(after.contract)
        called_first = fixed is not None and fixed.call is not None and fixed.call.when == "before_kitty"
        if after.contract is not None and (before.phase == "call" != after.phase if called_first  # after the call
                                           else before.contract is None):
            self.kitty_news(after)
        if after.taken is not None and before.taken is None:
            taker = after.discarding_seat
            mine = taker == self.seat
            self.say(f"{self.subject(taker)} {'take' if mine else 'takes'} {self.card(after.taken)} "  # type: ignore[arg-type]
                     f"into {'your' if mine else 'their'} hand.")
        if before.phase == "discard" and after.phase != "discard" and self.hidden_discards:
            count, self.hidden_discards = self.hidden_discards, 0
            shown = f"; shown: {self.cards_text(after.discarded)}" if after.discarded else ""
            self.say(f"{self.subject(before.current_player)} discards {count} card{'s' if count != 1 else ''} "
                     f"face down{shown}.")
        if before.phase == "pass" and after.phase != "pass" and (after.passed or after.received):
            giver = (self.seat - self.state.passing_offset()) % self.rs.players.count
            self.say(f"You passed {self.cards_text(after.passed)} to {self.who(self.receiver(self.seat))}; "
                     f"you received {self.cards_text(after.received)} from {self.who(giver)}.")
        if before.phase == "bid" and after.phase != "bid":
            total = sum(b for b in after.bids if b >= 0)
            self.say(f"Bids: {self.bids_text(after)}; {total} bid for {self.tricks(after.hand.bit_count())}.")
        names = {d.id: d.name for d in self.rs.declarations}
        for meld in after.melds[len(before.melds):]:
            kind, pattern, seat, value, cards = meld
            s = "" if seat == self.seat else "s"
            shown = f": {self.cards_text(cards)}" if cards else ""
            self.say(f"{self.subject(seat)} declare{s} {names[kind]} ({pattern}, {value}){shown}.")

    def kitty_news(self, after: SeatView) -> None:
        """The contract just fixed: what happens to the kitty, as every seat sees it."""
        c = self.contract(after.contract)
        if c is None or self.rs.tables.kitty is None:
            return
        declarer = after.deciding_seat
        takes = f"{self.subject(declarer)} {'take' if declarer == self.seat else 'takes'}"  # type: ignore[arg-type]
        if c.kitty.shown:
            self.say(f"The kitty is shown: {self.cards_text(after.kitty)}." + (f" {takes} it." if c.kitty.taken else ""))
        elif c.kitty.taken and declarer == self.seat:
            self.say(f"You take the kitty without showing it: {self.cards_text(after.kitty)}.")
        elif c.kitty.taken:
            self.say(f"{takes} the kitty without showing it.")
        else:
            owner = {"declarer": "the declarer", "opponents": "the defence" if self.per_hand else "the declarer's opponents",
                     "last_trick": "whoever takes the last trick"}.get(c.aside_counts_for)
            self.say("The kitty stays face down" + (f"; it counts for {owner}." if owner else "."))

    def trick_done(self, number: int, trick: tuple[int, tuple[Card, ...], int], why: str,
                   sitting_out: tuple[int, ...]) -> None:
        leader, cards, winner = trick
        order = play_orders(self.rs.players.count, sitting_out)[leader]
        played = ", ".join(f"{self.who(seat)} {self.card(c)}" for seat, c in zip(order, cards))
        self.say(f"Trick {number} ({played}): {self.who(winner)} win{'' if winner == self.seat else 's'}"
                 f" — {why}.")

    def hand_done(self) -> None:
        state = self.state
        h = state.hands[-1]
        sides = h.sides
        self.say()
        if h.outcome == "passed_out" and h.trump_path == "annulled":
            checks = self.rs.deal_checks
            what = f"a dealt hand ({checks[0].name})" if len(checks) == 1 else "a dealt hand"
            self.say(f"Hand {h.number}: {what} annuls the deal; it is dealt again.")
        elif h.outcome == "passed_out":
            nobody = "nobody bid" if self.rs.trump.method == "auction" else "nobody took the trump"
            self.say(f"Hand {h.number}: {nobody}; the deal is thrown in.")
        else:
            trump = self.suit(self.layout.suits.index(h.trump)) if h.trump else "none"
            maker = f"; {self.sides_text(sides)}" if sides else f", maker {self.team(h.maker)}" if h.maker is not None else ""
            self.say(f"Hand {h.number} over. Trump {trump}{self.contract_words(h.contract)}{maker}.")
            if self.rs.play.stop_when and len(h.played_tricks) < self.rs.tables.tricks_of(h.number - 1):
                self.say(f"The hand stopped after {self.tricks(len(h.played_tricks))}: its stop rule held "
                         f"(`{' '.join(self.rs.play.stop_when.split())}`); the cards not played count for nobody.")
            if h.bids:
                self.say(f"Bids: {self.bids_and_tricks(h.bids, h.tricks, sides)}.")
            elif not self.card_points:
                self.say("Tricks: " + " | ".join(f"{self.side(t, sides)} {n}" for t, n in enumerate(h.tricks)) + ".")
            if self.card_points:
                self.say("Points: " + " | ".join(f"{self.side(t, sides)} {self.points(p)} ({self.tricks(h.tricks[t])})"
                                                 for t, p in enumerate(h.points)))
            kept = [f"{d.name}: " + ", ".join(f"{self.side(t, sides)} {v}" for t, v in enumerate(values) if v)
                    for d, values in zip(self.rs.declarations, h.declared) if any(values)]
            if kept:
                self.say("Declarations kept: " + "; ".join(kept) + ".")
            if h.outcome == "winner":
                extra = " (every trick)" if h.all_tricks else ""
                made = ""
                if h.maker is not None and not sides:  # with sides per hand, the side's name says it
                    made = "; the maker made it" if h.maker == h.winner else "; the maker is beaten"
                side = self.side(h.winner, sides)
                self.say(f"Outcome: {side} win{'' if side == 'you' else 's'} the hand{extra}{made}.")
            elif h.outcome == "tie":
                self.say("Outcome: a tie.")
            elif h.trump_path == "all_passed":
                self.say("Outcome: no declarer; each player is scored on their own.")
            else:
                self.say("Outcome: nobody scores (the maker fell short of its target).")
        changes = [f"{self.team(t)} {d:+d}" for t, d in enumerate(h.deltas) if d]
        if changes:
            self.say("Scoring: " + ", ".join(changes) + (f" (x{h.multiplier})" if h.multiplier != 1 else "") + ".")
        self.say(self.scoresheet(h.scores, h.tallies))
        result = state.result
        if self.rs.session.games_to_win > 1 and (result is None or not result.abandoned):
            games, before = state.view(self.seat).games_won, self.games_won
            self.games_won = games
            if sum(games) > sum(before):
                winner = next(t for t, (now, was) in enumerate(zip(games, before)) if now > was)
                self.say(f"Game {h.game + 1} goes to {self.team(winner)}. Games won: "
                         + " | ".join(f"{self.team(t)} {g}" for t, g in enumerate(games)) + ".")

    def finish(self) -> None:
        result = self.state.result
        assert result is not None
        self.say()
        if result.abandoned or result.winner is None:
            self.say(f"No winner: the game was abandoned at a limit after {result.hands} hands"
                     f"{f' and {len(result.games)} games' if self.rs.session.games_to_win > 1 else ''}.")
            return
        mine = result.winner == self.team_of[self.seat]
        self.say(f"Winner: {self.team(result.winner)} after {result.hands} hands. "
                 f"{'You win!' if mine else 'You lose.'}")

    # ------------------------------------------------------------------ the person's turn
    def show_status(self, legal: Sequence[int]) -> None:
        state = self.state
        v = state.view(self.seat)
        self.say()
        deals = self.rs.scoresheet.deals
        of = f" of {deals}" if deals else ""
        self.say(f"--- Your turn (seat {self.seat}) · hand {v.hand_number}{of} · dealer: {self.who(v.dealer)} ---")
        self.say(self.scoresheet(v.scores, v.tallies))
        pending = []
        if v.ties_pending:
            pending.append(f"{v.ties_pending} tie{'s' if v.ties_pending > 1 else ''}")
        if v.passes_pending:
            pending.append(f"{v.passes_pending} passed-out deal{'s' if v.passes_pending > 1 else ''}")
        if pending:
            self.say("Pending: " + ", ".join(pending) + ".")
        if v.trump is not None or v.contract is not None:
            trump = self.suit(v.trump) if v.trump is not None else "none"
            if v.phase == "call" and v.deciding_seat is not None:  # the sides are fixed by the call about to be made
                maker = f"; {self.who(v.deciding_seat)} {'call' if v.deciding_seat == self.seat else 'calls'} " \
                    "a partner's card now"
            elif self.per_hand and v.sides is not None:
                maker = f"; {self.sides_text(v.sides)}"
            else:
                maker = f", maker {self.team(v.maker)}" if v.maker is not None else ""
            self.say(f"Trump: {trump}{self.contract_words(v.contract)}{maker}.")
        elif self.rs.trump.method == "none":
            self.say("Trump: none in this game.")
        elif v.phase in TRUMP_FIXED:  # the procedure gave none (nothing left to turn up): a hand without trump
            self.say("Trump: none in this hand.")
        else:
            self.say("Contract: not fixed yet." if v.phase == "auction" else "Trump: not fixed yet.")
        if v.doubled > 1:
            self.say(f"The stake is doubled: x{v.doubled}.")
        if self.state.asked_out_of_turn:
            self.say("You are asked out of turn whether to double the last bid (passing is no call).")
        if v.offered is not None:
            self.say(f"Offered: {self.card(v.offered)}.")
        if v.decisions and v.phase in ("offer", "name", "choose", "auction", "kitty"):
            names = {c.id: c.name for c in self.rs.contracts}
            self.say("Said so far: " + ", ".join(f"{self.who(s)} {names.get(w, w)}" for s, w in v.decisions) + ".")
        if v.kitty:
            self.say(f"Kitty: {self.cards_text(v.kitty)}.")
        if v.discarded:
            whose = "Your discard" if v.discarding_seat == self.seat else \
                f"Shown in {self.who(v.discarding_seat)}'s discard"  # type: ignore[arg-type]
            self.say(f"{whose}: {self.cards_text(v.discarded)}.")
        if v.phase == "discard" and v.taken is not None:
            self.say(f"You took {self.card(v.taken)}: discard a card face down for it (it may be this one).")
        if v.phase == "kitty" and v.current_player == self.seat:
            self.say("You declare: accept takes the kitty into your hand (you then discard as many cards), "
                     "pass leaves it unseen.")
        if v.face_up:
            self.say(self.face_up_text(v))
        if self.rs.play.draw is not None and v.phase in ("play", "announce"):  # `play.draw`: the stock and the last draws
            last = v.drawn[-len(v.hand_sizes) * self.rs.play.draw.cards:]
            drew = ", ".join(f"{self.who(s)} {self.card(c) if c >= 0 else 'a card'}" for s, c in last)
            self.say(f"Stock: {v.stock} card{'' if v.stock == 1 else 's'} left to draw." + (f" Last drawn: {drew}." if drew else ""))
        if v.announcements:
            names = {a.id: a.name for a in self.rs.announcements}
            self.say("Announced: " + ", ".join(f"{names[a]} by {self.who(s)}" for a, s in v.announcements) + ".")
        if v.sitting_out:
            held = [s for s in v.sitting_out if v.hand_sizes[s]]  # a dealer sitting out holds none
            what = " (cards face down, no card to play)" if held else ""
            self.say(f"Sitting this hand out{what}: {self.seats(v.sitting_out)}.")
        if v.phase == "bid":
            self.say(f"Bids so far: {self.bids_text(v)}.")
        elif v.bids:
            self.say(f"Bids and tricks taken: {self.bids_and_tricks(v.bids, v.tricks, v.sides)}.")
        if v.phase in ("play", "announce"):
            if v.trick:
                self.say("Trick: " + ", ".join(f"{self.who(s)} {self.card(c)}" for s, c in v.trick) + ".")
            elif v.leader is None:  # the declarer's announcements come before the first lead
                self.say("Trick: nobody has led yet.")
            else:
                self.say("Trick: you lead." if v.current_player == self.seat else "Trick: (empty).")
            if not v.points and not v.bids:  # sides hidden from this seat: their totals would tell them
                self.say("Points so far: not known until you know every side.")
            elif self.card_points:
                self.say("Points so far: " + " | ".join(f"{self.side(t, v.sides)} {self.points(p)}"
                                                        for t, p in enumerate(v.points)) + ".")
            elif not v.bids:
                self.say("Tricks so far: " + " | ".join(f"{self.side(t, v.sides)} {n}" for t, n in enumerate(v.tricks)) + ".")
        if v.unseen >> self.seat & 1:  # a blind bid is decided before the cards are seen: none is shown
            self.say(f"You have not looked at your cards: bid {self.tricks(self.rs.bids.blind)} blind "  # type: ignore[union-attr]
                     "(for the blind bid's score), or look at them and then bid.")
        else:
            self.say(f"Your hand: {self.hand_text(v.hand)}")
        dummy = self.state.playing_seat
        if v.phase == "play" and v.current_player == self.seat and dummy != self.seat:  # `play.dummy`: his to play
            shown = sum(1 << card for card, holder in v.face_up if holder == dummy)
            self.say(f"You play the dummy's card, {self.who(dummy)}'s: {self.hand_text(shown)}")
        if self.bidding(legal):
            self.say(f"Your bid: how many tricks will you take? {self.bid_choices(legal)}. Type the number.")
            return
        if self.passing(legal):
            left = self.rs.pass_cards - v.passed.bit_count()
            so_far = f" (passed so far: {self.cards_text(v.passed)})" if v.passed else ""
            self.say(f"Pass {self.cards_passed()} to {self.who(self.receiver(self.seat))}: {left} still to pass{so_far}. "
                     "Type a card, or its number.")
        self.say("Choices: " + "  ".join(f"{i}) {self.choice_label(a, legal)}" for i, a in enumerate(legal, 1)))

    def bidding(self, legal: Sequence[int]) -> bool:
        """The person's decision is a bid of tricks: a number typed is the bid, not a choice's position."""
        return all(self.state.actions.decode(a)[0] == "bid" for a in legal)

    def passing(self, legal: Sequence[int]) -> bool:
        """The person's decision is a card to pass: a card named is the one passed, not played."""
        return all(self.state.actions.decode(a)[0] == "give" for a in legal)

    def bid_choices(self, legal: Sequence[int]) -> str:
        """``0 to 10, not 3 (why)``: the numbers the person may bid, with the engine's reason for the
        numbers of the ruleset's range left out (the hook)."""
        acts = self.state.actions
        numbers = [a - acts.bid0 for a in legal]
        low, high = (self.rs.bids.lowest, self.rs.bids.highest) if self.rs.bids else (min(numbers), max(numbers))
        missing = [n for n in range(low, (high or 0) + 1) if n not in numbers]
        if len(numbers) == 1:
            text = str(numbers[0])
        elif len(missing) > 2:
            return ", ".join(map(str, numbers))
        else:
            text = f"{low} to {high}" + (f", not {' or '.join(map(str, missing))}" if missing else "")
        if missing:
            reason = self.refusal(acts.bid0 + missing[0])
            text += f" ({reason.removeprefix(f'bid {missing[0]} is not allowed: ')})"
        return text

    def refusal(self, action: int) -> str:
        """Why the engine refuses ``action`` now."""
        try:
            self.state.clone().apply(action)
        except IllegalAction as exc:
            return str(exc)
        return "it is not one of your choices now"

    def ask(self, legal: Sequence[int]) -> int:
        self.show_status(legal)
        while True:
            click.echo("> ", file=self.out, nl=False)
            line = self.inp.readline()
            if not line:
                if self.echo_input:
                    self.say()
                raise Quit("end of input")
            answer = line.strip()
            if self.echo_input:
                self.say(answer)
            if not answer:
                continue
            if answer.lower() in QUIT_WORDS:
                raise Quit("quit")
            if answer.lower() in HELP_WORDS:
                self.say("Type the number of a choice, or its name: a card like AS, 10h or A♠; accept, pass, "
                         "name H, announce ID, no, contract ID, discard CARD, declare ID; when bidding tricks, "
                         "the number of tricks (or bid N); when passing cards, the card to pass (or pass CARD). "
                         "'why' explains which cards you may play; 'quit' stops.")
                self.show_status(legal)
                continue
            if answer.lower() == "why":
                if self.passing(legal):  # the rules of play do not bear on the cards passed
                    self.say("You may pass any card you hold.")
                else:
                    self.explain_cards()
                continue
            action = self.parse(answer, legal)
            if action is not None:
                return action

    def parse(self, answer: str, legal: Sequence[int]) -> int | None:
        """The legal action ``answer`` names, or None after saying why it is refused."""
        bidding = self.bidding(legal)
        if answer.isascii() and answer.isdigit() and bidding:  # a number of tricks, not a choice's position
            acts, bids = self.state.actions, self.rs.bids
            if acts.bid0 + int(answer) >= acts.ends(acts.bid0) and bids is not None:
                self.say(f"There is no bid {int(answer)}: bids go from {bids.lowest} to {bids.highest}. Choose again.")
                return None
            answer = f"bid {int(answer)}"
        elif answer.isascii() and answer.isdigit():  # "²" is a digit to str.isdigit, not to int()
            number = int(answer)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.say(f"There is no choice {number}: choose 1 to {len(legal)}.")
            return None
        state = self.state
        text = answer
        symbols = self.layout.suit_symbols
        if text[:1] in symbols and len(text.split()) == 1:  # ♠A as the explanations write it
            text = text[1:] + text[:1]
        try:
            action = state.string_to_action(self.seat, text)
        except (ValueError, CardNotationError) as exc:
            numbers = "a number of tricks" if bidding else f"a number from 1 to {len(legal)}"
            self.say(f"Cannot read {answer!r}: {exc}. Type {numbers}, or 'help'.")
            return None
        if action < state.actions.ncards and self.passing(legal):
            action += state.actions.give0  # a card named while passing is the card to pass
        if action in legal:
            return action
        kind, given = state.actions.decode(action)
        if kind == "give" and not state.hand_of(self.seat) >> given & 1:
            self.say(f"You do not hold {self.card(given)}. Choose again.")
            return None
        if action < state.actions.ncards and state.view(self.seat).phase == "play":
            for card, ok, reason in explain_legal(state, self.seat):
                if card == action and not ok:
                    self.say(f"You may not play {self.card(card)}: {reason}. Choose again.")
                    return None
            if not state.hand_of(self.seat) >> action & 1:
                self.say(f"You do not hold {self.card(action)}. Choose again.")
                return None
        self.say(f"Not allowed: {self.refusal(action)}. Choose again.")
        return None

    def explain_cards(self) -> None:
        verdicts = explain_legal(self.state, self.seat)
        if not verdicts:
            self.say("You hold no cards.")
        for card, ok, reason in verdicts:
            self.say(f"  {self.card(card)}: {'yes' if ok else 'no'} — {reason}")


def play(ruleset: Ruleset, *, seat: int, agents: Sequence[Agent | None], seed: int | None, inp: TextIO,
         out: TextIO | None = None, agent_names: Sequence[str] = (), echo_input: bool = False) -> GameState:
    """Play a whole game with the person at ``seat``; returns the state, finished unless :class:`Quit` was raised."""
    table = Table(ruleset, seat=seat, agents=agents, seed=seed, agent_names=agent_names, inp=inp, out=out,
                  echo_input=echo_input)
    return table.run()
