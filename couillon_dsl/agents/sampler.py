"""Worlds a seat cannot tell from the real game: the rule-derived sampler every searching agent uses.

Each sample ("world") is a whole pack order for the current deal that agrees with everything
the seat knows. Where every pack position goes comes from the engine itself: a probe deals
the pack ``0, 1, 2, ...`` (so a card id *is* its position) from the state as it stood before
this deal and repeats the public trump decisions. Known cards are put back where they were
seen; unseen cards fill the other positions, respecting the voids revealed by the follow
obligations: if seat ``s`` played ``p`` where holding ``c`` would have made ``p`` illegal
(asked of the engine's own legal-card function), ``s`` holds no ``c``. A world is then
replayed through the engine with the deal's public actions and kept only if every action
was legal and the seat's view comes out identical, so no world contradicts the view.

Soft inferences: the other seats' public decisions (taking or passing a turned-up card,
naming, bidding, answering an announcement), partners' too (see :class:`Reading`), are read
with the greedy agent as the model of a player. A world in which greedy, holding that
world's cards, would have decided otherwise than the seat did is dropped with a chance
of ``reading`` (0.9 by default; not always, since a real player is not greedy): a seat
who passed a turned-up card seldom holds the strength greedy would have taken it with.

The sampler never reads another seat's cards: it uses the seat's view, the public actions of
the game (never the pack draws of this deal) and the rules. Previous deals are replayed
from the history to rebuild the state before this deal (scores, dealer, carries); their
cards cannot affect this deal. The number of worlds, not time, bounds the work, so a seeded
run repeats exactly on any machine.
"""
from __future__ import annotations

import dataclasses

import random
from typing import TYPE_CHECKING, Iterator, Sequence

from couillon_dsl.agents.greedy import GreedyAgent
from couillon_dsl.cards import iter_bits
from couillon_dsl.engine import GameState, IllegalAction
from couillon_dsl.engine.call import needed_to_call
from couillon_dsl.engine.declarations import meld_trump
from couillon_dsl.engine.follow import partner_frees
from couillon_dsl.engine.passing import pass_givers
from couillon_dsl.engine.roles import led_and_winner

if TYPE_CHECKING:
    from couillon_dsl.engine import SeatView
    from couillon_dsl.model import Ruleset, TrumpContext

MAX_TRIES = 8  # attempts per wanted world before giving up on it
MIN_ATTEMPTS = 64  # ... but at least this many in all: one world asked for (OpenSpiel's resampling) got 4 strict
# and 4 relaxed attempts, too few once voids and the reading rule out most deals (a random game's seat, late in a hand)
BID_SLACK = 1  # a bid of tricks is read as the model's estimate give or take this many (see Reading.believes)
READING = 0.9  # the chance a world is dropped when the greedy model would have decided otherwise than a seat did
POOL = -1  # the group of pack positions no seat holds now (stock, cards set aside, later packets)
DISCARDED = -2  # the discarder's positions that may hold the cards he discarded unseen (see _Layout.pack)


def hand_start(history: Sequence[int], ncards: int, plays: int) -> int:
    """Index in ``history`` where the current deal's pack draws begin.

    A deal's actions are the pack draws (card ids), then the trump decisions (ids >=
    ``ncards``), then the plays (card ids) mixed with announcement answers (ids >= ``ncards``).
    """
    i = len(history)
    while plays:
        i -= 1
        if history[i] < ncards:
            plays -= 1
    while i > 0 and history[i - 1] >= ncards:
        i -= 1
    return i - ncards


def called_card_rules_out(view: SeatView) -> dict[int, int]:
    """Per seat ``view`` knows to play against a declarer who called a partner's card (an announcement
    for its side told it), the called card: it does not hold it. The replay would refuse those worlds
    anyway; ruling them out first keeps the draws that fit."""
    if view.called is None or view.called < 0 or view.deciding_seat is None or view.sides is None:
        return {}
    caller = view.sides[view.deciding_seat]
    return {s: 1 << view.called for s, side in enumerate(view.sides) if side >= 0 and side != caller}


