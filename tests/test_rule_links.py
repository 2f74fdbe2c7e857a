"""Every rule id the site shows links to an anchor that exists (issue 27): the rules pages give
each id of the rules its own anchor with its text, every id the code can emit resolves there,
and a crawl of the rendered pages (a stored match's viewer and its settlement, the hands'
overview, a play table, puzzles and their answers, the bots page, the rules pages themselves),
in English and in Chinese, finds no link to a missing anchor. The contract and leaving
explanations' worked examples are the engine's own settlements."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from games.core import settlement
from replays.library import rules_guide
from replays.library.rule_book import BOOK, COMMON
from replays.models import Match, Puzzle
from replays.puzzles import services as puzzles
from tests.conftest import find_shared_rules
from tests.test_play_site import start
from tests.test_puzzle_pay import right
from tests.test_site_i18n import last_step, store

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")

VARIANTS = ("jiaxing", "putian", "sichuan")
PREFIX = {"JX": "jiaxing", "PT": "putian", "SC": "sichuan"}
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
ROOT = Path(__file__).resolve().parent.parent
CODE_ID = re.compile(r"\b((?:JX|PT|SC|C)-(?:\d+(?:\.\d+)*[a-c]?|H\d+))\b")
# Ids the code writes only as examples of what no rule has (the anchor helpers' doctests).
NOT_RULES = {"SC-9", "PT-6.1"}


def rules_page(client: Client, variant: str, **headers: str) -> str:
    response = client.get(f"/rules/{variant}/", **headers)  # type: ignore[arg-type]
    assert response.status_code == 200
    return response.content.decode()


def anchor_text(content: str, anchor: str) -> str:
    """The visible text of the element that carries the anchor (up to its first 400
    characters of markup)."""
    found = re.search(rf'\sid="{re.escape(anchor)}"[^>]*>(.{{0,400}})', content, re.S)
    assert found, anchor
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def code_ids() -> set[str]:
    """Every rule id written in the engine, the site and the templates."""
    found: set[str] = set()
    for folder in ("games", "replays", "templates"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in {".py", ".html"} and path.is_file():
                found |= set(CODE_ID.findall(path.read_text(encoding="utf-8")))
    return found - NOT_RULES


def test_it_gives_every_id_the_code_emits_its_own_anchor_with_its_text(db: None,
                                                                        client: Client) -> None:
    pages = {variant: rules_page(client, variant) for variant in VARIANTS}
    ids = code_ids()
    assert {"SC-6.4", "SC-6.4a", "SC-6.5", "SC-6.6", "PT-7.2", "PT-7.4", "JX-9", "JX-10.2",
            "JX-10.3", "C-6"} <= ids
    for rule in sorted(ids):
        variant = PREFIX.get(rule.split("-")[0], "jiaxing")
        href = rules_guide.rule_href(rule, variant)
        assert href == f"/rules/{variant}/#{rule}", (rule, href)
        # the text at the anchor names the rule: its label is the id itself
        assert rule in anchor_text(pages[variant], rule).split(), rule


def test_it_gives_every_id_of_the_rules_document_an_anchor(db: None, client: Client) -> None:
    shared = find_shared_rules()
    if shared is None:
        pytest.skip("the shared rules folder is not beside this checkout")
    text = (shared / "RULES.md").read_text(encoding="utf-8")
    entries = set(re.findall(r"(?:\*\*|^- |^\| |Additions: |\. )((?:JX|PT|SC|C)-[\dH][\d.]*\d|"
                             r"(?:JX|PT|SC|C)-\d+)\b", text, re.M))
    entries |= {f"SC-6.4{letter}" for letter in "abc"}  # its (a), (b), (c)
    assert {"JX-10.2", "SC-6.6", "SC-H8", "PT-7.4", "C-6", "SC-5.18"} <= entries
    for rule in sorted(entries):
        variant = PREFIX.get(rule.split("-")[0], "putian")
        content = rules_page(client, variant)
        assert f' id="{rule}"' in content, rule
        assert rule in anchor_text(content, rule).split(), rule


def test_the_rule_book_has_a_statement_for_every_id_in_both_languages(db: None,
                                                                      client: Client) -> None:
    for prefix, entries in BOOK.items():
        content = html.unescape(re.sub(r"<[^>]+>", "", rules_page(client, PREFIX[prefix], **ZH)))
        for rule, text in [*entries, *COMMON]:
            with translation.override("en"):
                english = str(text)
            with translation.override("zh-hans"):
                chinese = str(text)
            assert chinese != english and chinese in content, rule


def hrefs(content: str) -> list[str]:
    """Every link to a rules page's anchor in a page."""
    return [html.unescape(h) for h in re.findall(r'href="(/rules/[a-z]+/#[^"]+)"', content)]


