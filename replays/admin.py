from django.contrib import admin

from replays.models import Hand, Match


class HandInline(admin.TabularInline):
    model = Hand
    fields = ("number", "dealer", "end_reason", "deltas", "event_count")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("__str__", "variant", "players_text", "visibility", "hidden", "owner",
                    "hand_count", "uploaded_at")
    list_filter = ("variant", "visibility", "hidden", "uploaded_at")
    search_fields = ("title", "players_text", "public_id", "sha256")
    readonly_fields = ("public_id", "sha256", "uploaded_at", "hand_count", "totals",
                       "engine_version")
    exclude = ("document",)
    inlines = [HandInline]
    actions = ["hide", "unhide"]

    @admin.action(description="Hide the selected replays")
    def hide(self, request, queryset):  # type: ignore[no-untyped-def]
        queryset.update(hidden=True)

    @admin.action(description="Show the selected replays again")
    def unhide(self, request, queryset):  # type: ignore[no-untyped-def]
        queryset.update(hidden=False)
