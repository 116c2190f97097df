"""The page's language: one switch per dashboard that the prose, the headings and the views follow.

A lesson's markdown is written twice, in blocks Voilà keeps as they are:

    <div class="lang-pt" lang="pt">        <div class="lang-en" lang="en">
    ...Portuguese markdown...              ...English markdown...
    </div>                                 </div>

The first code cell of every dashboard is `page_language()`. It displays

1. a tiny style-and-script block that runs as soon as the page is parsed (before any widget is
   drawn), decides the language and hides the other language's blocks, so the page never
   flashes the wrong language; and
2. `PageLanguage`, a small anywidget with the "Português | English" switch at the top of the
   page, which keeps the browser, the kernel and the views in step.

Decided rules:

- The language is `?lang=pt|en` when the URL has it, else the learner's last choice on this
  site (localStorage key `cartas-lang`, shared by every dashboard), else Portuguese.
- A choice is remembered: from the URL, from the page switch, or from any view's own switch.
- `<html data-cartas-lang="pt|en" lang="pt-BR|en">` carries the language; CSS shows only the
  `.lang-pt` or the `.lang-en` blocks. The browser tab's title follows the visible first heading.

For the kernel, `language` (a module-level `PageLanguageState`) holds the page's language in
its `lang` trait. Views follow it:

- Every `widgets.components.base.View` created without an explicit `lang` on a page that showed
  `page_language()` follows the page by itself (its switch and the page's move together);
  `follow(view)` does the same for any object with a `language` ToggleButtons and is
  harmless on a view that already follows.
- The page keeps only a weak reference to a view: a view nobody shows any more is not kept
  alive by the page.
- or observe it directly: `language.observe(callback, names="lang")`, and set
  `language.lang = "en"` to switch the whole page from Python.
"""
from __future__ import annotations

import weakref

import traitlets
from IPython.display import HTML, display

from widgets.components.i18n import LANGUAGES
from widgets.components.params import initial_language
from widgets.components.tiny import TinyWidget, module

STORAGE_KEY = "cartas-lang"

# Runs while the page is parsed: the same decision the widget makes, without waiting for it.
BOOTSTRAP = """<style>
html:not([data-cartas-lang="en"]) .lang-en { display: none !important; }
html[data-cartas-lang="en"] .lang-pt { display: none !important; }
</style>
<script>
(function () {
  var lang = (new URLSearchParams(window.location.search).get("lang") || "").slice(0, 2).toLowerCase();
  var fromUrl = lang === "pt" || lang === "en";
  if (!fromUrl) { try { lang = window.localStorage.getItem("%(key)s"); } catch (e) { lang = null; } }
  if (lang !== "en") { lang = "pt"; }
  document.documentElement.dataset.cartasLang = lang;
  document.documentElement.lang = lang === "en" ? "en" : "pt-BR";
  if (fromUrl) { try { window.localStorage.setItem("%(key)s", lang); } catch (e) {} }
})();
</script>""".replace("%(key)s", STORAGE_KEY)

_ESM = """
const KEY = "%(key)s";
function chosen() {
  const url = (new URLSearchParams(window.location.search).get("lang") || "").slice(0, 2).toLowerCase();
  if (url === "pt" || url === "en") return url;
  try { return window.localStorage.getItem(KEY) === "en" ? "en" : "pt"; } catch (e) { return "pt"; }
}
function apply(lang) {
  const root = document.documentElement;
  root.dataset.cartasLang = lang;
  root.lang = lang === "en" ? "en" : "pt-BR";
  try { window.localStorage.setItem(KEY, lang); } catch (e) {}
  const heading = Array.from(document.querySelectorAll(".lang-" + lang + " h1"))[0];
  if (heading) document.title = heading.textContent.replace(/\\u00b6/g, "").trim();
}
function render({ model, el }) {
  el.classList.add("cartas-page-language");
  const names = { pt: "Português", en: "English" };
  const buttons = {};
  for (const lang of ["pt", "en"]) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = names[lang];
    button.lang = lang === "en" ? "en" : "pt-BR";
    button.dataset.lang = lang;
    button.addEventListener("click", () => { model.set("lang", lang); model.save_changes(); });
    buttons[lang] = button;
    el.appendChild(button);
  }
  const draw = () => {
    const lang = model.get("lang");
    for (const [key, button] of Object.entries(buttons)) {
      button.setAttribute("aria-pressed", key === lang ? "true" : "false");
    }
    apply(lang);
  };
  model.on("change:lang", draw);
  const start = chosen();
  if (start !== model.get("lang")) { model.set("lang", start); model.save_changes(); }
  draw();
}
export default { render };
""".replace("%(key)s", STORAGE_KEY)

