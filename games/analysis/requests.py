"""``value`` requests (ENGINE-CLI.md): a position for the solo model, or a point in a log
for either model, read and answered by :mod:`games.analysis.value` (the solo model) or
:mod:`games.analysis.value_table` (the table model, and the solo model at a log point)."""

from __future__ import annotations

from typing import Any

from games.analysis.value import ValueInputError, solo_values
from games.analysis.value_table import log_values
from games.variants.positions import read_position

REQUEST_FIELDS = frozenset({"draws_left", "model", "samples", "seed"})
LOG_FIELDS = frozenset({"log", "hand", "event", "seat", "model", "samples", "seed",
                        "draws_left"})



def value_json(data: Any) -> dict[str, Any]:
    """``value`` of one request object (raises PositionError)."""
    if not isinstance(data, dict):
        raise ValueInputError("a value request must be a JSON object")
    model = data.get("model", "solo")
    if model not in ("solo", "table"):
        raise ValueInputError(f"model must be solo or table, not {model!r}")
    samples = _optional_int(data, "samples")
    seed = _optional_int(data, "seed") or 0
    if "log" in data:
        unknown = sorted(set(data) - LOG_FIELDS)
        if unknown:
            raise ValueInputError(f"unknown field {unknown[0]!r} in a value request on a log")
        return log_values(data, model, samples, seed).to_json()
    if model == "table":
        raise ValueInputError("the table model needs a point in a log: "
                              "{\"log\": ..., \"hand\": H, \"event\": E, \"seat\": S}")
    position = read_position({k: v for k, v in data.items() if k not in REQUEST_FIELDS})
    draws_left = _optional_int(data, "draws_left")
    if draws_left is None:
        raise ValueInputError("the solo model needs draws_left: the tiles still to draw")
    return solo_values(position, draws_left, samples, seed).to_json()


def _optional_int(data: dict[str, Any], name: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueInputError(f"{name!r} must be an integer, not {value!r}")
    return value
