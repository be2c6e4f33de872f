"""Diagnostics: what every checking stage reports, and how a person or a tool reads them.

A stage never prints and rarely raises: it yields :class:`Diagnostic` values (a stable
kebab-case ``code``, a position and a hint), and the boundary that must stop (loading,
building a ruleset) raises one :class:`RulesetError` carrying them all. The text rendering
follows compilers: ``FILE:LINE:COL: error[CODE]: message``, the source line, a caret and a
hint, so editors can jump to the position.
"""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Iterable, Literal, Sequence

Severity = Literal["error", "warning"]

# Every diagnostic code the language stages emit, with what it means. Codes are stable:
# tests, scenario files and editors match on them. tests/broken/ holds one example of each.
CODES: dict[str, str] = {
    # loading (loader.py)
    "file-not-found": "the file or built-in ruleset does not exist or cannot be read",
    "too-large": "the file or document exceeds the size limits",
    "not-text": "the file is not UTF-8 text",
    "yaml-syntax": "the YAML is malformed",
    "not-a-mapping": "the file is empty or its top level is not a mapping",
    "too-deep": "values nest deeper than the limit (or extends chains are too long)",
    "alias-bomb": "YAML aliases expand without bound",
    "unsafe-tag": "a YAML tag other than the plain ones (e.g. !!python/object)",
    "duplicate-key": "a mapping repeats a key",
    "non-scalar-key": "a mapping key is a list or mapping",
    "bad-value": "a scalar that looks like a number cannot be read as one",
    "extends-invalid": "extends: is not a name or path",
    "extends-not-found": "extends: names no built-in ruleset or file",
    "extends-cycle": "rulesets extend each other in a cycle",
    "extends-needs-id": "a ruleset that extends another does not state its own id and name",
    # JSON Schema (schema.py)
    "schema-type": "a value has the wrong type",
    "schema-required": "a required key is missing",
    "schema-additional-property": "an unknown key (often a typo)",
    "schema-enum": "a value is not one of the allowed words",
    "schema-pattern": "a name or id is not well formed",
    "schema-range": "a number is out of range",
    "schema-size": "a list, mapping or string is too short or too long",
    "schema-unique": "a list repeats a value",
    "schema-invalid": "any other schema violation",
    # semantic checks (semantic.py)
    "unknown-suit": "a card names a suit the deck does not have",
    "unknown-rank": "a rank (or a card's rank) the deck does not have",
    "unknown-card": "a card that is not in the deck",
    "unknown-seat": "a seat number outside 0..players-1",
    "unknown-announcement": "a reference to an announcement that is not declared",
    "unknown-option": "option(\"x\") names an option that is not declared",
    "unknown-declaration": "declared(team, \"x\") names a declaration that is not declared",
    "unknown-tally": "tally(team, \"x\") names a tally that is not declared",
    "duplicate-suit": "a suit is listed twice",
    "rank-without-points": "a rank has no card-point value",
    "trump-ranks-not-permutation": "trump_ranks does not list every rank once",
    "promotions-too-many": "more promoted cards than the engine tabulates (a table per set of promotions in force)",
    "promotion-card-unclear": "a promotion names neither a card nor a rank with a trump-relative suit, or both",
    "promotion-place-unclear": "a promotion gives neither `below` nor `top: true`, or both",
    "drawn-single-suit": "a trump drawn by chance (trump.method: drawn) from a single suit",
    "trump-promoted-without-cards": "a contract makes the promoted cards the only trumps, but no fixed card is promoted (or its own `promoted` is empty)",
    "contract-promoted-not-promotion": "a contract's `promoted` names a card that no fixed-card promotion of the deck promotes",
    "promotion-colour-unpaired": "a same_colour promotion where a suit does not share its colour with exactly one other",
    "aside-needs-two-teams": "the cards nobody plays go to the declarer's opponents, but there are not two teams",
    "kitty-repeated": "the deal has more than one kitty step",
    "kitty-after-decide": "the kitty is dealt after the contract is fixed",
    "kitty-without-step": "a contract shows or takes the kitty, but the deal has no kitty step",
    "discard-without-kitty": "a discard section, but no contract takes the kitty and no offered card is taken (warning)",
    "discard-may-stick": "more cards may never be discarded than a declarer keeps (warning)",
    "declarer-announcement-key": "shows_hand or offered_when on an announcement that is not a declarer's (made before the first lead)",
    "contract-offered-when-unpicked": "offered_when on a contract no seat picks (one fixed by the bidding, or played when all pass)",
    "contract-offered-when-reads-hidden": "a contract's offered_when reads what the declarer does not know when he picks it",
    "offered-when-reads-play": "an announcement's offered_when reads a fact the play decides, not settled before the first lead",
    "blind-when-reads-play": "bids.blind.when reads a fact the hand decides, not settled before the cards are looked at",
    "blind-bid-after-decision": "a blind bid in a ruleset whose seats decide with their cards before the bids",
    "blind-exchange-invalid": "a blind bidders' exchange without a blind bid, partners seated opposite, or fewer cards than a hand",
    "bid-value-without-auction": "bid_value is read, but the ruleset's auction bids no numbers",
    "auction-values-invalid": "a numeric auction's values do not rise, or the procedure and what it bids do not match",
    "doubling-invalid": "doubling beside a once-round auction, levels that do not rise, or double_out_of_turn "
                        "off an open auction's doubling or beside doubles that do not end the bidding",
    "dummy-invalid": "a dummy without teams of two, beside a seat sitting out, or without the opening lead by the "
                     "player after the declarer",
    "open-auction-key": "outbid, declarer or double_ends_bidding on an auction whose procedure is not open",
    "kitty-choice-invalid": "the declarer's kitty decision without a pairs or rounds auction, a kitty, or beside a contract that takes it",
    "last-seat-declares-invalid": "on_all_pass: last_seat_declares on an auction whose procedure is not rounds",
    "auction-ladder-invalid": "the auction's ladder names a contract that is missing, disabled or names its trump",
    "unknown-card-set": "a reference to a card set deck.card_sets does not define",
    "trump-suit-and-method": "a permanent trump suit beside a trump procedure that would choose another",
    "teams-not-partition": "the teams do not cover every seat exactly once",
    "deal-too-many-cards": "the deal needs more cards than the deck holds",
    "hand-size-too-big": "a schedule of hand sizes deals some hand more cards than the deck holds",
    "deal-cards-unaccounted": "some cards are never dealt, set aside, put in a stock or a kitty",
    "deal-uneven-hands": "players would hold different numbers of cards",
    "turn-up-without-stock": "turn_up without a stock to turn from, or with none of its cards left",
    "draw-without-stock": "play.draw without a stock step in the deal to draw from",
    "draw-not-combined": "play.draw beside a concept it is not combined with yet (a kitty, bids, contracts, ...)",
    "draw-uneven": "the stock left by the deal does not divide evenly among the players' draws",
    "leader-announcement-shape": "an announcement of the leader (by: leader) with a key it does not take, or closes_stock, min_stock or ends_hand without it",
    "closes-stock-without-draw": "an announcement closes the stock in a game without play.draw",
    "exchange-without-turn-up": "play.draw.exchange trades a card for the turned card, but the deal turns none up",
    "exchange-never-offered": "play.draw.exchange asks for more cards in the stock than the deal ever leaves there",
    "exchange-needs-trump": "play.draw.exchange names a trump card (rank + T), but the game has no trump",
    "empty-turn-up-not-turned": "if_stock_empty: no_trump with a trump method that does not take the turned card",
    "won-by-without-ends-when": "scoresheet.won_by without scoresheet.ends_when, whose game it names the winner of",
    "turned-card-rule-not-turned": "if_turned with a trump method that does not take the turned card",
    "turned-card-twice": "a card named by two entries of a turn-up step's if_turned",
    "turned-card-without-suit": "trump.method: turned with a card outside the suits (deck.extras) that if_turned does not name",
    "decide-step-count": "not exactly one {decide: trump} step (or one with method none)",
    "offer-without-turn-up": "the offer (or turned) method has no face-up card to offer (or to fix trump)",
    "fallback-without-stock": "on_all_pass needs a stock the deal does not make",
    "offer-taken-from-hand": "offer.taken_by would take an offered card that a face-up packet put in a hand",
    "declarer-packet-before-decide": "a packet to the declarer (to: declarer, all_but_declarer) before the decide step",
    "declarer-packet-without-declarer": "a packet to the declarer where a hand may be played with nobody declaring",
    "packet-from-changing-stock": "a packet dealt from a stock that on_all_pass next_card or bottom_card also takes from",
    "kept-card-not-always-taken": "taker_discards: false where a trump named in a second round takes no card",
    "show-without-cards": "the chooser has no card to show when trump is decided",
    "defer-without-packet": "deferring needs a later packet to the chooser",
    "announcement-cycle": "announcements wait on each other through `after`, or imply each other through `implies`",
    "declarer-announcement-shape": "a declarer's announcement (`by: declarer`) also names `holder_of` or `after`",
    "each-seat-announcement-shape": "an announcement asked of every seat (`by: each_seat`) also names `holder_of` or "
                                    "`after`",
    "each-seat-announcement-unasked": "an announcement asked of every seat (`by: each_seat`) that no deal step asks",
    "deal-announcement-reference": "a deal step `announce` naming an announcement not asked of every seat (`by: "
                                   "each_seat`)",
    "deal-announcement-repeated": "a deal script asking every seat for the same announcement twice",
    "side-announcement-shape": "an announcement for a side (`for_side`) also names `holder_of`, `after`, `by` or a "
                               "declarer's key",
    "side-announcement-key": "`before_card`, `reply_to`, `implies`, `before_lead` or `after_declarer` on an "
                             "announcement that is not made for a side (`for_side`)",
    "side-announcement-after-declarer": "`after_declarer` on an announcement for a side in a ruleset without an "
                                        "auction",
    "side-announcement-before-lead": "`before_card` or `reply_to` on an announcement asked before the first lead "
                                     "(`before_lead`)",
    "side-announcement-reference": "`implies` naming no announcement of its own side, or `reply_to` naming none of the "
                                   "other side",
    "side-announcement-never-offered": "`before_card: 0` (only in reply) on an announcement for a side without "
                                       "`reply_to`",
    "side-announcement-without-maker": "`for_side` where no hand has a maker (fixed teams, trump.method none)",
    "leads-without-declarer": "`leads: true` on an announcement that is not the declarer's",
    "announcement-without-declarer": "a declarer's announcement in a ruleset whose hands have no declarer",
    "sits-out-without-declarer": "`sits_out` on an announcement that is not the declarer's (made before the first lead)",
    "sits-out-needs-partners": "`sits_out: partners` without fixed partnerships",
    "sits-out-unsupported": "`sits_out` or `sit_out` with card roles, declarations, bids of tricks, or `sits_out` with a "
                            "first-lead card",
    "contracts-need-choose": "contracts are given but trump.method is not choose",
    "contracts-none-enabled": "no contract may be picked",
    "contracts-several-named": "more than one contract lets the chooser name the trump suit",
    "contract-ranks-not-permutation": "a contract's ranks do not list every rank once",
    "delegate-needs-partner": "delegate to: partner without teams of two",
    "teams-missing": "players.teams is missing with fixed teams",
    "teams-with-sides": "players.teams given while the sides change with each hand",
    "sides-without-declarer": "sides per hand, but some hand would be played without a declarer",
    "side-card-missing": "sides: card_holders without players.side_card",
    "side-card-unused": "players.side_card given with sides other than card_holders",
    "hidden-sides-unsupported": "sides by who holds a card, or a called partner, beside a rule that would reveal them (or "
                                "is not supported with them); beside sides by who holds a card, only announcements made "
                                "for a side (`for_side`)",
    "call-needs-declarer-sides": "contracts.<id>.call with players.sides other than declarer_alone",
    "call-needs-ladder": "a call on a contract not bid on a ladder once round (trump.auction procedure once)",
    "call-without-declarer": "a call on the contract played when everyone passes (no declarer calls)",
    "call-runs-away-without-lead-duty": "contracts.<id>.call.runs_away_with without leads_it_first (nothing to run away from)",
    "called-suit-lead-without-call": "play.no_called_suit_first_lead in a ruleset whose contracts call no card",
    "call-runs-away-unreachable": "contracts.<id>.call.runs_away_with more cards than a suit of the deck has",
    "outcome-reads-outcome": "outcome.maker_wins or outcome.winner reads the outcome it decides",
    "outcome-two-deciders": "outcome.winner beside outcome.maker_wins",
    "maker-wins-needs-two-sides": "outcome.maker_wins in a game of more than two sides",
    "declaration-pattern-shape": "a declaration pattern has more than one shape, or a key of another shape",
    "declaration-unreachable": "a declaration pattern needs more cards than the deck, its run order or (scope: trick) a trick has",
    "declaration-duplicate-pattern": "two patterns of one declaration match the same cards",
    "declaration-when-shape": "when: last_card_played or when: led needs `cards` patterns",
    "declaration-copies-when": "when: last_card_played or when: led in a pack of copies (deck.copies), not combined yet",
    "declaration-led-shown": "a declaration made when: led that is not shown",
    "while-stock-unused": "play.draw.while_stock where play.follow binds every trick, or with when_partner_winning",
    "declaration-trick-won-shown": "a declaration made when: trick_won that is not shown",
    "stop-when-reads-later": "play.stop_when reads a fact that only the whole hand settles",
    "declaration-needs-trump": "a declaration pattern names trump cards in a game without trump",
    "trump-fixed-after-declaring": "a declaration names trump cards found before the first lead fixes trump (trump: first_lead)",
    "declaration-optional-when": "an optional declaration not made before_first_play, led or trick_won",
    "declaration-stand-in": "stand_in outside an `of` pattern declared before_first_play or before_first_lead, or outside its set",
    "declaration-unused-key": "a declaration key that only matters with award: best_side_only",
    "declaration-scope-key": "when, optional or shown on melds of a trick (scope: trick), which nobody declares",
    "maker-needs-unreachable": "maker_needs exceeds the points in the pack",
    "game-cannot-end": "no scoring rule brings a team to the goal, teams start there, or a session outlasts limits.max_games",
    "card-holder-ambiguous": "a rule picks the seat holding a card (first_lead_card, holder_of) in a pack of copies",
    "first-lead-card-undealt": "play.first_lead_card in a deal that keeps cards back (a stock, cards set aside, a kitty)",
    "equal-cards-without-copies": "play.equal_cards in a pack with one copy of each card (deck.copies 1): no two cards are equal",
    "equal-cards-heading": "play.equal_cards lets a later copy win under a follow duty to beat the winning card (head, overtrump)",
    "bids-out-of-range": "bids whose lowest is above their highest, or whose highest is more than the tricks of a hand",
    "bid-without-bids": "an expression reads bid() in a ruleset without a `bids` section",
    "role-unknown": "role() compared with a string that is not a role (declarer, partner, defender, none)",
    "role-partner-without-call": "role() compared with \"partner\" where a declarer never has one (declarer_alone "
                                 "sides and no contract with a call)",
    "score-without-teams": "an expression reads score() in a ruleset whose sides change from hand to hand (players.sides)",
    "card-set-follows-trump": "a card set naming trump cards (AT) where cards fixed before the deal are needed (a deal "
                              "check, a card class)",
    "tallies-need-teams": "tallies in a ruleset whose sides change from hand to hand (players.sides)",
    "tally-payout-unclear": "a tally with both of its payouts (`every` and `delta`, and `to`), half of one, or `when` "
                            "without `to`",
    "tally-unread": "a tally that pays nothing and that no expression reads with tally() (warning)",
    "all-pass-contract-invalid": "the contract played when everyone passes the auction (`on_all_pass`) is unknown, "
                                 "disabled, lets its trump be named, or gives the cards aside to a declarer's side",
    "all-pass-contract-sides": "a contract played when everyone passes the auction, each seat for itself, without a "
                               "score per seat (`players.sides: declarer_alone`)",
    "partner-by-trick-invalid": "a partner found by a trick (`partner_by_trick`) without a declarer alone to join "
                                "(sides declarer_alone, a contract bid on a ladder, no call, not played when all pass), "
                                "or beside card roles",
    "bidder-holds-invalid": "a contract bid only by the holder of some cards (`bidder_holds`) outside a ladder bid "
                            "once round, or played when everyone passes",
    "dealer-sits-out-dealt": "a packet dealt to a dealer who sits the hand out (players.sit_out)",
    "dealer-sits-out-asked": "a rule turns to a dealer who sits the hand out (choosing, speaking first, taking the "
                             "offered card, leading, passing), or fewer than three players",
    "passing-out-of-range": "more cards passed than a player holds, or `across` with an odd number of players",
    "schedule-cut-short": "a game of a fixed number of deals ends partway through its schedule of hand sizes (warning)",
    "game-may-not-end": "only a scoring expression might bring a team to the goal, which the check cannot follow (warning)",
    "unbounded-redeal": "a redeal loop without limits.max_redeals_in_a_row",
    "unused-setting": "a setting the chosen method ignores (warning)",
    "option-without-domain": "an option has neither choices nor type",
    "option-default-invalid": "an option's default is outside its choices or type",
    "option-without-effect": "an option sets and patches nothing (warning)",
    "option-target-missing": "an option's sets: pointer targets nothing",
    "option-value-invalid": "an option value (or a patched variant) breaks the ruleset",
    "reading-target-missing": "a readings: entry names a setting the ruleset does not have",
    "option-default-mismatch": "a setting disagrees with the option default that replaces it (warning)",
    # expressions (expr/)
    "expr-syntax": "an expression does not parse",
    "expr-unknown-name": "an expression uses an unknown name or function",
    "expr-type": "an expression mixes types (a team where a number is needed ...)",
    "expr-arity": "a function is called with the wrong number of arguments",
    "expr-trick-number": "a trick number written 0 (tricks count from 1, or back from -1)",
    "expr-divisor": "`/` divides by something other than a non-zero number written out",
    "define-cycle": "definitions use each other in a circle, so none has a value",
    "define-reserved": "a definition takes a name of the expression language",
}


