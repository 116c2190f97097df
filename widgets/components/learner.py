"""Who is at this browser: a small anywidget that keeps an anonymous browser id and, for a
learner of a class, her device token in localStorage, and tells this page's kernel.

Decided rules (see classroom.identity and docs/rules.md#verified-learners):
- Each Voilà page is its own kernel, so each page learns the learner from its own copy of
  this widget: when the widget is drawn, the browser sends what localStorage holds
  (`stored`: the browser id, the device token, a name label). A browser with nothing stored
  draws a random anonymous id first, so a learner alone on Binder keeps her progress in that
  browser without typing a name.
- The kernel believes no name, class or seat the browser sends: a learner of a class is
  whoever's device token the store knows (`classroom.identity.check`), checked again on
  every use (`verified()`: progress writes, sitting and moving at a table). Without a token
  the learner is this browser, anonymous, and a name is only its label.
- On the index the learner types a name, a class code and a PIN (`submitted`). A free name
  joins the class; a taken one needs her PIN, and is refused with "the name is taken, type
  your PIN" (the PIN field is marked). A login card's code (typed, or `?cartao=` in the
  link its QR code holds, which the browser then drops from the address) signs her in too.
  The accepted learner, with a device token of this browser's own, goes back as `learner`,
  which the browser writes to localStorage.
- Elsewhere the widget shows "Você é X · não sou eu". "Não sou eu" forgets the name, the class
  and the token in this browser (the kernel signs that token out; the anonymous id stays) and
  every open tab follows.
- Answers given before the browser reported who is there wait in the kernel (see
  widgets.components.scores) and are recorded for that learner when she is known.
- The name reaches the page through textContent only, never as HTML.
- Under JupyterHub with a class service (`classroom.hub_user()`), the hub user is the learner:
  the widget shows "Você é X" with no form and no "não sou eu", and ignores what the browser
  stores or sends; the class service checks her hub token on every use.
- A notice (`show_notice`: "progress is not being saved" when the store, or under JupyterHub
  the class service, answers store_down or hub_down; `scores.notice_for` names the cause, the
  hub, the class service or the store) is shown under the name in every mode,
  the hub's included, in the page's language, in one polite live region (`role="status"`)
  that wraps on a 360 px phone.
"""
from __future__ import annotations

import sys

import traitlets

from classroom import identity as ids
from classroom.identity import IdentityError, Learner, clean_code, clean_name
from classroom.store import StoreError
from widgets.components.i18n import LANGUAGES, every_key, translate
from widgets.components.tiny import TinyWidget, module

