"""Lookups whose SQL the ORM builds once per database connection, then runs with new values.

Building and compiling a queryset costs Django about a quarter of a millisecond here, three
times what PostgreSQL takes to answer a lookup by key. A replay step makes such a lookup on
every request (its match, then its stored decisions), so those two are prepared: the
queryset is built and compiled once with sample values, and each call runs the same SQL with
its own values, converts the row with the same converters and makes the instance as the
ORM does (``Model.from_db``). Queries still go through the connection's cursor, so they are
counted, logged and wrapped like any other.

>>> from replays.models import Match
>>> by_id = Prepared(lambda public_id: Match.objects.filter(public_id=public_id).only(
...     "public_id", "variant"), "sample-id")
>>> by_id.sql_of(Match.objects.db).startswith('SELECT "replays_match"."id"')
True
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model, QuerySet

M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class _Plan:
    sql: str
    params: tuple[Any, ...]
    slots: tuple[int, ...]  # where each value goes in ``params``
    attnames: tuple[str, ...]
    columns: slice  # the model's columns in a row
    converters: tuple[tuple[int, tuple[Callable[..., Any], ...], Any], ...]


class Prepared(Generic[M]):
    """``build(*samples)`` is the queryset; ``first(*values)`` runs it with ``values`` in the
    samples' places and returns its first instance (or None).

    The samples must be values the fields accept (an integer out of a field's range compiles
    to no query at all), distinct and unlike every other parameter of the query, so each
    can be found among the compiled parameters; the query may not slice or annotate.
    """

    def __init__(self, build: Callable[..., QuerySet[M]], *samples: Any) -> None:
        self.build = build
        self.samples = samples
        self._queryset: QuerySet[M] | None = None  # built once, never evaluated
        self._plans: weakref.WeakKeyDictionary[BaseDatabaseWrapper, _Plan] = (
            weakref.WeakKeyDictionary())

    def first(self, *values: Any) -> M | None:
        queryset = self._built()
        connection = connections[queryset.db]
        plan = self._plans.get(connection) or self._plan(queryset, connection)
        params = list(plan.params)
        for slot, value in zip(plan.slots, values, strict=True):
            params[slot] = value
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            row = cursor.fetchone()
        if row is None:
            return None
        row = list(row)
        for position, functions, expression in plan.converters:
            for convert in functions:
                row[position] = convert(row[position], expression, connection)
        model: type[M] = queryset.model
        return model.from_db(queryset.db, list(plan.attnames), row[plan.columns])

    def sql_of(self, alias: str) -> str:
        """The SQL this lookup runs on the database ``alias``."""
        return self._plan(self._built(), connections[alias]).sql

    def _built(self) -> QuerySet[M]:
        if self._queryset is None:
            self._queryset = self.build(*self.samples)
        return self._queryset

    def _plan(self, queryset: QuerySet[M], connection: BaseDatabaseWrapper) -> _Plan:
        compiler = queryset.query.chain().get_compiler(connection=connection)
        try:
            sql, params = compiler.as_sql()
        except EmptyResultSet:
            raise ValueError("this lookup compiles to no query at all (is a sample outside "
                             "its field's range?)") from None
        slots = tuple(_only_slot(params, sample) for sample in self.samples)
        info = compiler.klass_info
        if info is None or compiler.annotation_col_map:
            raise ValueError("a prepared lookup reads one model's columns, nothing else")
        start, end = info["select_fields"][0], info["select_fields"][-1] + 1
        selected = [column for column, _sql, _alias in compiler.select]
        converters = compiler.get_converters(selected)
        plan = _Plan(
            sql=sql,
            params=tuple(params),
            slots=slots,
            attnames=tuple(column.target.attname for column in selected[start:end]),
            columns=slice(start, end),
            converters=tuple((position, tuple(functions), expression)
                             for position, (functions, expression) in converters.items()),
        )
        self._plans[connection] = plan
        return plan


def _only_slot(params: tuple[Any, ...] | list[Any], sample: Any) -> int:
    slots = [i for i, param in enumerate(params) if param == sample]
    if len(slots) != 1:
        raise ValueError(f"sample {sample!r} is found {len(slots)} times in the query's "
                         "parameters (it must be once)")
    return slots[0]
