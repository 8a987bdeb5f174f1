"""Play and watch in the browser (``python -m sniff_env serve`` / ``python -m twelve_env serve``).

``table`` says what the server needs of a game (a ``WebGame``), ``svg`` has the small SVG builder
both games' tables are drawn with, and ``server`` is the Starlette app (the ``web`` extra) with its
routes, ``service`` the work behind them (a ``Server``: the agents' threads, the records' rules,
old games removed); ``sessions`` holds one game per browser tab (agents at every other seat, eviction, the rate
limit), ``store`` keeps the games in progress on disk, ``records`` writes, lists and replays the
finished games, and ``errors`` has the one error a refused request raises. A study (``study run``)
is read by ``study_file`` into a ``study.Study``; ``participants`` takes each participant through
it and ``study_data`` reads its data back.
"""
