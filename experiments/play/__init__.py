"""Playing a game with agents seated: the session the terminal and the browser table share
(duplicate replays, deal results in words) and the values of a position (analysis).
"""
