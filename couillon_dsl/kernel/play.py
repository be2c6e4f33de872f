"""The kernel: whole games of any ruleset's arrays (:class:`~couillon_dsl.kernel.arrays.KernelTables`), compiled by Numba.

:func:`play_game` interprets the deal plan, the trump procedure, announcements and
promotions, the follow rule, tricks, the scoring table and the scoresheet to the end of the
game or session, exactly as :class:`~couillon_dsl.engine.GameState` does, for seats played
by the random agent or the greedy agent (the same decisions as
:class:`~couillon_dsl.agents.greedy.GreedyAgent`). It counts what the simulator's tally
reads into ``counts`` and, when recording, writes every action and a row per hand, per
trick, per trump decision and per announcement, from which the driver builds the records
that ``couillon replay`` checks against the Python engine.

Randomness: two splitmix64 streams per game, seeded by the driver from the game's seed:
stream 0 draws deals (and a random first dealer), stream 1 the agents' choices, so two
rulesets with the same pack see the same deals whatever their players decide.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from couillon_dsl.engine.tables import OP_DECIDE, OP_PACKET, OP_STOCK, OP_TURN_UP
from couillon_dsl.kernel.arrays import (
    C_ACCEPT, C_ALWAYS_PROMOTED, C_ANNOUNCE0, C_BY_POINTS, C_CHOOSE_DEALER, C_DEALER0, C_DECLINE, C_FIXED_TRUMP, C_MAX_GAMES, C_DEFER, C_DOWN,
    C_FALLBACK_ELDER, C_FIRST_DEALER, C_FIRST_LEAD, C_GAMES_TO_WIN, C_GAP_TIE, C_GOAL, C_HEAD, C_HEAD_WHEN_TRUMPED,
    C_MAKER_NEEDS, C_MAX_HANDS, C_MAX_REDEALS, C_METHOD, C_MUST_FOLLOW, C_MUST_TRUMP, C_N, C_NAME0, C_NANN, C_NCARDS,
    C_NPROMO, C_NSUITS, C_NTEAMS, C_ON_ALL_PASS, C_OVERTRUMP, C_PASS, C_PASS_CARRY, C_REOFFER_DEALER, C_ROTATE,
    C_SAME_AFTER_TIE, C_SHOW0, C_START, C_TIE_CARRY, C_UNDERTRUMP_BAN, C_WAY_DEFER, C_WAY_NAME, C_WAY_SHOW,
    GREEDY_HIGH, GREEDY_SHARE, GREEDY_TRUMP,
)

GREEDY = 1  # agent code per seat; 0 is random

# counts layout: paths, hand figures, announcements made, then decisions (seat after dealer, word) and times asked
K_PLAYED, K_DECIDED, K_TIES, K_NO_SCORE, K_ALL_TRICKS, K_MAKER_HANDS, K_MAKER_WINS, K_ELDER_WINS = range(9, 17)
K_ANN = 17
# per-game results
G_HANDS, G_WINNER, G_ABANDONED, G_FIRST_DEALER, G_HIST, G_HROWS, G_DROWS, G_AROWS, G_TROWS, G_VALUES = range(10)
# hand row layout, then points, tricks, deltas, scores per team
(H_GAME, H_NUMBER, H_DEALER, H_TRUMP, H_PATH, H_MAKER, H_DECIDER, H_DEC_LO, H_DEC_HI, H_OUTCOME, H_WINNER, H_ALL,
 H_ANN_LO, H_ANN_HI, H_IN_PLAY, H_K, H_TRICK_LO, H_TRICK_HI, H_TEAMS) = range(19)
# status
OK, FULL, BAD_SCORE = range(3)

# paths and words as numbered in arrays.PATHS / arrays.WORDS
P_ACCEPTED, P_NEXT_CARD, P_BOTTOM_CARD, P_NAMED, P_SHOWN, P_DEFERRED, P_NONE, P_REDEAL, P_TURNED = range(9)
W_ACCEPT, W_PASS, W_NAME, W_SHOW, W_DEFER = range(5)

_M1 = np.int64(0x5555555555555555)
_M2 = np.int64(0x3333333333333333)
_M4 = np.int64(0x0F0F0F0F0F0F0F0F)


@njit(cache=True, inline="always")
def popcount(x: int) -> int:
    """The cards of a mask (bit 63 clear). The byte counts are summed by shifts, not by the usual
    multiply: Numba's signed multiply may not overflow (LLVM's ``nsw``), and this one does, so
    LLVM was free to fold a comparison such as ``popcount(m) <= 1`` wrongly."""
    x = x - ((x >> 1) & _M1)
    x = (x & _M2) + ((x >> 2) & _M2)
    x = (x + (x >> 4)) & _M4
    x += x >> 8
    x += x >> 16
    x += x >> 32
    return x & 0x7F


@njit(cache=True, inline="always")
def lowest(x: int) -> int:
    """The lowest card of a non-empty mask."""
    return popcount((x & -x) - 1)


@njit(cache=True, inline="always")
def nth(x: int, r: int) -> int:
    """Card ``r`` (0-based) of the mask's cards in ascending order."""
    for _ in range(r):
        x &= x - 1
    return lowest(x)


