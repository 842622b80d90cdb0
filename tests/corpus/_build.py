"""Build the corpus documents and their expectations from templates in ``_src/``.

Run ``python tests/corpus/_build.py`` to (re)write ``NAME.md|.txt|.tex`` and
``NAME.expect.toml`` here from ``_src/NAME.*``; ``--check`` only compares.

A template is the document as its author wrote it, with every number that is
not a given input written as a marker ``⟦…⟧`` that names the true quantity it
stands for; the number itself comes from ``_truth.py``.  The build knows where
each marker lands (line and column), so the expectation files are never
counted by hand, and it refuses a template whose marker does not match what it
declares:

``⟦REF[:FMT][~TRUTH][=TEXT][!KIND][#LABEL][<FROM][^FLAG]⟧``

- ``REF``: ``case.STAGE[r,c]`` (1-based; ``STAGE[r,c]`` uses the document's
  case), ``x.NAME`` / ``x.NAME[r,c]`` (a scalar of ``_truth.SCALARS``), or
  ``lit`` (with ``=TEXT``).  It is the value the author's own numbers give.
- ``FMT``: ``2``/``3``/``4``… places rounded half away from zero, ``t2``
  truncated, ``i`` exact integer, ``i.`` integer as ``2.``, ``g`` exact
  decimal, ``f32``/``f64`` NumPy's text of a float32/float64, ``%0`` percent,
  ``M2``/``K0`` millions/thousands, ``c`` integer with thousands commas.
- ``~TRUTH``: the true quantity the number claims (default: REF, or for a
  variant case the same cell of the case it varies).
- ``=TEXT``: the printed text when it is not REF formatted (a planted error).
- ``!KIND``: ``wrong``, ``slip``, ``rounding``, ``carried``,
  ``rounding-carried`` (planted; FROM needed for the carried kinds), ``auto``
  / ``autorc`` (carried / rounding-carried from FROM if it differs from the
  truth at its places, else ok), ``op`` (a correct restatement of a given
  input: not a result), ``in`` (an input: not a result).
- ``#LABEL``: names the marker's line for a later ``<LABEL``.
- ``^op``: a planted number that restates an input (counted as wrong, not as a
  result).

Blocks: ``⟦@FORM REF FMT [opt ...] [| r,c SUFFIX; r,c SUFFIX]⟧`` print a whole
matrix (``REF`` = ``case.STAGE`` or ``case.STAGE[r]`` for one row):
``bm`` (LaTeX cells ``a & b \\\\ c & d``), ``py`` (``[[a, b], [c, d]]``),
``list`` (``a, b, c``), ``torch`` (PyTorch repr; opts ``grad=NAME``,
``dtype=NAME``), ``np`` (NumPy str), ``nparr`` (NumPy repr; opt
``dtype=float32``).  ``opt`` may also be ``!auto<LABEL``, applied to each cell.
"""

from __future__ import annotations

import re
import sys
import urllib.parse
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import _truth as T

HERE = Path(__file__).parent
SRC = HERE / "_src"
TOKEN = re.compile(r"⟦(?P<mark>.*?)⟧|(?P<mode>[⟪⟫⟬⟭])|(?P<plain>[^⟦⟪⟫⟬⟭]+)", re.S)
CELL = re.compile(
    r"^(?P<ref>[^:~=!#<^]+)(?::(?P<fmt>[^~=!#<^]+))?(?:~(?P<truth>[^=!#<^]+))?(?:=(?P<text>[^!#<^]+))?"
    r"(?:!(?P<kind>[a-z-]+))?(?:#(?P<label>\w+))?(?:<(?P<src>\w+))?(?:\^(?P<flag>\w+))?$"
)
PLANTED = {"wrong", "slip", "rounding", "carried", "rounding-carried"}
NOT_RESULT = {"op", "in"}
F32_ULPS = 4


class TemplateError(Exception):
    pass


@dataclass
class Literal:
    offset: int
    text: str
    kind: str | None  # planted kind, None for ok
    label: str | None
    src: str | None
    result: bool
    note: str | None = None
    truth: str = ""
    line: int = 0
    column: int = 0


@dataclass
class Doc:
    name: str
    meta: dict
    text: str = ""
    literals: list[Literal] = field(default_factory=list)