def decisions_say_held(state: GameState, view: SeatView) -> tuple[dict[int, int], int]:
    """Per seat, the cards its public decisions say it held, and those of them it held after every
    discard. An announcement only a card's holder may make (``holder_of``) says he held it in the
    first trick; a contract only the holder of some cards may bid (``bidder_holds``), that its declarer
    was dealt them; a call of a card of an ``otherwise`` tier, that the declarer held every card of the
    tiers before (:func:`needed_to_call`) when he called, after his discards unless he called before
    the kitty. Left to the replay, worlds that deal those cards at random seldom fit (8 seats: the
    holder gets the card one world in eight; a fallback tier's cards, one in hundreds)."""
    rs = state.ruleset
    holds: dict[int, int] = {}
    ids = [a.id for a in rs.announcements]
    for announcement, seat in view.announcements:
        card = rs.tables.holder_cards[ids.index(announcement)] if announcement in ids else -1
        if card >= 0:
            holds[seat] = holds.get(seat, 0) | 1 << card
    kept = sum(holds.values())
    contract = next((i for i, c in enumerate(rs.contracts) if c.id == view.contract), -1)
    bidder, deciding = rs.tables.bidder_holds, view.deciding_seat
    if bidder and contract >= 0 and deciding is not None and bidder[contract]:  # dealt them, or he could not bid it
        holds[deciding] = holds.get(deciding, 0) | bidder[contract]
    calls = rs.tables.calls
    if calls and view.called is not None and view.called >= 0 and deciding is not None:
        table = calls[contract]
        if table is not None and (needed := needed_to_call(table, view.called)):
            holds[deciding] = holds.get(deciding, 0) | needed
            kept |= 0 if table.before_kitty else needed
    return holds, kept


def voids(ctx: TrumpContext, view: SeatView, nseats: int, unseen: int, *, partner_free: bool = False,
          from_trick: int = 0) -> dict[int, int]:
    """Per seat, the unseen cards it cannot hold: holding one would have made a card it played illegal.
    A trick has a card from each seat not sitting the hand out. ``partner_free``
    (`when_partner_winning: free`): a seat that played under a partner's winning card is judged by
    the same freedom, so a discard there tells nothing of its trumps. Tricks before ``from_trick``
    are not read (`play.draw`: a card drawn after a trick may be of a suit its drawer then lacked,
    and any card may be played while the stock lasts, `follow_obligations: once_stock_empty`)."""
    excluded: dict[int, int] = {}
    played = view.played
    sides = view.sides
    size = nseats - len(view.sitting_out)
    plays = len(played) + sum(n for s, n in enumerate(view.hand_sizes) if s not in view.sitting_out) \
        + view.stock  # the hand's cards
    for first in range(from_trick * size, len(played), size):
        trick = played[first:first + size]
        cards = [card for _, card in trick]
        so_far = 1 << cards[0]
        last = first + size >= plays  # the hand's last trick (`play.equal_cards`)
        for i, (seat, card) in enumerate(trick[1:], 1):
            led, win = led_and_winner(ctx, cards[:i], last)  # card roles: an open lead, cards that never win
            freed = partner_free and sides is not None and sides[trick[cards.index(win)][0]] == sides[seat]
            no = excluded.get(seat, 0)
            for c in iter_bits(unseen & ~no):
                held = 1 << card | 1 << c
                if not (freed and partner_frees(ctx, held, led)) and not ctx.legal(held, led, win, so_far) >> card & 1:
                    no |= 1 << c
            excluded[seat] = no
            so_far |= 1 << card
    return excluded


def drawn_tricks(view: SeatView, nseats: int, cards: int, closed: bool = False) -> int:
    """The tricks played before the stock was empty or ``closed`` (`play.draw`, ``cards`` drawn each; an
    announcement that `closes_stock`), whose plays say nothing of the cards held after them: every trick
    played while cards were drawn."""
    if not cards:
        return 0
    if view.stock and not closed:
        return len(view.played)  # more than the tricks played: none is read
    return len(view.drawn) // ((nseats - len(view.sitting_out)) * cards)


def stock_closed(rs: Ruleset, view: SeatView) -> bool:
    """Whether an announcement in ``view`` closed the stock (`closes_stock`: public)."""
    closers = rs.tables.stock_closers
    if not closers:
        return False
    made = {a for a, _ in view.announcements}
    return any(closers >> i & 1 and a.id in made for i, a in enumerate(rs.announcements))


def agrees_but_melds(seen: SeatView, view: SeatView) -> bool:
    """Whether a world's view is ``view`` but for the melds its hidden hands declared (and showed). Melds
    declared automatically say what the other hands do not hold: with many kinds of them (Pinochle's
    marriages, in four suits, two copies of each card, laid down by every seat before the first lead)
    almost no deal at random agrees, so in rulesets whose melds are laid down so (`when: before_first_lead`)
    the sampler takes such worlds, their melds and face-up cards made the table's
    (:meth:`GameState.adopt_public_melds`): what the melds not declared say of the hidden hands is not
    read (measured on examples/pinochle.yaml: taking them only once too few strict worlds fit spent most
    of a search's time on deals that did not fit)."""
    return dataclasses.replace(seen, melds=(), face_up=()) == dataclasses.replace(view, melds=(), face_up=())


