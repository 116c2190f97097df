"""Homework and mastery in the dashboards: the teacher's part of the class view, and what the
index shows a learner (her "Para fazer" / "To do" and her levels per skill).

Decided rules (docs/rules.md#homework, docs/rules.md#mastery-levels):
- The teacher composes an assignment item by item (a lesson with how many right answers, a
  scenario link, a whole game), each item checked when added, so a refused link says why
  beside the link field; then gives it a title, a due day and a pass mark and creates it.
- The results are learners x items: done (✓), right or wrong, late; the CSV export has the
  same cells, headers in the teacher's language, UTF-8 with a byte-order mark (so a
  spreadsheet reads the accents), and cells a spreadsheet would run as formulas quoted; a
  second link gives it with ";" between cells, for a Brazilian spreadsheet.
- The mastery table is learners x skills with each level's name, then the class's hardest
  skills (lowest share of right recent answers first).
- Everything goes through `homework_service()` and `mastery_service()` (the store's, in this
  process), so a class service can stand in without the widgets changing.
- Every refusal (classroom.homework.HomeworkError) is shown in the page's language from TEXT.
"""
from __future__ import annotations

import csv
import io
from datetime import date, datetime, timedelta
from html import escape
from urllib.parse import quote

import ipywidgets as w

from classroom import homework as hw, mastery
from widgets.components.base import scroll_x
from widgets.components.i18n import translate

