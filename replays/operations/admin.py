"""The Django admin for staff: matches, hands, annotations, puzzles, daily puzzles,
attempts and workers, with the actions operations need (docs/deploy.md).

Stored documents, events and annotations are never edited here: they are what the
engine checked and wrote. What staff change is who sees a match (visibility, hidden),
which puzzle is a day's puzzle, and what gets queued again.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.timesince import timesince
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.analysis.annotation import ENGINE_VERSION
from replays.annotation.tasks import queue_match
from replays.models import (
    Annotation,
    Attempt,
    DailyPuzzle,
    Hand,
    Match,
    Puzzle,
    WorkerHeartbeat,
)
from replays.puzzles import services as puzzles
from replays.puzzles.takedowns import take_down
from replays.puzzles.tasks import harvest_puzzles

# The admin's own styles (an inline style attribute would break the Content Security Policy).
ADMIN_CSS = {"all": ["css/admin.css"]}
HARVEST_IN_REQUEST = 10  # more matches than this are harvested by the workers
MAX_HAND_SPOTS = 3  # puzzles made from one hand by the hand action


def pretty_json(value: Any) -> str:
    """JSON, indented and escaped, in a scrolling block."""
    text = json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True)
    if len(text) > 200_000:
        text = text[:200_000] + "\n…"
    return format_html('<pre class="admin-json">{}</pre>', text)  # styled by ADMIN_CSS


def _link(url: str, text: Any) -> str:
    return format_html('<a href="{}">{}</a>', url, text)


def _publishable(match: Match) -> bool:
    """Puzzles are public pages: only public, visible replays give them."""
    return match.publishable


# -- matches and hands ----------------------------------------------------------------------


class HandInline(admin.TabularInline[Hand, Match]):
    model = Hand
    fields = ("hand_link", "dealer", "end_reason", "deltas", "event_count")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("hand"))
    def hand_link(self, hand: Hand) -> str:
        return _link(reverse("admin:replays_hand_change", args=[hand.pk]), hand.number)


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = ("title_or_players", "variant", "owner", "visibility", "hidden",
                    "hand_count", "annotation_status", "uploaded_at")
    list_filter = ("annotation_status", "variant", "visibility", "hidden", "uploaded_at")
    search_fields = ("title", "players_text", "public_id", "sha256")
    list_select_related = ("owner",)
    date_hierarchy = "uploaded_at"
    raw_id_fields = ("owner",)
    fields = ("title", "visibility", "hidden", "owner", "public_id", "view_on_site_link",
              "variant", "players", "played_at", "uploaded_at", "hand_count", "totals",
              "engine_version", "sha256", "annotation_status", "annotation_progress",
              "annotation_queued_at", "annotation_error", "puzzle_count")
    readonly_fields = ("public_id", "view_on_site_link", "variant", "players", "played_at",
                       "uploaded_at", "hand_count", "totals", "engine_version", "sha256",
                       "annotation_status", "annotation_progress", "annotation_queued_at",
                       "annotation_error", "puzzle_count")
    inlines = [HandInline]
    actions = ["reannotate", "hide", "unhide", "make_puzzles"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Match]:
        return super().get_queryset(request).defer("document")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # matches come in through the upload page, checked by the engine

    @admin.display(description=_("match"), ordering="title")
    def title_or_players(self, match: Match) -> str:
        return str(match)[:80]

    @admin.display(description=_("page"))
    def view_on_site_link(self, match: Match) -> str:
        return _link(match.get_absolute_url(), match.get_absolute_url())

    @admin.display(description=_("annotated hands"))
    def annotation_progress(self, match: Match) -> str:
        done = Annotation.objects.filter(hand__match=match,
                                         engine_version=ENGINE_VERSION).count()
        return f"{done} / {match.hand_count} (engine {ENGINE_VERSION})"

    @admin.display(description=_("puzzles"))
    def puzzle_count(self, match: Match) -> str:
        n = match.puzzles.count()
        if not n:
            return "0"
        return _link(f"{reverse('admin:replays_puzzle_changelist')}?match__id__exact={match.pk}",
                     n)

    @admin.action(description=_("Re-annotate the selected matches"), permissions=["change"])
    def reannotate(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        ids = list(queryset.values_list("pk", flat=True))

        def queue() -> None:
            for match_id in ids:
                queue_match(match_id)

        transaction.on_commit(queue)
        self.message_user(request, ngettext(
            "%(n)d match queued for annotation.", "%(n)d matches queued for annotation.",
            len(ids)) % {"n": len(ids)}, messages.SUCCESS)

    def save_model(self, request: HttpRequest, obj: Match, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        take_down([obj.pk])  # hidden or no longer public: its puzzles go too

    @admin.action(description=_("Hide the selected replays"), permissions=["change"])
    def hide(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        ids = list(queryset.values_list("pk", flat=True))
        n = queryset.update(hidden=True)
        take_down(ids)
        self.message_user(request, ngettext("%(n)d replay hidden.", "%(n)d replays hidden.",
                                            n) % {"n": n}, messages.SUCCESS)

    @admin.action(description=_("Show the selected replays again"), permissions=["change"])
    def unhide(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        n = queryset.update(hidden=False)
        self.message_user(request, ngettext("%(n)d replay shown again.",
                                            "%(n)d replays shown again.", n) % {"n": n},
                          messages.SUCCESS)

    @admin.action(description=_("Make puzzles from the selected replays"),
                  permissions=["change"])
    def make_puzzles(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        chosen = list(queryset)
        usable = [match for match in chosen if _publishable(match)]
        if len(usable) < len(chosen):
            self.message_user(request, _(
                "Private, unlisted and hidden replays were skipped: puzzles are public."),
                messages.WARNING)
        if len(usable) > HARVEST_IN_REQUEST:
            ids = [match.pk for match in usable]
            transaction.on_commit(lambda: [harvest_puzzles.delay(pk) for pk in ids])
            self.message_user(request, _(
                "%(n)d replays queued: the workers make their puzzles.") % {"n": len(ids)},
                messages.SUCCESS)
            return
        made = 0
        for match in usable:
            try:
                made += len(puzzles.harvest(match))
            except Exception as error:  # noqa: BLE001 - reported, the others go on
                self.message_user(request, _("%(match)s: %(error)s") % {
                    "match": match, "error": f"{type(error).__name__}: {error}"},
                    messages.ERROR)
        if usable:
            self.message_user(request, ngettext(
                "%(n)d puzzle from the selected replays (made now or before).",
                "%(n)d puzzles from the selected replays (made now or before).",
                made) % {"n": made}, messages.SUCCESS)


def hand_puzzles(hand: Hand, limit: int = MAX_HAND_SPOTS) -> list[Puzzle]:
    """Puzzles from one hand's ready spots, as ``replays.puzzles.services.harvest`` makes them."""
    return puzzles.harvest(hand.match, limit, hand=hand.number)


