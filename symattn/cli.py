"""The ``symattn`` command: ``main(argv) -> int`` with ``build_parser()``.

Heavy modules (SymPy, the renderers, the verifier) are imported inside the
command functions, so ``symattn --help`` starts instantly.  Every
:class:`~symattn.errors.SymattnError` becomes one line on stderr and exit
code 2, in one place (:func:`main`); output files are written only after
everything succeeded, through a temporary file and a rename.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any, NoReturn

from symattn import __version__
from symattn.files import write_atomically

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse, with usage errors as one ``symattn: error:`` line and exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_ERROR, f"symattn: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = _Parser(
        prog="symattn",
        description="Derive transformer self-attention exactly, and check the numbers documents print about it.",
    )
    parser.add_argument("--version", action="version", version=f"symattn {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    derive = sub.add_parser(
        "derive",
        help="write a step-by-step derivation (Markdown, LaTeX or JSON)",
        description="Write the step-by-step derivation of a spec (default: the built-in reference example).",
    )
    derive.add_argument("spec", nargs="?", help="a TOML spec (default: the built-in reference example)")
    derive.add_argument(
        "--lang", choices=("en", "zh"), default="en", help="language of the prose (default: en)"
    )
    derive.add_argument(
        "--format", choices=("md", "tex", "json"), default="md", help="output format (default: md)"
    )
    derive.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    derive.add_argument(
        "--digits", type=_places, default=4, metavar="N", help="decimal places shown (default: 4)"
    )
    derive.add_argument("--standalone", action="store_true", help="with --format tex: a complete document")
    derive.add_argument(
        "--sections",
        metavar="LIST",
        help="what to include besides the computation, comma-separated: analysis, importance, all "
        "(default: the spec's sections, else importance only for 3 tokens or fewer and one head)",
    )
    derive.add_argument(
        "--full",
        action="store_true",
        help="derive a spec larger than the size policy allows (more than 16 tokens or columns, 8 heads)",
    )
    derive.set_defaults(run=_run_derive)

    compute = sub.add_parser(
        "compute",
        help="print every stage's certified decimals",
        description="Print each stage of a spec (default: the reference example) with certified decimals.",
    )
    compute.add_argument("spec", nargs="?", help="a TOML spec (default: the built-in reference example)")
    compute.add_argument("--digits", type=_places, default=6, metavar="N", help="decimal places (default: 6)")
    compute.add_argument(
        "--engine",
        choices=("auto", "exact", "balls"),
        default="auto",
        help="block specs: exact SymPy closed forms, or certified arb balls (rational inputs; fast for large "
        "layers); auto: balls above 16 tokens or columns (default: auto)",
    )
    compute.set_defaults(run=_run_compute)

    verify = sub.add_parser(
        "verify",
        help="check the numbers of Markdown or LaTeX documents",
        description=(
            "Recompute every attention number documents print. Exit 0: all hold; 1: some are wrong "
            "(or, with --strict, nothing could be checked or a printed result was not checked); "
            "2: a path cannot be read."
        ),
    )
    verify.add_argument(
        "documents",
        nargs="+",
        metavar="PATH",
        help="files (.md, .markdown, .txt: Markdown; .tex: LaTeX), directories (searched recursively), "
        "globs, or - for standard input",
    )
    verify.add_argument(
        "--format",
        choices=("text", "json", "md", "github", "sarif", "rdjsonl", "short", "html"),
        default="text",
        help="report format (default: text; html: the document with its numbers marked, one file)",
    )
    verify.add_argument(
        "-j", "--jobs", type=_jobs, metavar="N", help="files verified side by side (default: the CPUs)"
    )
    verify.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 also when no number was checked or a printed result stayed unverified",
    )
    verify.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    verify.add_argument(
        "--lang", choices=("en", "zh"), help="language of the report (default: the settings', or en)"
    )
    _reading_options(verify)
    verify.add_argument(
        "--show-read",
        action="store_true",
        help="list each formula as it was read (reader, place, text in the core grammar) and stop",
    )
    verify.add_argument(
        "--explain",
        action="store_true",
        help="say what each printed block was identified with, under which hypothesis, and why the rest stayed open",
    )
    _linter_options(verify)
    verify.set_defaults(run=_run_verify)

    _add_fix(sub)

    imp = sub.add_parser(
        "importance",
        help="write each token's certified importance (a fixture for attribution libraries)",
        description=(
            "Compute every importance measure of a spec (default: the reference example) exactly and "
            "print or write it: certified decimals (text), or the inputs and every measure as certified "
            "intervals (json, npz; see docs/importance.md). Tokens are counted from 1 here, as"
            " verify counts cells; the arrays of json and npz are 0-based, as arrays are."
        ),
    )
    imp.add_argument("spec", nargs="?", help="a TOML spec (default: the built-in reference example)")
    imp.add_argument(
        "-m",
        "--method",
        action="append",
        choices=_importance_methods(),
        metavar="M",
        help="a measure, repeatable: " + ", ".join(_importance_methods()) + " (default: all that apply)",
    )
    imp.add_argument(
        "--jacobian",
        action="append",
        type=_index_pair,
        metavar="I,J",
        help="also write the Jacobian block d output I / d token J (counted from 1), repeatable; 'all' for every block",
    )
    imp.add_argument(
        "--target",
        metavar="W",
        help="grad_input's linear target w, comma-separated exact numbers (default: the squared norm)",
    )
    imp.add_argument(
        "--format", choices=("text", "json", "npz"), default="text", help="output format (default: text)"
    )
    imp.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout (npz: required)")
    imp.add_argument(
        "--digits",
        "--places",
        dest="places",
        type=_places,
        metavar="N",
        action=_Renamed,
        help="decimal places (default: 6 for text, 30 for json and npz); --places is the old name",
    )
    imp.set_defaults(run=_run_importance)

    regen = sub.add_parser(
        "regen",
        help="regenerate the derivations/ directory",
        description="Regenerate every DIR/*.toml derivation in English and Chinese (.md and .tex).",
    )
    regen.add_argument("directory", nargs="?", default="derivations", help="default: derivations")
    regen.add_argument("--check", action="store_true", help="only compare; exit 1 if a file differs")
    regen.set_defaults(run=_run_regen)
    return parser


class _Renamed(argparse.Action):
    """An option with a new name (the first) whose old names still work, with a warning."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option: str | None = None,
    ) -> None:
        if option is not None and option != self.option_strings[0]:
            print(
                f"symattn: warning: {option} is deprecated; use {self.option_strings[0]}",
                file=sys.stderr,
            )
        setattr(namespace, self.dest, values)


