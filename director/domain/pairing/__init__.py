"""Pairing: the Swiss, round-robin and knockout engines, and an independent checker.

Pure Python (networkx for the Swiss matchings): values in, values out. The service layer maps
its rows to the values of ``model`` and calls ``engine.pair_round``; ``control`` warns about a
director's own pairings; ``checker`` re-checks a whole event without the engines;
``simulate`` plays random events through the engines. Importing this package imports none of
its modules, so the checker can be used without loading the engines.
"""
