"""Notation: position strings (FEN), move strings, and written moves (SAN and
the other styles players use), for every variant."""
