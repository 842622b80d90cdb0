"""Build the block-corpus documents and their expectations from templates in ``_src/``.

Run ``python tests/block_corpus/_build.py`` to (re)write ``NAME.md|.txt|.tex`` and
``NAME.expect.toml`` here from ``_src/NAME.*``; ``--check`` only compares (exit 1 when
something is stale).  Adapted from ``tests/corpus/_build.py`` (issue 8/9) for the
stages of issue 11.

A template is the document as its author wrote it, with every number that is not a
given input written as a marker ``⟦…⟧`` naming the quantity it stands for; the number
comes from ``_truth.py``.  The build knows where each marker lands (line and column),
so the expectations are never counted by hand, and it refuses a marker that does not
fit what it declares:

``⟦REF[:FMT][~TRUTH][=TEXT][!KIND][#LABEL][<FROM][^FLAG]⟧``

- ``REF``: ``case.STAGE[r,c]`` (1-based; ``STAGE[r,c]`` uses the document's case),
  ``case.STAGE[r]`` (one entry of a column or a row), ``x.NAME`` (a scalar of
  ``_truth.SCALARS``) or ``lit`` (with ``=TEXT``).  It is the value the author's own
  numbers give (the world (a) value for a variant case).
- ``FMT``: ``2``/``3``/``4``… places rounded half away from zero, ``t2`` truncated,
  ``i`` exact integer, ``i.`` integer as ``2.``, ``g`` exact decimal, ``f64_4`` NumPy's
  text of a float64 at 4 places at most (trailing zeros dropped).
- ``~TRUTH``: the true quantity the number claims (default: REF, or for a variant case
  the same cell of the case it varies).
- ``=TEXT``: the printed text when it is not REF formatted (a planted slip; or REF is a variant
  whose ``sets`` holds the slip).
- ``!KIND``: ``wrong`` (a planted wrong number: a one-digit slip), ``rounding`` (the
  truth truncated), ``carried`` (FROM needed), ``auto`` (carried from FROM when it
  differs from the truth at its places, else ok), ``conv`` (a number of a variant case
  computed under another convention: a ``wrong`` finding with ``fits`` = the variant's
  convention when it differs from the truth at its places, else ok), ``convauto`` (a later
  stage computed from a convention block, X + PE: ``carried`` from FROM with ``fits`` when it
  differs, else ok), ``op`` (a
  restatement of a given input: not a result).
- ``#LABEL``: names the marker's line for a later ``<LABEL``.
- ``^trunc``: a planted wrong/carried number allowed to equal the truncation of its truth.

Blocks: ``⟦@FORM REF FMT [opt ...] [| r,c SUFFIX; …]⟧`` print a whole matrix (``REF`` =
``case.STAGE`` or ``case.STAGE[r]`` for one row): ``bm`` (LaTeX ``a & b \\\\ c & d``),
``py`` (``[[a, b], [c, d]]``), ``list`` (``a, b, c``), ``torch`` (PyTorch repr; opt
``grad=NAME``), ``np`` (NumPy str), ``tab`` (Markdown table rows ``| LABEL | a | b |``;
opt ``labels=0,1,2``).  Options ``!auto<LABEL`` (``*`` becomes the row number),
``!conv``, ``!convauto<LABEL`` and ``#LABEL`` (one label per row: ``LABEL1``, ``LABEL2``) apply to each cell.
"""

from __future__ import annotations

import bisect
import importlib.util
import re
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).parent


def _load_truth():
    """This directory's ``_truth.py`` by path (tests/corpus has a module of the same name)."""
    name = "block_corpus_truth"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, HERE / "_truth.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


T = _load_truth()
SRC = HERE / "_src"
TOKEN = re.compile(r"⟦(?P<mark>.*?)⟧|(?P<plain>[^⟦]+)", re.S)
CELL = re.compile(
    r"^(?P<ref>[^:~=!#<^]+)(?::(?P<fmt>[^~=!#<^]+))?(?:~(?P<truth>[^=!#<^]+))?(?:=(?P<text>[^!#<^]+))?"
    r"(?:!(?P<kind>[a-z-]+))?(?:#(?P<label>\w+))?(?:<(?P<src>\w+))?(?:\^(?P<flag>\w+))?$"
)
PLANTED = {"wrong", "rounding", "carried"}
FITS = {
    "concatenated layout",
    "interleaved layout",
    "positions from 1",
    "positions from 0",
    "sample variance",
    "population variance",
    "eps = 0",
    "base 10000",
}