@dataclass(frozen=True)
class Span:
    """A place in a source file; lines and columns are 1-based, the end is exclusive."""

    file: str | None
    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.file or '<input>'}:{self.line}:{self.column}"


@dataclass(frozen=True)
class TextSpan(Span):
    """Where a scalar's text starts, and where each of its source lines starts in the text.

    A folded or multi-line scalar is not laid out in its text as in the file (folded lines
    join with a space), so a position inside the text is placed through the line it is on.
    """

    pieces: tuple[tuple[int, int, int, int], ...] = ()  # (text line, text column, file line, file column)

    def place(self, line: int, column: int) -> tuple[int, int]:
        """The file's line and column of a 1-based line and column in the text."""
        text_line, text_column, file_line, file_column = self.pieces[0] if self.pieces else (1, 1, self.line, self.column)
        for piece in self.pieces:
            if piece[:2] > (line, column):
                break
            text_line, text_column, file_line, file_column = piece
        if text_line != line:  # a text line no source line starts: count lines from the last that did
            return file_line + line - text_line, self.column + column - 1
        return file_line, file_column + column - text_column


@dataclass(frozen=True)
class Diagnostic:
    """One finding about a ruleset; ``code`` is stable so tests and tools can match on it."""

    code: str
    severity: Severity
    message: str
    span: Span | None = None
    pointer: str = ""
    hint: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_dict(self) -> dict[str, object]:
        """A flat JSON-ready mapping (what ``couillon validate --format json`` lists), span fields inlined."""
        span = self.span
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "file": span.file if span else None,
            "line": span.line if span else None,
            "column": span.column if span else None,
            "end_line": span.end_line if span else None,
            "end_column": span.end_column if span else None,
            "pointer": self.pointer,
            "hint": self.hint,
        }