class AnnotatedFilter(admin.SimpleListFilter):
    title = _("annotated by the current engine")
    parameter_name = "annotated"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("yes")), ("no", _("no"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        current = Annotation.objects.filter(hand=OuterRef("pk"), engine_version=ENGINE_VERSION)
        if self.value() == "yes":
            return queryset.filter(Exists(current))
        if self.value() == "no":
            return queryset.exclude(Exists(current))
        return queryset


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin[Hand]):
    list_display = ("__str__", "match_link", "number", "dealer", "end_reason", "event_count",
                    "annotated")
    list_filter = ("end_reason", "match__variant", AnnotatedFilter)
    search_fields = ("match__title", "match__players_text", "match__public_id")
    list_select_related = ("match",)
    fields = ("match_link", "number", "dealer", "end_reason", "deltas", "event_count",
              "viewer_link", "annotations_list")
    readonly_fields = fields
    actions = ["make_puzzles"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Hand]:
        current = Annotation.objects.filter(hand=OuterRef("pk"), engine_version=ENGINE_VERSION)
        return (super().get_queryset(request).defer("events", "match__document")
                .annotate(has_current=Exists(current)))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Hands go with their match: whoever may delete matches may delete their hands
        # (the match's delete page asks); there is no bulk action to delete hands alone.
        return bool(request.user.has_perm("replays.delete_match"))

    def get_actions(self, request: HttpRequest) -> Any:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    @admin.display(description=_("match"), ordering="match")
    def match_link(self, hand: Hand) -> str:
        return _link(reverse("admin:replays_match_change", args=[hand.match_id]),
                     str(hand.match)[:60])

    @admin.display(description=_("annotated"), boolean=True)
    def annotated(self, hand: Hand) -> bool:
        return bool(getattr(hand, "has_current", False))

    @admin.display(description=_("viewer"))
    def viewer_link(self, hand: Hand) -> str:
        url = f"{hand.match.get_absolute_url()}?hand={hand.number}"
        return _link(url, url)

    @admin.display(description=_("annotations"))
    def annotations_list(self, hand: Hand) -> str:
        rows = list(hand.annotations.order_by("-created_at").only("pk", "engine_version",
                                                                   "created_at"))
        if not rows:
            return "—"
        return format_html_join(
            mark_safe("<br>"), '<a href="{}">engine {} · {}</a>',
            ((reverse("admin:replays_annotation_change", args=[row.pk]), row.engine_version,
              f"{row.created_at:%Y-%m-%d %H:%M}") for row in rows))

    @admin.action(description=_("Turn the selected hands' ready positions into puzzles"),
                  permissions=["make_puzzles"])
    def make_puzzles(self, request: HttpRequest, queryset: QuerySet[Hand]) -> None:
        made = 0
        for hand in queryset.select_related("match")[:HARVEST_IN_REQUEST]:
            if not _publishable(hand.match):
                self.message_user(request, _(
                    "%(hand)s: not a public replay, skipped (puzzles are public).") % {
                    "hand": hand}, messages.WARNING)
                continue
            try:
                found = hand_puzzles(hand)
            except Exception as error:  # noqa: BLE001 - reported, the others go on
                self.message_user(request, f"{hand}: {type(error).__name__}: {error}",
                                  messages.ERROR)
                continue
            if not found:
                self.message_user(request, _("%(hand)s: no ready position with two or more "
                                             "winning tiles.") % {"hand": hand},
                                  messages.INFO)
            made += len(found)
        if queryset.count() > HARVEST_IN_REQUEST:
            self.message_user(request, _("Only the first %(n)d hands were used.") % {
                "n": HARVEST_IN_REQUEST}, messages.WARNING)
        self.message_user(request, ngettext(
            "%(n)d puzzle from the selected hands (made now or before).",
            "%(n)d puzzles from the selected hands (made now or before).", made) % {"n": made},
            messages.SUCCESS)

    def has_make_puzzles_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm("replays.add_puzzle"))


