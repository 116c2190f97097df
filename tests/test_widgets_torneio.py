"""A class tournament's pages without a browser (issue 34): the teacher's (widgets.pages.torneio)
and a learner's phone (widgets.pages.torneio_aluno), on the in-process store."""
from __future__ import annotations

from urllib.parse import unquote

import pytest

from classroom import identity as ids
from classroom.classes import create_class
from classroom.progress import open_store
from classroom.tables import StoreRepository, Tables
from widgets.components import learner as identity
from widgets.pages.torneio import PROJECTING, TournamentTeacher
from widgets.pages.torneio_aluno import TournamentPhone

LEARNERS = [("Ana", "2468", "b-ana-phone-01"), ("Bia", "1357", "b-bia-phone-01"),
            ("Caio", "9753", "b-caio-ph-01"), ("Duda", "8642", "b-duda-ph-01")]


@pytest.fixture
def turma():
    store = open_store()
    made = create_class(store, "7º B")
    joined = {name: ids.join(store, made.code, name, pin, browser) for name, pin, browser in LEARNERS}
    return store, made, joined


def as_learner(joined) -> None:
    """This kernel's browser is now `joined`'s phone (verified with her device token)."""
    identity.forget()
    identity.widget().set_learner(joined.learner, joined.token)


def phone_of(joined, lang: str = "pt") -> TournamentPhone:
    as_learner(joined)
    return TournamentPhone(lang=lang)


def state_of(phone: TournamentPhone) -> str:
    phone.refresh()
    text = phone.status.value
    return text.split("data-state='", 1)[1].split("'", 1)[0]


def teacher_in(made, lang: str = "en") -> TournamentTeacher:
    teacher = TournamentTeacher(lang=lang, pace=0.0)
    teacher.code.value, teacher.key.value = made.code, made.key
    teacher.open_class_button.click()
    return teacher


def everyone_leaves_their_tables(store, teacher: TournamentTeacher) -> None:
    """Each learner gives her seat up (she closed the table's page): the bots play it, and the
    teacher's reads of the board drive those tables to their end."""
    tables = Tables(StoreRepository(store))
    board = teacher.board
    for game in board["games"]:
        if game["round"] == board["round"] and not game["bye"]:
            for who in game["seats"]:
                if who:
                    tables.leave(game["table_code"], who["id"])
    for _ in range(40):
        teacher.refresh()
        if all(g["scores"] is not None or g["bye"] for g in teacher.board["games"]
               if g["round"] == teacher.board["round"]):
            return
    raise AssertionError("the round's tables did not end")


def test_a_teacher_runs_two_rounds_of_short_truco_mano_a_mano_and_four_phones_follow(turma):
    store, made, joined = turma
    teacher = TournamentTeacher(lang="en", pace=0.0)
    teacher.code.value, teacher.key.value = made.code, "WRONG-KEY0"
    teacher.open_class_button.click()
    assert "Wrong class code or teacher key." in teacher.message.value
    teacher.key.value = made.key
    teacher.open_class_button.click()
    assert teacher.compose.layout.display == ""
    teacher.game.value = "paulista"
    teacher.players.value = "single"
    assert teacher.partners.layout.display == "none"  # no partners one against one
    teacher.length.value = 1
    teacher.rounds.value = 2
    teacher.open_button.click()
    assert teacher.opened is not None, teacher.message.value
    setup = teacher.board["setup"]
    assert (setup["players"], setup["options"], setup["rounds"], setup["format"]) == \
        ("single", {"hands": 1}, 2, "swiss")
    assert "torneio_aluno.ipynb?torneio=" + teacher.opened["code"] in teacher.share.path
    phones = {name: phone_of(joined[name], "pt") for name, _, _ in LEARNERS}
    for name in phones:  # each phone finds her class's tournament and is seen there
        as_learner(joined[name])
        assert state_of(phones[name]) == "out"
    teacher.enrol_button.click()
    assert "4 learner(s) enrolled now." in teacher.message.value
    assert "Enrolled (4)" in teacher.players_head.value
    for round_number in (1, 2):
        teacher.start_button.click()
        assert f"Round {round_number}: 2 table(s) opened." in teacher.message.value, teacher.message.value
        tables_seen = set()
        for name in phones:
            as_learner(joined[name])
            assert state_of(phones[name]) == "table"
            status = phones[name].status.value
            assert "Sentar à mesa" in status and "href='mesa.ipynb?mesa=" in status
            code = status.split("mesa.ipynb?mesa=", 1)[1].split("&", 1)[0]
            snap = Tables(StoreRepository(store)).snapshot(code)
            assert snap.seat_of(joined[name].learner.key) is not None  # already seated there: one tap
            tables_seen.add(code)
        assert len(tables_seen) == 2
        assert "Table 1" in teacher.screen.value and "Table 2" in teacher.screen.value
        everyone_leaves_their_tables(store, teacher)
        for name in phones:
            as_learner(joined[name])
            assert state_of(phones[name]) == ("done" if round_number == 1 else "finished")
            assert "Classificação" in phones[name].standings.value
            assert "<th scope='col'>Pontos</th>" in phones[name].standings.value  # a phone's short table
            assert "<th scope='col'>Buchholz</th>" not in phones[name].standings.value
    board = teacher.board
    assert board["status"] == "finished" and len(board["podium"]) == 3
    pairs = [frozenset(g["units"]) for g in board["games"]]
    assert len(set(pairs)) == 4  # no rematch in round 2
    assert "Podium" in teacher.screen.value and "The tournament is over." in teacher.state.value
    assert teacher.ticker.active is False and teacher.controls.layout.display == "none"
    link = teacher.download.value
    assert "download='torneio-" in link
    text = unquote(link.split("charset=utf-8,", 1)[1].split("'", 1)[0])
    assert text.startswith("\ufeffPlace,Player,Points") and text.count("\n") >= 4 + 1 + 1 + 4
    finished = [value for _, value in teacher.show_which.options if value]
    assert len(finished) == 4
    teacher.show_which.value = finished[-1]
    teacher.show_button.click()
    assert "data-round='2'" in teacher.shown.value and "<li>" in teacher.shown.value, teacher.message.value
    teacher.language.value = "pt"
    assert "Pódio" in teacher.screen.value and "Baixar a classificação" in teacher.download.value
    again = teacher_in(made)  # reopened after the end: the podium and its games, then a new one
    assert again.board["status"] == "finished" and "Podium" in again.screen.value
    assert again.new_button.layout.display == "" and again.compose.layout.display == "none"
    again.new_button.click()
    assert again.compose.layout.display == "" and again.screen.value == "" and again.opened is None


