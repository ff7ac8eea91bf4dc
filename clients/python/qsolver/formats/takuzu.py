"""Takuzu / Tango texts (core/families/takuzu/takuzu_text.cc, takuzu_text.md).

takuzu: an Unruly game ID ("WxH[u][dD]:DESC", as sgt-unruly --generate prints it) or a grid of '0', '1'
and '.' with rows separated by '/' or new lines (Takuzu rules: unique lines).
tango: cell rows ('0' or a sun, '1' or a moon, '.' blank; '=' or 'x' between two cells) interleaved with
sign rows (one '=', 'x', '.' or '-' per column), separated by '/' or new lines."""
from .._proto import puzzles_pb2, takuzu_pb2
from ._common import error, is_digit

_CELLS = {".": -1, "0": 0, "S": 0, "\u2600": 0, "\U0001F31E": 0,
          "1": 1, "M": 1, "\u263D": 1, "\u263E": 1, "\U0001F319": 1}
_SIGNS = {"=": 0, "x": 1, "X": 1, "\u00D7": 1, "\u2715": 1, ".": -1, "-": -1}
_IGNORED = " \t\uFE0F"  # FE0F: emoji style
_MAX_UNRULY_SIDE = 1024


def _cell_value(ch):
    """-1 blank, 0 / 1 a value, -2 not a cell character."""
    return _CELLS.get(ch, -2)


def _sign_value(ch):
    """0 '=', 1 'x', -1 no sign, -2 not a sign character."""
    return _SIGNS.get(ch, -2)


def _show(ch):
    return ch if ord(ch) < 0x80 else f"U+{ord(ch):04x}"


def _split_lines(text):
    """Splits on '/' and new lines, keeping empty pieces (an empty Tango sign row) but dropping blank lines
    at both ends."""
    lines = [""]
    for ch in text:
        if ch in "/\n":
            lines.append("")
        elif ch != "\r":
            lines[-1] += ch
    while len(lines) > 1 and not lines[-1].strip(" \t"):
        lines.pop()
    first = 0
    while first + 1 < len(lines) and not lines[first].strip(" \t"):
        first += 1
    return lines[first:]


def _to_cell(value):
    if value < 0:
        return takuzu_pb2.TakuzuPuzzle.BLANK
    return takuzu_pb2.TakuzuPuzzle.ZERO if value == 0 else takuzu_pb2.TakuzuPuzzle.ONE


def _parse_unruly_id(game_id):
    colon = game_id.find(":")
    params, desc = game_id[:colon], game_id[colon + 1:]
    p = 0

    def number():
        nonlocal p
        start, value = p, 0
        while p < len(params) and is_digit(params[p]) and p - start < 6:
            value = value * 10 + ord(params[p]) - ord("0")
            p += 1
        return -1 if p == start else value

    width = number()
    height = width
    if p < len(params) and params[p] == "x":
        p += 1
        height = number()
    unique = False
    if p < len(params) and params[p] == "u":
        unique = True
        p += 1
    if p < len(params) and params[p] == "d" and p + 1 < len(params):
        p += 2
    if width <= 0 or height <= 0 or p != len(params):
        raise error(f"takuzu text: '{params}' is not an Unruly parameter string (WxH, then optional 'u' and "
                    "'d<difficulty>')")
    if width > _MAX_UNRULY_SIDE or height > _MAX_UNRULY_SIDE:
        raise error(f"takuzu text: board {width}x{height} is larger than {_MAX_UNRULY_SIDE}x{_MAX_UNRULY_SIDE}")
    cells = width * height
    spec = puzzles_pb2.PuzzleSpec()
    puzzle = spec.takuzu
    puzzle.rows, puzzle.cols, puzzle.unique_lines = height, width, unique
    values = [-1] * cells
    pos = 0
    for k, ch in enumerate(desc):
        if ch in "zZ":
            pos += 25
        elif "a" <= ch < "z" or "A" <= ch < "Z":
            pos += ord(ch.lower()) - ord("a")
            if pos < cells:
                values[pos] = 0 if ch.islower() else 1
            pos += 1
        else:
            raise error(f"takuzu text: Unruly description character '{ch}' at offset {k} is not a letter")
        if pos > cells + 1:
            break
    if pos != cells + 1:
        raise error(f"takuzu text: the Unruly description covers {pos} cells; a {width}x{height} grid needs "
                    f"{cells + 1}")
    puzzle.cells.extend(_to_cell(v) for v in values)
    return spec