# -- annotations ------------------------------------------------------------------------------


@admin.register(Annotation)
class AnnotationAdmin(admin.ModelAdmin[Annotation]):
    class Media:
        css = ADMIN_CSS

    list_display = ("__str__", "engine_version", "decisions", "created_at")
    list_filter = ("engine_version", "created_at")
    search_fields = ("hand__match__title", "hand__match__public_id",
                     "hand__match__players_text")
    list_select_related = ("hand__match",)
    fields = ("hand_link", "engine_version", "created_at", "pretty_data")
    readonly_fields = fields
    date_hierarchy = "created_at"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Annotation]:
        return super().get_queryset(request).defer("hand__events", "hand__match__document")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # written by the engine only; delete and re-annotate instead

    @admin.display(description=_("hand"))
    def hand_link(self, annotation: Annotation) -> str:
        return _link(reverse("admin:replays_hand_change", args=[annotation.hand_id]),
                     annotation.hand)

    @admin.display(description=_("decisions"))
    def decisions(self, annotation: Annotation) -> int:
        data = annotation.data if isinstance(annotation.data, dict) else {}
        found = data.get("decisions")
        return len(found) if isinstance(found, list) else 0

    @admin.display(description=_("data"))
    def pretty_data(self, annotation: Annotation) -> str:
        return pretty_json(annotation.data)


