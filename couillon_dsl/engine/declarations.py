"""Declarations (melds): finding them in a hand, comparing them, and who keeps their points.

A declaration kind (``declarations.<id>`` in a ruleset) is a list of patterns with values.
Everything a pattern needs is computed once per compiled ruleset
(:func:`build_declaration_tables`), so finding a seat's melds is mask arithmetic:

* **Runs** (``run: n``): the cards of one suit in sequence along ``run_order``. A suit's
  cards are one run of bits of the hand (cards.py); ``runs_of[bits]`` lists the maximal
  sequences of that bit pattern (their length, top card and mask), looked up per suit. A
  sequence is scored once, by the longest ``run`` pattern not longer than it (5 or more:
  the ``run: 5`` pattern).
* **Sets** (``same_rank``, ``cards``, ``of``): a mask and how many of its cards are needed;
  the held cards of the mask form the meld, scored by the largest requirement met (four
  Jacks, not three). Trump-relative cards (``KT``) give one mask per trump suit.
* **Disjoint use** (``disjoint: true``): no card serves in two melds of one kind. When set
  melds share cards with each other or with a sequence, every compatible choice of sets is
  tried (sequences are then found among the remaining cards) and the highest total kept.
  Choices are few (a hand holds at most a handful of sets); beyond :data:`MAX_CONTESTED`
  contested sets the search keeps the most valuable ones greedily, so it always ends.

* **A pack of copies** (``deck.copies``): a card named in a pattern is any of its copies, and
  ``same_rank`` counts suits (``same_rank: [A]`` is an ace of each suit, Pinochle's aces
  around). Each copy serves once, so a hand may hold a combination more than once (two
  marriages of one suit); a pattern with ``copies: k`` needs k copies of each of its cards and
  is one meld (double pinochle, a double run). :meth:`DeclarationTable._melds_of_copies`
  counts copies per card instead of testing bits: it tries how many times each combination is
  taken, among those that share cards, and keeps the highest total, as disjoint sets are chosen
  in a pack of one copy; the cards of each meld are the lowest copies left.

* **Melds of a trick** (``scope: trick``): the same patterns searched in each trick's cards
  when it is complete (:meth:`DeclarePhase._trick_melds`, or after a hand played out at once
  from its log), whoever played them, each meld its winner's. Nothing is declared or shown:
  the cards were played face up. Rulesets without them pay one empty-tuple test per trick.

At the end of a hand :func:`award` says what each side keeps: every meld (``always``), or
only the side holding the best single meld, compared by ``compare`` (value, length, top
card, trump) and then by seat (earlier in play order from the first leader), or both sides
on an unbroken tie (``tie: both``). ``void_if_opponents_take_all`` voids a side's melds
when the other side took every trick.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Mapping, NamedTuple, Sequence

from couillon_dsl.cards import Card, CardMask, DeckLayout, iter_bits
from couillon_dsl.engine.fields import StateFields
from couillon_dsl.model import Declaration, DeclarationPattern, Ruleset

if TYPE_CHECKING:
    from couillon_dsl.engine.results import SeatView

MAX_CONTESTED = 12  # contested set melds searched exhaustively (2**12 choices at most)
MAX_COPY_CHOICES = 4096  # choices tried in a pack of copies before the rest are taken greedily
TRUMP_WORD = "trump"  # in `of:`, every card of the trump suit
SHOWN_EXACTLY = ("before_first_play", "before_first_lead")  # declared by showing as many cards as the meld needs


class Meld(NamedTuple):
    """One declared instance: who holds it, what it is worth, its cards and its comparison facts."""

    kind: int  # index of the declaration kind
    pattern: int  # index of the pattern that scored it
    seat: int
    value: int
    cards: CardMask
    length: int  # number of cards
    top: int  # the top card's place in the run order, higher is better
    trump: bool  # every card of the meld is a trump


class SetGroup(NamedTuple):
    """A set pattern's cards under one trump suit, with its ladder of requirements (largest first)."""

    mask: CardMask
    ladder: tuple[tuple[int, int, int], ...]  # (cards needed, value, pattern index)
    stand_in: CardMask = 0  # cards counted (and shown) only when the others are too few


class _Candidate(NamedTuple):
    """A requirement of a set group in a pack of copies (:meth:`DeclarationTable._melds_of_copies`)."""

    value: int
    pattern: int
    reach: CardMask  # every card it may take
    slots: tuple[CardMask, ...]  # the copies of each card it counts
    need: int  # how many of them
    copies: int  # copies of each it needs
    group: SetGroup | None  # an `of` group, found as in a pack of one copy


class RunInfo(NamedTuple):
    """A maximal sequence of one suit's bit pattern: length, top card's place, and the suit-local mask."""

    length: int
    top: int
    bits: int


