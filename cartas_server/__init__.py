"""Serving Cartas to a class: the pieces of server configuration that need code.

Nothing here is imported by the lessons; Voilà or jupyter-server load it by name from their
configuration (voila.json for standalone Voilà, etc/jupyter/jupyter_server_config.json
for jupyter-server with the Voilà extension).
"""
