"""The decision that fixes a hand's trump: accept/pass rounds on an offered card, or a choice.

`trump.method` says which: ``offer`` (speakers in turn, `on_all_pass` when all refuse, which
may be a second round naming any other suit: phase ``name``),
``choose`` (one seat names a suit, shows a card, defers, picks one of the ruleset's
`contracts`, or hands the choice on with `delegate`), ``auction``, ``turned`` (the last
face-up card fixes trump, nobody decides), ``drawn`` (a chance node of its own, phase
``draw_trump``: the CHANCE player draws one of `trump.drawn` suits, each equally likely, in
public; nobody decides) or ``none``. The chooser is `by`
(elder or dealer), or on a game's first hand the holder of `first_hand.holder_of`. An
offered card may be taken into a hand (`offer.taken_by`: the dealer or the acceptor once a
seat accepts it, or the declarer, who accepted or named another suit), whose taker then
discards a card (engine.kitty) unless `offer.taker_discards` is false.
"""
from __future__ import annotations

from couillon_dsl.engine.actions import AUCTION, CHOOSE, DRAW, KITTY, NAME, OFFER, TRUMP_DRAW
from couillon_dsl.engine.fields import StateFields
from couillon_dsl.engine.scoring import top_run


class ContractPhase(StateFields):
    """Fixing trump (and the maker) for the hand."""

    __slots__ = ()

    def _begin_trump(self) -> bool:
        """Start the trump procedure; True when it waits for a decision."""
        method = self._rs.trump.method
        elder = (self._dealer + 1) % self._n
        if method == "offer":
            self._offered = self._last_up
            self._speakers = self._order[elder]
            self._spk = 0
            self._phase = OFFER
            return True
        if method == "auction":
            order = self._auction_order()
            if self._t.auction_suits:  # open: round and round from the first seat; _round counts passes in a row
                self._speakers, self._spk, self._round = order, 0, 0
            elif self._t.auction_rounds:  # rounds: the seats still in the bidding, from the first; _round
                self._speakers, self._spk, self._round = order, 0, len(self._decisions)  # where its words begin
            elif self._t.auction_values:  # pairs: the second seat bids to the first
                self._bidder, self._round, self._speakers, self._spk = order[0], 2, order[:2], 1
            else:
                self._speakers, self._spk = order, 0
            self._phase = AUCTION
            return True
        if method == "choose":
            card = self._t.first_hand_card
            holder = -1
            if card >= 0 and self._game_hands == 0:  # a card nobody was dealt (set aside, stock): `by` asks
                holder = next((s for s, h in enumerate(self._hands) if h >> card & 1), -1)
            if holder >= 0:  # the holder makes himself known: the card is public from now on
                self._chooser = holder
                self._face_up[card] = holder
            else:
                by = self._rs.trump.choose.by  # type: ignore[union-attr]
                self._chooser = self._dealer if by == "dealer" else elder
            self._asked = self._chooser
            self._phase = CHOOSE
            return True
        if method == "turned":  # no decision: the last face-up card is trump, the maker as after a fallback
            up = self._last_up
            if up >= 0 and self._t.turned_named >> up & 1:  # `if_turned`: the dealer names trump, seeing his cards
                self._chooser = self._asked = self._dealer
                self._phase = CHOOSE
                return True
            # none turned (`if_stock_empty`), or a card that fixes none (`if_turned`): no trump
            self._trump = self._t.suit_of[up] if up >= 0 and not self._t.turned_no_trump >> up & 1 else -1
            self._fallback_maker()
            self._path = "turned"
        if method == "drawn":  # chance draws the suit (a card of a second pack, a die): the CHANCE player's move
            self._phase = TRUMP_DRAW
            return True
        return False

    def _drawable_suits(self) -> tuple[int, ...]:
        """The suits the chance draw of `trump.method: drawn` may give, each equally likely (public)."""
        return tuple(map(self._rs.layout.suits.index, self._rs.trump.drawn))

    def _trump_drawn(self, suit: int) -> None:
        """The chance draw gave ``suit``: trump, the maker as after a fallback (`maker_after_fallback`)."""
        self._trump = suit
        self._fallback_maker()
        self._path = "drawn"
        self._continue_deal()

    def _push(self) -> None:
        """The chooser hands the choice on (`delegate`): to its partner or the next seat."""
        seat = self._chooser
        t = self._t
        self._decisions.append((seat, "push"))
        self._pushes += 1
        if self._rs.trump.choose.delegate.to == "next":  # type: ignore[union-attr]
            self._chooser = t.next_seat[seat]
        else:
            self._chooser = next(s for s in self._order[seat][1:] if t.team_of[s] == t.team_of[seat])

    def _declarer_is(self, seat: int) -> None:
        """``seat`` fixed the trump or the contract: its side is the maker. With sides fixed per
        hand (`players.sides`), the sides are fixed now, around this declarer."""
        sides = self._t.declarer_sides
        if sides:
            self._side_of = sides[seat]
        self._maker = self._side_of[seat]

    def _fallback_maker(self) -> None:
        """Trump came from a fallback or a deferral: `maker_after_fallback` says who makes (the elder, or nobody)."""
        if self._rs.trump.maker_after_fallback == "elder_team":
            self._declarer_is(self._t.next_seat[self._dealer])
        else:
            self._maker = None

    def _fix_contract(self, contract: int) -> None:
        """The contract picked (an index into `contracts`; -1 when the ruleset has none)."""
        self._contract = contract
        if contract >= 0:
            self._cbase = self._t.contract_base[contract]

    def _decide(self, action: int) -> None:
        """Apply a trump decision: accept/pass an offer; name/show/defer, pick a contract or push a choice."""
        acts = self._acts
        if self._phase == TRUMP_DRAW:
            self._trump_drawn(action - acts.drawn0)
            return
        if self._phase == AUCTION:
            if self._t.auction_suits or self._path == "bid":  # an open auction, or doubling a contract fixed
                self._bid_open(action)
            elif self._t.auction_rounds:
                self._bid_in_rounds(action)
            elif self._t.auction_values:
                self._bid_in_pairs(action)
            else:
                self._bid_or_pass(action)
            return
        if self._phase == KITTY:
            self._take_or_leave(action)
            return
        if self._phase == OFFER:
            if action == acts.accept:
                self._accept()
            else:
                self._pass()
            return
        if self._phase == NAME:
            self._name_or_pass(action)
            return
        if action == acts.push:
            self._push()
            return
        suit_of = self._rs.layout.suit_of
        seat = self._chooser
        self._decider = seat
        t = self._t
        named = "bid" if self._path == "bid" else "named"  # a numeric auction's declarer picks: still a bid
        if 0 <= acts.contract0 <= action:  # a contract whose trump is not named
            contract = t.fixed_contracts[action - acts.contract0]
            self._decisions.append((seat, self._rs.contracts[contract].id))
            self._trump = t.contract_trump[contract]  # a suit, or -1: none
            self._declarer_is(seat)
            self._path = named
            self._fix_contract(contract)
            self._continue_deal()
            return
        self._fix_contract(t.named_contract)
        if action == acts.defer:
            self._decisions.append((seat, "defer"))
            self._defer_seat = seat
            self._fallback_maker()
            self._path = "deferred"
        elif action < acts.show0:
            self._decisions.append((seat, "name"))
            self._trump = action - acts.name0
            self._declarer_is(seat)
            self._path = named
        else:
            card = action - acts.show0
            self._decisions.append((seat, "show"))
            self._face_up[card] = seat
            self._trump = suit_of(card)
            self._declarer_is(seat)
            self._path = "shown"
        self._continue_deal()

    def _offered_choices(self, choices: list[int]) -> list[int]:
        """The contract choices whose contract's `offered_when` holds for the trump it would be played in
        (a defer or a push always stays), read with what the chooser knows: his cards and his discard,
        never an unseen kitty. Should no contract choice pass, every one stays: the chooser always has one."""
        t, acts = self._t, self._acts
        seat = self._chooser
        known = self._hands[seat] | (self._discards if self._discarder == seat else 0)
        sides = t.declarer_sides[seat] if t.declarer_sides else self._side_of
        maker, dealer = sides[seat], self._dealer
        runs = [0] * (max(sides) + 1)
        # the facts settled before play (the scoresheet among them), with the chooser's side as maker
        base = self._settled()._replace(maker=maker, dealer_team=sides[dealer], elder_team=sides[t.next_seat[dealer]],
                                        kitty_taken=self._kitty != 0 and self._discarder == seat, seat_sides=sides)
        kept = []
        for action in choices:
            if 0 <= acts.contract0 <= action:
                contract = t.fixed_contracts[action - acts.contract0]
                trump = t.contract_trump[contract]
            elif acts.name0 <= action < acts.show0:
                contract, trump = t.named_contract, action - acts.name0
            elif acts.show0 <= action < acts.announce0:
                contract, trump = t.named_contract, t.suit_of[action - acts.show0]
            else:  # a defer or a push: no contract picked yet
                kept.append(action)
                continue
            offered = t.contract_offered[contract] if contract >= 0 else None
            if offered is not None:
                runs[maker] = top_run(t.context(trump, self._promo, t.contract_base[contract]), known)
                facts = base._replace(contract=self._rs.contracts[contract].id, trump=trump, top_runs=tuple(runs),
                                      multiplier=t.contract_multipliers[contract][trump + 1])
                if not offered(facts):
                    continue
            kept.append(action)
        barred_all = not any(map(self._picks_contract, kept)) and any(map(self._picks_contract, choices))
        return choices if barred_all else kept

    def _picks_contract(self, action: int) -> bool:
        """Whether a choice picks a contract (a suit named or shown, a contract), not a defer or a push."""
        acts = self._acts
        return 0 <= acts.contract0 <= action or acts.name0 <= action < acts.announce0

    def _auction_order(self) -> tuple[int, ...]:
        """Every seat in play in the order the auction asks them, from `first` (the elder or the dealer)."""
        first = self._rs.trump.auction.first  # type: ignore[union-attr]
        return self._order[self._dealer if first == "dealer" else self._t.next_seat[self._dealer]]

    def pairs_allowed(self) -> list[int]:
        """A numeric auction's choices (procedure pairs): the holder holds or passes; a challenger bids a
        value above the last or passes; a survivor nobody bid against bids the lowest value or passes.
        ``_speakers`` is (holder, challenger), or (survivor,) alone; ``_spk`` the one to speak."""
        acts = self._acts
        if len(self._speakers) == 1:
            return [acts.pass_, acts.bid0]
        if self._spk == 0:
            return [acts.accept, acts.pass_]
        return [acts.pass_, *range(acts.bid0 + self._bid + 1, acts.bid0 + len(self._t.auction_values))]

    def _bid_in_pairs(self, action: int) -> None:
        """One turn of a numeric auction in pairs: a hold, a pass (the other of the pair holds on), or a
        value; the survivor of the last pair declares at the last value (``_bid``, ``_bidder``)."""
        acts = self._acts
        seat = self._speakers[self._spk]
        if action == acts.accept:
            self._decisions.append((seat, "hold"))
            self._spk = 1
            return
        if action == acts.pass_:
            self._decisions.append((seat, "pass"))
            if len(self._speakers) == 1:  # nobody bid at all
                self._nobody_bid()
                return
            if self._spk == 0:  # the holder gives way: the challenger holds against the next seat
                self._bidder = self._speakers[1]
            order = self._auction_order()
            if self._round < len(order):
                self._speakers, self._spk = (self._bidder, order[self._round]), 1
                self._round += 1
            elif self._bid >= 0:
                self._auction_won()
            else:  # every challenger passed before a bid: the survivor may still bid alone
                self._speakers, self._spk = (self._bidder,), 0
            return
        self._bid = action - acts.bid0
        self._decisions.append((seat, str(self._t.auction_values[self._bid])))
        if len(self._speakers) == 1:
            self._auction_won()
        else:
            self._spk = 0

    def rounds_allowed(self) -> list[int]:
        """A numeric auction round the table's choices (procedure rounds): pass, or any value above the
        last bid (every value before the first bid); the dealer, where he may hold (`dealer_holds`), the
        standing value too."""
        acts = self._acts
        holds = (self._bid >= 0 and self._speakers[self._spk] == self._dealer
                 and self._rs.trump.auction.dealer_holds)  # type: ignore[union-attr]
        return [acts.pass_, *range(acts.bid0 + self._bid + (0 if holds else 1), acts.bid0 + len(self._t.auction_values))]

    def _bid_in_rounds(self, action: int) -> None:
        """One turn of a numeric auction round the table: a value above the last bid, or a pass, which
        takes the seat out of the bidding for good (``_speakers`` keeps the seats still in, in order,
        ``_spk`` the one to speak). When only the last bidder is left he declares at the last value
        (``_bid``, ``_bidder``) and picks the contract as in pairs; every seat passing before a bid is
        `on_all_pass`, or (`last_seat_declares`) the last seat left is not asked: he declares at the
        lowest value (decision ``stuck``)."""
        acts = self._acts
        seat = self._speakers[self._spk]
        if action == acts.pass_:
            self._decisions.append((seat, "pass"))
            self._speakers = self._speakers[:self._spk] + self._speakers[self._spk + 1:]
            if not self._speakers:  # nobody bid at all
                self._nobody_bid()
                return
            self._spk %= len(self._speakers)  # the seat after the one who passed
        else:
            self._bid, self._bidder = action - acts.bid0, seat
            self._decisions.append((seat, str(self._t.auction_values[self._bid])))
            self._spk = (self._spk + 1) % len(self._speakers)
        if len(self._speakers) > 1 and not self._laps_run_out():
            return
        if self._bid >= 0:  # the high bidder is never asked while he holds the bid: the one left is he
            self._auction_won()
        elif self._rs.trump.auction.last_seat_declares:  # type: ignore[union-attr]
            self._bid, self._bidder = 0, self._speakers[0]
            self._decisions.append((self._bidder, "stuck"))
            self._auction_won()

    def _laps_run_out(self) -> bool:
        """Whether the seat to speak next in an auction round the table has spoken as often as
        `trump.auction.laps` lets a seat (a seat still in has bid, so the last bidder declares)."""
        laps = self._rs.trump.auction.laps  # type: ignore[union-attr]
        nxt = self._speakers[self._spk]
        return bool(laps) and sum(seat == nxt for seat, _ in self._decisions[self._round:]) >= laps

    def open_allowed(self) -> list[int]:
        """An open auction's choices: pass, a value above the last bid with any suit, or (`doubling`) double
        the last bid, an opponent's; once it is doubled, or the contract fixed (pairs), those asked double
        or raise it to the next level, or pass."""
        acts = self._acts
        t = self._t
        double = acts.bid0 + t.double_offset  # the last BID action
        if self._doubling_asked() or self._aside >= 0:  # or asked out of turn
            return [acts.pass_, double]
        lowest = 0 if self._bid < 0 else (self._bid + 1) * t.auction_suits  # a higher value
        if self._bid >= 0 and self._rs.trump.auction.outbid == "value_or_strain":  # type: ignore[union-attr]
            lowest = self._bid * t.auction_suits + self._bid_suit + 1  # or the same value in a higher strain
        out = [acts.pass_, *range(acts.bid0 + lowest, double)]
        if t.open_barred:  # values a contract may not be bid at (`contracts.<id>.bid_values`)
            out = [a for a in out if a - acts.bid0 not in t.open_barred]
        if t.doubling and self._bid >= 0 and self._doubled < len(t.doubling):
            against = self._side_of[self._speakers[self._spk]] != self._side_of[self._bidder]
            if against == (self._doubled % 2 == 0):  # the opponents double, the bidder's side redoubles
                out.append(double)
        return out

    def _doubling_asked(self) -> bool:
        """Whether the seats are being asked only to raise the stake: a double that closes the bidding was
        said (`double_ends_bidding`), or a contract a pairs auction fixed is being doubled."""
        closes = self._rs.trump.auction.double_ends_bidding  # type: ignore[union-attr]
        return bool(self._doubled and closes) or self._path == "bid"

    def _bid_open(self, action: int) -> None:
        """One turn of an open auction: a pass (after the last bid, once every other seat has passed, the
        bidder declares; all passing at the start throws the deal in), a value and a suit above the last
        bid, or a double. A double closes the bidding: the other side is asked, in turn, whether to raise
        it to the next level, and so on while `doubling` has levels; or (`double_ends_bidding: false`) a
        double is a call like a bid, the bidding going on, a redouble the bidder's side's, a new bid
        undoubled. A contract fixed by a pairs auction is doubled the same way before the first lead
        (:meth:`_ask_doubling`)."""
        acts = self._acts
        t = self._t
        seat = self._speakers[self._spk]
        n = len(self._order[0])  # the seats in play
        if self._aside >= 0:  # asked out of turn: a pass is no call; the bidding goes on where it was
            if action == acts.pass_:
                self._decisions.append((seat, "no double"))
                if self._spk + 1 < len(self._speakers):
                    self._spk += 1
                else:
                    self._speakers, self._spk, self._aside = self._auction_order(), self._aside, -1
                return
            self._aside = -1
        elif action == acts.pass_:
            self._decisions.append((seat, "pass"))
            if self._doubling_asked():  # the next of those asked, or the doubling is over
                if self._spk + 1 < len(self._speakers):
                    self._spk += 1
                else:
                    self._doubling_over()
                return
            self._round += 1
            if self._rs.trump.auction.pass_is_final:  # type: ignore[union-attr]
                self._pass_for_good()
            elif self._bid < 0 and self._round == n:
                self._nobody_bid()
            elif self._bid >= 0 and self._round == n - 1:
                self._open_won()
            else:
                self._spk = (self._spk + 1) % n
                self._ask_out_of_turn(seat)
            return
        number = action - acts.bid0
        if number < t.double_offset:
            self._bid, self._bid_suit = divmod(number, t.auction_suits)
            self._bidder, self._round, self._doubled = seat, 0, 0  # a new bid is undoubled
            if not any(s == self._bid_suit and self._side_of[b] == self._side_of[seat] for b, s in self._namers):
                self._namers += ((seat, self._bid_suit),)
            self._decisions.append((seat, f"{t.auction_values[self._bid]} {self.strain_id(self._bid_suit)}"))
            self._spk = self._next_in_bidding() if self._rs.trump.auction.pass_is_final else (self._spk + 1) % n  # type: ignore[union-attr]
            self._ask_out_of_turn(seat)
            return
        self._doubled += 1
        self._decisions.append((seat, f"double x{t.doubling[self._doubled - 1]}"))
        if not self._rs.trump.auction.double_ends_bidding:  # type: ignore[union-attr]
            self._spk, self._round = (self._spk + 1) % n, 0  # a call: the passes are counted after it
            return
        if self._doubled == len(t.doubling):
            self._doubling_over()
            return
        side = self._side_of[seat]  # the other side answers, in turn from the seat after this one
        self._speakers = tuple(s for s in self._order[seat][1:] if self._side_of[s] != side)
        self._spk = 0

    def _passed_for_good(self) -> set[int]:
        """The seats out of an open auction (`pass_is_final`): those that passed in it (public)."""
        return {seat for seat, word in self._decisions if word == "pass"}

    def _next_in_bidding(self) -> int:
        """The index in ``_speakers`` of the next seat still in an open auction (`pass_is_final`), after the
        one that spoke; the caller has made sure one is left."""
        out, n = self._passed_for_good(), len(self._speakers)
        return next(i % n for i in range(self._spk + 1, self._spk + 1 + n) if self._speakers[i % n] not in out)

    def _pass_for_good(self) -> None:
        """A pass in an open auction where a pass is final: the bidding ends when nobody is left but the last
        bidder, who declares, or nobody at all (thrown in); else the next seat still in speaks."""
        left = [s for s in self._speakers if s not in self._passed_for_good()]
        if not left:
            self._nobody_bid()
        elif self._bid >= 0 and left == [self._bidder]:
            self._open_won()
        else:
            self._spk = self._next_in_bidding()

    def _ask_out_of_turn(self, caller: int) -> None:
        """After ``caller``'s call, the bidding still open (`double_out_of_turn`): the last bid's opponents
        other than the caller and the seat to speak next are asked in turn, from the seat after the
        caller, whether to double it; ``_aside`` keeps where the bidding goes on."""
        auction = self._rs.trump.auction
        if auction is None or not auction.double_out_of_turn or self._bid < 0 or self._doubled:
            return
        following = self._speakers[self._spk]
        side = self._side_of[self._bidder]
        asked = tuple(s for s in self._order[caller][1:] if self._side_of[s] != side and s != following)
        if asked:
            self._aside, self._speakers, self._spk = self._spk, asked, 0

    def _ask_doubling(self) -> None:
        """A contract fixed by a pairs auction (`doubling`), before the first lead: the seats not on the
        declarer's side are asked in turn, from the elder, whether to double it (phase ``auction``)."""
        self._speakers = tuple(s for s in self._auction_order() if self._side_of[s] != self._maker)
        self._spk = 0
        self._phase = AUCTION

    def _doubling_over(self) -> None:
        """Nobody raises the stake further: an open auction's last bidder declares; a contract fixed
        before is led to."""
        if self._t.auction_suits:
            self._open_won()
        else:
            self._lead_first_trick()

    def strain_id(self, strain: int) -> str:
        """What an open auction's bid names beside its value: a suit's id, or a contract's."""
        contract, suit = self._t.auction_strains[strain]
        named = contract < 0 or contract == self._t.named_contract
        return self._rs.layout.suits[suit] if named else self._rs.contracts[contract].id

    def _open_won(self) -> None:
        """The last bidder of an open auction declares, or (`declarer: first_to_name_strain`) the player of
        his side who first named the last bid's strain: the suit or the contract it names is played, his
        side the maker."""
        if self._rs.trump.auction.declarer == "first_to_name_strain":  # type: ignore[union-attr]
            side = self._side_of[self._bidder]
            self._bidder = next(b for b, s in self._namers if s == self._bid_suit and self._side_of[b] == side)
        self._bidder_declares(*self._t.auction_strains[self._bid_suit])

    def _nobody_bid(self) -> None:
        """Every seat passed the auction: the deal is thrown in, or (`on_all_pass: {contract}`) that
        contract is played with no declarer, each seat a side of its own, or (`side_card`) the holders of
        that card against the rest, hidden until revealed (sides fixed when play begins, the holders the maker)."""
        contract = self._t.all_pass_contract
        if contract < 0:
            self._pass_out()
            return
        if not self._t.all_pass_side_cards:
            n = self._n
            self._side_of = tuple(range(n))
            self._points, self._tricks = [0] * n, [0] * n
        self._maker = self._decider = None
        self._trump = self._t.contract_trump[contract]
        self._path = "all_passed"
        self._fix_contract(contract)
        self._continue_deal()

    def _bidder_declares(self, contract: int, trump: int) -> None:
        """The auction's last bidder declares ``contract`` played in ``trump``: his side is the maker,
        and the deal goes on."""
        self._trump = trump
        self._declarer_is(self._bidder)
        self._decider = self._bidder
        self._path = "bid"
        self._fix_contract(contract)
        self._continue_deal()

    def _auction_won(self) -> None:
        """The survivor of a numeric auction declares: he takes or leaves the kitty if the ruleset lets
        him decide, then picks the contract."""
        self._declarer_is(self._bidder)
        self._decider = self._bidder
        self._path = "bid"
        if self._t.kitty_choice:
            self._phase = KITTY
        else:
            self._choose_contract()

    def _choose_contract(self) -> None:
        """A numeric auction's declarer now picks the contract (phase ``choose``)."""
        self._chooser = self._asked = self._bidder
        self._phase = CHOOSE

    def _take_or_leave(self, action: int) -> None:
        """The declarer takes the kitty into his hand and discards as many cards (accept), or leaves it
        unseen (pass); then he picks the contract."""
        seat = self._bidder
        if action == self._acts.accept:
            self._decisions.append((seat, "take"))
            self._hands[seat] |= self._kitty
            self._begin_discard(seat, self._kitty.bit_count())
        else:
            self._decisions.append((seat, "leave"))
            self._choose_contract()

    def _after_discard(self) -> None:
        """The discard is over: a numeric auction's declarer who took the kitty now picks the contract;
        otherwise the deal goes on."""
        if self._contract < 0 and self._t.kitty_choice:
            self._choose_contract()
        else:
            self._phase = DRAW  # not a chance node: _run_deal leaves it in the next phase
            self._run_deal()

    def _bid_or_pass(self, action: int) -> None:
        """One seat's turn in the auction: a contract above the last bid, or a pass. After the
        last seat, the highest bidder declares that contract; if nobody bid, the deal is thrown in."""
        t = self._t
        seat = self._speakers[self._spk]
        if action == self._acts.pass_:
            self._decisions.append((seat, "pass"))
        else:
            self._bid = t.auction_ladder.index(action - self._acts.contract0)
            self._bidder = seat
            self._decisions.append((seat, self._rs.contracts[t.fixed_contracts[action - self._acts.contract0]].id))
        self._spk += 1
        if self._spk < len(self._speakers):
            return
        if self._bidder < 0:
            self._nobody_bid()
            return
        contract = t.fixed_contracts[t.auction_ladder[self._bid]]
        self._bidder_declares(contract, t.contract_trump[contract])

    def _accept(self) -> None:
        """The seat asked accepts the offered card: its suit is trump, its team the maker; with
        `taken_by`, the taker adds the card to his hand (and discards one for it)."""
        seat = self._speakers[self._spk]
        t = self._t
        self._decisions.append((seat, "accept"))
        self._trump = t.suit_of[self._offered]
        self._declarer_is(seat)
        self._decider = seat
        self._path = "accepted" if self._round == 0 else "next_card"
        taken_by = self._rs.trump.offer.taken_by  # type: ignore[union-attr]
        if taken_by is not None and self._take_offered(self._dealer if taken_by == "dealer" else seat):
            return
        self._continue_deal()

    def _take_offered(self, taker: int) -> bool:
        """``taker`` adds the offered card to his hand; True when he now discards one card face down
        (engine.kitty), the taken one included, and the deal goes on after the discard. Everyone saw
        the card: it stays face up, his, so every seat knows he holds it unless he discarded it,
        which only he knows."""
        card = self._offered
        self._hands[taker] |= 1 << card
        self._face_up[card] = taker
        if not self._rs.trump.offer.taker_discards:  # type: ignore[union-attr]
            return False
        self._begin_discard(taker, 1)
        return True

    def _taken_card(self) -> int | None:
        """The offered card a seat took into its hand this hand (`offer.taken_by`; public), or None:
        taken once accepted, and after a second round's naming only by a declarer (`taken_by: declarer`)."""
        offer = self._rs.trump.offer
        if offer is None or offer.taken_by is None or self._decider is None:
            return None
        return self._offered if self._path != "named" or offer.taken_by == "declarer" else None

    def _pass(self) -> None:
        """The seat asked passes; when everyone has, `on_all_pass` decides."""
        self._decisions.append((self._speakers[self._spk], "pass"))
        self._spk += 1
        if self._spk == len(self._speakers):
            self._all_passed()

    def _all_passed(self) -> None:
        """Everyone refused the offered card: `on_all_pass` says what happens."""
        offer = self._rs.trump.offer
        assert offer is not None
        rule = offer.on_all_pass
        if rule == "bottom_card":
            card = self._stock.pop()
            self._face_up[card] = None
            self._trump = self._rs.layout.suit_of(card)
            self._fallback_maker()
            self._path = "bottom_card"
            self._continue_deal()
        elif rule == "next_card" and self._stock:
            card = self._stock.pop(0)
            self._face_up[card] = None
            self._offered = self._last_up = card
            self._round += 1
            elder = (self._dealer + 1) % self._n
            self._speakers = self._order[self._dealer if offer.reoffer_first_speaker == "dealer" else elder]
            self._spk = 0
        elif rule == "name_other_suit":
            self._speakers = self._order[(self._dealer + 1) % self._n]
            self._spk = 0
            self._phase = NAME
        else:  # redeal, or next_card with the stock exhausted
            self._pass_out()

    def names_allowed(self) -> list[int]:
        """The second round's choices: pass (not for a dealer who must name), or any suit but the refused card's."""
        acts = self._acts
        refused = self._t.suit_of[self._offered]
        must = self._rs.trump.offer.dealer_must_name and self._speakers[self._spk] == self._dealer  # type: ignore[union-attr]
        return ([] if must else [acts.pass_]) + [acts.name0 + s for s in range(acts.nsuits) if s != refused]

    def _name_or_pass(self, action: int) -> None:
        """One seat's turn in the second round: a pass, or naming trump (its team the maker, and with
        `taken_by: declarer` the refused card his); after the last pass the deal is thrown in."""
        seat = self._speakers[self._spk]
        if action == self._acts.pass_:
            self._decisions.append((seat, "pass"))
            self._spk += 1
            if self._spk == len(self._speakers):
                self._pass_out()
            return
        self._decisions.append((seat, "name"))
        self._trump = action - self._acts.name0
        self._declarer_is(seat)
        self._decider = seat
        self._path = "named"
        if self._rs.trump.offer.taken_by == "declarer" and self._take_offered(seat):  # type: ignore[union-attr]
            return
        self._continue_deal()

    def _continue_deal(self) -> None:
        """The contract is fixed: a call made before the kitty (engine.call), the kitty's exchange if it has
        one, then the rest of the deal script."""
        if self._t.calls and self._ask_call(before_kitty=True):
            return
        if self._t.kitty is not None and self._begin_exchange():
            return
        self._phase = DRAW  # not a chance node: _run_deal leaves it in the next phase
        self._run_deal()