class RulesetError(Exception):
    """A ruleset that cannot be used; carries every diagnostic that explains why."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        first = self.diagnostics[0] if self.diagnostics else None
        text = f"{first.span}: {first.message}" if first and first.span else (first.message if first else "invalid ruleset")
        super().__init__(text)


def error(code: str, message: str, span: Span | None = None, pointer: str = "", hint: str | None = None) -> Diagnostic:
    """Shorthand for the common case, an error."""
    return Diagnostic(code, "error", message, span, pointer, hint)


def did_you_mean(word: object, choices: Iterable[object]) -> str | None:
    """A ``did you mean 'x'?`` hint when one choice is close to ``word`` (difflib ratio >= 0.6)."""
    options = [str(c) for c in choices]
    close = difflib.get_close_matches(str(word), options, n=1, cutoff=0.6)
    if not close:
        lowered = {o.lower(): o for o in options}
        close = [lowered[str(word).lower()]] if str(word).lower() in lowered else []
    return f"did you mean '{close[0]}'?" if close else None


def sort_key(diagnostic: Diagnostic) -> tuple[str, int, int]:
    """Order diagnostics by file and position, unplaced ones first."""
    span = diagnostic.span
    return (span.file or "", span.line, span.column) if span else ("", 0, 0)


_ANSI = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "bold": "\x1b[1m", "caret": "\x1b[1;32m", "hint": "\x1b[36m", "reset": "\x1b[0m"}
_MAX_SHOWN = 160  # characters of a source line shown around the caret


def _source_line(file: str | None, line: int, cache: dict[str, list[str] | None]) -> str | None:
    if not file:
        return None
    if file not in cache:
        try:
            with open(file, "rb") as handle:
                cache[file] = handle.read(4_000_000).decode("utf-8", "replace").splitlines()
        except OSError:
            cache[file] = None
    lines = cache[file]
    return lines[line - 1] if lines is not None and 0 < line <= len(lines) else None


def render_text(diagnostics: Iterable[Diagnostic], color: bool = False) -> str:
    """Render diagnostics compiler-style, each with its source line, a caret and a hint."""
    paint = (lambda key, text: f"{_ANSI[key]}{text}{_ANSI['reset']}") if color else (lambda key, text: text)
    cache: dict[str, list[str] | None] = {}
    out: list[str] = []
    for diagnostic in diagnostics:
        span = diagnostic.span
        where = f"{span}: " if span else ""
        label = paint(diagnostic.severity, f"{diagnostic.severity}[{diagnostic.code}]")
        out.append(f"{paint('bold', where)}{label}: {diagnostic.message}")
        source = _source_line(span.file, span.line, cache) if span else None
        if span and source is not None:
            start = max(0, min(span.column - 1, len(source)))
            width = 1
            if span.end_line == span.line and span.end_column and span.end_column > span.column:
                width = span.end_column - span.column
            width = max(1, min(width, len(source) - start))
            offset = max(0, start - _MAX_SHOWN // 2) if len(source) > _MAX_SHOWN else 0
            shown = source[offset : offset + _MAX_SHOWN].expandtabs(1)
            gutter = f"{span.line:>4} | "
            out.append(f"{gutter}{shown}")
            out.append(" " * (len(gutter) - 2) + "| " + " " * (start - offset) + paint("caret", "^" * min(width, _MAX_SHOWN)))
        if diagnostic.hint:
            out.append(f"  {paint('hint', 'hint')}: {diagnostic.hint}")
    return "\n".join(out)


def _github_escape(text: str, property_value: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property_value else text


def render_github(diagnostics: Iterable[Diagnostic]) -> str:
    """GitHub Actions workflow commands: each diagnostic becomes an annotation on its line."""
    out = []
    for d in diagnostics:
        span = d.span
        where = [f"file={_github_escape(span.file or '', True)}", f"line={span.line}", f"col={span.column}"] if span else []
        if span and span.end_line:
            where += [f"endLine={span.end_line}", f"endColumn={span.end_column or span.column}"]
        message = d.message + (f" (hint: {d.hint})" if d.hint else "")
        kind = "error" if d.is_error else "warning"
        out.append(f"::{kind} {','.join([*where, f'title={_github_escape(d.code, True)}'])}::{_github_escape(message)}")
    return "\n".join(out)


def render_json(diagnostics: Iterable[Diagnostic]) -> str:
    """Render diagnostics as a JSON list of flat objects (code, severity, message, position, hint)."""
    return json.dumps([d.to_dict() for d in diagnostics], indent=2, ensure_ascii=False)