@dataclass(frozen=True, slots=True)
class DeclarationTable:
    """One declaration kind compiled: its pattern masks, run lookup and award rule."""

    index: int
    id: str
    when: str
    shown: bool
    optional: bool  # the holder decides, offered beside his cards on his first turn (when: before_first_play)
    disjoint: bool
    award: str
    tie: str
    compare: tuple[str, ...]
    void_if_opponents_take_all: bool
    per_trick: bool  # scope: trick: found among each trick's cards, the melds of its winner
    labels: tuple[str, ...]  # pattern index -> how statistics and prose name it
    run_ladder: tuple[tuple[int, int, int], ...]  # (run length, value, pattern index), longest first
    min_run: int  # shortest run pattern; 0 when there is none
    runs_of: Mapping[int, tuple[RunInfo, ...]]  # one suit's bits (plain rank order) -> its maximal sequences
    rank_place: tuple[int, ...]  # plain rank index -> place in the run order (higher is better; 0: not in it)
    sets: tuple[tuple[SetGroup, ...], ...]  # trump + 1 -> the set groups under that trump (nsuits: every suit)
    nranks: int
    nsuits: int
    suit_of_mask: tuple[CardMask, ...]  # suit -> its mask
    # a pack of copies (deck.copies > 1): how many, and per trump + 1 the candidates of each set group (largest
    # requirement first), and those candidates grouped by the cards they share (the most valuable first)
    copies: int = 1
    copy_groups: tuple[tuple[tuple[_Candidate, ...], ...], ...] = ()
    copy_components: tuple[tuple[tuple[_Candidate, ...], ...], ...] = ()
    rank_cards: tuple[tuple[CardMask, ...], ...] = ()  # suit -> plain rank index -> the mask of its copies
    card_rank: tuple[int, ...] = ()  # card -> its plain rank index

    def melds(self, hand: CardMask, trump: int, seat: int) -> tuple[Meld, ...]:
        """The melds of this kind that ``hand`` declares under ``trump`` (-1: none; ``nsuits``: every
        suit played as trumps, :func:`meld_trump`), best choice."""
        if self.copies > 1:
            return self._melds_of_copies(hand, trump, seat)
        found = [m for group in self.sets[trump + 1] if (m := self._set_meld(group, hand, trump, seat)) is not None]
        if not self.disjoint:
            return tuple(found) + self._runs(hand, trump, seat)
        if not found:
            return self._runs(hand, trump, seat)
        contested = [m for m in found if self._contested(m, found, hand)]
        free = tuple(m for m in found if m not in contested)
        taken = 0
        for m in free:
            taken |= m.cards
        if len(contested) > MAX_CONTESTED:  # bounded: the rest are taken greedily by value
            contested.sort(key=lambda m: -m.value)
            greedy: list[Meld] = []
            used = taken
            for m in contested:
                if not m.cards & used:
                    greedy.append(m)
                    used |= m.cards
            return free + tuple(greedy) + self._runs(hand & ~used, trump, seat)
        best: tuple[Meld, ...] = ()
        best_score: tuple[int, tuple[int, ...]] | None = None
        for size in range(len(contested) + 1):
            for choice in combinations(contested, size):
                used = taken
                clash = False
                for m in choice:
                    if m.cards & used:
                        clash = True
                        break
                    used |= m.cards
                if clash:
                    continue
                melds = free + choice + self._runs(hand & ~used, trump, seat)
                score = (sum(m.value for m in melds), max((self.key(m) for m in melds), default=()))
                if best_score is None or score > best_score:
                    best, best_score = melds, score
        return best

    def _contested(self, meld: Meld, found: Sequence[Meld], hand: CardMask) -> bool:
        """Whether a set meld shares cards with another set meld or with a sequence of the hand."""
        if any(other is not meld and other.cards & meld.cards for other in found):
            return True
        return bool(self.min_run) and any(r.cards & meld.cards for r in self._runs(hand, -1, 0))

    def _set_meld(self, group: SetGroup, hand: CardMask, trump: int, seat: int) -> Meld | None:
        held = hand & group.mask
        if not held:
            return None
        count = held.bit_count()
        if self.when in SHOWN_EXACTLY:
            held = self._shown_cards(group, held)
            count = held.bit_count()
        for need, value, pattern in group.ladder:
            if count >= need:
                top = max(self.rank_place[c % self.nranks] for c in iter_bits(held))
                in_trump = trump >= self.nsuits or trump >= 0 and (held & self.suit_of_mask[trump]) == held
                return Meld(self.index, pattern, seat, value, held, count, top, in_trump)
        return None

    @staticmethod
    def _shown_cards(group: SetGroup, held: CardMask) -> CardMask:
        """What a holding of a set shows when declared before the first play: exactly the largest
        requirement it meets, its lowest cards (highest card ids: last in their suit's order),
        stand-ins only when the others are too few."""
        count = held.bit_count()
        need = next((n for n, _, _ in group.ladder if count >= n), 0)
        regular = sorted(iter_bits(held & ~group.stand_in), reverse=True)[:need]
        extra = list(iter_bits(held & group.stand_in))[:need - len(regular)]
        return sum(1 << c for c in regular + extra)

    def rules_out(self, meld_cards: CardMask, pattern: int, trump: int) -> CardMask:
        """The cards a holder who showed ``meld_cards`` (a meld of ``pattern`` declared before the first
        play) cannot hold besides them, by the rule that picked them: no unshown card of the set
        lower than a shown one, and, when a stand-in was needed, no unshown card of the set but
        stand-ins."""
        group = next((g for g in self.sets[trump + 1] if any(p == pattern for _, _, p in g.ladder)), None)
        if group is None or self.when not in SHOWN_EXACTLY or self.copies > 1:  # copies: read nothing (yet)
            return 0
        regular = group.mask & ~group.stand_in
        if meld_cards & group.stand_in:
            return regular & ~meld_cards
        lowest = min(iter_bits(meld_cards & regular), default=-1)
        return sum(1 << c for c in iter_bits(regular & ~meld_cards) if c > lowest)

    def _runs(self, hand: CardMask, trump: int, seat: int) -> tuple[Meld, ...]:
        if not self.min_run:
            return ()
        out: list[Meld] = []
        n = self.nranks
        full = (1 << n) - 1
        for suit in range(self.nsuits):
            bits = hand >> (suit * n) & full
            if bits.bit_count() < self.min_run:
                continue
            for run in self.runs_of[bits]:
                for need, value, pattern in self.run_ladder:
                    if run.length >= need:
                        out.append(Meld(self.index, pattern, seat, value, run.bits << (suit * n), run.length, run.top,
                                        suit == trump or trump >= self.nsuits))
                        break
        return tuple(out)

    def _melds_of_copies(self, hand: CardMask, trump: int, seat: int) -> tuple[Meld, ...]:
        """`melds` in a pack of copies. Each requirement of a `cards` or `same_rank` group is a candidate,
        taken as many times as the copies held allow; an `of` group is one, found as in a pack of one copy.
        Not disjoint: each group's largest requirement met, as often as it is held. Disjoint: among
        candidates that share cards (every candidate, when the kind has sequences), every number of each is
        tried, up to :data:`MAX_COPY_CHOICES` choices (then the rest are taken as often as they can be, the
        most valuable first), sequences found among the copies left, and the highest total kept."""
        if not self.disjoint:
            out: list[Meld] = []
            for group in self.copy_groups[trump + 1]:
                out.extend(next((taken for cand in group if (taken := self._take_all(cand, hand, trump, seat))), []))
            return tuple(out) + self._runs_of_copies(hand, trump, seat)
        components = self.copy_components[trump + 1]
        if not components:
            return self._runs_of_copies(hand, trump, seat)
        melds: list[Meld] = []
        used = 0
        for component in components:
            chosen, used = self._best_copies(component, hand, used, trump, seat)
            melds.extend(chosen)
        return tuple(melds)

    def _take(self, cand: _Candidate, avail: CardMask) -> CardMask:
        """The cards one more instance of ``cand`` takes from ``avail`` (0: none left): of the cards it
        needs, those held most often, their lowest copies left."""
        ready = [s for s in cand.slots if (avail & s).bit_count() >= cand.copies]
        if len(ready) < cand.need:
            return 0
        ready.sort(key=lambda s: -(avail & s).bit_count())
        cards = 0
        for slot in ready[:cand.need]:
            for _ in range(cand.copies):
                held = avail & slot & ~cards
                cards |= held & -held
        return cards

    def _take_all(self, cand: _Candidate, hand: CardMask, trump: int, seat: int) -> list[Meld]:
        """Every instance of ``cand`` that ``hand`` holds, one after another from the copies left."""
        if cand.group is not None:
            meld = self._set_meld(cand.group, hand, trump, seat)
            return [meld] if meld else []
        out = []
        while cards := self._take(cand, hand):
            out.append(self.meld_of(cand.pattern, seat, cand.value, cards, trump))
            hand &= ~cards
        return out

    def meld_of(self, pattern: int, seat: int, value: int, cards: CardMask, trump: int) -> Meld:
        """The meld of ``pattern`` that ``cards`` form under ``trump``, with its comparison facts."""
        top = max(self.rank_place[self.card_rank[c]] for c in iter_bits(cards))
        in_trump = trump >= self.nsuits or trump >= 0 and (cards & self.suit_of_mask[trump]) == cards
        return Meld(self.index, pattern, seat, value, cards, cards.bit_count(), top, in_trump)

    def _best_copies(self, component: Sequence[_Candidate], hand: CardMask, used: CardMask, trump: int,
                     seat: int) -> tuple[list[Meld], CardMask]:
        """The best choice of instances of ``component``'s candidates from the copies ``hand`` holds beside
        ``used`` (with the sequences of the copies left, when the kind has them), and the cards then used."""
        best: list[Meld] = []
        best_score: tuple[int, tuple[int, ...]] | None = None
        best_used = used
        leaves = 0

        def search(i: int, avail: CardMask, chosen: list[Meld]) -> None:
            nonlocal best, best_score, best_used, leaves
            if i == len(component):
                leaves += 1
                melds = chosen + list(self._runs_of_copies(avail, trump, seat))
                score = (sum(m.value for m in melds), max((self.key(m) for m in melds), default=()))
                if best_score is None or score > best_score:
                    best, best_score, best_used = melds, score, hand & ~avail
                return
            taken = self._take_all(component[i], avail, trump, seat)
            counts = range(len(taken), -1, -1) if leaves < MAX_COPY_CHOICES else (len(taken),)
            for n in counts:  # the most instances first: that choice wins ties
                rest = avail
                for meld in taken[:n]:
                    rest &= ~meld.cards
                search(i + 1, rest, chosen + taken[:n])

        search(0, hand & ~used, [])
        return best, best_used

    def _runs_of_copies(self, hand: CardMask, trump: int, seat: int) -> tuple[Meld, ...]:
        """The sequences of ``hand`` in a pack of copies: those of the ranks held once or more, then those of
        the ranks held twice or more, and so on, each of the lowest copies not in an earlier one."""
        if not self.min_run:
            return ()
        out: list[Meld] = []
        for suit in range(self.nsuits):
            left = hand
            for layer in range(self.copies):
                bits = sum(1 << r for r, mask in enumerate(self.rank_cards[suit]) if (hand & mask).bit_count() > layer)
                if bits.bit_count() < self.min_run:
                    break
                for run in self.runs_of[bits]:
                    cards = 0
                    for r in iter_bits(run.bits):
                        held = left & self.rank_cards[suit][r]
                        cards |= held & -held
                    left &= ~cards
                    for need, value, pattern in self.run_ladder:
                        if run.length >= need:
                            out.append(Meld(self.index, pattern, seat, value, cards, run.length, run.top,
                                            suit == trump or trump >= self.nsuits))
                            break
        return tuple(out)

    def key(self, meld: Meld) -> tuple[int, ...]:
        """What `compare` ranks a meld by, best highest."""
        return tuple(int(getattr(meld, field)) for field in self.compare)

    def best(self, melds: Sequence[Meld]) -> Meld:
        """The meld a holder is offered (or declares) of ``melds``, this kind's: the most valuable, then by `compare`."""
        return max(melds, key=lambda m: (m.value, self.key(m)))