class TemplateError(Exception):
    pass


@dataclass
class Literal:
    offset: int
    text: str
    kind: str | None  # planted kind, None for ok
    label: str | None
    src: str | int | None
    result: bool
    truth_ref: str = ""
    world_ref: str | None = None  # the _truth.py value the author computed (carried, fits)
    fits: str | None = None
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
    if spec == "g":
        return T.exact_decimal(v)
    if spec.startswith("f64"):
        return T.f64_text(v, int(spec[4:] or 8))
    raise TemplateError(f"unknown format {spec!r}")


def claim_ok(text: str, truth: T.Value, spec: str) -> bool:
    """Whether ``text`` is a correct claim of ``truth`` (its printed places, rounded half away from zero)."""
    if text.endswith("."):
        return Fraction(int(text[:-1])) == truth
    if spec in ("i", "g"):
        return Fraction(text) == truth
    return T.rnd(truth, places_of(text)) == text.replace("−", "-")


def _is_truncation(text: str, truth: T.Value) -> bool:
    if "." not in text or text.endswith("."):
        return False
    try:
        return T.trunc(truth, places_of(text)) == text
    except ValueError:
        return False


def full_ref(ref: str, case: str) -> str:
    if ref == "lit" or "." in ref.split("[", maxsplit=1)[0]:
        return ref
    return f"{case}.{ref}"


def truth_ref(ref: str) -> str:
    owner, _, rest = ref.partition(".")
    if owner in {"x", "lit"}:
        return ref
    base = T.CASES[owner].truth_of
    return f"{base}.{rest}" if base else ref


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
    tref = full_ref(g["truth"].strip(), case) if g["truth"] else truth_ref(ref)
    truth = None if tref == "lit" else T.value(tref)
    ok = True if truth is None else claim_ok(text, truth, form)
    fits = None
    if kind == "auto":
        kind = None if ok else "carried"
    elif kind in ("conv", "convauto"):
        fits = T.CASES[ref.partition(".")[0]].fits
        if fits not in FITS:
            raise TemplateError(f"{spec}: {ref} is not a convention variant")
        if g["text"] is not None:
            raise TemplateError(f"{spec}: a convention number is its variant's own value")
        kind = None if ok else ("wrong" if kind == "conv" else "carried")
        fits = fits if kind else None
    if kind in (None, "op"):
        if not ok:
            raise TemplateError(f"{spec}: prints {text} but the truth {tref} is {fmt(truth, form)}")
    elif kind in PLANTED:
        if ok:
            raise TemplateError(f"{spec}: planted {kind} but {text} is right")
        if kind == "rounding" and text != T.trunc(truth, places_of(text)):
            raise TemplateError(f"{spec}: {text} is not the truncation of {tref}")
        if kind == "carried":
            if not g["src"]:
                raise TemplateError(f"{spec}: carried needs <FROM")
            if own is None or text != fmt(own, form):
                raise TemplateError(f"{spec}: carried {text} is not its world (a) value {ref}")
        if kind == "wrong" and not fits and g["text"] is None and not T.CASES[ref.partition(".")[0]].sets:
            raise TemplateError(f"{spec}: a planted wrong number needs =TEXT or a variant that sets it")
    else:
        raise TemplateError(f"{spec}: unknown kind {kind}")
    if kind in PLANTED and kind != "rounding" and g["flag"] != "trunc" and _is_truncation(text, truth):
        raise TemplateError(f"{spec}: planted {kind} {text} is also the truncation of the truth (ambiguous)")
    world = ref if kind == "carried" or fits else None
    lit = Literal(0, text, kind, g["label"], g["src"], kind != "op", tref, world, fits)
    return lit


