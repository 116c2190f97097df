"""ipywidgets views of the Cartas lessons. They draw; the `cartas` engine decides every rule.

Three rooms:
- `widgets.pages`: one module per notebook, named after it (`notebooks/jogar_truco.ipynb`
  shows `widgets.pages.jogar_truco.PlayTruco`), so a dashboard loads only its lesson;
- `widgets.components`: the parts pages share (the view base, the page and its language, the
  learner, scores, exercises, pacing, coaching, sharing, the card picker, the ticker...);
- `widgets.draw`: HTML and SVG drawing (cards, the truco table, the 21 table and chart).

Pages import components and drawings, components import drawings, and nothing imports a page
but another page (the class view embeds the table list of `widgets.pages.mesa`).
"""
