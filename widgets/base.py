"""What every Cartas view shares: a language switch that follows the page, friendly error
messages (beside the control that caused them), and a score line read from the store.

Decided rules:
- A view made without `lang` starts in the page's language and follows the page switch
  (`widgets.page`); a view made with `lang` keeps its own (tests, embedded copies).
- An exercise's score line shows the learner's stored totals for that lesson (every visit,
  this one included), so it survives a reload; when the store cannot be read it shows this
  visit's answers.
"""
from __future__ import annotations

import functools
import sys
import time
import traceback
from html import escape
from typing import ClassVar

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

from . import page
from .i18n import LANGUAGES, translate

COMMON_TEXT = {
    "not_possible": {"pt": "Não é possível: {reason}", "en": "Not possible: {reason}"},
    "unexpected": {
        "pt": "Algo deu errado aqui. Tente de novo ou recomece a lição.",
        "en": "Something went wrong here. Try again or restart the lesson.",
    },
    "language": {"pt": "Idioma", "en": "Language"},
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
    from cartas.truco import MINEIRO, PAULISTA, get_variant  # only truco views pay for it
    return w.ToggleButtons(options=[(PAULISTA.label["pt"], "paulista"),
                                    (MINEIRO.label["pt"], "mineiro")],
                           value=get_variant(value).key, _dom_classes=("cartas-variant",))


def seed_field(rng, value: int | None = None, width: str = "190px", **kwargs) -> w.IntText:
    """The seed box (class cartas-seed): `value`, or else a draw from the seeded `rng`."""
    if value is None:
        value = int(rng.integers(1000))
    return w.IntText(value=value, layout=w.Layout(width=width), _dom_classes=("cartas-seed",), **kwargs)


def verdict_html(correct: bool, text: str, size: int = 17, attrs: str = "") -> str:
    """An exercise's right/wrong line: class cartas-right (green) or cartas-wrong (red)."""
    kind, colour = ("right", "#1b5e20") if correct else ("wrong", "#b71c1c")
    return (f'<div class="cartas-{kind}"{attrs} style="font-size:{size}px;color:{colour}">'
            f'{text}</div>')


def stored_totals(score) -> tuple[int, int]:
    """(right, asked) of the learner at this browser for `score.lesson`: what the store holds
    plus her answers still waiting to be saved; this visit's counts when the store cannot be
    read, failed less than RETRY_SECONDS ago, or the learner is not known yet."""
    from . import identity, progress
    learner = identity.current()
    recorder = progress.recorder()
    if learner is None or (recorder.failed_at is not None
                           and time.monotonic() - recorder.failed_at < progress.RETRY_SECONDS):
        return score.right, score.asked  # a store that just failed is not asked again at once
    stored = progress.load(learner)
    if stored is None:
        return score.right, score.asked
    totals = stored.get(score.lesson, {"right": 0, "asked": 0})
    waiting = [correct for lesson, correct in list(recorder.pending) if lesson == score.lesson]
    return totals["right"] + sum(waiting), totals["asked"] + len(waiting)


def score_html(t, score) -> str:
    """The line under an exercise: the "score" text of translator `t` (right, asked), with the
    learner's stored totals for the lesson (see `stored_totals`)."""
    right, asked = stored_totals(score)
    return (f"<span style='font-size:16px' data-right='{right}' data-asked='{asked}'>"
            f"{t('score', right=right, asked=asked)}</span>")


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
        self.language = w.ToggleButtons(
            options=[("Português", "pt"), ("English", "en")], value=self.lang,
            style={"button_width": "90px"}, _dom_classes=("cartas-language",))
        self.language.observe(self.guarded(self._on_language), names="value")
        self.title = html()  # drawn by draw_title(), shown by header()
        self.message = html("cartas-message")
        if not explicit and page.active():
            page.follow(self)

    def t(self, key: str, **fields) -> str:
        table = self.TEXT if key in self.TEXT else COMMON_TEXT
        return translate(table, key, self.lang, **fields)

    def header(self) -> w.HBox:
        """The first row: `self.title` (drawn by `draw_title`), the learner at this browser
        ("Você é X · não sou eu", widgets.identity) and the language switch."""
        from .identity import attach
        return w.HBox([self.title, attach(self), self.language],
                      layout=w.Layout(justify_content="space-between", align_items="center"))

    def deal_controls(self, variant, rng, on_deal, button_class: str = "cartas-new",
                      width: str = "130px", fresh: bool = False):
        """The variant switch, the seed box (drawn from `rng`) and a deal button; switching
        the variant, clicking the button or pressing Enter in the seed box calls `on_deal()`.
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
                    seed.value = int(rng.integers(1_000_000))
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
        self.title.value = f"<h3 style='margin:4px 0'>{self.t('title')}</h3>"

    def _on_language(self, change) -> None:
        self.lang = change["new"]
        self.redraw()

    def redraw(self) -> None:  # pragma: no cover - every view overrides it
        raise NotImplementedError

    # Errors ---------------------------------------------------------------------------
    def beside(self, control, width: str = "auto") -> w.HBox:
        """`control` with a slot for its errors right after it (class cartas-field-error);
        `guarded(callback, near=control)` and `show_error(error, near=control)` write there."""
        slot = html("cartas-field-error", layout=w.Layout(width=width))
        self._error_slots[id(control)] = slot
        return w.HBox([control, slot], layout=w.Layout(align_items="center"))

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
            except Exception as error:  # noqa: BLE001 - shown to the learner instead
                if near is None:
                    self.show_error(error)  # views may override show_error(error)
                else:
                    self.show_error(error, near=near)
                return None
        return run

    def show_error(self, error: BaseException, near=None) -> None:
        """Show `error` in the learner's language: beside `near` if it has a slot, else in
        the view's message line. A ValueError gives its reason; anything else a calm notice
        (the traceback goes to the server log)."""
        self.last_error = error
        if isinstance(error, ValueError):
            text = self.t("not_possible", reason=self._reason(error))
        else:
            traceback.print_exception(error, file=sys.stderr)  # for the server log, not the page
            text = self.t("unexpected")
        slot = self._error_slots.get(id(near)) if near is not None else None
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
        except Exception:  # noqa: BLE001 - no message(lang), or a broken one
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