def meld_trump(rs: Ruleset, contract: int, trump: int) -> int:
    """The trump the declarations read under ``contract`` (an index into `contracts`, or -1) and the
    hand's ``trump`` suit (-1: none): every suit (past the last) under a contract of `trump: all_suits`,
    whose trump cards (KT) are those of every suit; else the trump suit."""
    return len(rs.layout.suits) if contract >= 0 and rs.tables.all_suits[contract] else trump


def award(table: DeclarationTable, melds: Sequence[Meld], team_of: Sequence[int], order: Sequence[int],
          nteams: int, took_all: int | None = None) -> tuple[int, ...]:
    """Points per team for this kind's melds of one hand.

    ``order[seat]`` is the seat's place in play order from the hand's first leader (ties go
    to the lower place); ``took_all`` is the team that took every trick, if any.
    """
    points = [0] * nteams
    if not melds:
        return tuple(points)
    if table.award == "best_side_only":
        best = max(melds, key=lambda m: (table.key(m), -order[m.seat]))
        if table.tie == "both":
            top = table.key(best)
            keep = {team_of[m.seat] for m in melds if table.key(m) == top}
        else:
            keep = {team_of[best.seat]}
    else:
        keep = set(range(nteams))
    for m in melds:
        team = team_of[m.seat]
        if team in keep and not (table.void_if_opponents_take_all and took_all is not None and took_all != team):
            points[team] += m.value
    return tuple(points)


