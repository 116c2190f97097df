"""The course: every lesson's dashboard, listed on the index with the session's progress."""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

import ipywidgets as w

from . import progress
from .base import View


@dataclass(frozen=True)
class Lesson:
    key: str          # the progress key its exercises record under
    notebook: str     # file name in notebooks/
    title: dict       # {"pt": ..., "en": ...}
    summary: dict


LESSONS: list[Lesson] = [
    Lesson("manilhas", "manilhas.ipynb",
           {"pt": "As manilhas", "en": "The manilhas"},
           {"pt": "A vira, a ordem natural das cartas e as manilhas do Paulista e do Mineiro.",
            "en": "The vira, the natural order of the cards and the manilhas of Paulista and Mineiro."}),
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
]

TEXT = {
    "title": {"pt": "Cartas: aprenda truco e 21", "en": "Cartas: learn truco and 21"},
    "lesson": {"pt": "Lição", "en": "Lesson"},
    "what": {"pt": "O que se aprende", "en": "What you learn"},
    "progress": {"pt": "Exercícios", "en": "Exercises"},
    "open": {"pt": "abrir", "en": "open"},
    "none": {"pt": "ainda não começou", "en": "not started yet"},
    "done": {"pt": "{right} de {asked} certas", "en": "{right} of {asked} right"},
    "refresh": {"pt": "Atualizar progresso", "en": "Refresh progress"},
}


class CourseIndex(View):
    """The list of lessons, each with a link to its dashboard and the session's score."""

    TEXT = TEXT

    def __init__(self, lang=None, lessons=None):
        super().__init__(lang=lang)
        self.lessons = list(lessons or LESSONS)
        self.table = w.HTML().add_class("cartas-index")
        self.refresh = w.Button(layout=w.Layout(width="200px")).add_class("cartas-refresh")
        self.refresh.on_click(self.guarded(lambda _: self.redraw()))
        self.children = [self.language, self.table, self.refresh, self.message]
        self.redraw()

    def redraw(self) -> None:
        scores = progress.load()
        rows = []
        for lesson in self.lessons:
            score = scores.get(lesson.key)
            done = self.t("done", **score) if score else self.t("none")
            link = f"{lesson.notebook}?lang={self.lang}"
            rows.append(
                f"<tr data-lesson='{lesson.key}'><td><a href='{escape(link)}'><b>{escape(lesson.title[self.lang])}</b></a></td>"
                f"<td>{escape(lesson.summary[self.lang])}</td><td class='cartas-progress'>{escape(done)}</td></tr>"
            )
        head = f"<tr><th>{self.t('lesson')}</th><th>{self.t('what')}</th><th>{self.t('progress')}</th></tr>"
        self.table.value = (f"<h3>{self.t('title')}</h3><table style='font-size:16px;border-spacing:10px 6px'>"
                            f"{head}{''.join(rows)}</table>")
        self.refresh.description = self.t("refresh")
