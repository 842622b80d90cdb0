"""Verify the numbers a document prints about attention.

>>> from symattn.verify import verify_document
>>> verify_document("$$a = 2$$\\n\\n$$b = a + 1 = 4$$\\n").exit_code
1
"""

from symattn.verify.document import VerifyOptions, verify_document
from symattn.verify.report import Report

__all__ = ["Report", "VerifyOptions", "verify_document"]