# --- blocks -------------------------------------------------------------------------------


def _grid(ref: str, case: str) -> tuple[str, list[list[tuple[int, int]]]]:
    ref = full_ref(ref, case)
    head, _, idx = ref.partition("[")
    base = T.value(head)
    rows = range(1, len(base) + 1) if not idx else [int(idx.rstrip("]"))]
    return head, [[(r, c) for c in range(1, len(base[0]) + 1)] for r in rows]


def render_block(body: str, case: str) -> list:
    main, _, over = body.partition("|")
    words = main.split()
    form, ref, cellfmt, opts = words[0][1:], words[1], words[2], words[3:]
    head, grid = _grid(ref, case)
    overrides: dict[tuple[int, int], str] = {}
    for item in filter(None, (o.strip() for o in over.split(";"))):
        pos, suffix = re.match(r"(\d+,\d+)\s*(.*)", item).groups()
        r, c = (int(p) for p in pos.split(","))
        overrides[(r, c)] = suffix
    auto = next((o for o in opts if o.startswith("!")), "")
    row_label = next((o[1:] for o in opts if o.startswith("#")), "")
    kw = dict(o.split("=", 1) for o in opts if "=" in o and not o.startswith("!"))
    if form == "torch":
        values = [T.value(f"{head}[{r},{c}]") for row in grid for r, c in row]
        if all(isinstance(v, Fraction) and v.denominator == 1 for v in values):
            cellfmt = "i."
        _torch_fixed(values)
    cells: list[list[Literal]] = []
    for row in grid:
        out = []
        for r, c in row:
            spec = f"{head}[{r},{c}]:{cellfmt}"
            cell_auto = auto.replace("*", str(r))
            if row_label and c == row[0][1]:
                cell_auto = (
                    cell_auto.replace("<", f"#{row_label}{r}<")
                    if "<" in cell_auto
                    else cell_auto + f"#{row_label}{r}"
                )
            spec += overrides.get((r, c)) or cell_auto
            out.append(render_cell(spec, case))
        cells.append(out)
    return layout(form, cells, kw)


def _torch_fixed(values: list) -> None:
    """PyTorch prints 4 fixed places only when the nonzero magnitudes span less than 10^3 (else e-notation)."""
    mags = [abs(T.to_mpf(v)) for v in values if v != 0]
    if mags and (max(mags) / min(mags) > 1000 or min(mags) < T.mpf("1e-4") or max(mags) >= 1e8):
        raise TemplateError("PyTorch would print this tensor in scientific notation")


