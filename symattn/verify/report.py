"""The verification report: findings, summary, exit code, and its renderings.

The JSON form is the stable machine contract ``symattn.verify/1`` documented in
docs/verify.md.  Text and Markdown list every wrong number in detail, grouped by
root cause (each fresh error with the numbers carried from it), then the
unchecked numbers grouped by reason (in Markdown, with their places in a
``<details>`` block), then a summary.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from html import escape as html_escape

from symattn.verify.finding import Finding
from symattn.verify.text import kind_text, label, reason_text

__all__ = ["SCHEMA", "Report"]

SCHEMA = "symattn.verify/1"
#: Places listed per reason in a Markdown report's list of unchecked numbers.
_SHOWN_PLACES = 20


@dataclass(frozen=True)
class Report:
    """What the verifier found in one document.

    Attributes:
        document: the file name (or ``"<text>"``).
        findings: one finding per printed number, in file order.
    """

    document: str
    findings: tuple[Finding, ...]
    #: what the explanation model understood (verify/explain.py): ``verify --explain`` shows it
    explanation: dict | None = field(default=None, compare=False, repr=False)

    @property
    def summary(self) -> dict[str, int]:
        """Counts: claims (all findings), ok, wrong, unverified."""
        counts = Counter(f.status for f in self.findings)
        return {
            "claims": len(self.findings),
            "ok": counts["ok"],
            "wrong": counts["wrong"],
            "unverified": counts["unverified"],
        }

    @property
    def wrong(self) -> tuple[Finding, ...]:
        """The wrong findings."""
        return tuple(f for f in self.findings if f.status == "wrong")

    @property
    def exit_code(self) -> int:
        """0 when every checked number holds, 1 when at least one is wrong."""
        return 1 if self.wrong else 0

    def __repr__(self) -> str:
        summary = self.summary
        return (
            f"<Report {self.document}: {summary['claims']} numbers, {summary['ok']} ok,"
            f" {summary['wrong']} wrong, {summary['unverified']} unverified; exit {self.exit_code}>"
        )

    def _repr_html_(self) -> str:
        """Jupyter: the summary, then a findings table (wrong numbers first, at most 50 rows)."""
        from symattn.render import html

        ordered = sorted(
            self.findings, key=lambda f: (f.status != "wrong", f.status != "ok", f.line, f.column)
        )
        shown = ordered[:50]
        rows = [
            [
                f"{f.line}:{f.column}",
                f.subject,
                f"[{f.cell[0]},{f.cell[1]}]" if f.cell else "-",
                f.claimed,
                f.value or "-",
                f.status,
                f.kind,
                f.reason,
            ]
            for f in shown
        ]
        if len(ordered) > len(shown):
            rows.append([f"… {len(ordered) - len(shown)} more"] + [""] * 7)
        header = ["line:col", "expression", "cell", "claimed", "true", "status", "kind", "reason"]
        return html.section(repr(self)[1:-1], html.table(header, rows))

    def explain_text(self) -> str:
        """What the explanation understood: the hypothesis kept and what each printed block is."""
        data = self.explanation or {}
        if "error" in data:
            return (
                f"{self.document}: the explanation stopped ({data['error']}); the readers' findings stand\n"
            )
        lines = [f"{self.document}: {data.get('printed', 0)} printed blocks, {data.get('inputs', 0)} given"]
        kept = data.get("kept")
        if not kept:
            lines.append("  no hypothesis explains the document's blocks")
        else:
            roles = ", ".join(f"{role} = the block at line {line}" for role, line in kept["roles"].items())
            lines.append(
                f"  kept: {roles}; {kept['described']}; "
                f"{kept['evidence']} digits explained; "
                f"{data['hypotheses']} hypotheses tried, {kept['near']} nearly as good"
            )
        for block in data.get("blocks", []):
            shape = "x".join(map(str, block["shape"]))
            name = f" {block['name']}" if block["name"] else ""
            what = (
                f"{block['node']} ({block['why']}, {block['evidence']} digits)"
                if block["node"]
                else block["why"]
            )
            lines.append(f"  line {block['line']}{name} [{shape}]: {what}")
        if data.get("read_again"):
            lines.append(
                f"  read again: {data['read_again']} identified numbers taken at their true values "
                f"in the readers' world (b); {data.get('changed', 0)} verdicts changed"
            )
        return "\n".join(lines) + "\n"

    def to_json(self) -> str:
        """The report as JSON (schema ``symattn.verify/1``; ``summary.kinds`` counts
        the findings by kind)."""
        kinds = dict(sorted(Counter(str(f.kind) for f in self.findings).items()))
        data = {
            "schema": SCHEMA,
            "document": self.document,
            "summary": {**self.summary, "kinds": kinds},
            "findings": [f.as_dict() for f in self.findings],
        }
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"

    def _details(self, finding: Finding, lang: str) -> list[tuple[str, str]]:
        cell = f"[{finding.cell[0]},{finding.cell[1]}]" if finding.cell else "-"
        kind = kind_text(finding.kind, lang, finding.carried_from, finding.fits)
        return [
            (label("expression", lang), finding.subject),
            (label("cell", lang), cell),
            (label("claimed", lang), finding.claimed),
            (label("true", lang), finding.value or "-"),
            (label("exact", lang), finding.exact or "-"),
            (label("kind", lang), kind),
            *(
                [(label("reason", lang), reason_text(finding.reason, lang))]
                if finding.kind == "slip" and finding.reason
                else []
            ),
        ]

    def by_cause(self) -> list[tuple[Finding | None, int | None, list[Finding]]]:
        """The wrong findings grouped by root cause: each fresh error (or, for numbers
        carried from a line with no fresh error in this report, that line) with the
        numbers carried from its line."""
        carried: dict[int, list[Finding]] = {}
        roots = []
        for finding in self.wrong:
            if finding.carried_from is not None:
                carried.setdefault(finding.carried_from, []).append(finding)
            else:
                roots.append(finding)
        groups: list[tuple[Finding | None, int | None, list[Finding]]] = []
        claimed_lines: set[int] = set()
        for root in roots:
            under = carried.get(root.line, []) if root.line not in claimed_lines else []
            claimed_lines.add(root.line)
            groups.append((root, None, under))
        for line, under in sorted(carried.items()):
            if line not in claimed_lines:
                groups.append((None, line, under))
        return groups

    def _unverified_places(self, lang: str = "en") -> list[tuple[str, list[Finding]]]:
        places: dict[str, list[Finding]] = {}
        for f in self.findings:
            if f.status == "unverified":
                places.setdefault(reason_text(f.reason, lang, f.kind), []).append(f)
        return sorted(places.items(), key=lambda item: -len(item[1]))

    def _unverified_groups(self, lang: str = "en") -> list[tuple[str, int]]:
        counts = Counter(
            reason_text(f.reason, lang, f.kind) for f in self.findings if f.status == "unverified"
        )
        return sorted(counts.items(), key=lambda item: -item[1])

    def _verdict(self, lang: str) -> str:
        if self.exit_code:
            return label("verdict_wrong", lang, wrong=len(self.wrong))
        if not self.summary["ok"]:
            return label("verdict_none", lang)
        return label("verdict_ok", lang)

    def to_text(self, lang: str = "en") -> str:
        """A plain-text report for a terminal."""
        lines = [label("title", lang, document=self.document), ""]
        if self.wrong:
            lines.append(label("wrong_heading", lang))
            groups = self.by_cause()
            n_carried = sum(len(under) for _, _, under in groups)
            lines.append(label("causes", lang, roots=len(self.wrong) - n_carried, carried=n_carried))
            for root, line, under in groups:
                if root is not None:
                    lines.append(f"{self.document}:{root.line}:{root.column}")
                    lines.extend(f"    {key}: {value}" for key, value in self._details(root, lang))
                    if under:
                        lines.append("    " + label("carried_under", lang))
                else:
                    lines.append(label("carried_from_line", lang, line=line))
                for finding in under:
                    lines.append(f"    {self.document}:{finding.line}:{finding.column}")
                    lines.extend(f"        {key}: {value}" for key, value in self._details(finding, lang))
        else:
            lines.append(label("none_wrong", lang))
        groups = self._unverified_groups(lang)
        if groups:
            lines += ["", label("unverified_heading", lang)]
            lines.extend("    " + label("unverified_line", lang, count=n, reason=r) for r, n in groups)
        lines += ["", self._summary_line(lang), self._verdict(lang)]
        return "\n".join(lines) + "\n"

    def _summary_line(self, lang: str) -> str:
        """The count of numbers, and of those a ``symattn: ignore`` comment suppressed."""
        line = label("summary", lang, **self.summary)
        suppressed = sum(1 for f in self.findings if f.kind == "suppressed")
        return line if not suppressed else line + label("summary_suppressed", lang, suppressed=suppressed)

    def to_markdown(self, lang: str = "en") -> str:
        """A Markdown report (a table of wrong numbers)."""
        lines = [f"# {label('title', lang, document=self.document)}", ""]
        if self.wrong:
            groups = self.by_cause()
            n_carried = sum(len(under) for _, _, under in groups)
            lines += [f"## {label('wrong_heading', lang)}", ""]
            lines += [label("causes", lang, roots=len(self.wrong) - n_carried, carried=n_carried), ""]
            headers = [label("location", lang)] + [key for key, _ in self._details(self.wrong[0], lang)]
            lines.append("| " + " | ".join(headers) + " |")
            lines.append("|" + "---|" * len(headers))
            ordered = [f for root, _, under in groups for f in ([root] if root else []) + under]
            for finding in ordered:
                cells = [f"{self.document}:{finding.line}:{finding.column}"]
                cells += [
                    f"`{v}`" if k == label("exact", lang) else v for k, v in self._details(finding, lang)
                ]
                lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        else:
            lines.append(label("none_wrong", lang))
        places = self._unverified_places(lang)
        if places:
            lines += ["", f"## {label('unverified_heading', lang)}", ""]
            for reason, found in places:
                where = ", ".join(f"{f.line}:{f.column}" for f in found[:_SHOWN_PLACES])
                if len(found) > _SHOWN_PLACES:
                    where += f", … ({len(found) - _SHOWN_PLACES} more)"
                summary_line = label("unverified_line", lang, count=len(found), reason=html_escape(reason))
                lines += [
                    f"<details><summary>{summary_line}</summary>",
                    "",
                    f"{label('unverified_where', lang)}: {where}",
                    "",
                    "</details>",
                    "",
                ]
            lines.pop()
        lines += ["", self._summary_line(lang), "", f"**{self._verdict(lang)}**"]
        return "\n".join(lines) + "\n"
