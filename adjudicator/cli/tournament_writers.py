"""The tournament announcements' words (present.tournament_mails) given to the tournament
service (service.tournament.mailings), which may not import the presentation layer: every
tournament command installs them before it runs."""

from __future__ import annotations


def use_tournament_writers() -> None:
    from ..present import tournament_mails
    from ..service.tournament import mailings
    mailings.use_writers(tournament_mails.writers(mailings.Writers))