TEXT = {
    "head": {"pt": "Tarefas", "en": "Homework"},
    "compose": {"pt": "Nova tarefa", "en": "New homework"},
    "title": {"pt": "Título da tarefa (até {n} caracteres)", "en": "Homework title (up to {n} characters)"},
    "due": {"pt": "Entrega (AAAA-MM-DD)", "en": "Due (YYYY-MM-DD)"},
    "due_label": {"pt": "Entrega", "en": "Due"},
    "pass": {"pt": "Nota para passar (%)", "en": "Pass mark (%)"},
    "kind": {"pt": "Item", "en": "Item"},
    "kind_lesson": {"pt": "Lição", "en": "Lesson"},
    "lesson": {"pt": "Lição", "en": "Lesson"},  # the lesson dropdown's name (axe select-name)
    "kind_scenario": {"pt": "Cenário", "en": "Scenario"},
    "kind_game": {"pt": "Partida", "en": "Game"},
    "need": {"pt": "Acertos pedidos", "en": "Right answers needed"},
    "link": {"pt": "Link do cenário (do construtor de cenários)", "en": "Scenario link (from the scenario builder)"},
    "game_truco_bots": {"pt": "Truco contra os robôs", "en": "Truco against the bots"},
    "game_21_bots": {"pt": "21 contra os robôs", "en": "21 against the bots"},
    "game_truco_table": {"pt": "Truco numa mesa com colegas", "en": "Truco at a table with classmates"},
    "game_21_table": {"pt": "21 numa mesa com colegas", "en": "21 at a table with classmates"},
    "goal_play": {"pt": "jogar até o fim (ganhando ou perdendo)", "en": "play to the end (won or lost)"},
    "goal_win": {"pt": "vencer a partida", "en": "win the game"},
    "goal": {"pt": "Pede", "en": "Asks to"},
    "item_goal_play": {"pt": "jogar até o fim", "en": "play to the end"},
    "item_goal_win": {"pt": "vencer", "en": "win"},
    "result_won": {"pt": "ganhou", "en": "won"},
    "result_lost": {"pt": "perdeu", "en": "lost"},
    "result_col": {"pt": "{item}: resultado", "en": "{item}: result"},
    "add": {"pt": "Adicionar item", "en": "Add item"},
    "drop": {"pt": "Tirar o último", "en": "Remove the last"},
    "create": {"pt": "Passar a tarefa", "en": "Assign"},
    "no_items": {"pt": "Nenhum item ainda.", "en": "No items yet."},
    "created": {"pt": "Tarefa «{title}» passada para a turma.", "en": "Homework “{title}” given to the class."},
    "which": {"pt": "Resultados de", "en": "Results of"},
    "results_name": {"pt": "Resultados da tarefa", "en": "Homework results"},  # its table's scrolling box
    "none_yet": {"pt": "Nenhuma tarefa ainda.", "en": "No homework yet."},
    "learner": {"pt": "Aluno", "en": "Learner"},
    "passed": {"pt": "Passou", "en": "Passed"},
    "yes": {"pt": "sim", "en": "yes"},
    "no": {"pt": "não", "en": "no"},
    "done_col": {"pt": "{item}: feito", "en": "{item}: done"},
    "right_col": {"pt": "{item}: certo", "en": "{item}: right"},
    "late_col": {"pt": "{item}: atrasado", "en": "{item}: late"},
    "csv": {"pt": "Baixar CSV da tarefa", "en": "Download the homework CSV"},
    "csv_br": {"pt": "Baixar CSV da tarefa para planilha em português (;)",
               "en": "Download the homework CSV for Brazilian spreadsheets (;)"},
    "late": {"pt": "atrasado", "en": "late"},
    "anonymous": {"pt": "(sem nome)", "en": "(no name)"},
    # an item, as a line
    "item_lesson": {"pt": "{lesson}: {need} acertos", "en": "{lesson}: {need} right answers"},
    "item_scenario_play": {"pt": "Cenário: o que você jogaria aqui?", "en": "Scenario: what would you play here?"},
    "item_scenario_answer": {"pt": "Cenário: aceitar, correr ou pedir mais?", "en": "Scenario: accept, run or raise?"},
    "item_scenario_hit": {"pt": "Cenário: pedir ou parar?", "en": "Scenario: hit or stand?"},
    "item_scenario_banker": {"pt": "Cenário: comprar ou chamar?", "en": "Scenario: draw or call?"},
    "item_game": {"pt": "Partida: {game} ({goal})", "en": "Game: {game} ({goal})"},
    # the learner's side
    "todo": {"pt": "Para fazer", "en": "To do"},
    "todo_none": {"pt": "Nenhuma tarefa da turma.", "en": "No homework from your class."},
    "todo_class": {"pt": "Entre numa turma para ver as tarefas.", "en": "Join a class to see its homework."},
    "todo_line": {"pt": "{done} de {items} itens feitos · entrega {due}",
                  "en": "{done} of {items} items done · due {due}"},
    "state_done": {"pt": "feito", "en": "done"},
    "state_wrong": {"pt": "feito, errado", "en": "done, wrong"},
    "state_open": {"pt": "a fazer", "en": "to do"},
    "state_count": {"pt": "{count} de {need}", "en": "{count} of {need}"},
    "open_task": {"pt": "abrir a tarefa", "en": "open the homework"},
    "overdue": {"pt": "prazo vencido", "en": "overdue"},
    "passed_badge": {"pt": "passou", "en": "passed"},
    "levels": {"pt": "Seu nível por habilidade", "en": "Your level per skill"},
    "levels_none": {"pt": "Responda aos exercícios para ver seus níveis.",
                    "en": "Answer the exercises to see your levels."},
    "skill": {"pt": "Habilidade", "en": "Skill"},
    "level": {"pt": "Nível", "en": "Level"},
    "review": {"pt": "Revisão do dia", "en": "Today's review"},
    "review_due": {"pt": "{n} habilidade(s) para revisar hoje", "en": "{n} skill(s) to review today"},
    # the class's mastery
    "mastery": {"pt": "Domínio por habilidade", "en": "Mastery per skill"},
    "mastery_none": {"pt": "Ainda não há respostas com habilidade.", "en": "No answers with a skill yet."},
    "hardest": {"pt": "O que a turma acha mais difícil: {skills}", "en": "What the class finds hardest: {skills}"},
    "rate": {"pt": "{skill} ({percent}% certas)", "en": "{skill} ({percent}% right)"},
    # refusals (classroom.homework.HomeworkError codes)
    "err_bad_title": {"pt": "Dê um título à tarefa (até {n} caracteres).",
                      "en": "Give the homework a title (up to {n} characters)."},
    "err_long_title": {"pt": "O título tem {count} caracteres; o máximo é {n}. Encurte-o (nada foi cortado).",
                       "en": "The title has {count} characters; the most is {n}. Shorten it (nothing was cut)."},
    "err_bad_due": {"pt": "A data de entrega «{due}» não é uma data como 2026-12-20.",
                    "en": "The due date “{due}” is not a date such as 2026-12-20."},
    "err_bad_pass_mark": {"pt": "A nota para passar vai de {low} a {high}%.",
                          "en": "The pass mark goes from {low} to {high}%."},
    "err_bad_items": {"pt": "Uma tarefa tem de 1 a {n} itens.", "en": "A homework has 1 to {n} items."},
    "err_bad_item": {"pt": "Esse item não existe nesta tarefa.", "en": "That item is not in this homework."},
    "err_bad_lesson": {"pt": "A lição «{lesson}» não tem exercícios.", "en": "The lesson “{lesson}” has no exercises."},
    "err_bad_need": {"pt": "Os acertos pedidos vão de {low} a {high}.",
                     "en": "The right answers needed go from {low} to {high}."},
    "err_bad_scenario": {"pt": "O link do cenário não serve: {why}", "en": "The scenario link cannot be used: {why}"},
    "err_no_question": {"pt": "Nesse cenário ninguém tem uma decisão para o treinador julgar.",
                        "en": "In that scenario nobody has a decision for the coach to judge."},
    "err_bad_game": {"pt": "A partida «{game}» não existe.", "en": "There is no game “{game}”."},
    "err_bad_choice": {"pt": "Essa resposta não é uma das opções.", "en": "That answer is not one of the options."},
    "err_not_yours": {"pt": "Esta tarefa não é da sua turma.", "en": "This homework is not your class's."},
    "err_no_assignment": {"pt": "Essa tarefa não existe (confira o link).",
                          "en": "That homework does not exist (check the link)."},
    "err_bad_id": {"pt": "O link não traz um código de tarefa válido.", "en": "The link has no valid homework code."},
    # a game item, played on her homework table (widgets.pages.tarefa, classroom.homework.bot_table)
    "game_saved": {"pt": "Partida registrada na tarefa.", "en": "Game recorded in the homework."},
    "err_by_game": {"pt": "Este item é feito jogando a partida até o fim.",
                    "en": "This item is done by playing the game to its end."},
    "err_other_game": {"pt": "Este item da tarefa pede uma partida de outro jogo.",
                       "en": "This homework item asks for a game of another kind."},
    "err_other_variant": {"pt": "Este item da tarefa pede outra variante do jogo.",
                          "en": "This homework item asks for another variant of the game."},
    "err_service_deals": {"pt": "No JupyterHub, uma partida contra os robôs só vale para a tarefa se o serviço das "
                                "turmas a distribuir: jogue-a pela página da tarefa, em «Jogar aqui».",
                          "en": "On JupyterHub a game against the bots counts for the homework only when the class "
                                "service deals it: play it from the homework's page, with “Play here”."},
    "err_item_done": {"pt": "Este item já está feito: a primeira partida terminada é a que vale.",
                      "en": "This item is done already: the first finished game is the one that counts."},
    "err_scenario_games": {"pt": "Uma partida da tarefa contra os robôs é sempre distribuída pela turma: uma "
                                 "partida começada de um cenário não pode valer (tire «scenarios» do item).",
                           "en": "A homework game against the bots is always dealt by the class: a game started "
                                 "from a scenario cannot count (take “scenarios” out of the item)."},
}

