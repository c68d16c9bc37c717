"""The canary generators the fidelity and re-compaction benches report side by side.

The bench's own canaries and three independently written generators (other templates,
vocabulary, value shapes and positions): ``heldout.py`` and ``heldout_b.py``, which have
since been read while recognizers changed, and ``heldout_c.py``, written after them and
not tuned against. The gap between the columns is what the recognizers overfit.
"""

from __future__ import annotations

import canaries
import heldout
import heldout_b
import heldout_c

__all__ = ["GENERATORS"]

GENERATORS = {
    "canaries": canaries.plant,
    "held-out": heldout.plant,
    "held-out-b": heldout_b.plant,
    "held-out-c": heldout_c.plant,
}
