"""Tiny, fast XML text helpers for writers that build documents as strings.

The writers build XML by hand instead of through lxml: a full card database is ~30k cards and
string joins are several times faster than building a tree, and the output is byte-for-byte
predictable. Everything written goes through :func:`text` or :func:`attr`, which escape markup
and drop the characters XML 1.0 cannot carry (a NUL in an untrusted card name must not produce
a file Cockatrice refuses to parse).
"""

from __future__ import annotations

import re

# Everything outside XML 1.0's Char production (#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] |
# [#x10000-#x10FFFF]), written as the small positive class (compiles ~100x faster than the negation).
_INVALID_XML_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def clean(value: str) -> str:
    """``value`` without characters that are illegal in XML 1.0."""
    if _INVALID_XML_CHARS.search(value) is None:
        return value
    return _INVALID_XML_CHARS.sub("", value)


_NEEDS_WORK = re.compile("[&<>\r\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def text(value: str) -> str:
    """Escape ``value`` for element content."""
    if _NEEDS_WORK.search(value) is None:  # the common case: one C-level scan, nothing to do
        return value
    value = clean(value)
    if "&" in value:
        value = value.replace("&", "&amp;")
    if "<" in value:
        value = value.replace("<", "&lt;")
    if ">" in value:
        value = value.replace(">", "&gt;")
    if "\r" in value:  # a literal CR would be read back as LF (XML end-of-line handling)
        value = value.replace("\r", "&#13;")
    return value


def attr(value: str) -> str:
    """Escape ``value`` for a double-quoted attribute (newlines kept as character references)."""
    value = text(value)
    if '"' in value:
        value = value.replace('"', "&quot;")
    if "\n" in value or "\t" in value:
        value = value.replace("\n", "&#10;").replace("\t", "&#9;")
    return value


def element(tag: str, value: str, indent: str = "") -> str:
    """``<tag>value</tag>`` on its own line (empty values as ``<tag/>``)."""
    if not value:
        return f"{indent}<{tag}/>\n"
    return f"{indent}<{tag}>{text(value)}</{tag}>\n"