def _bounded(what: str, convert: type, low: int, high: int, *, expected: str) -> Any:
    """An argparse type: ``convert(text)`` within [low, high], or a one-line usage error."""

    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
        if not low <= value <= high:  # for floats this also refuses nan and inf
            shown = value if convert is int else text
            raise argparse.ArgumentTypeError(f"{what} must be between {low} and {high}, got {shown}")
        return value

    return parse


_jobs = _bounded("jobs", int, 1, 256, expected="a whole number of jobs")
_places = _bounded("places", int, 0, 1000, expected="a whole number of places")
_seconds = _bounded("seconds", float, 0, 86400, expected="a number of seconds")


def _importance_methods() -> tuple[str, ...]:
    # the names only, without importing SymPy for --help (a test keeps them equal to importance.METHODS)
    return ("weights", "norm", "norm_output", "value_zeroing", "grad_input", "jacobian")


def _index_pair(text: str) -> tuple[int, int] | str:
    """``I,J`` (an output and a token, counted from 1) or ``all``: an argparse type for
    --jacobian; the pair it returns is 0-based, as the Python API's."""
    if text.strip() == "all":
        return "all"
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        i, j = int(parts[0]), int(parts[1])
        if i < 1 or j < 1:
            raise ValueError
        return i - 1, j - 1
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected I,J (an output and a token, counted from 1) or all, got {text!r}"
        ) from None


def _load(spec_path: str | None, lang: str = "en"):
    from symattn.examples import reference
    from symattn.spec import load_spec

    return reference(lang=lang) if spec_path is None else load_spec(spec_path)


