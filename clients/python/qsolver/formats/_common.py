"""Helpers shared by the text parsers: the C library's character classes and absl's number parsing, so that
the Python parsers accept exactly what the command-line client's C++ parsers (formats/) accept."""
import re

from .._errors import ParseError

C_SPACE = " \t\n\v\f\r"
_INT = re.compile(r"[+-]?[0-9]+\Z")
_FLOAT = re.compile(r"[+-]?([0-9]+\.?[0-9]*([eE][+-]?[0-9]+)?|\.[0-9]+([eE][+-]?[0-9]+)?"
                    r"|[iI][nN][fF]([iI][nN][iI][tT][yY])?|[nN][aA][nN])\Z")

INT32 = (-(1 << 31), (1 << 31) - 1)
UINT32 = (0, (1 << 32) - 1)
INT64 = (-(1 << 63), (1 << 63) - 1)


def error(message):
    return ParseError(message)


def is_alpha(ch):
    return ("a" <= ch <= "z") or ("A" <= ch <= "Z")


def is_digit(ch):
    return "0" <= ch <= "9"


def is_alnum(ch):
    return is_alpha(ch) or is_digit(ch)


def strip_ascii(text):
    return text.strip(C_SPACE)


def atoi(text, bounds):
    """absl::SimpleAtoi: optional sign, decimal digits, surrounding whitespace; None when the text is not a
    number or out of bounds (unsigned types refuse a minus sign)."""
    text = strip_ascii(text)
    if not _INT.match(text) or (bounds[0] == 0 and text.startswith("-")):
        return None
    value = int(text)
    return value if bounds[0] <= value <= bounds[1] else None


def atod(text):
    """absl::SimpleAtod: a decimal or exponent number, inf or nan; None otherwise."""
    text = strip_ascii(text)
    if not _FLOAT.match(text):
        return None
    return float(text)


def split_any(text, separators, skip_empty=False):
    """absl::StrSplit(text, absl::ByAnyChar(separators)), optionally with absl::SkipEmpty()."""
    pieces = re.split("[" + re.escape(separators) + "]", text)
    return [p for p in pieces if p] if skip_empty else pieces


def board_rows(text, prefix=""):
    """The rows of a board text (split at '/' and newlines, blank ones skipped, whitespace stripped), each
    checked, as it comes, to be as wide as the first."""
    width = 0
    for number, row in enumerate((r for r in map(strip_ascii, split_any(text, "/\n")) if r), start=1):
        width = width or len(row)
        if len(row) != width:
            raise error(f"{prefix}board row {number} has {len(row)} cells, the first row has {width}")
        yield row
