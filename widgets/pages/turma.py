"""The teacher's class view: create a class, open it with its teacher key, follow the learners.

Decided rules:
- Creating a class shows its code (for the learners) and its teacher key once; the store keeps
  only a hash of the key (classroom.classes).
- The table opens only with the class code and its teacher key: the code alone, which every
  learner has, is refused with the same message as a wrong key.
- The table is learners x lessons with exercises: "right/asked" per lesson, last activity,
  lessons started (at least one answer) and lessons done. A lesson is done once the learner
  has DONE_RIGHT right answers in it (classroom.progress); both counts take only the lessons
  of the table, and the definition is written under it. Names are escaped.
- While the table is open and the page is visible, the browser pings the kernel every
  REFRESH_SECONDS (a timer in a small anywidget); the kernel never loops or sleeps.
- CSV export is a download link holding the table (data URI): UTF-8 with a byte order mark
  (so a spreadsheet reads "ç" and "º"), headers in the teacher's language; a cell that a
  spreadsheet would run as a formula gets a leading apostrophe. Beside it, the same table as a
  CSV for Brazilian spreadsheets, which read ";" as the separator and "," as the decimal mark:
  ";" between cells and a decimal comma in any number with decimals (same BOM, same quoting).
- "Lembrar neste aparelho" (classroom.classes): opening with the key and that box ticked
  keeps a device token for this class in the browser's localStorage (never the key); on the
  next visit the page opens that class with it. "Esquecer neste aparelho" forgets it here;
  "Esquecer todos os aparelhos", with the key, revokes every token of the class (a stolen
  device's too). A token the store no longer knows is dropped from the browser. Under
  JupyterHub the hub's login is the teacher: no key and no remembered device are shown.
- Removing a learner asks for confirmation and deletes her answers in this class only; a
  removed learner who answers again appears again, starting from nothing.
"""
from __future__ import annotations

import csv
import io
import time
from datetime import datetime
from html import escape
from urllib.parse import quote

import ipywidgets as w
import traitlets

from classroom import hub_user, open as open_classroom, progress as stored
from classroom.classes import NotAllowed
from classroom.identity import clean_code
from classroom.interface import Classroom
from classroom.store import StoreError
from widgets.components.base import View, scroll_x
from widgets.components.ticker import Ticker
from widgets.components.tiny import TinyWidget, module
from widgets.pages.index import LESSONS

REFRESH_SECONDS = 5