def _emit(content: str | bytes, output: str | None) -> None:
    """Print text, or write FILE atomically, text or bytes (nothing is left behind on failure)."""
    if output is None:
        assert isinstance(content, str)  # bytes always go to a file (npz needs -o)
        sys.stdout.write(content if content.endswith("\n") else content + "\n")
        return
    from symattn.errors import InputError, MissingFileError

    target = Path(output)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise MissingFileError(f"{output}: directory {directory} does not exist")
    if target.is_dir():
        raise InputError(f"{output}: is a directory; name a file to write")
    try:
        write_atomically(target, content)
    except OSError as error:  # name the target, not the temporary file beside it
        raise InputError(f"{output}: cannot write ({error.strerror or error})") from None


def _run_derive(args: argparse.Namespace) -> int:
    from symattn.derivation import derive
    from symattn.errors import InputError

    if args.standalone and args.format != "tex":
        raise InputError(
            f"--standalone needs --format tex (a {args.format} derivation is always a whole document)"
        )
    spec = _load(args.spec, lang=args.lang)
    derivation = derive(spec, lang=args.lang, digits=args.digits, full=args.full, sections=args.sections)
    if args.format == "md" and args.output is not None:  # its pictures beside it, named after it
        target = Path(args.output)
        stem = target.name.removesuffix(".md") if target.name.endswith(".md") else target.name
        pictures = derivation.pictures(stem)
        _emit(derivation.to_markdown(pictures=stem if pictures else None), args.output)  # errors name it
        for name, svg in pictures.items():
            _emit(svg, str(target.with_name(name)))
        return EXIT_OK
    if args.format == "md":
        text = derivation.to_markdown()
    elif args.format == "tex":
        text = derivation.to_latex(standalone=args.standalone)
    else:
        text = derivation.to_json()
    _emit(text, args.output)
    return EXIT_OK


def _run_compute(args: argparse.Namespace) -> int:
    from symattn import registry
    from symattn.spec import BlockSpec

    spec = _load(args.spec)
    if isinstance(spec, BlockSpec):
        lines = _compute_block(spec, args.digits, args.engine)
        _emit("\n".join(lines), None)
        return EXIT_OK
    result = spec.run()
    if hasattr(result, "heads"):  # a MultiHead: each head's shown stages, then the block's
        shown = [d.name for d in registry.ATTENTION if d.shown and d.name in ("weights", "output")]
        names = [registry.head_name(k, s) for k in range(1, len(result.heads) + 1) for s in shown]
        names += [d.name for d in registry.MULTIHEAD]
    else:
        names = [name for name in result.stage_names if registry.stage(name).shown]
    _emit("\n".join(_stage_lines(result, names, args.digits)), None)
    return EXIT_OK


def _stage_lines(result: Any, names: list[str], digits: int) -> list[str]:
    from symattn.errors import NotNumericError

    lines = []
    for name in names:
        heading = name
        try:
            rows = result.decimals(name, digits)
        except NotNumericError:  # symbolic entries: the exact closed forms instead
            rows = [[str(entry) for entry in row] for row in result.matrix(name).tolist()]
            heading = f"{name} (exact; symbolic entries have no decimals)"
        lines.append(f"{heading}:")
        lines.extend("  [" + ", ".join(row) + "]" for row in rows)
    return lines


#: ``compute --engine auto`` uses arb balls for block specs with more tokens or columns than this
#: (derive's size policy: a worked example's closed forms stay readable up to 16).
BALLS_ABOVE = 16


def _compute_block(spec: Any, digits: int, engine: str) -> list[str]:
    """Every stage of a block spec (and the claims' verdicts): exact, or from arb balls."""
    from symattn import blockfast

    names = [name for name in spec.stage_names if name != "X"]
    if engine == "auto":
        rows = spec.X if isinstance(spec.X, list) else []
        wide = len(rows) > BALLS_ABOVE or any(isinstance(r, list) and len(r) > BALLS_ABOVE for r in rows[:1])
        engine = "balls" if wide else "exact"
    if engine == "exact":
        result = spec.run()
        lines = _stage_lines(result, names, digits)
        if spec.claims:
            lines.append("claims:")
            lines.extend(f"  {_claims_line(comparison)}" for comparison in spec.check(result))
        return lines
    with spec.errors_located():
        decimals, _ = blockfast.transformer_decimals(spec.X, places=digits, stages=names, **spec.stack)
        lines = []
        for name in names:
            lines.append(f"{name}:")
            lines.extend("  [" + ", ".join(row) + "]" for row in decimals[name])
        if spec.claims:
            lines.append("claims:")
            lines.extend(f"  {line}" for line in _ball_claims(spec))
    return lines