# --- formatting ------------------------------------------------------------------------


def places_of(text: str) -> int:
    digits = re.sub(r"[^0-9.]", "", text)
    return len(digits.split(".")[1]) if "." in digits else 0


def fmt(v: T.Value, spec: str) -> str:
    if spec.isdigit():
        return T.rnd(v, int(spec))
    if spec.startswith("t") and spec[1:].isdigit():
        return T.trunc(v, int(spec[1:]))
    if spec == "i":
        return T.integer(v)
    if spec == "i.":
        return T.integer(v) + "."
    if spec == "i.0":
        return T.integer(v) + ".0"
    if spec == "g":
        return T.exact_decimal(v)
    if spec.startswith("f32"):
        return T.f32_text(v, int(spec[4:] or 8))
    if spec.startswith("f64"):
        return T.f64_text(v, int(spec[4:] or 8))
    if spec.startswith("%"):
        return T.rnd(T.mul(v, Fraction(100)), int(spec[1:])) + "%"
    if spec[0] in "MK" and spec[1:].isdigit():
        scale = Fraction(10**6 if spec[0] == "M" else 10**3)
        return T.rnd(T.div(v, scale), int(spec[1:])) + spec[0]
    if spec == "c":
        return f"{int(T.integer(v)):,}"
    raise TemplateError(f"unknown format {spec!r}")


def claim_ok(text: str, truth: T.Value, spec: str) -> tuple[bool, str | None]:
    """Whether ``text`` is a correct claim of ``truth``; the second item is a note kind."""
    if spec.startswith(("f32", "f64")):
        if text.endswith("."):
            return Fraction(int(text[:-1])) == truth, None
        correct = T.rnd(truth, places_of(text)) == text
        if correct:
            return True, None
        if spec.startswith("f32"):
            err = abs(T.to_mpf(Fraction(text)) - T.to_mpf(truth))
            ulp = T.mpf(2) ** (T.mpmath.floor(T.mpmath.log(abs(T.to_mpf(truth)), 2)) - 23)
            if err <= F32_ULPS * ulp:
                return True, "float-rounding"
        return False, None
    if spec.startswith("t"):  # a truncated text claims the correctly rounded value
        spec = spec[1:]
    return text == fmt(truth, spec), None


def _is_truncation(text: str, truth: T.Value, spec: str) -> bool:
    """Whether ``text`` is ``truth`` truncated at its places (a number a reader would call ``rounding``)."""
    digits = text.rstrip("%MK").replace(",", "")
    if spec.startswith("%") or spec[0] in "MK" or "." not in digits:
        return False
    try:
        return T.trunc(truth, places_of(digits)) == digits
    except ValueError:
        return False


def truth_ref(ref: str, case: str) -> str:
    owner, _, rest = ref.partition(".")
    if owner in {"x", "lit"}:
        return ref
    base = T.CASES[owner].truth_of
    return f"{base}.{rest}" if base else ref


def full_ref(ref: str, case: str) -> str:
    if ref == "lit" or "." in ref.split("[", maxsplit=1)[0]:
        return ref
    return f"{case}.{ref}"


