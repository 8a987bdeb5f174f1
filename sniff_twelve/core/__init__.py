"""The game protocol both games implement: state object, seat views, rng, options, rewards, hooks, spec."""
