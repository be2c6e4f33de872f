"""Invariants of the engine over every built-in ruleset, with random legal play (hypothesis).

The follow rule and the trick winner are re-checked by a plainly written checker in this
file (card lists and rank positions, no masks or engine tables), and the scoresheet is
recomputed from the ruleset's own rules with facts rebuilt from the hand records.
"""
from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couillon_dsl.builtin import builtin_names
from couillon_dsl.compile import build_ruleset, compile_ruleset
from couillon_dsl.engine import CHANCE, GameState, HandFacts, HandSummary, IllegalAction, explain_legal, play_orders
from couillon_dsl.loader import load_ruleset
from couillon_dsl.model import Follow, Promotion, Ruleset
from couillon_dsl.validate import check
from example_games import EXAMPLES

PARTNER_FREE = str(Path(__file__).resolve().parent / "rulesets" / "partner-free.yaml")  # strict, free under a partner
RULESETS = builtin_names() + EXAMPLES + [PARTNER_FREE]  # the examples: games nobody designed the language for
_BUILT: dict[str, Ruleset] = {}


def plain_rules(rs: Ruleset) -> bool:
    """The plain checker below models the ruleset: no card roles, fixed teams, the outcome by
    comparison and no trick facts (tests/test_tarot_props.py checks those on French Tarot)."""
    return (not rs.card_roles and rs.players.sides == "teams" and rs.outcome.maker_wins is None
            and not rs.tables.reads_tricks)


def ruleset(name: str) -> Ruleset:
    if name not in _BUILT:
        _BUILT[name] = build_ruleset(name)
    return _BUILT[name]


WALKED_HANDS = 40  # a checked walk's games stop here: random Spades never reaches its goal (300 hands, a minute)


def walked_ruleset(name: str) -> Ruleset:
    """``name`` with its games abandoned after :data:`WALKED_HANDS` hands: every step of a checked
    walk is checked, and later hands repeat what the first forty showed."""
    key = f"{name} walked"
    if key not in _BUILT:
        document = load_ruleset(name)
        limits = {**(document.data.get("limits") or {})}
        limits["max_hands"] = min(WALKED_HANDS, ruleset(name).limits.max_hands)
        _BUILT[key] = compile_ruleset(dataclasses.replace(document, data={**document.data, "limits": limits}))
    return _BUILT[key]