# ---------------------------------------------------------------------- the phase
class DeclarePhase(StateFields):
    """Declaring melds during the play of a hand, and what each team keeps at its end.

    When play begins every seat's melds are found at once (:meth:`_find_melds`; the hands
    do not change before a seat's first card). A ``first_play`` meld is declared when its
    holder plays his first card, a ``last_card_played`` meld when he plays its last card. A
    ``led`` meld is looked for at each lead, in the leader's hand as it stands (it may have
    drawn cards since the deal): the melds the led card is one of, their other cards shown.
    An ``optional`` meld (``before_first_play``) is offered beside the holder's cards on his
    first turn (engine.announce: the same offer as an announcement his card allows) and
    declared only if he takes it; playing a card declines it, so nothing tells him from a
    seat without it.
    A ``before_first_lead`` meld is declared by every seat at once, before the first card of the
    hand is led, in turn from the leader.
    ``_meld_watch`` is the mask of cards whose play declares something (every card while a
    first-play meld is pending in the first trick), so the play loop pays one bit test per
    card, and nothing at all in rulesets without declarations. Shown melds join the
    face-up cards, which seat views and agents already treat as public.
    """

    __slots__ = ()

    def _find_melds(self) -> None:
        """At the first lead: every seat's melds of every kind, pending until declared."""
        hands, trump, n = self._hands, meld_trump(self._rs, self._contract, self._trump), self._n
        first: list[list[Meld]] = [[] for _ in range(n)]
        before_lead: list[list[Meld]] = [[] for _ in range(n)]
        later: list[Meld] = []
        offers: list[dict[int, Meld]] = [{} for _ in range(n)]
        for table in self._t.declarations:
            if table.per_trick or table.when in ("led", "trick_won"):  # found at each lead (_declare_on_play,
                continue  # _offer_won_melds)
            for seat in range(n):
                found = table.melds(hands[seat], trump, seat)
                if table.optional:
                    if found:  # the best one is offered
                        offers[seat][table.index] = table.best(found)
                elif table.when in ("first_play", "before_first_play"):
                    first[seat].extend(found)
                elif table.when == "before_first_lead":
                    before_lead[seat].extend(found)
                else:
                    later.extend(found)
        self._meld_offers = tuple(offers) if any(offers) else ()
        self._meld_first = tuple(tuple(seat_melds) for seat_melds in first)
        self._meld_later = tuple(later)
        self._meld_watch = self._watched()
        for seat in self._order[self._leader]:  # laid down by everyone before the first card, from the leader
            self._declare(before_lead[seat])

    def adopt_public_melds(self, view: SeatView) -> None:
        """Make a sampled world's declarations and face-up cards those of ``view`` (the table's): a world
        dealt at random whose hidden hands would have laid down other melds (`when: before_first_lead`)
        plays and scores the melds everyone saw, its shown cards where the view shows them."""
        tables = {table.id: table for table in self._t.declarations}
        trump = meld_trump(self._rs, self._contract, self._trump)
        self._melds = [tables[kind].meld_of(tables[kind].labels.index(label), seat, value, cards, trump)
                       for kind, label, seat, value, cards in view.melds]
        self._face_up = dict(view.face_up)

    def _watched(self) -> CardMask:
        """The cards whose play declares something now (a led meld's cards: when led, with the rest held)."""
        watch = self._full if any(self._meld_first) else 0
        for meld in self._meld_later:
            watch |= meld.cards
        if self._t.led_watch:
            watch |= self._t.led_watch[meld_trump(self._rs, self._contract, self._trump) + 1]
        return watch

    def _declare_on_play(self, seat: int, card: Card) -> None:
        """``seat`` is about to play ``card`` (still in its hand): declare what that play declares."""
        self._lead_from = 0  # a combination declared by choice is led from: done
        pending = self._meld_first[seat]
        if pending:
            self._declare(pending)
            self._meld_first = self._meld_first[:seat] + ((),) + self._meld_first[seat + 1:]
        if self._meld_later:
            hand = self._hands[seat]
            done = tuple(m for m in self._meld_later if m.seat == seat and (hand & m.cards) == 1 << card)
            if done:
                self._declare(done)
                self._meld_later = tuple(m for m in self._meld_later if m not in done)
        if self._t.led_melds and not self._trick:
            self._declare_led(seat, card)
        self._meld_watch = self._watched()

    def _declare_led(self, seat: int, card: Card) -> None:
        """``seat`` leads ``card``: the `when: led` melds of its hand as it stands (cards drawn since the
        deal included) that ``card`` is one of."""
        hand, trump = self._hands[seat], meld_trump(self._rs, self._contract, self._trump)
        for table in self._t.led_melds:
            self._declare([m for m in table.melds(hand, trump, seat) if m.cards >> card & 1])

    def _trick_melds(self, cards: CardMask, winner: int) -> None:
        """A trick of ``cards`` just won by ``winner``: the melds its cards form, his (they are public)."""
        trump = meld_trump(self._rs, self._contract, self._trump)
        for table in self._t.trick_melds:
            self._melds.extend(table.melds(cards, trump, winner))

    def _trick_melds_from(self, first: int) -> None:
        """Tricks ``first`` onwards were just played out at once: their melds, trick by trick."""
        for _, cards, winner in self._log[first:]:
            self._trick_melds(sum(1 << card for card in cards), winner)

    def _offer_won_melds(self) -> bool:
        """The seat to lead has just won a trick: of each `when: trick_won` kind, the best combination its
        hand holds now that was not declared before, declared at once, or offered beside its cards when the
        kind is optional (declining is leading). Whether the hand stops on a meld declared (`play.stop_when`)."""
        before = len(self._melds)
        offers: dict[int, Meld] = {}
        for table, best in self._best_new_melds(self._t.won_melds):
            if table.optional:
                offers[table.index] = best
            else:
                self._declare([best])
        self._offer_melds(offers)
        return self._stops_on_declaring(before)

    def _offer_led_melds(self) -> None:
        """The seat to lead may declare by choice, beside its cards, the best combination of each optional
        `when: led` kind its hand holds now that was not declared before; declaring one, it leads one of its
        cards (``_lead_from``, :meth:`_declare_offered`). Leading without declaring declines it, so nothing
        tells a silent holder from a seat without one (Schnapsen's marriage kept quiet)."""
        self._offer_melds({table.index: best for table, best in self._best_new_melds(self._t.led_offered)})

    def _best_new_melds(self, tables: Sequence[DeclarationTable]) -> list[tuple[DeclarationTable, Meld]]:
        """Of each of ``tables``, the best combination the seat to move holds now that was not declared before."""
        seat = self._turn
        hand, trump = self._hands[seat], meld_trump(self._rs, self._contract, self._trump)
        declared = {(m.kind, m.cards) for m in self._melds}
        found = ((table, [m for m in table.melds(hand, trump, seat) if (table.index, m.cards) not in declared])
                 for table in tables)
        return [(table, table.best(melds)) for table, melds in found if melds]

    def _offer_melds(self, offers: dict[int, Meld]) -> None:
        """Offer the seat to move ``offers`` (kind -> meld) beside its cards, as optional declarations."""
        if not offers:
            return
        seat = self._turn
        mine = dict(self._meld_offers[seat]) if self._meld_offers else {}
        mine.update(offers)
        seats = self._meld_offers or ({},) * self._n
        self._meld_offers = seats[:seat] + (mine,) + seats[seat + 1:]
        self._may_announce |= sum(1 << kind for kind in offers) << self._acts.nannouncements

    def offered_meld(self, kind: int) -> Meld | None:
        """The meld `declare` of optional kind ``kind`` would declare now, if offered to the seat to move (its
        own cards: what it may know)."""
        if not self._meld_offers or not self._may_announce >> (self._acts.nannouncements + kind) & 1:
            return None
        return self._meld_offers[self._turn].get(kind)

    def _won_meld_refusal(self, kind: int) -> str:
        """Why the seat to move may not declare ``kind`` (`when: trick_won` or `led`) now (it is not offered)."""
        name, seat = self._rs.declarations[kind].name, self._turn
        if self._rs.declarations[kind].when == "led":
            if self._trick:
                return f"{name} is declared only by the player on lead, before he leads one of its cards"
            return f"seat {seat} holds no {name} not declared before, or has declared a combination to lead from"
        if self._trick or not self._log or self._log[-1][2] != seat:
            return f"{name} is declared only by the player who has just won a trick, before he leads the next"
        return f"seat {seat} holds no {name} not declared before, or has declared one since winning this trick"

    def _declarations_offered(self, seat: int) -> int:
        """The optional kinds (bits) ``seat`` may still declare: on its first turn only."""
        offers = self._meld_offers[seat]
        if not offers or self._hands[seat].bit_count() != self._ntricks:
            return 0
        return sum(1 << kind for kind in offers)

    def _declare_offered(self, seat: int, kind: int) -> None:
        """``seat`` takes its offer of ``kind``; a `when: led` combination is then led from (its cards join
        the watched ones, whose play ends that)."""
        offers = dict(self._meld_offers[seat])
        meld = offers.pop(kind)
        self._meld_offers = self._meld_offers[:seat] + (offers,) + self._meld_offers[seat + 1:]
        self._declare([meld])
        if self._rs.declarations[kind].when == "led":  # one combination is led from: the others' offers lapse
            self._lead_from = meld.cards & self._hands[seat]
            self._meld_watch |= self._lead_from
            self._may_announce &= ~(sum(1 << table.index for table in self._t.led_offered) << self._acts.nannouncements)

    def _declare(self, melds: Sequence[Meld]) -> None:
        tables = self._t.declarations
        for meld in melds:
            self._melds.append(meld)
            if tables[meld.kind].shown:
                for card in iter_bits(meld.cards):
                    self._face_up[card] = meld.seat

    def _declare_first(self) -> None:
        """A hand about to be played out at once (random play) from its first trick: the first-play
        melds, in the order the seats will play their first card."""
        if self._trick_no == 0:
            for seat in self._order[self._leader]:
                self._declare(self._meld_first[seat])
        self._meld_first = ((),) * self._n

    def _declare_rest(self) -> None:
        """A hand just played out at once: the pending last-card melds, in the order their last card was played."""
        if self._meld_later:
            played = [card for _, cards, _ in self._log for card in cards]
            place = {card: i for i, card in enumerate(played)}
            self._declare(sorted(self._meld_later, key=lambda m: max(place[c] for c in iter_bits(m.cards))))
        self._meld_later = ()
        self._meld_watch = 0

    def _meld_points(self, first_leader: int) -> tuple[tuple[int, ...], ...]:
        """Per declaration kind, the points each team keeps from this hand's declared melds."""
        t = self._t
        order = [0] * self._n
        for place, seat in enumerate(t.rounds[first_leader]):
            order[seat] = place
        nteams = len(self._points)  # the hand's sides
        took_all = next((team for team, won in enumerate(self._tricks) if won == self._ntricks), None)
        by_kind: list[list[Meld]] = [[] for _ in t.declarations]
        for meld in self._melds:
            by_kind[meld.kind].append(meld)
        return tuple(award(table, by_kind[table.index], self._side_of, order, nteams, took_all)
                     for table in t.declarations)


