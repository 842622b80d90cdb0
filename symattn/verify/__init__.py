"""Verify the numbers a document prints about attention.

>>> from symattn.verify import verify_text
>>> verify_text("$$a = 2$$\\n\\n$$b = a + 1 = 4$$\\n").exit_code
1

``verify_document(path)`` reads a file; ``verify_text(text)`` never touches
the file system.
"""

from symattn.verify.document import VerifyOptions, verify_document, verify_text
from symattn.verify.finding import Finding, Kind, Status
from symattn.verify.report import Report

__all__ = ["Finding", "Kind", "Report", "Status", "VerifyOptions", "verify_document", "verify_text"]
