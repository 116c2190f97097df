"""The course: every lesson's dashboard, listed on the index with this learner's progress.

The index reads in two phone screens (360×740), in this order:
- her next step ("Seu próximo passo"): today's review when a skill is due, her first homework
  not done, and the next lesson she has not started (the first in the course's order; the
  first lesson for a learner not known yet), each a link;
- the identity form (widgets.components.learner): the learner types her name and class code
  there once;
- the course ("O que se aprende"): the lessons grouped by game (GROUPS), each group folded
  under one line that says how many lessons it holds and how many she has started; each
  lesson a link with its short description and her progress, which redraws when she is known
  or changes. A store that cannot be read leaves the lessons without scores and shows the
  notice; the lessons stay listed;
- folded too: her class's homework ("Para fazer" / "To do", each item's state) and her level
  per skill with a link to today's review (widgets.components.homework;
  docs/rules.md#homework, docs/rules.md#mastery-levels).
Each lesson's name is a link (blue, underlined, a hand cursor) that opens its dashboard in the
page's language. The page's title is the notebook's heading and its language switch the
notebook's page switch: the index follows it like every view and shows no title or switch of
its own.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html import escape

import ipywidgets as w

from widgets.components import learner as identity, scores as progress
from widgets.components.base import View
from widgets.families import FAMILIES


@dataclass(frozen=True)
class Lesson:
    key: str          # the progress key its exercises record under
    notebook: str     # file name in notebooks/
    title: dict       # {"pt": ..., "en": ...}
    summary: dict
    exercises: bool = True  # False for the play and explore dashboards
    teacher: bool = False   # the teacher's dashboards (no exercises)
    group: str = "truco"    # its group on the index (GROUPS)


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
            "en": "Card values, the ace as 1 or 11, busting, the two-card 21 and who wins a call."}, group="21"),
    Lesson("vinte_e_um_rodada", "vinte_e_um_rodada.ipynb",
           {"pt": "21: a rodada passo a passo", "en": "21: the round step by step"},
           {"pt": "Cartas fechadas, apostas, pedir ou parar, a banca chamando, as fichas e as chances.",
            "en": "Face-down cards, bets, hit or stand, the banker calling, the chips and the odds."}, group="21"),
    Lesson("vinte_e_um_banca", "vinte_e_um_banca.ipynb",
           {"pt": "21: quem fica com a banca", "en": "21: who holds the bank"},
           {"pt": "Os quatro modos de passar a banca: rodízio, 21 com duas cartas, leilão e venda.",
            "en": "The four ways to pass the bank on: rotation, two-card 21, auction and sale."}, group="21"),
    Lesson("jogar_truco", "jogar_truco.ipynb",
           {"pt": "Jogar truco", "en": "Play truco"},
           {"pt": "Uma partida inteira até 12 com um parceiro robô contra dois robôs.",
            "en": "A whole game to 12 with a bot partner against two bots."}, exercises=False, group="play"),
    Lesson("jogar_21", "jogar_21.ipynb",
           {"pt": "Jogar 21", "en": "Play 21"},
           {"pt": "Rodadas inteiras com fichas, como jogador ou como banca.",
            "en": "Whole rounds with chips, as a player or as the banker."}, exercises=False, group="play"),
    Lesson("chances_truco", "chances_truco.ipynb",
           {"pt": "Chances no truco", "en": "Truco odds"},
           {"pt": "A chance de ganhar cada rodada e a mão com as suas cartas.",
            "en": "The chance of winning each trick and the hand with your cards."}, exercises=False, group="play"),
    Lesson("cenarios", "cenarios.ipynb",
           {"pt": "Cenários para a turma", "en": "Scenarios for the class"},
           {"pt": "Monte uma situação, compartilhe o link e jogue a partir dela.",
            "en": "Set up a position, share the link and play from it."}, exercises=False, group="play"),
    Lesson("mesas", "mesa.ipynb",
           {"pt": "Mesas: jogar com a turma", "en": "Tables: play with your class"},
           {"pt": "Crie uma mesa de truco ou 21, passe o código e jogue com os colegas.",
            "en": "Create a truco or 21 table, share its code and play with your classmates."},
           exercises=False, group="class"),
    Lesson("tarefa", "tarefa.ipynb",
           {"pt": "Tarefas da turma", "en": "Class homework"},
           {"pt": "O que o professor passou: lições, cenários e partidas, com o que falta em cada uma.",
            "en": "What your teacher gave: lessons, scenarios and games, with what is left in each."},
           exercises=False, group="class"),
    Lesson("revisao", "revisao.ipynb",
           {"pt": "Revisão do dia", "en": "Today's review"},
           {"pt": "Perguntas das habilidades na hora de revisar (caixas de Leitner).",
            "en": "Questions from the skills due for review (Leitner boxes)."},
           exercises=False, group="class"),
    Lesson("turma", "turma.ipynb",
           {"pt": "Turma (professor)", "en": "Class (teacher)"},
           {"pt": "Crie uma turma, passe o código aos alunos e acompanhe o progresso de cada um.",
            "en": "Create a class, give its code to the learners and follow each one's progress."},
           exercises=False, teacher=True, group="teacher"),
    Lesson("aula", "aula.ipynb",
           {"pt": "Aula ao vivo (professor)", "en": "Live class quiz (teacher)"},
           {"pt": "No projetor: perguntas para a turma responder pelo celular, com histograma e placar.",
            "en": "On the projector: questions the class answers on their phones, with a histogram and a "
                  "leaderboard."},
           exercises=False, teacher=True, group="teacher"),
    Lesson("aula_aluno", "aula_aluno.ipynb",
           {"pt": "Aula ao vivo (aluno)", "en": "Live class quiz (learner)"},
           {"pt": "Entre com o código do projetor e responda pelo celular.",
            "en": "Join with the projector's code and answer on your phone."},
           exercises=False, group="class"),
    Lesson("verificacao", "verificacao.ipynb",
           {"pt": "Verificação antes e depois (professor)", "en": "Check before and after (teacher)"},
           {"pt": "Uma verificação curta antes e depois da unidade: o ganho da turma e os equívocos que sumiram.",
            "en": "A short check before and after the unit: the class's gain and the misconceptions that vanished."},
           exercises=False, teacher=True, group="teacher"),
    Lesson("verificacao_aluno", "verificacao_aluno.ipynb",
           {"pt": "Verificação (aluno)", "en": "Check (learner)"},
           {"pt": "Responda pelo celular à verificação que o professor abriu.",
            "en": "Answer on your phone the check your teacher opened."},
           exercises=False, group="class"),
    Lesson("torneio", "torneio.ipynb",
           {"pt": "Torneio da turma (professor)", "en": "Class tournament (teacher)"},
           {"pt": "A turma joga entre si: rodadas, mesas abertas sozinhas, classificação e projetor.",
            "en": "The class plays each other: rounds, tables opened by themselves, standings and a projector."},
           exercises=False, teacher=True, group="teacher"),
    Lesson("torneio_aluno", "torneio_aluno.ipynb",
           {"pt": "Torneio (aluno)", "en": "Tournament (learner)"},
           {"pt": "Sua mesa do torneio, com um toque para sentar, e a classificação.",
            "en": "Your tournament table, one tap to sit, and the standings."},
           exercises=False, group="class"),
]

# The course's groups in the order the index shows them: (key, name), a game family's first
# (widgets.families), then the rest; a lesson names its group (`Lesson.group`) and a group lists
# its lessons in the course's order.
GROUPS: list[tuple[str, Mapping[str, str]]] = [
    *((family, views.course_group) for family, views in FAMILIES.items()),
    ("play", {"pt": "Jogar e explorar", "en": "Play and explore"}),
    ("class", {"pt": "Com a turma", "en": "With your class"}),
    ("teacher", {"pt": "Para o professor", "en": "For the teacher"}),
]

TEXT = {
    "what": {"pt": "O que se aprende", "en": "What you learn"},
    "next": {"pt": "Seu próximo passo", "en": "Your next step"},
    "next_lesson": {"pt": "Próxima lição: {title}", "en": "Next lesson: {title}"},
    "first_lesson": {"pt": "Comece por: {title}", "en": "Start with: {title}"},
    "all_started": {"pt": "Você já começou todas as lições: jogue uma partida",
                    "en": "You have started every lesson: play a game"},
    "next_review": {"pt": "Revisão do dia: {n} habilidade(s) para revisar",
                    "en": "Today's review: {n} skill(s) to review"},
    "next_task": {"pt": "Tarefa «{title}»: {done} de {items} feitos · entrega {due}",
                  "en": "Homework “{title}”: {done} of {items} done · due {due}"},
    "group_count": {"pt": "{n} lições", "en": "{n} lessons"},
    "group_started": {"pt": "{n} lições · {started} começadas", "en": "{n} lessons · {started} started"},
    "open": {"pt": "abrir", "en": "open"},
    "none": {"pt": "ainda não começou", "en": "not started yet"},
    "no_exercises": {"pt": "para jogar e explorar", "en": "to play and explore"},
    "done": {"pt": "{right} de {asked} certas", "en": "{right} of {asked} right"},
    "refresh": {"pt": "Atualizar progresso", "en": "Refresh progress"},
    "teacher": {"pt": "para o professor", "en": "for the teacher"},
    "whose": {"pt": "Progresso de {name}", "en": "{name}'s progress"},
    "whose_anonymous": {"pt": "Progresso neste navegador", "en": "Progress in this browser"},
    "unknown": {"pt": "…", "en": "…"},
    "unsaved": {"pt": "O progresso não pode ser lido agora.", "en": "Progress cannot be read right now."},
}


# A lesson's name reads as a link wherever the page's CSS puts it.
LINK_STYLE = "color:#1565c0;text-decoration:underline;cursor:pointer"


def next_lesson(lessons, scores) -> Lesson | None:
    """The first lesson with exercises, in the course's order, she has no score in (the first
    lesson when her scores are not known); None when she has started them all."""
    return next((lesson for lesson in lessons if lesson.exercises and not lesson.teacher
                 and not (scores or {}).get(lesson.key)), None)


class CourseIndex(View):
    """Her next step, then the lessons by group, each with a link to its dashboard and her score."""

    TEXT = TEXT

    def __init__(self, lang=None, lessons=None):
        super().__init__(lang=lang)
        self.lessons = list(lessons or LESSONS)
        self.identity = identity.widget(lang=self.lang, form=True)
        self.identity.on_change(lambda _learner: self.redraw())
        self.language.observe(lambda change: self.identity.set_language(change["new"]), names="value")
        self.next_step = w.HTML().add_class("cartas-index-next")
        self.table = w.HTML().add_class("cartas-index")
        self.refresh = w.Button(layout=w.Layout(width="200px")).add_class("cartas-refresh")
        self.refresh.on_click(self.guarded(lambda _: self.redraw()))
        self.todo = w.HTML().add_class("cartas-index-todo")
        self.levels = w.HTML().add_class("cartas-index-levels")
        self.children = [self.next_step, self.identity, self.table, self.todo, self.levels,
                         self.refresh, self.message]
        self.redraw()

    def _progress(self, lesson, learner, scores) -> str:
        if lesson.teacher:
            return self.t("teacher")
        if not lesson.exercises:
            return self.t("no_exercises")
        if learner is None or scores is None:
            return self.t("unknown")
        score = scores.get(lesson.key)
        return self.t("done", **score) if score else self.t("none")

    def _link(self, target: str, text: str, cls: str, lesson: str = "") -> str:
        data = f" data-lesson='{escape(lesson)}'" if lesson else ""
        return (f"<a class='{cls}'{data} href='{escape(target)}' style='{LINK_STYLE}'>"
                f"<b>{escape(text)}</b></a>")

    def redraw(self) -> None:
        scores = progress.load() if identity.current() is not None else None  # her token checked again
        learner = identity.current()
        groups = []
        for key, name in GROUPS:
            members = [lesson for lesson in self.lessons if lesson.group == key]
            if not members:
                continue
            items = "".join(
                f"<li data-lesson='{lesson.key}' style='margin:0 0 6px'>"
                f"{self._link(f'{lesson.notebook}?lang={self.lang}', lesson.title[self.lang], 'cartas-lesson-link')}"
                f" · <span class='cartas-progress' style='color:#555'>"
                f"{escape(self._progress(lesson, learner, scores))}</span>"
                f"<div class='cartas-lesson-what' style='font-size:14px'>{escape(lesson.summary[self.lang])}</div>"
                f"</li>" for lesson in members)
            started = sum(1 for lesson in members if (scores or {}).get(lesson.key))
            count = (self.t("group_started", n=len(members), started=started) if started
                     else self.t("group_count", n=len(members)))
            groups.append(f"<details class='cartas-index-group' data-group='{key}'><summary><b>"
                          f"{escape(name[self.lang])}</b> · {escape(count)}</summary>"
                          f"<ul style='list-style:none;padding-left:8px;margin:2px 0 8px'>{items}</ul></details>")
        if learner is None:
            whose, state = "", "waiting"
        else:
            whose = (self.t("whose", name=learner.name) if learner.name else self.t("whose_anonymous"))
            state = "unreadable" if scores is None else "ready"
        self.table.value = (f"{self.url_notice()}<h3 style='margin:12px 0 2px'>{self.t('what')}</h3>"
                            f"<div class='cartas-whose' data-state='{state}'>{escape(whose)}</div>"
                            f"<div style='font-size:16px'>{''.join(groups)}</div>")
        self.refresh.description = self.t("refresh")
        tasks, due = self._draw_homework(learner if scores is not None else None)
        self._draw_next(scores, tasks, due)
        if scores is None and learner is not None:
            self.show_message(self.t("unsaved"), kind="error")

    def _draw_next(self, scores, tasks, due) -> None:
        """Her next step: today's review, her first homework not done, the next lesson."""
        lang, steps = self.lang, []
        if due:
            steps.append(self._link(f"revisao.ipynb?lang={lang}", self.t("next_review", n=len(due)),
                                    "cartas-next-review"))
        task = next((task for task in tasks or [] if task["summary"]["done"] < task["summary"]["items"]), None)
        if task is not None:
            s = task["summary"]
            steps.append(self._link(f"tarefa.ipynb?tarefa={task['id']}&lang={lang}",
                                    self.t("next_task", title=task["title"], done=s["done"], items=s["items"],
                                           due=task["due"]), "cartas-next-task"))
        lesson = next_lesson(self.lessons, scores)
        if lesson is not None:
            key = "first_lesson" if lesson is next_lesson(self.lessons, None) else "next_lesson"
            steps.append(self._link(f"{lesson.notebook}?lang={lang}", self.t(key, title=lesson.title[lang]),
                                    "cartas-next-lesson", lesson.key))
        else:  # every lesson started: a game to play
            game = next((lesson for lesson in self.lessons if lesson.group == "play"), None)
            if game is not None:
                steps.append(self._link(f"{game.notebook}?lang={lang}", self.t("all_started"), "cartas-next-lesson",
                                        game.key))
        self.next_step.value = (f"<div class='cartas-next-steps' style='background:#e3f2fd;border-radius:8px;"
                                f"padding:4px 12px;margin:4px 0'><h3 style='margin:6px 0 2px'>{self.t('next')}</h3>"
                                + "".join(f"<div>{step}</div>" for step in steps) + "</div>")

    def _draw_homework(self, learner):
        """Her class's homework and her levels, folded (the learner checked by `progress.load`);
        returns her tasks and the skills due, for her next step."""
        from classroom.store import StoreError
        from widgets.components import homework
        if learner is None:
            self.todo.value = self.levels.value = ""
            return None, []
        titles = {lesson.key: lesson.title for lesson in self.lessons}
        try:
            in_class = bool(learner.class_code) or self.identity.hub  # under JupyterHub: her hub groups
            tasks = homework.homework_service().learner_homework(learner.key) if in_class else None
            skills = homework.mastery_service()
            levels, due = skills.learner_levels(learner.key), skills.due_skills(learner.key)
        except StoreError:
            self.todo.value = self.levels.value = ""
            return None, []
        self.todo.value = _folded("todo", homework.t("todo", self.lang),
                                  homework.todo_html(tasks, self.lang, titles, in_class))
        self.levels.value = _folded("levels", homework.t("levels", self.lang),
                                    homework.levels_html(levels, due, self.lang))
        return tasks, due


def _folded(key: str, title: str, body: str) -> str:
    """`body` folded under a line `title` (its own heading hidden: the line says it)."""
    return (f"<details class='cartas-index-fold' data-fold='{key}'><summary><b>{escape(title)}</b></summary>"
            f"{body}</details>")