# ---------------------------------------------------------------------- compile
def pattern_label(pattern: DeclarationPattern, nsuits: int) -> str:
    """A short name for a pattern: its own `name`, else what it matches ("run of 3", "4 × J")."""
    if pattern.name:
        return pattern.name
    shape = pattern.shape
    if shape == "run":
        return f"run of {pattern.run}"
    if shape == "same_rank":
        return f"{pattern.count or nsuits} × {'/'.join(pattern.same_rank)}"
    if shape == "cards":
        return " ".join(pattern.cards)
    return f"{pattern.at_least} of {' '.join(pattern.of)}"


def card_set(layout: DeckLayout, names: Sequence[str], trump: int) -> CardMask | None:
    """The mask of ``names`` under ``trump``: card names, rank + ``T`` for the trump suit's card, or
    ``trump`` for the whole trump suit. None when a name needs a trump and there is none."""
    mask = 0
    ranks = [r.upper() for r in layout.ranks]
    for name in names:
        upper = name.strip().upper()
        if upper == TRUMP_WORD.upper():
            if trump < 0:
                return None
            mask |= layout.suit_mask(trump)
        elif upper.endswith("T") and upper[:-1] in ranks and "T" not in layout.suits:
            if trump < 0:
                return None
            mask |= 1 << layout.card(trump, ranks.index(upper[:-1]))
        else:
            mask |= 1 << layout.parse(name)
    return mask


