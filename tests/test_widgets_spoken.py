"""What a screen reader is given: cards named in words in the page's language, and one live
region per view that says moves, verdicts and refusals (widgets.components.announce)."""
from __future__ import annotations

import re

import pytest

from cartas.cards import STANDARD_PACK, Card, face_down_name
from widgets.components import page
from widgets.components.announce import MAX_LINES, News, bounded, in_words
from widgets.draw.svg import card_svg
from widgets.draw.truco_table import table_html


def _names(html: str) -> list[str]:
    return re.findall(r'aria-label="([^"]*)"', html)


def test_cards_are_named_in_words_in_portuguese_and_english_and_parse_back():
    seven = Card.parse("7♥")
    assert (seven.spoken("pt"), seven.spoken("en")) == ("sete de copas", "seven of hearts")
    assert Card.parse("A♠").spoken("en") == "ace of spades"
    assert (face_down_name("pt"), face_down_name("en")) == ("carta virada para baixo", "face-down card")
    assert all(Card.parse(c.spoken(lang)) == c for c in STANDARD_PACK for lang in ("pt", "en"))


def test_a_card_picture_is_named_in_words_in_the_language_asked_or_the_pages():
    seven = Card.parse("7♥")
    assert _names(card_svg(seven, lang="en")) == ["seven of hearts"]
    assert _names(card_svg(seven, face_up=False, lang="en")) == ["face-down card"]
    assert "<title>sete de copas</title>" in card_svg(seven, lang="pt")
    page.reset()
    assert _names(card_svg(None)) == ["carta virada para baixo"]  # no page switch: the URL's, default pt


def test_the_truco_table_names_every_card_in_the_tables_language():
    from cartas.truco import new_game

    state = new_game("paulista", 3)
    html = table_html(state.view(0), lang="en")
    names = _names(html)
    assert "face-down card" in names
    assert any(n.endswith((" of hearts", " of clubs", " of spades", " of diamonds")) for n in names)
    assert not any(re.search(r"[♥♣♠♦]|coberta", n) for n in names)


def test_a_views_live_region_says_a_move_and_a_repeat_is_said_again():
    from widgets.pages.jogar_truco import PlayTruco

    view = PlayTruco(seed=1, delay=0, lang="en")
    view.new_game()
    assert view.announcer is not None and view.announcer in view.children[0].children
    first = dict(view.announcer.said)
    assert first["text"]  # the deal and the bots' first moves, in English
    view.announce("Seat 1 plays 7♥.")
    view.announce("Seat 1 plays 7♥.")  # the card in words, in the view's language
    assert view.announcer.said == {"text": "Seat 1 plays seven of hearts.", "count": first["count"] + 2}


def test_playing_a_card_announces_it_in_the_views_language():
    from widgets.pages.jogar_truco import PlayTruco

    view = PlayTruco(seed=4, delay=0, lang="pt")
    view.new_game()
    while view.acting_seat() != 0 or not any(c["enabled"] for c in view.hand_cards.cards):
        view.new_game()
    index = next(i for i, c in enumerate(view.hand_cards.cards) if c["enabled"])
    said: list[str] = []
    view.announcer.observe(lambda change: said.append(change["new"]["text"]), names="said")
    card = view.state.view(0).hand[index].spoken("pt")
    view.hand_cards.pick(index)
    assert any(f"Assento 0 joga {card}" in text for text in said), said  # the learner's own move, in words
    assert any(re.search(r"Assento [123] joga", text) for text in said), said  # and the bots' after it
    lines = said[-1].split("\n")  # a line per event, at most MAX_LINES of them
    assert 1 < len(lines) <= MAX_LINES and all(line.count(" joga ") <= 1 for line in lines), lines