def _ball_claims(spec: Any) -> list[str]:
    """Claims judged on the ball path: a decimal claim with k places holds iff the certified
    decimal at k places equals it; an integer claim (exact equality) holds when its ball is that
    integer exactly, is wrong when its ball excludes it, and is otherwise left to --engine exact."""
    from sympy import Rational

    from symattn import blockfast
    from symattn.errors import ShapeError
    from symattn.exact import parse_claim

    claims = {
        name: [[parse_claim(str(v)) for v in row] for row in spec.claims[name]]
        for name in spec.stage_names
        if name in spec.claims
    }
    places = sorted(
        {c.places for rows in claims.values() for row in rows for c in row if c.places is not None}
    )
    at: dict[int, dict] = {}
    balls = None
    for p in places or [0]:
        at[p], balls = blockfast.transformer_decimals(spec.X, places=p, stages=list(claims), **spec.stack)
    lines = []
    for name, rows in claims.items():
        matrix = balls.stages[name]
        if (len(rows), len(rows[0])) != (matrix.nrows(), matrix.ncols()):
            raise ShapeError(
                f"claims.{name} is {len(rows)}×{len(rows[0])} but the true {name} matrix is "
                f"{matrix.nrows()}×{matrix.ncols()}"
            )
        wrong, undecided = [], 0
        for i, row in enumerate(rows):
            for j, c in enumerate(row):
                if c.places is not None:
                    true = at[c.places][name][i][j]
                    if Rational(true) != c.value:
                        wrong.append(f"[{i + 1},{j + 1}]: {c.text}, true {true}")
                    continue
                ball = matrix[i, j]
                if not ball.contains(int(c.value)):
                    wrong.append(f"[{i + 1},{j + 1}]: {c.text}, true {at[min(at)][name][i][j]}")
                elif not (ball.rad() == 0 and ball.mid() == int(c.value)):
                    undecided += 1
        total = sum(len(r) for r in rows)
        note = (
            f"; {undecided} integer claims undecided by balls (exact equality: --engine exact)"
            if undecided
            else ""
        )
        if wrong:
            more = ", …" if len(wrong) > 4 else ""
            lines.append(f"{name}: {total} entries, {len(wrong)} wrong ({'; '.join(wrong[:4])}{more}){note}")
        else:
            lines.append(f"{name}: {total} entries, all hold{note}")
    return lines


def _claims_line(comparison: Any) -> str:
    """One claimed stage's verdict: ``norm_1: 6 entries, 1 wrong ([1,2]: 0.70, true 0.7071)``."""
    total = sum(len(row) for row in comparison.cells)
    wrong = comparison.wrong
    if not wrong:
        return f"{comparison.name}: {total} entries, all hold"
    listed = "; ".join(
        f"[{c.row},{c.col}]: {c.claim.text}, true {c.decimal}"
        + (", cut instead of rounded" if c.kind == "rounding" else "")
        for c in wrong[:4]
    )
    more = ", …" if len(wrong) > 4 else ""
    return f"{comparison.name}: {total} entries, {len(wrong)} wrong ({listed}{more})"


def _attention_only(spec: Any, command: str) -> None:
    """derive and importance read attention specs; a block spec gets one line, not a traceback."""
    from symattn.errors import InputError
    from symattn.spec import BlockSpec

    if isinstance(spec, BlockSpec):
        raise InputError(
            f"{spec.source}: {command} does not read transformer-block specs ([[layers]], [positional]) yet; "
            f"symattn compute prints their stages"
        )