def _runs_of(bits: int, by_place: Sequence[int], min_run: int) -> tuple[RunInfo, ...]:
    """The maximal sequences (at least ``min_run`` long) of a suit's plain-order ``bits``."""
    nplaces = len(by_place)
    held = [bool(bits >> by_place[p] & 1) for p in range(nplaces)]  # run order, highest first
    out = []
    p = 0
    while p < nplaces:
        if not held[p]:
            p += 1
            continue
        start = p
        while p < nplaces and held[p]:
            p += 1
        if p - start >= min_run:
            mask = sum(1 << by_place[q] for q in range(start, p))
            out.append(RunInfo(p - start, nplaces - start, mask))
    return tuple(out)


class _RunLookup(dict[int, tuple[RunInfo, ...]]):
    """bits -> maximal sequences, filled on first use (suits too long for a complete table)."""

    def __init__(self, by_place: Sequence[int], min_run: int) -> None:
        super().__init__()
        self.by_place = tuple(by_place)
        self.min_run = min_run

    def __missing__(self, bits: int) -> tuple[RunInfo, ...]:
        runs = _runs_of(bits, self.by_place, self.min_run)
        self[bits] = runs
        return runs


RUN_TABLE_RANKS = 13  # suits of at most this many ranks get a complete run table at compile time


