"""The scenario builder: make, share, open, refuse, step and play."""
import re

import pytest
import segno

from cartas.scenario import decode_link, encode_link, truco_scenario, vinte_e_um_scenario
from widgets.components.share import full_link, qr_svg
from widgets.pages.cenarios import ScenarioBuilder

PAGE = "http://127.0.0.1:8866/voila/render/notebooks/cenarios.ipynb?lang=en"

HANDS = [["7♥", "A♠", "3♦"], ["4♣", "5♣", "6♣"], ["K♥", "J♥", "Q♥"], ["2♠", "3♠", "4♠"]]


def beside(view, control) -> str:
    """What the error slot beside `control` shows (`View.beside`); the message line stays empty."""
    slot = view._slot_for(control)
    assert slot is not None, "no error slot beside this control"
    assert "cartas-error" not in view.message.value, view.message.value
    return slot.value


def fill(view, hands=HANDS, vira="K♠"):
    for field, hand in zip(view.hands, hands):
        field.value = " ".join(hand)
    view.vira.value = vira


def test_making_a_truco_scenario_gives_a_link_that_opens_it():
    view = ScenarioBuilder(seed=1, query=False)
    fill(view)
    view.dealer.value = 3
    view.score[0].value = 11
    view.make_button.click()
    assert "cartas-ok" in view.message.value
    link = view.share.path.split("cenario=")[1]
    scenario = decode_link(link)
    assert scenario["hands"] == HANDS and scenario["score"] == [11, 0]
    assert 'data-card="7♥"' in view.table.value  # the teacher sees the table
    other = ScenarioBuilder(seed=2, query=False)
    other.paste.value = f"http://host/voila/render/cenarios.ipynb?cenario={link}&lang=pt"
    other.load_button.click()
    assert other.scenario == scenario and other.state.phase == "decide"
    assert other.hands[0].value == "7♥ A♠ 3♦"


def test_the_query_parameter_opens_the_scenario(monkeypatch):
    scenario = truco_scenario("mineiro", HANDS, None, 1, (3, 4))
    monkeypatch.setenv("QUERY_STRING", f"cenario={encode_link(scenario)}")
    view = ScenarioBuilder(seed=1)
    assert view.scenario == scenario and view.variant.value == "mineiro"
    assert "Cenário aberto" in view.message.value


def test_bad_scenarios_are_refused_and_nothing_changes():
    view = ScenarioBuilder(seed=1, query=False)
    fill(view)
    view.make_button.click()
    good = view.scenario
    table = view.table.value
    fill(view, [["7♥", "A♠", "4♣"]] + HANDS[1:])
    view.make_button.click()
    refused = beside(view, view.make_button)
    assert "Cenário recusado" in refused and "4♣ foi distribuída duas vezes" in refused
    link = encode_link(good)
    view.paste.value = link[:-2] + ("00" if link[-2:] != "00" else "11")
    view.load_button.click()
    assert "alterado" in beside(view, view.load_button)
    view.paste.value = '{"format": "cartas.cenario/1", "game": "truco", "variant": "paulista"'
    view.load_button.click()
    assert "não pôde ser lido" in beside(view, view.load_button)
    assert view.scenario == good and view.table.value == table


def test_playing_from_here_starts_from_the_step_on_screen_not_from_the_deal():
    view = ScenarioBuilder(seed=1, query=False, delay=0)
    fill(view)
    view.dealer.value = 3  # seat 0 leads
    view.make_button.click()
    view.step_button.click()  # seat 0's bot plays a card
    assert "cartas-step-line" in view.narration.value
    shown = view.state
    played = [e for e in shown.events if e["type"] == "play"]
    assert len(played) == 1 and played[0]["seat"] == 0 and len(shown.hand_of(0)) == 2
    view.play_button.click()
    game = view.game_box.children[0]
    assert game.state is not shown
    assert game.state.events[:len(shown.events)] == shown.events  # it goes on from the step
    first_trick = game.state.events[1:5]
    assert first_trick[0] == played[0]  # seat 0's card is the one the step played, not a new choice
    assert [e["seat"] for e in first_trick if e["type"] == "play"][:1] == [0]
    before, steps = list(game.state.events), len(view.state.events)
    view.step_button.click()  # the builder's steps no longer move the game
    assert len(view.state.events) > steps and game.state.events == before


def test_playing_a_21_table_from_here_goes_on_from_the_shown_round():
    view = ScenarioBuilder(seed=1, query=False, delay=0)
    view.game.value = "21"
    view.make_button.click()
    for _ in range(3):
        view.step_button.click()
    shown = list(view.state.events)
    view.play_button.click()
    game = view.game_box.children[0]
    assert game.state.events[:len(shown)] == shown