def _run_importance(args: argparse.Namespace) -> int:
    from symattn import fixture
    from symattn.errors import InputError

    if args.format == "npz" and args.output is None:
        raise InputError("--format npz writes a binary file; name it with --output FILE")
    spec = _load(args.spec)
    _attention_only(spec, "importance")
    jacobians = args.jacobian or []
    jacobians = "all" if "all" in jacobians else list(dict.fromkeys(jacobians))
    layer = spec.run()
    if jacobians != "all":  # the command counts from 1, so its bounds are said that way too
        from symattn.importance import sizes

        n_q, n_k = sizes(layer)
        for i, j in jacobians:
            if i >= n_q or j >= n_k:
                which, number, count = ("output", i, n_q) if i >= n_q else ("token", j, n_k)
                raise InputError(
                    f"--jacobian {i + 1},{j + 1}: {which} {number + 1} is out of range; "
                    f"there are {count} {which}s, counted from 1"
                )
    target = None if args.target is None else [part.strip() for part in args.target.split(",")]
    made = fixture.build(
        layer,
        args.method,
        jacobians=jacobians,
        target=target,
        places=fixture.DEFAULT_PLACES[args.format] if args.places is None else args.places,
        title=spec.title,
        source=spec.source,
    )
    if args.format == "npz":
        _emit(fixture.to_npz(made), args.output)
    else:
        _emit(fixture.to_json(made) if args.format == "json" else fixture.to_text(made), args.output)
    return EXIT_OK


def _reading_options(command: argparse.ArgumentParser) -> None:
    """How documents are read, the same for ``verify`` and ``fix``."""
    command.add_argument(
        "--timeout", type=_seconds, metavar="SECONDS", help="time limit per formula (default: 5)"
    )
    command.add_argument(
        "--budget", type=_seconds, metavar="SECONDS", help="time limit per document (default: 120)"
    )
    command.add_argument(
        "--read",
        metavar="READERS",
        help="readers to use, comma-separated: latex,code,text,tables,images (default: all)",
    )


def _settings_and_options(args: argparse.Namespace) -> tuple[Any, Any]:
    """The project's settings (``[tool.symattn]``, :mod:`symattn.settings`), and the
    :class:`~symattn.verify.VerifyOptions` of ``--timeout``, ``--budget`` and ``--read``, each
    from the settings where the command line leaves it."""
    from symattn.settings import find_settings
    from symattn.verify import VerifyOptions
    from symattn.verify.readers import ReadConfig

    settings = find_settings()
    limits = {
        "timeout": args.timeout if args.timeout is not None else settings.timeout,
        "budget": args.budget if args.budget is not None else settings.budget,
    }  # the defaults live in VerifyOptions
    options = VerifyOptions(**{name: value for name, value in limits.items() if value is not None})
    read = args.read if args.read is not None else settings.read
    if read is not None:
        options = dataclasses.replace(options, read=ReadConfig.parse(read))
    return settings, options


def _linter_options(verify: argparse.ArgumentParser) -> None:
    """``--quiet`` and ``--exit-zero``, as the linters a docs team already runs have them."""
    verify.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="text and md reports: only the documents with wrong numbers (or errors); nothing when all hold",
    )
    verify.add_argument(
        "--exit-zero",
        action="store_true",
        help="exit 0 even when numbers are wrong (2 still means a path cannot be read)",
    )


def _run_verify(args: argparse.Namespace) -> int:
    from symattn.verify.formats import render
    from symattn.verify.many import find_documents, verify_paths

    settings, options = _settings_and_options(args)
    if args.documents.count("-") > 1:
        raise _usage_error("verify: standard input (-) can be read only once")
    documents, errors = find_documents(args.documents)
    documents = [d for d in documents if not settings.excludes(d)]  # named ones too (pre-commit)
    lang, strict = args.lang or settings.lang or "en", args.strict or settings.strict
    if args.show_read:
        return _show_read(documents, errors, options)
    results = [error.result() for error in errors] + verify_paths(documents, jobs=args.jobs, options=options)
    for result in results:
        if result.error is not None:
            print(f"symattn: error: {result.error}", file=sys.stderr)
        elif (
            not args.quiet
            and result.report is not None
            and not any(f.status != "unverified" for f in result.report.findings)
        ):
            print(f"symattn: {result.path}: no number could be checked", file=sys.stderr)
    if args.explain:
        return _explained(results, args.format, args.output)
    reports = [result.report for result in results if result.report is not None]
    if args.quiet and args.format in ("text", "md"):  # the machine formats are whole documents
        results = [r for r in results if r.error is not None or (r.report is not None and r.report.exit_code)]
    report_text = render(results, args.format, lang) if results else ""
    if any(result.error is not None for result in results):
        if args.output is None and report_text:  # the files that were read; -o is written only after success
            _emit(report_text, None)
        return EXIT_ERROR
    if report_text or args.output:  # the CI formats print nothing when nothing is wrong
        _emit(report_text, args.output)
    failed = any(report.exit_code for report in reports) or (strict and _strict_failure(reports))
    return EXIT_FINDINGS if failed and not args.exit_zero else EXIT_OK


