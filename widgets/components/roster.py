"""The teacher's learner tools in the class view: login cards to print, a new PIN, merging and
removing learners (the rules are classroom.identity's, docs/rules.md#verified-learners).

Decided rules:
- The tools work only on the class the view opened with its teacher key, and only on its
  learners (classroom.identity checks the class again); the learner is chosen from the
  kernel's own list, never named by the browser.
- Printing login cards never revokes a card the teacher did not ask about: "Print cards for
  learners without one" draws cards only for them (the first time, the whole class), "New cards
  for the chosen" (several learners ticked) and "Card for this learner only" revoke only those
  learners' previous cards. New cards for the whole class, which revoke every card printed
  before, are a separate action that asks for confirmation first. The sheet is a page of its
  own, opened from the click in a new browser tab (a blob the browser prints), with one card
  per learner: the class title,
  her name, the class code, her login code and a QR code of the index's link with that code
  (`index.ipynb?cartao=CODE`, resolved against this page's address as widgets.components.share does).
  The same page is offered as a file to download. Codes are shown only there, once.
- "New PIN" draws a 6-digit PIN, shown once to the teacher to hand to the learner; her devices
  and card are signed out (classroom.identity.reset_pin).
- Merging asks for confirmation: the chosen learner is merged into the one chosen under
  "into" (answers and counters added up, her devices follow, she is gone from the list).
- Every name and code reaches the page escaped.
"""
from __future__ import annotations

from html import escape
from urllib.parse import quote

import ipywidgets as w
import traitlets

from classroom import identity as ids
from classroom.store import StoreError
from widgets.components.i18n import every_key, translate
from widgets.components.share import full_link, qr_svg
from widgets.components.tiny import TinyWidget, module

TEXT = {
    "head": {"pt": "Alunos: cartões de acesso, PIN, juntar", "en": "Learners: login cards, PIN, merge"},
    "who": {"pt": "Aluno", "en": "Learner"},
    "into": {"pt": "juntar em", "en": "merge into"},
    "cards_all": {"pt": "Imprimir cartões de quem ainda não tem", "en": "Print cards for learners without one"},
    "cards_one": {"pt": "Cartão só deste aluno", "en": "Card for this learner only"},
    "chosen": {"pt": "Escolhidos", "en": "Chosen"},
    "cards_chosen": {"pt": "Cartões novos para os escolhidos", "en": "New cards for the chosen"},
    "none_chosen": {"pt": "Escolha na lista os alunos que recebem um cartão novo.",
                    "en": "Choose in the list the learners who get a new card."},
    "all_have": {"pt": "Todos os alunos já têm cartão. Para reimprimir, escolha os alunos na lista.",
                 "en": "Every learner has a card already. To print again, choose the learners in the list."},
    "cards_renew": {"pt": "Cartões novos para a turma toda…", "en": "New cards for the whole class…"},
    "renew_confirm": {"pt": "Fazer cartões novos para os {n} alunos da turma? Todos os cartões impressos antes "
                            "deixam de valer.",
                      "en": "Make new cards for all {n} learners of the class? Every card printed before "
                            "stops working."},
    "renew_yes": {"pt": "Sim, cartões novos para todos", "en": "Yes, new cards for everyone"},
    "new_pin": {"pt": "Novo PIN", "en": "New PIN"},
    "merge": {"pt": "Juntar", "en": "Merge"},
    "merge_confirm": {"pt": "Juntar {name} em {into}? As respostas se somam e {name} sai da lista.",
                      "en": "Merge {name} into {into}? The answers are added up and {name} leaves the list."},
    "yes": {"pt": "Sim, juntar", "en": "Yes, merge"},
    "no": {"pt": "Cancelar", "en": "Cancel"},
    "merged": {"pt": "{name} foi juntado(a) em {into}.", "en": "{name} was merged into {into}."},
    "pin_shown": {"pt": "Novo PIN de {name}: {pin}. Entregue-o a ele(a); não será mostrado de novo. "
                        "Os aparelhos e o cartão dele(a) saíram: entra-se de novo com esse PIN.",
                  "en": "New PIN for {name}: {pin}. Hand it to them; it will not be shown again. "
                        "Their devices and card were signed out: they sign in again with this PIN."},
    "cards_ready": {"pt": "{n} cartão(ões) pronto(s). Os cartões impressos antes para esses alunos "
                          "deixaram de valer.",
                    "en": "{n} card(s) ready. Cards printed before for these learners no longer work."},
    "open_sheet": {"pt": "Abrir a folha para imprimir", "en": "Open the sheet to print"},
    "download": {"pt": "Baixar a folha (HTML)", "en": "Download the sheet (HTML)"},
    "nobody": {"pt": "Ninguém na turma ainda.", "en": "Nobody in the class yet."},
    "closed": {"pt": "Abra a turma com a chave do professor primeiro.",
               "en": "Open the class with its teacher key first."},
    "not_in_class": {"pt": "Esse aluno não está nesta turma.", "en": "That learner is not in this class."},
    "merge_self": {"pt": "Escolha dois alunos diferentes para juntar.",
                   "en": "Choose two different learners to merge."},
    # on the printed sheet
    "sheet_title": {"pt": "Cartões de acesso · {title} ({code})", "en": "Login cards · {title} ({code})"},
    "print": {"pt": "Imprimir", "en": "Print"},
    "card_class": {"pt": "Turma", "en": "Class"},
    "card_code": {"pt": "Código de acesso", "en": "Login code"},
    "card_how": {"pt": "Aponte a câmera para o QR, ou no índice digite o código em «Código do cartão».",
                 "en": "Point a camera at the QR code, or type the code under “Login card code” on the index."},
}

