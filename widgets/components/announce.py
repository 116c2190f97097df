"""What a screen reader says aloud: one polite `aria-live` region per view.

`Announcer` is a tiny anywidget drawing one visually hidden element
(`<div class="cartas-announce" role="status" aria-live="polite" aria-atomic="true">`) that
stays in the page for the view's whole life, so a screen reader hears every change of its text.

Decided rules:
- A view says its moves and the bots' moves itself (`View.announce(text)`, in the view's
  language: the engine's narration).
- Verdicts, refusals and messages are said without the view asking: the region watches its
  own view for a verdict (`.cartas-right`, `.cartas-wrong`, drawn by `verdict_html`), a refusal
  (`.cartas-error`, beside a control or in the message line) or a message (`.cartas-info`,
  `.cartas-ok`) that appears, and says its text. The text is the one the view drew, so it is
  in the view's language.
- The same sentence twice in a row is said twice (the region is emptied first).
- Long texts are cut to `MAX_CHARS`; the text is set with `textContent`, never as HTML.
- A card is said in words in the view's language ("sete de copas", "seven of hearts":
  `in_words`, from `cartas.cards.Card.spoken`); the visible log may keep its symbols.
- Moves are said a line per event, never a flood: what is new since the last announcement
  (`News`), at most `MAX_LINES` lines (the first new one, often the learner's own move, then
  the latest). A redraw in the other language, or a poll that found nothing new, says nothing.
- A verdict the view announces itself (the exercise block's, `widgets.components.exercises`)
  is drawn with `data-announced` and the region does not say it a second time.
"""
from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from html import unescape
from typing import TypeVar

import traitlets

from widgets.components.tiny import TinyWidget, module

MAX_CHARS = 600  # a screen reader reads a sentence or two, not a whole log
MAX_LINES = 6    # lines said at once (a whole trick: her card, three more, who won it): the first and the latest
T = TypeVar("T")

# a card as the engine writes it in a sentence: rank then suit symbol ("7♥", "10♦", "Q♣")
_CARD = re.compile(r"(?<![\w])(10|[2-9AJQK])([♦♠♥♣])")


def in_words(text: str, lang: str) -> str:
    """`text` with every card written as a symbol ("7♥") named in words in `lang` ("sete de
    copas" / "seven of hearts", `Card.spoken`), for a screen reader."""
    from cartas.cards import Card

    return _CARD.sub(lambda m: Card.parse(m.group(0)).spoken(lang), text)


def text_of(html: str) -> str:
    """The text a page shows for `html` (tags dropped, entities read), for the live region."""
    return unescape(re.sub(r"<[^>]+>", " ", html))


def bounded(lines: Sequence[T], most: int = MAX_LINES) -> list[T]:
    """At most `most` lines: all of them, or the first and the latest `most - 1`."""
    lines = list(lines)
    return lines if len(lines) <= most else [lines[0], *lines[len(lines) - most + 1:]]


class News:
    """What is new in a growing list of events since it was last asked (`new`).

    `key` names the list (a table, a hand, a lesson's example): another key, or a shorter
    list (a new game), starts again. With `quiet_first` the first list seen under a key is
    taken as already said (a table opened, a page drawn): only later events are new."""

    def __init__(self) -> None:
        self.key: Hashable | None = None
        self.count = 0
        self._started = False

    def new(self, events: Sequence, key: Hashable | None = None, quiet_first: bool = False) -> list:
        fresh_key = not self._started or key != self.key
        if fresh_key or len(events) < self.count:
            self.key, self.count, self._started = key, 0, True
            if fresh_key and quiet_first:
                self.count = len(events)
        new = list(events[self.count:])
        self.count = len(events)
        return new

_ESM = """
const MAX_CHARS = __MAX__;
const WATCHED = ".cartas-right, .cartas-wrong, .cartas-error, .cartas-info, .cartas-ok";
const QUIET = "[data-announced], .cartas-announce";
function render({ model, el }) {
  const region = document.createElement("div");
  region.className = "cartas-announce cartas-sr-only";
  region.setAttribute("role", "status");
  region.setAttribute("aria-live", "polite");
  region.setAttribute("aria-atomic", "true");
  el.appendChild(region);
  const say = (text) => {
    text = (text || "").trim().slice(0, MAX_CHARS);
    if (!text) return;
    region.textContent = "";
    setTimeout(() => {
      region.textContent = "";
      for (const line of text.split("\\n")) {  // a line per event
        const div = document.createElement("div");
        div.textContent = line;
        region.appendChild(div);
      }
    }, 30);
  };
  model.on("change:said", () => say((model.get("said") || {}).text));
  // verdicts, refusals and messages drawn anywhere in this view
  let view = null;
  const seen = new WeakSet();
  const scan = (root) => {
    if (!(root instanceof Element)) return;
    const found = root.matches(WATCHED) ? [root] : Array.from(root.querySelectorAll(WATCHED));
    for (const e of found) {
      if (seen.has(e) || e.closest(QUIET)) continue;
      seen.add(e);
      say(e.textContent);
    }
  };
  const observer = new MutationObserver((records) => {
    for (const r of records) r.addedNodes.forEach(scan);
  });
  const attach = () => {
    view = el.closest(".cartas-view");
    if (!view) { setTimeout(attach, 50); return; }
    view.querySelectorAll(WATCHED).forEach((e) => seen.add(e));
    observer.observe(view, { childList: true, subtree: true });
    region.dataset.watching = "view";  // from now on, what the view draws is said
  };
  attach();
  return () => observer.disconnect();
}
export default { render };
""".replace("__MAX__", str(MAX_CHARS))


class Announcer(TinyWidget):
    """The view's live region. `say(text)` makes a screen reader read `text`; `text` keeps the
    last sentence said (tests read it)."""

    _esm = module(_ESM)
    said = traitlets.Dict().tag(sync=True)  # {"text": str, "count": n}: the count makes a repeat a change

    @property
    def text(self) -> str:
        return str(self.said.get("text", ""))

    def __init__(self, **kwargs):
        kwargs.setdefault("_dom_classes", ("cartas-announcer", "cartas-sr-only"))
        super().__init__(**kwargs)

    @property
    def lines(self) -> list[str]:
        """The last announcement's lines (one per event)."""
        return [line for line in self.text.split("\n") if line]

    def say(self, text: str) -> None:
        """Say `text`; its lines stay lines (one per event), each with its spaces made one."""
        lines = [" ".join(line.split()) for line in str(text).split("\n")]
        text = "\n".join(line for line in lines if line)[:MAX_CHARS]
        if text:
            self.said = {"text": text, "count": int(self.said.get("count", 0)) + 1}