def test_the_21_odds_chart_has_a_text_alternative_with_every_bar_in_the_pages_language():
    from widgets.draw.vinte_e_um_chart import banker_chart_svg

    distribution = {17: 0.145, 18: 0.14, 19: 0.135, 20: 0.18, 21: 0.12, "bust": 0.28}
    name = _names(banker_chart_svg(distribution, "pt", mine=19))[0]
    assert name.startswith("Total final da banca") and "17: 14" in name and "estoura: 28%" in name
    assert "bust: 28%" in _names(banker_chart_svg(distribution, "en"))[0]


def test_a_21_move_is_announced_in_the_views_language():
    from widgets.pages.jogar_21 import PlayVinteEUm

    view = PlayVinteEUm(seed=2, delay=0, lang="en")
    view.new_game()
    said: list[str] = []
    view.announcer.observe(lambda change: said.append(change["new"]["text"]), names="said")
    before = len(view.state.view(0).events)
    legal = view.legal()
    assert legal, "the learner has a move at the start"
    view.act(legal[0])
    events = view.state.view(0).events
    assert len(events) > before
    mine = in_words(view.state.narrate(events[before], "en"), "en")  # her own move, in English words
    assert any(mine in text for text in said), (mine, said)


def test_a_sentence_names_its_cards_in_words_in_the_language_asked():
    said = in_words("Assento 1 joga 7♥, a manilha de copas.", "pt")
    assert said == "Assento 1 joga sete de copas, a manilha de copas."
    assert in_words("Seat 2 plays 10♦ and Q♣.", "en") == "Seat 2 plays ten of diamonds and queen of clubs."
    assert in_words("Pontos: 21 x 17 (A10♥ is no card)", "pt") == "Pontos: 21 x 17 (A10♥ is no card)"


def test_only_the_news_is_said_at_most_a_few_lines_the_first_and_the_latest():
    news = News()
    assert news.new(["deal", "a"], key="hand 1", quiet_first=True) == []  # a page opened: its past is not news
    assert news.new(["deal", "a", "b"], key="hand 1") == ["b"]
    assert news.new(["deal", "a", "b"], key="hand 1") == []  # a redraw, a poll: nothing new
    assert news.new(["deal"], key="hand 1") == ["deal"]  # a shorter list: a new game
    assert news.new(["x", "y"], key="hand 2") == ["x", "y"]  # another list
    assert bounded(["mine", "b1", "b2", "b3", "b4", "b5"], 4) == ["mine", "b3", "b4", "b5"]
    assert bounded(["mine", "b1"], 4) == ["mine", "b1"]


def test_an_announcement_is_a_line_per_event():
    from widgets.pages.jogar_truco import PlayTruco

    view = PlayTruco(seed=1, delay=0, lang="en")
    lines = ["Seat 1 plays 7♥.", "Seat 2   plays A♠.", "Seat 3 plays 4♣.", "Seat 0 plays 5♦.",
             "Seat 1 wins the trick.", "Seat 1 plays 6♠.", "Seat 2 runs.", "Seat 3 plays K♥."]
    view.announce(lines[:6])  # a whole trick and the next lead: a line each, cards in words
    assert view.announcer.lines == ["Seat 1 plays seven of hearts.", "Seat 2 plays ace of spades.",
                                    "Seat 3 plays four of clubs.", "Seat 0 plays five of diamonds.",
                                    "Seat 1 wins the trick.", "Seat 1 plays six of spades."]
    view.announce(lines)  # more than MAX_LINES: the first, then the latest
    assert len(view.announcer.lines) == MAX_LINES
    assert view.announcer.lines[0] == "Seat 1 plays seven of hearts."
    assert view.announcer.lines[-2:] == ["Seat 2 runs.", "Seat 3 plays king of hearts."]


def heard(view) -> list[str]:
    """Every announcement of `view`'s live region from now on (a list that grows)."""
    said: list[str] = []
    view.announcer.observe(lambda change: said.append(change["new"]["text"]), names="said")
    return said


SUIT_WORDS = {"pt": r"(copas|espadas|ouros|paus)", "en": r"(hearts|spades|diamonds|clubs)"}


