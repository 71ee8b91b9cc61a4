"""The engine protocols: the built-in engine behind UCI, CECP (xboard)
and USI, and drivers that talk to external engines through them."""
