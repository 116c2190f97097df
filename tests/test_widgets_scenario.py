"""The scenario builder: make, share, open, refuse, step and play."""
from cartas.scenario import decode_link, encode_link, truco_scenario
from widgets.scenario_builder import ScenarioBuilder

HANDS = [["7♥", "A♠", "3♦"], ["4♣", "5♣", "6♣"], ["K♥", "J♥", "Q♥"], ["2♠", "3♠", "4♠"]]


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
    link = view.output.value.split("cenario=")[1].split("'")[0].split("<")[0]
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
    assert "Cenário recusado" in view.message.value and "4♣ foi distribuída duas vezes" in view.message.value
    link = encode_link(good)
    view.paste.value = link[:-2] + ("00" if link[-2:] != "00" else "11")
    view.load_button.click()
    assert "alterado" in view.message.value
    view.paste.value = '{"format": "cartas.cenario/1", "game": "truco", "variant": "paulista"'
    view.load_button.click()
    assert "não pôde ser lido" in view.message.value
    assert view.scenario == good and view.table.value == table


def test_stepping_and_playing_from_a_scenario():
    view = ScenarioBuilder(seed=1, query=False, delay=0)
    fill(view)
    view.make_button.click()
    view.step_button.click()
    assert "cartas-step-line" in view.narration.value and len(view.state.events) > 1
    view.play_button.click()
    game = view.game_box.children[0]
    assert [str(c) for c in game.state.hand_of(0)] == HANDS[0]  # seat 0 leads: hand intact


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
    assert "5♥ aparece duas vezes" in view.message.value


def test_the_builder_offers_tie_lead_and_keeps_it_through_the_link():
    view = ScenarioBuilder(seed=1, query=False)
    fill(view)
    view.tie_lead.value = "first_tying"
    view.make_button.click()
    link = view.output.value.split("cenario=")[1].split("'")[0].split("<")[0]
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
    assert "Scenario refused" in view.message.value
    assert "cannot also be in a hand" in view.message.value
