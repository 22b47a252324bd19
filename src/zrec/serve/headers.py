"""The headers every answer of ``zrec serve`` carries (:data:`HEADERS`): a
Content-Security-Policy that allows no inline script or style and no framing, and
the usual hardening headers; :func:`csp_with_styles` for a page that carries a
``<style>`` of its own.
"""

from __future__ import annotations

import base64
import hashlib

__all__ = ["CSP", "HEADERS", "csp_with_styles"]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def csp_with_styles(styles: list[str]) -> str:
    """:data:`CSP` that also lets these ``<style>`` elements of a page apply, by the
    SHA-256 of each (CSP level 2 hashes: still no ``'unsafe-inline'``)."""
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
        for s in styles
    )
    return CSP.replace("style-src 'self';", f"style-src 'self' {hashes};") if hashes else CSP


#: the headers every answer carries (a page that sets its own CSP keeps it)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]