AGENTS_SALT = 0x5EED  # the agents' stream is seeded from the game seed xor this


@njit(cache=True)
def mix64(x: np.uint64) -> np.uint64:
    """splitmix64's output function: a well-spread 64-bit stream seed from a game seed."""
    z = np.uint64(x) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def draw(rng: np.ndarray, stream: int) -> float:
    """A float in [0, 1) from splitmix64 stream ``stream``."""
    z = rng[stream] + np.uint64(0x9E3779B97F4A7C15)
    rng[stream] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def legal_mask(cfg, suit_mask, trump_mask, ctx_trump, exempt, above, ctx: int, h: int, led: int, win: int, trick: int) -> int:
    """The follow rule (engine.follow.make_legal) for a hand facing a trick that has begun."""
    lm = suit_mask[ctx, led]
    tm = trump_mask[ctx]
    trump = ctx_trump[ctx]
    head = cfg[C_HEAD] == 1
    overtrump = cfg[C_OVERTRUMP] == 1
    ban = cfg[C_UNDERTRUMP_BAN] == 1
    if led == trump:
        have = h & lm
        if have & ~exempt[ctx] == 0:
            return h
        if overtrump or head:
            up = have & above[ctx, win]
            if up:
                return up
        return have
    trumped = (tm >> win) & 1
    have = h & lm
    if have:
        if head and (cfg[C_HEAD_WHEN_TRUMPED] == 1 or trumped == 0):
            best = lowest(trick & lm)
            up = have & above[ctx, best]
            if up:
                have = up
        if cfg[C_MUST_FOLLOW] == 1:
            return have
        return have | raise_trumps(above, ctx, h & tm, trumped, win, have, overtrump, ban)
    rest = h & ~tm
    playable = raise_trumps(above, ctx, h & tm, trumped, win, rest, overtrump, ban)
    if cfg[C_MUST_TRUMP] == 1 and playable:
        return playable
    return rest | playable


@njit(cache=True, inline="always")
def raise_trumps(above, ctx: int, t: int, trumped: int, win: int, others: int, overtrump: bool,
                 ban: bool) -> int:
    """The trumps of ``t`` that may be played, given the other legal cards ``others``."""
    if t == 0 or trumped == 0:
        return t
    up = t & above[ctx, win]
    if overtrump and up:
        return up
    if ban and others:
        return up
    return t


@njit(cache=True, inline="always")
def suit_strength(printed_suit, honour_mask, hand: int, suit: int) -> float:
    """agents.greedy.suit_strength: cards of the printed suit, half a card more per honour."""
    m = hand & printed_suit[suit]
    return popcount(m) + 0.5 * popcount(m & honour_mask[0])


@njit(cache=True, inline="always")
def trick_value(weights, trump_mask, above, ctx: int, hand: int, unseen: int) -> float:
    """agents.greedy.trick_value: each trump, and each card at most one unseen card beats, adds its weight."""
    value = 0.0
    m = hand
    while m:
        c = lowest(m)
        m &= m - 1
        if (trump_mask[ctx] >> c) & 1:
            value += weights[GREEDY_TRUMP]
        beaters = above[ctx, c] & unseen
        if popcount(beaters) <= 1:
            value += weights[GREEDY_HIGH]
    return value


