"""Play one whole game (or session) of any ruleset at one seat, against bots, in plain text.

:class:`Table` runs the loop: deals come from the game's own seeded generator, bots answer
through the :class:`~couillon_dsl.agents.Agent` protocol, and the person's choices are read
line by line from an input stream, so a test can drive a whole game with a string. At each
of the person's decisions it shows the scoresheet, dealer, trump and maker, face-up cards,
the trick in progress, the hand and the numbered legal choices; an illegal card is refused
with the engine's reason (:func:`~couillon_dsl.engine.why.explain_legal`). After each trick
it says who won and why, after each hand the points, the outcome and the scoresheet.

Nothing here knows a variant: every word comes from the compiled ruleset and the engine.
"""
from __future__ import annotations

import random
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
)
from couillon_dsl.engine.why import why_wins
from couillon_dsl.model import Ruleset
from couillon_dsl.simulation import AGENTS_SALT

QUIT_WORDS = frozenset({"quit", "exit", "q", ":q"})
HELP_WORDS = frozenset({"help", "?", "h"})


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

    def team(self, team: int | None) -> str:
        if team is None:
            return "nobody"
        members = self.rs.players.teams[team]
        if len(members) == 1:
            return self.who(members[0])
        others = [str(s) for s in members if s != self.seat]
        seats = f"seat{'s' if len(others) > 1 else ''} {', '.join(others)}"
        return f"team {team} (you, {seats})" if len(others) < len(members) else f"team {team} ({seats})"

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

    def scoresheet(self, scores: Sequence[int]) -> str:
        sheet = self.rs.scoresheet
        parts = [f"{self.team(t)} {v}" for t, v in enumerate(scores)]
        goal = f"first to {sheet.goal} {'or below' if sheet.direction == 'down' else 'or more'}"
        return "Scoresheet: " + " | ".join(parts) + f"   ({goal})"

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
        return self.state.action_to_string(action)

    def offered_announcement(self, legal: Sequence[int]) -> str:
        decode = self.state.actions.decode
        offered = [arg for kind, arg in map(decode, legal) if kind == "announce"]
        return self.rs.announcements[offered[0]].name if offered else "anything"

    def deed(self, seat: int, action: int, legal: Sequence[int], offered: Card | None) -> str:
        """What ``seat`` did, as a sentence: ``Seat 1 plays ♠K.``"""
        kind, arg = self.state.actions.decode(action)
        who = self.subject(seat)
        s = "" if seat == self.seat else "s"
        if kind == "card":
            return f"{who} play{s} {self.card(arg)}."
        if kind == "accept":
            took = f" {self.card(offered)}" if offered is not None else ""
            return f"{who} accept{s}{took}."
        if kind == "pass":
            return f"{who} pass{'es' if s else ''}."
        if kind == "defer":
            return f"{who} defer{s} the choice of trump."
        if kind == "name":
            return f"{who} name{s} {self.suit(arg)} as trump."
        if kind == "show":
            return f"{who} show{s} {self.card(arg)}."
        if kind == "announce":
            return f"{who} announce{s} {self.rs.announcements[arg].name}!"
        if kind == "no":
            return f"{who} {'does' if s else 'do'} not announce {self.offered_announcement(legal)}."
        return f"{who}: {self.state.action_to_string(action)}."

    # ------------------------------------------------------------------ the game
    def run(self) -> GameState:
        """Play to the end; raises :class:`Quit` when the person stops."""
        state = self.state
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
        self.say(f"=== {game} {view.hand_number}: {self.who(view.dealer)} deal{'' if view.dealer == self.seat else 's'}. ===")
        if view.offered is not None:
            self.say(f"Turned up: {self.card(view.offered)}.")
        if view.trump is not None:
            self.say(f"Trump is {self.suit(view.trump)}.")

    def act(self, seat: int, action: int, legal: Sequence[int]) -> None:
        state = self.state
        tricks = len(state.finished_tricks())
        hands = len(state.hands)
        ctx = state.context
        view = state.view(self.seat)
        state.apply(action)
        self.say(self.deed(seat, action, legal, view.offered))
        if len(state.hands) > hands:
            summary = state.hands[-1]
            if len(summary.played_tricks) > tricks:
                last = summary.played_tricks[-1]  # the engine has moved on: explain with the hand's context
                self.trick_done(len(summary.played_tricks), last, why_wins(self.rs, ctx, last[1]))
            self.hand_done()
            return
        if len(state.finished_tricks()) > tricks:
            self.trick_done(len(state.finished_tricks()), state.finished_tricks()[-1], explain_trick(state, -1))
        after = state.view(self.seat)
        if after.trump is not None and after.trump != view.trump:
            maker = f", made by {self.team(after.maker)}" if after.maker is not None else ""
            self.say(f"Trump is {self.suit(after.trump)}{maker}.")
        elif after.offered is not None and after.offered != view.offered:
            self.say(f"Turned up: {self.card(after.offered)}.")

    def trick_done(self, number: int, trick: tuple[int, tuple[Card, ...], int], why: str) -> None:
        leader, cards, winner = trick
        n = self.rs.players.count
        played = ", ".join(f"{self.who((leader + i) % n)} {self.card(c)}" for i, c in enumerate(cards))
        self.say(f"Trick {number} ({played}): {self.who(winner)} win{'' if winner == self.seat else 's'}"
                 f" — {why}.")

    def hand_done(self) -> None:
        state = self.state
        h = state.hands[-1]
        nteams = len(self.rs.players.teams)
        self.say()
        if h.outcome == "passed_out":
            self.say(f"Hand {h.number}: nobody took the trump; the deal is thrown in.")
        else:
            self.say(f"Hand {h.number} over. Trump {self.suit(self.layout.suits.index(h.trump)) if h.trump else 'none'}"
                     f", maker {self.team(h.maker)}.")
            self.say("Points: " + " | ".join(f"{self.team(t)} {h.points[t]} ({h.tricks[t]} trick"
                                             f"{'' if h.tricks[t] == 1 else 's'})" for t in range(nteams)))
            if h.outcome == "winner":
                extra = " (every trick)" if h.all_tricks else ""
                made = ""
                if h.maker is not None:
                    made = "; the maker made it" if h.maker == h.winner else "; the maker is beaten"
                self.say(f"Outcome: {self.team(h.winner)} wins the hand{extra}{made}.")
            elif h.outcome == "tie":
                self.say("Outcome: a tie.")
            else:
                self.say("Outcome: nobody scores (the maker fell short of its target).")
        changes = [f"{self.team(t)} {d:+d}" for t, d in enumerate(h.deltas) if d]
        if changes:
            self.say("Scoring: " + ", ".join(changes) + (f" (x{h.multiplier})" if h.multiplier != 1 else "") + ".")
        self.say(self.scoresheet(h.scores))
        result = state.result
        if self.rs.session.games_to_win > 1 and (result is None or not result.abandoned):
            games = state.view(self.seat).games_won
            if sum(games) > h.game:
                self.say(f"Game {h.game + 1} goes to {self.team(h.winner)}. Games won: "
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
        self.say(f"--- Your turn (seat {self.seat}) · hand {v.hand_number} · dealer: {self.who(v.dealer)} ---")
        self.say(self.scoresheet(v.scores))
        pending = []
        if v.ties_pending:
            pending.append(f"{v.ties_pending} tie{'s' if v.ties_pending > 1 else ''}")
        if v.passes_pending:
            pending.append(f"{v.passes_pending} passed-out deal{'s' if v.passes_pending > 1 else ''}")
        if pending:
            self.say("Pending: " + ", ".join(pending) + ".")
        if v.trump is not None:
            maker = f", maker {self.team(v.maker)}" if v.maker is not None else ""
            self.say(f"Trump: {self.suit(v.trump)}{maker}.")
        else:
            self.say("Trump: not fixed yet.")
        if v.offered is not None:
            self.say(f"Offered: {self.card(v.offered)}.")
        if v.decisions and v.phase in ("offer", "choose"):
            self.say("Said so far: " + ", ".join(f"{self.who(s)} {w}" for s, w in v.decisions) + ".")
        if v.face_up:
            self.say("Face up: " + ", ".join(f"{self.card(c)} ({'table' if s is None else self.who(s)})"
                                              for c, s in v.face_up) + ".")
        if v.announcements:
            names = {a.id: a.name for a in self.rs.announcements}
            self.say("Announced: " + ", ".join(f"{names[a]} by {self.who(s)}" for a, s in v.announcements) + ".")
        if v.phase in ("play", "announce"):
            if v.trick:
                self.say("Trick: " + ", ".join(f"{self.who(s)} {self.card(c)}" for s, c in v.trick) + ".")
            elif v.leader is None:  # the declarer's announcements come before the first lead
                self.say("Trick: nobody has led yet.")
            else:
                self.say("Trick: you lead." if v.current_player == self.seat else "Trick: (empty).")
            self.say("Points so far: " + " | ".join(f"{self.team(t)} {p}" for t, p in enumerate(v.points)) + ".")
        self.say(f"Your hand: {self.hand_text(v.hand)}")
        self.say("Choices: " + "  ".join(f"{i}) {self.choice_label(a, legal)}" for i, a in enumerate(legal, 1)))

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
                         "name H, announce ID, no. 'why' explains which cards you may play; 'quit' stops.")
                self.show_status(legal)
                continue
            if answer.lower() == "why":
                self.explain_cards()
                continue
            action = self.parse(answer, legal)
            if action is not None:
                return action

    def parse(self, answer: str, legal: Sequence[int]) -> int | None:
        """The legal action ``answer`` names, or None after saying why it is refused."""
        if answer.isascii() and answer.isdigit():  # "²" is a digit to str.isdigit, not to int()
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
            self.say(f"Cannot read {answer!r}: {exc}. Type a number from 1 to {len(legal)}, or 'help'.")
            return None
        if action in legal:
            return action
        if action < state.actions.ncards and state.view(self.seat).phase == "play":
            for card, ok, reason in explain_legal(state, self.seat):
                if card == action and not ok:
                    self.say(f"You may not play {self.card(card)}: {reason}. Choose again.")
                    return None
            if not state.hand_of(self.seat) >> action & 1:
                self.say(f"You do not hold {self.card(action)}. Choose again.")
                return None
        try:
            state.clone().apply(action)
            reason = "it is not one of your choices now"
        except IllegalAction as exc:
            reason = str(exc)
        self.say(f"Not allowed: {reason}. Choose again.")
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
