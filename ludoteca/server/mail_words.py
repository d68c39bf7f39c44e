"""What the arena's emails say, in the player's language (the server's Babel catalog): a
subject, a text part and an HTML part built from the same lines, so the two never differ.
Names, game titles and addresses are escaped in the HTML part; every link is the operator's
``LUDOTECA_PUBLIC_URL`` plus a path of ours."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from ludoteca.engine.i18n import N_
from ludoteca.server.errors import voice

CONFIRM_SUBJECT = N_("Confirm your email address for Ludoteca")
CONFIRM_TEXT = N_("Hello {name}: open this link to confirm {email} as the address of your "
                  "Ludoteca account. It works once, for {hours} hours.")
CONFIRM_IGNORE = N_("If you did not ask for this, ignore this message: nothing changes.")
RESET_SUBJECT = N_("Reset your Ludoteca password")
RESET_TEXT = N_("Someone asked to reset the password of the Ludoteca account {name}. Open this "
                "link to choose a new one; it works once, for {minutes} minutes, and signs "
                "the account out everywhere.")
RESET_IGNORE = N_("If it was not you, ignore this message: your password stays as it is.")
TURN_SUBJECT = N_("Your move at {game}")
TURN_TEXT = N_("It is your move at your {game} table.")
DIGEST_SUBJECT = N_("{n} tables wait for your move")
DIGEST_TEXT = N_("These tables wait for your move:")
FINISHED_SUBJECT = N_("Your {game} match is over")
FINISHED_TEXT = N_("Your {game} match is over: see the result and the replay.")
REMATCH_SUBJECT = N_("{name} offers a rematch of {game}")
REMATCH_TEXT = N_("{name} offers a rematch of your {game} match: answer at the table.")
TOURNAMENT_SUBJECT = N_("Your table in round {round} is ready")
TOURNAMENT_TEXT = N_("Your table of {game} in round {round} of the tournament is ready.")
CHALLENGE_SUBJECT = N_("{name} challenges you to {game}")
CHALLENGE_TEXT = N_("{name} challenges you to a match of {game}. Accept or decline it on your "
                    "page before {until} (UTC).")
ANSWER_CHALLENGE = N_("Answer the challenge")
OPEN_TABLE = N_("Open the table")
PREFERENCES = N_("Choose which emails you get: {link}")
UNSUBSCRIBE = N_("Stop these emails: {link}")
UNSUBSCRIBED = N_("Done: you will get no more of these emails. You can turn them on again in "
                  "your notification settings.")
UNSUBSCRIBE_BAD = N_("This unsubscribe link is not valid.")
UNSUBSCRIBE_ASK = N_("Stop these emails from Ludoteca?")
UNSUBSCRIBE_BUTTON = N_("Unsubscribe")


@dataclass(frozen=True)
class Line:
    """A sentence, with a link under it or not."""

    text: str
    link: str | None = None
    label: str | None = None


@dataclass(frozen=True)
class Mail:
    subject: str
    text: str
    html: str


def compose(lang: str, subject: str, lines: list[Line], footer: list[Line]) -> Mail:
    """One email from its lines: the text part and the HTML part say the same."""
    text_parts = []
    html_parts = []
    for line in lines:
        text_parts.append(line.text if line.link is None else f"{line.text}\n{line.link}")
        if line.link is None:
            html_parts.append(f"<p>{escape(line.text)}</p>")
        else:
            label = escape(line.label or line.link)
            html_parts.append(f'<p>{escape(line.text)}<br><a href="{escape(line.link)}">'
                              f"{label}</a></p>")
    foot_text = [line.text for line in footer]
    foot_html = []
    for line in footer:
        if line.link is None:
            foot_html.append(f"<p>{escape(line.text)}</p>")
        else:
            before, _, after = line.text.partition(line.link)
            foot_html.append(f'<p>{escape(before)}<a href="{escape(line.link)}">'
                             f"{escape(line.link)}</a>{escape(after)}</p>")
    text = "\n\n".join(text_parts) + ("\n\n-- \n" + "\n".join(foot_text) if footer else "") + "\n"
    html = (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            f"<title>{escape(subject)}</title></head><body>" + "".join(html_parts)
            + (f'<hr><div style="font-size:small">{"".join(foot_html)}</div>' if footer else "")
            + "</body></html>")
    return Mail(subject, text, html)


def footer(lang: str, preferences: str, unsubscribe: str) -> list[Line]:
    v = voice(lang, folders=())
    return [Line(v.t(PREFERENCES, link=preferences), preferences),
            Line(v.t(UNSUBSCRIBE, link=unsubscribe), unsubscribe)]


def confirm_mail(lang: str, name: str, email: str, link: str, hours: float) -> Mail:
    v = voice(lang, folders=())
    return compose(lang, v.t(CONFIRM_SUBJECT), [
        Line(v.t(CONFIRM_TEXT, name=name, email=email, hours=f"{hours:g}"), link),
        Line(v.t(CONFIRM_IGNORE))], [])


def reset_mail(lang: str, name: str, link: str, minutes: float) -> Mail:
    v = voice(lang, folders=())
    return compose(lang, v.t(RESET_SUBJECT), [
        Line(v.t(RESET_TEXT, name=name, minutes=f"{minutes:g}"), link),
        Line(v.t(RESET_IGNORE))], [])


def turn_mail(lang: str, tables: list[tuple[str, str]], foot: list[Line]) -> Mail:
    """``tables``: (game title, link) of each table waiting; two or more make a digest."""
    v = voice(lang, folders=())
    if len(tables) == 1:
        game, link = tables[0]
        return compose(lang, v.t(TURN_SUBJECT, game=game),
                       [Line(v.t(TURN_TEXT, game=game), link, v.t(OPEN_TABLE))], foot)
    lines = [Line(v.t(DIGEST_TEXT))] + [Line(game, link) for game, link in tables]
    return compose(lang, v.t(DIGEST_SUBJECT, n=len(tables)), lines, foot)


def finished_mail(lang: str, game: str, link: str, foot: list[Line]) -> Mail:
    v = voice(lang, folders=())
    return compose(lang, v.t(FINISHED_SUBJECT, game=game),
                   [Line(v.t(FINISHED_TEXT, game=game), link, v.t(OPEN_TABLE))], foot)


def rematch_mail(lang: str, name: str, game: str, link: str, foot: list[Line]) -> Mail:
    v = voice(lang, folders=())
    return compose(lang, v.t(REMATCH_SUBJECT, name=name, game=game),
                   [Line(v.t(REMATCH_TEXT, name=name, game=game), link, v.t(OPEN_TABLE))],
                   foot)


def tournament_mail(lang: str, game: str, round_: int, link: str, foot: list[Line]) -> Mail:
    v = voice(lang, folders=())
    return compose(lang, v.t(TOURNAMENT_SUBJECT, round=round_),
                   [Line(v.t(TOURNAMENT_TEXT, game=game, round=round_), link,
                         v.t(OPEN_TABLE))], foot)


def challenge_mail(lang: str, name: str, game: str, until: str, link: str,
                   foot: list[Line]) -> Mail:
    """``until``: when the challenge expires, ``YYYY-MM-DD HH:MM`` in UTC."""
    v = voice(lang, folders=())
    return compose(lang, v.t(CHALLENGE_SUBJECT, name=name, game=game),
                   [Line(v.t(CHALLENGE_TEXT, name=name, game=game, until=until), link,
                         v.t(ANSWER_CHALLENGE))], foot)


def unsubscribe_page(lang: str, message: str, form_action: str | None = None) -> str:
    """The small page an unsubscribe link opens (no sign-in, no script: the CSP allows none
    inline): a button that posts, so a mail scanner that opens links unsubscribes nobody."""
    v = voice(lang, folders=())
    body = f"<p>{escape(message)}</p>"
    if form_action is not None:
        body += (f'<form method="post" action="{escape(form_action)}">'
                 '<input type="hidden" name="List-Unsubscribe" value="One-Click">'
                 f'<button type="submit">{escape(v.t(UNSUBSCRIBE_BUTTON))}</button></form>')
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>Ludoteca</title></head><body>{body}</body></html>")
