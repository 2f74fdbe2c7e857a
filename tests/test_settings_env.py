"""The settings' environment helpers: yes/no and number settings are read strictly, so a
typo such as ``DEBUG=ture`` stops the site with a sentence naming the variable."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from mahjong_site.settings import env_bool, env_int


@pytest.mark.parametrize(("value", "expected"), [
    ("1", True), ("true", True), ("Yes", True), (" ON ", True),
    ("0", False), ("false", False), ("No", False), ("off", False),
])
def test_it_reads_yes_and_no_words(monkeypatch: pytest.MonkeyPatch, value: str,
                                   expected: bool) -> None:
    monkeypatch.setenv("SOME_SWITCH", value)
    assert env_bool("SOME_SWITCH", not expected) is expected


@pytest.mark.parametrize("value", [None, "", "  "])
def test_it_keeps_the_default_when_a_switch_is_unset_or_empty(
        monkeypatch: pytest.MonkeyPatch, value: str | None) -> None:
    if value is None:
        monkeypatch.delenv("SOME_SWITCH", raising=False)
    else:
        monkeypatch.setenv("SOME_SWITCH", value)
    assert env_bool("SOME_SWITCH", True) is True
    assert env_bool("SOME_SWITCH", False) is False


@pytest.mark.parametrize("value", ["ture", "y", "2", "enabled"])
def test_it_refuses_a_switch_it_cannot_read(monkeypatch: pytest.MonkeyPatch,
                                            value: str) -> None:
    monkeypatch.setenv("DEBUG", value)
    with pytest.raises(ImproperlyConfigured, match=rf"DEBUG='{value}' is not a yes/no value"):
        env_bool("DEBUG", False)


def test_it_reads_numbers_and_refuses_other_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOME_NUMBER", " 42 ")
    assert env_int("SOME_NUMBER", 7) == 42
    monkeypatch.setenv("SOME_NUMBER", "")
    assert env_int("SOME_NUMBER", 7) == 7
    monkeypatch.setenv("SOME_NUMBER", "4o")
    with pytest.raises(ImproperlyConfigured, match="SOME_NUMBER='4o' is not a whole number"):
        env_int("SOME_NUMBER", 7)