def _explained(results: list, fmt: str, output: str | None) -> int:
    """``verify --explain``: the explanation of each document, as text or JSON."""
    import json

    reports = [r.report for r in results if r.report is not None]
    if fmt == "json":
        data = [{"document": r.document, "explanation": r.explanation} for r in reports]
        text = (
            json.dumps({"schema": "symattn.explain/1", "documents": data}, ensure_ascii=False, indent=2)
            + "\n"
        )
    else:
        text = "".join(r.explain_text() for r in reports)
    if any(r.error is not None for r in results):
        return EXIT_ERROR
    _emit(text, output)
    return EXIT_FINDINGS if any(r.exit_code for r in reports) else EXIT_OK


def _show_read(documents: list[str], errors: list[str], options: object) -> int:
    """``verify --show-read``: what each reader understood, one formula a line."""
    from symattn.files import split_line_endings
    from symattn.verify.document import read_document
    from symattn.verify.readers import Locator, ReadingLimit, find_math

    lines = []
    for message in errors:
        print(f"symattn: error: {message}", file=sys.stderr)
    for path in documents:
        if path == "-":
            name, text, tex = "<stdin>", sys.stdin.read(), False
        else:
            name, text, tex = read_document(path)
        text = split_line_endings(text)[0]  # as verify reads it: a lone CR breaks a line
        locator = Locator(text)
        try:
            spans = find_math(text, tex=tex, config=options.read)  # type: ignore[attr-defined]
        except ReadingLimit as refusal:
            line, column = locator.position(refusal.offset)
            lines.append(f"{name}:{line}:{column}: {refusal.reason}")
            continue
        for span in spans:
            if span.reader == "scope":
                continue
            line, column = locator.position(span.source_offset(0))
            lines.append(f"{name}:{line}:{column}: [{span.reader}] {' '.join(span.text.split())}")
    _emit("\n".join(lines), None)
    return EXIT_ERROR if errors else EXIT_OK


#: Unverified kinds that are not printed results (inputs, operands, numbers tied to nothing, formulas).
_NOT_RESULTS = {"input", "operand", "no-claim", "formula", "suppressed"}  # suppressed: on purpose


def _strict_failure(reports: list) -> bool:
    """--strict: no number was checked at all, or a printed result stayed unverified."""
    findings = [f for report in reports for f in report.findings]
    if not any(f.status != "unverified" for f in findings):
        return True
    return any(f.status == "unverified" and f.kind not in _NOT_RESULTS for f in findings)


def _add_fix(sub: Any) -> None:
    """The ``fix`` subcommand's arguments."""
    fix = sub.add_parser(
        "fix",
        help="replace wrong numbers of documents by their true values",
        description=(
            "Replace each wrong number by its true value, keeping the document's style. "
            "Prints a unified diff unless --write. Exit 0: nothing to fix; 1: fixes shown or made "
            "(or wrong numbers left); 2: an error."
        ),
    )
    fix.add_argument("documents", nargs="+", metavar="PATH", help="files, directories or globs")
    fix.add_argument("--write", action="store_true", help="rewrite the files in place (atomically)")
    fix.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="also fix carried numbers, verifying again until nothing is left to fix",
    )
    fix.add_argument(
        "-j", "--jobs", type=_jobs, metavar="N", help="files fixed side by side (default: the CPUs)"
    )
    _reading_options(fix)
    fix.set_defaults(run=_run_fix)


