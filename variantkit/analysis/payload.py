"""What a worker receives: a variant as one self-contained YAML text (what
it inherits merged in), since a worker may not share this machine's files;
compiled once per worker process and then reused by every task."""

from __future__ import annotations

import functools

from variantkit.game import VariantFace
from variantkit.loader import document_text, load_document_text
from variantkit.variant import Variant

COMPILED_KEPT = 8   # variants a worker keeps compiled (a comparison sends a few)


def variant_text(variant: VariantFace) -> str:
    """The text that stands for `variant` on a worker."""
    return document_text(variant.document)


@functools.lru_cache(maxsize=COMPILED_KEPT)
def compiled(text: str) -> Variant:
    """The variant a text stands for, compiled on first use in this process."""
    return Variant(load_document_text(text, "<sent variant>"))
