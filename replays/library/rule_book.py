"""Every rule id of the project's rules (the common ground C-1–C-6 and each variant's own ids),
each with a short statement of what it says, so that every id the site shows has a place of its
own on a rules page: the pattern rows carry the scoring ids (JX-6.1, SC-5.3, …), the guide its
sections, and this book every other id (JX-2.1, PT-7.4, SC-6.4a, …).

The statements follow the project's reading of the source rules (the rules document); where the
engine's tables already say it (a pattern row), the book names the id and leaves the row to say it.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

Entry = tuple[str, Promise]

COMMON: list[Entry] = [
    ("C-1", _("Tiles: 34 kinds, four copies of each (characters, dots, bamboo, winds and "
              "dragons); each variant plays its own set of them.")),
    ("C-2", _("Seats and turns: seats play in order 0, 1, 2, 3; the dealer is East and the "
              "seat winds follow playing order (East, South, West, North).")),
    ("C-3", _("Sets: a chow is three tiles in a row of one suit, a pung three alike, a kong "
              "four alike (it counts as a pung), a pair two alike. A winning hand is sets and "
              "one pair, melds counted as sets.")),
    ("C-4", _("Wildcards stand for any tile, even their own face or a kind whose four copies "
              "are used; where a hand reads several ways, the best legal reading is scored.")),
    ("C-5", _("The wall: normal draws from the front, replacement draws (after a kong or a "
              "flower) from the back; the hand is exhausted when a draw is due and none is "
              "left.")),
    ("C-6", _("Scores: every settlement moves points between the four players and sums to "
              "zero; fees to the house are taken separately, from a balance, and never leave "
              "it below zero.")),
]

BOOK: dict[str, list[Entry]] = {
    "JX": [
        ("JX-1", _("Setup: 136 tiles, four players; two dice are rolled and a wildcard chosen "
                   "before the deal; the dealer gets 14 tiles, the others 13.")),
        ("JX-2", _("Play: the dealer discards first; a turn is draw, then perhaps win or kong, "
                   "then discard.")),
        ("JX-2.1", _("Chow: only the discarder's next player, with two tiles from hand.")),
        ("JX-2.2", _("Pung: any other player holding two of the discarded kind.")),
        ("JX-2.3", _("Exposed kong: any other player holding three of the discarded kind.")),
        ("JX-2.4", _("Concealed kong (four alike in hand) or added kong (the fourth tile added "
                     "to one's own exposed pung), on one's own turn.")),
        ("JX-2.5", _("After any kong the player draws a replacement from the back of the "
                     "wall.")),
        ("JX-2.6", _("A pung or kong claim beats a chow; there is no win on a discard.")),
        ("JX-2.7", _("After a chow or pung the claimer discards without drawing.")),
        ("JX-2.8", _("Once one of the last four drawable tiles has been drawn, nobody may "
                     "claim a discard.")),
        ("JX-2.9", _("A wildcard never takes part in a chow, pung or kong; it may be "
                     "discarded.")),
        ("JX-3", _("The dealer stays after a dealer win or an exhausted hand; otherwise the "
                   "next seat deals. The round wind moves on each time the deal returns to "
                   "the first dealer.")),
        ("JX-4", _("The wildcard (百搭) is the kind after the turned-up indicator; all four "
                   "copies are in play.")),
        ("JX-5", _("Winning: by self-draw or robbing a kong, with four sets and a pair and a "
                   "required pattern.")),
        ("JX-5.1", _("Only by self-draw (a kong's replacement draw included) or by robbing an "
                     "added kong; never on a discard.")),
        ("JX-5.2", _("The shape is four sets and a pair; seven pairs do not count.")),
        ("JX-5.3", _("The hand must also be a pure one suit, a half flush, all honours or all "
                     "pungs; wildcards count as what they stand for.")),
        ("JX-6", _("Tai: the rows JX-6.1 to JX-6.9 of the table above are added up; every row "
                   "stacks, and each pung earns its own row.")),
        ("JX-7", _("Fan: the rows JX-7.1 to JX-7.10 of the table above; each fan doubles the "
                   "score.")),
        ("JX-7.11", _("The four carried fans wait in a bank; a win counts the oldest one, and "
                      "only one.")),
        ("JX-8", _("Robbing the kong: when a player adds the fourth tile to a pung, another "
                   "player whose hand it completes may win on it, and the kong does not "
                   "happen.")),
        ("JX-9", _("Contract (承包): three claims by one player from the same discarder put "
                   "the two in a contract; each of the other two chooses to persist or give "
                   "up.")),
        ("JX-10", _("Scoring: score = base × tai × 2 to the power of the fan; each payer pays "
                    "the score times their multiplier.")),
        ("JX-10.1", _("No contract, self-draw: each of the three others pays the score "
                      "once (×1).")),
        ("JX-10.2", _("A contract, and the winner is in it: the winner's partner pays ×5, the "
                      "others who persisted ×2, those who gave up 0.")),
        ("JX-10.3", _("A contract, and the winner is not in it: the two in the contract pay "
                      "×2, the others who persisted ×1, those who gave up 0.")),
        ("JX-10.4", _("Robbing the kong: with no contract the robbed player pays ×3 and the "
                      "others nothing; with a contract the robbed player pays their contract "
                      "multiplier + 3.")),
        ("JX-10.5", _("The rules' own example: base 5, 3 tai, 2 fan: 5 × 3 × 2 × 2 = 60.")),
        ("JX-10.6", _("Silver: after a hand that ends normally every player pays the service "
                      "fee; a player who leaves mid-hand pays the fee and the escape penalty "
                      "instead, never more than their balance, and the hand ends with no "
                      "other payment.")),
        ("JX-11", _("The rank ladder: 24 levels, each needing twice the points of the one "
                    "before, for the points won in matches played on the site.")),
    ],
    "PT": [
        ("PT-1", _("Setup: 112 tiles (the three suits and the four whites), four players; the "
                   "dealer gets 17 tiles, the others 16, and stays after a dealer win or an "
                   "exhausted hand.")),
        ("PT-2", _("Gold (金): two adjacent tiles are turned up after the deal; both kinds are "
                   "gold, a wildcard that is kept at the left and never discarded.")),
        ("PT-3", _("Whites as flowers (补花): a white that is not gold is a flower.")),
        ("PT-3.1", _("After the deal each player in turn, from the dealer, lays out their "
                     "whites and draws replacements, pass after pass, until nobody holds "
                     "one.")),
        ("PT-3.2", _("A white drawn in play is laid out and replaced at once from the "
                     "back.")),
        ("PT-3.3", _("Laid-out whites stay face up and count for flower points.")),
        ("PT-3.4", _("When white is gold, whites are ordinary golds: never laid out or "
                     "replaced.")),
        ("PT-4", _("Play: no chow and no pung; only a concealed kong, on one's own turn, kept "
                   "face down, with a replacement draw.")),
        ("PT-5", _("Winning: five sets and a pair with 17 tiles.")),
        ("PT-5.1", _("Five sets and a pair (concealed kongs count as sets); no pattern is "
                     "required.")),
        ("PT-5.2", _("On one's own draw or on anyone's discard; when several can win on one "
                     "discard, the first in playing order after the discarder wins.")),
        ("PT-5.3", _("A player may declare ready: from then on each drawn tile that does not "
                     "win is discarded automatically.")),
        ("PT-6", _("Flower points: each gold in hand 1 (a white that is gold 2), each "
                   "laid-out white 1 (all four 5), each concealed kong 2.")),
        ("PT-7", _("Settlement of a win.")),
        ("PT-7.1", _("The base rises while the same dealer keeps the deal: with n the hands "
                     "this dealer has dealt in a row before this one, the base is 1 when "
                     "n = 0, else n + 2 (the dealer's 2nd hand in a row: 3, the 3rd: 4, …). "
                     "It applies to every payment of the hand, whoever wins.")),
        ("PT-7.2", _("Each of the three losers pays (base + the winner's flower points) × 2, "
                     "on a self-draw as on a discard; when a non-dealer wins, the dealer pays "
                     "2 more.")),
        ("PT-7.4", _("Flower settlement (算花), not doubled: each pair of losers settles the "
                     "difference of their own flower points. Example: A 6, B 2, D 1 → D pays "
                     "A 5, D pays B 1, B pays A 4.")),
        ("PT-7.5", _("An exhausted hand pays nothing.")),
    ],
    "SC": [
        ("SC-1", _("Setup: 108 suited tiles, four players; the dealer gets 14 tiles, the "
                   "others 13.")),
        ("SC-2", _("The void suit (定缺): each player names a suit to get rid of; while "
                   "holding it they must discard it and can't pung or kong it.")),
        ("SC-3", _("Play: no chow; pungs and kongs as in JX-2.2 to JX-2.5.")),
        ("SC-3.1", _("Several players may win on one discard (一炮多响); a win beats a pung or "
                     "kong.")),
        ("SC-3.2", _("Blood battle (血战到底): a winner leaves the hand; the others play on "
                     "until three have won or the wall is exhausted.")),
        ("SC-3.3", _("A player may decline a win and keep playing.")),
        ("SC-4", _("Winning: four sets and a pair, or seven pairs, without the void suit.")),
        ("SC-4.1", _("Four sets and a pair, or seven pairs (four alike may count as two "
                     "pairs), with no melds for seven pairs.")),
        ("SC-4.2", _("No tile of the player's void suit, melds included: at most two "
                     "suits.")),
        ("SC-5", _("Fan: the highest base pattern (they don't stack) plus the additions; "
                   "the points are 2 to the power of (fan − 1), up to the room's cap.")),
        ("SC-6", _("Settlement, in base units.")),
        ("SC-6.1", _("A win on a discard: the discarder pays each winner their points.")),
        ("SC-6.2", _("A self-draw: every player still in pays the winner the points.")),
        ("SC-6.3", _("Kongs pay at once (刮风下雨): an exposed kong, the discarder pays 2; an "
                     "added kong, every other player still in pays 1; a concealed kong, every "
                     "other player still in pays 2.")),
        ("SC-6.4", _("An exhausted hand, with two or more players still in, is checked in "
                     "three steps.")),
        ("SC-6.4a", _("查花猪: a player still in whose tiles show all three suits (a flower "
                      "pig) pays every other player still in who is not one the cap.")),
        ("SC-6.4b", _("查大叫: a player still in who is neither ready nor a flower pig pays "
                      "each ready player the most their hand could win (on a discard, "
                      "capped).")),
        ("SC-6.4c", _("Every player still in who is not ready gives back the kong payments "
                      "they received in the hand.")),
        ("SC-6.5", _("Beans (欢乐豆): a loser loses points × N, the room's coefficient, and "
                     "every player pays the fee A each hand; a balance below the room's "
                     "minimum can't start another hand.")),
        ("SC-6.6", _("Leaving (逃跑): the leaver is charged the cap × the players still in "
                     "plus what the checks of an exhausted hand would make them pay, times "
                     "the factor X (at least the minimum); the others are compensated that "
                     "amount × X, and play on.")),
        ("SC-H", _("House rules: options of the match, each off by default.")),
        ("SC-H1", _("Exchange three (换三张): before choosing the void suit each player passes "
                    "three tiles of one suit, in a direction set by the dice.")),
        ("SC-H2", _("Blood flow (血流成河): a winner does not leave; each win is settled at "
                    "once and the hand ends only when the wall is exhausted.")),
        ("SC-H3", _("Call transfer (呼叫转移): a win on the discard after a kong takes that "
                    "kong's payment from the discarder.")),
        ("SC-H4", _("Self-draw bonus: +1 fan (the default) or +1 base on each payment.")),
        ("SC-H5", _("Heavenly and earthly hands (on by default): off, SC-5.11 and SC-5.12 do "
                    "not exist.")),
        ("SC-H6", _("Concealed and middle (门清中张): +1 fan for no pung or exposed kong, +1 "
                    "for no 1 or 9.")),
        ("SC-H7", _("Golden hook (金钩钓): +1 fan for winning on a single tile with four "
                    "melds shown.")),
        ("SC-H8", _("Sea bottom (海底): +1 fan for a self-draw on the last tile or a win on the "
                    "discard after it.")),
    ],
}


def book(prefix: str) -> list[Entry]:
    """A variant's ids (by its id prefix) and then the common ground's, in the rules' order.

    >>> [rule for rule, _ in book("PT")][:3], [rule for rule, _ in book("PT")][-1]
    (['PT-1', 'PT-2', 'PT-3'], 'C-6')
    """
    return [*BOOK.get(prefix, []), *COMMON]
