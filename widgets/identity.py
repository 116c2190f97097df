"""Who is at this browser: a small anywidget that keeps the learner's name, class code and an
anonymous browser id in localStorage, and tells this page's kernel.

Decided rules:
- Each Voilà page is its own kernel, so each page learns the learner from its own copy of
  this widget: when the widget is drawn, the browser sends what localStorage holds
  (`stored`). A browser with nothing stored draws a random anonymous id first, so a learner
  alone on Binder keeps her progress in that browser without typing a name.
- On the index the learner types a name and, optionally, a class code (`submitted`). The
  kernel cleans the name (see classroom.identity), checks that the class exists, and answers
  with the accepted `learner`, which the browser writes to localStorage; or with an `error`.
- Elsewhere the widget shows "Você é X · não sou eu". "Não sou eu" forgets the name and the
  class code in this browser (the anonymous id stays) and every open tab follows.
- Answers given before the browser reported who is there wait in the kernel (see
  widgets.progress) and are recorded for that learner when she is known.
- The name reaches the page through textContent only, never as HTML.
"""
from __future__ import annotations

import anywidget
import traitlets

from classroom.identity import Learner, clean_code, clean_name

from .i18n import LANGUAGES, every_key, translate

TEXT = {
    "you_are": {"pt": "Você é", "en": "You are"},
    "not_me": {"pt": "não sou eu", "en": "not me"},
    "anonymous": {"pt": "Sem nome", "en": "No name"},
    "set_name": {"pt": "diga seu nome no índice", "en": "give your name on the index"},
    "name": {"pt": "Seu nome", "en": "Your name"},
    "code": {"pt": "Código da turma (opcional)", "en": "Class code (optional)"},
    "save": {"pt": "Entrar", "en": "Enter"},
    "change": {"pt": "trocar", "en": "change"},
    "class": {"pt": "na turma", "en": "in class"},
    "unknown_class": {"pt": "Não há turma com o código {code}. Confira com o professor.",
                      "en": "There is no class with code {code}. Check with your teacher."},
    "bad_code": {"pt": "O código da turma tem 6 letras e números.",
                 "en": "A class code has 6 letters and digits."},
    "anonymous_help": {"pt": "Sem nome, o progresso fica guardado só neste navegador.",
                       "en": "Without a name, progress is kept in this browser only."},
}