# -- puzzles ----------------------------------------------------------------------------------


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin[Puzzle]):
    class Media:
        css = ADMIN_CSS

    list_display = ("public_id", "variant", "kind", "difficulty", "source", "waits", "match_link",
                    "attempt_count", "solve_rate", "created_at", "page_link")
    list_filter = ("variant", "kind", "difficulty", "source", "engine_version", "created_at")
    search_fields = ("public_id", "seed", "match__public_id", "match__title")
    list_select_related = ("match",)
    fields = ("public_id", "page_link", "variant", "kind", "difficulty", "source", "seed",
              "match_link", "hand_number", "event_number", "seat", "engine_version",
              "created_at", "dailies_list", "pretty_position", "pretty_answer")
    readonly_fields = ("public_id", "page_link", "variant", "kind", "source", "seed", "match_link",
                       "hand_number", "event_number", "seat", "engine_version", "created_at",
                       "dailies_list", "pretty_position", "pretty_answer")
    actions = ["pin_today", "pin_tomorrow"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Puzzle]:
        return (super().get_queryset(request).defer("match__document")
                .annotate(tries=Count("attempts", distinct=True),
                          solves=Count("attempts", filter=Q(attempts__solved=True),
                                       distinct=True)))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # generated by the daily roll, or made from replays

    @admin.display(description=_("page"))
    def page_link(self, puzzle: Puzzle) -> str:
        return _link(puzzle.get_absolute_url(), _("open"))

    @admin.display(description=_("match"))
    def match_link(self, puzzle: Puzzle) -> str:
        if puzzle.match_id is None:
            return "—"
        where = f"hand {puzzle.hand_number}, event {puzzle.event_number}"
        return format_html('<a href="{}">{}</a> ({})',
                           reverse("admin:replays_match_change", args=[puzzle.match_id]),
                           str(puzzle.match)[:50], where)

    @admin.display(description=_("waits"))
    def waits(self, puzzle: Puzzle) -> int:
        answer = puzzle.answer if isinstance(puzzle.answer, dict) else {}
        return len(answer.get("waits") or [])

    @admin.display(description=_("attempts"), ordering="tries")
    def attempt_count(self, puzzle: Puzzle) -> int:
        return int(getattr(puzzle, "tries", 0) or 0)

    @admin.display(description=_("solved"))
    def solve_rate(self, puzzle: Puzzle) -> str:
        tries = getattr(puzzle, "tries", 0) or 0
        return f"{round(100 * (getattr(puzzle, 'solves', 0) or 0) / tries)}%" if tries else "—"

    @admin.display(description=_("daily puzzle on"))
    def dailies_list(self, puzzle: Puzzle) -> str:
        days = [f"{row.day:%Y-%m-%d}" for row in puzzle.dailies.order_by("-day")[:20]]
        return ", ".join(days) or "—"

    @admin.display(description=_("position"))
    def pretty_position(self, puzzle: Puzzle) -> str:
        return pretty_json(puzzle.position)

    @admin.display(description=_("answer"))
    def pretty_answer(self, puzzle: Puzzle) -> str:
        return pretty_json(puzzle.answer)

    def _pin(self, request: HttpRequest, queryset: QuerySet[Puzzle], day: dt.date) -> None:
        chosen = list(queryset.order_by("variant", "pk"))
        variants = [puzzle.variant for puzzle in chosen]
        if len(set(variants)) < len(variants):
            self.message_user(request, _(
                "Choose at most one puzzle per variant: each variant has one puzzle a day."),
                messages.ERROR)
            return
        for puzzle in chosen:
            puzzles.pin_daily(puzzle, day, request.user)
            self.message_user(request, _(
                "%(puzzle)s is the %(variant)s puzzle of %(day)s.") % {
                "puzzle": puzzle.public_id, "variant": puzzle.get_variant_display(),
                "day": day.isoformat()}, messages.SUCCESS)

    @admin.action(description=_("Pin as today's daily puzzle"), permissions=["pin"])
    def pin_today(self, request: HttpRequest, queryset: QuerySet[Puzzle]) -> None:
        self._pin(request, queryset, puzzles.puzzle_day())

    @admin.action(description=_("Pin as tomorrow's daily puzzle"), permissions=["pin"])
    def pin_tomorrow(self, request: HttpRequest, queryset: QuerySet[Puzzle]) -> None:
        self._pin(request, queryset, puzzles.puzzle_day() + dt.timedelta(days=1))

    def has_pin_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm("replays.change_dailypuzzle")
                    and request.user.has_perm("replays.add_dailypuzzle"))