def render_cell(spec: str, case: str) -> Literal:
    m = CELL.match(spec.strip())
    if not m:
        raise TemplateError(f"bad marker {spec!r}")
    g = m.groupdict()
    ref = full_ref(g["ref"].strip(), case)
    form = g["fmt"] or "4"
    kind = g["kind"]
    own = None if ref == "lit" else T.value(ref)
    text = g["text"]
    if text is None:
        if own is None:
            raise TemplateError(f"{spec}: lit needs =TEXT")
        text = fmt(own, form)
    tref = full_ref(g["truth"].strip(), case) if g["truth"] else truth_ref(ref, case)
    truth = None if tref == "lit" else T.value(tref)
    ok, note = (True, None) if truth is None else claim_ok(text, truth, form)
    if kind in ("auto", "autorc", "autowrong"):
        kind = None if ok else {"auto": "carried", "autorc": "rounding-carried", "autowrong": "wrong"}[kind]
        note = None if kind else note
    if kind in (None, "op", "in"):
        if not ok:
            raise TemplateError(f"{spec}: prints {text} but the truth {tref} is {fmt(truth, form)}")
    elif kind in PLANTED:
        if ok:
            raise TemplateError(f"{spec}: planted {kind} but {text} is right")
        if kind == "rounding" and text != T.trunc(truth, places_of(text)):
            raise TemplateError(f"{spec}: {text} is not the truncation of {tref}")
        if kind in ("carried", "rounding-carried"):
            if not g["src"]:
                raise TemplateError(f"{spec}: {kind} needs <FROM")
            if own is not None and g["text"] is None and text != fmt(own, form):
                raise TemplateError(f"{spec}: carried text differs from its own value")
            if own is not None and g["text"] is not None and text != fmt(own, form):
                raise TemplateError(f"{spec}: carried {text} is not {ref} = {fmt(own, form)}")
        if kind == "slip" and own is not None and g["text"] is not None and text == fmt(own, form):
            raise TemplateError(f"{spec}: a slip equal to the document's own value {ref}")
    else:
        raise TemplateError(f"{spec}: unknown kind {kind}")
    ambiguous_ok = g["flag"] == "trunc"  # a restatement of a truncated number: carried wins (README)
    if (
        kind in PLANTED
        and kind != "rounding"
        and truth is not None
        and not ambiguous_ok
        and _is_truncation(text, truth, form)
    ):
        raise TemplateError(f"{spec}: planted {kind} {text} is also the truncation of the truth (ambiguous)")
    result = kind not in NOT_RESULT and g["flag"] != "op"
    return Literal(0, text, kind if kind in PLANTED else None, g["label"], g["src"], result, note, tref)


# --- blocks -------------------------------------------------------------------------------


def _matrix_ref(ref: str, case: str) -> tuple[str, list[tuple[int, ...]]]:
    ref = full_ref(ref, case)
    head, _, idx = ref.partition("[")
    base = T.value(head)
    rows = range(1, len(base) + 1) if not idx else [int(idx.rstrip("]"))]
    return head, [[(r, c) for c in range(1, len(base[0]) + 1)] for r in rows]


def render_block(body: str, case: str) -> list:
    main, _, over = body.partition("|")
    words = main.split()
    form, ref, cellfmt, opts = words[0][1:], words[1], words[2], words[3:]
    head, grid = _matrix_ref(ref, case)
    overrides: dict[tuple[int, int], str] = {}
    for item in filter(None, (o.strip() for o in over.split(";"))):
        pos, suffix = re.match(r"(\d+,\d+)\s*(.*)", item).groups()
        r, c = (int(p) for p in pos.split(","))
        overrides[(r, c)] = suffix
    auto = next((o for o in opts if o.startswith("!")), "")
    row_label = next((o[1:] for o in opts if o.startswith("#")), "")
    kw = dict(o.split("=", 1) for o in opts if "=" in o and not o.startswith("!"))
    torch_ints = False
    if form == "torch":
        values = [T.value(f"{head}[{r},{c}]") for row in grid for r, c in row]
        torch_ints = all(isinstance(v, Fraction) and v.denominator == 1 for v in values)
        cellfmt = "i." if torch_ints else cellfmt
    cells: list[list[Literal]] = []
    for row in grid:
        out = []
        for r, c in row:
            suffix = overrides.get((r, c), "")
            spec = f"{head}[{r},{c}]:{cellfmt}"
            cell_auto = auto.replace("*", str(r))
            if row_label and c == row[0][1] and "#" not in suffix:
                cell_auto = (
                    cell_auto.replace("<", f"#{row_label}{r}<")
                    if "<" in cell_auto
                    else (cell_auto + f"#{row_label}{r}")
                )
            spec += suffix if suffix else cell_auto
            out.append(render_cell(spec, case))
        cells.append(out)
    return layout(form, cells, kw)


