"""Serving Cartas to a class: the pieces of server configuration that need code.

Nothing here is imported by the lessons; Voilà or jupyter-server load it by name from their
configuration (voila.json, jupyter_config.json).
"""