# ---------------------------------------------------------------------- the plain checker
class Plain:
    """Card facts from the deck description alone: suits, rank orders, promotions, points."""

    def __init__(self, rs: Ruleset, trump: int | None, announced: set[str], contract: str | None = None) -> None:
        self.rs = rs
        layout = rs.layout
        chosen = next((c for c in rs.contracts if c.id == contract), None)
        self.plain_order = list(chosen.ranks) if chosen and chosen.ranks else list(rs.deck.ranks)
        self.plain_points = {**rs.deck.points, **((chosen.points if chosen else None) or {})}
        self.trump_points = {**(rs.deck.trump_points or rs.deck.points), **((chosen.trump_points if chosen else None) or {})}
        self.card_points = {layout.parse(card): value for card, value in (rs.deck.card_points or {}).items()}
        self.held_back = self.classes(rs.play.lead_once_broken)
        self.kept_off = self.classes(rs.play.not_on_first_trick)
        self.opening = layout.parse(rs.play.first_lead_card) if rs.play.first_lead_card else None
        self.trump = trump
        self.promoted = {self.promoted_card(p, trump): p.below for p in rs.deck.promotions
                         if trump is not None and (p.by_announcement is None or p.by_announcement in announced)}
        self.trump_order: list[int] = []
        if trump is not None:
            for rank in rs.deck.trump_ranks or rs.deck.ranks:
                card = layout.card(trump, layout.ranks.index(rank))
                if card not in self.promoted:
                    self.trump_order.append(card)
                self.trump_order.extend(c for c, below in self.promoted.items() if below == rank)
        self.exempt = set()
        for name in rs.play.follow.exempt:
            if name.upper().endswith("T") and trump is not None:
                self.exempt.add(layout.card(trump, [r.upper() for r in layout.ranks].index(name.upper()[:-1])))

    def promoted_card(self, promotion: Promotion, trump: int) -> int:
        """The card itself, or the rank in the one other suit sharing the trump suit's colour."""
        layout = self.rs.layout
        if promotion.card is not None:
            return layout.parse(promotion.card)
        suits = self.rs.deck.suits
        partner, = (s for s in range(len(suits)) if s != trump and suits[s].colour == suits[trump].colour)
        return layout.card(partner, layout.ranks_of(partner).index(promotion.rank))

    def suit(self, card: int) -> int:
        return self.trump if card in self.promoted else self.rs.layout.suit_of(card)  # type: ignore[return-value]

    def is_trump(self, card: int) -> bool:
        return self.trump is not None and self.suit(card) == self.trump

    def beats(self, a: int, b: int) -> bool:
        """a ranks above b in their (common) effective suit."""
        if self.is_trump(a):
            return self.trump_order.index(a) < self.trump_order.index(b)
        ranks = self.rs.layout.ranks
        return self.plain_order.index(ranks[self.rs.layout.rank_of(a)]) < self.plain_order.index(ranks[self.rs.layout.rank_of(b)])

    def best(self, cards: list[int]) -> int:
        best = cards[0]
        for card in cards[1:]:
            if self.suit(card) == self.suit(best) and self.beats(card, best):
                best = card
        return best

    def winner(self, trick: list[int]) -> int:
        """Index of the winning card: the highest trump, else the highest card of the led suit."""
        trumps = [c for c in trick if self.is_trump(c)]
        pool = trumps or [c for c in trick if self.suit(c) == self.suit(trick[0])]
        return trick.index(self.best(pool))

    def classes(self, classes: tuple[tuple[str, str], ...]) -> set[int]:
        """The cards of a list of card classes, read from the deck's names."""
        layout, sets = self.rs.layout, self.rs.deck.card_sets
        return {c for c in range(layout.size) for kind, key in classes
                if (kind == "suit" and layout.suits[layout.suit_of(c)] == key)
                or (kind == "rank" and layout.ranks[layout.rank_of(c)] == key)
                or (kind == "card" and layout.name(c) == key.upper())
                or (kind == "set" and layout.name(c) in sets[key])}

    def legal(self, trick: list[int], hand: list[int], gone: set[int] = frozenset(), leader: int = 0,
              follow: Follow | None = None) -> set[int]:
        """``gone``: the cards played in the hand so far, the trick's included; ``leader``: the
        trick's leader (whose partner is winning); ``follow``: the rules that bind (default `play.follow`)."""
        legal = self.by_the_follow_rules(trick, hand, gone - set(trick), leader, follow)
        if self.kept_off and not gone - set(trick):  # the first trick: no points while another card may go
            return (legal - self.kept_off) or legal
        return legal

    def partner_winning(self, trick: list[int], leader: int) -> bool:
        """Whether the card winning ``trick`` was played by a teammate of the seat to play next."""
        count = self.rs.players.count
        winner, seat = (leader + self.winner(trick)) % count, (leader + len(trick)) % count
        return any(winner in team and seat in team for team in self.rs.players.teams)

    def by_the_follow_rules(self, trick: list[int], hand: list[int], gone: set[int], leader: int,
                            follow: Follow | None = None) -> set[int]:
        """``gone``: the cards played in the hand's finished tricks; ``follow``: the rules that bind (default
        `play.follow`)."""
        follow = follow or self.rs.play.follow
        if not trick:
            if not gone and self.opening in hand:  # the first lead: its holder opens with the opening card
                return {self.opening}
            if self.held_back & gone:  # broken: anything may be led
                return set(hand)
            return {c for c in hand if c not in self.held_back} or set(hand)
        if follow.led_suit == "any":  # no duty to follow
            return set(hand)
        led = self.suit(trick[0])
        trumps = [c for c in hand if self.is_trump(c)]
        raising = follow.overtrump == "when_able" or follow.head == "when_able"
        if self.trump is not None and led == self.trump:
            if not [c for c in trumps if c not in self.exempt]:
                return set(hand)
            best = self.best([c for c in trick if self.is_trump(c)])
            higher = [c for c in trumps if self.beats(c, best)]
            return set(higher if raising and higher else trumps)
        trick_trumps = [c for c in trick if self.is_trump(c)]

        def playable_trumps(others_exist: bool) -> list[int]:
            if not trick_trumps:
                return trumps
            best = self.best(trick_trumps)
            higher = [c for c in trumps if self.beats(c, best)]
            if follow.overtrump == "when_able" and higher:
                return higher
            if follow.undertrump == "only_when_forced" and others_exist:
                return higher
            return trumps

        followers = [c for c in hand if self.suit(c) == led]
        if not followers and follow.when_partner_winning == "free" and self.partner_winning(trick, leader):
            return set(hand)
        if followers:
            if follow.head == "when_able" and (follow.head_when_trumped or not trick_trumps):
                best = self.best([c for c in trick if self.suit(c) == led])
                higher = [c for c in followers if self.beats(c, best)]
                followers = higher or followers
            if follow.led_suit == "must_follow":
                return set(followers)
            return set(followers) | set(playable_trumps(True))
        others = [c for c in hand if not self.is_trump(c)]
        allowed = playable_trumps(bool(others))
        if follow.when_void == "must_trump" and allowed:
            return set(allowed)
        return set(others) | set(allowed)

    def points(self, card: int) -> int:
        layout = self.rs.layout
        table = self.trump_points if self.is_trump(card) and card not in self.promoted else self.plain_points
        if card in self.card_points:  # deck.card_points: one card's own value (Hearts' queen of spades)
            return self.card_points[card]
        rank = layout.ranks[layout.rank_of(card)]
        return table[rank] if rank in table else table.get("default", 0)  # `default`: every rank not listed


