"""Line and field reading of the line-based numeric formats (qbsolv, orlib, coo, ising, rudy), as
formats/text_fields.cc reads them: content lines split into fields, and field parsers whose errors
name the format, the line and the field."""
import collections
import math

from ._common import INT64, atod, atoi, error, split_any, strip_ascii

TextLine = collections.namedtuple("TextLine", "number fields")


def _is_comment(line, comment_starts):
    # "c " also matches a bare "c".
    return any(line.startswith(start) or (len(start) == 2 and start[1] == " " and line == start[0])
               for start in comment_starts)


def content_lines(text, comment_starts):
    """The lines that are neither blank nor comments, as TextLine(1-based number, fields)."""
    lines = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = strip_ascii(raw)
        if line and not _is_comment(line, comment_starts):
            lines.append(TextLine(number, split_any(line, " \t", skip_empty=True)))
    return lines


def line_error(fmt, number, message):
    return error(f"{fmt} line {number}: {message}")


def field_error(fmt, line, field, name, message):
    return error(f"{fmt} line {line.number}, field {field + 1} ({name}): {message}")


def expect_fields(fmt, line, count, layout):
    if len(line.fields) != count:
        raise line_error(fmt, line.number, f"expected {count} fields '{layout}', got {len(line.fields)}")


def int_field(fmt, line, field, name, low, high):
    value = atoi(line.fields[field], INT64)
    if value is None:
        raise field_error(fmt, line, field, name, f"'{line.fields[field]}' is not an integer")
    if not low <= value <= high:
        raise field_error(fmt, line, field, name, f"{value} is out of range [{low}, {high}]")
    return value


def number_field(fmt, line, field, name):
    value = atod(line.fields[field])
    if value is None or not math.isfinite(value):
        raise field_error(fmt, line, field, name, f"'{line.fields[field]}' is not a finite number")
    return value


def six_digits(w):
    """absl::StrCat of a double."""
    return "%.6g" % w


def exact_number(w):
    """The shortest decimal (%g) that reads back as exactly w."""
    for precision in range(6, 18):
        text = "%.*g" % (precision, w)
        if float(text) == w:
            return text
    return "%.17g" % w