def replays(world: GameState, actions: Sequence[int], reading: Reading | None = None) -> bool:
    """Apply ``actions`` while each is legal (and, with a ``reading``, believable); whether all of them were."""
    ncards = world.actions.ncards
    try:
        for action in actions:
            if reading is not None and action >= ncards and not reading.believes(world, action):
                return False
            world.apply(action)
    except IllegalAction:  # the world's state is as before the refused action
        return False
    return True


class Reading:
    """What the other seats' public decisions say of their cards, with greedy as the model of a player.

    Partners are read too. A searching partner decides as greedy does unless its search shows
    better by the ``evidence`` asked for (:class:`~couillon_dsl.agents.playout.SearchAgent`), so
    greedy models it as well as it models an opponent; leaving partners unread gave their cards
    the strength a pass denies, and the searches took and named too often (measured: on standard
    Couillon the worlds overrated the choice greedy did not make by 0.012 of a session chance
    unread, 0.002 read)."""

    def __init__(self, seat: int, strength: float, rng: random.Random) -> None:
        self.seat, self.strength, self.rng = seat, strength, rng
        self.model = GreedyAgent()

    def believes(self, world: GameState, action: int) -> bool:
        """False (with a chance of ``strength``) when another seat's decision ``action`` is not the
        one the model takes with the cards it holds in ``world``; cards and discards are not read.
        A bid of tricks is a count the model only estimates: it believes one within
        :data:`BID_SLACK` of its own (read exactly, three bids before a seat's own left a world in
        hundreds, and a card of a thirteen-trick game got under three worlds in its time)."""
        acts = world.actions
        if world.is_chance_node():  # a public draw (`trump.method: drawn`): chance, nobody's decision to read
            return True
        if world.current_player() == self.seat or 0 <= acts.discard0 <= action < acts.discard0 + acts.ncards \
                or 0 <= acts.give0 <= action < acts.give0 + acts.ncards:  # a card passed: chosen for the world
            return True
        legal = world.legal_actions()
        if len(legal) < 2 or action not in legal or legal[0] == acts.accept and world.phase == "bid":
            return True  # no choice, an illegal action the replay refuses, or a blind bid's (no card read)
        model = self.model.act(world, legal, self.rng)
        t = world.ruleset.tables
        if t.auction_suits and model != action and model >= acts.bid0 and action >= acts.bid0:  # open auction: bids
            # a value is the model's estimate: a bid in the suit the model bids is believed whatever its height
            double = acts.bid0 + t.double_offset
            same = double not in (model, action) and (model - action) % t.auction_suits == 0
            return same or self.rng.random() >= self.strength
        if 0 <= acts.bid0 <= action < acts.ends(acts.bid0):  # a number of tricks: the model's estimate, read within one
            return abs(model - action) <= BID_SLACK or self.rng.random() >= self.strength
        return model == action or self.rng.random() >= self.strength


def shown_melds_rule_out(state: GameState, view: SeatView) -> dict[int, int]:
    """Per seat, the cards its shown declarations say it does not hold besides the shown ones
    (the declaration's own rule for which cards to show, asked of its table)."""
    rs = state.ruleset
    tables = {table.id: table for table in rs.tables.declarations}
    contract = next((i for i, c in enumerate(rs.contracts) if c.id == view.contract), -1)
    trump = meld_trump(rs, contract, view.trump if view.trump is not None else -1)
    out: dict[int, int] = {}
    for kind, label, seat, _, cards in view.melds:
        table = tables[kind]
        if cards:
            out[seat] = out.get(seat, 0) | table.rules_out(cards, table.labels.index(label), trump)
    return out


def hidden_discards(state: GameState, seat: int, view: SeatView, public: Sequence[int]) -> set[int]:
    """Indexes in ``public`` of the discards ``seat`` did not see (its view says which it saw): the
    discarding seat's (a declarer who took the kitty, the taker of an offered card), unless it is ``seat``."""
    discard0 = state.actions.discard0
    if discard0 < 0 or seat == view.discarding_seat:
        return set()
    ncards = state.actions.ncards
    return {i for i, action in enumerate(public)
            if discard0 <= action < discard0 + ncards and not view.discarded >> (action - discard0) & 1}


