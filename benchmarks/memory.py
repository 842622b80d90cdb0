"""Peak memory of one certified n-token run, measured in a fresh process.

    python -m benchmarks.memory KIND N D_MODEL D_K

prints JSON: the peak resident set size (ru_maxrss) after the imports and
inputs, and after the certified run, in MiB.
"""

from __future__ import annotations

import json
import resource
import sys

from benchmarks.certified import certified_attention, fmpq_inputs
from benchmarks.inputs import make_case


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def main(argv: list[str]) -> int:
    kind, n, d_model, d_k = argv[0], *map(int, argv[1:4])
    inputs = fmpq_inputs(make_case(kind, n, d_model, d_k))
    before = _peak_mib()
    certified_attention(*inputs)
    print(json.dumps({"before_mib": before, "peak_mib": _peak_mib()}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