TEXT = {
    "title": {"pt": "Turma: o progresso de cada aluno", "en": "Class: each learner's progress"},
    "create_head": {"pt": "Criar uma turma", "en": "Create a class"},
    "class_name": {"pt": "Nome da turma (ex.: 7º B)", "en": "Class name (e.g. 7th B)"},
    "create": {"pt": "Criar turma", "en": "Create class"},
    "created": {"pt": "Turma «{title}» criada. Código para os alunos: {code}. Chave do professor "
                      "(anote agora, não será mostrada de novo): {secret}",
                "en": "Class “{title}” created. Code for the learners: {code}. Teacher key "
                      "(write it down now, it will not be shown again): {secret}"},
    "open_head": {"pt": "Abrir uma turma", "en": "Open a class"},
    "code": {"pt": "Código da turma", "en": "Class code"},
    "key": {"pt": "Chave do professor", "en": "Teacher key"},
    "open": {"pt": "Abrir", "en": "Open"},
    "refused": {"pt": "Código ou chave do professor errados.", "en": "Wrong class code or teacher key."},
    "learner": {"pt": "Aluno", "en": "Learner"},
    "last": {"pt": "Última atividade", "en": "Last activity"},
    "done": {"pt": "Lições feitas", "en": "Lessons done"},
    "started": {"pt": "Lições começadas", "en": "Lessons started"},
    "done_means": {"pt": "Lições começadas: as lições desta tabela em que o aluno já respondeu alguma pergunta. "
                         "Lições feitas: aquelas em que ele já acertou pelo menos {n} perguntas.",
                   "en": "Lessons started: the lessons of this table in which the learner has answered a "
                         "question. Lessons done: those in which they have at least {n} right answers."},
    "csv_right": {"pt": "{lesson}: certas", "en": "{lesson}: right"},
    "csv_asked": {"pt": "{lesson}: perguntas", "en": "{lesson}: asked"},
    "remember": {"pt": "lembrar neste aparelho", "en": "remember on this device"},
    "remembered": {"pt": "Esta turma abre sozinha neste aparelho (sem a chave).",
                   "en": "This class opens by itself on this device (without the key)."},
    "devices": {"pt": "Aparelhos que abrem esta turma sem a chave: {n}.",
                "en": "Devices that open this class without the key: {n}."},
    "forget": {"pt": "Esquecer neste aparelho", "en": "Forget on this device"},
    "forget_all": {"pt": "Esquecer todos os aparelhos", "en": "Forget every device"},
    "forgotten": {"pt": "Este aparelho não abre mais a turma sozinho.",
                  "en": "This device no longer opens the class by itself."},
    "forgotten_all": {"pt": "Nenhum aparelho abre mais a turma sem a chave ({n} esquecidos).",
                      "en": "No device opens the class without the key any more ({n} forgotten)."},
    "need_key": {"pt": "Digite a chave do professor acima para esquecer todos os aparelhos.",
                 "en": "Type the teacher key above to forget every device."},
    "device_gone": {"pt": "Este aparelho não abre mais a turma {code} sozinho (foi esquecido). "
                          "Digite o código e a chave.",
                    "en": "This device no longer opens class {code} by itself (it was forgotten). "
                          "Type the code and the key."},
    "nobody": {"pt": "Ninguém ainda. Os alunos digitam o código {code} no índice.",
               "en": "Nobody yet. Learners type the code {code} on the index."},
    "anonymous": {"pt": "(sem nome)", "en": "(no name)"},
    "csv": {"pt": "Baixar CSV", "en": "Download CSV"},
    "csv_br": {"pt": "Baixar CSV para planilha em português (;)", "en": "Download CSV for Brazilian spreadsheets (;)"},
    "remove": {"pt": "Remover aluno", "en": "Remove learner"},
    "table_name": {"pt": "Tabela dos alunos", "en": "Learners table"},  # its scrolling box, named
    "confirm": {"pt": "Remover {name} e todo o progresso dele(a) nesta turma?",
                "en": "Remove {name} and all their progress in this class?"},
    "yes": {"pt": "Sim, remover", "en": "Yes, remove"},
    "no": {"pt": "Cancelar", "en": "Cancel"},
    "removed": {"pt": "{name} foi removido(a).", "en": "{name} was removed."},
    "showing": {"pt": "Turma «{title}» ({code}) · atualizada às {time}",
                "en": "Class “{title}” ({code}) · updated at {time}"},
}

def _spreadsheet_safe(value) -> str:
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def csv_writer(out, brazil: bool = False):
    """A CSV writer: "," between cells, or ";" for a Brazilian spreadsheet (`brazil`)."""
    return csv.writer(out, delimiter=";" if brazil else ",")


def csv_number(value, brazil: bool = False):
    """A number as a CSV cell: a decimal comma for a Brazilian spreadsheet (`brazil`)."""
    if isinstance(value, float) and brazil:
        return repr(value).replace(".", ",")
    return value


def _when(stamp: float) -> str:
    return datetime.fromtimestamp(stamp).strftime("%d/%m %H:%M") if stamp else ""


def _shown_code(code) -> str:
    """A class code the browser sent, fit to be shown: cleaned, or "" if it is none."""
    try:
        return clean_code(code)
    except ValueError:
        return ""


_DEVICE_ESM = """
const KEY = "cartas.teacher";
function render({ model, el }) {
  el.style.display = "none";
  let kept = {};
  try { kept = JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch (e) { kept = {}; }
  model.set("stored", { code: String(kept.code || ""), token: String(kept.token || "") });
  model.save_changes();
  model.on("change:keep", () => {
    const keep = model.get("keep");
    try {
      if (keep.token) localStorage.setItem(KEY, JSON.stringify({ code: keep.code, token: keep.token }));
      else localStorage.removeItem(KEY);
    } catch (e) { /* private mode: nothing is kept */ }
  });
}
export default { render };
"""


