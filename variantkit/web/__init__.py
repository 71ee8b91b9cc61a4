"""The playground: a local web page to play, edit and check variants.

`variantkit serve` runs it.  Modules: `sources` (where a variant comes from;
the one door for untrusted YAML text), `tasks` (what a request computes),
`pairs` (what it computes for a game on two boards), `workers` (child
processes that bound each task's time and memory), `door` (which requests
are let in and how their JSON is read), `app` (the Starlette application and
its JSON API), `server` (uvicorn's settings and the clock on each
connection); the page itself is plain HTML, CSS and JavaScript in `static/`.
"""

from __future__ import annotations

from variantkit.web.app import create_app

__all__ = ["create_app"]