def bare_ids(content: str) -> list[str]:
    """The rule ids a page shows as plain text: outside links, outside a section's label (which
    sits beside the section's own anchor) and outside buttons and options (text only)."""
    main = content.split("<main", 1)[-1]
    for markup in (r"<script.*?</script>", r"<a\s[^>]*>.*?</a>", r"<option[^>]*>.*?</option>",
                   r"<button[^>]*>.*?</button>",
                   r'<span class="pattern-id">[^<]*</span>'):
        main = re.sub(markup, "", main, flags=re.S)
    return CODE_ID.findall(re.sub(r"<[^>]+>", " ", main))


class Crawl:
    """Pages fetched by a client, and the rules pages their links point to, kept."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.targets: dict[tuple[str, str], set[str]] = {}
        self.links = 0
        self.seen: set[str] = set()
        self.bare: dict[str, list[str]] = {}

    def get(self, url: str, **headers: str) -> str:
        # follow=True: the daily and rated puzzles redirect to the puzzle's own address.
        response = self.client.get(url, follow=True, **headers)  # type: ignore[arg-type]
        assert response.status_code == 200, (url, response.status_code)
        return response.content.decode()

    def check(self, where: str, content: str, **headers: str) -> None:
        for link in hrefs(content):
            path, anchor = link.split("#", 1)
            key = (path, headers.get("HTTP_ACCEPT_LANGUAGE", "en"))
            if key not in self.targets:
                self.targets[key] = set(re.findall(r'\sid="([^"]+)"', self.get(path, **headers)))
            assert anchor in self.targets[key], f"{where}: {link} has no anchor"
            self.links += 1
            self.seen.add(anchor)
        self.bare[where] = bare_ids(content)
        own = set(re.findall(r'\sid="([^"]+)"', content))
        for anchor in re.findall(r'href="#([^"]+)"', content):
            if CODE_ID.fullmatch(anchor.split("-2")[0]) or anchor.startswith(("JX-", "PT-", "SC-")):
                assert anchor in own, f"{where}: #{anchor} has no anchor on the page"
                self.links += 1


@pytest.mark.parametrize("headers", [{}, ZH], ids=["en", "zh"])
def test_every_rule_link_on_the_sites_pages_has_its_anchor(db: None, client: Client,
                                                          headers: dict[str, str]) -> None:
    crawl = Crawl(client)
    for variant in VARIANTS:
        crawl.check(f"rules {variant}", crawl.get(f"/rules/{variant}/", **headers), **headers)
    matches: list[Match] = [store("sichuan", 1, 1), store("jiaxing", 1, 3),
                            store("putian", 1, 2)]
    for match in matches:
        url = match.get_absolute_url()
        end = last_step(match)
        for step in sorted({0, end // 2, end}):
            crawl.check(f"{url} step {step}", crawl.get(f"{url}?step={step}", **headers),
                        **headers)
        crawl.check(f"{url}hands/", crawl.get(f"{url}hands/", **headers), **headers)
    for variant in VARIANTS:
        pid = start(client, variant)
        crawl.check(f"play {variant}", crawl.get(f"/play/{pid}/", **headers), **headers)
        for kind in (Puzzle.Kind.WINS, Puzzle.Kind.PAY):
            puzzle = puzzles.generated_puzzle(variant, 2, "crawl", kind)
            crawl.check(f"puzzle {puzzle.public_id}",
                        crawl.get(puzzle.get_absolute_url(), **headers), **headers)
            if kind == Puzzle.Kind.PAY:
                answer = client.post(f"/puzzles/{puzzle.public_id}/answer/", right(puzzle),
                                     **headers, HTTP_HX_REQUEST="true")  # type: ignore[arg-type]
                assert answer.status_code == 200
                assert "settlement-table" in answer.content.decode()
                crawl.check(f"answer {puzzle.public_id}", answer.content.decode(), **headers)
    crawl.check("bots", crawl.get("/bots/", **headers), **headers)
    for url in ("/play/", "/puzzles/train/", "/puzzles/daily/"):
        crawl.check(url, crawl.get(url, **headers), **headers)
    # every rule id shown is a link (issue 27)
    assert {where: ids for where, ids in crawl.bare.items() if ids} == {}
    # settlement lines (SC-6.x, JX-10.x, PT-7.x) and the rules pages' own links were among them
    assert crawl.links > 200
    assert {"SC-6.1", "SC-6.3", "SC-6.4b", "SC-6.4c", "PT-7.2", "PT-7.4", "JX-9",
            "JX-10.1"} <= crawl.seen


# -- the worked examples are the engine's settlements ------------------------------------


def test_the_contract_example_is_what_the_engine_settles() -> None:
    # By hand: score 1 × 2 × 2¹ = 4; East–South contract, West persists, North gave up.
    # South wins (JX-10.2): East ×5 = 20, West ×2 = 8, North 0 → South +28.
    # West wins (JX-10.3): East and South ×2 = 8 each, North 0 → West +16.
    assert settlement.jiaxing_score(1, 2, 1) == 4
    inside, outside = rules_guide.contract_examples()
    assert inside.multipliers == [5, None, 2, 0] and inside.deltas == [-20, 28, -8, 0]
    assert outside.multipliers == [2, 2, None, 0] and outside.deltas == [-8, -8, 16, 0]
    assert settlement.jiaxing_win_deltas(1, 4, contracts=[(0, 1)], gave_up=[3]) == inside.deltas


def test_the_leaving_examples_are_what_the_engine_settles() -> None:
    # Jiaxing (JX-10.6): fee 50 + penalty 100 from North's 500 → 150 to the house; 70 left → 70.
    jiaxing = rules_guide.leave_example("jiaxing")
    assert jiaxing is not None and jiaxing.deltas == [0, 0, 0, -150] and jiaxing.house == 150
    assert settlement.jiaxing_leave_deltas(3, [500, 500, 500, 70], 50, 100) == [0, 0, 0, -70]
    # Sichuan (SC-6.6): cap 8 × 3 still in + (4 + 2) × 1 = 30 to the house; East 4, South 2.
    sichuan = rules_guide.leave_example("sichuan")
    assert sichuan is not None and sichuan.deltas == [4, 2, 0, -36] and sichuan.house == 30
    assert rules_guide.leave_example("putian") is None


def test_the_rules_pages_explain_contracts_and_leaving_in_both_languages(db: None,
                                                                        client: Client) -> None:
    jiaxing = rules_page(client, "jiaxing")
    contract = anchor_text(jiaxing, "JX-9")
    assert "Contracts" in contract and "persist" in contract
    section = jiaxing.split('id="JX-9"', 1)[1].split("</section>", 1)[0]
    for shown in ("×5", "×2", "4 × 5 = 20", "South receives 28", "West receives 16", ">-20<",
                  ">+28<", ">+16<"):
        assert shown in html.unescape(section), shown
    leaving = jiaxing.split('id="JX-10.6"', 1)[1].split("</section>", 1)[0]
    assert "50 + 100 = 150" in leaving and ">-150<" in leaving
    sichuan = rules_page(client, "sichuan").split('id="SC-6.6"', 1)[1].split("</section>")[0]
    assert "8 × 3 + (4 + 2) × 1 = 30" in sichuan and ">-36<" in sichuan
    chinese = rules_page(client, "jiaxing", **ZH).split('id="JX-9"', 1)[1]
    assert "承包" in chinese and "坚持" in chinese and "放弃" in chinese and "×5" in chinese
    putian = rules_page(client, "putian")
    assert "2nd hand in a row base 3" in putian


# -- a pattern counted several times reads as its count, then its total ---------------------


def test_it_words_two_roots_as_a_count_then_the_total_not_a_multiplier() -> None:
    from games.variants.positions import read_position
    from replays.templatetags.tiles import hit_value

    # two 根 (four 1m, four 5p), 1 fan each: the engine's hit is value 2, counted twice
    position = read_position({"melds": [], "variant": "sichuan", "hand": "111123m555567p99p",
                              "win_tile": "9p", "seat": 1, "dealer": 0, "void": "s",
                              "self_draw": False})
    roots = [h for h in position.variant.score(position).patterns if h.pattern.id == "SC-5.14"]
    assert [(h.value, h.times) for h in roots] == [(2, 2)]
    with translation.override("en"):
        assert hit_value(roots[0]) == "×2: +2 fan"  # was "+2 fan ×2", read as 4
        assert hit_value(roots[0].to_json()) == "×2: +2 fan"
    with translation.override("zh-hans"):
        assert hit_value(roots[0]) == "×2：+2 番"
    # three golds in hand, 1 point each (PT-6): 3 points in all, not 3 × 3
    position = read_position({"melds": [], "variant": "putian", "hand": "123456789m1s1s1s99s345p",
                              "win_tile": "9s", "wildcards": ["1s", "2s"], "seat": 1,
                              "dealer": 0, "self_draw": False, "flowers": 0,
                              "dealer_streak": 0})
    golds = [h for h in position.variant.score(position).patterns if h.pattern.id == "PT-6"]
    with translation.override("en"):
        assert [hit_value(h) for h in golds] == ["×3: +3 points"]