TEXT = {
    "you_are": {"pt": "Você é", "en": "You are"},
    "not_me": {"pt": "não sou eu", "en": "not me"},
    "anonymous": {"pt": "Sem nome", "en": "No name"},
    "set_name": {"pt": "diga seu nome no índice", "en": "give your name on the index"},
    "name": {"pt": "Seu nome", "en": "Your name"},
    "code": {"pt": "Código da turma (opcional)", "en": "Class code (optional)"},
    "pin": {"pt": "PIN (4 a 6 algarismos)", "en": "PIN (4 to 6 digits)"},
    "save": {"pt": "Entrar", "en": "Enter"},
    "card": {"pt": "Código do cartão de acesso", "en": "Login card code"},
    "card_go": {"pt": "Entrar com o cartão", "en": "Sign in with the card"},
    "change": {"pt": "trocar", "en": "change"},
    "class": {"pt": "na turma", "en": "in class"},
    "pin_help": {"pt": "Numa turma, escolha um PIN: com ele você entra em outro computador ou celular.",
                 "en": "In a class, choose a PIN: with it you sign in on another computer or phone."},
    "pin_kept": {"pt": "Em outro computador ou celular, entre com seu nome, o código da turma e o seu PIN.",
                 "en": "On another computer or phone, sign in with your name, the class code and your PIN."},
    "anonymous_help": {"pt": "Sem nome, o progresso fica guardado só neste navegador.",
                       "en": "Without a name, progress is kept in this browser only."},
    # refusals (classroom.identity.IdentityError codes)
    "no_class": {"pt": "Não há turma com o código {code}. Confira com o professor.",
                 "en": "There is no class with code {code}. Check with your teacher."},
    "bad_code": {"pt": "O código da turma tem 6 letras e números.",
                 "en": "A class code has 6 letters and digits."},
    "bad_name": {"pt": "Digite seu nome para entrar na turma.", "en": "Type your name to join the class."},
    "bad_pin": {"pt": "O PIN tem de {low} a {high} algarismos.", "en": "The PIN has {low} to {high} digits."},
    "name_taken": {"pt": "O nome {name} já está em uso nesta turma. Se é você, digite o seu PIN. "
                         "Se não é, escolha outro nome.",
                   "en": "The name {name} is already taken in this class. If it is you, type your PIN. "
                         "If not, choose another name."},
    "name_like": {"pt": "«{typed}» é o mesmo nome que {name}, que já está nesta turma (maiúsculas, acentos, "
                        "espaços, letras parecidas de outros alfabetos e pontuação nas pontas não contam). "
                        "Se você é {name}, digite o seu PIN. Se não é, escolha outro nome "
                        "(com o sobrenome, por exemplo).",
                  "en": "“{typed}” is the same name as {name}, who is already in this class (capitals, accents, "
                        "spaces, look-alike letters of other alphabets and punctuation at either end do not count). "
                        "If you are {name}, type your PIN. If not, choose another name "
                        "(with your surname, say)."},
    "pin_locked": {"pt": "PINs errados demais neste navegador. Espere até {minutes} min e tente de novo, "
                         "ou peça ao professor um PIN novo para {name}.",
                   "en": "Too many wrong PINs in this browser. Wait up to {minutes} min and try again, "
                         "or ask your teacher for a new PIN for {name}."},
    "pin_reload": {"pt": "Alguém errou o PIN de {name} muitas vezes. Recarregue esta página e digite o "
                         "seu PIN de novo.",
                   "en": "Someone typed a wrong PIN for {name} many times. Reload this page and type "
                         "your PIN again."},
    "bad_login_code": {"pt": "Esse não é um código de cartão: ele tem 14 letras e números.",
                       "en": "That is not a login card code: it has 14 letters and digits."},
    "unknown_card": {"pt": "Esse cartão não vale (talvez o professor tenha impresso outro).",
                     "en": "That card is not valid (perhaps the teacher printed a new one)."},
    "card_locked": {"pt": "Códigos errados demais neste navegador. Espere até {minutes} min e tente de novo.",
                    "en": "Too many wrong codes in this browser. Wait up to {minutes} min and try again."},
    "card_reload": {"pt": "Alguém digitou muitos códigos errados nesta turma. Recarregue esta página e "
                          "use o seu cartão de novo.",
                    "en": "Someone typed many wrong codes in this class. Reload this page and use your "
                          "card again."},
    "signed_out": {"pt": "Você não está mais na turma neste navegador (o professor pode ter mudado "
                         "a lista). Entre de novo no índice.",
                   "en": "You are no longer in the class in this browser (the teacher may have "
                         "changed the list). Join again on the index."},
    "store_down": {"pt": "O armazenamento não responde agora; tente de novo em instantes.",
                   "en": "The store does not answer right now; try again in a moment."},
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
  const typed = {};  // what the learner typed in the form, kept across redraws
  const report = (trait, value) => { model.set(trait, { ...value, count: ++count }); model.save_changes(); };
  const mine = () => {
    const stored = load();
    if (typeof stored.browser_id !== "string" || !/^[A-Za-z0-9-]{8,64}$/.test(stored.browser_id)) {
      stored.browser_id = newId();
      save(stored);
    }
    return { browser_id: stored.browser_id, token: stored.token || "", name: stored.name || "",
             class_code: stored.class_code || "" };
  };
  const tell = () => {
    const m = mine();
    report("stored", { browser_id: m.browser_id, token: m.token, name: m.name });
  };
  const node = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const input = (cls, label, key, initial, max) => {
    const e = node("input", cls);
    e.placeholder = label; e.maxLength = max; e.setAttribute("aria-label", label);
    e.value = typed[key] !== undefined ? typed[key] : initial;
    e.addEventListener("input", () => { typed[key] = e.value; });
    return e;
  };
  // "progress is not being saved" and such: one live region, kept across redraws (a screen
  // reader says its text when it changes), shown in every mode, the hub's included
  const noticeBox = node("div", "cartas-identity-notice");
  noticeBox.setAttribute("role", "status");
  noticeBox.setAttribute("aria-live", "polite");
  const showNotice = () => {
    const notice = model.get("notice");
    if (noticeBox.textContent !== notice) noticeBox.textContent = notice;
    noticeBox.hidden = !notice;
  };
  const body = node("div", "cartas-identity-body");   // what draw() writes again each time
  el.append(body, noticeBox);
  // What the body shows, drawn again only when that changes: the kernel's answer to tell()
  // (the stored learner, known now) changes nothing she sees, and a form replaced under her
  // finger loses the tap on its button (pressed on one, released on the other).
  let drawn = "";
  const draw = () => {
    const known = model.get("learner"), t = model.get("labels");
    const who = known.browser_id ? known : mine();  // until the kernel answers: what is stored
    el.dataset.known = known.browser_id ? "yes" : "no";
    const shown = JSON.stringify([who.name || "", who.class_code || "", t, model.get("hub"), model.get("mode"),
                                  model.get("pin_wanted"), model.get("error") || "", model.get("index_url")]);
    if (shown === drawn) { showNotice(); return; }
    drawn = shown;
    body.replaceChildren();
    const line = node("div", "cartas-identity-line");
    if (who.name) {
      line.append(node("span", "", t.you_are + " "), node("b", "cartas-identity-name", who.name));
      if (who.class_code) line.append(node("span", "cartas-identity-class", ` (${t.class} ${who.class_code})`));
    } else {
      line.append(node("span", "cartas-identity-name cartas-identity-anonymous", t.anonymous));
    }
    if (model.get("hub")) {  // the hub's login: nothing to change here, but what is wrong is said
      body.append(line);
      const error = model.get("error");
      if (error) body.append(node("div", "cartas-identity-error", error));
      showNotice();
      return;
    }
    if (who.name || who.class_code) {
      line.append(node("span", "", " · "));
      const notMe = node("button", "cartas-not-me", t.not_me);
      notMe.type = "button";
      notMe.addEventListener("click", () => {
        const stored = mine();
        save({ browser_id: stored.browser_id });
        report("stored", { browser_id: stored.browser_id, token: "", name: "" });
      });
      line.append(notMe);
    } else if (model.get("mode") !== "form") {
      line.append(node("span", "", " · "));
      const link = node("a", "cartas-identity-index", t.set_name);
      link.href = model.get("index_url");
      line.append(link);
    }
    body.append(line);
    if (model.get("mode") === "form") {
      const form = node("form", "cartas-identity-form");
      const name = input("cartas-name-input", t.name, "name", who.name || "", 40);
      const code = input("cartas-code-input", t.code, "code", who.class_code || "", 9);
      const pin = input("cartas-pin-input", t.pin, "pin", "", 6);
      pin.type = "password"; pin.inputMode = "numeric"; pin.autocomplete = "off";
      if (model.get("pin_wanted")) pin.classList.add("cartas-pin-wanted");
      const go = node("button", "cartas-name-save", t.save);
      go.type = "submit";
      form.append(name, code, pin, go);
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        report("submitted", { browser_id: mine().browser_id, name: name.value, class_code: code.value,
                              pin: pin.value });
        typed.pin = "";
      });
      body.append(form);
      const cardForm = node("form", "cartas-card-form");
      const card = input("cartas-card-input", t.card, "card", "", 20);
      card.autocomplete = "off";
      const cardGo = node("button", "cartas-card-save", t.card_go);
      cardGo.type = "submit";
      cardForm.append(card, cardGo);
      cardForm.addEventListener("submit", (event) => {
        event.preventDefault();
        report("card", { browser_id: mine().browser_id, code: card.value });
        typed.card = "";
      });
      body.append(cardForm);
      // in a class she has chosen her PIN already: say what it is for, not to choose one
      const help = who.class_code ? t.pin_kept : who.name ? t.pin_help : t.anonymous_help + " " + t.pin_help;
      body.append(node("div", "cartas-identity-help", help));
      if (model.get("pin_wanted")) setTimeout(() => pin.focus(), 0);
    }
    const error = model.get("error");
    if (error) body.append(node("div", "cartas-identity-error", error));
    showNotice();
  };
  model.on("change:learner", () => {
    const who = model.get("learner");
    if (who.browser_id) {
      save({ browser_id: who.browser_id, token: who.token || "", name: who.name, class_code: who.class_code });
      if (who.class_code) { delete typed.name; delete typed.code; }
    }
    draw();
  });
  for (const trait of ["labels", "notice", "error", "mode", "pin_wanted", "hub"]) model.on("change:" + trait, draw);
  const onStorage = (event) => { if (event.key === KEY) tell(); };
  window.addEventListener("storage", onStorage);
  draw();
  tell();
  // A login card's link: sign in with its code, then drop the code from the address bar.
  const params = new URLSearchParams(window.location.search);
  if (params.get("cartao")) {
    report("card", { browser_id: mine().browser_id, code: params.get("cartao") });
    params.delete("cartao");
    const rest = params.toString();
    try {
      window.history.replaceState(null, "", window.location.pathname + (rest ? "?" + rest : "") + window.location.hash);
    } catch (e) { /* the address stays as it was */ }
  }
  return () => window.removeEventListener("storage", onStorage);
}
export default { render };
"""

_CSS = """
.cartas-identity { font-size: 15px; padding: 4px 0; }
.cartas-identity-form, .cartas-card-form { display: flex; gap: 8px; margin: 6px 0; flex-wrap: wrap; }
.cartas-identity-form input, .cartas-card-form input { font-size: 15px; padding: 4px 8px; box-sizing: border-box;
  flex: 1 1 15em; min-width: 0; max-width: 22em; }