def layout(form: str, cells: list[list[Literal]], kw: dict) -> list:
    pieces: list[str | Literal] = []
    n = len(cells)
    if form == "bm":
        for i, row in enumerate(cells):
            for j, cell in enumerate(row):
                pieces += [cell] + ([" & "] if j < len(row) - 1 else [])
            if i < n - 1:
                pieces.append(" \\\\ ")
    elif form in ("py", "list", "pyrow"):
        if form == "py":
            pieces.append("[" if n > 1 else "")
        for i, row in enumerate(cells):
            if form != "list":
                pieces.append("[")
            for j, cell in enumerate(row):
                pieces += [cell] + ([", "] if j < len(row) - 1 else [])
            if form != "list":
                pieces.append("]")
            if i < n - 1:
                pieces.append(", ")
        if form == "py" and n > 1:
            pieces.append("]")
    elif form == "torch":
        width = max(len(c.text) for row in cells for c in row)
        pieces.append("tensor([" if n > 1 else "tensor(")
        for i, row in enumerate(cells):
            pieces.append("[")
            for j, cell in enumerate(row):
                pieces += [" " * (width - len(cell.text)), cell] + ([", "] if j < len(row) - 1 else [])
            pieces.append("]")
            if i < n - 1:
                pieces.append(",\n        ")
        pieces.append("]" if n > 1 else "")
        for key in ("grad", "dtype", "device"):
            if key in kw:
                value = f"<{kw[key]}>" if key == "grad" else kw[key]
                pieces.append(f", {'grad_fn' if key == 'grad' else key}={value}")
        pieces.append(")")
    elif form in ("np", "nparr"):
        ints = max(len(c.text.split(".")[0]) for row in cells for c in row)
        fracs = max(len(c.text.split(".")[1]) if "." in c.text else 0 for row in cells for c in row)
        sep = ", " if form == "nparr" else " "
        lead = "array(" if form == "nparr" else ""
        pieces.append(lead + ("[[" if n > 1 else "["))
        for i, row in enumerate(cells):
            for j, cell in enumerate(row):
                ip, _, fp = cell.text.partition(".")
                pieces += [" " * (ints - len(ip)), cell, " " * (fracs - len(fp))]
                if j < len(row) - 1:
                    pieces.append(sep)
            if i < n - 1:
                pieces.append("]" + ("," if form == "nparr" else "") + "\n" + " " * len(lead) + " [")
        pieces.append("]]" if n > 1 else "]")
        if form == "nparr":
            if "dtype" in kw:
                pieces.append(f", dtype={kw['dtype']}")
            pieces.append(")")
    else:
        raise TemplateError(f"unknown block {form}")
    return pieces


# --- documents ------------------------------------------------------------------------


def parse_meta(lines: list[str]) -> tuple[dict, int]:
    meta: dict = {"comment": []}
    for k, line in enumerate(lines):
        if not line.startswith("%%"):
            raise TemplateError("missing %% --- after the header")
        body = line[2:].strip()
        if body == "---":
            return meta, k + 1
        key, _, val = body.partition("=")
        key, val = key.strip(), val.strip()
        if key == "comment":
            meta["comment"].append(val)
        else:
            meta[key] = val
    raise TemplateError("no header end")


def build(src: Path) -> Doc:
    raw = src.read_text(encoding="utf-8").splitlines(keepends=True)
    meta, start = parse_meta([line.rstrip("\n") for line in raw])
    body = "".join(raw[start:])
    case = meta.get("case", "a")
    doc = Doc(src.name, meta)
    out: list[str] = []
    length = 0
    mode = ""  # "" plain, "%" percent-encoded URL, "&" codecogs &space; URL

    def emit(piece: str) -> None:
        nonlocal length
        if mode == "%":
            piece = urllib.parse.quote(piece, safe="")
        elif mode == "&":
            piece = piece.replace(" ", "&space;")
        out.append(piece)
        length += len(piece)

    for token in TOKEN.finditer(body):
        if token.group("mode"):
            mark = token.group("mode")
            mode = {"⟪": "%", "⟬": "&"}.get(mark, "")
            continue
        if token.group("plain") is not None:
            emit(token.group("plain"))
            continue
        inner = token.group("mark")
        try:
            pieces = render_block(inner, case) if inner.startswith("@") else [render_cell(inner, case)]
        except (TemplateError, KeyError, ValueError, AssertionError, IndexError) as err:
            line = body[: token.start()].count("\n") + start + 1
            raise TemplateError(f"{src.name}: template line {line}: {inner!r}: {err}") from None
        for piece in pieces:
            if isinstance(piece, Literal):
                if mode == "%" and urllib.parse.quote(piece.text, safe="") != piece.text:
                    raise TemplateError(f"{src.name}: {piece.text} changes when URL-encoded")
                piece.offset = length
                doc.literals.append(piece)
                out.append(piece.text)
                length += len(piece.text)
            else:
                emit(piece)
    doc.text = "".join(out)
    assert not re.search("[⟦⟧⟪⟫⟬⟭]", doc.text), src
    starts = [0] + [k + 1 for k, ch in enumerate(doc.text) if ch == "\n"]
    import bisect

    labels: dict[str, int] = {}
    for lit in doc.literals:
        li = bisect.bisect_right(starts, lit.offset) - 1
        lit.line, lit.column = li + 1, lit.offset - starts[li] + 1
        if lit.label:
            if lit.label in labels:
                raise TemplateError(f"{src.name}: label {lit.label} twice")
            labels[lit.label] = lit.line
    for lit in doc.literals:
        if lit.kind in ("carried", "rounding-carried"):
            if lit.src not in labels:
                raise TemplateError(f"{src.name}: unknown label {lit.src}")
            lit.src = labels[lit.src]
            if lit.src > lit.line:
                raise TemplateError(f"{src.name}: {lit.text} carried from a later line")
    return doc


