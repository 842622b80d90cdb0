"""Peak memory of one certified n-token run, measured in a fresh process.

    python -m benchmarks.memory KIND N D_MODEL D_K

prints JSON, in MiB: the resident set size just before the certified run
(interpreter, imports and inputs), the peak before it, and the peak after it
(VmHWM).  The run itself adds at most ``peak_mib - before_mib``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from benchmarks.certified import certified_attention, fmpq_inputs
from benchmarks.inputs import make_case


def _status_mib(field: str) -> float:
    """A field of /proc/self/status in MiB (VmRSS: resident now, VmHWM: peak resident)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"/proc/self/status has no {field}")


def _peak_mib() -> float:
    # VmHWM, not ru_maxrss: on Linux ru_maxrss survives exec, so a child started by a
    # large parent would report the parent's peak
    return _status_mib("VmHWM")


def _current_mib() -> float:
    return _status_mib("VmRSS")


def main(argv: list[str]) -> int:
    kind, n, d_model, d_k = argv[0], *map(int, argv[1:4])
    inputs = fmpq_inputs(make_case(kind, n, d_model, d_k))
    before, peak_before = _current_mib(), _peak_mib()
    certified_attention(*inputs)
    print(json.dumps({"before_mib": before, "peak_before_mib": peak_before, "peak_mib": _peak_mib()}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
