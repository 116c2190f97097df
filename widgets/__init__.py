"""ipywidgets views of the Cartas lessons. They draw; the `cartas` engine decides every rule.

Views are imported lazily, so a dashboard loads only the lesson it shows.
"""
import importlib

_VIEWS = {
    "CourseIndex": "course",
    "ManilhaExplorer": "manilhas",
    "HandScorer": "vinte_e_um_pontos",
    "RoundStepper": "vinte_e_um_rodada",
    "BankRotation": "vinte_e_um_banca",
    "vinte_e_um_table_html": "vinte_e_um_table",
    "DealStepper": "truco_mao",
    "TrickLab": "truco_rodadas",
    "BettingLab": "truco_apostas",
    "ThresholdLab": "truco_onze",
    "VariantComparison": "truco_mineiro",
    "table_html": "truco_table",
    "PlayTruco": "play_truco",
    "PlayVinteEUm": "play_vinte_e_um",
    "ScenarioBuilder": "scenario_builder",
    "TrucoOddsExplorer": "truco_odds",
    "card_svg": "svg",
    "cards_row": "svg",
}

__all__ = sorted(_VIEWS)


def __getattr__(name):
    if name in _VIEWS:
        return getattr(importlib.import_module(f".{_VIEWS[name]}", __name__), name)
    raise AttributeError(f"module 'widgets' has no attribute {name!r}")