def test_the_setup_form_makes_each_games_tournament_in_both_languages(turma):
    _store, made, _joined = turma
    teacher = teacher_in(made, lang="pt")
    assert teacher.game.description == "Jogo" and "Suíço (rodadas por pontuação)" in \
        [label for label, _ in teacher.format.options]
    teacher.game.value = "21"
    assert teacher.truco_box.layout.display == "none" and teacher.twenty_one_box.layout.display == ""
    assert [v for _, v in teacher.format.options] == ["swiss"]  # no round robin at tables of many
    teacher.table_low.value, teacher.table_high.value, teacher.round_count.value = 3, 5, 8
    assert teacher.setup() == {"game": "21", "level": "rule", "pace": 0.0, "format": "swiss",
                               "table_size": [3, 5], "options": {"rounds": 8}, "rounds": 3}
    teacher.game.value = "mineiro"
    teacher.format.value = "round_robin"
    assert teacher.rounds.layout.display == "none"
    teacher.players.value, teacher.partners.value, teacher.length.value = "pairs", "chosen", 0
    teacher.level.value = "strong"
    assert teacher.setup() == {"game": "mineiro", "level": "strong", "pace": 0.0, "format": "round_robin",
                               "players": "pairs", "partners": "chosen"}
    teacher.language.value = "en"
    assert teacher.game.description == "Game" and ("To 12 points", 0) in teacher.length.options
    assert teacher.partners.options[1] == ("Chosen by the teacher", "chosen")


def test_chosen_partners_add_remove_projector_and_a_reloaded_page_takes_the_tournament_back(turma):
    store, made, joined = turma
    teacher = teacher_in(made)
    teacher.game.value, teacher.players.value, teacher.partners.value = "paulista", "pairs", "chosen"
    teacher.open_button.click()
    code = teacher.opened["code"]
    ids_of = {name: joined[name].learner.key for name, _, _ in LEARNERS}
    assert {v for _, v in teacher.add_who.options} == {"", *ids_of.values()}  # the class's learners
    for name in ("Ana", "Bia", "Caio"):
        teacher.add_who.value = ids_of[name]
        teacher.add_button.click()
    teacher.add_who.value = ""
    teacher.add_button.click()
    assert "Choose a learner from the list." in teacher.message.value
    assert "Enrolled (3)" in teacher.players_head.value
    removes = [b for row in teacher.player_rows.children for b in row.children if hasattr(b, "on_click")]
    assert [b.description for b in removes] == ["Remove Ana", "Remove Bia", "Remove Caio"]
    removes[2].click()
    assert "Enrolled (2)" in teacher.players_head.value
    teacher.pair_first.value, teacher.pair_second.value = ids_of["Ana"], ids_of["Ana"]
    teacher.pair_button.click()
    assert "Choose two different learners" in teacher.message.value
    teacher.pair_second.value = ids_of["Bia"]
    teacher.pair_button.click()
    assert "Ana &amp; Bia" in teacher.pairs_html.value
    assert {v for _, v in teacher.pair_first.options} == {""}  # nobody left without a partner
    teacher.project_button.click()
    assert PROJECTING in teacher._dom_classes and teacher.controls.layout.display == "none"
    assert teacher.project_button.description == "Back to the controls"
    teacher.project_button.click()
    assert PROJECTING not in teacher._dom_classes and teacher.controls.layout.display == ""
    old_host = teacher.opened["host_token"]
    again = teacher_in(made)  # the page reloaded: the class's tournament is taken back
    assert again.opened["code"] == code and again.opened["host_token"] != old_host
    assert "Tournament " + code + " taken back." in again.message.value
    assert "Enrolled (2)" in again.players_head.value and again.compose.layout.display == "none"
    teacher.enrol_button.click()  # the old page's token no longer holds
    assert "This tournament was taken back on another page: reload this one" in teacher.message.value


def test_a_phone_signs_in_first_and_a_linked_tournament_is_the_one_shown(turma):
    store, made, joined = turma
    identity.forget()
    phone = TournamentPhone(lang="en")
    assert "Sign in to your class" in phone.status.value and phone.identity.layout.display == ""
    as_learner(joined["Ana"])
    assert state_of(TournamentPhone(lang="en")) == "none"  # no tournament yet
    teacher = teacher_in(made)
    teacher.game.value = "21"
    teacher.open_button.click()
    first = teacher.opened["code"]
    second = teacher_in(made)  # takes it back: still one tournament
    assert second.opened["code"] == first
    phone = TournamentPhone(lang="en", code=first)
    assert state_of(phone) == "out" and "You are not in the tournament yet" in phone.status.value