def test_a_21_table_scenario():
    view = ScenarioBuilder(seed=1, query=False, delay=0)
    view.game.value = "21"
    view.first.value = "5♥, K♣, 2♦, A♠"
    view.upcard.value = "9♣"
    view.make_button.click()
    assert view.scenario["deal"]["first_cards"] == ["5♥", "K♣", "2♦", "A♠"], view.message.value
    view.play_button.click()
    assert view.game_box.children[0].state.players == 4
    view.first.value = "5♥, 5♥, 2♦, A♠"
    view.make_button.click()
    assert "5♥ aparece duas vezes" in beside(view, view.make_button)


def test_the_builder_offers_tie_lead_and_keeps_it_through_the_link():
    view = ScenarioBuilder(seed=1, query=False)
    fill(view)
    view.tie_lead.value = "first_tying"
    view.make_button.click()
    link = view.share.path.split("cenario=")[1]
    assert decode_link(link)["tie_lead"] == "first_tying"
    assert view.state.tie_lead == "first_tying"
    other = ScenarioBuilder(seed=2, query=False)
    other.paste.value = link
    other.load_button.click()
    assert other.tie_lead.value == "first_tying"


def test_an_engine_refusal_is_shown_in_the_views_language():
    view = ScenarioBuilder(seed=1, query=False, lang="en")
    fill(view, vira="7♥")
    view.make_button.click()
    assert "Scenario refused" in beside(view, view.make_button)
    assert "cannot also be in a hand" in beside(view, view.make_button)


def made(view):
    fill(view)
    view.make_button.click()
    assert view.scenario is not None, view.message.value
    return view


def test_the_link_is_shown_whole_and_absolute_from_the_pages_address():
    view = made(ScenarioBuilder(seed=1, query=False))
    assert view.share.path.startswith("cenarios.ipynb?cenario=")
    assert view.share.url == ""  # the kernel does not know the host until the browser says
    view.share.page = PAGE  # what the browser reports
    assert view.share.url == ("http://127.0.0.1:8866/voila/render/notebooks/" + view.share.path)
    assert decode_link(view.share.url.split("cenario=")[1]) == view.scenario
    view.share.page = "javascript:alert(1)"
    assert view.share.url == "" and view.share.qr_svg == ""


def test_from_jupyterlab_the_link_points_to_the_dashboard():
    assert (full_link("https://hub.example/user/ana/lab/tree/notebooks/cenarios.ipynb", "cenarios.ipynb?cenario=x")
            == "https://hub.example/user/ana/voila/render/notebooks/cenarios.ipynb?cenario=x")
    assert full_link("http://h/voila/render/cenarios.ipynb?cenario=old&lang=en", "cenarios.ipynb?cenario=new") \
        == "http://h/voila/render/cenarios.ipynb?cenario=new"
    assert full_link("http://h/" + "a" * 3000, "x") == ""


def test_the_qr_code_encodes_the_full_link_large_and_black_on_white():
    view = made(ScenarioBuilder(seed=1, query=False))
    view.share.page = PAGE
    svg = view.share.qr_svg
    assert svg.startswith("<svg") and "cartas-qr-code" in svg and 'stroke="#000"' in svg
    assert 'width=' not in svg.split(">")[0]  # sized by CSS through its viewBox
    expected = segno.make(view.share.url, error="m", micro=False)
    assert expected.svg_inline(omitsize=True, dark="#000", light="#fff", border=4).split("<path", 1)[1] \
        == svg.split("<path", 1)[1]  # the same modules as segno's code for exactly this URL
    assert expected.version <= 10, expected.version  # a short link: a coarse code a projector shows
    assert qr_svg("x" * 5000) == ""


def test_the_share_labels_follow_the_language():
    view = made(ScenarioBuilder(seed=1, query=False, lang="pt"))
    assert view.share.labels["copy"] == "Copiar link"
    view.language.value = "en"
    assert view.share.labels["copy"] == "Copy link"


def test_a_learner_who_opens_a_link_sees_the_scenario_not_the_builder(monkeypatch):
    scenario = truco_scenario("paulista", HANDS, "K♠", 3, (2, 5), title="Aula 3")
    monkeypatch.setenv("QUERY_STRING", f"cenario={encode_link(scenario)}&lang=pt")
    view = ScenarioBuilder(seed=1)
    assert view.scenario == scenario and view.learner_view
    assert view.editor.layout.display == "none"  # fields, make button, link and JSON folded away
    assert view.edit.layout.display is None and view.edit.description == "Editar"
    assert "Aula 3" in view.title.value and 'data-card="7♥"' in view.table.value
    assert view.step_button.layout.display is None and view.play_button.layout.display is None
    view.edit.value = True  # the teacher unfolds the builder
    assert view.editor.layout.display is None and "Construtor" in view.title.value


def test_the_builder_is_open_without_a_link(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "lang=pt")
    view = ScenarioBuilder(seed=1)
    assert not view.learner_view and view.editor.layout.display is None
    assert view.edit.layout.display == "none"  # nothing to fold before a scenario exists


@pytest.mark.parametrize("typed", ["7♥ A♠ 3♦", "7♥, A♠, 3♦", "7♥,A♠,3♦", " 7♥ ,  A♠ 3♦, ",
                                   "7 de copas, ás de espadas, 3 de ouros"])