_SHEET_ESM = r"""
function render({ model, el }) {
  el.classList.add("cartas-card-sheet");
  const line = document.createElement("div");
  const open = document.createElement("button");
  open.type = "button";
  open.className = "cartas-open-cards";
  const save = document.createElement("a");
  save.className = "cartas-download-cards";
  line.append(open, document.createTextNode(" "), save);
  el.append(line);
  const draw = () => {
    const labels = model.get("labels") || {};
    const html = model.get("html");
    line.style.display = html ? "" : "none";
    open.textContent = labels.open_sheet || "";
    save.textContent = labels.download || "";
    save.download = model.get("filename");
    save.href = "data:text/html;charset=utf-8," + encodeURIComponent(html);
  };
  open.addEventListener("click", () => {
    const blob = new Blob([model.get("html")], { type: "text/html" });
    window.open(URL.createObjectURL(blob), "_blank");  // from the click: no popup blocker
  });
  for (const name of ["html", "labels", "filename"]) model.on("change:" + name, draw);
  model.set("page", window.location.href);
  model.save_changes();
  draw();
}
export default { render };
"""

_SHEET_CSS = """
body { font-family: sans-serif; margin: 12px; }
.cards { display: grid; grid-template-columns: repeat(2, 1fr); gap: 10px; }
.cartas-login-card { border: 2px dashed #555; border-radius: 10px; padding: 10px 12px; display: flex;
  gap: 12px; align-items: center; break-inside: avoid; page-break-inside: avoid; }
.cartas-login-card .qr { width: 130px; flex: none; }
.cartas-login-card .qr svg { width: 100%; height: auto; display: block; }
.cartas-card-name { font-size: 20px; font-weight: bold; margin-bottom: 4px; }
.cartas-card-login { font-family: monospace; font-size: 18px; letter-spacing: 1px; }
.how { font-size: 12px; color: #333; margin-top: 4px; }
@media print { .no-print { display: none; } body { margin: 0; } }
"""


class CardSheet(TinyWidget):
    """The printable sheet of login cards: `html` is the whole page; the browser reports its
    own address as `page` (for the QR codes' links) and opens or downloads the sheet."""

    _esm = module(_SHEET_ESM)
    html = traitlets.Unicode("").tag(sync=True)
    filename = traitlets.Unicode("cartoes.html").tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)
    page = traitlets.Unicode("").tag(sync=True)


def sheet_html(cards, title: str, class_code: str, page: str, lang: str) -> str:
    """The printable page for `cards` (classroom.identity.Card): one card per learner."""
    def t(key, **fields):
        return translate(TEXT, key, lang, **fields)
    blocks = []
    for card in cards:
        path = f"index.ipynb?cartao={quote(card.code)}"
        link = full_link(page, path)
        qr = qr_svg(link) if link else ""
        blocks.append(
            f"<div class='cartas-login-card' data-learner='{escape(card.name)}'>"
            f"<div class='qr'>{qr}</div><div>"
            f"<div class='cartas-card-name'>{escape(card.name)}</div>"
            f"<div>{escape(t('card_class'))}: <b class='cartas-card-class'>{escape(card.class_code)}</b>"
            f" · {escape(title)}</div>"
            f"<div>{escape(t('card_code'))}: <span class='cartas-card-login'>"
            f"{escape(ids.show_login_code(card.code))}</span></div>"
            f"<div class='how'>{escape(t('card_how'))}</div></div></div>")
    heading = escape(t("sheet_title", title=title, code=class_code))
    return (f"<!doctype html><html lang='{'pt-BR' if lang == 'pt' else 'en'}'><head><meta charset='utf-8'>"
            f"<title>{heading}</title><style>{_SHEET_CSS}</style></head><body>"
            f"<p class='no-print'><button onclick='window.print()'>{escape(t('print'))}</button> {heading}</p>"
            f"<div class='cards'>{''.join(blocks)}</div></body></html>")