@pytest.mark.parametrize("lang, plays, of", [("pt", "joga", "de"), ("en", "plays", "of")])
def test_each_step_of_the_hand_stepper_is_announced_with_its_cards_in_words(lang, plays, of):
    from widgets.pages.truco_mao import DealStepper

    view = DealStepper(seed=3, lang=lang)
    said = heard(view)
    while not re.search(rf" {plays} ", view.steps[view.index]["text"][lang]):
        view.forward_button.click()
    assert re.search(rf" {plays} \w+ {of} {SUIT_WORDS[lang]}", said[-1]), said[-1]
    assert not re.search("[♥♣♠♦]", said[-1])
    count = len(said)
    view.language.value = "en" if lang == "pt" else "pt"  # a redraw in the other language says nothing
    assert len(said) == count


def test_a_bet_and_its_answer_are_announced_once_each():
    from widgets.pages.truco_apostas import BettingLab

    view = BettingLab(seed=3, lang="en")
    said = heard(view)
    view.raise_button.click()
    assert len(said) == 1 and "truco" in said[0].lower(), said
    view.redraw()
    assert len(said) == 1  # a redraw: nothing new, nothing said
    view.accept_button.click()
    assert len(said) == 2 and "accept" in said[1].lower() and "\n" not in said[1], said


def test_a_card_played_in_the_mao_de_ferro_is_announced_in_words():
    from widgets.pages.truco_mao_de_onze import ThresholdLab

    view = ThresholdLab(seed=4, lang="pt")
    said = heard(view)
    button = next(b for b in view.blind_buttons if not b.disabled)
    button.click()
    assert said and re.search(rf" joga .*: \w+ de {SUIT_WORDS['pt']}\.", said[0]), said


@pytest.mark.parametrize("lang, no, answer", [("pt", "Não.", "A resposta é"), ("en", "No.", "The answer is")])
def test_an_exercise_verdict_is_announced_with_the_right_answer_and_only_once(lang, no, answer):
    from widgets.pages.truco_mao import DealStepper

    view = DealStepper(seed=3, lang=lang)
    block = view.exercises
    question = block.new_question()
    said = heard(view)
    wrong = next(value for value, _ in question.options if value != question.answer)
    block.answer(wrong)
    assert len(said) == 1 and said[0].startswith(no) and answer in said[0], said
    assert "<" not in said[0] and not re.search("[♥♣♠♦]", said[0])  # text, cards in words
    assert "data-announced" in block.feedback.value  # the region does not say it a second time
    block.answer(question.answer)  # a second answer changes nothing, and says nothing
    view.language.value = "en" if lang == "pt" else "pt"
    assert len(said) == 1


def test_a_trick_set_by_the_learner_is_announced_with_its_winner():
    from widgets.pages.truco_rodadas import TrickLab

    view = TrickLab(seed=1, lang="en")
    said = heard(view)
    view.cards[0].value = "4♣"  # the learner changes a card: the trick's verdict is said, cards in words
    assert len(said) == 1 and said[0].startswith("Winner: Team") and " of clubs" in said[0], said
    view.cards[1].value = "xyz"  # a refused card: its refusal is said by the region, not a verdict
    assert len(said) == 1


def test_the_variant_comparison_announces_each_variants_winner():
    from widgets.pages.truco_mineiro import VariantComparison

    view = VariantComparison(seed=1, lang="pt")
    said = heard(view)
    view.cards[0].value = "7♥"
    lines = said[0].split("\n") if said else []
    assert len(said) == 1, said
    assert lines[0].startswith("Truco Paulista: Vence") and lines[1].startswith("Truco Mineiro: Vence"), said


def test_each_step_of_a_21_round_is_announced_in_words():
    from widgets.pages.vinte_e_um_rodada import RoundStepper

    view = RoundStepper(seed=1, lang="en", chart=False)
    said = heard(view)
    for _ in range(6):
        view.buttons["forward"].click()
    assert len(said) == 6 and not any(re.search("[♥♣♠♦]", text) for text in said), said
    assert any(re.search(SUIT_WORDS["en"], text) for text in said), said
