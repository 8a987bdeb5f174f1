"""Play and watch in the browser (``python -m sniff_env serve`` / ``python -m twelve_env serve``).

``table`` says what the server needs of a game (a ``WebGame``), ``svg`` has the small SVG builder
both games' tables are drawn with, and ``server`` is the Starlette app (the ``web`` extra): one
session per browser tab, agents at every other seat, records of finished games, and replays.
"""
