"""Find the math in a document (the readers of :mod:`symattn.verify.readers`).

Kept as the module the rest of verify imports; the readers live in their own
package, one module per notation.
"""

from __future__ import annotations

from symattn.verify.readers import Locator, ReadConfig, Span, find_math

__all__ = ["Locator", "ReadConfig", "Span", "find_math"]
