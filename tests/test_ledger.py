"""``/ledger/`` (issue 30): a game at a real table, a row per hand, each settled by the engine's
rules (Sichuan's three winners and exhausted hand with 查花猪/查大叫, Jiaxing's tai and fan,
Putian's flowers); totals, the fewest transfers, undo; the read-only share link; rows sent
twice stored once; the guest's device key; limits; Chinese pages."""

from __future__ import annotations

import re
import sys
from typing import Any

import pytest
from django.test import Client, override_settings
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.recorded import RecordedHand, RecordedKong, RecordedWin
from games.core.settlement import SettlementError, deltas_of, fewest_transfers
from games.variants.registry import VARIANTS
from replays.models.ledger import Ledger, LedgerRow

from .test_chinese_pages import ZH, problems_of
from .test_site_i18n_complete import english_sentences

NAMES = ["Ann", "Bo", "Cy", "Di"]
Sichuan = VARIANTS["sichuan"]


# -- the engine: a recorded hand, the fewest transfers -----------------------------------


def test_it_settles_a_three_winner_sichuan_hand_as_the_rules_say() -> None:
    # Bo self-draws 2 fan (2 from each of three), Di wins 3 fan on Ann's discard (4 from Ann),
    # then Cy self-draws 1 fan from Ann, the only other player still in (SC-3.2, SC-6.1, 6.2).
    hand = RecordedHand(wins=(RecordedWin(1, fan=2), RecordedWin(3, 0, fan=3),
                              RecordedWin(2, fan=1)))
    lines = Sichuan.recorded_lines(hand, {})
    assert [(p.rule, p.payer, p.payee, p.amount) for p in lines] == [
        ("SC-6.2", 0, 1, 2), ("SC-6.2", 2, 1, 2), ("SC-6.2", 3, 1, 2),
        ("SC-6.1", 0, 3, 4), ("SC-6.2", 0, 2, 1)]
    assert deltas_of(lines) == [-7, 6, -1, 2]


def test_it_settles_an_exhausted_sichuan_hand_with_flower_pigs_and_ready_players() -> None:
    # Ann wins first; Bo is a 花猪 (pays the cap, 8, to Cy and Di), Cy is ready for 3 fan
    # (4 points from Di, not ready), Di's concealed kong (paid by all three) goes back.
    hand = RecordedHand(wins=(RecordedWin(0, 1, fan=1),), kongs=(RecordedKong(3, "concealed"),),
                        flower_pigs=frozenset({1}), ready_fan={2: 3})
    lines = Sichuan.recorded_lines(hand, {})
    rules = [p.rule for p in lines]
    assert rules == ["SC-6.3"] * 3 + ["SC-6.1"] + ["SC-6.4a"] * 2 + ["SC-6.4b"] + ["SC-6.4c"] * 3
    assert deltas_of(lines) == [1, -17, 12, 4]


def test_it_counts_the_cap_and_the_chengdu_self_draw_base() -> None:
    chengdu = {k: v for k, v in Sichuan.PRESETS["chengdu"].rules.items() if k in Sichuan.OPTIONS}
    win = RecordedHand(wins=(RecordedWin(0, fan=6),))
    assert deltas_of(Sichuan.recorded_lines(win, {})) == [24, -8, -8, -8]  # capped at 4 fan
    assert deltas_of(Sichuan.recorded_lines(win, chengdu)) == [27, -9, -9, -9]  # SC-H4


def test_it_refuses_what_no_hand_can_be_naming_the_rule() -> None:
    four = RecordedHand(wins=tuple(RecordedWin(s, fan=1) for s in range(4)))
    again = RecordedHand(wins=(RecordedWin(1, fan=1), RecordedWin(1, fan=1)))
    winner_checked = RecordedHand(wins=(RecordedWin(1, fan=1),), ready_fan={1: 2})
    for hand, rule in ((four, "SC-3.2"), (again, "SC-3.2"), (winner_checked, "SC-6.4")):
        with pytest.raises(SettlementError) as refused:
            Sichuan.recorded_lines(hand, {})
        assert refused.value.rule == rule
    with pytest.raises(SettlementError, match="JX-5.1"):
        VARIANTS["jiaxing"].recorded_lines(RecordedHand(wins=(RecordedWin(0), RecordedWin(1))),
                                           {})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-500, 500), min_size=1, max_size=7))
