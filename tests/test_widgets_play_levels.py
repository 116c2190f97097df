"""The bots' level on the play pages (issue 31, item 4): a chooser labelled in both languages,
its levels the engine's, "Médio" by default; the chosen level makes that level's bots from the
next game on, and the table names each bot with its level."""
from __future__ import annotations

import pytest

from cartas.games import LEVELS
from cartas.truco import EasyBot, RuleBot, StrongBot
from cartas.vinte_e_um import EasyBot as EasyBot21, SensibleBot, StrongBot as StrongBot21
from widgets.pages.jogar_21 import PlayVinteEUm
from widgets.pages.jogar_truco import PlayTruco

TRUCO_BOTS = {"easy": EasyBot, "rule": RuleBot, "strong": StrongBot}
BOTS_21 = {"easy": EasyBot21, "rule": SensibleBot, "strong": StrongBot21}
LABELS = {"pt": ("Nível dos robôs", ["Fácil", "Médio", "Forte"]),
          "en": ("Bots' level", ["Easy", "Medium", "Strong"])}
PAGES = [(PlayTruco, TRUCO_BOTS), (PlayVinteEUm, BOTS_21)]


def opened(page, lang: str, **kwargs):
    view = page(seed=4, delay=0, lang=lang, **kwargs)
    view.new_game()  # what the page does right after it is painted
    return view


@pytest.mark.parametrize("lang", ["pt", "en"])
@pytest.mark.parametrize("page, classes", PAGES)
def test_the_chooser_is_labelled_offers_the_engines_levels_and_starts_at_medium(page, classes, lang):
    view = opened(page, lang)
    label, names = LABELS[lang]
    assert view.level.description == label and "cartas-level" in view.level._dom_classes
    assert list(view.level.options) == list(zip(names, LEVELS)) and view.level.value == "rule"
    assert view.bots and all(type(bot) is classes["rule"] for bot in view.bots.values())


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("page, classes", PAGES)
def test_the_chosen_level_makes_that_levels_bots_from_the_next_game(page, classes, level):
    view = opened(page, "pt")
    view.level.value = level
    if level != "rule":  # the game under way goes on with its bots, and the page says so
        assert all(type(bot) is classes["rule"] for bot in view.bots.values())
        assert "próximo jogo" in view.level_note.value
    view.again.click()
    assert all(type(bot) is classes[level] for bot in view.bots.values())
    assert view.level_note.value == "" and view.last_error is None
    assert view.state is not None and not view.message.value


@pytest.mark.parametrize("page, classes", PAGES)
def test_a_level_given_to_the_view_makes_its_bots(page, classes):
    view = opened(page, "en", level="strong")
    assert all(type(bot) is classes["strong"] for bot in view.bots.values())


@pytest.mark.parametrize("lang, strong, medium, note", [
    ("pt", "Assento 1 (robô, Forte)", "Assento 1 (robô, Médio)", "Os robôs passam a Fácil no próximo jogo"),
    ("en", "Seat 1 (bot, Strong)", "Seat 1 (bot, Medium)", "The bots become Easy from the next game")])
@pytest.mark.parametrize("page", [PlayTruco, PlayVinteEUm])
def test_the_table_names_each_bot_with_its_level(page, lang, strong, medium, note):
    view = opened(page, lang, level="strong")
    assert strong in view.table.value and "Assento 0 (" not in view.table.value
    assert "Seat 0 (" not in view.table.value
    view.level.value = "easy"
    assert strong in view.table.value  # the bots in play keep their level until the next game
    assert note in view.level_note.value
    view.level.value = "rule"
    view.new_game()
    assert medium in view.table.value and view.level_note.value == ""


def test_the_note_and_the_names_follow_the_language_switch():
    view = opened(PlayTruco, "pt")
    view.level.value = "strong"
    view.lang = "en"
    view.redraw()
    assert view.level.description == "Bots' level" and view.level.value == "strong"
    assert "The bots become Strong from the next game" in view.level_note.value
    assert "Seat 1 (bot, Medium)" in view.table.value


# ?nivel= in the page's URL (widgets.components.params.level) ---------------------------------
@pytest.mark.parametrize("text, level", [("forte", "strong"), ("FÁCIL", "easy"), ("facil", "easy"),
                                         ("Médio", "rule"), ("MEDIO", "rule"), ("strong", "strong"),
                                         ("Easy", "easy"), ("medium", "rule"), ("rule", "rule")])
@pytest.mark.parametrize("page, classes", PAGES)
def test_nivel_in_the_url_chooses_the_bots_level(page, classes, text, level, monkeypatch):
    from urllib.parse import urlencode
    monkeypatch.setenv("QUERY_STRING", urlencode({"nivel": text}))
    view = opened(page, "pt")
    assert view.level.value == level and view._url_problems == []
    assert all(type(bot) is classes[level] for bot in view.bots.values())


HOSTILE_LEVELS = {
    "too_long": ("x" * 5000, "5000 characters, more than the 16 accepted"),
    "unknown": ("expert", "?nivel=expert, which is not a bots&#x27; level"),
    "look_alike": ("ｆｏｒｔｅ", "which is not a bots&#x27; level"),
    "control": ("forte\x07", "?nivel=forte?, which is not a bots&#x27; level"),
    "doubled_word": ("forteforte", "?nivel=forteforte, which is not a bots&#x27; level"),
    "html_long": ('<img src=x onerror="alert(1)">', "30 characters, more than the 16 accepted"),
    "html": ("<img src=x>", "?nivel=&lt;img src=x&gt;, which is not a bots&#x27; level"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_LEVELS))
@pytest.mark.parametrize("page, classes", PAGES)
def test_a_hostile_nivel_is_refused_in_both_languages_and_the_default_level_plays(page, classes, name,
                                                                                   monkeypatch):
    from urllib.parse import urlencode
    text, english = HOSTILE_LEVELS[name]
    monkeypatch.setenv("QUERY_STRING", urlencode({"nivel": text}))
    view = opened(page, "en")
    assert view.level.value == "rule" and view.last_error is None
    assert all(type(bot) is classes["rule"] for bot in view.bots.values())
    assert english in view.title.value and "the bots play at the usual level (Medium)" in view.title.value
    assert "<img" not in view.title.value  # shown back escaped
    view.lang = "pt"
    view.redraw()
    assert "os robôs jogam no nível de sempre (Médio)" in view.title.value


@pytest.mark.parametrize("page, classes", PAGES)
def test_nivel_given_twice_is_refused_and_the_default_level_plays(page, classes, monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "nivel=facil&nivel=forte")
    view = opened(page, "pt")
    assert view.level.value == "rule"
    assert all(type(bot) is classes["rule"] for bot in view.bots.values())
    assert "?nivel= 2 vezes, e só se aceita uma" in view.title.value