class Roster(w.VBox):
    """The learner tools of a ClassView (`owner`): shown once the class is open."""

    def __init__(self, owner):
        super().__init__(layout=w.Layout(display="none"))
        self.add_class("cartas-roster")
        self.owner = owner
        self.opened = None
        self.rows: list[dict] = []
        self.head = w.HTML()
        self.who = w.Dropdown(options=[], layout=w.Layout(width="240px")).add_class("cartas-roster-who")
        self.into = w.Dropdown(options=[], layout=w.Layout(width="240px")).add_class("cartas-roster-into")
        self.cards_all = w.Button(layout=w.Layout(width="260px")).add_class("cartas-print-cards")
        self.cards_one = w.Button(layout=w.Layout(width="220px")).add_class("cartas-print-card")
        self.chosen = w.SelectMultiple(options=[], rows=4, layout=w.Layout(width="240px")).add_class("cartas-card-for")
        self.cards_chosen = w.Button(layout=w.Layout(width="260px")).add_class("cartas-print-chosen")
        self.cards_renew = w.Button(layout=w.Layout(width="280px")).add_class("cartas-renew-cards")
        self.renew_text = w.HTML()
        self.renew_yes = w.Button(button_style="danger", layout=w.Layout(width="260px")).add_class("cartas-renew-yes")
        self.renew_no = w.Button().add_class("cartas-renew-no")
        self.renew_confirm = w.HBox([self.renew_text, self.renew_yes, self.renew_no],
                                    layout=w.Layout(display="none", flex_flow="row wrap"))
        self.renew_confirm.add_class("cartas-renew-confirm")
        self.pin_button = w.Button(layout=w.Layout(width="120px")).add_class("cartas-new-pin")
        self.merge_button = w.Button(layout=w.Layout(width="120px")).add_class("cartas-merge")
        self.result = w.HTML().add_class("cartas-roster-result")
        self.sheet = CardSheet()
        self.confirm_text = w.HTML()
        self.confirm_yes = w.Button(button_style="danger").add_class("cartas-merge-yes")
        self.confirm_no = w.Button().add_class("cartas-merge-no")
        self.confirm = w.HBox([self.confirm_text, self.confirm_yes, self.confirm_no],
                              layout=w.Layout(display="none")).add_class("cartas-merge-confirm")
        guarded = owner.guarded
        self.cards_all.on_click(guarded(lambda _: self.print_cards(missing_only=True)))
        self.cards_one.on_click(guarded(lambda _: self.print_cards(only=[self.who.value])))
        self.cards_chosen.on_click(guarded(lambda _: self.print_chosen()))
        self.cards_renew.on_click(guarded(lambda _: self.ask_renew()))
        self.renew_yes.on_click(guarded(lambda _: self.renew()))
        self.renew_no.on_click(guarded(lambda _: self._hide_renew()))
        self.pin_button.on_click(guarded(lambda _: self.new_pin()))
        self.merge_button.on_click(guarded(lambda _: self.ask_merge()))
        self.confirm_yes.on_click(guarded(lambda _: self.merge()))
        self.confirm_no.on_click(guarded(lambda _: self._hide_confirm()))
        self.children = [self.head, w.HBox([self.cards_all]),
                         w.HBox([self.chosen, self.cards_chosen], layout=w.Layout(flex_flow="row wrap")),
                         w.HBox([self.who, self.cards_one, self.pin_button]),
                         w.HBox([self.into, self.merge_button]), self.confirm,
                         w.HBox([self.cards_renew]), self.renew_confirm, self.result, self.sheet]
        self.redraw()

    def t(self, key: str, **fields) -> str:
        return translate(TEXT, key, self.owner.lang, **fields)

    # What the class view tells it -----------------------------------------------------------
    def show(self, opened, rows: list[dict]) -> None:
        """The class opened with its key (or None) and its learners (classroom.progress.class_learners)."""
        if opened is None or self.opened is None or opened.code != self.opened.code:
            self.result.value = self.sheet.html = ""
            self._hide_renew()
        self.opened, self.rows = opened, list(rows) if opened is not None else []
        self.layout.display = "none" if opened is None else ""
        self.redraw()

    # Actions --------------------------------------------------------------------------------
    def _call(self, action):
        if self.opened is None:
            raise ValueError(self.t("closed"))
        from widgets.components.learner import learners
        try:
            return action(learners(), self.opened.code)
        except ids.IdentityError as refusal:
            raise ValueError(self.t(refusal.code, **refusal.fields)) from None
        except StoreError as error:
            raise ValueError(self.owner.store_problem(error)) from error

    def _name_of(self, learner_id) -> str:
        return next((r["name"] for r in self.rows if r["id"] == learner_id), "")

    def print_cards(self, only: list | None = None, missing_only: bool = False) -> list:
        """New login cards, ready to open and print: for the learners in `only` (ids), for
        those without a card (`missing_only`), or for the whole class; each revokes only that
        learner's previous card."""
        if self.opened is not None and not self.rows:
            raise ValueError(self.t("nobody"))
        cards = self._call(lambda service, code: service.print_cards(code, only, missing_only=missing_only))
        opened = self.opened
        if not cards and missing_only and opened is not None:
            raise ValueError(self.t("all_have"))
        if not cards or opened is None:
            raise ValueError(self.t("not_in_class"))
        self.sheet.html = sheet_html(cards, opened.title, opened.code, self.sheet.page, self.owner.lang)
        self.sheet.filename = f"cartoes-{opened.code}.html"
        self.result.value = f"<div class='cartas-ok'>{escape(self.t('cards_ready', n=len(cards)))}</div>"
        return cards

    def print_chosen(self) -> list:
        """New cards for the learners ticked in `chosen`: theirs are revoked, nobody else's."""
        if self.opened is not None and not self.chosen.value:
            raise ValueError(self.t("none_chosen"))
        return self.print_cards(only=list(self.chosen.value))

    def ask_renew(self) -> None:
        """New cards for the whole class revoke every card: asked first."""
        if self.opened is None:
            raise ValueError(self.t("closed"))
        if not self.rows:
            raise ValueError(self.t("nobody"))
        self.renew_text.value = f"<b>{escape(self.t('renew_confirm', n=len(self.rows)))}</b>"
        self.renew_confirm.layout.display = ""

    def renew(self) -> list:
        """Confirmed: new cards for every learner of the class (every old card stops working)."""
        self._hide_renew()
        return self.print_cards()

    def _hide_renew(self) -> None:
        self.renew_confirm.layout.display = "none"

    def new_pin(self) -> str:
        learner_id = self.who.value
        pin = self._call(lambda service, code: service.reset_pin(code, learner_id))
        name = self._name_of(learner_id)
        self.result.value = (f"<div class='cartas-ok cartas-pin-shown' data-pin='{escape(pin)}'>"
                             f"{escape(self.t('pin_shown', name=name, pin=pin))}</div>")
        return pin

    def ask_merge(self) -> None:
        if self.who.value == self.into.value:
            raise ValueError(self.t("merge_self"))
        text = self.t("merge_confirm", name=self._name_of(self.who.value), into=self._name_of(self.into.value))
        self.confirm_text.value = f"<b>{escape(text)}</b>"
        self.confirm.layout.display = ""

    def merge(self) -> None:
        source, target = self.who.value, self.into.value
        name, into = self._name_of(source), self._name_of(target)
        self._call(lambda service, code: service.merge(code, source, target))
        self._hide_confirm()
        self.owner.refresh()
        self.result.value = f"<div class='cartas-ok'>{escape(self.t('merged', name=name, into=into))}</div>"

    def _hide_confirm(self) -> None:
        self.confirm.layout.display = "none"

    # Drawing --------------------------------------------------------------------------------
    def redraw(self) -> None:
        self.head.value = f"<h4 style='margin:8px 0 4px'>{escape(self.t('head'))}</h4>"
        self.who.description, self.into.description = self.t("who"), self.t("into")
        self.cards_all.description, self.cards_one.description = self.t("cards_all"), self.t("cards_one")
        self.cards_chosen.description, self.cards_renew.description = self.t("cards_chosen"), self.t("cards_renew")
        self.renew_yes.description, self.renew_no.description = self.t("renew_yes"), self.t("no")
        self.chosen.description = self.t("chosen")
        self.pin_button.description, self.merge_button.description = self.t("new_pin"), self.t("merge")
        self.confirm_yes.description, self.confirm_no.description = self.t("yes"), self.t("no")
        self.sheet.labels = every_key(TEXT, self.owner.lang)
        options = [(r["name"], r["id"]) for r in self.rows]
        for box in (self.who, self.into):
            if list(box.options) != options:
                chosen = box.value
                box.options = options
                ids_now = [value for _, value in options]
                box.value = chosen if chosen in ids_now else (ids_now[0] if ids_now else None)
        if list(self.chosen.options) != options:
            ticked = [value for value in self.chosen.value if value in {v for _, v in options}]
            self.chosen.options = options
            self.chosen.value = tuple(ticked)