# a game item's choices: each family of the registry against bots, then each at a class table
GAME_CHOICES = tuple((family, place) for place in hw.PLACES for family in hw.GAMES)


def t(key: str, lang: str, **fields) -> str:
    return translate(TEXT, key, lang, **fields)


class Refusal(ValueError):
    """A HomeworkError as the page shows it: `message(lang)` in Portuguese or English."""

    def __init__(self, error: hw.HomeworkError):
        super().__init__(error.code)
        self.error = error

    def message(self, lang: str = "pt") -> str:
        fields = {k: (v.get(lang, "") if isinstance(v, dict) else v) for k, v in self.error.fields.items()}
        return t(f"err_{self.error.code}", lang, **fields)


def homework_service() -> hw.HomeworkService:
    """Who answers questions about homework: this kernel's classroom (`classroom.open()`: this
    process's store, or under JupyterHub the class service)."""
    from classroom import open as open_classroom
    return open_classroom().homework()


def mastery_service() -> mastery.MasteryService:
    from classroom import open as open_classroom
    return open_classroom().mastery()


def _spreadsheet_safe(value) -> str:
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def item_text(item: dict, lang: str, lesson_titles: dict) -> str:
    """One item as a line in `lang` (plain text)."""
    if item["kind"] == "lesson":
        title = lesson_titles.get(item["lesson"], {}).get(lang, item["lesson"])
        return t("item_lesson", lang, lesson=title, need=item["need"])
    if item["kind"] == "scenario":
        return t(f"item_scenario_{item['question']}", lang)
    return t("item_game", lang, game=t(f"game_{item['game']}_{item['where']}", lang),
             goal=t(f"item_goal_{item.get('goal', 'play')}", lang))