class TeacherDevice(TinyWidget):
    """The teacher's remembered class in this browser's localStorage: `stored` is what the
    browser reports when drawn ({"code", "token"}, never trusted: the store checks the
    token); setting `keep` ({"code", "token", "n"}; an empty token forgets) writes there."""

    _esm = module(_DEVICE_ESM)
    stored = traitlets.Dict({}).tag(sync=True)
    keep = traitlets.Dict({}).tag(sync=True)

    def write(self, code: str, token: str) -> None:
        self.keep = {"code": code, "token": token, "n": int(self.keep.get("n", 0)) + 1}


class ClassView(View):
    """The teacher's dashboard (see the module's rules)."""

    TEXT = TEXT

    def __init__(self, lang=None, lessons=None):
        super().__init__(lang=lang)
        self.lessons = [lesson for lesson in (lessons or LESSONS) if lesson.exercises]
        self.opened = None  # the class whose key was given
        self.rows: list[dict] = []
        self.device_count = 0
        self.create_head, self.open_head = w.HTML(), w.HTML()
        self.class_name = w.Text(layout=w.Layout(width="260px")).add_class("cartas-class-name")
        self.create_button = w.Button(layout=w.Layout(width="160px")).add_class("cartas-create-class")
        self.created = w.HTML().add_class("cartas-created")
        self.code = w.Text(layout=w.Layout(width="160px")).add_class("cartas-class-code")
        self.key = w.Password(layout=w.Layout(width="240px")).add_class("cartas-teacher-key")
        self.open_button = w.Button(layout=w.Layout(width="120px")).add_class("cartas-open-class")
        self.remember = w.Checkbox(value=False, indent=False).add_class("cartas-remember")
        self.device = TeacherDevice()
        self.device_token = ""  # this browser's token for the open class, if it keeps one
        self.device_status = w.HTML().add_class("cartas-device-status")
        self.forget_button = w.Button(layout=w.Layout(width="220px")).add_class("cartas-forget-device")
        self.forget_all_button = w.Button(layout=w.Layout(width="240px")).add_class("cartas-forget-devices")
        self.status = w.HTML().add_class("cartas-class-status")
        self.table = w.HTML().add_class("cartas-class-table")
        self.download = w.HTML().add_class("cartas-csv")
        # named by its description (an empty one leaves the select with a hidden <label>: axe's select-name)
        self.who = w.Dropdown(options=[], layout=w.Layout(width="300px"),
                              style={"description_width": "initial"}).add_class("cartas-remove-who")
        self.remove_button = w.Button(layout=w.Layout(width="160px")).add_class("cartas-remove")
        self.confirm_text = w.HTML()
        self.confirm_yes = w.Button(button_style="danger").add_class("cartas-remove-yes")
        self.confirm_no = w.Button().add_class("cartas-remove-no")
        self.confirm = w.HBox([self.confirm_text, self.confirm_yes, self.confirm_no],
                              layout=w.Layout(display="none")).add_class("cartas-remove-confirm")
        self.ticker = Ticker()
        self._roster = self._homework = self._insight = None  # made when first needed: a class opened
        self.create_button.on_click(self.guarded(lambda _: self.create()))
        self.open_button.on_click(self.guarded(lambda _: self.open_table(self.code.value, self.key.value)))
        self.remove_button.on_click(self.guarded(lambda _: self.ask_remove()))
        self.confirm_yes.on_click(self.guarded(lambda _: self.remove()))
        self.confirm_no.on_click(self.guarded(lambda _: self._hide_confirm()))
        self.ticker.observe(self.guarded(lambda _: self.refresh()), names="tick")
        self.device.observe(self.guarded(lambda _: self._device_reported(), clears=False), names="stored")
        self.forget_button.on_click(self.guarded(lambda _: self.forget_here()))
        self.forget_all_button.on_click(self.guarded(lambda _: self.forget_everywhere(), near=self.forget_all_button))
        devices_row = w.HBox([self.device_status, self.forget_button, self.beside(self.forget_all_button)],
                             layout=w.Layout(flex_flow="row wrap", align_items="center"))
        self.manage = w.VBox([self.status, self.table, self.download, devices_row,
                              w.HBox([self.who, self.remove_button]), self.confirm],
                             layout=w.Layout(display="none"))
        self.tables_box = w.VBox().add_class("cartas-class-tables-box")  # the class's tables (mesas)
        self.class_tables = None
        self.draw_title()
        self.children = [
            self.header(),
            self.create_head, w.HBox([self.class_name, self.create_button]), self.created,
            self.open_head, w.HBox([self.code, self.key, self.open_button, self.remember],
                                   layout=w.Layout(flex_flow="row wrap", align_items="center")),
            self.message, self.manage, self.tables_box, self.ticker, self.device,
        ]
        self.redraw()

    # The class's tools, made when a class opens -------------------------------------------
    # A teacher's page opens with the forms to create or open a class; the learner tools and
    # the homework panel (about half of the page's widgets) are made the first time they are
    # needed, so the page opens about as fast as a bare notebook (benchmarks/class_load.py).
    @property
    def roster(self):
        """Login cards, new PINs, merging (widgets.components.roster)."""
        if self._roster is None:
            from widgets.components.roster import Roster
            self._roster = Roster(self)
            self.manage.children = (*self.manage.children, self._roster)
        return self._roster

    @property
    def homework(self):
        """Homework and mastery (widgets.components.homework)."""
        if self._homework is None:
            from widgets.components.homework import HomeworkPanel
            self._homework = HomeworkPanel(self, self.lessons)
            self.roster  # noqa: B018 - the roster comes first on the page
            self.manage.children = (*self.manage.children, self._homework)
        return self._homework

    @property
    def insight(self):
        """What the class gets wrong, and why (widgets.pages.turma_insight, issue 32 item 3)."""
        if self._insight is None:
            from widgets.pages.turma_insight import InsightPanel
            self._insight = InsightPanel(self)
            self.homework  # noqa: B018 - after the homework
            self.manage.children = (*self.manage.children, self._insight)
        return self._insight

    # Actions ----------------------------------------------------------------------------
    def _store(self) -> Classroom:
        """This kernel's classroom (`classroom.open()`): the store here, or the class service."""
        try:
            return open_classroom()
        except StoreError as error:
            raise ValueError(self.store_problem(error)) from error

    def create(self):
        try:
            made = self._store().create_class(self.class_name.value)
        except StoreError as error:
            raise ValueError(self.store_problem(error)) from error
        self.created.value = (
            f"<div class='cartas-ok' data-code='{escape(made.code)}' data-key='{escape(made.key)}' "
            f"style='background:#e8f5e9;padding:8px;border-radius:6px;font-size:16px'>"
            f"{escape(self.t('created', title=made.title, code=made.code, secret=made.key))}</div>")
        self.code.value = made.code
        self.key.value = made.key
        self.open_table(made.code, made.key)
        return made

    def open_table(self, code: str, key: str) -> None:
        """Open the class table with its teacher key; ValueError (shown) otherwise. With
        "lembrar neste aparelho" ticked, this browser keeps a device token for the class."""
        self._close_table()
        try:
            made = self._store().open_class(code, key)
            if self.remember.value:
                self.device_token = self._store().remember_device(made.code, key)
                self.device.write(made.code, self.device_token)
            elif self.device.stored.get("code") == made.code:
                self.device_token = str(self.device.stored.get("token", ""))
        except NotAllowed:
            raise ValueError(self.t("refused")) from None
        except StoreError as error:
            raise ValueError(self.store_problem(error)) from error
        self._show_table(made)

    def _close_table(self) -> None:
        self.opened = None
        self.device_token = ""
        self.ticker.active = False
        self.manage.layout.display = "none"

    def _device_reported(self) -> None:
        """The browser said what it keeps: a remembered class opens with its device token
        (checked by the store); a token the store refuses is dropped from the browser."""
        kept = self.device.stored
        code, token = kept.get("code"), kept.get("token")
        if self.opened is not None or not token:
            return
        try:
            made = self._store().open_with_device(str(code or ""), token)
        except NotAllowed:
            self.device.write("", "")
            self.show_message(self.t("device_gone", code=_shown_code(code)), kind="info")
            return
        except StoreError as error:
            raise ValueError(self.store_problem(error)) from error
        self.code.value = made.code
        self.device_token = str(token)
        self._show_table(made)

    def forget_here(self) -> None:
        """This browser forgets its token, and the store with it."""
        try:
            if self.device_token:
                self._store().forget_device(self.device_token)
        except StoreError as error:
            raise ValueError(self.store_problem(error)) from error
        self.device.write("", "")
        self.device_token = ""
        self.remember.value = False
        self.redraw()
        self.show_message(self.t("forgotten"), kind="ok")

    def forget_everywhere(self) -> None:
        """With the teacher key, every device token of the open class stops working."""
        if self.opened is None:
            return
        if not self.key.value:
            raise ValueError(self.t("need_key"))
        try:
            gone = self._store().forget_every_device(self.opened.code, self.key.value)
        except NotAllowed:
            raise ValueError(self.t("refused")) from None
        except StoreError as error:
            raise ValueError(self.store_problem(error)) from error
        self.device.write("", "")
        self.device_token = ""
        self.remember.value = False
        self.redraw()
        self.show_message(self.t("forgotten_all", n=gone), kind="ok")

    def _show_table(self, made) -> None:
        self.opened = made
        self.manage.layout.display = ""
        from widgets.pages.mesa import ClassTables  # the class's tables, each watchable as a spectator
        if self.class_tables is None:  # made once: opening a class again reuses it
            self.class_tables = ClassTables(self.opened.code, lang=self.lang)
            self.tables_box.children = (self.class_tables,)
        else:
            self.class_tables.show_class(self.opened.code)
        self.ticker.active = True
        self.refresh()

    def refresh(self) -> None:
        """Reload the table from the store (called by the browser's timer)."""
        if self.opened is None:
            return
        try:
            store = self._store()
            self.rows = store.class_learners(self.opened.code)
            self.device_count = store.remembered_devices(self.opened.code)  # none under JupyterHub
            self.roster.show(self.opened, self.rows)
            self.homework.show(self.opened.code, {r["id"]: r["name"] for r in self.rows})
            self.insight.show(self.opened.code, {r["id"]: r["name"] or self.t("anonymous") for r in self.rows})
            if self.class_tables is not None:
                self.class_tables.refresh()
        except StoreError as error:
            raise ValueError(self.store_problem(error)) from error
        self.redraw()

    def ask_remove(self) -> None:
        if self.opened is None or not self.who.value:
            return
        name = self._name_of(self.who.value)
        self.confirm_text.value = f"<b>{escape(self.t('confirm', name=name))}</b>"
        self.confirm.layout.display = ""

    def remove(self) -> None:
        if self.opened is None or not self.who.value:
            return
        learner_id, name = self.who.value, self._name_of(self.who.value)
        try:
            self._store().remove_learner(self.opened.code, learner_id)
        except StoreError as error:
            raise ValueError(self.store_problem(error)) from error
        self._hide_confirm()
        self.refresh()
        self.show_message(self.t("removed", name=name), kind="ok")

    def _hide_confirm(self) -> None:
        self.confirm.layout.display = "none"

    def _name_of(self, learner_id: str) -> str:
        return next((r["name"] or self.t("anonymous") for r in self.rows if r["id"] == learner_id),
                    learner_id)

    # Drawing ----------------------------------------------------------------------------
    def counts(self, row: dict) -> tuple[int, int]:
        """(lessons started, lessons done) of a learner's row, over this table's lessons."""
        scores = [row["lessons"].get(lesson.key) for lesson in self.lessons]
        started = sum(1 for s in scores if s and s["asked"] > 0)
        done = sum(1 for s in scores if s and s["right"] >= stored.DONE_RIGHT)
        return started, done

    def csv_text(self, brazil: bool = False) -> str:
        """The table as CSV, headers in the view's language, with a UTF-8 byte order mark;
        `brazil`: for a Brazilian spreadsheet (";" between cells, decimal commas)."""
        out = io.StringIO()
        writer = csv_writer(out, brazil)
        heads = [self.t("learner"), self.t("last"), self.t("started"), self.t("done")]
        for lesson in self.lessons:
            title = lesson.title[self.lang]
            heads += [self.t("csv_right", lesson=title), self.t("csv_asked", lesson=title)]
        writer.writerow(heads)
        for row in self.rows:
            cells = []
            for lesson in self.lessons:
                score = row["lessons"].get(lesson.key, {"right": 0, "asked": 0})
                cells += [score["right"], score["asked"]]
            stamp = datetime.fromtimestamp(row["last_seen"]).isoformat(sep=" ", timespec="seconds")
            numbers = [csv_number(value, brazil) for value in (*self.counts(row), *cells)]
            writer.writerow([_spreadsheet_safe(row["name"] or self.t("anonymous")), stamp, *numbers])
        return "\ufeff" + out.getvalue()

    def redraw(self) -> None:
        self.create_head.value = f"<h4>{self.t('create_head')}</h4>"
        self.open_head.value = f"<h4>{self.t('open_head')}</h4>"
        self.class_name.placeholder = self.t("class_name")
        self.create_button.description = self.t("create")
        self.code.placeholder, self.key.placeholder = self.t("code"), self.t("key")
        self.open_button.description = self.t("open")
        self.remove_button.description = self.t("remove")
        self.who.description = self.t("learner")  # the learner to remove
        self.confirm_yes.description, self.confirm_no.description = self.t("yes"), self.t("no")
        self.remember.description = self.t("remember")
        self.forget_button.description, self.forget_all_button.description = self.t("forget"), self.t("forget_all")
        self.forget_button.layout.display = "" if self.device_token else "none"
        hub = hub_user() is not None  # under JupyterHub: the hub's login, no key nor device
        for part in (self.key, self.remember, self.forget_all_button, self.device_status):
            part.layout.display = "none" if hub else ""
        for part in (self._roster, self._homework, self._insight):  # the parts made so far
            if part is not None:
                part.redraw()
        if self.opened is None:
            self.table.value = self.status.value = self.download.value = ""
            self.who.options = []
            return
        code = self.opened.code
        showing = self.t("showing", title=self.opened.title, code=code, time=time.strftime("%H:%M:%S"))
        self.status.value = f"<div data-code='{escape(code)}' style='font-size:15px'>{escape(showing)}</div>"
        if not self.rows:
            self.table.value = f"<p class='cartas-class-empty'>{escape(self.t('nobody', code=code))}</p>"
        else:
            heads = "".join(f"<th title='{escape(lesson.title[self.lang])}'>{escape(lesson.title[self.lang])}</th>"
                            for lesson in self.lessons)
            body = []
            for row in self.rows:
                cells = []
                for lesson in self.lessons:
                    score = row["lessons"].get(lesson.key)
                    text = f"{score['right']}/{score['asked']}" if score else "–"
                    cells.append(f"<td data-lesson='{escape(lesson.key)}'>{text}</td>")
                name = row["name"] or self.t("anonymous")
                started, done = self.counts(row)
                body.append(f"<tr data-learner='{escape(row['name'])}'><td><b>{escape(name)}</b></td>"
                            f"<td>{escape(_when(row['last_seen']))}</td>"
                            f"<td class='cartas-started'>{started}</td>"
                            f"<td class='cartas-done'>{done}</td>{''.join(cells)}</tr>")
            means = escape(self.t("done_means", n=stored.DONE_RIGHT))
            # a column per lesson: wider than a phone, the table scrolls inside its own box (which
            # the keyboard reaches and a screen reader names), never the page
            self.table.value = scroll_x(
                "<table style='font-size:14px;border-collapse:collapse' border='1' cellpadding='4'>"
                f"<tr><th>{self.t('learner')}</th><th>{self.t('last')}</th>"
                f"<th title='{means}'>{self.t('started')}</th><th title='{means}'>{self.t('done')}</th>"
                f"{heads}</tr>{''.join(body)}</table>", self.t("table_name")) + (
                f"<p class='cartas-done-means' style='font-size:13px;color:#444'>{means}</p>")
        data, data_br = quote(self.csv_text()), quote(self.csv_text(brazil=True))
        self.download.value = (f"<a class='cartas-csv-standard' download='turma-{escape(code)}.csv' "
                               f"href='data:text/csv;charset=utf-8,{data}'>{self.t('csv')}</a> · "
                               f"<a class='cartas-csv-br' download='turma-{escape(code)}-planilha-br.csv' "
                               f"href='data:text/csv;charset=utf-8,{data_br}'>{self.t('csv_br')}</a>")
        here = f"{self.t('remembered')} " if self.device_token else ""
        self.device_status.value = (f"<span style='font-size:14px'>{escape(here)}"
                                    f"{escape(self.t('devices', n=self.device_count))}</span>")
        options = [(r["name"] or self.t("anonymous"), r["id"]) for r in self.rows]
        if list(self.who.options) != options:
            self.who.options = options
