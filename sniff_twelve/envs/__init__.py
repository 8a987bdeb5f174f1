"""One adapter per framework: PettingZoo AEC, gymnasium single-seat and vector, sb3, RLlib, OpenSpiel."""