def result_text(state: dict, lang: str) -> str:
    """A finished game's result as the teacher and the learner read it: "perdeu 8-12" /
    "lost 8-12" (her side's score first); "" for an item that is no game or not done."""
    if state.get("choice") not in ("won", "lost"):
        return ""
    return " ".join(part for part in (t(f"result_{state['choice']}", lang), state.get("score") or "") if part)


def state_text(item: dict, state: dict, lang: str) -> str:
    if state["done"]:
        text = t("state_done" if state["right"] else "state_wrong", lang)
        result = result_text(state, lang)
        return text + (f": {result}" if result else "") + (f" ({t('late', lang)})" if state["late"] else "")
    if item["kind"] == "lesson":
        return f"{t('state_open', lang)} ({t('state_count', lang, count=state['count'], need=item['need'])})"
    return t("state_open", lang)


def todo_html(tasks: list[dict] | None, lang: str, lesson_titles: dict, in_class: bool) -> str:
    """The index's "Para fazer" / "To do": each assignment with its items' states."""
    head = f"<h4 style='margin:10px 0 4px'>{t('todo', lang)}</h4>"
    if not in_class:
        return f"<div class='cartas-todo' data-state='no-class'>{head}<p>{t('todo_class', lang)}</p></div>"
    if not tasks:
        return f"<div class='cartas-todo' data-state='empty'>{head}<p>{t('todo_none', lang)}</p></div>"
    blocks = []
    for task in tasks:
        s = task["summary"]
        badges = ""
        if s["passed"] and s["done"] == s["items"]:
            badges += f" · <b style='color:#1b5e20'>{t('passed_badge', lang)}</b>"
        if s["overdue"]:
            badges += f" · <b style='color:#b71c1c'>{t('overdue', lang)}</b>"
        items = "".join(
            f"<li data-item='{i}' data-done='{int(st['done'])}'>{escape(item_text(item, lang, lesson_titles))}: "
            f"<i>{escape(state_text(item, st, lang))}</i></li>"
            for i, (item, st) in enumerate(zip(task["items"], task["states"])))
        link = f"tarefa.ipynb?tarefa={task['id']}&lang={lang}"
        blocks.append(
            f"<div class='cartas-todo-task' data-task='{escape(task['id'])}' data-done='{s['done']}' "
            f"data-items='{s['items']}'><b>{escape(task['title'])}</b> · "
            f"{escape(t('todo_line', lang, done=s['done'], items=s['items'], due=task['due']))}{badges} · "
            f"<a class='cartas-todo-link' href='{escape(link)}' style='color:#1565c0;text-decoration:underline'>"
            f"{t('open_task', lang)}</a><ul style='margin:2px 0'>{items}</ul></div>")
    return f"<div class='cartas-todo' data-state='ready'>{head}{''.join(blocks)}</div>"


