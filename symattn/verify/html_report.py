"""``symattn verify DOC --format html``: the document itself, rendered, with every judged number
marked in place.

The document is untrusted input.  It is rendered with markdown-it-py with raw HTML turned off
(every ``<tag>`` of the document is shown as text), images are shown as their alt text (no
load), and only links markdown-it-py validates survive (no ``javascript:``).  Math is rendered
in the page by the KaTeX vendored in this package (``assets/katex``, inlined with its fonts:
the file opens offline and loads nothing), with ``trust`` limited to ``\\htmlClass`` and
``\\htmlData``, the two commands the marks use.

Marks are placed before rendering: each judged literal is wrapped, at its line and column,
in a pair of private-use characters around its finding's number (``\\ue000 12 \\ue001 0.3
\\ue002``), which no renderer touches.  After rendering, a mark in text becomes a ``<mark>``
element, and a mark in math becomes ``\\htmlClass{…}{\\htmlData{f=12}{0.3}}`` in the TeX that
KaTeX renders.  The findings travel as one JSON object in the page; a small script renders
the math, the tooltips (true value, exact form, kind, "carried from line N" as a link, the
fix ``symattn fix`` would make) and the side panel grouped by root cause.

Hand-written: no library renders a document with its numbers marked; markdown-it-py and
KaTeX do the rendering.
"""

from __future__ import annotations

import base64
import json
import re
from functools import cache
from html import escape
from importlib import resources

from symattn.errors import SymattnError
from symattn.verify.finding import Finding
from symattn.verify.report import Report
from symattn.verify.text import kind_text, reason_text

__all__ = ["html_report"]

_OPEN, _MID, _CLOSE = "\ue000", "\ue001", "\ue002"
_MARK = re.compile(f"{_OPEN}(\\d+){_MID}(.*?){_CLOSE}", re.S)
#: The math of a .tex source rendered in place: display environments, \[…\], $$…$$, \(…\), $…$.
_TEX_MATH = re.compile(
    r"\\begin\{(equation\*?|align\*?|gather\*?|multline\*?|displaymath)\}.*?\\end\{\1\}"
    r"|\\\[.*?\\\]|\$\$.*?\$\$|\\\(.*?\\\)|(?<!\\)\$(?!\$).+?(?<!\\)\$",
    re.S,
)

_WORDS = {
    "en": {
        "title": "symattn verify: {document}",
        "findings": "Findings",
        "show_ok": "show the numbers that hold",
        "show_unverified": "show the numbers not checked",
        "true": "true value",
        "exact": "exact",
        "kind": "kind",
        "fix": "symattn fix would write",
        "carried_from": "carried from line {line}",
        "root": "line {line}",
        "none": "No wrong numbers found.",
        "summary": "{claims} numbers: {ok} ok, {wrong} wrong, {unverified} not checked.",
    },
    "zh": {
        "title": "symattn 核验：{document}",
        "findings": "发现",
        "show_ok": "显示成立的数字",
        "show_unverified": "显示未核验的数字",
        "true": "真实值",
        "exact": "精确值",
        "kind": "类型",
        "fix": "symattn fix 会改为",
        "carried_from": "沿用自第 {line} 行",
        "root": "第 {line} 行",
        "none": "没有发现错误的数字。",
        "summary": "共 {claims} 个数字：{ok} 个正确，{wrong} 个错误，{unverified} 个未核验。",
    },
}

_STYLE = """
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#222;display:flex}
main{flex:1;max-width:52em;padding:1em 2em;overflow-wrap:anywhere}
aside{width:22em;height:100vh;position:sticky;top:0;overflow:auto;border-left:1px solid #ddd;
padding:1em;font-size:14px;background:#fafafa}
pre{background:#f4f4f4;padding:.6em;overflow:auto}
pre.sa-tex{white-space:pre-wrap}
mark.sa{background:none;color:inherit;border-radius:2px;cursor:help}
.sa-wrong{background:#ffd7d7 !important;outline:2px solid #c00;border-radius:2px}
.sa-carried{background:#ffefc2 !important;outline:1px dashed #b07000;border-radius:2px}
body.show-ok .sa-ok{background:#e2f5e2 !important}
body.show-unverified .sa-unverified{background:#eee !important;outline:1px dotted #888}
#sa-tip{position:absolute;display:none;max-width:28em;background:#fff;border:1px solid #888;
padding:.5em .7em;box-shadow:0 2px 8px rgba(0,0,0,.2);font-size:14px;z-index:10}
aside li{margin:.3em 0}
.sa-summary{font-weight:600}
"""

