"""A homework (tarefa.ipynb?tarefa=ID): the learner's items, each with its state, to do here.

Decided rules (docs/rules.md#homework):
- `?tarefa=` is read through widgets.components.params (a malformed code: the notice, and no
  homework). The homework is shown only to a learner of its class, the learner at this browser
  checked against the store (`Identity.verified`); anyone else reads why, in her language.
- A lesson item links to its lesson and shows how many right answers she has of those needed.
- A scenario item shows what the deciding seat sees and the question; her first answer is sent
  to the store, which judges it (right when the coach counts it as good as its advice, within
  its margin: docs/rules.md#homework-near-best), and the verdict and the coach's reason stay on
  screen (a second click changes nothing). Once answered, the item shows every option's figure
  (the chance of taking the hand, of winning the bet, or the average points or chips, as the
  coach weighed them) and how far her choice was from the coach's ("2♣: 45.0%, 2.5 points
  below K♦, the best").
- A game item against the bots is played here, and only here (issue 33, docs/rules.md#homework-games):
  "Jogar aqui" asks the homework service for her homework table (`bot_table`: dealt by the
  store's tables from their own seed, the bots moved by the tables' code; a reload gives back
  her open one) and plays it under the item on the tables page's own view
  (`widgets.pages.mesa.Mesa`), the page sending only her moves; the table's end records the
  item from the table's own record, and the homework is read again. The same on a laptop (the
  store in this kernel) and under JupyterHub (the class service deals). A game at a class
  table links to the tables page, where the table's end marks it done.
"""
from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as w

from classroom import homework as hw
from classroom.identity import Learner
from classroom.store import StoreError
from widgets.components import homework as panel, learner as identity
from widgets.components.base import View, verdict_html
from widgets.components.homework import Refusal, item_text, state_text
from widgets.components.params import homework as homework_param
from widgets.pages.index import LESSONS

TEXT = {
    "title": {"pt": "Tarefa", "en": "Homework"},
    "waiting": {"pt": "Um momento: o navegador ainda não disse quem você é.",
                "en": "One moment: the browser has not said who you are yet."},
    "store_down": {"pt": "O armazenamento não responde agora; tente de novo em instantes.",
                   "en": "The store does not answer right now; try again in a moment."},
    "head": {"pt": "{title} · entrega {due} · para passar: {mark}% dos itens certos",
             "en": "{title} · due {due} · to pass: {mark}% of the items right"},
    "progress": {"pt": "{done} de {items} itens feitos, {right} certos.",
                 "en": "{done} of {items} items done, {right} right."},
    "open_lesson": {"pt": "abrir a lição", "en": "open the lesson"},
    "open_tables": {"pt": "abrir as mesas", "en": "open the tables"},
    "open_scenario": {"pt": "ver no construtor de cenários", "en": "see it in the scenario builder"},
    "play_here": {"pt": "Jogar aqui", "en": "Play here"},
    "you_are": {"pt": "Você está no assento {seat}.", "en": "You are in seat {seat}."},
    "your_cards": {"pt": "Suas cartas: {cards}.", "en": "Your cards: {cards}."},
    "vira": {"pt": "Vira: {card}.", "en": "Vira: {card}."},
    "on_table": {"pt": "Na mesa: {plays}.", "en": "On the table: {plays}."},
    "covered": {"pt": "coberta", "en": "face down"},
    "worth": {"pt": "A mão vale {value}; placar {a} a {b}.", "en": "The hand is worth {value}; score {a} to {b}."},
    "banker_shows": {"pt": "A banca mostra: {cards}.", "en": "The banker shows: {cards}."},
    "hidden": {"pt": "uma fechada", "en": "one face down"},
    "right": {"pt": "Certo!", "en": "Right!"},
    "wrong": {"pt": "Não. O treinador jogaria: {answer}.", "en": "No. The coach would play: {answer}."},
    "near": {"pt": "Certo: tão bom quanto {answer}, a escolha do treinador, dentro da margem dele.",
             "en": "Right: as good as {answer}, the coach's choice, within its margin."},
    "figures_win": {"pt": "Chance de levar a mão", "en": "Chance of taking the hand"},
    "figures_win21": {"pt": "Chance de ganhar a aposta", "en": "Chance of winning the bet"},
    "figures_points": {"pt": "Pontos em média para a dupla", "en": "Average points for the team"},
    "figures_chips": {"pt": "Fichas em média", "en": "Average chips"},
    "mine_best": {"pt": "{choice}: {value}, a melhor.", "en": "{choice}: {value}, the best."},
    "mine_below": {"pt": "{choice}: {value}, {gap} abaixo de {best}, a melhor.",
                   "en": "{choice}: {value}, {gap} below {best}, the best."},
    "mine_not_below": {"pt": "{choice}: {value}; {best}, a escolha do treinador: {best_value}.",
                       "en": "{choice}: {value}; {best}, the coach's choice: {best_value}."},
    "gap_win": {"pt": "{n} pontos", "en": "{n} points"},
    "gap_points": {"pt": "{n} ponto(s)", "en": "{n} point(s)"},
    "gap_chips": {"pt": "{n} ficha(s)", "en": "{n} chip(s)"},
    "opt_accept": {"pt": "Aceitar", "en": "Accept"},
    "opt_run": {"pt": "Correr", "en": "Run"},
    "opt_raise": {"pt": "Pedir mais", "en": "Raise"},
    "opt_hit": {"pt": "Pedir", "en": "Hit"},
    "opt_stand": {"pt": "Parar", "en": "Stand"},
    "opt_draw": {"pt": "Comprar", "en": "Draw"},
    "opt_call": {"pt": "Chamar", "en": "Call"},
    "game_saved": {"pt": "Partida registrada na tarefa.", "en": "Game recorded in the homework."},
}