def test_cards_are_typed_with_spaces_or_commas_in_every_field(typed):
    view = ScenarioBuilder(seed=1, query=False)
    fill(view)
    view.hands[0].value = typed
    view.vira.value = "K♠,"
    view.make_button.click()
    assert view.scenario is not None, view.message.value
    assert view.scenario["hands"][0] == ["7♥", "A♠", "3♦"] and view.scenario["vira"] == "K♠"


@pytest.mark.parametrize("first,then", [("5♥ K♣ 2♦ A♠", "3♦ 4♦"), ("5♥, K♣, 2♦, A♠", "3♦, 4♦"),
                                        ("5♥,K♣ 2♦, A♠", "3♦,4♦")])
def test_a_21_deal_takes_the_same_card_format(first, then):
    view = ScenarioBuilder(seed=1, query=False)
    view.game.value = "21"
    view.first.value, view.upcard.value, view.then.value = first, "9♣", then
    view.make_button.click()
    assert view.scenario["deal"] == {"first_cards": ["5♥", "K♣", "2♦", "A♠"], "upcard": "9♣",
                                     "then": ["3♦", "4♦"]}, view.message.value


def test_option_names_are_shown_in_the_views_language():
    view = ScenarioBuilder(seed=1, query=False, lang="en")
    rotations = {v: k for k, v in view.rotation.options}
    assert rotations["rounds"] == "rotation every N rounds" and rotations["permanent"] == "permanent bank"
    aces = {v: k for k, v in view.ace.options}
    assert aces["flexible"] == "1 or 11 (flexible)"
    ties = {v: k for k, v in view.tie_lead.options}
    assert ties["leader"] == "whoever led the tied trick"
    assert {v: k for k, v in view.dealer.options}[2] == "Seat 2"
    assert [k for k, _ in view.variant.options] == ["Truco Paulista", "Truco Mineiro"]
    view.language.value = "pt"
    assert {v: k for k, v in view.rotation.options}["permanent"] == "banca fixa"
    assert {v: k for k, v in view.ace.options}["flexible"] == "1 ou 11 (flexível)"
    assert {v: k for k, v in view.tie_lead.options}["leader"] == "quem abriu a rodada empatada"


@pytest.mark.parametrize("lang,phrase", [("pt", "de 0 a 11, não (13, 0)"), ("en", "from 0 to 11, not (13, 0)")])
def test_a_score_outside_the_rules_is_refused_not_clamped(lang, phrase):
    view = made(ScenarioBuilder(seed=1, query=False, lang=lang))
    good = view.scenario
    view.score[0].value = 13
    assert view.score[0].value == 13  # the field keeps what was typed
    view.make_button.click()
    assert "cartas-error" in beside(view, view.make_button) and phrase in beside(view, view.make_button)
    assert view.scenario == good  # nothing changed


def test_a_number_of_participants_outside_the_rules_is_refused_not_clamped():
    view = ScenarioBuilder(seed=1, query=False)
    view.game.value = "21"
    view.players.value = 13
    view.make_button.click()
    assert view.players.value == 13 and "cartas-error" in beside(view, view.make_button)
    assert "3 a 12" in beside(view, view.make_button) and view.scenario is None


def test_a_21_scenario_link_round_trips_through_the_builder():
    scenario = vinte_e_um_scenario(5, 2, rotation="permanent", ace="flexible", seed=5,
                                   deal={"first_cards": ["5♥", "Q♦", "2♦", "A♠", "K♣"], "upcard": None,
                                         "then": []})
    view = ScenarioBuilder(seed=1, query=False)
    view.paste.value = encode_link(scenario)
    view.load_button.click()
    assert view.first.value == "5♥ Q♦ 2♦ A♠ K♣" and view.ace.value == "flexible"
    view.make_button.click()
    assert view.scenario == scenario, view.message.value
    view.first.value = "5♥, -, 2♦ A♠ K♣"  # "-": a seat dealt no card
    assert view.fields_scenario()["deal"]["first_cards"] == ["5♥", None, "2♦", "A♠", "K♣"]


def test_a_refusal_stays_beside_its_button_until_the_next_action_and_a_step_is_announced():
    view = ScenarioBuilder(seed=1, query=False, lang="en")
    fill(view, vira="7♥")
    view.make_button.click()
    assert "cannot also be in a hand" in beside(view, view.make_button)
    view.redraw()  # a redraw (the language switch, a step) is no action of hers: it stays
    assert "cannot also be in a hand" in beside(view, view.make_button)
    fill(view)
    view.make_button.click()  # her next action clears it
    assert beside(view, view.make_button) == "" and view.scenario is not None
    said = []
    view.announcer.observe(lambda change: said.append(change["new"]["text"]), names="said")
    view.step_button.click()  # seat 0's bot plays a card: said in words
    assert said and re.search(r"Seat 0 plays \w+ of (hearts|spades|diamonds|clubs)", said[-1]), said