def layout(form: str, cells: list[list[Literal]], kw: dict) -> list:
    pieces: list[str | Literal] = []
    n = len(cells)
    if form == "bm":
        for i, row in enumerate(cells):
            for j, cell in enumerate(row):
                pieces += [cell] + ([" & "] if j < len(row) - 1 else [])
            if i < n - 1:
                pieces.append(" \\\\ ")
    elif form in ("py", "list"):
        if form == "py" and n > 1:
            pieces.append("[")
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
    elif form == "tab":
        labels = kw.get("labels", ",".join(str(k) for k in range(1, n + 1))).split(",")
        for i, row in enumerate(cells):
            pieces.append(f"| {labels[i]} |")
            for cell in row:
                pieces += [" ", cell, " |"]
            if i < n - 1:
                pieces.append("\n")
    elif form == "torch":
        width = max(len(c.text) for row in cells for c in row)
        pieces.append("tensor([")
        for i, row in enumerate(cells):
            pieces.append("[")
            for j, cell in enumerate(row):
                pieces += [" " * (width - len(cell.text)), cell] + ([", "] if j < len(row) - 1 else [])
            pieces.append("]")
            if i < n - 1:
                pieces.append(",\n        ")
        pieces.append("]")
        if "grad" in kw:
            pieces.append(f", grad_fn=<{kw['grad']}>")
        pieces.append(")")
    elif form == "np":
        ints = max(len(c.text.split(".")[0]) for row in cells for c in row)
        fracs = max(len(c.text.split(".")[1]) if "." in c.text else 0 for row in cells for c in row)
        pieces.append("[[" if n > 1 else "[")
        for i, row in enumerate(cells):
            for j, cell in enumerate(row):
                ip, _, fp = cell.text.partition(".")
                pieces += [" " * (ints - len(ip)), cell, " " * (fracs - len(fp))]
                if j < len(row) - 1:
                    pieces.append(" ")
            if i < n - 1:
                pieces.append("]\n [")
        pieces.append("]]" if n > 1 else "]")
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
    case = meta.get("case", "")
    doc = Doc(src.name, meta)
    out: list[str] = []
    length = 0
    for token in TOKEN.finditer(body):
        if token.group("plain") is not None:
            out.append(token.group("plain"))
            length += len(token.group("plain"))
            continue
        inner = token.group("mark")
        try:
            pieces = render_block(inner, case) if inner.startswith("@") else [render_cell(inner, case)]
        except (TemplateError, KeyError, ValueError, AssertionError, IndexError) as err:
            line = body[: token.start()].count("\n") + start + 1
            raise TemplateError(f"{src.name}: template line {line}: {inner!r}: {err}") from None
        for piece in pieces:
            if isinstance(piece, Literal):
                piece.offset = length
                doc.literals.append(piece)
                text = piece.text
            else:
                text = piece
            out.append(text)
            length += len(text)
    doc.text = "".join(out)
    if re.search("[⟦⟧]", doc.text):
        raise TemplateError(f"{src.name}: an unclosed marker")
    starts = [0] + [k + 1 for k, ch in enumerate(doc.text) if ch == "\n"]
    labels: dict[str, int] = {}
    for lit in doc.literals:
        li = bisect.bisect_right(starts, lit.offset) - 1
        lit.line, lit.column = li + 1, lit.offset - starts[li] + 1
        if lit.label:
            if lit.label in labels:
                raise TemplateError(f"{src.name}: label {lit.label} twice")
            labels[lit.label] = lit.line
    for lit in doc.literals:
        if lit.kind == "carried":
            if lit.src not in labels:
                raise TemplateError(f"{src.name}: unknown label {lit.src}")
            lit.src = labels[lit.src]
            if lit.src > lit.line:
                raise TemplateError(f"{src.name}: {lit.text} carried from a later line")
    return doc


def truth_text(lit: Literal) -> str:
    """The true value as a decimal: exact (at the claim's places at least) when it terminates within 8 places,
    else 4 places beyond the claim (6 at least)."""
    v = T.value(lit.truth_ref)
    if isinstance(v, Fraction) and (v * 10**8).denominator == 1:
        exact = T.exact_decimal(v)
        return exact if places_of(exact) >= places_of(lit.text) else T.rnd(v, places_of(lit.text))
    return T.rnd(v, max(places_of(lit.text) + 4, 6))


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
        if lit.kind == "carried":
            out.append(f"carried_from = {lit.src}")
        if lit.fits:
            out.append(f'fits = "{lit.fits}"')
        out.append(f'truth = "{truth_text(lit)}"')
        out.append(f'truth_ref = "{lit.truth_ref}"')
        if lit.world_ref:
            out.append(f'world = "{lit.world_ref}"')
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


def strays(doc: Doc) -> list[tuple[int, int, str]]:
    """Numbers in the document that no marker printed (inputs, indices, prose): for review."""
    marked = {lit.offset for lit in doc.literals}
    starts = [0] + [k + 1 for k, ch in enumerate(doc.text) if ch == "\n"]
    out = []
    for m in re.finditer(r"(?<![\w.])\d+(?:\.\d+)?", doc.text):
        if m.start() in marked or m.start() - 1 in marked:
            continue
        li = bisect.bisect_right(starts, m.start()) - 1
        out.append((li + 1, m.start() - starts[li] + 1, m.group()))
    return out


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
    if "--strays" in argv:
        for src in sorted(SRC.iterdir()):
            for line, col, text in strays(build(src)):
                print(f"{src.name}:{line}:{col}: {text}")
        return 0
    for name in stale:
        (HERE / name).write_text(files[name], encoding="utf-8")
        print(f"wrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
