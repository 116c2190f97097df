"""The course: every lesson's dashboard, listed on the index with this learner's progress.

The index holds the identity form (widgets.components.learner): the learner types her name and class
code there once; the table shows the progress recorded for the learner at this browser and
redraws when she is known or changes. A store that cannot be read leaves the table without
scores and shows the notice; the lessons stay listed. Under the table: her class's
homework ("Para fazer" / "To do", each item's state) and her level per skill with a link to
today's review (widgets.components.homework; docs/rules.md#homework,
docs/rules.md#mastery-levels). Each lesson's name is a link (blue,
underlined, a hand cursor) that opens its dashboard in the page's language; the index follows
the page-language switch of its notebook like every view.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

import ipywidgets as w

from widgets.components import learner as identity, scores as progress
from widgets.components.base import View


@dataclass(frozen=True)
class Lesson:
    key: str          # the progress key its exercises record under
    notebook: str     # file name in notebooks/
    title: dict       # {"pt": ..., "en": ...}
    summary: dict
    exercises: bool = True  # False for the play and explore dashboards
    teacher: bool = False   # the teacher's dashboards (no exercises)


LESSONS: list[Lesson] = [
    Lesson("manilhas", "manilhas.ipynb",
           {"pt": "As manilhas", "en": "The manilhas"},
           {"pt": "A vira, a ordem natural das cartas e as manilhas do Paulista e do Mineiro.",
            "en": "The vira, the natural order of the cards and the manilhas of Paulista and Mineiro."}),
    Lesson("truco_mao", "truco_mao.ipynb",
           {"pt": "A mão passo a passo", "en": "A hand step by step"},
           {"pt": "Embaralhar, dar as cartas, virar a vira e jogar as rodadas, narrado passo a passo.",
            "en": "Shuffle, deal, turn the vira and play the tricks, narrated step by step."}),
    Lesson("truco_rodadas", "truco_rodadas.ipynb",
           {"pt": "Rodadas e desempates", "en": "Tricks and tie-breaking"},
           {"pt": "Quem leva a rodada, a carta coberta, e quem leva a mão quando há empate.",
            "en": "Who takes a trick, the face-down card, and who takes the hand after ties."}),
    Lesson("truco_apostas", "truco_apostas.ipynb",
           {"pt": "Apostas: pedir truco", "en": "Betting: calling truco"},
           {"pt": "Pedir, aceitar, correr e pedir mais; as escadas 1-3-6-9-12 e 2-4-6-10-12.",
            "en": "Raise, accept, run and raise again; the ladders 1-3-6-9-12 and 2-4-6-10-12."}),
    Lesson("truco_mao_de_onze", "truco_mao_de_onze.ipynb",
           {"pt": "Mão de onze e mão de ferro", "en": "Mão de onze and mão de ferro"},
           {"pt": "Jogar ou correr vendo as cartas do parceiro; a mão de ferro jogada no escuro.",
            "en": "Play or run with the partner's cards in view; the mão de ferro played blind."}),
    Lesson("truco_mineiro", "truco_mineiro.ipynb",
           {"pt": "Truco Mineiro", "en": "Truco Mineiro"},
           {"pt": "Manilhas fixas, valores 2-4-6-10-12 e a comparação lado a lado com o Paulista.",
            "en": "Fixed manilhas, values 2-4-6-10-12 and a side-by-side comparison with Paulista."}),
    Lesson("vinte_e_um_pontos", "vinte_e_um_pontos.ipynb",
           {"pt": "21: quanto vale a mão", "en": "21: what a hand is worth"},
           {"pt": "Valor das cartas, o ás 1 ou 11, estourar, o 21 com duas cartas e quem ganha a chamada.",
            "en": "Card values, the ace as 1 or 11, busting, the two-card 21 and who wins a call."}),
    Lesson("vinte_e_um_rodada", "vinte_e_um_rodada.ipynb",
           {"pt": "21: a rodada passo a passo", "en": "21: the round step by step"},
           {"pt": "Cartas fechadas, apostas, pedir ou parar, a banca chamando, as fichas e as chances.",
            "en": "Face-down cards, bets, hit or stand, the banker calling, the chips and the odds."}),
    Lesson("vinte_e_um_banca", "vinte_e_um_banca.ipynb",
           {"pt": "21: quem fica com a banca", "en": "21: who holds the bank"},
           {"pt": "Os quatro modos de passar a banca: rodízio, 21 com duas cartas, leilão e venda.",
            "en": "The four ways to pass the bank on: rotation, two-card 21, auction and sale."}),
    Lesson("jogar_truco", "jogar_truco.ipynb",
           {"pt": "Jogar truco", "en": "Play truco"},
           {"pt": "Uma partida inteira até 12 com um parceiro robô contra dois robôs.",
            "en": "A whole game to 12 with a bot partner against two bots."}, exercises=False),
    Lesson("jogar_21", "jogar_21.ipynb",
           {"pt": "Jogar 21", "en": "Play 21"},
           {"pt": "Rodadas inteiras com fichas, como jogador ou como banca.",
            "en": "Whole rounds with chips, as a player or as the banker."}, exercises=False),
    Lesson("chances_truco", "chances_truco.ipynb",
           {"pt": "Chances no truco", "en": "Truco odds"},
           {"pt": "A chance de ganhar cada rodada e a mão com as suas cartas.",
            "en": "The chance of winning each trick and the hand with your cards."}, exercises=False),
    Lesson("cenarios", "cenarios.ipynb",
           {"pt": "Cenários para a turma", "en": "Scenarios for the class"},
           {"pt": "Monte uma situação, compartilhe o link e jogue a partir dela.",
            "en": "Set up a position, share the link and play from it."}, exercises=False),
    Lesson("mesas", "mesa.ipynb",
           {"pt": "Mesas: jogar com a turma", "en": "Tables: play with your class"},
           {"pt": "Crie uma mesa de truco ou 21, passe o código e jogue com os colegas.",
            "en": "Create a truco or 21 table, share its code and play with your classmates."},
           exercises=False),
    Lesson("tarefa", "tarefa.ipynb",
           {"pt": "Tarefas da turma", "en": "Class homework"},
           {"pt": "O que o professor passou: lições, cenários e partidas, com o que falta em cada uma.",
            "en": "What your teacher gave: lessons, scenarios and games, with what is left in each."},
           exercises=False),
    Lesson("revisao", "revisao.ipynb",
           {"pt": "Revisão do dia", "en": "Today's review"},
           {"pt": "Perguntas das habilidades na hora de revisar (caixas de Leitner).",
            "en": "Questions from the skills due for review (Leitner boxes)."},
           exercises=False),
    Lesson("turma", "turma.ipynb",
           {"pt": "Turma (professor)", "en": "Class (teacher)"},
           {"pt": "Crie uma turma, passe o código aos alunos e acompanhe o progresso de cada um.",
            "en": "Create a class, give its code to the learners and follow each one's progress."},
           exercises=False, teacher=True),
    Lesson("aula", "aula.ipynb",
           {"pt": "Aula ao vivo (professor)", "en": "Live class quiz (teacher)"},
           {"pt": "No projetor: perguntas para a turma responder pelo celular, com histograma e placar.",
            "en": "On the projector: questions the class answers on their phones, with a histogram and a "
                  "leaderboard."},
           exercises=False, teacher=True),
    Lesson("aula_aluno", "aula_aluno.ipynb",
           {"pt": "Aula ao vivo (aluno)", "en": "Live class quiz (learner)"},
           {"pt": "Entre com o código do projetor e responda pelo celular.",
            "en": "Join with the projector's code and answer on your phone."},
           exercises=False),
]

TEXT = {
    "title": {"pt": "Cartas: aprenda truco e 21", "en": "Cartas: learn truco and 21"},
    "lesson": {"pt": "Lição", "en": "Lesson"},
    "what": {"pt": "O que se aprende", "en": "What you learn"},
    "progress": {"pt": "Exercícios", "en": "Exercises"},
    "open": {"pt": "abrir", "en": "open"},
    "none": {"pt": "ainda não começou", "en": "not started yet"},
    "no_exercises": {"pt": "— (para jogar e explorar)", "en": "— (to play and explore)"},
    "done": {"pt": "{right} de {asked} certas", "en": "{right} of {asked} right"},
    "refresh": {"pt": "Atualizar progresso", "en": "Refresh progress"},
    "teacher": {"pt": "— (para o professor)", "en": "— (for the teacher)"},
    "whose": {"pt": "Progresso de {name}", "en": "{name}'s progress"},
    "whose_anonymous": {"pt": "Progresso neste navegador", "en": "Progress in this browser"},
    "unknown": {"pt": "…", "en": "…"},
    "unsaved": {"pt": "O progresso não pode ser lido agora.", "en": "Progress cannot be read right now."},
}


# A lesson's name reads as a link wherever the page's CSS puts it.
LINK_STYLE = "color:#1565c0;text-decoration:underline;cursor:pointer"


class CourseIndex(View):
    """The list of lessons, each with a link to its dashboard and the session's score."""

    TEXT = TEXT

    def __init__(self, lang=None, lessons=None):
        super().__init__(lang=lang)
        self.lessons = list(lessons or LESSONS)
        self.identity = identity.widget(lang=self.lang, form=True)
        self.identity.on_change(lambda _learner: self.redraw())
        self.language.observe(lambda change: self.identity.set_language(change["new"]), names="value")
        self.table = w.HTML().add_class("cartas-index")
        self.refresh = w.Button(layout=w.Layout(width="200px")).add_class("cartas-refresh")
        self.refresh.on_click(self.guarded(lambda _: self.redraw()))
        self.todo = w.HTML().add_class("cartas-index-todo")
        self.levels = w.HTML().add_class("cartas-index-levels")
        self.children = [self.language, self.identity, self.table, self.todo, self.levels, self.refresh,
                         self.message]
        self.redraw()

    def redraw(self) -> None:
        scores = progress.load() if identity.current() is not None else None  # her token checked again
        learner = identity.current()
        rows = []
        for lesson in self.lessons:
            score = (scores or {}).get(lesson.key)
            if lesson.teacher:
                done = self.t("teacher")
            elif not lesson.exercises:
                done = self.t("no_exercises")
            elif learner is None or scores is None:
                done = self.t("unknown")
            else:
                done = self.t("done", **score) if score else self.t("none")
            link = f"{lesson.notebook}?lang={self.lang}"
            rows.append(
                f"<tr data-lesson='{lesson.key}'><td><a class='cartas-lesson-link' href='{escape(link)}' "
                f"style='{LINK_STYLE}'><b>{escape(lesson.title[self.lang])}</b></a></td>"
                f"<td>{escape(lesson.summary[self.lang])}</td><td class='cartas-progress'>{escape(done)}</td></tr>"
            )
        head = f"<tr><th>{self.t('lesson')}</th><th>{self.t('what')}</th><th>{self.t('progress')}</th></tr>"
        if learner is None:
            whose, state = "", "waiting"
        else:
            whose = (self.t("whose", name=learner.name) if learner.name else self.t("whose_anonymous"))
            state = "unreadable" if scores is None else "ready"
        self.table.value = (f"<h3>{self.t('title')}</h3>{self.url_notice()}"
                            f"<div class='cartas-whose' data-state='{state}'>{escape(whose)}</div>"
                            f"<table style='font-size:16px;border-spacing:10px 6px'>"
                            f"{head}{''.join(rows)}</table>")
        self.refresh.description = self.t("refresh")
        self._draw_homework(learner if scores is not None else None)
        if scores is None and learner is not None:
            self.show_message(self.t("unsaved"), kind="error")

    def _draw_homework(self, learner) -> None:
        """Her class's homework and her levels (the learner checked by `progress.load`)."""
        from classroom.store import StoreError
        from widgets.components import homework
        if learner is None:
            self.todo.value = self.levels.value = ""
            return
        titles = {lesson.key: lesson.title for lesson in self.lessons}
        try:
            in_class = bool(learner.class_code) or self.identity.hub  # under JupyterHub: her hub groups
            tasks = homework.homework_service().learner_homework(learner.key) if in_class else None
            skills = homework.mastery_service()
            levels, due = skills.learner_levels(learner.key), skills.due_skills(learner.key)
        except StoreError:
            self.todo.value = self.levels.value = ""
            return
        self.todo.value = homework.todo_html(tasks, self.lang, titles, in_class)
        self.levels.value = homework.levels_html(levels, due, self.lang)
