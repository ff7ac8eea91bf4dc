"""Puzzle texts from PuzzleSpecs, on one line (rows separated by '/'), so that parse_puzzle(kind, text)
gives the puzzle back: what `qsolve generate` prints (FormatPuzzleText of formats/). Kinds with a
writer: sudoku, queens (LinkedIn: square, adjacent diagonals, one queen per row, column and region, at
most 26 regions), takuzu (the grid form: balanced, unique lines, no signs), tango (signs between side
neighbours only), tents (an sgt-tents game ID), maxcut (a rudy file, maxcut.py)."""
from .._proto import queens_pb2, takuzu_pb2
from ._common import error
from .maxcut import format_maxcut

MAX_SIDE = 1024


def format_sudoku(puzzle):
    if puzzle.WhichOneof("puzzle") != "sudoku":
        raise error("sudoku text: not a Sudoku puzzle")
    sudoku = puzzle.sudoku
    box = sudoku.box_size or 3
    side = box * box
    if not 2 <= box <= 5 or len(sudoku.cells) != side * side:
        raise error(f"sudoku text: {len(sudoku.cells)} cells for box {box}")
    text = ""
    for k, value in enumerate(sudoku.cells):
        if value > side:
            raise error(f"sudoku text: cell {k + 1} holds {value}")
        text += "." if value == 0 else str(value) if value <= 9 else chr(ord("A") + value - 10)
    return text


def _queens_refusal(q, n):
    """Why the LinkedIn format cannot express the queens puzzle q, or None."""
    if not 1 <= n <= MAX_SIDE or q.cols not in (0, q.rows):
        return "a board that is not square"
    if q.attack != queens_pb2.QUEENS_ATTACK_ADJACENT_DIAGONALS:
        return "attacks other than the adjacent diagonals"
    if q.topology != queens_pb2.QUEENS_TOPOLOGY_PLANE:
        return "a topology"
    if (q.row_counts or q.col_counts or q.row_two_values or q.col_two_values or q.region_counts
            or q.region_two_values or q.extra_regions or q.region_rule != queens_pb2.QUEENS_REGIONS_COUNTED):
        return "counts other than one queen per row, column and region"
    if len(q.regions) != n * n:
        return "a board without regions"
    if q.masked and len(q.masked) != n * n:
        return "a partial mask"
    if any(cell >= n * n for cell in q.given_queens):
        return "a queen off the board"
    return None


def format_queens(puzzle):
    def refuse(why):
        return error(f"queens text: the LinkedIn format cannot express {why}")

    if puzzle.WhichOneof("puzzle") != "queens":
        raise refuse("a puzzle of another family")
    q = puzzle.queens
    n = q.rows
    why = _queens_refusal(q, n)
    if why:
        raise refuse(why)
    given = set(q.given_queens)
    text = ""
    for cell in range(n * n):
        if cell > 0 and cell % n == 0:
            text += "/"
        if q.masked and q.masked[cell]:
            text += "#"
            continue
        region = q.regions[cell]
        if not 0 <= region < 26:
            raise refuse("more than 26 regions")
        letter = chr(ord("A") + region)
        text += letter.lower() if cell in given else letter
    return text


def format_tents(puzzle):
    if puzzle.WhichOneof("puzzle") != "tents":
        raise error("tents text: not a tents puzzle")
    tents = puzzle.tents
    height, width = tents.rows, tents.cols or tents.rows
    cells = width * height
    if height == 0 or len(tents.row_counts) != height or len(tents.col_counts) != width:
        raise error("tents text: a game ID needs a size and one count per row and column")
    out = [f"{width}x{height}:"]

    def skip(gap):
        # Runs of empty cells: 'z' for 25 without a tree, then a letter for the rest ('_' for none)
        # followed by the tree or, last of all, the grid's end.
        while gap > 25:
            out.append("z")
            gap -= 25
        out.append(chr(ord("a") + gap - 1) if gap > 0 else "_")

    trees = sorted(tents.trees)
    pos = 0
    for k, tree in enumerate(trees):
        if tree >= cells or (k > 0 and tree == trees[k - 1]):
            raise error(f"tents text: tree cell {tree} out of range or repeated")
        skip(tree - pos)
        pos = tree + 1
    skip(cells - pos)
    out.extend(f",{n}" for n in list(tents.col_counts) + list(tents.row_counts))
    return "".join(out)


def _check_takuzu_writable(puzzle, name):
    def refuse(why):
        return error(f"{name} text: the format cannot express {why}")

    if puzzle.WhichOneof("puzzle") != "takuzu":
        raise refuse("a puzzle of another family")
    t = puzzle.takuzu
    if t.rows == 0 or t.cols == 0:
        raise refuse("an empty board")
    if t.cells and len(t.cells) != t.rows * t.cols:
        raise refuse("a partial grid")
    if (t.row_ones or t.col_ones or t.diagonal or t.regions or t.topology != takuzu_pb2.TakuzuPuzzle.PLANE
            or t.equality_regions or t.different_regions):
        raise refuse("rules beyond the balanced plane board")
    return t


def _cell_char(t, cell):
    if not t.cells:
        return "."
    return {takuzu_pb2.TakuzuPuzzle.ZERO: "0", takuzu_pb2.TakuzuPuzzle.ONE: "1"}.get(t.cells[cell], ".")


def format_takuzu(puzzle):
    t = _check_takuzu_writable(puzzle, "takuzu")
    if not t.unique_lines or t.signs:
        raise error("takuzu text: the grid form is a Takuzu (unique lines, no signs); write Tango puzzles as "
                    "tango text")
    return "/".join("".join(_cell_char(t, r * t.cols + c) for c in range(t.cols)) for r in range(t.rows))


def _tango_signs(t):
    """{cell: mark} of the signs to the right of and below each cell."""
    right, down = {}, {}
    for sign in t.signs:
        (r1, c1), (r2, c2) = (sign.a.row, sign.a.col), (sign.b.row, sign.b.col)
        if r2 < r1 or (r2 == r1 and c2 < c1):
            (r1, c1), (r2, c2) = (r2, c2), (r1, c1)
        mark = "=" if sign.kind == takuzu_pb2.TakuzuSign.EQUAL else "x"
        if r1 >= t.rows or r2 >= t.rows or c1 >= t.cols or c2 >= t.cols:
            raise error("tango text: a sign off the board")
        slot = right if (r1 == r2 and c2 == c1 + 1) else down if (c1 == c2 and r2 == r1 + 1) else None
        if slot is None or r1 * t.cols + c1 in slot:
            raise error("tango text: the format cannot express signs between cells that are not side "
                        "neighbours, or two signs between the same cells")
        slot[r1 * t.cols + c1] = mark
    return right, down


def format_tango(puzzle):
    t = _check_takuzu_writable(puzzle, "tango")
    if t.unique_lines:
        raise error("tango text: Tango has no unique-lines rule; write Takuzu puzzles as takuzu text")
    right, down = _tango_signs(t)
    text = ""
    for r in range(t.rows):
        if r > 0:
            text += "/" + "".join(down.get((r - 1) * t.cols + c, ".") for c in range(t.cols)) + "/"
        for c in range(t.cols):
            text += _cell_char(t, r * t.cols + c) + right.get(r * t.cols + c, "")
    return text


WRITERS = {"sudoku": format_sudoku, "queens": format_queens, "tents": format_tents, "takuzu": format_takuzu,
           "tango": format_tango, "maxcut": format_maxcut}