_SCRIPT = r"""
(function(){
var data=JSON.parse(document.getElementById('sa-data').textContent);
var F=data.findings, W=data.words;
var trust=function(c){return c.command==='\\htmlClass'||c.command==='\\htmlData';};
function tex(src){
  return src.replace(/\uE000(\d+)\uE001([\s\S]*?)\uE002/g,function(m,id,lit){
    var f=F[+id]; return '{\\htmlClass{sa sa-'+f.css+'}{\\htmlData{f='+id+'}{'+lit+'}}}';});
}
var errors=0;
document.querySelectorAll('.sa-math').forEach(function(el){
  var src=tex(el.textContent), display=el.classList.contains('sa-display');
  try{katex.render(src,el,{displayMode:display,throwOnError:true,trust:trust,strict:false,output:'html'});}
  catch(e){errors++;el.classList.add('sa-katex-error');el.setAttribute('data-error',String(e.message||e));el.textContent=el.textContent.replace(/[\uE000-\uE002]|\uE000\d+\uE001/g,'');}
});
document.body.setAttribute('data-katex-errors',String(errors));
document.body.setAttribute('data-render-ms',String(performance.now()));
document.querySelectorAll('[data-f]').forEach(function(el){
  var f=F[+el.getAttribute('data-f')];
  el.setAttribute('tabindex','0'); el.id='f'+el.getAttribute('data-f');
  if(f&&!document.getElementById('line-'+f.line)){  // "carried from line N" links here
    var a=document.createElement('a'); a.id='line-'+f.line; el.parentNode.insertBefore(a,el);}
});
var tip=document.getElementById('sa-tip');
function show(el){
  var f=F[+el.getAttribute('data-f')]; if(!f) return;
  var h='<b>'+f.claimed+'</b> · '+f.kind_text;
  if(f.value) h+='<br>'+W.true+': '+f.value;
  if(f.exact_tex) h+='<br>'+W.exact+': '+katex.renderToString(f.exact_tex,{throwOnError:false});
  else if(f.exact) h+='<br>'+W.exact+': <code>'+f.exact+'</code>';
  if(f.carried_from) h+='<br><a href="#line-'+f.carried_from+'">'+f.carried_text+'</a>';
  if(f.fix) h+='<br>'+W.fix+': <code>'+f.fix+'</code>';
  if(f.reason) h+='<br><i>'+f.reason+'</i>';
  tip.innerHTML=h; var r=el.getBoundingClientRect();
  tip.style.left=(window.scrollX+r.left)+'px'; tip.style.top=(window.scrollY+r.bottom+4)+'px';
  tip.style.display='block';
}
document.addEventListener('mouseover',function(e){var el=e.target.closest('[data-f]');if(el)show(el);});
document.addEventListener('focusin',function(e){var el=e.target.closest('[data-f]');if(el)show(el);});
document.addEventListener('mouseout',function(e){if(e.target.closest('[data-f]'))tip.style.display='none';});
function follow(){  // a link to a number (#f12, the panel's) focuses it and shows its finding
  var m=/^#f(\d+)$/.exec(location.hash); var el=m&&document.getElementById('f'+m[1]);
  if(el){el.focus(); show(el);}
}
window.addEventListener('hashchange',follow); follow();
['ok','unverified'].forEach(function(k){
  var box=document.getElementById('sa-show-'+k);
  box.addEventListener('change',function(){document.body.classList.toggle('show-'+k,box.checked);});
});
})();
"""


@cache
def _asset(name: str) -> str:
    return resources.files("symattn.verify").joinpath("assets/katex", name).read_text(encoding="utf-8")


