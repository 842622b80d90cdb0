"""LaTeX in image URLs: formulas that old READMEs show as pictures.

``![](https://latex.codecogs.com/svg.latex?Q%3DXW_Q)`` and
``<img src="https://www.zhihu.com/equation?tex=…">`` carry their LaTeX in the
link, URL-encoded.  It is decoded with every character pointing at its place
in the link (a ``%3D`` points at its ``%``).  The link is never fetched.
"""

from __future__ import annotations

import re

from symattn.verify.readers.span import Builder, Span

__all__ = ["image_span"]

_SERVICES = re.compile(
    r"^(?:https?:)?//(?:latex\.codecogs\.com/[a-z]+\.(?:latex|image|download)\?"
    r"|www\.zhihu\.com/equation\?tex="
    r"|chart\.googleapis\.com/chart\?(?:[^&]*&)*?chl="
    r"|render\.githubusercontent\.com/render/math\?(?:[^&]*&)*?math="
    r"|i\.upmath\.me/svg/"
    r"|latex\.artofproblemsolving\.com/[^?]*\?)",
    re.I,
)
_PREFIXES = re.compile(
    r"^\s*(?:\\(?:dpi\{\d+\}|bg_\w+|bg\{\w+\}|fn_\w+|inline|large|Large|LARGE|small|tiny|huge|Huge|normalsize)\s*)+"
)


def image_span(url: Span) -> Span | None:
    """The formula of an image link (its text with the source map), or None."""
    match = _SERVICES.match(url.text)
    if match is None:
        return None
    text = url.text
    decoded = Builder()
    i = match.end()
    end = len(text)
    if "chl=" in text[: match.end()] or "math=" in text[: match.end()]:
        amp = text.find("&", i)
        end = amp if amp >= 0 else end
    while i < end:
        if text.startswith("&space;", i):
            decoded.put(" ", url.source_offset(i))
            i += 7
            continue
        if text[i] == "%" and re.fullmatch(r"[0-9A-Fa-f]{2}", text[i + 1 : i + 3]):
            raw = bytearray()
            j = i
            while j < end and text[j] == "%" and re.fullmatch(r"[0-9A-Fa-f]{2}", text[j + 1 : j + 3]):
                raw.append(int(text[j + 1 : j + 3], 16))
                j += 3
            decoded.put(raw.decode("utf-8", errors="replace"), url.source_offset(i))
            i = j
            continue
        decoded.copy_span(url, i, i + 1)
        i += 1
    span = decoded.build(True, "images")
    prefix = _PREFIXES.match(span.text)
    if prefix:
        span = Builder().copy_span(span, prefix.end(), len(span.text)).build(True, "images")
    return span if span.text.strip() else None