_ESM = r"""
const KEY = "cartas.learner";
function load() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch (e) { return {}; }
}
function save(value) {
  try { localStorage.setItem(KEY, JSON.stringify(value)); } catch (e) { /* private mode: this page only */ }
}
function newId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);  // works on plain http too, unlike randomUUID
  return "b-" + Array.from(bytes, b => b.toString(16).padStart(2, "0")).join("");
}
function render({ model, el }) {
  el.classList.add("cartas-identity");
  let count = 0;
  const report = (trait, value) => { model.set(trait, { ...value, count: ++count }); model.save_changes(); };
  const mine = () => {
    const stored = load();
    if (typeof stored.browser_id !== "string" || !/^[A-Za-z0-9-]{8,64}$/.test(stored.browser_id)) {
      stored.browser_id = newId();
      save(stored);
    }
    return { browser_id: stored.browser_id, name: stored.name || "", class_code: stored.class_code || "" };
  };
  const tell = () => report("stored", mine());
  const node = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const draw = () => {
    const known = model.get("learner"), notice = model.get("notice"), t = model.get("labels");
    const who = known.browser_id ? known : mine();  // until the kernel answers: what is stored
    el.dataset.known = known.browser_id ? "yes" : "no";
    el.replaceChildren();
    const line = node("div", "cartas-identity-line");
    if (who.name) {
      line.append(node("span", "", t.you_are + " "), node("b", "cartas-identity-name", who.name));
      if (who.class_code) line.append(node("span", "cartas-identity-class", ` (${t.class} ${who.class_code})`));
    } else {
      line.append(node("span", "cartas-identity-name cartas-identity-anonymous", t.anonymous));
    }
    if (who.name || who.class_code) {
      line.append(node("span", "", " · "));
      const notMe = node("button", "cartas-not-me", t.not_me);
      notMe.type = "button";
      notMe.addEventListener("click", () => {
        const stored = mine();
        save({ browser_id: stored.browser_id });
        report("stored", { browser_id: stored.browser_id, name: "", class_code: "" });
      });
      line.append(notMe);
    } else if (model.get("mode") !== "form") {
      line.append(node("span", "", " · "));
      const link = node("a", "cartas-identity-index", t.set_name);
      link.href = model.get("index_url");
      line.append(link);
    }
    el.append(line);
    if (model.get("mode") === "form") {
      const form = node("form", "cartas-identity-form");
      const name = node("input", "cartas-name-input");
      name.placeholder = t.name; name.maxLength = 40; name.value = who.name || "";
      name.setAttribute("aria-label", t.name);
      const code = node("input", "cartas-code-input");
      code.placeholder = t.code; code.maxLength = 9; code.value = who.class_code || "";
      code.setAttribute("aria-label", t.code);
      const go = node("button", "cartas-name-save", t.save);
      go.type = "submit";
      form.append(name, code, go);
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        report("submitted", { browser_id: mine().browser_id, name: name.value, class_code: code.value });
      });
      el.append(form);
      if (!who.name) el.append(node("div", "cartas-identity-help", t.anonymous_help));
    }
    const error = model.get("error");
    if (error) el.append(node("div", "cartas-identity-error", error));
    if (notice) el.append(node("div", "cartas-identity-notice", notice));
  };
  model.on("change:learner", () => {
    const who = model.get("learner");
    if (who.browser_id) save({ browser_id: who.browser_id, name: who.name, class_code: who.class_code });
    draw();
  });
  for (const trait of ["labels", "notice", "error", "mode"]) model.on("change:" + trait, draw);
  const onStorage = (event) => { if (event.key === KEY) tell(); };
  window.addEventListener("storage", onStorage);
  draw();
  tell();
  return () => window.removeEventListener("storage", onStorage);
}
export default { render };
"""

_CSS = """
.cartas-identity { font-size: 15px; padding: 4px 0; }
.cartas-identity-form { display: flex; gap: 8px; margin: 6px 0; flex-wrap: wrap; }
.cartas-identity-form input { font-size: 15px; padding: 4px 8px; }
.cartas-name-input { width: 220px; }
.cartas-code-input { width: 200px; text-transform: uppercase; }
.cartas-identity button { font-size: 14px; cursor: pointer; }
.cartas-not-me { background: none; border: none; color: #0d47a1; text-decoration: underline; padding: 0; }
.cartas-identity-help { color: #555; font-size: 13px; }
.cartas-identity-error { color: #b71c1c; }
.cartas-identity-notice { background: #fff3e0; color: #e65100; padding: 4px 8px; border-radius: 6px; margin-top: 4px; }
"""