@cache
def _katex_css() -> str:
    """KaTeX's CSS with each font inlined as a woff2 data URI (the other formats dropped)."""

    def inline(match: re.Match[str]) -> str:
        font = resources.files("symattn.verify").joinpath("assets/katex/fonts", match.group(1) + ".woff2")
        data = base64.b64encode(font.read_bytes()).decode("ascii")
        return f'src:url(data:font/woff2;base64,{data}) format("woff2")'

    css = _asset("katex.min.css")
    return re.sub(
        r'src:url\(fonts/([\w-]+)\.woff2\) format\("woff2"\)(?:,url\([^)]*\) format\("[^"]*"\))*', inline, css
    )


def _exact_tex(finding: Finding) -> str:
    """The exact value of a wrong number as LaTeX for KaTeX: its SymPy text read back with
    symattn's own entry grammar (never evaluated as code), then ``sympy.latex``; "" when it
    does not read."""
    if not finding.exact or len(finding.exact) > 240:
        return ""
    try:
        import sympy

        from symattn.exact import to_exact

        return sympy.latex(to_exact(finding.exact))
    except (SymattnError, ValueError, TypeError, RecursionError):  # the tooltip shows the text form
        return ""


def _css_class(finding: Finding) -> str:
    if finding.status == "wrong":
        return "carried" if finding.kind in ("carried", "rounding-carried") else "wrong"
    return "ok" if finding.status == "ok" else "unverified"


def _marked_source(text: str, findings: list[Finding]) -> str:
    """``text`` with each judged literal wrapped in its finding's private-use marks (literals
    that are not where their finding says are left as they are)."""
    lines = text.split("\n")
    by_line: dict[int, list[tuple[int, int]]] = {}
    for index, finding in enumerate(findings):
        if finding.claimed and finding.line and finding.column:
            by_line.setdefault(finding.line, []).append((finding.column, index))
    for number, places in by_line.items():
        if not 1 <= number <= len(lines):
            continue
        line = lines[number - 1]
        for column, index in sorted(places, reverse=True):
            start, claimed = column - 1, findings[index].claimed
            if line[start : start + len(claimed)] != claimed:
                continue
            line = line[:start] + f"{_OPEN}{index}{_MID}{claimed}{_CLOSE}" + line[start + len(claimed) :]
        lines[number - 1] = line
    return "\n".join(lines)


def _text_marks(html: str, findings: list[Finding]) -> str:
    """Marks outside math as ``<mark>`` elements (math keeps them for the script)."""
    parts = re.split(r'(<(?:span|div) class="sa-math[^"]*">.*?</(?:span|div)>)', html, flags=re.S)

    def mark(match: re.Match[str]) -> str:
        index = int(match.group(1))
        css = _css_class(findings[index]) if index < len(findings) else "unverified"
        return f'<mark class="sa sa-{css}" data-f="{index}">{match.group(2)}</mark>'

    for k in range(0, len(parts), 2):
        parts[k] = _MARK.sub(mark, parts[k])
    return "".join(parts)


def _markdown_html(source: str) -> str:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    md.use(dollarmath_plugin, allow_space=True, double_inline=True)

    def math_inline(self, tokens, idx, options, env):
        return f'<span class="sa-math">{escape(tokens[idx].content)}</span>'

    def math_block(self, tokens, idx, options, env):
        return f'<div class="sa-math sa-display">{escape(tokens[idx].content)}</div>\n'

    def image(self, tokens, idx, options, env):
        alt = "".join(child.content for child in tokens[idx].children or [])
        return f'<span class="sa-image">[{escape(alt)}]</span>'  # nothing is loaded

    md.add_render_rule("math_inline", math_inline)
    md.add_render_rule("math_inline_double", math_block)
    md.add_render_rule("math_block", math_block)
    md.add_render_rule("math_block_label", math_block)
    md.add_render_rule("image", image)
    return md.render(source)