_CSS = """
.cartas-page-language { display: flex; justify-content: flex-end; gap: 0; }
.cartas-page-language button {
  font: inherit; font-size: 14px; padding: 4px 12px; cursor: pointer;
  border: 1px solid #9e9e9e; background: #fafafa; color: #212121;
}
.cartas-page-language button:first-child { border-radius: 4px 0 0 4px; }
.cartas-page-language button:last-child { border-radius: 0 4px 4px 0; border-left: none; }
.cartas-page-language button[aria-pressed="true"] { background: #1565c0; color: white; border-color: #1565c0; }
"""


class PageLanguageState(traitlets.HasTraits):
    """The page's language in the kernel: `lang` is "pt" or "en" (anything else is refused)."""

    lang = traitlets.Unicode("pt")

    @traitlets.validate("lang")
    def _known(self, proposal):
        if proposal["value"] not in LANGUAGES:
            raise traitlets.TraitError(
                f"the page language is one of {', '.join(LANGUAGES)}, not {proposal['value']!r}")
        return proposal["value"]


language = PageLanguageState()


class PageLanguage(TinyWidget):
    """The page switch: its `lang` is linked both ways to `language.lang`."""

    _esm = module(_ESM)
    _css = module(_CSS)
    lang = traitlets.Unicode("pt").tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(lang=language.lang, **kwargs)
        self._link = traitlets.link((language, "lang"), (self, "lang"))

    @traitlets.validate("lang")
    def _known(self, proposal):
        return proposal["value"] if proposal["value"] in LANGUAGES else language.lang


_switch: PageLanguage | None = None


def page_language() -> None:
    """Display the page's language bootstrap and switch (the first code cell of a dashboard).

    One switch per kernel: calling it again displays the same widget.
    """
    global _switch
    from widgets.components.later import hold_messages_for_browser
    hold_messages_for_browser()  # under Voilà: nothing is listening before the browser comes
    language.lang = initial_language()
    if _switch is None:
        _switch = PageLanguage()
    display(HTML(BOOTSTRAP), _switch)


def active() -> bool:
    """True once this kernel's page showed its language switch (`page_language()`)."""
    return _switch is not None


def current() -> str:
    """The language a new view starts in: the page's, else the URL's `?lang=` (default pt)."""
    return language.lang if active() else initial_language()


def reset() -> None:
    """Forget the page switch (tests: a fresh page)."""
    global _switch
    _switch = None
    language.lang = "pt"


class _Follower:
    """Keeps one view's switch and the page's language in step, holding the view weakly."""

    def __init__(self, view):
        self.switch = weakref.ref(view.language)
        view.language.observe(self.to_page, names="value")
        language.observe(self.to_view, names="lang")

    def to_view(self, change) -> None:
        switch = self.switch()
        if switch is None:
            language.unobserve(self.to_view, names="lang")
        elif switch.value != change["new"]:
            switch.value = change["new"]

    def to_page(self, change) -> None:
        if change["new"] in LANGUAGES and language.lang != change["new"]:
            language.lang = change["new"]


def follow(view):
    """Make `view` follow the page's language and switch the page when its own switch moves.

    `view.language` is the view's ToggleButtons ("pt"/"en"). Returns `view`.
    """
    if getattr(view, "_cartas_follows_page", False):
        return view
    switch = view.language
    if switch.value != language.lang:
        switch.value = language.lang
    view._cartas_follows_page = _Follower(view)
    return view
