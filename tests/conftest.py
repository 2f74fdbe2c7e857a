"""Shared test helpers."""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

# Workers the tests start (with the site's own settings) don't run the values pass after
# annotating unless a test asks (tests/test_value_pass.py): it would keep them busy.
os.environ.setdefault("VALUES_AFTER_ANNOTATION", "false")

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
T = TypeVar("T")

# -- `make test-engine`: the engine's tests alone, without Django or a database ----------

SITE_IMPORT = re.compile(r"^\s*(?:from|import)\s+(?:django|pytest_django|replays|mahjong_site)\b",
                         re.M)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--engine-only", action="store_true",
                     help="collect only the test files that import nothing of Django or the "
                          "site (the engine's tests; run with -p no:django)")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With --engine-only, skip every test file that imports Django or the site, or drives
    it in a browser (the ``live_server`` fixture)."""
    if not config.getoption("engine_only") or collection_path.suffix != ".py":
        return None
    if not collection_path.name.startswith("test_"):
        return None
    text = collection_path.read_text(encoding="utf-8")
    return bool(SITE_IMPORT.search(text) or "live_server" in text) or None


def find_shared_rules() -> Path | None:
    """The project's shared rules folder (beside the checkout, or named by SHARED_RULES),
    or None where there is none (safe while tests are collected)."""
    named = os.environ.get("SHARED_RULES")
    if named:
        return Path(named)
    for candidate in (ROOT.parent / "shared" / "rules", ROOT / "shared" / "rules"):
        if candidate.is_dir():
            return candidate
    return None


def shared_rules() -> Path:
    """:func:`find_shared_rules`, skipping the test where there is none."""
    found = find_shared_rules()
    if found is None:
        pytest.skip("the shared rules folder is not beside this checkout")
    assert found is not None
    return found


@pytest.fixture(scope="session")
def examples() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(
        (shared_rules() / "examples.json").read_text(encoding="utf-8"))
    return data


# -- the site: users and stored matches ----------------------------------------------
#
# alice owns matches, bob is another logged-in user, charlie is anonymous (the bare test
# client), staff is a staff user. Log the users in with ``client.force_login(alice)``.
# Their passwords are unusable (hashing one takes half a second); a test that logs in
# with a password sets PASSWORD first with ``with_password(user)``.

PASSWORD = "a-long-enough-secret-42"


def with_password(user: Any) -> Any:
    user.set_password(PASSWORD)
    user.save(update_fields=["password"])
    return user


@pytest.fixture
def alice(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("alice", "alice@example.org")


@pytest.fixture
def bob(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("bob", "bob@example.org")


@pytest.fixture
def charlie(client: Any) -> Any:
    """Charlie is anonymous: the test client, never logged in."""
    return client


@pytest.fixture
def staff(django_user_model: Any) -> Any:
    """A staff user allowed to see private and hidden replays (``view_private_match``)."""
    from django.contrib.auth.models import Permission

    user = django_user_model.objects.create_user("sam", "sam@example.org", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_private_match"))
    return user


@pytest.fixture
def plain_staff(django_user_model: Any) -> Any:
    """A staff user without ``view_private_match``: sees what everyone sees."""
    return django_user_model.objects.create_user("pat", "pat@example.org", is_staff=True)


_BOT_MATCHES: dict[tuple[str, int, int, str | None], Any] = {}


def _bot_match(variant: str, hands: int, seed: int, preset: str | None = None) -> Any:
    """The bots' match for these seeds (and the rules of the variant's ``preset``), played
    once per process."""
    from games.bots.simulation import simulate
    from games.variants.registry import variant_named

    key = (variant, hands, seed, preset)
    if key not in _BOT_MATCHES:
        rules = variant_named(variant).PRESETS[preset].rules if preset else None
        _BOT_MATCHES[key] = simulate(variant, hands, seed, rules=rules)
    return _BOT_MATCHES[key]


def bot_document(seed: int, *, variant: str = "sichuan", hands: int = 1,
                 preset: str | None = None, **changes: Any) -> bytes:
    """A valid ``mahjong-log/1`` document played by the bots, as uploaded bytes.

    Different seeds give different documents; ``changes`` replace fields of the
    match (``players`` as a 4-tuple, ``title``, ``played_at``).
    """
    import dataclasses

    from games.records.log import dumps

    match = _bot_match(variant, hands, seed, preset)
    if changes:
        match = dataclasses.replace(match, **changes)
    return dumps(match).encode()


_PRICED: dict[str, Any] = {}


@pytest.fixture
def values_priced_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The site's values pass prices each hand once per test process: a test valuing a
    hand (its setup and events, the annotation's decisions, the seats, seed and samples)
    that an earlier test of the process valued gets a copy of that result instead of
    playing the same Monte Carlo out again.

    The engine's pass is a function of exactly those inputs (each decision is seeded by
    its hand, event and seat: games/analysis/value_pass.py), so the copy is what it would
    compute; the first test to ask computes it for real, and the engine's own tests call
    the pass directly, never through this. A test replacing ``values.compute`` (a failing
    pass) still replaces all of it."""
    import copy
    import hashlib

    from replays.annotation import values

    price = values.price_hand

    def priced_once(table: Any, events: Any, hand: int, decisions: Any, seats: Any,
                    **options: Any) -> Any:
        key = hashlib.sha256(repr((
            table.setup, tuple(events), hand, json.dumps(decisions, sort_keys=True),
            sorted(seats), sorted(options.items()))).encode()).hexdigest()
        if key not in _PRICED:
            _PRICED[key] = price(table, events, hand, decisions, seats, **options)
        return copy.deepcopy(_PRICED[key])

    monkeypatch.setattr(values, "price_hand", priced_once)


