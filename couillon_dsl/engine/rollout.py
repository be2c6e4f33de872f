"""Whole games between random players in one closure, state in local variables.

:class:`~couillon_dsl.engine.state.GameState` plays one action at a time: each step of
the deal, the trump procedure and the play is a method call and every value lives in an
attribute, which is what agents, replays and explanations need. A simulation of random
players needs none of that between the first deal and the end, and the step machinery
then costs more than the rules. :func:`make_rollout` compiles a ruleset into one closure
that plays a whole game with the same tables, the same hand functions
(:mod:`couillon_dsl.engine.hand`: scoring, carries, the end of a game, random tricks) and
the same random draws in the same order, keeping the state in locals.
:meth:`GameState.play_random` hands a fresh game to it and adopts what it returns: the
same history, hand summaries and result as step-by-step play (tests/test_rollout.py
plays every eligible ruleset and option both ways).

Eligible rulesets: static deal scripts (:attr:`~couillon_dsl.model.Tables.static_deals`:
packets, face-up ones included, stock and turn-ups before and after one decision), no
announcements, trump offered, chosen (named, shown or deferred) or fixed by nothing, a
fixed first dealer and none of the concepts :func:`rolls_out_language_v1` lists: five of
the built-in rulesets. For the others (announcements, a random first dealer, contracts...)
:func:`make_rollout` returns None and ``play_random`` steps through the game.
"""
from __future__ import annotations

from math import floor
from typing import Callable, NamedTuple, Sequence

from couillon_dsl.cards import iter_bits
from couillon_dsl.engine.hand import (
    ABANDONED, NEXT_GAME, NEXT_HAND, cards_table, fallback_maker, first_leader, passes_after_pass_out,
    random_tricks, shuffled,
)
from couillon_dsl.engine.actions import Actions
from couillon_dsl.engine.results import FinishedGame, GameResult, HandSummary
from couillon_dsl.engine.tables import OP_PACKET
from couillon_dsl.model import Ruleset, Team

_new_tuple = tuple.__new__  # a NamedTuple from a ready tuple, without its Python-level __new__


class RolledGame(NamedTuple):
    """What a rollout leaves: everything a finished GameState answers from."""

    history: list[int]
    hands: list[HandSummary]
    result: GameResult
    games: list[FinishedGame]
    games_won: list[int]
    values: tuple[int, ...]  # the scoresheet at the end
    ties: int
    passes: int
    game: int
    game_hands: int
    dealer: int


Rollout = Callable[[Callable[[], float], int, Sequence[int], int, int], RolledGame]


def next_packets(plan: Sequence[tuple[object, ...]], start: int, n: int) -> tuple[int, ...]:
    """Seat -> pack position of the first card it is dealt from op ``start`` on (-1: none)."""
    first = [-1] * n
    for op in plan[start:]:
        if op[0] == OP_PACKET:
            for seat, begin, _ in op[2]:  # type: ignore[attr-defined]
                if first[seat] < 0:
                    first[seat] = begin
    return tuple(first)


def rolls_out_language_v1(rs: Ruleset) -> bool:
    """False when the ruleset uses a concept the rollout does not play: contracts (a called partner,
    `contracts.<id>.call`, among them), handing the
    choice on, a first-hand chooser, the chooser leading, last-trick points, goals counted
    in rule order, card roles, deal checks, sides fixed per hand, an outcome expression, a
    kitty, rules for leads or a follow rule that reads seats (`when_partner_winning`), bids,
    tallies or passing, a game that `scoresheet.ends_when` ends or whose passed-out deals are redealt, a second
    round naming trump, a hand size that changes from hand to hand,
    scoring that reads the cards held (`held`), a hand without trump when the stock is empty, an
    auction, a trump drawn by chance (`trump.method: drawn`: a chance node of its own), a turned card that fixes no
    suit (`if_turned`), a dealer sitting out or one who stays (`dealer.stays_when`), a
    hand that may stop early (`play.stop_when`), a pack of copies (`deck.copies`: those games step through
    GameState)."""
    choose, offer = rs.trump.choose, rs.trump.offer
    return not (rs.contracts or (choose is not None and (choose.delegate or choose.first_hand))
                or offer is not None and offer.on_all_pass == "name_other_suit"
                or rs.players.sides != "teams" or rs.outcome.maker_wins is not None or rs.outcome.winner is not None
                or rs.play.first_lead in ("chooser", "after_maker") or rs.play.last_trick_points or rs.play.dummy
                or rs.play.stop_when is not None
                or rs.scoresheet.when_both_reach != "furthest_past"
                or rs.tables.roles is not None or rs.tables.deal_checks or rs.tables.reads_tricks or rs.tables.play_rules
                or rs.tables.kitty is not None or rs.bids is not None or bool(rs.tallies) or bool(rs.scoresheet.ends_when)
                or rs.scoresheet.passed_out_deals != "counted"
                or rs.passing is not None or rs.tables.deal_cycle > 1 or rs.tables.reads_held
                or any(step.if_stock_empty or step.if_turned for step in rs.deal) or rs.trump.auction is not None
                or rs.trump.method == "drawn"
                or rs.players.sit_out is not None or rs.deck.copies > 1 or rs.dealer.stays_when is not None)


