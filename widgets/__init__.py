"""ipywidgets views of the Cartas lessons. They draw; the `cartas` engine decides every rule.

Each dashboard imports the one module it shows (`from widgets.play_truco import PlayTruco`),
so a dashboard loads only its lesson.
"""
