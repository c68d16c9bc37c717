"""The canary generators the fidelity and re-compaction benches report side by side.

The bench's own canaries and thirteen independently written generators (other templates,
vocabulary, value shapes and positions): ``heldout.py`` to ``heldout_i.py``, ``heldout_k.py``
and ``heldout_l.py``, which have been read while recognizers changed, and ``heldout_j.py``
and ``heldout_m.py``, each written after them by someone who read neither the recognizers
nor the other generators, and not tuned against. The gap between the columns is what the
recognizers overfit.
"""

from __future__ import annotations

import canaries
import heldout
import heldout_b
import heldout_c
import heldout_d
import heldout_e
import heldout_f
import heldout_g
import heldout_h
import heldout_i
import heldout_j
import heldout_k
import heldout_l
import heldout_m

__all__ = ["GENERATORS", "UNTUNED"]

GENERATORS = {
    "canaries": canaries.plant,
    "held-out": heldout.plant,
    "held-out-b": heldout_b.plant,
    "held-out-c": heldout_c.plant,
    "held-out-d": heldout_d.plant,
    "held-out-e": heldout_e.plant,
    "held-out-f": heldout_f.plant,
    "held-out-g": heldout_g.plant,
    "held-out-h": heldout_h.plant,
    "held-out-i": heldout_i.plant,
    "held-out-j": heldout_j.plant,
    "held-out-k": heldout_k.plant,
    "held-out-l": heldout_l.plant,
    "held-out-m": heldout_m.plant,
}
UNTUNED = ("held-out-j", "held-out-m")
"""The generators no recognizer has been read against yet."""