.cartas-code-input, .cartas-card-input { text-transform: uppercase; }
/* a field's placeholder is its label: written as it is (not in capitals) and wide enough to read whole */
.cartas-identity input::placeholder { text-transform: none; }
.cartas-pin-wanted { outline: 3px solid #b34700; }
.cartas-identity button { font-size: 14px; cursor: pointer; }
.cartas-not-me { background: none; border: none; color: #0d47a1; text-decoration: underline; padding: 0; }
.cartas-identity-help { color: #555; font-size: 13px; }
.cartas-identity-error { color: #b71c1c; }
.cartas-identity-notice { background: #fff3e0; color: #a84300; padding: 4px 8px; border-radius: 6px; margin-top: 4px;
  max-width: 100%; box-sizing: border-box; overflow-wrap: anywhere; }
.cartas-identity-notice[hidden] { display: none; }
"""


HUB_BROWSER = "jupyterhub-user"  # the browser id of a hub user's Learner (her key is the service's)


def learners() -> ids.LearnerService:
    """Who answers questions about learners (classroom.identity): this kernel's classroom
    (`classroom.open()`; under JupyterHub the hub's login answers, so nothing is asked)."""
    from classroom import open as open_classroom
    return open_classroom().learners()


class Identity(TinyWidget):
    """The learner at this browser (see the module's rules). `learner` holds the accepted
    identity as a dict for the browser; `current` the same as a classroom Learner, and
    `verified()` checks it against the store again."""

    _esm = module(_ESM)
    _css = module(_CSS)
    mode = traitlets.Unicode("badge").tag(sync=True)       # "form" on the index
    labels = traitlets.Dict().tag(sync=True)
    learner = traitlets.Dict().tag(sync=True)               # kernel -> browser
    stored = traitlets.Dict().tag(sync=True)                # browser -> kernel: localStorage
    submitted = traitlets.Dict().tag(sync=True)             # browser -> kernel: the form
    card = traitlets.Dict().tag(sync=True)                  # browser -> kernel: a login card's code
    pin_wanted = traitlets.Bool(False).tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    notice = traitlets.Unicode("").tag(sync=True)
    index_url = traitlets.Unicode("index.ipynb").tag(sync=True)
    hub = traitlets.Bool(False).tag(sync=True)              # the learner is the JupyterHub user

    def __init__(self, lang: str = "pt", **kwargs):
        super().__init__(**kwargs)
        self.lang = lang if lang in LANGUAGES else "pt"
        self.labels = every_key(TEXT, self.lang)
        self._listeners: list = []
        self._notice_texts: dict | None = None
        self._error: tuple[str, dict] | None = None
        self.current: Learner | None = None
        self._token = ""                                    # the device token of `current`
        self._claim: tuple[str, str] | None = None         # (browser id, token) not yet checked
        self.observe(self._on_stored, names="stored")
        self.observe(self._on_submitted, names="submitted")
        self.observe(self._on_card, names="card")
        from classroom import hub_user
        user = hub_user()
        if user:
            self.hub = True
            self.set_learner(Learner(HUB_BROWSER, clean_name(user)))

    # Language ---------------------------------------------------------------------------
    def set_language(self, lang: str) -> None:
        if lang in LANGUAGES:
            self.lang = lang
            self.labels = every_key(TEXT, lang)
            if self._notice_texts:
                self.notice = self._notice_texts.get(lang, "")
            if self._error:
                self.error = self.t(self._error[0], **self._error[1])

    def show_notice(self, texts: dict | None) -> None:
        """Show {"pt": ..., "en": ...} under the name (in the page's language), or nothing."""
        self._notice_texts = texts
        self.notice = texts.get(self.lang, "") if texts else ""

    def show_error(self, key: str | None, **fields) -> None:
        """Show the refusal TEXT[key] (in the page's language), or none."""
        self._error = (key, fields) if key else None
        self.error = self.t(key, **fields) if key else ""
        self.pin_wanted = key in ("name_taken", "name_like", "pin_locked", "pin_reload")

    def t(self, key: str, **fields) -> str:
        return translate(TEXT, key, self.lang, **fields)

    # Who ------------------------------------------------------------------------------
    def on_change(self, callback) -> None:
        """Call `callback(learner)` whenever the learner at this browser becomes known or changes."""
        self._listeners.append(callback)

    def _on_stored(self, change) -> None:
        if self.hub:
            return  # under JupyterHub the learner is the hub user, whatever the browser says
        value = change["new"] if isinstance(change["new"], dict) else {}
        browser_id, token = value.get("browser_id"), ids.clean_token(value.get("token"))
        try:
            ids.clean_browser_id(browser_id)
        except ValueError:
            return  # no usable browser id: stay unknown
        if not token:  # this browser, anonymous, with the name it keeps as a label
            self._claim = None
            self.set_learner(Learner.make(browser_id, clean_name(value.get("name", ""))))
            return
        self._claim = (str(browser_id), token)
        try:
            self._check_claim()
        except StoreError as error:  # checked again on the next use
            print(f"cartas: cannot check the learner's token yet: {error}", file=sys.stderr)

    def _check_claim(self) -> None:
        """Check the token the browser reported (StoreError when the store cannot say)."""
        assert self._claim is not None
        browser_id, token = self._claim
        found = learners().check(token, browser_id)
        self._claim = None
        if found is None:
            self._lost(browser_id)
        else:
            self.set_learner(found, token)

    def _lost(self, browser_id: str) -> None:
        """The token is not (or no longer) a learner's: this browser is anonymous again."""
        self.show_error("signed_out")
        self.set_learner(Learner.make(browser_id))

    def _forget_token(self, token: str) -> None:
        try:
            learners().sign_out(token)
        except StoreError as error:  # a token left behind only ages
            print(f"cartas: token not signed out: {error}", file=sys.stderr)

    def _on_submitted(self, change) -> None:
        if self.hub:
            return  # under JupyterHub the learner is the hub user, whatever the browser says
        value = change["new"] if isinstance(change["new"], dict) else {}
        self.show_error(None)
        try:
            code = clean_code(value.get("class_code", ""))
        except ValueError:
            self.show_error("bad_code")
            return
        try:
            if not code:  # no class: this browser, with a name as its label
                self.set_learner(Learner.make(value.get("browser_id"), clean_name(value.get("name", ""))))
                return
            joined = learners().join(code, value.get("name", ""), value.get("pin", ""),
                              value.get("browser_id"))
        except IdentityError as refusal:
            self.show_error(refusal.code, **refusal.fields)
            return
        except ValueError:
            return  # no usable browser id: a page that was not drawn by this widget
        except StoreError as error:  # the store is down: say so, keep the page
            print(f"cartas: cannot join: {error}", file=sys.stderr)
            self.show_error("store_down")
            return
        self._signed_in(joined)

    def _on_card(self, change) -> None:
        if self.hub:
            return  # under JupyterHub the learner is the hub user, whatever the browser says
        value = change["new"] if isinstance(change["new"], dict) else {}
        self.show_error(None)
        try:
            joined = learners().sign_in_with_card(value.get("code", ""), value.get("browser_id"))
        except IdentityError as refusal:
            self.show_error(refusal.code, **refusal.fields)
            return
        except ValueError:
            return
        except StoreError as error:
            print(f"cartas: cannot sign in with a card: {error}", file=sys.stderr)
            self.show_error("store_down")
            return
        self._signed_in(joined)

    def _signed_in(self, joined) -> None:
        self._claim = None
        self.set_learner(joined.learner, joined.token)

    def reported(self) -> bool:
        """Whether the browser has said who is there (checked or still to check)."""
        return self.current is not None or self._claim is not None

    def verified(self) -> Learner | None:
        """The learner at this browser, checked against the store now (a class learner's
        token; a learner without a class is her browser and needs no check). None while the
        browser has not said; StoreError when the store cannot say."""
        if self.hub:
            return self.current  # the class service checks her hub token on every use
        if self._claim is not None:
            self._check_claim()
        learner = self.current
        if learner is None or not learner.class_code:
            return learner
        found = learners().check(self._token, learner.browser_id)
        if found is None:
            self._lost(learner.browser_id)
        elif found != learner:  # merged into another learner, who she is from now on
            self.set_learner(found, self._token)
        return self.current

    def set_learner(self, learner: Learner, token: str = "") -> None:
        """Make `learner` the one at this browser (the browser stores it) and tell listeners.
        A learner of a class comes with her device token (from classroom.identity)."""
        token = token if learner.class_code else ""
        if self._token and token != self._token:
            self._forget_token(self._token)  # this browser no longer keeps it: "not me", another learner
        self._token = token
        self.learner = {"browser_id": learner.browser_id, "name": learner.name,
                        "class_code": learner.class_code, "token": token}
        if learner.class_code and self._error and self._error[0] == "signed_out":
            self.show_error(None)
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


def forget(browser_id: str | None = None) -> None:
    """Forget this kernel's identity widget; with `browser_id`, start with that anonymous
    learner already known (as if the browser had reported it). `scores.reset_session` also
    forgets the answers waiting to be saved."""
    global _widget
    _widget = None
    if browser_id is not None:
        widget().set_learner(Learner.make(browser_id))
