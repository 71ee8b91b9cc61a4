"""The built-in engine every variant gets: its search and its evaluation."""