def expect_toml(doc: Doc) -> str:
    findings = [lit for lit in doc.literals if lit.kind]
    control = doc.meta.get("control", "false") == "true"
    if control and findings:
        raise TemplateError(f"{doc.name}: a control with planted errors")
    if not control and not findings:
        raise TemplateError(f"{doc.name}: a planted document without errors")
    readers = [r.strip() for r in doc.meta["readers"].split(",")]
    out = [f"# {c}" for c in doc.meta["comment"]]
    out.append("# Generated by _build.py from _src/" + doc.name + "; every number comes from _truth.py.")
    out.append(f"control = {'true' if control else 'false'}")
    out.append("readers = [" + ", ".join(f'"{r}"' for r in readers) + "]")
    out.append(f'language = "{doc.meta["lang"]}"')
    out.append(f"results = {sum(1 for lit in doc.literals if lit.result)}")
    out.append(f"exit = {1 if findings else 0}")
    out.append(f"wrong = {len(findings)}")
    for lit in findings:
        out += ["", "[[finding]]", f"line = {lit.line}", f"column = {lit.column}", f'claimed = "{lit.text}"']
        out.append(f'kind = "{lit.kind}"')
        if lit.kind in ("carried", "rounding-carried"):
            out.append(f"carried_from = {lit.src}")
        out.append(f'truth = "{lit.truth}"')
    for lit in doc.literals:
        if lit.note:
            out += ["", "[[note]]", f"line = {lit.line}", f"column = {lit.column}", f'claimed = "{lit.text}"']
            out.append(f'kind = "{lit.note}"')
            out.append(f'truth = "{lit.truth}"')
    return "\n".join(out) + "\n"


def outputs() -> dict[str, str]:
    files: dict[str, str] = {}
    for src in sorted(SRC.iterdir()):
        if src.suffix not in (".md", ".txt", ".tex"):
            continue
        doc = build(src)
        files[src.name] = doc.text
        files[src.stem + ".expect.toml"] = expect_toml(doc)
    return files


def main(argv: list[str]) -> int:
    try:
        files = outputs()
    except TemplateError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    stale = [
        name
        for name, text in files.items()
        if not (HERE / name).exists() or (HERE / name).read_text(encoding="utf-8") != text
    ]
    if "--check" in argv:
        for name in stale:
            print(f"stale: {name}")
        return 1 if stale else 0
    for name in stale:
        (HERE / name).write_text(files[name], encoding="utf-8")
        print(f"wrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


def strays(doc: Doc) -> list[tuple[int, int, str]]:
    """Numbers in the document that no marker printed (inputs, indices, prose): for review."""
    marked = {lit.offset for lit in doc.literals}
    out = []
    starts = [0] + [k + 1 for k, ch in enumerate(doc.text) if ch == "\n"]
    import bisect

    for m in re.finditer(r"(?<![\w.])\d+(?:\.\d+)?", doc.text):
        if m.start() in marked:
            continue
        li = bisect.bisect_right(starts, m.start()) - 1
        out.append((li + 1, m.start() - starts[li] + 1, m.group()))
    return out