@njit(cache=True, inline="always")
def shed(trump_mask, points, strength, card_suit, ctx: int, legal: int) -> int:
    """agents.greedy.shed_key's least valuable card: non-trumps, fewer points, lower (first of equals)."""
    best = -1
    b0 = b1 = b2 = 0
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        k0 = (trump_mask[ctx] >> c) & 1
        k1 = points[ctx, c]
        k2 = strength[ctx, card_suit[ctx, c], c]
        if best < 0 or k0 < b0 or (k0 == b0 and (k1 < b1 or (k1 == b1 and k2 < b2))):
            best, b0, b1, b2 = c, k0, k1, k2
    return best


@njit(cache=True, inline="always")
def greedy_lead(above, trump_mask, points, strength, card_suit, ctx: int, legal: int, elsewhere: int) -> int:
    """agents.greedy.lead: the best-scoring master card, plain before trump, else shed."""
    plain = trump = -1
    plain_points = trump_points = -1
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        if above[ctx, c] & elsewhere == 0:
            p = points[ctx, c]
            if (trump_mask[ctx] >> c) & 1 == 0:
                if p > plain_points:
                    plain, plain_points = c, p
            elif p > trump_points:
                trump, trump_points = c, p
    if plain >= 0:
        return plain
    if trump >= 0:
        return trump
    return shed(trump_mask, points, strength, card_suit, ctx, legal)


@njit(cache=True, inline="always")
def greedy_follow(trump_mask, points, strength, card_suit, ctx: int, legal: int, led: int, win: int, partner_wins: bool, last: bool) -> int:
    """agents.greedy.follow: feed a partner sure to win, else win as cheaply as possible, else shed."""
    if partner_wins:
        if not last:
            return shed(trump_mask, points, strength, card_suit, ctx, legal)
        best = -1
        b0 = b1 = b2 = 0
        m = legal
        while m:
            c = lowest(m)
            m &= m - 1
            k0 = 1 - ((trump_mask[ctx] >> c) & 1)
            k1 = points[ctx, c]
            k2 = -strength[ctx, led, c]
            if best < 0 or k0 > b0 or (k0 == b0 and (k1 > b1 or (k1 == b1 and k2 > b2))):
                best, b0, b1, b2 = c, k0, k1, k2
        return best
    top = strength[ctx, led, win]
    best = -1
    b0 = b1 = 0
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        s = strength[ctx, led, c]
        if s > top:
            p = points[ctx, c]
            if best < 0 or s < b0 or (s == b0 and p < b1):
                best, b0, b1 = c, s, p
    if best >= 0:
        return best
    return shed(trump_mask, points, strength, card_suit, ctx, legal)