@pytest.fixture
def make_match(db: None) -> Any:
    """``make_match(owner, visibility=..., title=..., hidden=..., seed=..., variant=...,
    hands=..., players=..., played_at=...)``: a match stored as an upload would be.

    Without a seed, each call in a test plays a new one (from 1000 on), so documents differ.
    """
    import itertools

    from replays.matches.services import store_document
    from replays.models import Match

    seeds = itertools.count(1000)

    def make(owner: Any = None, *, visibility: str = "public", title: str = "",
             hidden: bool = False, seed: int | None = None, variant: str = "sichuan",
             hands: int = 1, **changes: Any) -> Match:
        raw = bot_document(next(seeds) if seed is None else seed, variant=variant,
                           hands=hands, **changes)
        match = store_document(raw, owner=owner, visibility=visibility, title=title)
        if hidden:
            match.hidden = True
            match.save(update_fields=["hidden"])
        return match

    return make


# -- browser tests (Playwright driving Debian's Chromium) ---------------------------------

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    """Debian's Chromium (``make browser``); Playwright cannot download its own here."""
    import os

    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium)")
    return {
        "executable_path": CHROMIUM,
        "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """English pages whatever the machine's locale (the site follows Accept-Language)."""
    return {**browser_context_args, "locale": "en-US"}


# -- waiting, brokers and browser artifacts (shared by the operations and browser tests) --


def wait_for(predicate: Callable[[], T], timeout: float, what: str,
             context: Callable[[], str] = lambda: "", interval: float = 0.05) -> T:
    """Poll ``predicate`` until it returns something true; fail after ``timeout`` seconds,
    with ``context()`` (a worker's log, say) in the message."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:.0f}s waiting for {what}\n{context()}")
        time.sleep(interval)


def forget_connections(app: Any) -> None:
    """Drop the broker connection pools so the next send connects to ``broker_url`` now."""
    from kombu import pools

    app._pool = None
    with contextlib.suppress(AttributeError, KeyError):
        app.__dict__["amqp"]._producer_pool = None
    pools.reset()  # closes and forgets kombu's pools (keyed by connection)


def redis_or_skip(url: str, **options: Any) -> Any:
    """A Redis client that answered a ping, or skip the test naming the URL and the error."""
    import redis

    client = redis.Redis.from_url(url, **options)
    try:
        client.ping()
    except Exception as error:  # noqa: BLE001 - any failure means: no Redis to test with
        client.close()
        pytest.skip(f"Redis is unreachable at {url} ({type(error).__name__}: {error})")
    return client


def remove_queue_keys(client: Any, token: str) -> None:
    """Remove a test's private queue, its bindings and unacknowledged messages from Redis."""
    for key in client.scan_iter(match=f"*{token}*"):
        client.delete(key)
    for key in client.scan_iter(match="_kombu.binding.*"):
        for member in client.smembers(key):
            if token.encode() in member:
                client.srem(key, member)
    for tag, value in client.hgetall("unacked").items():
        if token.encode() in value:
            client.hdel("unacked", tag)
            client.zrem("unacked_index", tag)


@contextlib.contextmanager
def configured_broker(url: str) -> Iterator[None]:
    """The site configured with a broker (tasks are no longer run in-process)."""
    from mahjong_site.celery import app

    saved = {key: app.conf[key] for key in ("task_always_eager", "broker_url")}
    app.conf.update(task_always_eager=False, broker_url=url)
    try:
        yield
    finally:
        app.conf.update(saved)


@pytest.fixture
def artifacts() -> Path:
    """Where browser tests leave their screenshots (ignored by git)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
