"""What every Cartas view shares: a language switch that follows the page, friendly error
messages (beside the control that caused them), and a score line read from the store.

Decided rules:
- A view made without `lang` starts in the page's language and follows the page switch
  (`widgets.components.page`); a view made with `lang` keeps its own (tests, embedded copies).
- A page has one title and one language switch: those of the notebook (its heading, and
  `page_language()`). A view that follows the page shows neither its own heading nor its own
  switch (`View.on_page`); a view standing alone, or keeping its own language, shows both.
- An exercise's score line shows the learner's stored totals for that lesson (every visit,
  this one included), so it survives a reload; when the store cannot be read it shows this
  visit's answers.
- A URL parameter a view uses is read through `widgets.components.params` and `View.from_url`: a refused
  one is replaced by its default, and the view's notice (under its title) says so in the
  view's language. A view that follows the page also reports a refused `?lang=`.
- A disabled button is grey (`enable`): it loses its colour with its use.
- A refusal shows beside the control that caused it (`beside`: a field, or a row of
  buttons), so the learner reads it where she looks; only an error no control caused goes
  to the message line under the title.
- No traceback leaves the kernel: the kernel forwards its stdout and stderr to every page
  it serves, so an unexpected error is written to the kernel error log (`error_log()`, a
  file in the temp folder, `CARTAS_ERROR_LOG` to choose another), never printed. Inside a
  kernel every logger (a library's too, warnings and threads' uncaught errors included)
  writes there and not to stderr.
"""
from __future__ import annotations

import functools
import logging
import logging.handlers
import os
import sys
import tempfile
import threading
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

from classroom.store import StoreDamaged, StoreError
from widgets.components import page
from widgets.components.i18n import LANGUAGES, translate
from widgets.components.later import hold_messages_for_browser

if TYPE_CHECKING:
    from widgets.components.announce import Announcer

ERROR_LOG_NAME = "cartas-kernel-errors.log"
ERROR_LOG_BYTES = 2_000_000  # per file; one older file is kept beside it


class _QuietFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log file that, when it cannot be written, drops the record: logging's
    default would print the failure, with a traceback, to stderr, that is, to the page."""

    def handleError(self, record: logging.LogRecord) -> None:  # logging's name
        pass


_log_handler: _QuietFileHandler | None = None


def error_log_path() -> Path:
    """Where the kernels' errors go: `CARTAS_ERROR_LOG`, else ERROR_LOG_NAME in the temp folder."""
    return Path(os.environ.get("CARTAS_ERROR_LOG") or Path(tempfile.gettempdir()) / ERROR_LOG_NAME)


def _in_kernel() -> bool:
    kernelapp = sys.modules.get("ipykernel.kernelapp")
    return bool(kernelapp is not None and kernelapp.IPKernelApp.initialized())