@njit(cache=True)
def play_game(T, agent, seed_deal, seed_agents, record, hist, hrows, drows, arows, trows,
              counts, out, room):
    """Play one whole game (or session); returns OK, FULL (record buffers too small) or BAD_SCORE.

    ``room`` gives what one hand may write at most (actions, decisions, announcements,
    tricks): before each hand the buffers must hold that much more, else FULL and the
    driver plays the game again with bigger ones (the same seeds give the same game).
    """
    (cfg, team_of, suit_of, rank_of, printed_suit, honour_mask, weights, needed, ops, nops, deliveries, ctx_trump, suit_mask, trump_mask,
     card_suit, strength, above, points, exempt, holder, after, partners, promotion_by, score_vars, score_base,
     score_scaled, score_ok) = T
    n = cfg[C_N]
    nteams = cfg[C_NTEAMS]
    ncards = cfg[C_NCARDS]
    nsuits = cfg[C_NSUITS]
    npromo = cfg[C_NPROMO]
    nann = cfg[C_NANN]
    method = cfg[C_METHOD]
    start = cfg[C_START]
    goal = cfg[C_GOAL]
    down = cfg[C_DOWN] == 1
    nvars = score_vars.shape[0]
    dec0 = K_ANN + nann  # decisions[(offset, word)] at dec0 + offset * 5 + word, then asked[offset]
    asked0 = dec0 + 5 * n
    rng = np.empty(2, np.uint64)
    rng[0] = seed_deal
    rng[1] = seed_agents
    pack = np.empty(ncards, np.int64)
    hands = np.zeros(n, np.int64)
    values = np.full(nteams, start, np.int64)
    games_won = np.zeros(nteams, np.int64)
    won_points = np.zeros(nteams, np.int64)
    won_tricks = np.zeros(nteams, np.int64)
    deltas = np.zeros(nteams, np.int64)
    made_team = np.zeros(max(nann, 1), np.int64)
    qa = np.empty(2 * n * max(nann, 1) + 2, np.int64)  # the announcement queue: (announcement, seat)
    qs = np.empty(2 * n * max(nann, 1) + 2, np.int64)
    fa = np.empty(n * max(nann, 1) + 1, np.int64)
    fs = np.empty(n * max(nann, 1) + 1, np.int64)
    trick_seat = np.empty(n, np.int64)
    trick_card = np.empty(n, np.int64)
    hl = hr = dr = ar = tr = 0
    dealer = cfg[C_FIRST_DEALER]
    if dealer < 0:
        dealer = int(draw(rng, 0) * n)
        if record:
            hist[hl] = cfg[C_DEALER0] + dealer
            hl += 1
    out[G_FIRST_DEALER] = dealer
    ties = passes = redeals = game = game_hands = total = 0
    winner_of_game = -1
    abandoned = 0
    while True:
        if record and (hl + room[0] > hist.shape[0] or hr + 1 > hrows.shape[0] or dr + room[1] > drows.shape[0]
                       or ar + room[2] > arows.shape[0] or tr + room[3] > trows.shape[0]):
            return FULL
        # ---------------------------------------------------------------- the deal
        for i in range(ncards):
            pack[i] = i
        for i in range(ncards - 1, 0, -1):
            j = int(draw(rng, 0) * (i + 1))
            pack[i], pack[j] = pack[j], pack[i]
        if record:
            for i in range(ncards):
                hist[hl + i] = pack[i]
            hl += ncards
        for s in range(n):
            hands[s] = 0
        elder = (dealer + 1) % n
        lo = hi = ncards  # the stock is pack[lo:hi]
        last_up = -1
        defer_seat = -1
        trump = maker = decider = -1
        path = P_NONE
        dec_lo = dr
        passed_out = False
        nop = nops[dealer]
        for step in range(nop):
            code = ops[dealer, step, 0]
            if code == OP_PACKET:
                for d in range(ops[dealer, step, 1], ops[dealer, step, 2]):
                    seat = deliveries[dealer, d, 0]
                    begin = deliveries[dealer, d, 1]
                    stop = deliveries[dealer, d, 2]
                    for pos in range(begin, stop):
                        hands[seat] |= np.int64(1) << pack[pos]
                    if ops[dealer, step, 3] == 1:
                        last_up = pack[stop - 1]
                    if seat == defer_seat:  # on_defer: the first card of the chooser's next packet fixes trump
                        trump = suit_of[pack[begin]]
                        defer_seat = -1
            elif code == OP_STOCK:
                lo = ops[dealer, step, 1]
                hi = ncards
            elif code == OP_TURN_UP:
                if ops[dealer, step, 1] == 1:
                    hi -= 1
                    last_up = pack[hi]
                else:
                    last_up = pack[lo]
                    lo += 1
            elif code == OP_DECIDE:
                # ------------------------------------------------------------ the trump procedure
                if method == 1:  # offer
                    offered = last_up
                    first = elder
                    round_no = 0
                    while True:
                        accepted = -1
                        for k in range(n):
                            seat = (first + k) % n
                            if agent[seat] == GREEDY:
                                h = hands[seat]
                                offered_ctx = ((suit_of[offered] + 1) << npromo) | cfg[C_ALWAYS_PROMOTED]
                                value = trick_value(weights, trump_mask, above, offered_ctx, h, ~h & ~(np.int64(1) << offered))
                                yes = value >= needed[seat, min(popcount(h), needed.shape[1] - 1)]
                            else:
                                yes = draw(rng, 1) < 0.5
                            offset = (seat - dealer) % n
                            counts[asked0 + offset] += 1
                            counts[dec0 + offset * 5 + (W_ACCEPT if yes else W_PASS)] += 1
                            if record:
                                hist[hl] = cfg[C_ACCEPT] if yes else cfg[C_PASS]
                                hl += 1
                                drows[dr, 0] = seat
                                drows[dr, 1] = W_ACCEPT if yes else W_PASS
                                dr += 1
                            if yes:
                                accepted = seat
                                break
                        if accepted >= 0:
                            trump = suit_of[offered]
                            maker = team_of[accepted]
                            decider = accepted
                            path = P_ACCEPTED if round_no == 0 else P_NEXT_CARD
                            break
                        rule = cfg[C_ON_ALL_PASS]
                        if rule == 0:  # bottom_card
                            hi -= 1
                            trump = suit_of[pack[hi]]
                            maker = team_of[elder] if cfg[C_FALLBACK_ELDER] == 1 else -1
                            path = P_BOTTOM_CARD
                        elif rule == 1 and lo < hi:  # next_card
                            offered = pack[lo]
                            lo += 1
                            round_no += 1
                            first = dealer if cfg[C_REOFFER_DEALER] == 1 else elder
                            continue
                        else:
                            passed_out = True
                        break
                elif method == 3:  # turned: the last face-up card is trump, nobody decides
                    trump = suit_of[last_up]
                    maker = team_of[elder] if cfg[C_FALLBACK_ELDER] == 1 else -1
                    path = P_TURNED
                elif method == 2:  # choose
                    chooser = dealer if cfg[C_CHOOSE_DEALER] == 1 else elder
                    h = hands[chooser]
                    ndefer = cfg[C_WAY_DEFER]
                    nnames = nsuits if cfg[C_WAY_NAME] == 1 else 0
                    held = popcount(h) if cfg[C_WAY_SHOW] == 1 else 0
                    total_ways = ndefer + nnames + held
                    pick = 0  # index into [defer] + names + shown cards, as GameState.legal_actions orders them
                    if total_ways > 1:
                        if agent[chooser] == GREEDY:
                            best = 0
                            best_strength = -1.0
                            for s in range(nsuits):
                                st = suit_strength(printed_suit, honour_mask, h, s)
                                if st > best_strength:
                                    best, best_strength = s, st
                            strong = best_strength >= weights[GREEDY_SHARE] * popcount(h) + 0.5
                            if ndefer == 1 and not strong:
                                pick = 0
                            elif nnames > 0:
                                pick = ndefer + best
                            else:
                                shows = h & printed_suit[best]
                                if shows == 0:
                                    shows = h
                                card = -1
                                rank = -1
                                m = shows
                                while m:
                                    c = lowest(m)
                                    m &= m - 1
                                    if rank_of[c] > rank:
                                        card, rank = c, rank_of[c]
                                pick = ndefer + nnames + popcount(h & ((np.int64(1) << card) - 1))
                        else:
                            pick = int(draw(rng, 1) * total_ways)
                    decider = chooser
                    maker = team_of[chooser]
                    if pick < ndefer:
                        word = W_DEFER
                        action = cfg[C_DEFER]
                        maker = team_of[elder] if cfg[C_FALLBACK_ELDER] == 1 else -1
                        defer_seat = chooser
                        path = P_DEFERRED
                    elif pick < ndefer + nnames:
                        word = W_NAME
                        trump = pick - ndefer
                        action = cfg[C_NAME0] + trump
                        path = P_NAMED
                    else:
                        word = W_SHOW
                        card = nth(h, pick - ndefer - nnames)
                        trump = suit_of[card]
                        action = cfg[C_SHOW0] + card
                        path = P_SHOWN
                    offset = (chooser - dealer) % n
                    counts[asked0 + offset] += 1
                    counts[dec0 + offset * 5 + word] += 1
                    if record:
                        hist[hl] = action
                        hl += 1
                        drows[dr, 0] = chooser
                        drows[dr, 1] = word
                        dr += 1
                if passed_out:
                    break
        game_hands += 1
        total += 1
        same_dealer = False
        if passed_out:
            # ---------------------------------------------------------------- a deal refused by everyone
            pc = cfg[C_PASS_CARRY]
            if pc == 1:
                passes = 1
            elif pc == 2:
                passes += 1
            redeals += 1
            counts[P_REDEAL] += 1
            if record:
                row = hrows[hr]
                row[:] = 0
                row[H_GAME], row[H_NUMBER], row[H_DEALER] = game, game_hands, dealer
                row[H_TRUMP], row[H_PATH], row[H_MAKER], row[H_DECIDER] = -1, P_REDEAL, -1, -1
                row[H_DEC_LO], row[H_DEC_HI], row[H_OUTCOME], row[H_WINNER] = dec_lo, dr, 3, -1
                row[H_ANN_LO], row[H_ANN_HI], row[H_K], row[H_TRICK_LO], row[H_TRICK_HI] = ar, ar, 1, tr, tr
                for t in range(nteams):
                    row[H_TEAMS + 3 * nteams + t] = values[t]
                hr += 1
            hand_winner = -1
            if redeals > cfg[C_MAX_REDEALS]:
                abandoned = 1
                break
        else:
            # ---------------------------------------------------------------- the play
            if trump < 0:
                trump = cfg[C_FIXED_TRUMP]  # the deck's permanent trump suit, or none
            promo = cfg[C_ALWAYS_PROMOTED]
            ctx = ((trump + 1) << npromo) | promo
            lead_rule = cfg[C_FIRST_LEAD]
            if lead_rule == 0:
                leader = elder
            elif lead_rule == 1:
                leader = dealer
            else:
                leader = decider if maker >= 0 and decider >= 0 else elder
            ntricks = popcount(hands[leader])
            for t in range(nteams):
                won_points[t] = 0
                won_tricks[t] = 0
            for a in range(nann):
                made_team[a] = nteams
            qlen = 0
            ann_lo = ar
            trick_lo = tr
            played = np.int64(0)
            for trick_no in range(ntricks):
                tlen = 0
                tmask = np.int64(0)
                tpoints = 0
                led = best = win = wseat = -1
                seat = leader
                for _ in range(n):
                    card = -1
                    may = 0  # trick 1: the announcements this seat's cards allow, offered beside its cards
                    if trick_no == 0 and nann > 0:
                        h = hands[seat]
                        for a in range(nann):
                            if holder[a] >= 0 and (h >> holder[a]) & 1 == 1:
                                may |= 1 << a
                    while may != 0:
                        # ------------------------------------------------ a card, or an announcement (engine.announce)
                        h = hands[seat]
                        legal = h if tlen == 0 else legal_mask(cfg, suit_mask, trump_mask, ctx_trump, exempt, above,
                                                               ctx, h, led, win, tmask)
                        if agent[seat] == GREEDY:
                            a = -1
                            for b in range(nann):  # the highest announcement action: promoting one's own card only helps
                                if (may >> b) & 1 == 1:
                                    a = b
                        else:
                            ncards_legal = popcount(legal)
                            r = int(draw(rng, 1) * (ncards_legal + popcount(may)))
                            if r < ncards_legal:
                                card = nth(legal, r)
                                break
                            a = nth(may, r - ncards_legal)
                        may &= ~(np.int64(1) << a)
                        if record:
                            hist[hl] = cfg[C_ANNOUNCE0] + a
                            hl += 1
                        ann_seat = seat
                        while True:  # make ``a`` by ``ann_seat``, then ask its follow-ups, first yes of a round ending it
                            made_team[a] = team_of[ann_seat]
                            counts[K_ANN + a] += 1
                            if record:
                                arows[ar, 0] = a
                                arows[ar, 1] = ann_seat
                                ar += 1
                            nf = 0  # follow-ups go first, in play order from the announcer's left
                            for b in range(nann):
                                if after[b] == a:
                                    for k in range(1, n):
                                        other = (ann_seat + k) % n
                                        if (team_of[other] == team_of[ann_seat]) == (partners[b] == 1):
                                            fa[nf] = b
                                            fs[nf] = other
                                            nf += 1
                            for q in range(qlen - 1, -1, -1):
                                qa[q + nf] = qa[q]
                                qs[q + nf] = qs[q]
                            for q in range(nf):
                                qa[q] = fa[q]
                                qs[q] = fs[q]
                            qlen += nf
                            # promotions: the context changes, the trick in progress is ranked again
                            for i in range(npromo):
                                if promotion_by[i] == a:
                                    promo |= 1 << i
                            ctx = ((trump + 1) << npromo) | promo
                            if tlen > 0:
                                led = card_suit[ctx, trick_card[0]]
                                best = -1
                                tpoints = 0
                                for i in range(tlen):
                                    c = trick_card[i]
                                    tpoints += points[ctx, c]
                                    if strength[ctx, led, c] > best:
                                        best = strength[ctx, led, c]
                                        win = c
                                        wseat = trick_seat[i]
                            a = -1
                            while qlen > 0 and a < 0:  # the next follow-up question
                                b = qa[0]
                                s = qs[0]
                                for q in range(1, qlen):
                                    qa[q - 1] = qa[q]
                                    qs[q - 1] = qs[q]
                                qlen -= 1
                                if agent[s] == GREEDY:
                                    yes = popcount(hands[s] & trump_mask[ctx]) * 2 >= popcount(hands[s])
                                else:
                                    yes = draw(rng, 1) >= 0.5  # legal: [decline, announce]
                                if record:
                                    hist[hl] = cfg[C_ANNOUNCE0] + b if yes else cfg[C_DECLINE]
                                    hl += 1
                                if yes:
                                    while qlen > 0 and qa[0] == b:
                                        for q in range(1, qlen):
                                            qa[q - 1] = qa[q]
                                            qs[q - 1] = qs[q]
                                        qlen -= 1
                                    a = b
                                    ann_seat = s
                            if a < 0:
                                break
                    # ---------------------------------------------------------------- a card
                    h = hands[seat]
                    legal = h if tlen == 0 else legal_mask(cfg, suit_mask, trump_mask, ctx_trump, exempt, above, ctx, h, led, win, tmask)
                    count = popcount(legal)
                    if card >= 0:
                        pass  # drawn together with the announcements above
                    elif count == 1:
                        card = lowest(legal)
                    elif agent[seat] == GREEDY:
                        if tlen == 0:
                            card = greedy_lead(above, trump_mask, points, strength, card_suit, ctx, legal, ~(h | played))
                        else:
                            card = greedy_follow(trump_mask, points, strength, card_suit, ctx, legal, led, win, team_of[wseat] == team_of[seat],
                                                 tlen == n - 1)
                    else:
                        card = nth(legal, int(draw(rng, 1) * count))
                    hands[seat] = h ^ (np.int64(1) << card)
                    if record:
                        hist[hl] = card
                        hl += 1
                        trows[tr, 2 + tlen] = card
                    if tlen == 0:
                        led = card_suit[ctx, card]
                        best = strength[ctx, led, card]
                        win = card
                        wseat = seat
                    else:
                        st = strength[ctx, led, card]
                        if st > best:
                            best = st
                            win = card
                            wseat = seat
                    trick_card[tlen] = card
                    trick_seat[tlen] = seat
                    tlen += 1
                    tmask |= np.int64(1) << card
                    tpoints += points[ctx, card]
                    seat = (seat + 1) % n
                team = team_of[wseat]
                won_points[team] += tpoints
                won_tricks[team] += 1
                played |= tmask
                if record:
                    trows[tr, 0] = leader
                    trows[tr, 1] = wseat
                    tr += 1
                leader = wseat
            # ---------------------------------------------------------------- the hand's outcome and score
            score = won_points if cfg[C_BY_POINTS] == 1 else won_tricks
            hand_winner = 0
            tie = False
            for t in range(1, nteams):
                if score[t] > score[hand_winner]:
                    hand_winner = t
            for t in range(nteams):
                if t != hand_winner and score[t] == score[hand_winner]:
                    tie = True
            if tie:
                hand_winner = -1
            elif cfg[C_MAKER_NEEDS] >= 0 and hand_winner == maker and won_points[hand_winner] < cfg[C_MAKER_NEEDS]:
                hand_winner = -1
                tie = cfg[C_GAP_TIE] == 1  # else no score
            decided = hand_winner >= 0
            all_tricks = decided and won_tricks[hand_winner] == ntricks
            in_play = 0
            for t in range(nteams):
                in_play += won_points[t]
            k = 1
            if ties > 0:
                if cfg[C_TIE_CARRY] == 1:
                    k = 2
                elif cfg[C_TIE_CARRY] == 2:
                    k = 2 ** ties
            key = 0
            for v in range(nvars):
                code = score_vars[v, 0]
                i = score_vars[v, 1]
                if code == 0:
                    value = hand_winner if decided else (nteams if tie else nteams + 1)
                elif code == 1:
                    value = maker if maker >= 0 else nteams
                elif code == 2:
                    value = dealer
                elif code == 3:
                    value = 1 if all_tricks else 0
                elif code == 4:
                    value = ntricks
                elif code == 5:
                    value = in_play
                elif code == 6:
                    value = passes
                elif code == 7:
                    value = ties
                elif code == 8:
                    value = won_points[i]
                elif code == 9:
                    value = won_tricks[i]
                else:
                    value = made_team[i]
                if value >= score_vars[v, 2]:
                    return BAD_SCORE
                key += value * score_vars[v, 3]
            if score_ok[key] == 0:
                return BAD_SCORE
            for t in range(nteams):
                deltas[t] = score_base[key, t] + k * score_scaled[key, t]
                values[t] += deltas[t]
            if decided:
                ties = passes = 0
            elif tie and cfg[C_TIE_CARRY] != 0:
                ties += 1
            redeals = 0
            # counts the tally reads
            counts[path] += 1
            counts[K_PLAYED] += 1
            if decided:
                counts[K_DECIDED] += 1
                if hand_winner == team_of[elder]:
                    counts[K_ELDER_WINS] += 1
                if all_tricks:
                    counts[K_ALL_TRICKS] += 1
            elif tie:
                counts[K_TIES] += 1
            else:
                counts[K_NO_SCORE] += 1
            if maker >= 0:
                counts[K_MAKER_HANDS] += 1
                if hand_winner == maker:
                    counts[K_MAKER_WINS] += 1
            if record:
                row = hrows[hr]
                row[H_GAME], row[H_NUMBER], row[H_DEALER] = game, game_hands, dealer
                row[H_TRUMP], row[H_PATH], row[H_MAKER], row[H_DECIDER] = trump, path, maker, decider
                row[H_DEC_LO], row[H_DEC_HI] = dec_lo, dr
                row[H_OUTCOME] = 0 if decided else (1 if tie else 2)
                row[H_WINNER], row[H_ALL] = hand_winner, 1 if all_tricks else 0
                row[H_ANN_LO], row[H_ANN_HI], row[H_IN_PLAY], row[H_K] = ann_lo, ar, in_play, k
                row[H_TRICK_LO], row[H_TRICK_HI] = trick_lo, tr
                for t in range(nteams):
                    row[H_TEAMS + t] = won_points[t]
                    row[H_TEAMS + nteams + t] = won_tricks[t]
                    row[H_TEAMS + 2 * nteams + t] = deltas[t]
                    row[H_TEAMS + 3 * nteams + t] = values[t]
                hr += 1
            same_dealer = tie and cfg[C_SAME_AFTER_TIE] == 1
        # -------------------------------------------------------------------- the end of a game (engine.hand.make_settle)
        reached = False
        for t in range(nteams):
            if (values[t] <= goal) if down else (values[t] >= goal):
                reached = True
        if not reached:
            if game_hands >= cfg[C_MAX_HANDS]:
                abandoned = 1
                break
        else:
            sign = 1 if down else -1
            best_team = -1
            best_past = best_won = 0
            for t in range(nteams):
                past = (goal - values[t]) * sign
                if past >= 0:
                    won = 1 if t == hand_winner else 0
                    if best_team < 0 or past > best_past or (past == best_past and won > best_won):
                        best_team, best_past, best_won = t, past, won
            games_won[best_team] += 1
            if games_won[best_team] >= cfg[C_GAMES_TO_WIN]:
                winner_of_game = best_team
                break
            if games_won.sum() >= cfg[C_MAX_GAMES]:  # limits.max_games: the session is abandoned
                abandoned = 1
                break
            game += 1
            game_hands = ties = passes = redeals = 0
            for t in range(nteams):
                values[t] = start
        if not same_dealer and cfg[C_ROTATE] == 1:
            dealer = (dealer + 1) % n
    out[G_HANDS] = total
    out[G_WINNER] = -1 if abandoned else winner_of_game
    out[G_ABANDONED] = abandoned
    out[G_HIST], out[G_HROWS], out[G_DROWS], out[G_AROWS], out[G_TROWS] = hl, hr, dr, ar, tr
    for t in range(nteams):
        out[G_VALUES + t] = values[t]
        out[G_VALUES + nteams + t] = games_won[t]
    return OK


@njit(cache=True)
def play_games(T, agent, seeds, counts, results):
    """Play one game per game seed, counting into ``counts``; ``results[g]`` gets game g's per-game values.

    Returns the index of the first game that failed (BAD_SCORE), or -1.
    """
    empty1 = np.zeros(1, np.int64)
    empty2 = np.zeros((1, 2), np.int64)
    emptyh = np.zeros((1, H_TEAMS + 4 * T.cfg[C_NTEAMS]), np.int64)
    empty3 = np.zeros((1, 2 + T.cfg[C_N]), np.int64)
    room = np.zeros(4, np.int64)
    for g in range(seeds.shape[0]):
        status = play_game(T, agent, mix64(seeds[g]), mix64(seeds[g] ^ np.uint64(AGENTS_SALT)), False, empty1, emptyh, empty2, empty2,
                           empty3, counts, results[g], room)
        if status != OK:
            return g
    return -1
