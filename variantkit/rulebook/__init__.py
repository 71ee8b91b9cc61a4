"""Rule compilation: one module per rule family of a declaration.

Each family owns what its part of the YAML means: it checks it, reporting
located problems through a `Sink`, and turns it into its record (a frozen
value of plain tables, their element types in `variantkit.tables` where the
core reads them on its hot path); a family whose rules the general position
plays says so with its `needs_general`.  `variantkit.rules.compile_rules`
calls them in order and keeps each record whole in `Rules`; a new rule
family is a new module here, its key in `declaration`, one call and one
field there.  The families
read the declaration and what earlier families built (board, pieces,
codes), never each other's private names, and nothing at game time; they
come before the position core, which reads their records.
"""