def parse_takuzu(text):
    text = text.strip(" \t\r\n")
    if not text:
        raise error("takuzu text: empty")
    if "#" in text:
        raise error("takuzu text: an Unruly random-seed ID ('params#seed') names no puzzle; pass the game ID "
                    "('params:description') that sgt-unruly --generate prints")
    if ":" in text:
        return _parse_unruly_id(text)
    values, cols = [], -1
    lines = _split_lines(text)
    for r, line in enumerate(lines):
        count = 0
        for ch in line:
            if ch in " \t":
                continue
            if ch not in "01.":
                raise error(f"takuzu text: row {r + 1}: unexpected character '{ch}' (use 0, 1 and .)")
            values.append(-1 if ch == "." else int(ch))
            count += 1
        if cols >= 0 and count != cols:
            raise error(f"takuzu text: row {r + 1} has {count} cells, row 1 has {cols}")
        cols = count
    if cols <= 0:
        raise error("takuzu text: no cells")
    spec = puzzles_pb2.PuzzleSpec()
    puzzle = spec.takuzu
    puzzle.rows, puzzle.cols, puzzle.unique_lines = len(lines), cols, True
    puzzle.cells.extend(_to_cell(v) for v in values)
    return spec


def _tango_cell_row(line, r, where, signs):
    """The cell values of one Tango cell row; signs between its cells go to `signs`."""
    values, pending = [], -1  # pending: a sign seen after the last cell
    for ch in line:
        if ch in _IGNORED:
            continue
        cell = _cell_value(ch)
        if cell != -2:
            if pending >= 0:
                signs.append((r, len(values) - 1, r, len(values), pending))
                pending = -1
            values.append(cell)
            continue
        sign = _sign_value(ch)
        if sign < 0:
            raise error(f"{where}: unexpected character '{_show(ch)}'")
        if not values or pending >= 0:
            raise error(f"{where}: sign '{_show(ch)}' must stand between two cells")
        pending = sign
    if pending >= 0:
        raise error(f"{where}: a sign ends the row; signs stand between cells")
    return values


def _tango_sign_row(line, r, cols, signs):
    where = f"tango text: line {2 * r + 2} (signs below row {r + 1})"
    col = 0
    for ch in line:
        if ch in _IGNORED:
            continue
        sign = _sign_value(ch)
        if sign == -2:
            raise error(f"{where}: unexpected character '{_show(ch)}' (use =, x, . or -)")
        if col >= cols:
            raise error(f"{where}: more marks than the {cols} columns")
        if sign >= 0:
            signs.append((r, col, r + 1, col, sign))
        col += 1
    if col not in (0, cols):
        raise error(f"{where}: {col} marks; expected one per column ({cols}) or none")


def parse_tango(text):
    lines = _split_lines(text)
    if len(lines) % 2 == 0:
        raise error(f"tango text: {len(lines)} lines; expected cell rows with one sign row between each two "
                    "(2N - 1 lines)")
    rows = (len(lines) + 1) // 2
    values, signs, cols = [], [], -1
    for r in range(rows):
        where = f"tango text: line {2 * r + 1} (row {r + 1})"
        row = _tango_cell_row(lines[2 * r], r, where, signs)
        if cols >= 0 and len(row) != cols:
            raise error(f"{where}: {len(row)} cells, row 1 has {cols}")
        cols = len(row)
        values.extend(row)
        if r + 1 < rows:
            _tango_sign_row(lines[2 * r + 1], r, cols, signs)
    if cols <= 0:
        raise error("tango text: no cells")
    spec = puzzles_pb2.PuzzleSpec()
    puzzle = spec.takuzu
    puzzle.rows, puzzle.cols = rows, cols
    puzzle.cells.extend(_to_cell(v) for v in values)
    for r1, c1, r2, c2, kind in signs:
        sign = puzzle.signs.add(kind=takuzu_pb2.TakuzuSign.EQUAL if kind == 0 else takuzu_pb2.TakuzuSign.DIFFERENT)
        sign.a.row, sign.a.col, sign.b.row, sign.b.col = r1, c1, r2, c2
    return spec


def parse_takuzu_board(puzzle, text):
    board = puzzles_pb2.PuzzleSolution()
    width = 0
    for line in _split_lines(text):
        where = f"board row {len(board.rows) + 1}"
        row = ""
        for ch in line:
            if ch in _IGNORED:
                continue
            value = _cell_value(ch)
            if value == -2:
                raise error(f"{where}: unexpected character '{_show(ch)}' (use 0, 1 or .)")
            board.cells.append(value)
            row += "." if value < 0 else str(value)
        if not board.rows:
            width = len(row)
        if len(row) != width:
            raise error(f"{where} has {len(row)} cells, the first row has {width}")
        board.rows.append(row)
    if not board.rows or width == 0:
        raise error("board: no cells")
    board.height, board.width = len(board.rows), width
    return board