class Identity(anywidget.AnyWidget):
    """The learner at this browser (see the module's rules). `learner` holds the accepted
    identity as a dict; `session.learner` the same as a classroom Learner."""

    _esm = _ESM
    _css = _CSS
    mode = traitlets.Unicode("badge").tag(sync=True)       # "form" on the index
    labels = traitlets.Dict().tag(sync=True)
    learner = traitlets.Dict().tag(sync=True)               # kernel -> browser
    stored = traitlets.Dict().tag(sync=True)                # browser -> kernel: localStorage
    submitted = traitlets.Dict().tag(sync=True)             # browser -> kernel: the form
    error = traitlets.Unicode("").tag(sync=True)
    notice = traitlets.Unicode("").tag(sync=True)
    index_url = traitlets.Unicode("index.ipynb").tag(sync=True)

    def __init__(self, lang: str = "pt", **kwargs):
        super().__init__(**kwargs)
        self.lang = lang if lang in LANGUAGES else "pt"
        self.labels = every_key(TEXT, self.lang)
        self._listeners: list = []
        self._notice_texts: dict | None = None
        self.current: Learner | None = None
        self.observe(self._on_stored, names="stored")
        self.observe(self._on_submitted, names="submitted")

    # Language ---------------------------------------------------------------------------
    def set_language(self, lang: str) -> None:
        if lang in LANGUAGES:
            self.lang = lang
            self.labels = every_key(TEXT, lang)
            if self._notice_texts:
                self.notice = self._notice_texts.get(lang, "")

    def show_notice(self, texts: dict | None) -> None:
        """Show {"pt": ..., "en": ...} under the name (in the page's language), or nothing."""
        self._notice_texts = texts
        self.notice = texts.get(self.lang, "") if texts else ""

    def t(self, key: str, **fields) -> str:
        return translate(TEXT, key, self.lang, **fields)

    # Who ------------------------------------------------------------------------------
    def on_change(self, callback) -> None:
        """Call `callback(learner)` whenever the learner at this browser becomes known or changes."""
        self._listeners.append(callback)

    def _on_stored(self, change) -> None:
        value = change["new"]
        try:
            learner = Learner.make(value.get("browser_id"), value.get("name", ""),
                                   value.get("class_code", ""))
        except ValueError:
            try:  # a class code spoiled in storage: keep the name, drop the code
                learner = Learner.make(value.get("browser_id"), value.get("name", ""))
            except ValueError:
                return  # no usable browser id: stay unknown
        self.set_learner(learner)

    def _on_submitted(self, change) -> None:
        value = change["new"]
        self.error = ""
        try:
            code = clean_code(value.get("class_code", ""))
        except ValueError:
            self.error = self.t("bad_code")
            return
        if code and not self._class_exists(code):
            self.error = self.t("unknown_class", code=code)
            return
        try:
            learner = Learner.make(value.get("browser_id"), clean_name(value.get("name", "")), code)
        except ValueError:
            return
        self.set_learner(learner)

    def _class_exists(self, code: str) -> bool:
        from classroom.classes import class_title
        from classroom.progress import open_store
        from classroom.store import StoreError
        try:
            return class_title(open_store(), code) is not None
        except StoreError:
            return True  # cannot check: accept it; recording will say progress is not saved

    def set_learner(self, learner: Learner) -> None:
        """Make `learner` the one at this browser (the browser stores it) and tell listeners."""
        self.learner = {"browser_id": learner.browser_id, "name": learner.name,
                        "class_code": learner.class_code}
        if learner == self.current:
            return
        self.current = learner
        for callback in list(self._listeners):
            callback(learner)


_widget: Identity | None = None


def widget(lang: str | None = None, form: bool = False) -> Identity:
    """This kernel's identity widget (one per kernel, shown wherever it is needed)."""
    global _widget
    if _widget is None:
        _widget = Identity(lang=lang or "pt")
    if form:
        _widget.mode = "form"
    if lang:
        _widget.set_language(lang)
    return _widget


def current() -> Learner | None:
    """The learner at this page's browser, or None while the browser has not said."""
    return _widget.current if _widget is not None else None


def attach(view) -> Identity:
    """The identity widget for a View's header, following the view's language switch."""
    identity = widget(lang=view.lang)
    view.language.observe(lambda change: identity.set_language(change["new"]), names="value")
    return identity


def reset_session(browser_id: str | None = None) -> None:
    """Forget this kernel's identity widget; with `browser_id`, start with that anonymous
    learner already known (tests: as if the browser had reported it)."""
    global _widget
    _widget = None
    from . import progress
    progress.reset_recorder()
    if browser_id is not None:
        widget().set_learner(Learner.make(browser_id))
