"""pytest: modules that need an optional extra are not collected (doctests) when it is missing."""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("ray") else ["envkit/rllib.py"]