def test_it_settles_every_balance_in_at_most_n_minus_one_transfers(values: list[int]) -> None:
    balances = [*values, -sum(values)]
    transfers = fewest_transfers(balances)
    left = list(balances)
    for transfer in transfers:
        assert transfer.amount > 0 and transfer.payer != transfer.payee
        left[transfer.payer] += transfer.amount
        left[transfer.payee] -= transfer.amount
    assert left == [0] * len(balances)
    assert len(transfers) <= max(sum(1 for b in balances if b) - 1, 0)


def test_it_finds_fewer_transfers_than_a_greedy_settling_when_pairs_cancel() -> None:
    assert len(fewest_transfers([6, -6, 5, -5])) == 2
    assert len(fewest_transfers([7, 3, -4, -6])) == 3


# -- the site -------------------------------------------------------------------------

def create(client: Client, variant: str = "sichuan", preset: str = "", **extra: Any) -> Ledger:
    data = {"variant": variant, "preset": preset, "base": "1",
            **{f"name{s}": n for s, n in enumerate(NAMES)}, **extra}
    response = client.post("/ledger/new", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    ledger = Ledger.objects.order_by("-id").first()
    assert ledger is not None and response["Location"] == ledger.get_absolute_url()
    return ledger


def add(client: Client, ledger: Ledger, client_id: str, **fields: Any) -> Any:
    return client.post(f"/ledger/{ledger.public_id}/rows", {"client_id": client_id, **fields},
                       HTTP_ACCEPT="application/json")


def text(response: Any) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


EIGHT_HANDS: list[dict[str, str]] = [
    {"w1": "0", "w1_from": "1", "w1_fan": "2"},
    {"w1": "1", "w1_from": "self", "w1_fan": "3", "w2": "2", "w2_from": "3", "w2_fan": "1",
     "w3": "3", "w3_from": "self", "w3_fan": "2", "k1": "0", "k1_kind": "concealed"},
    {"w1": "2", "w1_from": "self", "w1_fan": "4"},
    {"x0": "pig", "x1": "ready", "x1_fan": "2", "x2": "ready", "x2_fan": "1", "k1": "3",
     "k1_kind": "exposed", "k1_from": "2"},
    {"w1": "3", "w1_from": "0", "w1_fan": "1"},
    {"w1": "0", "w1_from": "self", "w1_fan": "2", "w2": "1", "w2_from": "2", "w2_fan": "2"},
    {"w1": "1", "w1_from": "3", "w1_fan": "5"},
    {"w1": "2", "w1_from": "0", "w1_fan": "2"},
]


@pytest.mark.django_db
def test_it_keeps_an_eight_hand_sichuan_ledger_settled_by_the_engine(client: Client,
                                                                       alice: Any) -> None:
    client.force_login(alice)
    ledger = create(client, preset="sichuan:chengdu")
    assert ledger.owner == alice and ledger.rules["self_draw_bonus"] == "base"
    for number, fields in enumerate(EIGHT_HANDS, start=1):
        response = add(client, ledger, f"row-{number:04d}", **fields)
        assert response.status_code == 201, response.content
        assert response.json()["saved"] == number
    from replays.ledger import rows

    records = list(ledger.rows.values_list("number", "record"))
    view = rows.work_out(Sichuan, ledger.rules, NAMES, records)
    expected = [0, 0, 0, 0]
    for record in (r for _n, r in records):
        deltas = deltas_of(Sichuan.recorded_lines(rows.hand_of(record), ledger.rules))
        expected = [t + d for t, d in zip(expected, deltas, strict=True)]
    assert view.totals == expected and sum(expected) == 0
    exhausted = view.rows[3]
    assert {line.rule for line in exhausted.lines} >= {"SC-6.3", "SC-6.4a", "SC-6.4b",
                                                       "SC-6.4c"}
    three = view.rows[1]
    assert len(three.record["wins"]) == 3
    page = client.get(ledger.get_absolute_url())
    body = page.content.decode()
    assert page.status_code == 200
    assert "<svg" in body and 'href="/rules/sichuan/#SC-6.4a"' in body.replace("%20", "")
    for transfer in view.transfers:
        assert f"{NAMES[transfer.payer]} pays {NAMES[transfer.payee]} {transfer.amount}" in \
            text(page)
    assert len(view.transfers) <= 3


@pytest.mark.django_db
def test_it_settles_jiaxing_and_putian_rows(client: Client) -> None:
    jiaxing = create(client, variant="jiaxing", base="5")
    assert add(client, jiaxing, "jx-000001", w1="2", w1_from="self", w1_tai="3",
               w1_fan="1").status_code == 201
    refused = add(client, jiaxing, "jx-000002", w1="2", w1_from="self", w1_tai="x")
    assert refused.status_code == 400 and "tai" in refused.json()["error"]
    putian = create(client, variant="putian")
    assert add(client, putian, "pt-000001", w1="2", w1_from="1", dealer="0", streak="0",
               fl0="6", fl1="2", fl2="3", fl3="1").status_code == 201
    from replays.ledger import rows

    jx = rows.work_out(VARIANTS["jiaxing"], jiaxing.rules, NAMES,
                       list(jiaxing.rows.values_list("number", "record")))
    assert jx.totals == [-30, -30, 90, -30]  # 5 底 × 3 台 × 2¹ from each (JX-10.1)
    pt = rows.work_out(VARIANTS["putian"], putian.rules, NAMES,
                       list(putian.rows.values_list("number", "record")))
    assert pt.totals == [-1, -11, 26, -14]  # the seed's 算花 example (PT-7.2, PT-7.4)


@pytest.mark.django_db
def test_it_stores_a_row_sent_twice_once(client: Client) -> None:
    ledger = create(client)
    first = add(client, ledger, "same-id-123", w1="0", w1_from="1", w1_fan="1")
    again = add(client, ledger, "same-id-123", w1="0", w1_from="1", w1_fan="1")
    assert first.status_code == 201 and again.status_code == 200
    assert again.json() == {"saved": 1, "client_id": "same-id-123", "duplicate": True}
    assert LedgerRow.objects.filter(ledger=ledger).count() == 1


@pytest.mark.django_db
def test_it_undoes_only_the_last_row(client: Client) -> None:
    ledger = create(client)
    without_script = client.post(f"/ledger/{ledger.public_id}/rows", {
        "client_id": "undo-000001", "w1": "0", "w1_from": "1", "w1_fan": "1"})
    assert without_script.status_code == 302
    assert without_script["Location"] == f"/ledger/{ledger.public_id}/#row-1"
    add(client, ledger, "undo-000002", w1="1", w1_from="self", w1_fan="1")
    stale = client.post(f"/ledger/{ledger.public_id}/undo", {"row": "1"})
    assert stale.status_code == 400 and "Only the last row" in text(stale)
    assert client.post(f"/ledger/{ledger.public_id}/undo", {"row": "2"}).status_code == 302
    assert list(ledger.rows.values_list("number", flat=True)) == [1]
    twice = client.post(f"/ledger/{ledger.public_id}/undo", {"row": "2"})
    assert twice.status_code == 400 and ledger.rows.count() == 1


@pytest.mark.django_db
def test_it_shares_a_read_only_link_that_charlie_cannot_write_through(
        client: Client, alice: Any) -> None:
    client.force_login(alice)
    ledger = create(client)
    add(client, ledger, "share-00001", w1="0", w1_from="1", w1_fan="2")
    charlie = Client()
    shared = charlie.get(f"/ledger/s/{ledger.share_token}/")
    assert shared.status_code == 200 and "Ann" in text(shared)
    assert 'id="row-form"' not in shared.content.decode()
    assert f"/ledger/s/{ledger.share_token}/ws" in shared.content.decode()
    assert charlie.get(ledger.get_absolute_url()).status_code == 403
    refused = add(charlie, ledger, "charlie-0001", w1="1", w1_from="self", w1_fan="1")
    assert refused.status_code == 403
    assert charlie.post(f"/ledger/{ledger.public_id}/undo", {"row": "1"}).status_code == 403
    assert ledger.rows.count() == 1
    assert charlie.get("/ledger/s/not-a-token/").status_code == 404


@pytest.mark.django_db
def test_it_keeps_a_guests_ledger_under_the_device_key(client: Client, alice: Any) -> None:
    ledger = create(client)
    assert ledger.owner is None and len(ledger.device) >= 20
    assert client.cookies["ledger_device"].value == ledger.device
    assert client.get(ledger.get_absolute_url()).status_code == 200
    assert "Ann · Bo · Cy · Di" in text(client.get("/ledger/"))
    other_device = Client()
    assert other_device.get(ledger.get_absolute_url()).status_code == 403
    client.force_login(alice)  # the guest logs in on the same device: still theirs
    assert "Ann · Bo · Cy · Di" in text(client.get("/ledger/"))
    assert add(client, ledger, "guest-in-001", w1="0", w1_from="1",
               w1_fan="1").status_code == 201


@pytest.mark.django_db
def test_it_refuses_bad_rows_with_a_400_naming_the_problem(client: Client) -> None:
    ledger = create(client)
    cases = [
        ({"w1": "0", "w1_from": "0", "w1_fan": "1"}, "own discard"),
        ({"w1": "0", "w1_from": "1", "w1_fan": "0"}, "fan"),
        ({"w1": "7", "w1_from": "1", "w1_fan": "1"}, "four players"),
        ({"w2": "1", "w2_from": "self", "w2_fan": "1"}, "first win"),
        ({"w1": "0", "w1_from": "1", "w1_fan": "1", "x0": "ready", "x0_fan": "2"}, "SC-6.4"),
        ({"k1": "1", "k1_kind": "exposed"}, "SC-6.3"),
        ({"w1": "1", "w1_from": "self", "w1_fan": "1", "w2": "1", "w2_from": "self",
          "w2_fan": "1"}, "SC-3.2: Bo has already won"),
    ]
    for fields, named in cases:
        response = add(client, ledger, f"bad-{len(named):03d}-{named[:4]}", **fields)
        assert response.status_code == 400, fields
        assert named in response.json()["error"], (fields, response.json())
    assert ledger.rows.count() == 0
    twice = {"w1": "1", "w1_from": "self", "w1_fan": "1", "w2": "1", "w2_fan": "1"}
    chinese = client.post(f"/ledger/{ledger.public_id}/rows", {"client_id": "zh-twice-01",
                          **twice}, HTTP_ACCEPT="application/json", **ZH)
    assert chinese.json()["error"] == "规则不允许这一局：SC-3.2: Bo 已经和牌离场"
    page = client.post(f"/ledger/{ledger.public_id}/rows",
                       {"client_id": "no-js-000001", "w1": "0", "w1_from": "0", "w1_fan": "1"})
    assert page.status_code == 400 and "own discard" in text(page)
    missing = client.post(f"/ledger/{ledger.public_id}/rows", {"w1": "0", "w1_fan": "1"})
    assert missing.status_code == 400
    assert client.post("/ledger/new", {"variant": "mahjong"}).status_code == 400
    names = client.post("/ledger/new", {"variant": "sichuan", "name0": "A", "name1": "A",
                                        "name2": "B", "name3": "C"})
    assert names.status_code == 400 and "different names" in text(names)


@pytest.mark.django_db
@override_settings(LEDGER_MAX_ROWS=2, LEDGER_MAX_PER_OWNER=1)
def test_it_bounds_rows_and_ledgers(client: Client) -> None:
    ledger = create(client)
    add(client, ledger, "full-000001", w1="0", w1_from="1", w1_fan="1")
    add(client, ledger, "full-000002", w1="0", w1_from="1", w1_fan="1")
    full = add(client, ledger, "full-000003", w1="0", w1_from="1", w1_fan="1")
    assert full.status_code == 400 and "2 rows, the most" in full.json()["error"]
    second = client.post("/ledger/new", {"variant": "sichuan",
                                         **{f"name{s}": n for s, n in enumerate(NAMES)}})
    assert second.status_code == 400 and "You already keep 1 ledger," in text(second)
    assert Ledger.objects.count() == 1


@pytest.mark.django_db
def test_it_takes_the_score_back_from_the_scorer(client: Client) -> None:
    ledger = create(client)
    page = client.get(ledger.get_absolute_url()).content.decode()
    link = re.search(r'href="(/score/\?[^"]*ledger=[^"]*)"', page)
    assert link is not None
    scored = client.get(link.group(1).replace("&amp;", "&")
                        + "&h=11223344556677p&w=7p&how=self_draw&seat=S&void=m")
    markup = scored.content.decode()
    back = re.search(r'href="(/ledger/[^"]+\?fan=(\d+)[^"]*)"', markup)
    assert back is not None and back.group(2) == "4"
    form = client.get(back.group(1).replace("&amp;", "&")).content.decode()
    assert 'name="w1_fan" value="4"' in form


@pytest.mark.django_db
def test_it_reads_as_chinese(client: Client) -> None:
    ledger = create(client)
    for number, fields in enumerate(EIGHT_HANDS[:4], start=1):
        add(client, ledger, f"zh-{number:07d}", **fields)
    sentences = english_sentences()
    for path in ("/ledger/", ledger.get_absolute_url(), f"/ledger/s/{ledger.share_token}/"):
        response = client.get(path, **ZH)
        assert response.status_code == 200
        markup = response.content.decode()
        assert "记账" in markup, path
        assert not problems_of(path, markup, sentences)


@pytest.mark.django_db(transaction=True)
def test_it_pushes_new_rows_to_a_follower_socket_and_refuses_an_unknown_token(
        settings: Any) -> None:
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from .test_tables_socket import ORIGIN, _application, run_apart

    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    owner = Client()
    ledger = create(owner)
    add(owner, ledger, "sock-000001", w1="0", w1_from="1", w1_fan="1")
    headers = [ORIGIN, (b"host", b"localhost")]

    async def scenario() -> None:
        follower = WebsocketCommunicator(_application(), f"/ledger/s/{ledger.share_token}/ws",
                                         headers=headers)
        assert (await follower.connect())[0]
        assert await follower.receive_json_from(timeout=5) == {"type": "changed", "rows": 1}
        response = await sync_to_async(add)(owner, ledger, "sock-000002", w1="1",
                                            w1_from="self", w1_fan="2")
        assert response.status_code == 201
        assert await follower.receive_json_from(timeout=5) == {"type": "changed", "rows": 2}
        undone = await sync_to_async(owner.post)(f"/ledger/{ledger.public_id}/undo",
                                                 {"row": "2"})
        assert undone.status_code == 302
        assert await follower.receive_json_from(timeout=5) == {"type": "changed", "rows": 1}
        await follower.send_json_to({"type": "row"})
        assert (await follower.receive_json_from(timeout=5))["type"] == "error"
        await follower.disconnect()
        stranger = WebsocketCommunicator(_application(), "/ledger/s/nothing-here/ws",
                                         headers=headers)
        connected, code = await stranger.connect()
        assert not connected and code == 4404

    try:
        run_apart(scenario)
    finally:  # the application built here checks origins against this test's ALLOWED_HOSTS
        sys.modules.pop("mahjong_site.asgi", None)


@pytest.mark.django_db
def test_it_deletes_a_ledger_for_its_owner_only(client: Client) -> None:
    ledger = create(client)
    assert Client().post(f"/ledger/{ledger.public_id}/delete").status_code == 403
    assert client.post(f"/ledger/{ledger.public_id}/delete").status_code == 302
    assert not Ledger.objects.filter(pk=ledger.pk).exists()
    assert client.get(f"/ledger/s/{ledger.share_token}/").status_code == 404
