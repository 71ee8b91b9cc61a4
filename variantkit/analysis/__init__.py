"""Analysis at scale: distributed perft and self-play tournaments, summed
up in a balance report.  A face of the pipeline: it only uses the public
library (variants, games, the engine, PGN).

One module a job:

- `address`: a scheduler address from the user, checked before connecting;
- `cluster`: where tasks run: a Dask.distributed cluster, local or remote
  (the optional extra `variantkit[cluster]`), every wait bounded;
- `payload`: what a worker receives: a variant as self-contained YAML text,
  compiled once per worker;
- `perft`: perft split into move prefixes, counted on the workers;
- `tournament`: seeded self-play games of the built-in engine, one task each;
- `stats`: the figures of a tournament (results with confidence intervals,
  terminations, lengths, branching, pieces, material values);
- `report`: those figures as a self-contained HTML page.
"""