# ---------------------------------------------------------------------- the game walker
def cards_of(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


class Walker:
    """Plays one game with random legal actions, checking invariants at every step."""

    def __init__(self, rs: Ruleset, seed: int) -> None:
        self.rs = rs
        self.rng = random.Random(seed)
        self.state = GameState(rs)
        self.deal_start = 0  # history index where the current deal's chance actions begin
        self.start_hands: list[int] | None = None
        self.played: dict[int, list[int]] = {}
        self.drawn: dict[int, list[int]] = {}  # `play.draw`: the cards each seat drew this hand, as its view shows
        self.traded: tuple[int, int, int] | None = None  # `play.draw.exchange` this hand: (seat, given, taken)
        self.view_checks = 0

    def run(self) -> None:
        state = self.state
        steps = 0
        while not state.is_terminal():
            steps += 1
            assert steps < 200_000, "the game does not end"
            seat = state.current_player()
            if seat == CHANCE:
                self.chance()
                continue
            legal = state.legal_actions()
            assert legal and legal == sorted(legal) and len(set(legal)) == len(legal)
            if state.view(seat).phase == "play":
                cards = [a for a in legal if a < self.rs.layout.size]
                for own in legal[len(cards):]:  # an announcement offered next to the cards: its card is held;
                    kind, arg = state.actions.decode(own)  # an optional declaration: the seat holds one
                    hand = state.hand_of(seat)
                    t = self.rs.tables
                    if kind == "announce" and t.side_deadlines and t.side_deadlines[arg] >= 0:  # for the seat's side
                        side = next(entry[1] for entry in t.side_offers if entry[0] == arg)
                        assert (0 if state.sides[seat] == state.view(seat).maker else 1) == side
                    elif kind == "announce" and any(a == arg for a, _ in t.leader_offers):  # before a lead
                        assert not state.current_trick()[1] and all(a != self.rs.announcements[arg].id
                                                                     for a, _ in state.view(seat).announcements)
                    elif kind == "announce":
                        assert hand >> t.holder_cards[arg] & 1
                    elif kind == "exchange":  # the leader, before his lead, holding the card, the stock full enough
                        view = state.view(seat)
                        turned = state.turned_card()
                        rule = next(r for r in t.exchanges if r.turned >> turned & 1)  # the first taking the turned card
                        assert not view.trick and view.exchanged is None and view.stock >= rule.min_stock
                        assert hand >> rule.cards[state.context.trump + 1] & 1
                    elif self.rs.declarations[arg].when == "trick_won":  # the winner of the last trick, on lead
                        view, done = state.view(seat), state.finished_tricks()
                        assert kind == "declare" and not view.trick and done and done[-1][2] == seat
                        table = t.declarations[arg]
                        shown = {(label, cards) for _, label, _, _, cards in view.melds}
                        assert any((table.labels[m.pattern], m.cards) not in shown
                                   for m in table.melds(hand, state.meld_trump, seat)), "only a meld not declared before"
                    else:
                        assert kind == "declare" and self.rs.tables.declarations[arg].melds(hand, state.context.trump, seat)
                self.check_play(seat, cards)
            if self.rng.random() < 0.05:
                self.check_view_hides(seat)
            count = len(state.hands)
            action = self.rng.choice(legal)
            led = None
            if 0 <= action < self.rs.layout.size and state.view(seat).phase == "play":  # a dummy's card is his
                self.played.setdefault(state.playing_seat, []).append(action)
                if self.rs.tables.led_melds and not state.current_trick()[1]:
                    led = (state.playing_seat, state.hand_of(state.playing_seat), len(state.view(seat).melds))
            before = state.hand_of(seat), state.turned_card()
            state.apply(action)
            if action == state.actions.exchange:
                self.check_exchange(seat, *before)
            if led is not None and len(state.hands) == count:
                self.check_led_melds(action, *led)
            if len(state.hands) > count:
                self.hand_over()

    def check_exchange(self, seat: int, hand: int, turned: int) -> None:
        """The trade for the turned card (`play.draw.exchange`) swaps the two cards, in every seat's sight: the
        card given lies face up under the stock, the card taken is known to be the trader's."""
        state = self.state
        given = next(r for r in self.rs.tables.exchanges if r.turned >> turned & 1).cards[state.context.trump + 1]
        assert state.hand_of(seat) == hand ^ (1 << given | 1 << turned) and state.turned_card() == given
        for other in range(self.rs.players.count):
            view = state.view(other)
            assert view.exchanged == (seat, given, turned)
            assert dict(view.face_up).get(turned) == seat and dict(view.face_up).get(given, -1) is None
        self.traded = (seat, given, turned)

    def check_led_melds(self, card: int, seat: int, hand: int, before: int) -> None:
        """A lead declares exactly the `when: led` melds of the leader's hand the led card is one of,
        their cards shown."""
        state, t = self.state, self.rs.tables
        new = state.view(seat).melds[before:]
        expected = [m for table in t.led_melds for m in table.melds(hand, state.meld_trump, seat) if m.cards >> card & 1]
        assert [(s, value, cards) for _, _, s, value, cards in new if s == seat and cards >> card & 1] == [
            (seat, m.value, m.cards) for m in expected]
        face_up = dict(state.view(seat).face_up)
        for m in expected:
            assert all(face_up.get(c) == seat for c in cards_of(m.cards & ~(1 << card))), "a led meld's rest is shown"

    def chance(self) -> None:
        state = self.state
        if not state.view(0).phase == "deal":
            state.apply(self.rng.choice(state.legal_actions()))  # the first dealer
            return
        self.deal_start = len(state.history())
        count = len(state.hands)
        if self.rng.random() < 0.5:
            state.deal_shuffled(self.rng)
        else:
            while state.current_player() == CHANCE and len(state.hands) == count:
                outcomes = state.chance_outcomes()
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
                state.apply(self.rng.choice(outcomes)[0])
        pack = state.history()[self.deal_start:self.deal_start + self.rs.layout.size]
        assert sorted(pack) == list(range(self.rs.layout.size)), "a deal draws every card exactly once"
        self.start_hands = None
        self.played = {}
        self.drawn = {}
        self.traded = None
        if len(state.hands) > count:  # passed out before anything else (cannot happen: someone speaks)
            self.hand_over()

    def plain(self, seat: int) -> Plain:
        view = self.state.view(seat)
        return Plain(self.rs, view.trump, {a for a, _ in view.announcements}, view.contract)

    def check_play(self, seat: int, legal: list[int]) -> None:
        state = self.state
        if self.start_hands is None:
            self.start_hands = [state.hand_of(s) for s in range(self.rs.players.count)]
            union = 0
            for hand in self.start_hands:
                assert union & hand == 0, "a card is in two hands"
                union |= hand
            assert len({h.bit_count() for h in self.start_hands}) == 1, "hands of different sizes"
        if self.rs.play.draw is not None:
            self.drawn = {s: [c for d, c in state.view(s).drawn if d == s] for s in range(self.rs.players.count)}
        leader, trick = state.current_trick()
        if plain_rules(self.rs):
            gone = {card for cards in self.played.values() for card in cards}
            expected = self.plain(seat).legal(list(trick), cards_of(state.hand_of(state.playing_seat)), gone, leader)
            draw = self.rs.play.draw
            if trick and draw is not None and draw.follow_obligations == "once_stock_empty" and state.view(seat).stock:
                # while cards are left to draw: any card, or what `while_stock` binds
                expected = set(cards_of(state.hand_of(seat))) if draw.while_stock is None else self.plain(seat).legal(
                    list(trick), cards_of(state.hand_of(seat)), gone, leader, draw.while_stock)
            assert set(legal) == expected, f"engine {legal} != plain checker {sorted(expected)} after {trick}"
        verdicts = {c for c, ok, _ in explain_legal(state, seat) if ok}
        assert verdicts == set(legal), "explain_legal disagrees with the engine"

    def hand_over(self) -> None:
        summary = self.state.hands[-1]
        if summary.outcome == "passed_out":
            return
        assert self.start_hands is not None
        played_out = True  # every card dealt or drawn was played (a hand may stop, or a stock be closed)
        for seat, hand in enumerate(self.start_hands):  # a seat sitting the hand out (`sits_out`) plays none
            dealt = [] if seat in summary.sitting_out else sorted(cards_of(hand) + self.drawn.get(seat, []))
            if self.traded is not None and self.traded[0] == seat:  # the card given for the turned one
                dealt.remove(self.traded[1])
                dealt = sorted(dealt + [self.traded[2]])
            played = sorted(self.played.get(seat, []))
            if self.rs.play.stop_when is not None or self.rs.tables.stock_closers:
                # a hand may stop with cards unplayed, or end with cards left in a closed stock
                assert len(set(played)) == len(played) and set(played) <= set(dealt), "a card played twice or not held"
                played_out = played_out and played == dealt
            else:
                assert played == dealt, "every dealt (or drawn) card is played once"
        if not plain_rules(self.rs):
            return
        plain = Plain(self.rs, self.rs.layout.suits.index(summary.trump) if summary.trump else None,
                      {a for a, _ in summary.announcements}, summary.contract)
        team_of = self.rs.tables.team_of
        points = [0] * len(summary.points)
        tricks = [0] * len(summary.points)
        for leader, cards, winner in summary.played_tricks:
            assert winner == play_orders(self.rs.players.count, summary.sitting_out)[leader][plain.winner(list(cards))]
            points[team_of[winner]] += sum(plain.points(c) for c in cards)
            tricks[team_of[winner]] += 1
        if played_out:  # the last trick's bonus goes with the last card: a stopped hand earns none
            points[team_of[summary.played_tricks[-1][2]]] += self.rs.play.last_trick_points
        assert (tuple(points), tuple(tricks)) == (summary.points, summary.tricks)
        played = {c for _, cards, _ in summary.played_tricks for c in cards}
        unplayed = sum(plain.points(c) for c in range(self.rs.layout.size) if c not in played)
        assert summary.points_in_play + unplayed == (sum(plain.points(c) for c in range(self.rs.layout.size))
                                                     + self.rs.play.last_trick_points * played_out)

    def check_view_hides(self, seat: int) -> None:
        """Permuting the cards hidden from ``seat`` must not change what ``seat`` sees."""
        state = self.state
        view = state.view(seat)
        if view.phase in ("deal", "choose_dealer", "over"):
            return
        seen = state.hand_of(seat)
        for card, _ in view.face_up:
            seen |= 1 << card
        for _, card in view.played:
            seen |= 1 << card
        seen |= view.kitty | view.discarded  # a kitty shown or taken, the discards this seat saw
        hidden = [c for c in range(self.rs.layout.size) if not seen >> c & 1]
        shuffled = hidden[:]
        self.rng.shuffle(shuffled)
        mapping = dict(zip(hidden, shuffled))
        history = state.history()
        pack = history[self.deal_start:self.deal_start + self.rs.layout.size]
        other = GameState(self.rs)
        try:
            discard0 = state.actions.discard0  # a discard names its card: an unseen one moves with the deal
            later = [discard0 + mapping.get(a - discard0, a - discard0) if 0 <= discard0 <= a < discard0 + len(pack)
                     else a for a in history[self.deal_start + len(pack):]]
            for action in history[:self.deal_start] + [mapping.get(c, c) for c in pack] + later:
                other.apply(action)
        except IllegalAction:
            return  # the permuted deal makes an earlier action impossible; nothing to compare
        if len(other.hands) != len(state.hands):
            return  # the permuted deal annuls on a deal check the real one passed (public: nobody said petit sec)
        if other.view(seat).melds != view.melds:
            return  # the permuted deal contradicts a declaration made (public information); nothing to compare
        if (other.view(seat).phase == "call") != (view.phase == "call"):
            return  # a declarer with nothing to call is not asked and plays alone (`if_none`): public, as a call is
        assert other.view(seat) == view
        self.view_checks += 1


def check_scoresheet(rs: Ruleset, hands: list[HandSummary]) -> None:
    """Every score change is the rules' deltas and the tallies' payouts, recomputed from facts
    rebuilt here (rulesets the plain checker models), and every tally's count its adds less
    what it paid out."""
    if not plain_rules(rs) or rs.outcome.winner is not None:  # a winner by expression: the rules' own reading
        return
    start = (rs.scoresheet.start,) * len(rs.players.teams)
    before = start
    ties = passes = 0
    team_of = rs.tables.team_of
    game = 0
    fresh = [[0] * len(start) for _ in rs.tallies]
    counts = fresh
    for hand in hands:
        if hand.game != game:
            game, before, ties, passes, counts = hand.game, start, 0, 0, [row.copy() for row in fresh]
        if hand.outcome == "passed_out":
            assert hand.deltas == (0,) * len(before) and hand.scores == before
            assert hand.tallies == tuple(map(tuple, counts))
            passes = {"none": 0, "single": 1, "cumulative": passes + 1}[rs.scoresheet.pass_carry]
            continue
        values = hand.points if rs.outcome.compare == "points" else hand.tricks
        top = max(values)
        winner = values.index(top) if values.count(top) == 1 else None
        tie = winner is None
        no_score = False
        need = rs.outcome.maker_needs
        if winner is not None and need is not None and winner == hand.maker and hand.points[winner] < need:
            tie, no_score, winner = rs.outcome.gap == "tie", rs.outcome.gap != "tie", None
        assert (winner, hand.outcome) == (hand.winner, "winner" if winner is not None else "tie" if tie else "no_score")
        k = {"none": 1, "next_decided_double": 2 if ties else 1, "cumulative_double": 2 ** ties}[rs.scoresheet.tie_carry]
        ntricks = sum(hand.tricks)
        facts = HandFacts(
            winner=winner, loser=None if winner is None else 1 - winner, maker=hand.maker,
            dealer_team=team_of[hand.dealer], elder_team=team_of[(hand.dealer + 1) % rs.players.count],
            decided=winner is not None, tie=tie, no_score=no_score,
            all_tricks=winner is not None and hand.tricks[winner] == ntricks, tricks_per_hand=ntricks,
            points_in_play=sum(hand.points), passes_pending=passes, ties_pending=ties,
            points=hand.points, tricks=hand.tricks,
            announcers={a: team_of[s] for a, s in hand.announcements}, options=rs.option_values(),
            contract=hand.contract,
            multiplier=next((c.multiplier_for(hand.trump) for c in rs.contracts if c.id == hand.contract), 1),
            declared=hand.declared,
            bids=tuple(sum(bid for seat, bid in enumerate(hand.bids) if team_of[seat] == team)
                       for team in range(len(before))) if hand.bids else (),
            seat_tricks=tuple(sum(winner == seat for _, _, winner in hand.played_tricks)
                              for seat in range(rs.players.count)),
            seat_bids=hand.bids, seat_sides=tuple(team_of),
            seat_blinds=tuple(seat in hand.blind for seat in range(rs.players.count)) if hand.blind else (),
        )
        defined: list[object] = []
        facts = facts._replace(defined=defined)
        for definition in rs.definitions:
            defined.append(definition.fn(facts))
        deltas = [0] * len(before)
        for rule in rs.scoring:
            for each in ([facts._replace(each_team=t) for t in range(len(before))] if rule.for_each == "team" else
                         [facts._replace(each_seat=s) for s in range(rs.players.count)] if rule.for_each else [facts]):
                if rule.when_fn(each) and rule.team_fn(each) is not None:
                    deltas[rule.team_fn(each)] += rule.delta_fn(each) * (k if rule.tie_scaled else 1)  # type: ignore[index, operator]
        for tally, row in zip(rs.tallies, counts):
            for team in range(len(before)):
                row[team] += tally.adds_fn(facts._replace(each_team=team))  # type: ignore[operator]
                while row[team] >= tally.every:
                    row[team] -= tally.every
                    deltas[team] += tally.delta
        assert hand.tallies == tuple(map(tuple, counts))
        assert hand.deltas == tuple(deltas) and hand.multiplier == k
        assert hand.scores == tuple(b + d for b, d in zip(before, deltas))
        before = hand.scores
        if winner is not None:
            ties = passes = 0
        elif tie and rs.scoresheet.tie_carry != "none":
            ties += 1


def check_limits(rs: Ruleset, state: GameState) -> None:
    result = state.result
    assert result is not None and result.hands == len(state.hands)
    per_game: dict[int, int] = {}
    for hand in state.hands:
        per_game[hand.game] = per_game.get(hand.game, 0) + 1
    assert max(per_game.values()) <= rs.limits.max_hands
    assert sum(result.games_won) == len([g for g in result.games if g.winner is not None])
    if result.abandoned:
        assert result.winner is None
    else:
        assert result.games_won[result.winner] == rs.session.games_to_win  # type: ignore[index]
    sheet = rs.scoresheet
    if sheet.races_to_no_goal():  # a game of deals, or one its rules end (`ends_when`): no team need reach the goal
        return
    sign = 1 if sheet.direction == "down" else -1  # (value - goal) * sign: how far a team still is from the goal
    for game in result.games:
        if game.winner is None:
            continue
        away = [(value - sheet.goal) * sign for value in game.scores]
        assert min(away) <= 0, "a game ended with nobody at the goal"
        if sheet.at_goal == "ends_game":  # the furthest from the goal wins, the lower team of equals
            assert game.winner == away.index(max(away))
        else:
            assert away[game.winner] <= 0, "the winner never reached the goal"


def play_and_check(rs: Ruleset, seed: int) -> None:
    """A whole random game of ``rs``, every step checked, then its scoresheet and its limits."""
    walker = Walker(rs, seed)
    walker.run()
    check_scoresheet(rs, walker.state.hands)
    check_limits(rs, walker.state)


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_keep_every_invariant(name: str, seed: int) -> None:
    rs = walked_ruleset(name)
    play_and_check(rs, seed)


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_fast_random_games_replay_through_apply(name: str, seed: int) -> None:
    rs = ruleset(name)
    fast = GameState(rs)
    fast.play_random(random.Random(seed))
    check_scoresheet(rs, fast.hands)
    check_limits(rs, fast)
    replay = GameState(rs)
    for action in fast.history():
        replay.apply(action)
    assert replay.is_terminal() and replay.hands == fast.hands and replay.result == fast.result


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(builtin_names()), seed=st.integers(min_value=0, max_value=2**32 - 1), data=st.data())
def test_rules_for_leads_keep_every_invariant(name: str, seed: int, data: st.DataObject) -> None:
    """Any shipped ruleset with any of the lead rules Hearts uses (cards held back until broken,
    an opening card, cards kept off the first trick), drawn from its own pack: it validates,
    and its games keep every invariant, the legal cards the plain checker's and explain_legal's."""
    document = load_ruleset(name)
    layout = ruleset(name).layout
    cards = [layout.name(c) for c in range(layout.size)]
    classes = st.one_of(st.sampled_from(layout.suits).map(lambda suit: {"suit": suit}),
                        st.sampled_from(list(document.data["deck"]["ranks"])).map(lambda rank: {"rank": str(rank)}),
                        st.sampled_from(cards).map(lambda card: {"card": card}))
    play = dict(document.data.get("play") or {})
    for key in ("lead_once_broken", "not_on_first_trick"):
        if data.draw(st.booleans(), label=key):
            play[key] = data.draw(st.lists(classes, min_size=1, max_size=2), label=key)
    if data.draw(st.booleans(), label="first_lead_card"):
        play["first_lead_card"] = data.draw(st.sampled_from(cards), label="first_lead_card")
    changed = dataclasses.replace(document, data={**document.data, "play": play})
    errors = {d.code for d in check(changed) if d.is_error}
    if errors == {"first-lead-card-undealt"}:  # a deal (or an option's) keeps cards back: its holder could hide
        del play["first_lead_card"]
        errors = {d.code for d in check(changed) if d.is_error}
    assert errors == set()
    rs = compile_ruleset(changed)
    play_and_check(rs, seed)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from([n for n in builtin_names() if not ruleset(n).scoresheet.deals]),
       seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_a_goal_that_ends_the_game_keeps_every_invariant(name: str, seed: int) -> None:
    """Any shipped race to a goal made a game the goal ends (`at_goal: ends_game`, Hearts' way): it
    validates, its games keep every invariant, and each is won by the team furthest from the goal."""
    document = load_ruleset(name)
    sheet = {key: value for key, value in document.data["scoresheet"].items() if key != "when_both_reach"}
    changed = dataclasses.replace(document, data={**document.data, "scoresheet": {**sheet, "at_goal": "ends_game"}})
    assert [d.code for d in check(changed) if d.is_error] == []
    rs = compile_ruleset(changed)
    play_and_check(rs, seed)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(builtin_names()), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_freedom_under_a_winning_partner_keeps_every_invariant(name: str, seed: int) -> None:
    """Any shipped ruleset made free under a winning partner (`when_partner_winning: free`): it
    validates (but for an option whose hidden called partner the freedom would reveal, which is
    refused: French Tarot's players=5), and its games keep every invariant, the legal cards the plain
    checker's and explain_legal's."""
    document = load_ruleset(name)
    play = dict(document.data.get("play") or {})
    play["follow"] = {**(play.get("follow") or {}), "when_partner_winning": "free"}
    changed = dataclasses.replace(document, data={**document.data, "play": play})
    assert [d.code for d in check(changed) if d.is_error and not (
        d.code == "hidden-sides-unsupported" and d.message.startswith("with option"))] == []
    play_and_check(compile_ruleset(changed), seed)
