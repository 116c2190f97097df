"""Odds while deciding, for any 21 view: the engine's exact figures for the seat that must
act, from the cards that seat can see, and the banker's final-total distribution as a chart.

`odds_html(state, lang)` returns the panel's HTML; `banker_chart_svg(...)` draws the chart
with matplotlib (Agg, imported on first use so dashboards start light) as inline SVG, named
for a screen reader by its text alternative (`chart_alt`: the title and every bar's figure, in
the page's language) and never wider than its box.
"""
from __future__ import annotations

import io
import time
from html import escape

from cartas.vinte_e_um import beats
from widgets.components.i18n import number, percent, translate

TEXT = {
    "title": {"pt": "Chances de quem decide", "en": "Odds for the seat deciding"},
    "player": {"pt": "O assento {seat} tem {points} pontos e decide: pedir carta ou parar?",
               "en": "Seat {seat} has {points} points and decides: hit or stand?"},
    "banker": {"pt": "A banca (assento {seat}) tem {points} pontos e decide: comprar ou chamar?",
               "en": "The banker (seat {seat}) has {points} points and decides: draw or call?"},
    "bust": {"pt": "Chance de estourar com mais uma carta", "en": "Chance the next card busts"},
    "win": {"pt": "Chance de ganhar da banca parando agora", "en": "Chance to beat the banker standing now"},
    "seen": {"pt": "Calculado em {ms} ms só com as cartas que este jogador vê ({n} cartas).",
             "en": "Computed in {ms} ms from the cards this seat can see only ({n} cards)."},
    "none": {"pt": "Ninguém está decidindo entre pedir e parar neste passo.",
             "en": "Nobody is choosing between hitting and standing at this step."},
    "chart": {"pt": "Total final da banca (comprando abaixo de 17)",
              "en": "Banker's final total (drawing below 17)"},
    "chart_bust": {"pt": "estoura", "en": "bust"},
    "chart_mine": {"pt": "seus pontos", "en": "your points"},
    "probability": {"pt": "probabilidade", "en": "probability"},
}


def draw_banker_chart(distribution: dict, lang: str = "pt", mine: int | None = None):
    """The matplotlib figure of `banker_chart_svg` (the caller closes it). Every number on
    it is written in the page's language (`percent`): the bars' labels and the axis's ticks
    ("10%", "12,5%" in Portuguese), never matplotlib's own "0.1"."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    totals = sorted(k for k in distribution if k != "bust")
    labels = [str(k) for k in totals] + [translate(TEXT, "chart_bust", lang)]
    values = [distribution[k] for k in totals] + [distribution.get("bust", 0.0)]
    colours = ["#2e7d32" if mine is not None and beats(mine, k) else "#6d4c41" for k in totals] + ["#c62828"]
    fig, ax = plt.subplots(figsize=(5.2, 2.6), dpi=72)
    try:
        ax.bar(labels, values, color=colours)
        for x, v in enumerate(values):
            ax.text(x, v, percent(v, lang, 0), ha="center", va="bottom", fontsize=9)
        ax.set_title(translate(TEXT, "chart", lang), fontsize=11)
        ax.set_ylabel(translate(TEXT, "probability", lang), fontsize=9)
        ax.set_ylim(0, max(values + [0.01]) * 1.2)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: _tick(v, lang)))
        ax.spines[["top", "right"]].set_visible(False)
        fig.tight_layout()
    except Exception:
        plt.close(fig)
        raise
    return fig


def _tick(fraction: float, lang: str) -> str:
    """An axis tick as a percentage in `lang`, with a decimal only where one is needed."""
    whole = abs(fraction * 100 - round(fraction * 100)) < 1e-9
    return percent(fraction, lang, 0 if whole else 1)


def banker_chart_svg(distribution: dict, lang: str = "pt", mine: int | None = None) -> str:
    """A bar chart of {total: p, ..., "bust": p} as an inline <svg> string; the totals that
    `mine` points beat (the engine's `beats`) are green."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with matplotlib.rc_context({"svg.hashsalt": "cartas", "svg.fonttype": "path"}):
        fig = draw_banker_chart(distribution, lang, mine)
        try:
            out = io.StringIO()
            fig.savefig(out, format="svg")
        finally:
            plt.close(fig)
    text = out.getvalue()
    named = f'<svg role="img" aria-label="{escape(chart_alt(distribution, lang))}" class="cartas-chart-svg" '
    return text[text.index("<svg"):].replace("<svg", named + 'style="max-width:100%;height:auto"', 1)


def chart_alt(distribution: dict, lang: str = "pt") -> str:
    """The chart's text alternative: its title and every bar's figure in words a screen reader
    reads ("Total final da banca (comprando abaixo de 17): 17: 14%; 18: 13%; ...; estoura: 28%")."""
    totals = sorted(k for k in distribution if k != "bust")
    bars = [f"{k}: {percent(distribution[k], lang, 0)}" for k in totals]
    bars.append(f"{translate(TEXT, 'chart_bust', lang)}: {percent(distribution.get('bust', 0.0), lang, 0)}")
    return f"{translate(TEXT, 'chart', lang)}: " + "; ".join(bars)


def odds_html(state, lang: str = "pt", chart: bool = True) -> tuple[str, float]:
    """The odds panel for `state.current_seat` when it chooses hit/stand or draw/call.

    Returns (html, milliseconds spent in the engine's odds).
    """
    seat = state.current_seat
    if state.phase not in ("players", "banker") or seat is None:
        return f"<p class='cartas-no-odds'>{translate(TEXT, 'none', lang)}</p>", 0.0
    from cartas.vinte_e_um import odds_for_view  # numpy: with the first odds, not with the page

    view = state.view(seat)
    start = time.perf_counter()
    odds = odds_for_view(view)
    ms = 1000 * (time.perf_counter() - start)
    role = "banker" if seat == view.banker else "player"
    rows = [("bust", odds["bust"])] + ([("win", odds["win"])] if "win" in odds else [])
    cells = "".join(f"<tr class='cartas-odds-{key}' data-p='{p:.6f}'><td>{translate(TEXT, key, lang)}</td>"
                    f"<td style='font-weight:bold;font-size:18px'>{percent(p, lang)}</td></tr>" for key, p in rows)
    deciding = escape(translate(TEXT, role, lang, seat=seat, points=view.points))
    seen = translate(TEXT, 'seen', lang, ms=number(ms, lang, 1), n=len(view.seen))
    html = (f"<div class='cartas-odds-panel' data-seat='{seat}' data-ms='{ms:.2f}'>"
            f"<b>{translate(TEXT, 'title', lang)}</b><p>{deciding}</p>"
            f"<table style='font-size:15px;border-spacing:10px 2px'>{cells}</table>"
            f"<p style='font-size:13px;color:#555'>{seen}</p>")
    if chart and "banker" in odds:
        html += f"<div class='cartas-chart'>{banker_chart_svg(odds['banker'], lang, view.points)}</div>"
    return html + "</div>", ms