def levels_html(levels: dict | None, due: list[str], lang: str) -> str:
    """The index's levels per skill, and a link to today's review."""
    head = f"<h4 style='margin:10px 0 4px'>{t('levels', lang)}</h4>"
    if not levels:
        return f"<div class='cartas-levels' data-state='empty'>{head}<p>{t('levels_none', lang)}</p></div>"
    rows = "".join(
        f"<tr data-skill='{skill.key}' data-level='{levels[skill.key]['level']}'>"
        f"<td>{escape(skill.name[lang])}</td>"
        f"<td>{escape(mastery.LEVEL_NAMES[levels[skill.key]['level']][lang])}</td></tr>"
        for skill in mastery.SKILLS if skill.key in levels)
    link = f"revisao.ipynb?lang={lang}"
    review = (f"<p><a class='cartas-review-link' href='{escape(link)}' style='color:#1565c0;"
              f"text-decoration:underline'><b>{t('review', lang)}</b></a>"
              f"{(' · ' + escape(t('review_due', lang, n=len(due)))) if due else ''}</p>")
    return (f"<div class='cartas-levels' data-state='ready'>{head}<table style='font-size:15px;"
            f"border-spacing:10px 2px'><tr><th>{t('skill', lang)}</th><th>{t('level', lang)}</th></tr>"
            f"{rows}</table>{review}</div>")