def make_rollout(rs: Ruleset) -> Rollout | None:
    """The whole-game closure ``rollout(rnd, dealer, start, ties, passes)`` for ``rs``, or None.

    ``rnd`` is the generator's ``random`` method; ``dealer`` and the scoresheet
    (``start`` values, ``ties`` and ``passes`` pending) are where the game starts.
    """
    t = rs.tables
    trump = rs.trump
    choose = trump.choose if trump.method == "choose" else None
    if rs.announcements or rs.declarations or not t.static_deals or rs.dealer.first == "random" \
            or not rolls_out_language_v1(rs):
        return None
    n = rs.players.count
    nteams = len(rs.players.teams)
    cards = range(rs.layout.size)
    suits = rs.layout.suits
    acts = Actions.build(rs.layout.size, len(suits), 0)
    accept, pass_, defer = acts.accept, acts.pass_, acts.defer
    prefixes = [(p.quads, p.stock or (0, 0), p.ups[-1][0] if p.ups else -1)  # type: ignore[union-attr]
                for p in t.deal_prefixes]
    suffixes = [q.quads if q is not None else None for q in t.deal_suffixes]
    # a choice of trump: naming a suit, or showing a card of the hand
    choose_by_dealer = choose is not None and choose.by == "dealer"
    names = tuple(acts.name0 + suit for suit in range(len(suits))) if choose and "name" in choose.ways else ()
    may_show = choose is not None and "show" in choose.ways
    ndefer = 1 if choose is not None and "defer" in choose.ways else 0  # defer comes first among the choices
    show0 = acts.show0
    # a deferred choice: trump is the first card of the chooser's next packet (dealer -> seat -> position)
    deferred_card = [next_packets(plan, p.stop + 1, n)  # type: ignore[union-attr]
                     for p, plan in zip(t.deal_prefixes, t.deal_plans)]
    if ndefer and any(-1 in firsts for firsts in deferred_card):
        return None  # a chooser with no packet left: GameState reports it
    contexts = t.contexts
    shift = len(t.promotion_cards)
    promo = t.always_promoted
    B = t.card_bit
    team_of, next_seat, rounds, suit_of = t.team_of, t.next_seat, t.rounds, t.suit_of
    # a round of the offer from its first speaker, as (decisions, actions) made once: everyone
    # before ``seat`` passed and ``seat`` accepted (accepted_at[first][seat]), or all passed
    accepted_at = [[(tuple((s, "pass") for s in order[:order.index(seat)]) + ((seat, "accept"),),
                     (pass_,) * order.index(seat) + (accept,)) for seat in range(n)] for order in rounds]
    all_passed = [(tuple((s, "pass") for s in order), (pass_,) * n) for order in rounds]
    score_hand, settle = t.score_hand, t.settle
    sheet, limits = rs.scoresheet, rs.limits
    same_dealer_after_tie = sheet.tie_next_dealer == "same"
    rotate = rs.dealer.rotation == "next"
    first_lead = rs.play.first_lead
    offer = trump.offer if trump.method == "offer" else None
    turned = trump.method == "turned"
    on_all_pass = offer.on_all_pass if offer else ""
    reoffer_by_dealer = offer is not None and offer.reoffer_first_speaker == "dealer"
    no_points = (0,) * nteams
    fixed_trump = t.fixed_trump

    def rollout(rnd: Callable[[], float], dealer: int, start: Sequence[int], ties: int, passes: int) -> RolledGame:
        history: list[int] = []
        extend = history.extend
        act = history.append
        hands_out: list[HandSummary] = []
        games: list[FinishedGame] = []
        games_won = [0] * nteams
        values = tuple(start)
        redeals = game = game_hands = 0
        table: dict[int, tuple[int, ...]] = {}  # the card table for the hands' size, fetched on the first hand
        table_size = -1
        while True:
            # the deal: pack order, then the static deal script
            pack = shuffled(cards, rnd)
            extend(pack)
            quads, (top, bottom), up = prefixes[dealer]  # the stock is pack[top:bottom]
            hands = [0] * n
            for seat, a, b, c, d in quads:
                hands[seat] |= B[pack[a]] | B[pack[b]] | B[pack[c]] | B[pack[d]]
            elder = next_seat[dealer]
            # the trump procedure: each seat asked accepts with p = 1/2 (legal[int(rnd() * 2)])
            decisions: tuple[tuple[int, str], ...] = ()
            trump_suit = fixed_trump  # stays unless the trump procedure fixes one
            maker: Team | None = None
            decider: int | None = None
            path = "none"
            if offer is not None:
                offered = pack[up]
                speakers = rounds[elder]
                reoffers = 0
                while True:
                    first = speakers[0]
                    for seat in speakers:
                        if rnd() < 0.5:
                            said, actions = accepted_at[first][seat]
                            extend(actions)
                            decisions += said
                            trump_suit = suit_of[offered]
                            maker = team_of[seat]
                            decider = seat
                            path = "accepted" if reoffers == 0 else "next_card"
                            break
                    else:  # everyone passed
                        said, actions = all_passed[first]
                        extend(actions)
                        decisions += said
                        if on_all_pass == "bottom_card":
                            bottom -= 1
                            trump_suit = suit_of[pack[bottom]]
                            maker = fallback_maker(trump, team_of, elder)
                            path = "bottom_card"
                        elif on_all_pass == "next_card" and top < bottom:
                            offered = pack[top]
                            top += 1
                            reoffers += 1
                            speakers = rounds[dealer if reoffer_by_dealer else elder]
                            continue
                        else:
                            path = "redeal"
                    break
            elif choose is not None:  # uniform over the legal choices, in GameState.legal_actions order
                chooser = dealer if choose_by_dealer else elder
                held = tuple(iter_bits(hands[chooser])) if may_show else ()
                pick = floor(rnd() * (ndefer + len(names) + len(held))) - ndefer  # -1: defer
                decider = chooser
                maker = team_of[chooser]
                if pick < 0:
                    act(defer)
                    trump_suit = suit_of[pack[deferred_card[dealer][chooser]]]
                    maker = fallback_maker(trump, team_of, elder)
                    decisions = ((chooser, "defer"),)
                    path = "deferred"
                elif pick < len(names):
                    act(names[pick])
                    trump_suit = pick
                    decisions = ((chooser, "name"),)
                    path = "named"
                else:
                    card = held[pick - len(names)]
                    act(show0 + card)
                    trump_suit = suit_of[card]
                    decisions = ((chooser, "show"),)
                    path = "shown"
            elif turned:  # no decision: the last face-up card is trump
                trump_suit = suit_of[pack[up]]
                maker = fallback_maker(trump, team_of, elder)
                path = "turned"
            if path == "redeal":  # passed out: scores nothing, may owe the next decided hand
                passes = passes_after_pass_out(sheet, passes)
                redeals += 1
                game_hands += 1
                hands_out.append(_new_tuple(HandSummary, (
                    game, game_hands, dealer, None, path, None, None, decisions, no_points, no_points,
                    "passed_out", None, False, (), 0, 1, no_points, values, (), (), None, (), (), (), (), (), (), (), (),
                )))
                if redeals > limits.max_redeals_in_a_row:
                    verdict, winner = ABANDONED, None
                else:
                    verdict, winner = settle(values, None, game_hands, games_won)
                same_dealer = False
            else:
                rest = suffixes[dealer]  # the cards dealt after the decision
                if rest is not None:
                    for seat, a, b, c, d in rest:
                        hands[seat] |= B[pack[a]] | B[pack[b]] | B[pack[c]] | B[pack[d]]
                # the play: every trick with random legal cards, then the hand's score
                leader = first_leader(first_lead, dealer, elder, maker, decider)
                ntricks = hands[leader].bit_count()
                won_points = [0] * nteams
                won_tricks = [0] * nteams
                log: list[tuple[int, tuple[int, ...], int]] = []
                if ntricks != table_size:  # every hand of a static deal has the same size: usually once a game
                    table, table_size = cards_table(len(cards), ntricks), ntricks
                random_tricks(contexts[((trump_suit + 1) << shift) | promo], t, table, hands, leader, ntricks, rnd,
                              history, log, won_points, won_tricks)
                points = tuple(won_points)
                tricks = tuple(won_tricks)
                outcome, hand_winner, tie, all_tricks, in_play, k, deltas, values, ties, passes, *_ = score_hand(
                    points, tricks, maker, dealer, ntricks, passes, ties, values, ())  # a HandScore, unpacked
                redeals = 0
                game_hands += 1
                hands_out.append(_new_tuple(HandSummary, (
                    game, game_hands, dealer, suits[trump_suit] if trump_suit >= 0 else None, path, maker, decider,
                    decisions, points, tricks, outcome, hand_winner, all_tricks, (), in_play, k, deltas,
                    values, tuple(log), (), None, (), (), (), (), (), (), (), (),
                )))
                verdict, winner = settle(values, hand_winner, game_hands, games_won)
                same_dealer = tie and same_dealer_after_tie
            if verdict != NEXT_HAND:  # a game won, the session over, or a limit reached
                games.append(FinishedGame(winner, values, game_hands))
                if verdict != NEXT_GAME:
                    abandoned = verdict == ABANDONED
                    result = GameResult(None if abandoned else winner, values, len(hands_out), tuple(games_won),
                                        tuple(games), abandoned)
                    return RolledGame(history, hands_out, result, games, games_won, values, ties, passes, game,
                                      game_hands, dealer)
                game += 1
                game_hands = ties = passes = redeals = 0
                values = (sheet.start,) * nteams
            if not same_dealer and rotate:
                dealer = next_seat[dealer]

    return rollout