def _tex_html(source: str) -> str:
    """A .tex source as text, with its math rendered where it can be."""
    out, last = [], 0
    for match in _TEX_MATH.finditer(source):
        out.append(escape(source[last : match.start()]))
        body = match.group(0)
        display = not (body.startswith("$") and not body.startswith("$$")) and not body.startswith("\\(")
        if body.startswith("$$") or body.startswith("\\["):
            body = body[2:-2]
        elif body.startswith("$") or body.startswith("\\("):
            body = body[1:-1] if body.startswith("$") else body[2:-2]
        tag = "div" if display else "span"
        cls = "sa-math sa-display" if display else "sa-math"
        out.append(f'<{tag} class="{cls}">{escape(body)}</{tag}>')
        last = match.end()
    out.append(escape(source[last:]))
    return '<pre class="sa-tex">' + "".join(out) + "</pre>"


def html_report(
    text: str,
    document: str,
    findings: list[Finding],
    *,
    tex: bool = False,
    lang: str = "en",
    fixes: dict[tuple[int, int], str] | None = None,
) -> str:
    """One self-contained HTML page: ``text`` rendered, its judged numbers marked in place."""
    words = _WORDS.get(lang, _WORDS["en"])
    fixes = fixes or {}
    source = _marked_source(text, findings)
    body = _tex_html(source) if tex else _markdown_html(source)
    body = _text_marks(body, findings)
    summary = {"claims": len(findings)}
    for status in ("ok", "wrong", "unverified"):
        summary[status] = sum(1 for f in findings if f.status == status)
    data = {
        "words": words,
        "findings": [
            {
                "claimed": escape(f.claimed),
                "css": _css_class(f),
                "kind_text": escape(kind_text(f.kind, lang, f.carried_from, f.fits)),
                "value": escape(f.value or ""),
                "exact": escape(f.exact or ""),
                "exact_tex": _exact_tex(f) if f.status == "wrong" else "",
                "carried_from": f.carried_from,
                "carried_text": escape(words["carried_from"].format(line=f.carried_from))
                if f.carried_from
                else "",
                "fix": escape(fixes.get((f.line, f.column), "")),
                "reason": escape(reason_text(f.reason, lang, f.kind)) if f.status != "ok" else "",
                "line": f.line,
                "column": f.column,
            }
            for f in findings
        ],
    }
    panel = _panel(findings, words, lang)
    payload = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    title = escape(words["title"].format(document=document))
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{escape(lang)}"><head><meta charset="utf-8">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; font-src data:; script-src 'unsafe-inline'; img-src data:\">"
        f"<title>{title}</title><style>{_katex_css()}</style><style>{_STYLE}</style></head><body>"
        f'<main><p class="sa-summary">{escape(words["summary"].format(**summary))}</p>{body}</main>'
        f"<aside>{panel}</aside>"
        '<div id="sa-tip" role="tooltip"></div>'
        f'<script type="application/json" id="sa-data">{payload}</script>'
        f"<script>{_asset('katex.min.js')}</script><script>{_SCRIPT}</script>"
        "</body></html>\n"
    )


def _panel(findings: list[Finding], words: dict[str, str], lang: str) -> str:
    """The findings grouped by root cause (as the text report groups them), each linked to its
    place, and the toggles."""
    index = {id(f): k for k, f in enumerate(findings)}

    def link(f: Finding) -> str:
        kind = re.split(r" \(|（", kind_text(f.kind, lang, f.carried_from, f.fits))[0]
        text = f"{f.line}:{f.column} {escape(f.claimed)} → {escape(f.value or '?')}: {escape(kind)}"
        return f'<a href="#f{index[id(f)]}">{text}</a>'

    items = []
    for root, line, under in Report("", tuple(findings)).by_cause():
        head = (
            link(root)
            if root is not None
            else f'<a href="#line-{line}">{escape(words["root"].format(line=line))}</a>'
        )
        sub = "".join(f"<li>{link(f)}</li>" for f in under)
        items.append(f"<li>{head}" + (f"<ul>{sub}</ul>" if sub else "") + "</li>")
    listing = f"<ol>{''.join(items)}</ol>" if items else f"<p>{escape(words['none'])}</p>"
    toggles = "".join(
        f'<label><input type="checkbox" id="sa-show-{k}"> {escape(words["show_" + k])}</label><br>'
        for k in ("ok", "unverified")
    )
    return f"<h2>{escape(words['findings'])}</h2>{toggles}{listing}"
