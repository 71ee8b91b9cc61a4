"""Rule compilation: one module per rule family of a declaration, each
turning its part of the YAML into the plain tables the core reads
(`variantkit.tables`), reporting located problems through a `Sink`.

`variantkit.variant.Variant` calls them in order and holds what they
return; a new rule family is a new module here and one call there.  The
families read the declaration and what earlier families built (board,
pieces, codes), never each other's private names, and nothing at game time.
"""