def build_declaration_table(index: int, declaration: Declaration, layout: DeckLayout) -> DeclarationTable:
    """Compile one declaration kind for ``layout`` (names were checked by the semantic checks)."""
    ranks = list(layout.ranks)
    nranks, nsuits = len(ranks), len(layout.suits)
    order = list(declaration.run_order or ranks)
    by_place = [ranks.index(r) for r in order]  # run-order place -> plain rank index
    rank_place = [0] * nranks
    for place, rank_index in enumerate(by_place):
        rank_place[rank_index] = len(order) - place
    patterns = declaration.patterns
    run_ladder = tuple(sorted(((p.run, p.value, i) for i, p in enumerate(patterns) if p.run is not None),
                              reverse=True))
    min_run = min((length for length, _, _ in run_ladder), default=0)
    runs_of: Mapping[int, tuple[RunInfo, ...]]
    if not min_run:
        runs_of = {}
    elif nranks <= RUN_TABLE_RANKS:
        runs_of = {bits: _runs_of(bits, by_place, min_run) for bits in range(1 << nranks)}
    else:
        runs_of = _RunLookup(by_place, min_run)
    copies = layout.copies
    sets, candidates = [], []
    for trump in range(-1, nsuits + 1):  # no trump, each suit, then every suit (`trump: all_suits`, meld_trump)
        # mask (and, in a pack of copies, whether it counts cards) -> ladder, stand-ins, the masks of each card's copies
        groups: dict[tuple[CardMask, bool], list[tuple[int, int, int]]] = {}
        stand_ins: dict[tuple[CardMask, bool], CardMask] = {}
        group_slots: dict[tuple[CardMask, bool], tuple[CardMask, ...]] = {}
        for i, p in enumerate(patterns):
            shape = p.shape
            if shape == "run":
                continue
            if shape == "same_rank":
                for rank in p.same_rank:
                    suits = tuple(layout.copies_mask(layout.card(s, ranks.index(rank))) for s in range(nsuits))
                    key = (sum(suits), False)
                    groups.setdefault(key, []).append((p.count or nsuits, p.value, i))
                    group_slots[key] = suits
                continue
            for suit in (range(nsuits) if trump == nsuits else (trump,)):  # every suit: one group each
                cards = card_set(layout, p.cards if shape == "cards" else p.of, suit)
                if cards:
                    need = cards.bit_count() if shape == "cards" else (p.at_least or 1)
                    key = (layout.with_copies(cards), copies > 1 and shape == "of")
                    groups.setdefault(key, []).append((need, p.value, i))
                    stand_ins[key] = stand_ins.get(key, 0) | (layout.parse_mask(list(p.stand_in)) & key[0])
                    if shape == "cards":
                        group_slots[key] = tuple(layout.copies_mask(c) for c in iter_bits(cards))
        trump_sets = tuple(SetGroup(key[0], tuple(sorted(ladder, reverse=True)), stand_ins.get(key, 0))
                           for key, ladder in groups.items())
        sets.append(trump_sets)
        if copies > 1:
            candidates.append(tuple(_group_candidates(group, () if key[1] else group_slots.get(key, ()), patterns)
                                    for key, group in zip(groups, trump_sets)))
    rank_cards = tuple(tuple(layout.copies_mask(layout.card(s, r)) for r in range(nranks)) for s in range(nsuits))
    return DeclarationTable(
        index=index, id=declaration.id, when=declaration.when, shown=declaration.shown, optional=declaration.optional,
        disjoint=declaration.disjoint, award=declaration.award, tie=declaration.tie, compare=declaration.compare,
        void_if_opponents_take_all=declaration.void_if_opponents_take_all, per_trick=declaration.scope == "trick",
        labels=tuple(pattern_label(p, nsuits) for p in patterns),
        run_ladder=run_ladder, min_run=min_run, runs_of=runs_of, rank_place=tuple(rank_place), sets=tuple(sets),
        nranks=nranks, nsuits=nsuits, suit_of_mask=tuple(layout.suit_mask(s) for s in range(nsuits)),
        copies=copies, copy_groups=tuple(candidates),
        copy_components=tuple(_components(c, bool(min_run)) for c in candidates),
        rank_cards=rank_cards,
        card_rank=tuple(0 if layout.is_extra(c) else layout.rank_of(c) for c in range(layout.size)),
    )


