"""pytest: modules that need an optional extra are not collected (doctests) when it is missing."""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("ray") else ["sniff_twelve/envs/rllib.py"]
if not importlib.util.find_spec("pyspiel"):  # the bench extra (open-spiel)
    collect_ignore += ["sniff_twelve/envs/openspiel.py", "sniff_env/openspiel.py", "twelve_env/openspiel.py"]
    collect_ignore += ["tests/blockdom/openspiel.py", "dominoes_env/openspiel.py"]
    collect_ignore += ["tests/dominoes/openspiel_twin.py", "tests/dominoes/test_openspiel_differential.py"]
if not importlib.util.find_spec("sb3_contrib"):  # the train extra
    collect_ignore += ["sniff_twelve/envs/sb3.py"]