def error_log() -> logging.Logger:
    """The logger "cartas", writing to `error_log_path()` only (never to stderr).

    Inside a kernel the same file also takes every other logger's records (the comm manager
    logs to the root logger, whose last resort is stderr), Python's warnings, threads'
    uncaught exceptions, and the tracebacks ipywidgets would show for a widget message it
    could not apply (the kernel's `cartas_server.kernel.QuietShell`)."""
    global _log_handler
    logger = logging.getLogger("cartas")
    path = error_log_path()
    if _log_handler is None or Path(_log_handler.baseFilename) != path.absolute():
        old, _log_handler = _log_handler, _QuietFileHandler(
            path, maxBytes=ERROR_LOG_BYTES, backupCount=1, encoding="utf-8", delay=True)
        _log_handler.setFormatter(logging.Formatter(
            f"%(asctime)s pid {os.getpid()} %(name)s %(levelname)s: %(message)s"))
        for each in (logger, logging.getLogger()):
            if old is not None:
                each.removeHandler(old)
        if old is not None:
            old.close()
        logger.addHandler(_log_handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    if _in_kernel() and _log_handler not in logging.getLogger().handlers:
        logging.getLogger().addHandler(_log_handler)
        logging.captureWarnings(True)
        threading.excepthook = _thread_failed
        _warn_unless_quiet()
    return logger


def _warn_unless_quiet() -> None:
    """The tracebacks of widget messages stay in the kernel when the kernel is Cartas' own
    (`cartas_server.kernel`, named by the environment's `etc/ipython` configuration): say in
    the error log when it is not, so a missing install step shows."""
    from cartas_server.kernel import quiet

    if not quiet():
        logging.getLogger("cartas").warning(
            "this kernel is not cartas_server.kernel.CartasKernel (etc/ipython/ipython_kernel_config.json "
            "is not installed in %s/etc/ipython): tracebacks of widget messages reach the page", sys.prefix)


def _thread_failed(args) -> None:
    """A thread's uncaught exception goes to the error log (Python's default prints it)."""
    if args.exc_type is not SystemExit:
        logging.getLogger("cartas").error("uncaught exception in thread %s", getattr(args.thread, "name", "?"),
                                          exc_info=(args.exc_type, args.exc_value, args.exc_traceback))

COMMON_TEXT = {
    "not_possible": {"pt": "Não é possível: {reason}", "en": "Not possible: {reason}"},
    "unexpected": {
        "pt": "Algo deu errado aqui. Tente de novo ou recomece a lição.",
        "en": "Something went wrong here. Try again or restart the lesson.",
    },
    "language": {"pt": "Idioma", "en": "Language"},
    "store_down": {"pt": "O armazenamento não responde agora; tente de novo em instantes.",
                   "en": "The store does not answer right now; try again in a moment."},
    "store_damaged": {
        "pt": "O arquivo da turma está danificado ({path}): não é mais um banco de dados que o Cartas "
              "consiga ler, e tentar de novo não resolve. Pare o servidor, mova esse arquivo para outra "
              "pasta (guarde-o: ele pode ser recuperado) e coloque ali uma cópia de segurança dele; sem "
              "cópia, o Cartas cria ali um arquivo novo e vazio quando o servidor voltar.",
        "en": "The class file is damaged ({path}): it is no longer a database Cartas can read, and "
              "trying again will not help. Stop the server, move that file to another folder (keep it: "
              "it may be recovered) and put a backup copy in its place; without one, Cartas makes a new, "
              "empty file there when the server starts again.",
    },
}


# One default layout and one default style shared by every text box made with `html()`.
_SHARED: dict[str, w.Widget] = {}


def _shared(kind: str) -> w.Widget:
    widget = _SHARED.get(kind)
    if widget is None or widget.comm is None:  # none yet, or closed (Widget.close_all)
        widget = _SHARED[kind] = w.Layout() if kind == "layout" else HTMLStyle()
    return widget


def html(*classes: str, value: str = "", **kwargs) -> w.HTML:
    """A text box a view draws into, with CSS `classes`.

    Every widget is a model the kernel opens in the browser, one message each, and each class
    added later is one more message; a class of learners opening a lesson at once pays for
    them all on one server. So the classes come with the box, and, unless `layout` or `style`
    is given, the box shares one default layout and style with the others: never set
    `.layout` attributes on such a box (give it a layout of its own instead)."""
    kwargs.setdefault("layout", _shared("layout"))
    kwargs.setdefault("style", _shared("style"))
    return w.HTML(value=value, _dom_classes=classes, **kwargs)


def variant_toggle(value="paulista") -> w.ToggleButtons:
    """The Paulista/Mineiro switch (class cartas-variant); `value` is a variant or its key."""
    from cartas.truco import VARIANTS, get_variant  # only truco views pay for it
    return w.ToggleButtons(options=[(v.label["pt"], key) for key, v in VARIANTS.items()],
                           value=get_variant(value).key, _dom_classes=("cartas-variant",))


def seed_field(rng, value: int | None = None, width: str = "190px", **kwargs) -> w.IntText:
    """The seed box (class cartas-seed): `value`, or else a draw from the seeded `rng`. With a
    lazy `rng` (`cartas.cards.lazy_rng`) nothing is drawn: the box starts at 0 and the view
    draws its value with its first deal (`widgets.components.later.deal_from_seed`)."""
    if value is None:
        value = 0 if callable(rng) else int(rng.integers(1000))
    return w.IntText(value=value, layout=w.Layout(width=width), _dom_classes=("cartas-seed",), **kwargs)


def enable(button: w.Button, on: bool, style: str = "") -> None:
    """Enable `button` in its colour (`style`: "success", "danger"...), or disable it grey:
    a disabled button keeps no colour, so it never looks clickable."""
    button.disabled = not on
    button.button_style = style if on else ""


def verdict_html(correct: bool, text: str, size: int = 17, attrs: str = "") -> str:
    """An exercise's right/wrong line: class cartas-right (green) or cartas-wrong (red)."""
    kind, colour = ("right", "#1b5e20") if correct else ("wrong", "#b71c1c")
    return (f'<div class="cartas-{kind}"{attrs} style="font-size:{size}px;color:{colour}">'
            f'{text}</div>')


def scroll_x(inner: str, name: str) -> str:
    """`inner` (a table wider than a phone: a column per lesson or skill) in a box of its own
    that scrolls sideways, never the page; the keyboard reaches it and a screen reader names
    it `name` (axe's scrollable-region-focusable)."""
    return (f"<div class='cartas-scroll-x' role='region' tabindex='0' aria-label='{escape(name)}' "
            f"style='overflow-x:auto;max-width:100%'>{inner}</div>")


class View(w.VBox):
    """A lesson widget: a VBox that owns its children, redraws on demand and never leaks
    a traceback to the learner.

    Subclasses define TEXT ({key: {"pt": ..., "en": ...}}), build their widgets in
    __init__, and draw everything from the engine in `redraw()`.
    """

    TEXT: ClassVar[dict] = {}

    def __init__(self, lang: str | None = None, **kwargs):
        super().__init__(_dom_classes=("cartas-view",), **kwargs)
        explicit = isinstance(lang, str) and lang in LANGUAGES
        self.lang: str = lang if isinstance(lang, str) and explicit else page.current()
        self.last_error: BaseException | None = None
        self._error_slots: dict[int, w.HTML] = {}
        self._error_rows: list[tuple[w.Box, w.HTML]] = []  # rows of controls sharing one slot
        self.language = w.ToggleButtons(
            options=[("Português", "pt"), ("English", "en")], value=self.lang,
            style={"button_width": "90px"}, _dom_classes=("cartas-language",))
        self.language.observe(self.guarded(self._on_language), names="value")
        self.title = html()  # drawn by draw_title(), shown by header()
        self.announcer: Announcer | None = None  # the live region (widgets.components.announce), made by header()
        self.message = html("cartas-message")
        error_log()  # from the first view on, nothing this kernel logs reaches its stderr
        hold_messages_for_browser()  # under Voilà, before the page's browser comes: widgets.components.later
        self._url_problems: list = []
        if not explicit:
            from widgets.components.params import language
            self.from_url(language())
        if not explicit and page.active():
            page.follow(self)

    def t(self, key: str, **fields) -> str:
        table = self.TEXT if key in self.TEXT else COMMON_TEXT
        return translate(table, key, self.lang, **fields)

    def on_page(self) -> bool:
        """True when this view follows a dashboard's language switch (`page.follow`): the page
        then shows the only title and the only switch, and the view neither."""
        return bool(getattr(self, "_cartas_follows_page", False))

    def store_problem(self, error: StoreError) -> str:
        """What the teacher is told when the store failed: a damaged file (retrying will not
        help: what is wrong and what to do), or "try again in a moment"."""
        if isinstance(error, StoreDamaged):
            return translate(COMMON_TEXT, "store_damaged", self.lang, path=error.path)
        return self.t("store_down")

    def header(self) -> w.HBox:
        """The first row: `self.title` (drawn by `draw_title`), the learner at this browser
        ("Você é X · não sou eu", widgets.components.learner) and the language switch."""
        from widgets.components.announce import Announcer
        from widgets.components.learner import attach
        if self.announcer is None:
            self.announcer = Announcer()
        row = [self.title, attach(self), self.announcer]
        if not self.on_page():  # a view standing alone, or keeping a language of its own
            row.insert(2, self.language)
        return w.HBox(row, layout=w.Layout(justify_content="space-between", align_items="center"))

    def announce(self, text) -> None:
        """Have a screen reader say `text` (a move, a bot's move), or a list of lines (one per
        event, at most `announce.MAX_LINES` of them: `announce.bounded`), through the view's
        live region (`widgets.components.announce`; refusals it says by itself). Cards are
        said in words in the view's language (`announce.in_words`)."""
        if self.announcer is None:
            return
        from widgets.components.announce import bounded, in_words
        lines = [text] if isinstance(text, str) else bounded([str(line) for line in text])
        self.announcer.say("\n".join(in_words(line, self.lang) for line in lines))

    def deal_controls(self, variant, rng, on_deal, button_class: str = "cartas-new",
                      width: str = "130px", fresh: bool = False):
        """The variant switch, the seed box (drawn from `rng`) and a deal button; switching
        the variant, clicking the button or pressing Enter in the seed box calls `on_deal()`.
        `rng` is a Generator or a lazy one (`lazy_rng`, see `seed_field`).
        With `fresh` (a "Nova mão" button) the button first draws a new seed from `rng`, so
        it deals new cards; a seed typed in the box replays its deal. A refused seed shows
        beside the seed box when the view places it with `beside(seed)`. Returns (variant,
        seed, button)."""
        toggle, seed = variant_toggle(variant), seed_field(rng, continuous_update=False)
        button = w.Button(layout=w.Layout(width=width), _dom_classes=(button_class,))
        toggle.observe(self.guarded(lambda _: on_deal(), near=seed), names="value")
        drawing = []

        def click(_):
            if fresh:
                drawing.append(True)
                try:
                    seed.value = int((rng() if callable(rng) else rng).integers(1_000_000))
                finally:
                    drawing.pop()
            on_deal()

        def typed(_):
            if not drawing:
                on_deal()

        button.on_click(self.guarded(click, near=seed))
        seed.observe(self.guarded(typed, near=seed), names="value")
        return toggle, seed, button

    def draw_title(self) -> None:
        """The view's heading and its URL notice; on a dashboard (`page.active()`) the notice
        alone: the page's own heading names the lesson (decided rule: one title and one
        language switch per page, those of the page)."""
        heading = "" if self.on_page() else f"<h3 style='margin:4px 0'>{self.t('title')}</h3>"
        self.title.value = f"{heading}{self.url_notice()}"

    # URL parameters ---------------------------------------------------------------------
    def from_url(self, reading):
        """The value of a `widgets.components.params.Reading`; a refused parameter's problem joins the
        view's notice (`url_notice`, drawn under the title by `draw_title`)."""
        problem = reading.problem
        if problem is not None and all(p.fields.get("name") != problem.fields.get("name")
                                       for p in self._url_problems):
            self._url_problems.append(problem)
        return reading.value

    def url_notice(self) -> str:
        """The refused URL parameters, one line each in the view's language (class
        cartas-url-notice), or "" when there are none."""
        if not self._url_problems:
            return ""
        lines = "".join(f"<div>{escape(problem.message(self.lang))}</div>" for problem in self._url_problems)
        return (f'<div class="cartas-url-notice" role="status" style="background:#fff8e1;color:#5d4037;'
                f'padding:4px 10px;border-radius:6px;font-size:14px;margin:2px 0">{lines}</div>')

    def _on_language(self, change) -> None:
        self.lang = change["new"]
        self.redraw()

    def redraw(self) -> None:  # pragma: no cover - every view overrides it
        raise NotImplementedError

    # Errors ---------------------------------------------------------------------------
    def beside(self, control, width: str = "auto") -> w.HBox:
        """`control` with a slot for its errors right after it (class cartas-field-error);
        `guarded(callback, near=control)` and `show_error(error, near=control)` write there.
        `control` may be a row of buttons (a Box): a refusal of any control in it (a callback
        wrapped by `guarded`, which knows the button clicked) shows in the row's slot."""
        slot = html("cartas-field-error", layout=w.Layout(width=width))
        self._error_slots[id(control)] = slot
        if isinstance(control, w.Box):
            self._error_rows.append((control, slot))
        return w.HBox([control, slot], layout=w.Layout(align_items="center", flex_flow="row wrap"))

    def _slot_for(self, control) -> w.HTML | None:
        """The error slot of `control`, or of the row (`beside`) it sits in."""
        slot = self._error_slots.get(id(control))
        if slot is None:
            slot = next((s for row, s in self._error_rows if control in row.children), None)
        return slot

    @staticmethod
    def _control_of(args) -> object:
        """The widget behind a callback's first argument: the button clicked (`on_click`) or
        the owner of an observed change."""
        first = args[0] if args else None
        if isinstance(first, w.Widget):
            return first
        return first.get("owner") if isinstance(first, dict) else None

    def guarded(self, callback, near=None, clears: bool = True):
        """Wrap a widget callback: a refused move becomes a friendly message in the view,
        beside `near` when that control has an error slot (`beside`).

        A learner's action (`clears`, the default) first clears the messages shown; a callback
        the learner did not cause (a timer, a poll) passes clears=False and leaves them.
        Inside Voilà an exception in a callback would vanish silently, so nothing may escape.
        """
        @functools.wraps(callback)
        def run(*args, **kwargs):
            try:
                if clears:
                    self.clear_message()
                return callback(*args, **kwargs)
            except Exception as error:  # shown to the learner instead
                place = near if near is not None else self._control_of(args)
                if place is None or (near is None and self._slot_for(place) is None):
                    self.show_error(error)  # views may override show_error(error)
                else:
                    self.show_error(error, near=place)
                return None
        return run

    def show_error(self, error: BaseException, near=None) -> None:
        """Show `error` in the learner's language: beside `near` if it has a slot, else in
        the view's message line. A ValueError gives its reason; anything else a calm notice,
        and its traceback goes to the kernel error log (`error_log`), never to stderr, which
        the kernel would forward to the page."""
        self.last_error = error
        if isinstance(error, ValueError):
            text = self.t("not_possible", reason=self._reason(error))
        else:
            error_log().error("unexpected error in %s", type(self).__name__,
                              exc_info=(type(error), error, error.__traceback__))
            text = self.t("unexpected")
        self.show_refusal(text, near)

    def show_refusal(self, text: str, near=None) -> None:
        """Show the refusal `text` (plain text) beside `near` if it has a slot, else in the
        view's message line."""
        slot = self._slot_for(near) if near is not None else None
        if slot is None:
            self.show_message(text, kind="error")
        else:
            slot.value = (f'<div class="cartas-error" style="color:#b71c1c;font-size:15px;'
                          f'margin-left:8px">{escape(text)}</div>')

    def _reason(self, error: ValueError) -> str:
        """The error's text, in the view's language when it offers `message(lang)` (every
        engine refusal is a `cartas.errors.RuleError`, which does); str(error) otherwise or
        if that fails."""
        try:
            say = getattr(error, "message", None)
            return say(self.lang) if callable(say) else str(error)
        except Exception:  # no message(lang), or a broken one
            return str(error)

    def show_message(self, text: str, kind: str = "info") -> None:
        colours = {"error": ("#fdecea", "#b71c1c"), "info": ("#e8f4fd", "#0d47a1"),
                   "ok": ("#e8f5e9", "#1b5e20")}
        background, colour = colours[kind]
        self.message.value = (
            f'<div class="cartas-{kind}" style="background:{background};color:{colour};'
            f'padding:6px 10px;border-radius:6px;font-size:15px">{escape(text)}</div>'
        )

    def clear_message(self) -> None:
        self.message.value = ""
        for slot in self._error_slots.values():
            slot.value = ""


def close_drawing(buttons) -> None:
    """Close buttons a view no longer shows, then the layouts and styles they were drawn with
    (in the browser, closing a layout or style model removes its views, which hold the
    buttons'). Their layouts and styles must be theirs alone, not shared with a kept widget."""
    parts = {id(part): part for button in buttons for part in (button.layout, button.style)}
    for button in buttons:
        button.close()
    for part in parts.values():
        part.close()
