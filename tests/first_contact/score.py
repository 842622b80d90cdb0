"""Score ``symattn verify`` on a first-contact round: recall, confirmed results, false alarms.

Each document ``NAME.ext`` of a round folder has ``NAME.expect.json`` beside it, written by
someone who never read verify's code, with every printed result: its line and column, the
literal, ``status`` ("ok" or "wrong") and, for wrong ones, ``kind``.  The true values come
from the round's own ``_truth_*.py`` (fractions and mpmath), never from symattn.

    python tests/first_contact/score.py tests/first_contact/r1 [--symattn CMD] [--json]

A number is found when verify calls it wrong at its (line, column); confirmed when verify
calls a correct result ok there.  A false alarm is a wrong finding at any place that the
expectations do not list as wrong.  Exit 0 always: this measures, it does not judge.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path


def _verify(cmd: list[str], doc: Path, timeout: float) -> tuple[dict | None, int, str]:
    try:
        run = subprocess.run(
            [*cmd, "verify", str(doc), "--format", "json"],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None, -1, "timeout"
    try:
        return json.loads(run.stdout), run.returncode, run.stderr.strip()[-200:]
    except json.JSONDecodeError:
        return None, run.returncode, run.stderr.strip()[-200:]


def score_document(cmd: list[str], expect_path: Path, timeout: float = 120) -> dict:
    expect = json.loads(expect_path.read_text(encoding="utf-8"))
    doc = expect_path.parent / expect["doc"]
    report, code, err = _verify(cmd, doc, timeout)
    numbers = expect["numbers"]
    wrong = {(n["line"], n["column"]): n for n in numbers if n["status"] == "wrong"}
    right = {(n["line"], n["column"]): n for n in numbers if n["status"] == "ok"}
    out = {
        "doc": expect["doc"],
        "language": expect.get("language"),
        "source": expect.get("source"),
        "wrong": len(wrong),
        "right": len(right),
        "found": 0,
        "confirmed": 0,
        "false_alarms": [],
        "missed": [],
        "exit": code,
        "problem": None if report is not None else (err or f"exit {code}"),
    }
    if report is None:
        out["missed"] = [f"{k[0]}:{k[1]} {v['claimed']}" for k, v in wrong.items()]
        return out
    by_place = {(f["line"], f["column"]): f for f in report["findings"]}
    for place, n in wrong.items():
        f = by_place.get(place)
        if f is not None and f["status"] == "wrong":
            out["found"] += 1
        else:
            status = "not read" if f is None else f"{f['status']}/{f['kind']}"
            out["missed"].append(f"{place[0]}:{place[1]} {n['claimed']} ({n.get('kind')}; verify: {status})")
    out["unconfirmed"] = []
    for place, n in right.items():
        f = by_place.get(place)
        if f is not None and f["status"] == "ok":
            out["confirmed"] += 1
        elif f is None or f["status"] != "wrong":  # a wrong one is a false alarm, listed below
            status = "not read" if f is None else f"{f['status']}/{f['kind']}"
            out["unconfirmed"].append(f"{place[0]}:{place[1]} {n['claimed']} (verify: {status})")
    for f in report["findings"]:
        if f["status"] == "wrong" and (f["line"], f["column"]) not in wrong:
            listed = "a correct result" if (f["line"], f["column"]) in right else "not a listed result"
            out["false_alarms"].append(
                f"{f['line']}:{f['column']} {f['claimed']} ({f['kind']}, true {f['value']}; {listed})"
            )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("round", type=Path)
    parser.add_argument("--symattn", default=f"{sys.executable} -m symattn")
    parser.add_argument("--json", action="store_true", help="one JSON line per document")
    parser.add_argument("--unconfirmed", action="store_true", help="also list correct results not confirmed")
    args = parser.parse_args(argv)
    cmd = shlex.split(args.symattn)
    rows = [score_document(cmd, p) for p in sorted(args.round.glob("*.expect.json"))]
    for r in rows:
        if args.json:
            print(json.dumps(r, ensure_ascii=False))
            continue
        print(
            f"{r['doc']}: found {r['found']}/{r['wrong']}, confirmed {r['confirmed']}/{r['right']}, "
            f"false alarms {len(r['false_alarms'])}, exit {r['exit']}"
            + (f", problem: {r['problem']}" if r["problem"] else "")
        )
        for line in r["missed"]:
            print(f"    missed {line}")
        for line in r["false_alarms"]:
            print(f"    FALSE ALARM {line}")
        for line in r.get("unconfirmed", []) if args.unconfirmed else []:
            print(f"    unconfirmed {line}")
    found = sum(r["found"] for r in rows)
    wrong = sum(r["wrong"] for r in rows)
    confirmed = sum(r["confirmed"] for r in rows)
    right = sum(r["right"] for r in rows)
    alarms = sum(len(r["false_alarms"]) for r in rows)
    silent = sum(1 for r in rows if r["wrong"] and r["exit"] == 0)
    with_errors = sum(1 for r in rows if r["wrong"])
    print(
        f"documents {len(rows)}; recall {found}/{wrong} ({found / max(1, wrong):.0%}); "
        f"confirmed {confirmed}/{right} ({confirmed / max(1, right):.0%}); false alarms {alarms}; "
        f"documents with wrong numbers that exit 0: {silent} of {with_errors}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
