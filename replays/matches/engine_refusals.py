"""The engine's refusals (a refused upload, a refused move on the play table) in the
reader's language.

The engine keeps each refusal's template and parameters (:class:`games.core.messages.Message`);
this catalogue holds the templates' translations, keyed by the English template. A
refusal is shown with its template translated, its tiles as tile names, variants, winds
and suits by their names, nested sentences rendered the same way and players' names as
they are. A message the catalogue doesn't hold is shown as the engine wrote it;
``tests/test_engine_refusals.py`` fails when the engine can raise one.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from games.core.messages import Message, template_of
from games.core.tiles import Tile
from replays.matches import engine_text
from replays.tile_names import suit_name, tile_name, wind_name

_RULE = re.compile(r"^(\{rule\}|[A-Z]+-[0-9.]+): ")

CATALOGUE: dict[str, Promise] = {
    "needs 清一色, 混一色, 全老头 or 对对和": pgettext_lazy("engine refusal", "needs 清一色, 混一色, 全老头 or 对对和"),
    "one wildcard kind, like [\"5m\"]": pgettext_lazy("engine refusal", "one wildcard kind, like [\"5m\"]"),
    "Jiaxing wins only by self-draw or by robbing a kong, never on a discard": pgettext_lazy("engine refusal", "Jiaxing wins only by self-draw or by robbing a kong, never on a discard"),
    "a wildcard is never part of a kong, so it can't be robbed": pgettext_lazy("engine refusal", "a wildcard is never part of a kong, so it can't be robbed"),
    "a hand that would win on every tile kind may not rob a kong": pgettext_lazy("engine refusal", "a hand that would win on every tile kind may not rob a kong"),
    "{player} can't {what} {tile}: wildcards never take part in a chow, pung or kong": pgettext_lazy("engine refusal", "{player} can't {what} {tile}: wildcards never take part in a chow, pung or kong"),
    "{player} gave up and only draws and discards": pgettext_lazy("engine refusal", "{player} gave up and only draws and discards"),
    "{player} has set nothing aside": pgettext_lazy("engine refusal", "{player} has set nothing aside"),
    "{player} can't {what}: they gave up and only draw and discard": pgettext_lazy("engine refusal", "{player} can't {what}: they gave up and only draw and discard"),
    "{player} gave up and can't win this hand": pgettext_lazy("engine refusal", "{player} gave up and can't win this hand"),
    "{player} can't answer a contract: no contract was just formed": pgettext_lazy("engine refusal", "{player} can't answer a contract: no contract was just formed"),
    "{player} answers the contract first (in playing order)": pgettext_lazy("engine refusal", "{player} answers the contract first (in playing order)"),
    "an event": pgettext_lazy("engine refusal", "an event"),
    "the document": pgettext_lazy("engine refusal", "the document"),
    "the hand": pgettext_lazy("engine refusal", "the hand"),
    "the document is nested more than {n} levels deep (a mahjong-log/1 document needs 5)": pgettext_lazy("engine refusal", "the document is nested more than {n} levels deep (a mahjong-log/1 document needs 5)"),
    "{name} is not a JSON number": pgettext_lazy("engine refusal", "{name} is not a JSON number"),
    "a hand": pgettext_lazy("engine refusal", "a hand"),
    "unknown hand field {field} (the fields of a {variant} hand: {known})": pgettext_lazy("engine refusal", "unknown hand field {field} (the fields of a {variant} hand: {known})"),
    "seat {seat} ({player})": pgettext_lazy("engine refusal", "seat {seat} ({player})"),
    "the deal of {who}": pgettext_lazy("engine refusal", "the deal of {who}"),
    "the document is longer than {n:,} characters": pgettext_lazy("engine refusal", "the document is longer than {n:,} characters"),
    "a {format} document is a JSON object, not {type}": pgettext_lazy("engine refusal", "a {format} document is a JSON object, not {type}"),
    "hands must be a non-empty array of hands": pgettext_lazy("engine refusal", "hands must be a non-empty array of hands"),
    "the document has {n} hands; at most {most} are read": pgettext_lazy("engine refusal", "the document has {n} hands; at most {most} are read"),
    "format is missing: a {format} document has \"format\": \"{format}\"": pgettext_lazy("engine refusal", "format is missing: a {format} document has \"format\": \"{format}\""),
    "format must be exactly \"{format}\", not {value}": pgettext_lazy("engine refusal", "format must be exactly \"{format}\", not {value}"),
    "{n} names": pgettext_lazy("engine refusal", "{n} names"),
    "players must be an array of four names, seat 0 first, not {count}": pgettext_lazy("engine refusal", "players must be an array of four names, seat 0 first, not {count}"),
    "the name of seat {seat}": pgettext_lazy("engine refusal", "the name of seat {seat}"),
    "{what} is empty": pgettext_lazy("engine refusal", "{what} is empty"),
    "{what} is {n} characters long; at most {most} are allowed": pgettext_lazy("engine refusal", "{what} is {n} characters long; at most {most} are allowed"),
    "{what} contains the control character U+{code:04X}": pgettext_lazy("engine refusal", "{what} contains the control character U+{code:04X}"),
    "played_at must be an ISO 8601 time string, not {type}": pgettext_lazy("engine refusal", "played_at must be an ISO 8601 time string, not {type}"),
    "played_at must be an ISO 8601 time like 2026-11-20T19:30:00+08:00, not {value}": pgettext_lazy("engine refusal", "played_at must be an ISO 8601 time like 2026-11-20T19:30:00+08:00, not {value}"),
    "rules must be an object of options, not {type}": pgettext_lazy("engine refusal", "rules must be an object of options, not {type}"),
    "{variant} plays without wildcards: a {variant} hand has no wildcards field": pgettext_lazy("engine refusal", "{variant} plays without wildcards: a {variant} hand has no wildcards field"),
    "dice must be two integers 1–6 like [3, 5], not {value}": pgettext_lazy("engine refusal", "dice must be two integers 1–6 like [3, 5], not {value}"),
    "wildcards must list {wanted}, not {value}": pgettext_lazy("engine refusal", "wildcards must list {wanted}, not {value}"),
    "bank holds {n} carried fans; at most {most}": pgettext_lazy("engine refusal", "bank holds {n} carried fans; at most {most}"),
    "deal must be four arrays of tiles, one per seat, seat 0 first, not {value}": pgettext_lazy("engine refusal", "deal must be four arrays of tiles, one per seat, seat 0 first, not {value}"),
    "wall must be an array of tiles, front first, not {type}": pgettext_lazy("engine refusal", "wall must be an array of tiles, front first, not {type}"),
    "the wall has {n} tiles; {variant} has only {room} left after the deal": pgettext_lazy("engine refusal", "the wall has {n} tiles; {variant} has only {room} left after the deal"),
    "{what}: {tile} is not a {variant} tile; {variant} plays {played}": pgettext_lazy("engine refusal", "{what}: {tile} is not a {variant} tile; {variant} plays {played}"),
    "events must be a non-empty array of events ending with end, not {value}": pgettext_lazy("engine refusal", "events must be a non-empty array of events ending with end, not {value}"),
    "the hand has {n} events; at most {most} are read": pgettext_lazy("engine refusal", "the hand has {n} events; at most {most} are read"),
    "the hand's last event must be end, not {type}": pgettext_lazy("engine refusal", "the hand's last event must be end, not {type}"),
    "the event has no type": pgettext_lazy("engine refusal", "the event has no type"),
    "unknown event type {value} (use {known})": pgettext_lazy("engine refusal", "unknown event type {value} (use {known})"),
    "{variant} has no {type} event; it is {owners} only": pgettext_lazy("engine refusal", "{variant} has no {type} event; it is {owners} only"),
    "{type}: the target must be another seat than the actor": pgettext_lazy("engine refusal", "{type}: the target must be another seat than the actor"),
    "a flower is a white (5z), not {tile}": pgettext_lazy("engine refusal", "a flower is a white (5z), not {tile}"),
    "chi: {tile} {first} {second} is no chow (three consecutive tiles of one suit)": pgettext_lazy("engine refusal", "chi: {tile} {first} {second} is no chow (three consecutive tiles of one suit)"),
    "chi tiles must be the two tiles shown from hand, like [\"3m\", \"5m\"], not {value}": pgettext_lazy("engine refusal", "chi tiles must be the two tiles shown from hand, like [\"3m\", \"5m\"], not {value}"),
    "end deltas must be four integers, one per seat, not {value}": pgettext_lazy("engine refusal", "end deltas must be four integers, one per seat, not {value}"),
    "the document is not valid JSON: {detail} at line {line}, column {column}": pgettext_lazy("engine refusal", "the document is not valid JSON: {detail} at line {line}, column {column}"),
    "the document is not valid JSON: {detail}": pgettext_lazy("engine refusal", "the document is not valid JSON: {detail}"),
    "played_at {value} is no real date and time": pgettext_lazy("engine refusal", "played_at {value} is no real date and time"),
    "unknown {variant} rules option {name} (known: {known})": pgettext_lazy("engine refusal", "unknown {variant} rules option {name} (known: {known})"),
    "rules option {name} must be a number, a name or true/false, not {value}": pgettext_lazy("engine refusal", "rules option {name} must be a number, a name or true/false, not {value}"),
    "rules option {name} is too large (at most {most:,})": pgettext_lazy("engine refusal", "rules option {name} is too large (at most {most:,})"),
    "{field} is a {owner} field; {variant} hands have none": pgettext_lazy("engine refusal", "{field} is a {owner} field; {variant} hands have none"),
    "the deal of {who} must be an array of tiles, not {type}": pgettext_lazy("engine refusal", "the deal of {who} must be an array of tiles, not {type}"),
    "{who} is dealt {n} tiles; in {variant} the dealer starts with {want}": pgettext_lazy("engine refusal", "{who} is dealt {n} tiles; in {variant} the dealer starts with {want}"),
    "{who} is dealt {n} tiles; in {variant} a player other than the dealer starts with {want}": pgettext_lazy("engine refusal", "{who} is dealt {n} tiles; in {variant} a player other than the dealer starts with {want}"),
    "end must be the hand's last event; more events follow it": pgettext_lazy("engine refusal", "end must be the hand's last event; more events follow it"),
    "{type} has no field {field} (its fields: {known})": pgettext_lazy("engine refusal", "{type} has no field {field} (its fields: {known})"),
    "{type} needs the field {field}": pgettext_lazy("engine refusal", "{type} needs the field {field}"),
    "{variant} has no {kind} gang, only {kinds} ones": pgettext_lazy("engine refusal", "{variant} has no {kind} gang, only {kinds} ones"),
    "{variant} has no {how} win": pgettext_lazy("engine refusal", "{variant} has no {how} win"),
    "a robbing_kong win needs the target whose kong is robbed": pgettext_lazy("engine refusal", "a robbing_kong win needs the target whose kong is robbed"),
    "a {how} win has no target": pgettext_lazy("engine refusal", "a {how} win has no target"),
    "{variant} has no win on a discard: a hu with a target must be how robbing_kong": pgettext_lazy("engine refusal", "{variant} has no win on a discard: a hu with a target must be how robbing_kong"),
    "end deltas: {delta} is beyond ±{most:,}": pgettext_lazy("engine refusal", "end deltas: {delta} is beyond ±{most:,}"),
    "an integer in the document is too large (thousands of digits)": pgettext_lazy("engine refusal", "an integer in the document is too large (thousands of digits)"),
    "the field {field} appears twice in one object": pgettext_lazy("engine refusal", "the field {field} appears twice in one object"),
    "an exposed gang needs the target whose discard it takes": pgettext_lazy("engine refusal", "an exposed gang needs the target whose discard it takes"),
    "a {kind} gang has no target (only an exposed gang has)": pgettext_lazy("engine refusal", "a {kind} gang has no target (only an exposed gang has)"),
    "none": pgettext_lazy("engine refusal", "none"),
    "the dealer should be {player}: the dealer stays after a dealer win or an exhausted hand, otherwise (an abandoned hand included) the next seat deals": pgettext_lazy("engine refusal", "the dealer should be {player}: the dealer stays after a dealer win or an exhausted hand, otherwise (an abandoned hand included) the next seat deals"),
    "the round wind should be {wind}": pgettext_lazy("engine refusal", "the round wind should be {wind}"),
    "the carried fans should be {bank}, not {given}": pgettext_lazy("engine refusal", "the carried fans should be {bank}, not {given}"),
    "the dealer streak should be {n}": pgettext_lazy("engine refusal", "the dealer streak should be {n}"),
    "the hand has no end event": pgettext_lazy("engine refusal", "the hand has no end event"),
    "the log has hands 1 to {n}": pgettext_lazy("engine refusal", "the log has hands 1 to {n}"),
    "hand {hand} has events 1 to {n}": pgettext_lazy("engine refusal", "hand {hand} has events 1 to {n}"),
    "the hand ended before this event": pgettext_lazy("engine refusal", "the hand ended before this event"),
    "{player} has {n}, below the room's minimum of {minimum}, and can't start another hand": pgettext_lazy("engine refusal", "{player} has {n}, below the room's minimum of {minimum}, and can't start another hand"),
    "the deltas {deltas} don't match the settlement {settled}": pgettext_lazy("engine refusal", "the deltas {deltas} don't match the settlement {settled}"),
    "this answers step {answered}, but the game is at step {current}: reload to see the table as it is now": pgettext_lazy("engine refusal", "this answers step {answered}, but the game is at step {current}: reload to see the table as it is now"),
    "{player} can't do that now: it isn't one of the actions offered": pgettext_lazy("engine refusal", "{player} can't do that now: it isn't one of the actions offered"),
    "the match is over: there is nothing left to play": pgettext_lazy("engine refusal", "the match is over: there is nothing left to play"),
    "name your void suit first: a leaver's charge (SC-6.6) is reckoned from it": pgettext_lazy("engine refusal", "name your void suit first: a leaver's charge (SC-6.6) is reckoned from it"),
    "an action is a JSON object such as {{\"type\": \"discard\", \"tile\": \"5m\"}}": pgettext_lazy("engine refusal", "an action is a JSON object such as {{\"type\": \"discard\", \"tile\": \"5m\"}}"),
    "{player} can't pass now: choose one of the actions offered": pgettext_lazy("engine refusal", "{player} can't pass now: choose one of the actions offered"),
    "{player} can only act for seat {seat}": pgettext_lazy("engine refusal", "{player} can only act for seat {seat}"),
    "{type!r} is not an action a player chooses: draws, whites and the end happen by themselves": pgettext_lazy("engine refusal", "{type!r} is not an action a player chooses: draws, whites and the end happen by themselves"),
    "the 108 suited tiles and the four whites (5z)": pgettext_lazy("engine refusal", "the 108 suited tiles and the four whites (5z)"),
    "two different gold kinds, like [\"3p\", \"7s\"]": pgettext_lazy("engine refusal", "two different gold kinds, like [\"3p\", \"7s\"]"),
    "{player} draws a replacement from the back next": pgettext_lazy("engine refusal", "{player} draws a replacement from the back next"),
    "robbing the gold takes one of the turned-up golds": pgettext_lazy("engine refusal", "robbing the gold takes one of the turned-up golds"),
    "golds are never discarded, so no one wins on a discarded gold": pgettext_lazy("engine refusal", "golds are never discarded, so no one wins on a discarded gold"),
    "a bomb needs 3 golds of one kind or 4 or more golds, on one's own turn": pgettext_lazy("engine refusal", "a bomb needs 3 golds of one kind or 4 or more golds, on one's own turn"),
    "{player} lays out a white next": pgettext_lazy("engine refusal", "{player} lays out a white next"),
    "{player} can't lay out {tile}: only whites are flowers, and white is gold this hand (PT-3.4)": pgettext_lazy("engine refusal", "{player} can't lay out {tile}: only whites are flowers, and white is gold this hand (PT-3.4)"),
    "{player} can't lay out {tile}: only whites are flowers": pgettext_lazy("engine refusal", "{player} can't lay out {tile}: only whites are flowers"),
    "{player} holds no white to lay out": pgettext_lazy("engine refusal", "{player} holds no white to lay out"),
    "the opening replacements go in order: {why}": pgettext_lazy("engine refusal", "the opening replacements go in order: {why}"),
    "{player} can't discard {tile}: golds can never be discarded": pgettext_lazy("engine refusal", "{player} can't discard {tile}: golds can never be discarded"),
    "{player} can't discard a white: it is laid out as a flower": pgettext_lazy("engine refusal", "{player} can't discard a white: it is laid out as a flower"),
    "{player} must lay out their white before discarding": pgettext_lazy("engine refusal", "{player} must lay out their white before discarding"),
    "declare ready": pgettext_lazy("engine refusal", "declare ready"),
    "{player} is already ready": pgettext_lazy("engine refusal", "{player} is already ready"),
    "{player} can't {what} golds": pgettext_lazy("engine refusal", "{player} can't {what} golds"),
    "{player} can't rob the gold: only after the opening replacements and before the dealer's first discard": pgettext_lazy("engine refusal", "{player} can't rob the gold: only after the opening replacements and before the dealer's first discard"),
    "{player} can't rob {tile}: it is not a gold": pgettext_lazy("engine refusal", "{player} can't rob {tile}: it is not a gold"),
    "that gold is no longer on the table": pgettext_lazy("engine refusal", "that gold is no longer on the table"),
    "{player} can't rob the gold: their hand is not ready": pgettext_lazy("engine refusal", "{player} can't rob the gold: their hand is not ready"),
    "the opening replacements go in playing order from the dealer: {why}": pgettext_lazy("engine refusal", "the opening replacements go in playing order from the dealer: {why}"),
    "{player} can't lay out a white now: {why}": pgettext_lazy("engine refusal", "{player} can't lay out a white now: {why}"),
    "{player} declared ready: the drawn {tile} is discarded unless it wins": pgettext_lazy("engine refusal", "{player} declared ready: the drawn {tile} is discarded unless it wins"),
    "{player} declared ready, but discarding {tile} leaves the hand not ready": pgettext_lazy("engine refusal", "{player} declared ready, but discarding {tile} leaves the hand not ready"),
    "{player} can't declare ready: their hand is not ready after any discard": pgettext_lazy("engine refusal", "{player} can't declare ready: their hand is not ready after any discard"),
    "{player} declared ready: no kong after the declaration": pgettext_lazy("engine refusal", "{player} declared ready: no kong after the declaration"),
    "a {name}": pgettext_lazy("engine refusal", "a {name}"),
    "null": pgettext_lazy("engine refusal", "null"),
    "a boolean": pgettext_lazy("engine refusal", "a boolean"),
    "a number": pgettext_lazy("engine refusal", "a number"),
    "a string": pgettext_lazy("engine refusal", "a string"),
    "an array": pgettext_lazy("engine refusal", "an array"),
    "an object": pgettext_lazy("engine refusal", "an object"),
    "an array of {n} items": pgettext_lazy("engine refusal", "an array of {n} items"),
    "an array of 1 item": pgettext_lazy("engine refusal", "an array of 1 item"),
    "{what} must be an object, not {type}": pgettext_lazy("engine refusal", "{what} must be an object, not {type}"),
    "{where} has no {field}": pgettext_lazy("engine refusal", "{where} has no {field}"),
    "{field} must be true or false, not {value}": pgettext_lazy("engine refusal", "{field} must be true or false, not {value}"),
    "{field} must be a string, not {type}": pgettext_lazy("engine refusal", "{field} must be a string, not {type}"),
    "{field} must be a seat 0–3, not {value}": pgettext_lazy("engine refusal", "{field} must be a seat 0–3, not {value}"),
    "{field} must be one of {choices}, not {value}": pgettext_lazy("engine refusal", "{field} must be one of {choices}, not {value}"),
    "{field} must be an array of carried fans, not {type}": pgettext_lazy("engine refusal", "{field} must be an array of carried fans, not {type}"),
    "{field}: a tile is a string like \"5m\", not {value}": pgettext_lazy("engine refusal", "{field}: a tile is a string like \"5m\", not {value}"),
    "{field}: {value} is no tile (write a digit and a suit letter: 1m–9m, 1p–9p, 1s–9s, 1z–7z)": pgettext_lazy("engine refusal", "{field}: {value} is no tile (write a digit and a suit letter: 1m–9m, 1p–9p, 1s–9s, 1z–7z)"),
    "{field} must be an array of tiles, not {value}": pgettext_lazy("engine refusal", "{field} must be an array of tiles, not {value}"),
    "unknown field {value} in {where} (its fields: {known})": pgettext_lazy("engine refusal", "unknown field {value} in {where} (its fields: {known})"),
    "{field} must be an integer {low}–{high}, not {value}": pgettext_lazy("engine refusal", "{field} must be an integer {low}–{high}, not {value}"),
    "{field} must be an integer {low} or more, not {value}": pgettext_lazy("engine refusal", "{field} must be an integer {low} or more, not {value}"),
    "unknown carried fan {value} in {field}: use {known}": pgettext_lazy("engine refusal", "unknown carried fan {value} in {field}: use {known}"),
    "{field}: {error}": pgettext_lazy("engine refusal", "{field}: {error}"),
    "{field}: {tile} is listed twice": pgettext_lazy("engine refusal", "{field}: {tile} is listed twice"),
    "{first} or {last}": pgettext_lazy("engine refusal", "{first} or {last}"),
    "unknown variant {value}: use {choices}": pgettext_lazy("engine refusal", "unknown variant {value}: use {choices}"),
    "the 108 suited tiles, no honours": pgettext_lazy("engine refusal", "the 108 suited tiles, no honours"),
    "the hand holds its void suit {suit}; no win before it is gone": pgettext_lazy("engine refusal", "the hand holds its void suit {suit}; no win before it is gone"),
    "a winning hand has at most two suits (缺一门)": pgettext_lazy("engine refusal", "a winning hand has at most two suits (缺一门)"),
    "{player} can't name a void suit now: void suits are named right after the deal": pgettext_lazy("engine refusal", "{player} can't name a void suit now: void suits are named right after the deal"),
    "{player} already named a void suit": pgettext_lazy("engine refusal", "{player} already named a void suit"),
    "the void suit is m, p or s": pgettext_lazy("engine refusal", "the void suit is m, p or s"),
    "{player} can't discard {tile}: they still hold their void suit {suit}, which goes first": pgettext_lazy("engine refusal", "{player} can't discard {tile}: they still hold their void suit {suit}, which goes first"),
    "{player} can't {what} {tile}: it is their void suit": pgettext_lazy("engine refusal", "{player} can't {what} {tile}: it is their void suit"),
    "{player}'s win on the robbed kong tile must be recorded as robbing the kong": pgettext_lazy("engine refusal", "{player}'s win on the robbed kong tile must be recorded as robbing the kong"),
    "{player} can rob only {other}'s {tile}": pgettext_lazy("engine refusal", "{player} can rob only {other}'s {tile}"),
    "first": pgettext_lazy("engine refusal", "first"),
    "second": pgettext_lazy("engine refusal", "second"),
    "third": pgettext_lazy("engine refusal", "third"),
    "fourth": pgettext_lazy("engine refusal", "fourth"),
    "fifth": pgettext_lazy("engine refusal", "fifth"),
    "the hand is over": pgettext_lazy("engine refusal", "the hand is over"),
    "the dealer first, then playing order": pgettext_lazy("engine refusal", "the dealer first, then playing order"),
    "{player} can't {what}: {other} won it ({order})": pgettext_lazy("engine refusal", "{player} can't {what}: {other} won it ({order})"),
    "{player} can't {what} now: {why}": pgettext_lazy("engine refusal", "{player} can't {what} now: {why}"),
    "{player} must draw from the back of the wall": pgettext_lazy("engine refusal", "{player} must draw from the back of the wall"),
    "{player} must draw from the front of the wall": pgettext_lazy("engine refusal", "{player} must draw from the front of the wall"),
    "it is {player}'s turn to discard": pgettext_lazy("engine refusal", "it is {player}'s turn to discard"),
    "{player}'s discard awaits claims or the next draw": pgettext_lazy("engine refusal", "{player}'s discard awaits claims or the next draw"),
    "an added kong awaits robbing or its replacement draw": pgettext_lazy("engine refusal", "an added kong awaits robbing or its replacement draw"),
    "{player} must answer the contract": pgettext_lazy("engine refusal", "{player} must answer the contract"),
    "every player must first name a void suit": pgettext_lazy("engine refusal", "every player must first name a void suit"),
    "the opening white replacements are under way": pgettext_lazy("engine refusal", "the opening white replacements are under way"),
    "chow {tile}": pgettext_lazy("engine refusal", "chow {tile}"),
    "pung {tile}": pgettext_lazy("engine refusal", "pung {tile}"),
    "pung": pgettext_lazy("engine refusal", "pung"),
    "kong {tile}": pgettext_lazy("engine refusal", "kong {tile}"),
    "kong": pgettext_lazy("engine refusal", "kong"),
    "add {tile} to a kong": pgettext_lazy("engine refusal", "add {tile} to a kong"),
    "robbing the gold exists only in Putian": pgettext_lazy("engine refusal", "robbing the gold exists only in Putian"),
    "{where} holds a {ordinal} copy of {tile}: only {n} are in play": pgettext_lazy("engine refusal", "{where} holds a {ordinal} copy of {tile}: only {n} are in play"),
    "{type!r} events don't exist in {variant}": pgettext_lazy("engine refusal", "{type!r} events don't exist in {variant}"),
    "{player} has left the table": pgettext_lazy("engine refusal", "{player} has left the table"),
    "the hand is already over": pgettext_lazy("engine refusal", "the hand is already over"),
    "rob the gold": pgettext_lazy("engine refusal", "rob the gold"),
    "a draw needs an actor and a tile": pgettext_lazy("engine refusal", "a draw needs an actor and a tile"),
    "draw {tile}": pgettext_lazy("engine refusal", "draw {tile}"),
    "{player} must draw from the back of the wall (a replacement)": pgettext_lazy("engine refusal", "{player} must draw from the back of the wall (a replacement)"),
    "{player} can't draw: the wall is empty and the hand is exhausted": pgettext_lazy("engine refusal", "{player} can't draw: the wall is empty and the hand is exhausted"),
    "{player}'s draw": pgettext_lazy("engine refusal", "{player}'s draw"),
    "a discard needs an actor and a tile": pgettext_lazy("engine refusal", "a discard needs an actor and a tile"),
    "discard {tile}": pgettext_lazy("engine refusal", "discard {tile}"),
    "{player} can't discard {tile}: it is not in their hand": pgettext_lazy("engine refusal", "{player} can't discard {tile}: it is not in their hand"),
    "{player} can't {what}: the last discard is {other}'s {tile}": pgettext_lazy("engine refusal", "{player} can't {what}: the last discard is {other}'s {tile}"),
    "{player} can't {what}: the last discard is {tile}": pgettext_lazy("engine refusal", "{player} can't {what}: the last discard is {tile}"),
    "{player} can't claim their own discard": pgettext_lazy("engine refusal", "{player} can't claim their own discard"),
    "{player} can't {what}: the discard was won (a win beats a pung or kong)": pgettext_lazy("engine refusal", "{player} can't {what}: the discard was won (a win beats a pung or kong)"),
    "{player} can't {what}: no claims once fewer than four tiles remain in the wall": pgettext_lazy("engine refusal", "{player} can't {what}: no claims once fewer than four tiles remain in the wall"),
    "{player} has won and plays no more": pgettext_lazy("engine refusal", "{player} has won and plays no more"),
    "{variant} has no chow": pgettext_lazy("engine refusal", "{variant} has no chow"),
    "{player} can't chow {tile}: only the next seat after the discarder may chow": pgettext_lazy("engine refusal", "{player} can't chow {tile}: only the next seat after the discarder may chow"),
    "{player} can't chow {tile} with {tiles}: that is no run of three in one suit": pgettext_lazy("engine refusal", "{player} can't chow {tile} with {tiles}: that is no run of three in one suit"),
    "{player} can't chow with a wildcard: wildcards never take part in a chow, pung or kong": pgettext_lazy("engine refusal", "{player} can't chow with a wildcard: wildcards never take part in a chow, pung or kong"),
    "{variant} has no pung": pgettext_lazy("engine refusal", "{variant} has no pung"),
    "{player} can't pung {tile}: they hold {n} of it, a pung needs two": pgettext_lazy("engine refusal", "{player} can't pung {tile}: they hold {n} of it, a pung needs two"),
    "{variant} has no exposed kong: only concealed kongs": pgettext_lazy("engine refusal", "{variant} has no exposed kong: only concealed kongs"),
    "{player} can't kong {tile}: they hold {n} of it, an exposed kong needs three": pgettext_lazy("engine refusal", "{player} can't kong {tile}: they hold {n} of it, an exposed kong needs three"),
    "{player} can't {what} right after a chow or pung: discard first": pgettext_lazy("engine refusal", "{player} can't {what} right after a chow or pung: discard first"),
    "{player} can't declare a kong: the wall is empty, so no replacement can be drawn": pgettext_lazy("engine refusal", "{player} can't declare a kong: the wall is empty, so no replacement can be drawn"),
    "{player} can't declare a concealed kong of {tile}: they hold {n} of it": pgettext_lazy("engine refusal", "{player} can't declare a concealed kong of {tile}: they hold {n} of it"),
    "{variant} has no added kong: only concealed kongs": pgettext_lazy("engine refusal", "{variant} has no added kong: only concealed kongs"),
    "{player} can't add {tile} to a kong: they have no exposed pung of {tile}": pgettext_lazy("engine refusal", "{player} can't add {tile} to a kong: they have no exposed pung of {tile}"),
    "{player} can't add {tile} to a kong: it is not in their hand": pgettext_lazy("engine refusal", "{player} can't add {tile} to a kong: it is not in their hand"),
    "win on {tile}": pgettext_lazy("engine refusal", "win on {tile}"),
    "{player} can't win without drawing: a self-drawn win is on the tile just drawn": pgettext_lazy("engine refusal", "{player} can't win without drawing: a self-drawn win is on the tile just drawn"),
    "{player} can't win on {tile}: in {variant} a win is by self-draw only, never on a discard": pgettext_lazy("engine refusal", "{player} can't win on {tile}: in {variant} a win is by self-draw only, never on a discard"),
    "{player} can't win on {tile}: the last discard is {other}'s {discard}": pgettext_lazy("engine refusal", "{player} can't win on {tile}: the last discard is {other}'s {discard}"),
    "{player} can't win on their own discard": pgettext_lazy("engine refusal", "{player} can't win on their own discard"),
    "{player}'s win on the same discard must be recorded in playing order after the discarder": pgettext_lazy("engine refusal", "{player}'s win on the same discard must be recorded in playing order after the discarder"),
    "{player} can't rob a kong: no added kong was just declared": pgettext_lazy("engine refusal", "{player} can't rob a kong: no added kong was just declared"),
    "{player} can rob only {other}'s added {tile}": pgettext_lazy("engine refusal", "{player} can rob only {other}'s added {tile}"),
    "a player can't rob their own kong": pgettext_lazy("engine refusal", "a player can't rob their own kong"),
    "{player} has already won": pgettext_lazy("engine refusal", "{player} has already won"),
    "not a winning hand": pgettext_lazy("engine refusal", "not a winning hand"),
    "{player} can't win on {tile}: {reason}": pgettext_lazy("engine refusal", "{player} can't win on {tile}: {reason}"),
    "{type} needs an actor": pgettext_lazy("engine refusal", "{type} needs an actor"),
    "{type} needs a tile": pgettext_lazy("engine refusal", "{type} needs a tile"),
    "{player} was dealt {n} tiles; the dealer gets {want}": pgettext_lazy("engine refusal", "{player} was dealt {n} tiles; the dealer gets {want}"),
    "{player} was dealt {n} tiles; the player gets {want}": pgettext_lazy("engine refusal", "{player} was dealt {n} tiles; the player gets {want}"),
    "the wall": pgettext_lazy("engine refusal", "the wall"),
    "the wall holds {n} tiles; after the deal {want} should remain": pgettext_lazy("engine refusal", "the wall holds {n} tiles; after the deal {want} should remain"),
    "only the first in playing order after the konger wins": pgettext_lazy("engine refusal", "only the first in playing order after the konger wins"),
    "only the first in playing order after the discarder wins": pgettext_lazy("engine refusal", "only the first in playing order after the discarder wins"),
    "{player} drew {tile}, but the back of the wall holds {expected}": pgettext_lazy("engine refusal", "{player} drew {tile}, but the back of the wall holds {expected}"),
    "{player} drew {tile}, but the front of the wall holds {expected}": pgettext_lazy("engine refusal", "{player} drew {tile}, but the front of the wall holds {expected}"),
    "{player} can't chow {tile}: they hold no {shown}": pgettext_lazy("engine refusal", "{player} can't chow {tile}: they hold no {shown}"),
    "{player} drew {drawn}, not {tile}": pgettext_lazy("engine refusal", "{player} drew {drawn}, not {tile}"),
    "{player} holds no {tile}": pgettext_lazy("engine refusal", "{player} holds no {tile}"),
    "the hand can't end as a win: {why}": pgettext_lazy("engine refusal", "the hand can't end as a win: {why}"),
    "{player}'s deal": pgettext_lazy("engine refusal", "{player}'s deal"),
    "rob the same kong": pgettext_lazy("engine refusal", "rob the same kong"),
    "win on the same discard": pgettext_lazy("engine refusal", "win on the same discard"),
    "unknown kong kind {kind!r}": pgettext_lazy("engine refusal", "unknown kong kind {kind!r}"),
    "the hand can't end as a win yet: the others play on until three have won or the wall runs out": pgettext_lazy("engine refusal", "the hand can't end as a win yet: the others play on until three have won or the wall runs out"),
    "unknown end reason {reason!r}": pgettext_lazy("engine refusal", "unknown end reason {reason!r}"),
    "the hand isn't exhausted: 1 tile is left": pgettext_lazy("engine refusal", "the hand isn't exhausted: 1 tile is left"),
    "nobody has won": pgettext_lazy("engine refusal", "nobody has won"),
    "the hand isn't exhausted: {n} tiles are left": pgettext_lazy("engine refusal", "the hand isn't exhausted: {n} tiles are left"),
    "the hand isn't exhausted: {why}": pgettext_lazy("engine refusal", "the hand isn't exhausted: {why}"),
    "all 136 tiles": pgettext_lazy("engine refusal", "all 136 tiles"),
    "no wildcards": pgettext_lazy("engine refusal", "no wildcards"),
    "rules must be an object of options": pgettext_lazy("engine refusal", "rules must be an object of options"),
    "the tiles don't form {n} sets and a pair": pgettext_lazy("engine refusal", "the tiles don't form {n} sets and a pair"),
    "no legal reading": pgettext_lazy("engine refusal", "no legal reading"),
    "unknown {variant} rules option {name!r} (known: {known})": pgettext_lazy("engine refusal", "unknown {variant} rules option {name!r} (known: {known})"),
    "rules option {name!r} must be one of {choices}, not {value!r}": pgettext_lazy("engine refusal", "rules option {name!r} must be one of {choices}, not {value!r}"),
    "rules option {name!r} must be true or false": pgettext_lazy("engine refusal", "rules option {name!r} must be true or false"),
    "rules option {name!r} must be an integer from {low} to {high}, not {value!r}": pgettext_lazy("engine refusal", "rules option {name!r} must be an integer from {low} to {high}, not {value!r}"),
    # the JSON parser's own sentences, shown after "the document is not valid JSON:"
    "Expecting property name enclosed in double quotes": pgettext_lazy("engine refusal", "Expecting property name enclosed in double quotes"),
    "Expecting ':' delimiter": pgettext_lazy("engine refusal", "Expecting ':' delimiter"),
    "Expecting ',' delimiter": pgettext_lazy("engine refusal", "Expecting ',' delimiter"),
    "Expecting value": pgettext_lazy("engine refusal", "Expecting value"),
    "Extra data": pgettext_lazy("engine refusal", "Extra data"),
    "Unterminated string starting at": pgettext_lazy("engine refusal", "Unterminated string starting at"),
    "Invalid \\escape": pgettext_lazy("engine refusal", "Invalid \\escape"),
    "Invalid \\uXXXX escape": pgettext_lazy("engine refusal", "Invalid \\uXXXX escape"),
    "Invalid control character at": pgettext_lazy("engine refusal", "Invalid control character at"),
    "Unterminated string": pgettext_lazy("engine refusal", "Unterminated string"),
    "Invalid control character": pgettext_lazy("engine refusal", "Invalid control character"),
    "it isn't {player}'s decision now": pgettext_lazy("engine refusal", "it isn't {player}'s decision now"),
    "only a person's seat can leave the table": pgettext_lazy("engine refusal", "only a person's seat can leave the table"),
    "{player} has left already": pgettext_lazy("engine refusal", "{player} has left already"),
    # Sichuan house rules at the table (SC-H1–SC-H3)
    "every player must first set aside three tiles of one suit (换三张)": pgettext_lazy("engine refusal", "every player must first set aside three tiles of one suit (换三张)"),
    "exchange tiles must be the three tiles set aside, like [\"2m\", \"5m\", \"9m\"], not {value}": pgettext_lazy("engine refusal", "exchange tiles must be the three tiles set aside, like [\"2m\", \"5m\", \"9m\"], not {value}"),
    "the hand can't end as a win: under 血流成河 it ends only when the wall is exhausted": pgettext_lazy("engine refusal", "the hand can't end as a win: under 血流成河 it ends only when the wall is exhausted"),
    "the hand's dice decide where the three tiles go (换三张), and this hand has none": pgettext_lazy("engine refusal", "the hand's dice decide where the three tiles go (换三张), and this hand has none"),
    "the three tiles of 换三张 are exchanged first: a leaver's charge (SC-6.6) is reckoned after it": pgettext_lazy("engine refusal", "the three tiles of 换三张 are exchanged first: a leaver's charge (SC-6.6) is reckoned after it"),
    "{player} can't discard {tile}: after a win their hand is locked (血流成河) and they discard the tile they drew, {drawn}": pgettext_lazy("engine refusal", "{player} can't discard {tile}: after a win their hand is locked (血流成河) and they discard the tile they drew, {drawn}"),
    "{player} can't exchange tiles now: each player sets aside three tiles once, right after the deal and before 定缺": pgettext_lazy("engine refusal", "{player} can't exchange tiles now: each player sets aside three tiles once, right after the deal and before 定缺"),
    "{player} can't exchange tiles: this table doesn't play 换三张 (the rules option exchange_three is off)": pgettext_lazy("engine refusal", "{player} can't exchange tiles: this table doesn't play 换三张 (the rules option exchange_three is off)"),
    "{player} can't name a void suit yet: with 换三张 every player first sets aside three tiles (next: {other})": pgettext_lazy("engine refusal", "{player} can't name a void suit yet: with 换三张 every player first sets aside three tiles (next: {other})"),
    "{player} can't set aside tiles yet: {other} is next (from the dealer in playing order)": pgettext_lazy("engine refusal", "{player} can't set aside tiles yet: {other} is next (from the dealer in playing order)"),
    "{player} can't set aside {tiles}: the three tiles must all be of one suit": pgettext_lazy("engine refusal", "{player} can't set aside {tiles}: the three tiles must all be of one suit"),
    "{player} can't set aside {tiles}: they hold {n} of {tile}": pgettext_lazy("engine refusal", "{player} can't set aside {tiles}: they hold {n} of {tile}"),
    "{player} can't {what} {tile}: after a win their hand is locked (血流成河) and makes no kong": pgettext_lazy("engine refusal", "{player} can't {what} {tile}: after a win their hand is locked (血流成河) and makes no kong"),
    "{player} can't {what}: after a win their hand is locked (血流成河) and claims nothing but wins": pgettext_lazy("engine refusal", "{player} can't {what}: after a win their hand is locked (血流成河) and claims nothing but wins"),
    # A hand recorded from one seat (games/records/seat_view.py, docs/recorder.md)
    "{player} can't have a {tile}: every tile they hold is accounted for": pgettext_lazy("engine refusal", "{player} can't have a {tile}: every tile they hold is accounted for"),
    "a {ordinal} copy of {tile} is seen: only {n} are in play": pgettext_lazy("engine refusal", "a {ordinal} copy of {tile} is seen: only {n} are in play"),
    "{player} can't pass three unseen tiles: every tile they hold is accounted for": pgettext_lazy("engine refusal", "{player} can't pass three unseen tiles: every tile they hold is accounted for"),
    "{player} shows {n} tiles, {left} fewer than they hold": pgettext_lazy("engine refusal", "{player} shows {n} tiles, {left} fewer than they hold"),
    "the hand has more tiles than the game": pgettext_lazy("engine refusal", "the hand has more tiles than the game"),
    "three unseen tiles of one suit can't be found": pgettext_lazy("engine refusal", "three unseen tiles of one suit can't be found"),
    "the three passed tiles are all seen or all unseen (?)": pgettext_lazy("engine refusal", "the three passed tiles are all seen or all unseen (?)"),
    "only another player's hu has the field hand (the tiles the winner lays down)": pgettext_lazy("engine refusal", "only another player's hu has the field hand (the tiles the winner lays down)"),
    "hu by another player needs the field hand: the tiles the winner lays down besides the winning tile": pgettext_lazy("engine refusal", "hu by another player needs the field hand: the tiles the winner lays down besides the winning tile"),
    "only end has the field hands": pgettext_lazy("engine refusal", "only end has the field hands"),
    "{where} is in sight of the recorder: an unseen tile (?) stands only for another player's deal, draw or passed tiles": pgettext_lazy("engine refusal", "{where} is in sight of the recorder: an unseen tile (?) stands only for another player's deal, draw or passed tiles"),
    "the recorder's own deal": pgettext_lazy("engine refusal", "the recorder's own deal"),
    "a {type}'s tile": pgettext_lazy("engine refusal", "a {type}'s tile"),
    "tiles passed by or to the recorder": pgettext_lazy("engine refusal", "tiles passed by or to the recorder"),
    "a {type}'s tiles": pgettext_lazy("engine refusal", "a {type}'s tiles"),
    "{name} must be an array of at most {n} tiles": pgettext_lazy("engine refusal", "{name} must be an array of at most {n} tiles"),
    "{name}: {tile} is not a {variant} tile": pgettext_lazy("engine refusal", "{name}: {tile} is not a {variant} tile"),
    "hands must be four entries, seat 0 first: the tiles a seat shows, or null": pgettext_lazy("engine refusal", "hands must be four entries, seat 0 first: the tiles a seat shows, or null"),
    "hands: the recorder's own tiles are known; write null for them": pgettext_lazy("engine refusal", "hands: the recorder's own tiles are known; write null for them"),
    "view": pgettext_lazy("engine refusal", "view"),
    "this game passes no tiles": pgettext_lazy("engine refusal", "this game passes no tiles"),
}

_VARIANTS: dict[str, Promise] = {
    "jiaxing": pgettext_lazy("variant name", "Jiaxing"),
    "putian": pgettext_lazy("variant name", "Putian"),
    "sichuan": pgettext_lazy("variant name", "Sichuan"),
}


def catalogue_key(template: str) -> str:
    """The key of a template in :data:`CATALOGUE`: a score's reason loses its rule id,
    as the table's refusal shows it (``"JX-5.3: needs …"`` → ``"needs …"``).

    >>> catalogue_key("{rule}: no legal reading"), catalogue_key("{player} has left the table")
    ('no legal reading', '{player} has left the table')
    """
    return _RULE.sub("", template)


def render(message: str) -> str:
    """An engine message in the reader's language; a message not in the catalogue (a
    sentence the site wrote, already translated) comes back as it is.

    >>> render(Message("{player} holds no {tile}", player="Dana", tile=Tile.parse("4m")))
    'Dana holds no 4 Characters'
    >>> render("the file is empty")
    'the file is empty'
    """
    template, params = template_of(message)
    found = CATALOGUE.get(template)
    if found is None:
        return engine_text.translate(str(message))
    return str(found).format(**{name: _param(name, value) for name, value in params.items()})


def to_json(message: str) -> Any:
    """A message as JSON that keeps its template and parameters, to be shown later in the
    reader's language (a refusal written by a worker, read on the upload's page): a plain
    string stays one; tiles, runs of tiles and nested messages are marked.

    >>> data = to_json(Message("{player} holds no {tile}", player="Dana", tile=Tile.parse("4m")))
    >>> data
    {'template': '{player} holds no {tile}', 'params': {'player': 'Dana', 'tile': {'tile': '4m'}}}
    >>> from_json(data) == "Dana holds no 4m" and render(from_json(data))
    'Dana holds no 4 Characters'
    """
    if not isinstance(message, Message):
        return str(message)
    return {"template": message.template,
            "params": {name: _param_to_json(value) for name, value in message.params.items()}}


def _param_to_json(value: Any) -> Any:
    if isinstance(value, Message):
        return {"message": to_json(value)}
    if isinstance(value, Tile):
        return {"tile": str(value)}
    if isinstance(value, tuple) and value and all(isinstance(t, Tile) for t in value):
        return {"tiles": [str(t) for t in value]}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return {"text": str(value)}  # anything else as the English sentence wrote it


def from_json(data: Any) -> str:
    """The message :func:`to_json` kept (a :class:`Message` again, for :func:`render`)."""
    if not isinstance(data, dict):
        return str(data)
    return Message(str(data["template"]),
                   **{name: _param_from_json(value) for name, value in data["params"].items()})


def _param_from_json(value: Any) -> Any:
    if not isinstance(value, dict):
        return value
    if "message" in value:
        return from_json(value["message"])
    if "tile" in value:
        return Tile.parse(value["tile"])
    if "tiles" in value:
        return tuple(Tile.parse(tile) for tile in value["tiles"])
    return str(value.get("text", ""))


def refusal(rule: str | None, message: str) -> str:
    """A refusal as the play table shows it: the rule id, then the sentence."""
    text = render(message)
    return f"{rule}: {text}" if rule else text


def _param(name: str, value: Any) -> Any:
    if isinstance(value, Message):
        return render(value)
    if isinstance(value, Tile):
        return tile_name(str(value))
    if isinstance(value, tuple) and value and all(isinstance(t, Tile) for t in value):
        return "".join(tile_name(str(t)) for t in value)
    if isinstance(value, str):
        if name in ("variant", "owner") and value.lower() in _VARIANTS:
            return str(_VARIANTS[value.lower()])
        if name == "wind":
            return wind_name(value)
        if name == "suit":
            return suit_name(value)
        if name in ("reason", "detail"):
            found = CATALOGUE.get(value)
            return str(found) if found is not None else engine_text.translate(value)
    return value