NOTEBOOKS = {lesson.key: lesson.notebook for lesson in LESSONS}
TITLES = {lesson.key: lesson.title for lesson in LESSONS}



class Homework(View):
    """The homework page (see the module's rules). `code`: the homework's code (default: the
    URL's `?tarefa=`)."""

    TEXT = TEXT

    def __init__(self, code: str | None = None, lang=None):
        super().__init__(lang=lang)
        self.code = code if code is not None else self.from_url(homework_param())
        self.task: dict | None = None
        self.learner: Learner | None = None
        self.mine: list[dict] = []  # her class's homework (the list when no code is given)
        self.verdicts: dict[int, dict] = {}  # item -> the store's verdict of her answer here
        self.games: dict[int, View] = {}
        self.info = w.HTML().add_class("cartas-task-head")
        self.items_box = w.VBox().add_class("cartas-task-items")
        self.identity = identity.widget(lang=self.lang)
        self.identity.on_change(self.guarded(lambda _: self.load(), clears=False))
        self.draw_title()
        self.children = [self.header(), self.info, self.message, self.items_box]
        self.load()

    # Reading and answering -----------------------------------------------------------------
    def load(self) -> None:
        """Read the homework and her states from the store (when the learner is known)."""
        self.task = None
        if identity.current() is None:
            self.redraw()
            return
        try:
            self.learner = self.identity.verified()
            mine: list[dict] = panel.homework_service().learner_homework(self.learner.key) if self.learner else []
            self.mine = mine
            found = panel.homework_service().assignment(self.code) if self.code else None
        except StoreError:
            self.redraw()
            self.show_message(self.t("store_down"), kind="error")
            return
        self.task = next((task for task in mine if task["id"] == self.code), None)
        self.redraw()
        if self.task is None and self.code is not None:
            why = "no_assignment" if found is None else "not_yours"
            self.show_error(Refusal(hw.HomeworkError(why)))

    def answer(self, index: int, choice: str) -> dict:
        """Send her answer to item `index` (the store judges it); the verdict stays."""
        if self.task is None or self.learner is None:
            raise ValueError(self.t("waiting"))
        try:
            learner = self.identity.verified()  # her token, checked again before the write
            if learner is None:
                raise ValueError(self.t("waiting"))
            verdict = panel.homework_service().answer(self.code or "", index, learner.key, choice)
        except hw.HomeworkError as error:
            raise Refusal(error) from None
        except StoreError as error:
            raise ValueError(self.t("store_down")) from error
        self.verdicts.setdefault(index, verdict)
        self.load()
        return verdict

    def play_here(self, index: int, **setup) -> View:
        """Open her homework table of game item `index` under it, dealt by the store (see the
        module's rules). `setup`: the table's `game`, `seats`, `options`, `pace`, as for a table."""
        from classroom.remote import ServiceRefused
        from classroom.remote_tables import RefusedByService
        if index in self.games:
            return self.games[index]
        if self.task is None or self.learner is None:
            raise ValueError(self.t("waiting"))
        try:
            learner = self.identity.verified()  # her token, checked again before the table is made
            if learner is None:
                raise ValueError(self.t("waiting"))
            made = panel.homework_service().bot_table(self.code or "", index, learner.key, **setup)
        except hw.HomeworkError as error:
            raise Refusal(error) from None
        except StoreError:
            raise ValueError(self.t("store_down")) from None
        except ServiceRefused as refused:  # under JupyterHub, a refusal of the tables' family
            if refused.status >= 500:
                raise ValueError(self.t("store_down")) from None
            raise RefusedByService(refused.code, refused.pt, refused.en, refused.status) from None
        from widgets.pages.mesa import Mesa  # the tables page's own view, loaded when first played
        table: Any = Mesa(lang=self.lang, code=made["code"])

        def recorded() -> None:
            self.load()
            if self.task is not None and self.task["states"][index]["done"]:
                self.show_message(self.t("game_saved"), kind="ok")

        table.on_homework = recorded
        self.games[index] = table
        self.redraw()
        return table

    # Drawing ---------------------------------------------------------------------------------
    def redraw(self) -> None:
        self.draw_title()
        lang = self.lang
        self.identity.set_language(lang)
        task = self.task
        if task is None:
            self.items_box.children = []
            if identity.current() is None:
                self.info.value = f"<p class='cartas-task-state'>{self.t('waiting')}</p>"
            elif self.code is None:  # no code: her class's homework, each with its link
                learner = identity.current()
                in_class = bool(learner and learner.class_code) or self.identity.hub  # JupyterHub: her groups
                self.info.value = panel.todo_html(self.mine, lang, TITLES, in_class)
            else:
                self.info.value = ""
            return
        s = task["summary"]
        self.info.value = (
            f"<div class='cartas-task-state' data-task='{escape(task['id'])}' data-done='{s['done']}' "
            f"data-items='{s['items']}' style='font-size:16px'><b>"
            f"{escape(self.t('head', title=task['title'], due=task['due'], mark=task['pass_mark']))}</b><br>"
            f"{escape(self.t('progress', done=s['done'], items=s['items'], right=s['right']))}</div>")
        self.items_box.children = [self._item(i, item, state)
                                   for i, (item, state) in enumerate(zip(task["items"], task["states"]))]

    def _item(self, index: int, item: dict, state: dict) -> w.VBox:
        lang = self.lang
        head = w.HTML(f"<div class='cartas-task-item' data-item='{index}' data-kind='{item['kind']}' "
                      f"data-done='{int(state['done'])}' data-right='{int(state['right'])}' style='font-size:16px'>"
                      f"<b>{index + 1}. {escape(item_text(item, lang, TITLES))}</b> · "
                      f"<i>{escape(state_text(item, state, lang))}</i></div>")
        parts: list[w.Widget] = [head]
        if item["kind"] == "lesson":
            link = f"{NOTEBOOKS.get(item['lesson'], 'index.ipynb')}?lang={lang}"
            parts.append(w.HTML(f"<a href='{escape(link)}' style='color:#1565c0;text-decoration:underline'>"
                                f"{self.t('open_lesson')}</a>"))
        elif item["kind"] == "scenario":
            parts += self._scenario(index, item, state)
        elif item["where"] == "table":
            parts.append(w.HTML(f"<a href='mesa.ipynb?lang={lang}' style='color:#1565c0;"
                                f"text-decoration:underline'>{self.t('open_tables')}</a>"))
        elif index in self.games:
            parts.append(self.games[index])
        elif not state["done"]:
            button = w.Button(description=self.t("play_here"), button_style="primary").add_class("cartas-task-play")
            button.on_click(self.guarded(lambda _, i=index: self.play_here(i)))
            parts.append(button)
        return w.VBox(parts, layout=w.Layout(border="1px solid #ddd", padding="6px", margin="4px 0"))

    def _seen(self, item: dict) -> str:
        seen = item.get("seen") or {}
        lines = [self.t("you_are", seat=seen.get("seat", "?")),
                 self.t("your_cards", cards=" ".join(seen.get("hand", [])))]
        if "banker" in seen:
            shown = [c if c else self.t("hidden") for c in seen["banker"]]
            lines.append(self.t("banker_shows", cards=", ".join(shown)))
        else:
            if seen.get("vira"):
                lines.append(self.t("vira", card=seen["vira"]))
            if seen.get("table"):
                plays = ", ".join(f"{s}: {c or self.t('covered')}" for s, c in seen["table"])
                lines.append(self.t("on_table", plays=plays))
            score = seen.get("score", [0, 0])
            lines.append(self.t("worth", value=seen.get("value", 1), a=score[0], b=score[1]))
        return " ".join(lines)

    def _label(self, option: str) -> str:
        key = f"opt_{option}"
        return self.t(key) if key in TEXT else option

    def _scenario(self, index: int, item: dict, state: dict) -> list:
        lang = self.lang
        link = f"cenarios.ipynb?cenario={item['link']}&lang={lang}"
        parts: list[w.Widget] = [w.HTML(
            f"<div class='cartas-task-seen' style='font-size:16px'>{escape(self._seen(item))}</div>"
            f"<a href='{escape(link)}' style='color:#1565c0;text-decoration:underline;font-size:14px'>"
            f"{self.t('open_scenario')}</a>")]
        if not state["done"]:
            buttons = []
            for option in item["options"]:
                b = w.Button(description=self._label(option), layout=w.Layout(width="auto", min_width="60px"))
                b.add_class("cartas-task-option")
                b.on_click(self.guarded(lambda _, i=index, o=option: self.answer(i, o)))
                buttons.append(b)
            parts.append(w.HBox(buttons, layout=w.Layout(flex_flow="row wrap")))
        else:
            right = state["right"]
            key = self._label(item["answer"])
            near = right and state.get("choice") not in (None, item["answer"])
            head = self.t("near", answer=key) if near else self.t("right") if right else self.t("wrong", answer=key)
            verdict = verdict_html(right, f"<b>{escape(head)}</b> {escape(item['reason'][lang])}", size=16)
            parts.append(w.HTML(f"<div class='cartas-task-verdict' data-right='{int(right)}'>{verdict}"
                                f"{self._figures(item, state)}</div>"))
        return parts

    # The figures of a scenario item's options, once answered ---------------------------------
    def _number(self, item: dict, value: float, signed: bool = True) -> str:
        """A figure as the page's language writes it: a chance as 45.0%, points or chips as +0.40."""
        if item.get("figure") == "win":
            text = f"{100 * value:.1f}%"
        else:
            text = f"{value:+.2f}" if signed else f"{value:.2f}"
        return text.replace(".", ",") if self.lang == "pt" else text

    def _gap(self, item: dict, gap: float) -> str:
        figure = item.get("figure")
        if figure == "win":
            number = f"{100 * gap:.1f}"
            return self.t("gap_win", n=number.replace(".", ",") if self.lang == "pt" else number)
        return self.t(f"gap_{figure}", n=self._number(item, gap, signed=False))

    def _figures(self, item: dict, state: dict) -> str:
        """Every option's figure (the key's first) and how far her choice was from the key's;
        "" for an item stored without figures."""
        values, figure = item.get("values"), item.get("figure")
        if not isinstance(values, dict) or figure not in ("win", "points", "chips"):
            return ""
        heading = {"win": "figures_win21" if item.get("question") == "hit" else "figures_win",
                   "points": "figures_points", "chips": "figures_chips"}[figure]
        key, accepted = item["answer"], item.get("accepted") or [item["answer"]]
        order = sorted(values, key=lambda o: (o != key, -values[o]))
        rows = "".join(f"<li data-option='{escape(o)}' data-value='{values[o]:.4f}' "
                       f"data-accepted='{int(o in accepted)}'>{escape(self._label(o))}: "
                       f"{escape(self._number(item, values[o]))}</li>" for o in order)
        choice = state.get("choice")
        line = ""
        if isinstance(choice, str) and choice in values:
            fields = {"choice": self._label(choice), "value": self._number(item, values[choice]),
                      "best": self._label(key), "best_value": self._number(item, values[key])}
            gap = values[key] - values[choice]
            if choice == key:
                line = self.t("mine_best", **fields)
            elif gap > 0:
                line = self.t("mine_below", gap=self._gap(item, gap), **fields)
            else:
                line = self.t("mine_not_below", **fields)
        return (f"<div class='cartas-task-figures' style='font-size:15px;margin-top:6px'>"
                f"<div class='cartas-task-mine'><b>{escape(line)}</b></div>"
                f"<div>{escape(self.t(heading))}:</div><ul style='margin:2px 0'>{rows}</ul></div>")
