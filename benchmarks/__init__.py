"""Side-by-side throughput benchmarks: ``python -m benchmarks [--quick]``.

Measures, in one run on this machine, our compiled playouts, ``VectorGame`` at batch sizes
1 … 16384, the AEC envs raw and wrapped, ``Game.apply``, warm and cold start, and — when the
``bench`` extra is installed — OpenSpiel's dominoes and crazy_eights and PettingZoo's
connect_four_v3 as anchors. Prints a table with ratios, writes JSON and a PNG plot.
"""
