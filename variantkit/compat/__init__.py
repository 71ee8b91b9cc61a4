"""Other libraries' interfaces, answered by variantkit.

A program written against another chess-variant library changes one import
and plays variantkit's games through the calls it already makes:

    import variantkit.compat.pyffish as sf    # instead of `import pyffish as sf`

`pyffish`: the Python binding of Fairy-Stockfish, its functions, constants
and return values (docs/pyffish.md lists where the answers differ, and why).
"""
