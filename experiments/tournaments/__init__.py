"""Comparing agents: duplicate tournaments and their statistics (paired intervals, ratings,
per-deal files, seat swaps), rules studies, the cost of a decision, ladders and the
leaderboard, the zoo's cards with their measured strength.
"""