def _group_candidates(group: SetGroup, slots: tuple[CardMask, ...],
                      patterns: Sequence[DeclarationPattern]) -> tuple[_Candidate, ...]:
    """A set group's candidates in a pack of copies, the largest requirement first: one per requirement,
    counted in copies of each card (``slots``); an `of` group (no slots) one, found as in a pack of one copy."""
    if not slots:
        return (_Candidate(group.ladder[0][1], group.ladder[0][2], group.mask, (), 0, 0, group),)
    return tuple(_Candidate(value, pattern, group.mask, slots, need, patterns[pattern].copies, None)
                 for need, value, pattern in group.ladder)


def _components(groups: Sequence[tuple[_Candidate, ...]], with_runs: bool) -> tuple[tuple[_Candidate, ...], ...]:
    """The candidates grouped by the cards they may share (all in one when sequences may take any of them),
    each group the most valuable first: the choices :meth:`DeclarationTable._best_copies` tries together."""
    components: list[list[_Candidate]] = []
    for cand in (cand for group in groups for cand in group):
        joined = [c for c in components if with_runs or any(o.reach & cand.reach for o in c)]
        components = [c for c in components if c not in joined] + [[cand] + [o for c in joined for o in c]]
    return tuple(tuple(sorted(c, key=lambda cand: -cand.value)) for c in components)


def build_declaration_tables(declarations: Sequence[Declaration], layout: DeckLayout) -> tuple[DeclarationTable, ...]:
    return tuple(build_declaration_table(i, d, layout) for i, d in enumerate(declarations))
