from django.apps import AppConfig


class ReplaysConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "replays"
    verbose_name = "Replays"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        # The admin lives with the other operations tools (replays/operations/admin.py);
        # Django's autodiscovery only looks for replays/admin.py, so register it here.
        import replays.annotation.receivers  # noqa: F401 - a stored match is annotated
        import replays.checks  # noqa: F401
        import replays.operations.admin  # noqa: F401
        import replays.puzzles.receivers  # noqa: F401 - an annotated one gives puzzles
        import replays.tables.tasks  # noqa: F401 - beat's, found by the pool's first tick
        from replays.puzzles.services import VISITOR_KEY, merge_visitor

        def merge_puzzle_answers(sender: object, request: object, user: object,
                                 **kwargs: object) -> None:
            session = getattr(request, "session", None)
            if session is not None:
                merge_visitor(user, session.get(VISITOR_KEY, ""))

        # weak=False: the receiver is local to ready() and would be collected at once.
        user_logged_in.connect(merge_puzzle_answers, dispatch_uid="merge_puzzle_answers",
                               weak=False)

        from replays.play.services import give_to

        def merge_played_matches(sender: object, request: object, user: object,
                                 **kwargs: object) -> None:
            session = getattr(request, "session", None)
            if session is not None:
                give_to(user, session.get(VISITOR_KEY, ""))

        user_logged_in.connect(merge_played_matches, dispatch_uid="merge_played_matches",
                               weak=False)

        from django.db.models.signals import pre_delete

        from replays.models import Match
        from replays.puzzles.takedowns import delete_puzzles_of

        # However a match is deleted (its owner, the admin, a shell), its puzzles go with it.
        pre_delete.connect(delete_puzzles_of, sender=Match, dispatch_uid="match_puzzles")