class HomeworkPanel(w.VBox):
    """The teacher's homework and mastery, inside the class view `view` (a View: its language,
    `guarded` and `beside`). `lessons`: the lessons with exercises (key, title) to choose from."""

    def __init__(self, view, lessons):
        super().__init__(_dom_classes=("cartas-homework",))
        self.view = view
        self.lessons = [lesson for lesson in lessons if lesson.key in hw.LESSON_KEYS]
        self.titles = {lesson.key: lesson.title for lesson in lessons}
        self.code: str | None = None
        self.items: list[dict] = []
        self.tasks: list[dict] = []
        self.results: dict | None = None
        self.class_mastery: dict | None = None
        self.names: dict[str, str] = {}
        self.head = w.HTML()
        self.title = w.Text(layout=w.Layout(width="420px")).add_class("cartas-hw-title")
        self.due = w.Text(value=(date.today() + timedelta(days=7)).isoformat(),
                          layout=w.Layout(width="150px")).add_class("cartas-hw-due")
        self.pass_mark = w.BoundedIntText(value=60, min=0, max=100, layout=w.Layout(width="250px"))
        self.pass_mark.add_class("cartas-hw-pass")
        # each named by its description (an empty one leaves the select with a hidden <label>:
        # axe's select-name), as wide as its name and its longest choice need
        self.kind = w.Dropdown(layout=w.Layout(width="200px"), style={"description_width": "initial"}
                               ).add_class("cartas-hw-kind")
        self.lesson = w.Dropdown(layout=w.Layout(width="340px"), style={"description_width": "initial"}
                                 ).add_class("cartas-hw-lesson")
        self.need = w.BoundedIntText(value=5, min=1, max=hw.MAX_NEED, layout=w.Layout(width="160px"))
        self.need.add_class("cartas-hw-need")
        self.link = w.Text(layout=w.Layout(width="420px")).add_class("cartas-hw-link")
        self.game = w.Dropdown(layout=w.Layout(width="280px")).add_class("cartas-hw-game")
        self.goal = w.Dropdown(layout=w.Layout(width="340px")).add_class("cartas-hw-goal")
        self.add_button = w.Button(layout=w.Layout(width="150px")).add_class("cartas-hw-add")
        self.drop_button = w.Button(layout=w.Layout(width="150px")).add_class("cartas-hw-drop")
        self.create_button = w.Button(button_style="primary", layout=w.Layout(width="170px"))
        self.create_button.add_class("cartas-hw-create")
        self.item_list = w.HTML().add_class("cartas-hw-items")
        self.which = w.Dropdown(layout=w.Layout(width="320px")).add_class("cartas-hw-which")
        self.table = w.HTML().add_class("cartas-hw-results")
        self.download = w.HTML().add_class("cartas-hw-csv")
        self.mastery = w.HTML().add_class("cartas-class-mastery")
        self.lesson_row = w.HBox([self.lesson, self.need])
        self.link_row = view.beside(self.link)
        self.game_row = w.HBox([self.game, self.goal], layout=w.Layout(flex_flow="row wrap"))
        self.kind.observe(view.guarded(lambda _: self._show_kind()), names="value")
        self.add_button.on_click(view.guarded(lambda _: self.add_item(), near=self.link))
        self.drop_button.on_click(view.guarded(lambda _: self.drop_item()))
        self.create_button.on_click(view.guarded(lambda _: self.create(), near=self.create_button))
        self.which.observe(view.guarded(lambda _: self.load_results(), clears=False), names="value")
        heading = w.HBox([self.title, self.due, self.pass_mark], layout=w.Layout(flex_flow="row wrap"))
        self.children = [self.head, heading,
                         w.HBox([self.kind]), self.lesson_row, self.link_row, self.game_row,
                         w.HBox([self.add_button, self.drop_button]), self.item_list,
                         view.beside(self.create_button), self.which, self.table, self.download, self.mastery]
        self.redraw()

    # Composing ------------------------------------------------------------------------
    def _show_kind(self) -> None:
        kind = self.kind.value
        self.lesson_row.layout.display = "" if kind == "lesson" else "none"
        self.link_row.layout.display = "" if kind == "scenario" else "none"
        self.game_row.layout.display = "" if kind == "game" else "none"

    def add_item(self) -> dict:
        """Check the item being composed and add it (a refusal is shown beside the link)."""
        kind = self.kind.value
        if kind == "lesson":
            spec: dict = {"kind": "lesson", "lesson": self.lesson.value, "need": int(self.need.value)}
        elif kind == "scenario":
            spec = {"kind": "scenario", "link": self.link.value}
        else:
            game, where = GAME_CHOICES[self.game.value]
            spec = {"kind": "game", "game": game, "where": where, "goal": self.goal.value or "play"}
        if len(self.items) >= hw.MAX_ITEMS:
            raise Refusal(hw.HomeworkError("bad_items", n=hw.MAX_ITEMS))
        try:
            item = hw.check_item(spec)
        except hw.HomeworkError as error:
            raise Refusal(error) from None
        self.items.append(item)
        if kind == "scenario":
            self.link.value = ""
        self.redraw()
        return item

    def drop_item(self) -> None:
        if self.items:
            self.items.pop()
            self.redraw()

    def create(self) -> dict | None:
        if self.code is None:
            return None
        from classroom.store import StoreError
        try:
            made = homework_service().create(self.code, self.title.value, self.due.value.strip(),
                                             int(self.pass_mark.value), self.items)
        except hw.HomeworkError as error:
            raise Refusal(error) from None
        except StoreError as error:
            raise ValueError(self.view.store_problem(error)) from error
        self.items = []
        self.title.value = ""
        self.view.show_message(t("created", self.view.lang, title=made["title"]), kind="ok")
        self.show(self.code, self.names, pick=made["id"])
        return made

    # Reading -----------------------------------------------------------------------------
    def show(self, code: str, names: dict[str, str], pick: str | None = None) -> None:
        """Show class `code`'s homework and mastery (`names`: learner id -> name). StoreError
        goes to the caller."""
        self.code, self.names = code, names
        self.tasks = homework_service().class_assignments(code)
        self.class_mastery = mastery_service().class_levels(code)
        options = [(task["title"] + f" · {task['due']}", task["id"]) for task in self.tasks]
        chosen = pick or self.which.value
        if list(self.which.options) != options:
            self.which.options = options
        if options:
            ids = [o[1] for o in options]
            self.which.value = chosen if chosen in ids else ids[0]
        self.load_results()

    def load_results(self) -> None:
        self.results = homework_service().class_results(self.which.value) if self.which.value else None
        self.redraw()

    def csv_text(self, brazil: bool = False) -> str:
        """The chosen assignment's results, with a byte-order mark and headers in the teacher's
        language; `brazil`: ";" between cells, for a Brazilian spreadsheet."""
        lang = self.view.lang
        out = io.StringIO()
        out.write("\ufeff")
        writer = csv.writer(out, delimiter=";" if brazil else ",")
        task = self.results
        if task is None:
            return out.getvalue()
        heads = [t("learner", lang)]
        for i, item in enumerate(task["items"], 1):
            label = f"{i}. {item_text(item, lang, self.titles)}"
            heads += [t("done_col", lang, item=label), t("right_col", lang, item=label),
                      t("late_col", lang, item=label)]
            if item["kind"] == "game":
                heads.append(t("result_col", lang, item=label))
        writer.writerow([*heads, t("passed", lang)])
        yes, no = t("yes", lang), t("no", lang)
        for row in task["learners"]:
            cells = []
            for item, state in zip(task["items"], row["states"]):
                cells += [yes if state["done"] else no, yes if state["right"] else no, yes if state["late"] else no]
                if item["kind"] == "game":
                    cells.append(result_text(state, lang))
            writer.writerow([_spreadsheet_safe(row["name"] or t("anonymous", lang)), *cells,
                             yes if row["summary"]["passed"] else no])
        return out.getvalue()

    def redraw(self) -> None:
        lang = self.view.lang
        self.head.value = f"<h4>{t('head', lang)}</h4><b>{t('compose', lang)}</b>"
        self.title.placeholder = t("title", lang, n=hw.MAX_TITLE)
        self.due.description, self.due.placeholder = "", t("due", lang)
        self.pass_mark.description = t("pass", lang)
        self.pass_mark.style.description_width = "initial"
        self.need.description = t("need", lang)
        self.need.style.description_width = "initial"
        self.kind.description, self.lesson.description = t("kind", lang), t("lesson", lang)
        kinds = [(t(f"kind_{k}", lang), k) for k in ("lesson", "scenario", "game")]
        if list(self.kind.options) != kinds:
            keep = self.kind.value or "lesson"
            self.kind.options = kinds
            self.kind.value = keep
        lessons = [(lesson.title[lang], lesson.key) for lesson in self.lessons]
        if list(self.lesson.options) != lessons:
            keep = self.lesson.value
            self.lesson.options = lessons
            if keep in hw.LESSON_KEYS and lessons:
                self.lesson.value = keep
        games = [(t(f"game_{g}_{p}", lang), i) for i, (g, p) in enumerate(GAME_CHOICES)]
        if list(self.game.options) != games:
            keep = self.game.value or 0
            self.game.options = games
            self.game.value = keep
        goals = [(t(f"goal_{g}", lang), g) for g in hw.GOALS]
        if list(self.goal.options) != goals:
            keep_goal = self.goal.value or "play"
            self.goal.options = goals
            self.goal.value = keep_goal
        self.goal.description = t("goal", lang)
        self.link.placeholder = t("link", lang)
        self.add_button.description, self.drop_button.description = t("add", lang), t("drop", lang)
        self.create_button.description = t("create", lang)
        self.which.description = t("which", lang)
        self.which.style.description_width = "initial"
        self._show_kind()
        lines = "".join(f"<li>{escape(item_text(item, lang, self.titles))}</li>" for item in self.items)
        self.item_list.value = (f"<ol data-count='{len(self.items)}'>{lines}</ol>" if self.items
                                else f"<p data-count='0'>{t('no_items', lang)}</p>")
        self._draw_results(lang)
        self._draw_mastery(lang)

    def _draw_results(self, lang: str) -> None:
        task = self.results
        if task is None:
            self.table.value = f"<p>{t('none_yet', lang)}</p>" if self.code else ""
            self.download.value = ""
            return
        heads = "".join(f"<th title='{escape(item_text(item, lang, self.titles))}'>{i}. "
                        f"{escape(item_text(item, lang, self.titles))}</th>"
                        for i, item in enumerate(task["items"], 1))
        body = []
        for row in task["learners"]:
            cells = []
            for item, state in zip(task["items"], row["states"]):
                mark = ("✓" if state["right"] else "✗") if state["done"] else "–"
                late = f" <i>({t('late', lang)})</i>" if state["late"] else ""
                count = "" if state["done"] or item["kind"] != "lesson" else f" {state['count']}/{item['need']}"
                result = result_text(state, lang)
                shown = f" <span class='cartas-hw-result'>{escape(result)}</span>" if result else ""
                cells.append(f"<td data-done='{int(state['done'])}' data-right='{int(state['right'])}' "
                             f"data-late='{int(state['late'])}' data-result='{escape(state.get('choice') or '')}'>"
                             f"{mark}{count}{shown}{late}</td>")
            passed = t("yes" if row["summary"]["passed"] else "no", lang)
            body.append(f"<tr data-learner='{escape(row['name'])}'><td><b>{escape(row['name'] or t('anonymous', lang))}"
                        f"</b></td>{''.join(cells)}<td class='cartas-hw-passed'>{passed}</td></tr>")
        due = datetime.fromtimestamp(task["due_at"]).strftime("%d/%m/%Y") if lang == "pt" else task["due"]
        self.table.value = (
            f"<div data-task='{escape(task['id'])}'><b>{escape(task['title'])}</b> · {t('due_label', lang)} {due} · "
            f"{t('pass', lang)}: {task['pass_mark']}</div>"
            + scroll_x("<table style='font-size:14px;border-collapse:collapse' border='1' cellpadding='4'>"
                       f"<tr><th>{t('learner', lang)}</th>{heads}<th>{t('passed', lang)}</th></tr>"
                       f"{''.join(body)}</table>", t("results_name", lang)))
        self.download.value = (
            f"<a class='cartas-csv-standard' download='tarefa-{escape(task['id'])}.csv' "
            f"href='data:text/csv;charset=utf-8,{quote(self.csv_text())}'>{t('csv', lang)}</a> · "
            f"<a class='cartas-csv-br' download='tarefa-{escape(task['id'])}-planilha-br.csv' "
            f"href='data:text/csv;charset=utf-8,{quote(self.csv_text(brazil=True))}'>{t('csv_br', lang)}</a>")

    def _draw_mastery(self, lang: str) -> None:
        seen = self.class_mastery
        if seen is None:
            self.mastery.value = ""
            return
        head = f"<h4>{t('mastery', lang)}</h4>"
        if not seen["learners"]:
            self.mastery.value = f"{head}<p>{t('mastery_none', lang)}</p>"
            return
        skills = [s for s in mastery.SKILLS if s.key in seen["skills"]]
        heads = "".join(f"<th>{escape(s.name[lang])}</th>" for s in skills)
        rows = []
        for pid, levels in sorted(seen["learners"].items(), key=lambda kv: self.names.get(kv[0], kv[0])):
            cells = "".join(
                f"<td data-skill='{s.key}' data-level='{levels.get(s.key) or ''}'>"
                f"{escape(mastery.LEVEL_NAMES[levels[s.key]][lang]) if levels.get(s.key) else '–'}</td>"
                for s in skills)
            name = self.names.get(pid) or t("anonymous", lang)
            rows.append(f"<tr data-learner='{escape(name)}'><td><b>{escape(name)}</b></td>{cells}</tr>")
        hardest = ", ".join(t("rate", lang, skill=mastery.BY_KEY[k].name[lang],
                              percent=round(100 * seen["skills"][k]["rate"])) for k in seen["hardest"][:3])
        self.mastery.value = (
            head + scroll_x("<table style='font-size:14px;border-collapse:collapse' border='1' cellpadding='4'>"
                            f"<tr><th>{t('learner', lang)}</th>{heads}</tr>{''.join(rows)}</table>",
                            t("mastery", lang)) +
            f"<p class='cartas-hardest' data-hardest='{escape(','.join(seen['hardest']))}'>"
            f"{escape(t('hardest', lang, skills=hardest))}</p>")
