"""Keep the models' objects out of the garbage collector's full passes.

Loading the embedder, spaCy's pipeline, the learned ranker and the libraries around them
(LightGBM, and whatever the first recall imported: the Elasticsearch client's ~40k objects)
leaves ~150k Python objects that live as long as the process. CPython's full (generation-2) collection walks
every one of them: 50–100 ms on a 2-core machine, which showed as the slowest recalls of
a run (a pre-recall at 5–7× the median, the rest of its stages normal). Once a model is
loaded, :func:`freeze_long_lived` collects what is already garbage and moves every object
still alive into the permanent generation (:func:`gc.freeze`), which collections skip:
a full pass then walks only what was made since. The cost is that an object frozen here
that later becomes cyclic garbage is never reclaimed — for objects made at start-up
(modules, models) that is what happens anyway.

Set ``LANGMEM_ES_GC_FREEZE=0`` to leave the collector alone (an application that tunes
it itself).
"""

from __future__ import annotations

import gc
import os

__all__ = ["freeze_long_lived"]


def freeze_long_lived() -> bool:
    """Collect once, then freeze every object alive; ``False`` when opted out."""
    if os.environ.get("LANGMEM_ES_GC_FREEZE", "1").strip().lower() in {"0", "false", "no", "off"}:
        return False
    gc.collect()
    gc.freeze()
    return True