class DailyPuzzleForm(forms.ModelForm[DailyPuzzle]):
    class Meta:
        model = DailyPuzzle
        fields = ("day", "variant", "puzzle")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        puzzle, variant = data.get("puzzle"), data.get("variant")
        if puzzle is not None and variant and puzzle.variant != variant:
            raise forms.ValidationError(_("That puzzle is a %(variant)s puzzle.") % {
                "variant": puzzle.get_variant_display()})
        return data


@admin.register(DailyPuzzle)
class DailyPuzzleAdmin(admin.ModelAdmin[DailyPuzzle]):
    form = DailyPuzzleForm
    list_display = ("day", "variant", "puzzle_link", "difficulty", "pinned_by", "attempts",
                    "created_at")
    list_filter = ("variant", "day")
    search_fields = ("puzzle__public_id", "pinned_by__username")
    list_select_related = ("puzzle", "pinned_by")
    date_hierarchy = "day"
    raw_id_fields = ("puzzle",)
    readonly_fields = ("pinned_by", "created_at")

    def get_queryset(self, request: HttpRequest) -> QuerySet[DailyPuzzle]:
        return super().get_queryset(request).defer(
            "puzzle__position", "puzzle__answer").annotate(
            day_attempts=Count("puzzle__attempts", filter=Q(
                puzzle__attempts__daily_day=F("day"))))

    @admin.display(description=_("puzzle"))
    def puzzle_link(self, row: DailyPuzzle) -> str:
        return _link(row.puzzle.get_absolute_url(), row.puzzle.public_id)

    @admin.display(description=_("difficulty"))
    def difficulty(self, row: DailyPuzzle) -> str:
        return str(row.puzzle.get_difficulty_display())

    @admin.display(description=_("attempts that day"), ordering="day_attempts")
    def attempts(self, row: DailyPuzzle) -> int:
        return int(getattr(row, "day_attempts", 0) or 0)

    def save_model(self, request: HttpRequest, obj: DailyPuzzle, form: Any, change: bool) -> None:
        if not change or "puzzle" in form.changed_data:
            obj.pinned_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)


# -- attempts and workers ---------------------------------------------------------------------


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin[Attempt]):
    list_display = ("puzzle", "player", "solved", "points", "bonus_right", "daily_day",
                    "created_at")
    list_filter = ("solved", "puzzle__variant", "puzzle__difficulty", "created_at")
    search_fields = ("user__username", "visitor", "puzzle__public_id")
    list_select_related = ("puzzle", "user")
    date_hierarchy = "created_at"
    fields = ("puzzle", "user", "visitor", "picked", "bonus", "solved", "bonus_right",
              "points", "daily_day", "created_at")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Attempt]:
        return super().get_queryset(request).defer("puzzle__position", "puzzle__answer")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a player's answer as given; staff may delete one

    @admin.display(description=_("player"), ordering="user__username")
    def player(self, attempt: Attempt) -> str:
        if attempt.user_id:
            return attempt.user.get_username()  # type: ignore[union-attr]
        return f"visitor {attempt.visitor[:8]}"


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin[WorkerHeartbeat]):
    list_display = ("hostname", "last_seen", "age", "started_at", "stopped_at", "processed",
                    "active")
    search_fields = ("hostname",)
    list_filter = ("last_seen",)
    readonly_fields = ("hostname", "started_at", "last_seen", "stopped_at", "processed",
                       "active")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # written by the workers; delete a row to forget a retired machine

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("seen"))
    def age(self, row: WorkerHeartbeat) -> str:
        return gettext("%(age)s ago") % {"age": timesince(row.last_seen)}