def replays_discarding(world: GameState, actions: Sequence[int], hidden: set[int], view: SeatView, gone: int,
                       rng: random.Random, kept: int = 0) -> bool:
    """:func:`replays` where each discard this seat did not see is one the world's discarder could have
    made unseen: a legal discard of a hidden kind, none he plays later or is known to hold after it
    (``kept``), the cards he cannot hold (``gone``: his revealed voids) first. The world's view must
    then be the seat's."""
    acts = world.actions
    kitty = world.ruleset.tables.kitty  # built wherever a seat discards: the discard rules' masks
    later = kept  # cards the discarder plays, or discards in view, in the rest of the deal
    for i, action in enumerate(actions):
        if action < acts.ncards:
            later |= 1 << action
        elif i not in hidden and acts.discard0 <= action < acts.discard0 + acts.ncards:
            later |= 1 << (action - acts.discard0)
    for i, action in enumerate(actions):
        if i in hidden:
            allowed = world.discard_mask() & ~kitty.face_up & ~later
            if not allowed:
                return False
            action = acts.discard0 + rng.choice(list(iter_bits(allowed & gone or allowed)))
        try:
            world.apply(action)
        except IllegalAction:
            return False
    return world.view(view.seat) == view


def hidden_gives(state: GameState, seat: int, view: SeatView, public: Sequence[int]) -> set[int]:
    """Indexes in ``public`` of the cards other seats passed before play: ``seat`` never sees
    them given (the ones passed to it it sees only as cards received). The givers give in turn
    (:func:`pass_givers`), all their cards each, so the k-th card passed is the k // cards-th giver's."""
    acts = state.actions
    rs = state.ruleset
    if acts.give0 < 0 or not rs.pass_cards:
        return set()
    givers = pass_givers(rs, state.play_order((view.dealer + 1) % rs.players.count), view.blind)
    gives = [i for i, action in enumerate(public) if acts.give0 <= action < acts.give0 + acts.ncards]
    return {i for k, i in enumerate(gives) if givers[k // rs.pass_cards] != seat}


def passes_behind(layout: _Layout, pack: list[int], view: SeatView, givers: Sequence[int], cards: int,
                  rng: random.Random) -> tuple[list[int], dict[int, list[int]]]:
    """The deal and the cards passed that lead to ``pack`` as it stands after the exchange (each
    seat's dealt positions holding the cards it holds now or has played): the seat's own cards
    passed and received are known, the other ``givers``' ``cards`` each are drawn from their
    receivers' cards. The cards a seat keeps stay where they were dealt; the ones it passed fill
    the places of the ones it received (a card given back to its first giver never moved)."""
    n, offset = len(layout.dealt), layout.offset
    seat = view.seat
    held = {s: [pack[p] for p in spots] for s, spots in layout.dealt.items()}
    given: dict[int, list[int]] = {s: [] for s in range(n)}
    if seat in givers:
        given[seat], given[(seat - offset) % n] = list(iter_bits(view.passed)), list(iter_bits(view.received))
    for s in givers:
        if not given[s]:
            given[s] = rng.sample(held[(s + offset) % n], cards)
    dealt = pack.copy()
    for s, spots in layout.dealt.items():
        giver = (s - offset) % n
        came = set(given[giver]) - set(given[s])
        going = iter([c for c in given[s] if c not in given[giver]])
        for position in spots:
            if pack[position] in came:
                dealt[position] = next(going)
    return dealt, given


def replays_passing(world: GameState, actions: Sequence[int], hidden: set[int], given: dict[int, list[int]] | None,
                    view: SeatView, reading: Reading | None, rng: random.Random) -> bool:
    """:func:`replays` where each card another seat passed, which this seat did not see, is the
    world's: the one ``given`` says (after the exchange), or while seats are still passing one this
    seat was given (an exchange, received at once), else any card of the giver's hand (nothing
    later tells). The world's view must then be the seat's."""
    acts = world.actions
    ncards = acts.ncards
    planned = {s: list(cards) for s, cards in given.items()} if given is not None else None
    to_me = list(iter_bits(view.received))
    offset = world.ruleset.pass_offset(view.hand_number - 1)
    n = world.ruleset.players.count
    try:
        for i, action in enumerate(actions):
            if i in hidden:
                giver = world.current_player()
                card = planned[giver].pop() if planned is not None else \
                    to_me.pop() if (giver + offset) % n == view.seat and to_me else \
                    rng.choice(list(iter_bits(world.hand_of(giver))))
                action = acts.give0 + card
            elif reading is not None and action >= ncards and not reading.believes(world, action):
                return False
            world.apply(action)
    except IllegalAction:
        return False
    return world.view(view.seat) == view


class _Layout:
    """Which pack positions hold which known cards, and which are free for the unseen ones."""

    def __init__(self, base: GameState, public: Sequence[int], seat: int, view: SeatView, hidden: int,
                 holds: dict[int, int] | None = None) -> None:
        """``holds``: per seat, cards the public decisions say it was dealt (or took) besides those in view."""
        probe = base.clone()
        ncards = probe.ruleset.layout.size
        probe.deal_pack(list(range(ncards)))  # pack position i holds card i
        acts = probe.actions
        for action in public:  # the trump decisions come first; a card or an announcement answer ends them
            if probe.asked_in_deal:  # but an answer the deal waits for (a knock) moves no card: the deal goes on
                probe.apply(action)
                continue
            if action < ncards or action == acts.decline or action >= acts.announce0:
                break
            if action >= acts.show0:
                action = next(a for a in probe.legal_actions() if a >= acts.show0)  # any card: same positions
            elif acts.name0 <= action < acts.show0 and probe.phase == "name":  # the probe's refused suit is another
                action = next(a for a in probe.legal_actions() if a >= acts.name0)  # any suit: same positions
            elif acts.name0 <= action < acts.show0 and action not in probe.legal_actions():
                continue  # named for a turned card that fixes no suit (`if_turned`); the probe's, a position, fixed one
            probe.apply(action)
        nseats = probe.ruleset.players.count
        self.ncards = ncards
        self.fixed: dict[int, int] = {}  # position -> known card
        known = 0
        probe_view = probe.view(seat)
        if view.taken is not None:  # an offered card its taker took: public, at the turned card's position
            self.fixed[probe_view.taken] = view.taken  # type: ignore[index]
            known |= 1 << view.taken
        probe_up = probe_view.face_up
        # `play.draw.exchange`: the turned card's position holds the card turned, which the exchanger took; the
        # card he gave, face up under the stock or drawn since, lies at one of his own positions
        exchanger, given, turned = view.exchanged or (-1, -1, -1)
        for holder in [None, *range(nseats)]:  # face-up cards sit at fixed positions, in turn-up order
            # but not the offered card taken, placed above: its taker's cards shown later (a meld) are others
            real = [turned if c == given else c for c, s in view.face_up if s == holder and not known >> c & 1]
            spots = [p for p, s in probe_up if s == holder and p not in self.fixed]
            if holder is None or len(real) == len(spots):
                for position, card in zip(spots, real):
                    self.fixed[position] = card
                    known |= 1 << card
        rs = probe.ruleset
        kitty = rs.tables.kitty
        # the seat that took cards (a kitty, an offered card) and discards as many; a taken kitty's positions
        taker = view.discarding_seat if view.discarding_seat is not None else -1
        kitty_spots = range(0)
        if kitty is not None and view.deciding_seat is not None:
            kitty_at = range(*kitty.positions[rs.tables.plan_index(view.hand_number - 1, view.dealer)])
            for position, card in zip(kitty_at, iter_bits(view.kitty)):  # a kitty seen
                self.fixed[position] = card
                known |= 1 << card
            # the declarer took it, by his contract or by his own decision before one: he discards (public)
            if view.discarding_seat is not None and view.discarding_seat == view.deciding_seat:
                kitty_spots = kitty_at
        # `play.draw`: the k-th card drawn lies at the k-th position the probe draws (card ids are positions);
        # a drawn card this seat saw is fixed there, another a seat drew is one of that seat's positions, in
        # its hand from the trick after the draw (``timing``: a card it played must have been held by then)
        drawn_at: dict[int, dict[int, int]] = {}  # seat -> its drawn positions not fixed -> first trick held
        if view.drawn:
            order = probe.draw_order()
            per_round = len(probe.play_order(view.dealer)) * probe.ruleset.tables.draw
            for k, (s, card) in enumerate(view.drawn):
                if card >= 0:
                    card = turned if card == given and k == len(order) - 1 else card  # the turned card's place
                    self.fixed[order[k]] = card
                    known |= 1 << card
                else:
                    drawn_at.setdefault(s, {})[order[k]] = k // per_round + 1
        self.dealt = {s: list(iter_bits(probe.hand_of(s))) for s in range(nseats)}  # each seat's dealt positions
        # the cards this seat passed: where they are now (with the receiver), or still its own while seats pass
        # how many seats on each seat passed to in this hand (0: no passing)
        self.offset = rs.pass_offset(view.hand_number - 1)
        # an exchange under way that this seat has already been given cards in (received at once): the pack
        # is built as dealt, what it was given its giver's, what it gave its own (replays_passing gives them)
        self.mid_exchange = bool(view.received) and view.phase == "pass"
        owner = -1
        if view.passed:
            owner = (seat + self.offset) % nseats if view.received and not self.mid_exchange else seat
        giver_to_me = (seat - self.offset) % nseats if self.mid_exchange else -1
        played_by: dict[int, list[int]] = {s: [] for s in range(nseats)}
        for s, card in view.played:
            played_by[s].append(card)
        # per seat: face-up spots whose card has since been played (it is one of the seat's played
        # cards), the seat's other free positions, and the known cards that fill them
        self.loose: dict[int, tuple[list[int], list[int]]] = {}
        self.positions: dict[int, list[int]] = {}
        self.known: dict[int, list[int]] = {}
        # seat -> (its positions -> the first trick it held their card, its played cards -> the trick played)
        self.timing: dict[int, tuple[dict[int, int], dict[int, int]]] = {}
        size = nseats - len(view.sitting_out)
        taken = 0
        for s in range(nseats):
            free = [p for p in [*iter_bits(probe.hand_of(s)), *(kitty_spots if s == taker else ()),
                                *drawn_at.get(s, ())]
                    if p not in self.fixed]
            if s in drawn_at:
                self.timing[s] = (drawn_at[s], {card: i // size for i, (t, card) in enumerate(view.played) if t == s})
            taken |= sum(1 << p for p in free)
            spots = [p for p, h in probe_up if h == s and p not in self.fixed]
            loose_cards = [c for c in played_by[s] if not known >> c & 1]
            # a card made public by who holds it (not by where the deal put it) gives the probe's
            # holder a spot with no played card behind it: that position is an ordinary free one
            spots = spots[:len(loose_cards)]
            self.loose[s] = (spots, loose_cards)
            self.positions[s] = [p for p in free if p not in spots]
            cards = played_by[s] + [c for c, h in view.face_up if h == s]
            if s == taker:  # the discards this seat saw came from the discarder's cards
                cards += list(iter_bits(view.discarded))
            if s == seat:
                cards += list(iter_bits(view.hand & ~view.received if self.mid_exchange else view.hand))
            if s == owner:
                cards += list(iter_bits(view.passed))
            if s == giver_to_me:
                cards += list(iter_bits(view.received))
            if holds and s in holds:
                cards += list(iter_bits(holds[s]))
            if exchanger >= 0:  # the card given is the exchanger's by position, whoever holds it now
                cards = [*cards, given] if s == exchanger else [c for c in cards if c != given]
            cards = sorted(set(c for c in cards if not known >> c & 1))
            self.known[s] = cards
            known |= sum(1 << c for c in cards)
        self.pool = [p for p in range(ncards) if p not in self.fixed and not taken >> p & 1]
        self.template = [self.fixed.get(p, -1) for p in range(ncards)]  # a pack's known cards, the rest -1
        self.unseen = probe.ruleset.layout.full_mask & ~known
        self.taker, self.free, self.hidden_free, self.discarded_free = taker, 0, 0, 0
        # the discarder's discards this seat did not see, and the cards he can never discard unseen
        self.hidden = hidden if taker >= 0 and taker != seat else 0
        # the cards he took that this seat knows (a kitty it saw, an offered card) and has not played since:
        # one he lacks now he discarded (one he played, he did not: counted as discarded, his unseen
        # discards were too few and no discard fitted the replay)
        self.taken_cards = (sum(1 << self.fixed[p] for p in kitty_spots if p in self.fixed)
                            | (1 << view.taken if view.taken is not None else 0)) \
            & ~sum(1 << c for c in played_by.get(taker, ())) if self.hidden else 0
        self.undiscardable = kitty.never | kitty.last_resort | kitty.face_up if self.hidden else 0
        if self.hidden and view.discarded & kitty.last_resort:
            self.forced_discards(kitty.never | kitty.last_resort, kitty.face_up, hidden, kitty_spots)

    def forced_discards(self, kept: int, shown: int, hidden: int, kitty_spots: range) -> None:
        """A last-resort discard in view (a trump shown) says the declarer then held no other card
        he could discard: he discarded every free card (one outside ``kept``) of his hand and
        kitty, ``hidden`` of them unseen (none of the ``shown`` class). Those in the kitty are
        known; the rest, ``discarded_free``, lie among his unknown dealt positions, and his
        other positions hold no free card."""
        self.free = self.unseen & ~kept
        self.hidden_free = self.free & ~shown
        known = [self.fixed[p] for p in kitty_spots if p in self.fixed]
        self.discarded_free = max(0, hidden - sum(1 for c in known if not (kept | shown) >> c & 1))

    def pack(self, rng: random.Random, excluded: dict[int, int]) -> list[int] | None:
        """A random pack order agreeing with the known cards and ``excluded`` (group -> cards it cannot
        take; groups are seats and POOL), or None when no such order was found.

        A declarer's discards this seat did not see came from his dealt cards (or a kitty he took):
        that many of his positions form the group DISCARDED, which his voids do not bind (he may
        have discarded a card of a suit he has since shown he lacks), only the cards he could not
        have discarded unseen."""
        free = list(iter_bits(self.unseen))
        rng.shuffle(free)
        pack = self.template.copy()  # the known cards at their fixed positions
        slots: dict[int, list[int]] = {}
        for s, positions in self.positions.items():
            spots, candidates = self.loose[s]
            rest = self.known[s]
            if spots:
                up = rng.sample(candidates, len(spots))
                for position, card in zip(spots, up):
                    pack[position] = card
                rest = [c for c in rest if c not in up]
            if s in self.timing:
                timed = self.timed(s, rest, positions, rng)
                if timed is None:
                    return None
                for position, card in timed[0].items():
                    pack[position] = card
                if timed[1]:
                    slots[s] = timed[1]
                continue
            for position, card in zip(positions, rest):
                pack[position] = card
            if len(positions) > len(rest):
                slots[s] = positions[len(rest):]
        if self.free:  # the declarer's free cards are exactly the ones he discarded unseen
            excluded = dict(excluded)
            taker_slots = slots.get(self.taker, [])
            if len(taker_slots) < self.discarded_free:
                return None
            slots[DISCARDED], slots[self.taker] = taker_slots[:self.discarded_free], taker_slots[self.discarded_free:]
            excluded[DISCARDED] = self.unseen & ~self.hidden_free  # his voids say nothing of what he discarded
            excluded[self.taker] = excluded.get(self.taker, 0) | self.free
        elif self.hidden and self.taker in slots:  # he may have been dealt cards he lacks now, and discarded them
            excluded = dict(excluded)
            gone = excluded.get(self.taker, 0)  # his voids (and a known card he took and lacks now was discarded)
            taker_slots = slots[self.taker]
            reserved = max(0, self.hidden - (gone & self.taken_cards).bit_count())
            slots[DISCARDED], slots[self.taker] = taker_slots[:reserved], taker_slots[reserved:]
            excluded[DISCARDED] = gone & self.undiscardable
        if self.pool:
            slots[POOL] = self.pool
        # a card only one group may take goes there first; then the most constrained groups fill up
        allowed = {group: ~excluded.get(group, 0) for group in slots}
        anyone = shared = 0  # the cards some group may take; those two or more may
        for mask in allowed.values():
            shared |= anyone & mask
            anyone |= mask
        if self.unseen & ~anyone:
            return None  # a card no group may take
        chosen = {group: [c for c in free if only >> c & 1] if (only := mask & ~shared & self.unseen) else []
                  for group, mask in allowed.items()}
        rest = [c for c in free if shared >> c & 1]
        for group in sorted(slots, key=lambda g: (-excluded.get(g, 0).bit_count(), g)):
            spots, mine = slots[group], chosen[group]
            need = len(spots) - len(mine)
            if need < 0:
                return None
            if need:  # the first cards of the rest this group may take
                no = excluded.get(group, 0)
                take = [c for c in rest if not no >> c & 1][:need] if no else rest[:need]
                if len(take) < need:
                    return None
                if no:
                    taken = set(take)
                    rest = [c for c in rest if c not in taken]
                else:
                    rest = rest[need:]
                mine += take
            rng.shuffle(mine)  # the pool's order is the stock's order
            for position, card in zip(spots, mine):
                pack[position] = card
        return pack


    def timed(self, seat: int, cards: list[int], positions: list[int],
              rng: random.Random) -> tuple[dict[int, int], list[int]] | None:
        """``seat``'s known ``cards`` placed among its ``positions`` so that each card it played was in its
        hand by then (`play.draw`), and the positions left for its unseen cards; None when none fits.
        The positions a card may take grow with the trick it was played in, so placing the cards in
        play order, each at random among the positions left, draws every fitting placement alike."""
        held_from, played_in = self.timing[seat]
        left = list(positions)
        placed: dict[int, int] = {}
        for card in sorted(cards, key=lambda c: played_in.get(c, self.ncards)):
            due = played_in.get(card, self.ncards)  # a card still held: any position
            fits = [p for p in left if held_from.get(p, 0) <= due]
            if not fits:
                return None
            position = rng.choice(fits)
            left.remove(position)
            placed[position] = card
        return placed, left


class Sampler:
    """Draws worlds for one agent; remembers the replayed state before the current deal."""

    def __init__(self, reading: float = READING) -> None:
        self.reading = reading  # the chance a world the greedy reading of a decision contradicts is dropped
        self._game: GameState | None = None  # the live game the cached start state belongs to
        self._start = -1
        self._before_deal: GameState | None = None

    def before_deal(self, state: GameState, start: int) -> GameState:
        """The game as it stood before this deal, replayed from the history (cached per game)."""
        if self._game is not state or self._before_deal is None or start < self._start:
            self._game, self._start = state, 0
            self._before_deal = GameState(state.ruleset)
        state.replay_onto(self._before_deal, self._start, start)
        self._start = start
        return self._before_deal

    def worlds(self, state: GameState, seat: int, count: int, rng: random.Random) -> list[GameState]:
        """Up to ``count`` states that agree with ``seat``'s view, hidden cards drawn at random."""
        return list(self.draw(state, seat, count, rng))

    def draw(self, state: GameState, seat: int, count: int, rng: random.Random) -> Iterator[GameState]:
        """:meth:`worlds` one at a time, each drawn when asked for: a search on a time budget takes
        only the worlds it has time to search (each world costs a replay of the deal: in a long
        hand, 30 worlds drawn up front took two thirds of a 30 ms budget)."""
        rs = state.ruleset
        ncards = rs.layout.size
        view = state.view(seat)
        history = state.history()
        start = hand_start(history, ncards, len(view.played))
        public = history[start + ncards:]  # this deal's decisions, plays and announcements
        base = self.before_deal(state, start)
        hidden = hidden_discards(state, seat, view, public)
        holds, kept = decisions_say_held(state, view)
        layout = _Layout(base, public, seat, view, len(hidden), holds)
        gives = hidden_gives(state, seat, view, public)
        givers = pass_givers(rs, state.play_order((view.dealer + 1) % rs.players.count), view.blind)
        excluded = voids(state.context, view, rs.players.count, layout.unseen, partner_free=rs.tables.partner_free,
                         from_trick=drawn_tricks(view, rs.players.count, rs.tables.draw, stock_closed(rs, view)))
        for rules_out in (shown_melds_rule_out(state, view), called_card_rules_out(view)):
            for seat_, ruled_out in rules_out.items():
                excluded[seat_] = excluded.get(seat_, 0) | ruled_out & layout.unseen
        discarder = view.discarding_seat
        gone = 0  # cards the discarder cannot hold now, so discarded unseen if he was dealt them (_Layout.pack)
        if hidden and discarder is not None and not layout.free:  # (when it is not known which: forced_discards)
            taken_voids = voids(state.context, view, rs.players.count, layout.taken_cards,
                                partner_free=rs.tables.partner_free).get(discarder, 0)
            gone = excluded[discarder] = excluded.get(discarder, 0) | taken_voids

        reading = Reading(seat, self.reading, rng) if self.reading > 0 else None
        laid_down = any(table.when == "before_first_lead" for table in rs.tables.declarations)

        def world(pack: list[int] | None, reading: Reading | None) -> GameState | None:
            if pack is None:
                return None
            candidate = base.clone()
            if gives:  # cards passed unseen: after the exchange the pack holds the cards as they are now
                given = None
                if view.phase != "pass":
                    pack, given = passes_behind(layout, pack, view, givers, rs.pass_cards, rng)
                candidate.deal_pack(pack)
                return candidate if replays_passing(candidate, public, gives, given, view, reading, rng) else None
            candidate.deal_pack(pack)
            if hidden:
                return candidate if replays_discarding(candidate, public, hidden, view, gone, rng, kept) else None
            if not replays(candidate, public, reading):
                return None
            seen = candidate.view(seat)
            if seen != view and laid_down and agrees_but_melds(seen, view):
                candidate.adopt_public_melds(view)
                seen = candidate.view(seat)
            return candidate if seen == view else None

        found = 0
        attempts = max(count * MAX_TRIES, MIN_ATTEMPTS)
        for attempt in range(attempts):
            if found == count:
                break
            # too few worlds fit: drop the reading first (a seat that does not play like greedy), then the voids too
            unread = attempt >= attempts // 2
            relax = attempt >= attempts * 3 // 4
            candidate = world(layout.pack(rng, {} if relax else excluded), None if unread else reading)
            if candidate is not None:
                found += 1
                yield candidate