def _fixed(documents: list[str], args: argparse.Namespace, options: Any) -> dict[str, Any]:
    """Each file's (result, error) from :func:`symattn.fix.fix_file`, ``-j`` files side by
    side; a file --write could not rewrite (read-only) is left out."""
    import os

    from symattn.fix import fix_file
    from symattn.verify.many import default_jobs, run_pool

    writable = [
        path
        for path in documents
        if not args.write
        or not os.path.exists(path)
        or (os.access(path, os.W_OK) and os.stat(path).st_mode & 0o222)
    ]
    arguments = [(path, args.unsafe_fixes, options) for path in writable]
    jobs = default_jobs() if args.jobs is None else args.jobs
    if jobs > 1 and len(arguments) > 1:  # reported in their order, whatever finished first
        done = run_pool(fix_file, arguments, min(jobs, len(arguments)))
        return {
            path: result or (None, f"{path}: the process fixing it stopped")
            for path, result in zip(writable, done, strict=True)
        }
    return {path: fix_file(*arguments[k]) for k, path in enumerate(writable)}


def _run_fix(args: argparse.Namespace) -> int:
    from symattn.verify.many import STDIN, find_documents

    if STDIN in args.documents:
        raise _usage_error("fix: name files to fix; standard input (-) is not supported")
    documents, errors = find_documents(args.documents)
    settings, options = _settings_and_options(args)
    documents = [d for d in documents if not settings.excludes(d)]
    failed = bool(errors)
    for message in errors:
        print(f"symattn: error: {message}", file=sys.stderr)
    needed = False
    total_edits = 0
    fixed = _fixed(documents, args, options)
    for path in documents:
        if path not in fixed:
            print(f"symattn: error: {path}: the file is read-only; not fixed", file=sys.stderr)
            failed = True
            continue
        result, error = fixed[path]
        if result is None:
            print(f"symattn: error: {error}", file=sys.stderr)
            failed = True
            continue
        needed = needed or result.needed
        notes = [f"{path}:{note}" for note in result.notes + result.remarks]
        if args.write or not result.changed:
            for note in notes:
                print(note, file=sys.stderr)
        if not result.changed:
            continue
        total_edits += len(result.edits)
        if args.write:
            bom = "\ufeff" if Path(path).read_bytes().startswith(b"\xef\xbb\xbf") else ""
            try:
                write_atomically(path, bom + result.fixed)
            except OSError as error:
                print(f"symattn: error: {path}: not written ({error.strerror})", file=sys.stderr)
                failed = True
                continue
            print(f"{path}: fixed {_count(len(result.edits), 'number')}", file=sys.stderr)
        else:  # what is left as it is, and why, heads the diff (patch skips lines before ---)
            sys.stdout.write("".join(f"# {note}\n" for note in notes) + result.diff())
    if not args.write and total_edits:
        fixes = "1 fix" if total_edits == 1 else f"{total_edits} fixes"
        print(f"{fixes} shown; run with --write to apply", file=sys.stderr)
    if failed:
        return EXIT_ERROR
    return EXIT_FINDINGS if needed else EXIT_OK


def _count(n: int, noun: str) -> str:
    """``1 number``, ``2 numbers``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _usage_error(message: str) -> Exception:
    from symattn.errors import InputError

    return InputError(message)


def _run_regen(args: argparse.Namespace) -> int:
    from symattn.derivation import regenerate
    from symattn.errors import MissingFileError

    if not Path(args.directory).is_dir():
        raise MissingFileError(f"{args.directory}: no such directory")
    if not any(Path(args.directory).glob("*.toml")):
        raise MissingFileError(f"{args.directory}: no *.toml specs to regenerate")
    changed = regenerate(args.directory, check=args.check)
    verb = "differs from a fresh generation" if args.check else "written"
    for path in changed:
        print(f"{path}: {verb}", file=sys.stderr if args.check else sys.stdout)
    return EXIT_FINDINGS if args.check and changed else EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code (0 ok, 1 findings, 2 errors)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # argparse's convention: usage on stderr, exit 2
        parser.print_usage(sys.stderr)
        print(f"{parser.prog}: error: a command is required (see {parser.prog} --help)", file=sys.stderr)
        return EXIT_ERROR
    from symattn.errors import SymattnError

    try:
        return args.run(args)
    except SymattnError as error:
        message = " ".join(str(error).split())
        print(f"symattn: error: {message}", file=sys.stderr)
        return EXIT_ERROR
    except OSError as error:
        print(f"symattn: error: {error.filename or ''}: {error.strerror}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("symattn: interrupted", file=sys.stderr)
        return 130
