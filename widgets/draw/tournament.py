"""Drawings of a class tournament (issue 34; docs/rules.md#tournament): the projector's board
(the round's pairings with table numbers, each table's live state, the standings between rounds,
the final podium) and a learner's phone card "your table" with one link to sit (no code to type).

Both take what `classroom.tournament.TournamentService` gives (`board()`, `my_table()`) and the
language; every name is escaped; the standings' words are the engine's catalogue
(`cartas.tournament.CATALOGUE`), the rest this module's TEXT.
"""
from __future__ import annotations

from html import escape

from cartas.tournament import CATALOGUE

TEXT = {
    "round_of": {"pt": "Rodada {round} de {rounds}", "en": "Round {round} of {rounds}"},
    "not_started": {"pt": "O torneio ainda não começou", "en": "The tournament has not started yet"},
    "table": {"pt": "Mesa {n}", "en": "Table {n}"},
    "versus": {"pt": "contra", "en": "against"},
    "hand": {"pt": "mão {n}", "en": "hand {n}"},
    "over": {"pt": "terminou", "en": "over"},
    "bye_of": {"pt": "Folga: {name}", "en": "Bye: {name}"},
    "standings": {"pt": "Classificação", "en": "Standings"},
    "podium": {"pt": "Pódio", "en": "Podium"},
    "your_table": {"pt": "Sua mesa: {n}", "en": "Your table: {n}"},
    "sit": {"pt": "Sentar à mesa", "en": "Sit at the table"},
    "wait_round": {"pt": "Espere a próxima rodada.", "en": "Wait for the next round."},
    "from_round": {"pt": "Você joga a partir da rodada {n}.", "en": "You play from round {n}."},
    "not_in": {"pt": "Você ainda não está no torneio: o professor inscreve quem está nesta página.",
               "en": "You are not in the tournament yet: the teacher enrols whoever is on this page."},
    "your_bye": {"pt": "Você está de folga nesta rodada (1 ponto).", "en": "You have a bye this round (1 point)."},
    "done": {"pt": "Sua partida terminou: espere a próxima rodada.",
             "en": "Your game is over: wait for the next round."},
    "finished": {"pt": "O torneio terminou.", "en": "The tournament is over."},
}


def say(key: str, lang: str, **fields: object) -> str:
    text = TEXT[key]["pt" if lang == "pt" else "en"]
    return text.format(**fields) if fields else text


def _pairings(board: dict, lang: str) -> str:
    rows = []
    for game in board["games"]:
        if game["round"] != board["round"]:
            continue
        names = [escape(n) for n in game["names"]]
        if game["bye"]:
            rows.append(f"<li class='cartas-tournament-bye'>{escape(say('bye_of', lang, name=game['names'][0]))}</li>")
            continue
        if game["scores"] is not None:
            state = f"{say('over', lang)} · " + " – ".join(f"{s:g}" for s in game["scores"])
        elif game["live"]:
            state = (f"{say('hand', lang, n=game['live']['hand'])} · "
                     + " – ".join(str(s) for s in game["live"]["scores"]))
        else:
            state = ""
        versus = f" {escape(say('versus', lang))} ".join(f"<b>{n}</b>" for n in names)
        rows.append(f"<li class='cartas-tournament-table' data-table='{game['table']}' "
                    f"data-code='{escape(str(game['table_code'] or ''))}'>"
                    f"<span style='font-size:1.3em'>{escape(say('table', lang, n=game['table']))}</span>: "
                    f"{versus} <span class='cartas-tournament-state'>{escape(state)}</span></li>")
    return f"<ol style='list-style:none;padding:0;font-size:20px'>{''.join(rows)}</ol>"


def standings_html(board: dict, lang: str, compact: bool = False) -> str:
    """The standings as a table, its header the catalogue's words, the tie-breaks stated below it;
    `compact` (a phone) shows the place, the player and the points only."""
    say_c = CATALOGUE.say
    keys = ("rank", "unit", "points") if compact else ("rank", "unit", "points", "buchholz", "head_to_head",
                                                       "difference")
    head = "".join(f"<th scope='col'>{escape(say_c(k, lang))}</th>" for k in keys)

    def tail(s: dict) -> str:
        return "" if compact else (f"<td>{s['buchholz']:g}</td><td>{s['head_to_head']:g}</td>"
                                   f"<td>{s['difference']:+g}</td>")
    body = "".join(
        f"<tr data-unit='{escape(s['unit'])}'><td>{s['rank']}</td><th scope='row'>{escape(s['name'])}</th>"
        f"<td>{s['points']:g}</td>{tail(s)}</tr>" for s in board["standings"])
    return (f"<table class='cartas-tournament-standings'><caption>{escape(say('standings', lang))}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
            f"<p style='font-size:13px'>{escape(say_c('tie_breaks', lang))}</p>")


def board_html(board: dict, lang: str) -> str:
    """The projector: the round's pairings and live tables, the standings, the podium at the end."""
    parts = []
    if board["round"] == 0:
        parts.append(f"<h2>{escape(say('not_started', lang))}</h2>")
    else:
        parts.append(f"<h2>{escape(say('round_of', lang, round=board['round'], rounds=board['rounds']))}</h2>")
        parts.append(_pairings(board, lang))
    if board["status"] == "finished" and board["podium"]:
        places = "".join(f"<li data-rank='{s['rank']}'><b>{escape(s['name'])}</b> · {s['points']:g}</li>"
                         for s in board["podium"])
        parts.append(f"<h2>{escape(say('podium', lang))}</h2><ol class='cartas-tournament-podium' "
                     f"style='font-size:24px'>{places}</ol>")
    if board["standings"] and board["round"]:
        parts.append(standings_html(board, lang))
    return f"<div class='cartas-tournament-board' data-round='{board['round']}' " \
           f"data-status='{escape(board['status'])}'>{''.join(parts)}</div>"


def my_table_html(mine: dict, lang: str, link: str) -> str:
    """A learner's phone: her table and one link to sit there (`link`, the table page's address
    for her table), or why she waits."""
    if mine["status"] == "finished":
        body, state = say("finished", lang), "finished"
    elif not mine["enrolled"]:
        body, state = say("not_in", lang), "out"
    elif mine["bye"]:
        body, state = say("your_bye", lang), "bye"
    elif mine["table_code"] and not mine["done"]:
        return (f"<div class='cartas-tournament-mine' data-state='table' data-table='{mine['table']}' "
                f"style='font-size:20px'><b>{escape(say('your_table', lang, n=mine['table']))}</b>"
                f"<a class='cartas-tournament-sit' href='{escape(link)}' target='_top' style='display:block;"
                f"min-height:56px;line-height:56px;text-align:center;margin-top:8px;background:#1b5e20;"
                f"color:#fff;border-radius:8px;text-decoration:none'>{escape(say('sit', lang))}</a></div>")
    elif mine["table_code"]:
        body, state = say("done", lang), "done"
    elif mine["from_round"] and mine["from_round"] > max(1, mine["round"]):
        body, state = say("from_round", lang, n=mine["from_round"]), "later"
    else:
        body, state = say("wait_round", lang), "wait"
    return f"<div class='cartas-tournament-mine' data-state='{state}' style='font-size:18px'>{escape(body)}</div>"
