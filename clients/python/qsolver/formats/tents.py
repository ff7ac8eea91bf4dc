"""Tents & Trees text (core/families/tents/tents_text.cc): an sgt-tents game ID ("8x8:abjced...,1,3,0,...") or
a grid (a line of column counts, then rows of 'A' tree / '.' cells each ending in its count)."""
from .._proto import puzzles_pb2
from ._common import C_SPACE, UINT32, atoi, error, is_digit, split_any, strip_ascii


def _tents_error(what):
    return error(f"tents text: {what}")


def _count(token, where):
    n = atoi(token, UINT32)
    if not token or n is None or not is_digit(token[0]):
        raise _tents_error(f"{where}: '{token}' is not a count")
    return n


def _looks_like_game_id(text):
    pos = 0
    while pos < len(text) and is_digit(text[pos]):
        pos += 1
    return 0 < pos < len(text) and text[pos] == "x" and ":" in text


def _parse_game_id(game_id):
    colon = game_id.find(":")
    params = game_id[:colon]
    x = params.find("x")
    height_end = x + 1
    while height_end < len(params) and is_digit(params[height_end]):
        height_end += 1
    width = atoi(params[:x], UINT32)
    height = atoi(params[x + 1:height_end], UINT32)
    if width is None or height is None or width == 0 or height == 0:
        raise _tents_error(f"game ID size '{params}' is not WxH")
    if width > 1000 or height > 1000:
        raise _tents_error(f"game ID size {width}x{height} too large")
    fields = game_id[colon + 1:].split(",")
    if len(fields) != 1 + width + height:
        raise _tents_error(f"game ID has {len(fields) - 1} counts; a {width}x{height} grid needs "
                           f"{width + height} (columns, then rows)")
    spec = puzzles_pb2.PuzzleSpec()
    tents = spec.tents
    tents.rows, tents.cols = height, width
    cells = width * height
    pos = 0
    trees = fields[0]
    for k, ch in enumerate(trees):
        if ch == "z":
            pos += 25
            continue
        if ch != "_" and not ("a" <= ch <= "y"):
            raise _tents_error(f"game ID tree description: unexpected '{ch}' at offset {k}")
        if ch != "_":
            pos += ord(ch) - ord("a") + 1
        if pos < cells:
            tents.trees.append(pos)
            pos += 1
        elif pos > cells or k + 1 != len(trees):
            raise _tents_error(f"game ID tree description runs past the {width}x{height} grid")
    if pos != cells:
        raise _tents_error(f"game ID tree description covers {pos} of the {cells} cells")
    for c in range(width):
        tents.col_counts.append(_count(fields[1 + c], f"game ID column count {c + 1}"))
    for r in range(height):
        tents.row_counts.append(_count(fields[1 + width + r], f"game ID row count {r + 1}"))
    return spec


def _parse_grid(text):
    lines = [strip_ascii(line) for line in split_any(text, "\n/")]
    lines = [line for line in lines if line and line[0] != "#"]
    if len(lines) < 2:
        raise _tents_error("expected a line of column counts and at least one row")
    spec = puzzles_pb2.PuzzleSpec()
    tents = spec.tents
    for token in split_any(lines[0], " \t,", skip_empty=True):
        tents.col_counts.append(_count(token, "line 1 (column counts)"))
    width = len(tents.col_counts)
    if width == 0:
        raise _tents_error("line 1: no column counts")
    for r in range(1, len(lines)):
        line = lines[r]
        where = f"row {r}"
        count_start = len(line)
        while count_start > 0 and is_digit(line[count_start - 1]):
            count_start -= 1
        if count_start == len(line):
            raise _tents_error(f"{where}: no tent count at the end of '{line}'")
        tents.row_counts.append(_count(line[count_start:], where))
        cells = 0
        for ch in line[:count_start]:
            if ch in " \t":
                continue
            if ch == "A":
                tents.trees.append((r - 1) * width + cells)
            elif ch != ".":
                raise _tents_error(f"{where}: unexpected '{ch}' (cells are 'A' trees and '.')")
            cells += 1
        if cells != width:
            raise _tents_error(f"{where}: {cells} cells, but line 1 gives {width} column counts")
    tents.rows, tents.cols = len(lines) - 1, width
    return spec


def parse_tents(text):
    trimmed = text.strip(C_SPACE)
    return _parse_game_id(trimmed) if _looks_like_game_id(trimmed) else _parse_grid(trimmed)
