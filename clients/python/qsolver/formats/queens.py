"""Queens texts (core/families/queens/queens_text.cc).

nqueens: "N" or "NxM", then words: torus | cylinder, adjacent | distance=D, queen=R,C (1-based, repeatable).
queens: LinkedIn Queens, rows of region letters separated by '/' or newlines; a lower-case letter is a
pre-placed queen in that letter's region, '#' a cell off the board."""
from .._proto import puzzles_pb2, queens_pb2
from ._common import INT32, UINT32, atoi, error, is_alpha, split_any

MAX_SIDE = 1024


def _nqueens_error(message):
    return error(f"nqueens text: {message}")


def _side(text):
    value = atoi(text, INT32)
    return value if value is not None and 1 <= value <= MAX_SIDE else None


def parse_nqueens(text):
    words = split_any(text, " \t\r\n", skip_empty=True)
    if not words:
        raise _nqueens_error('empty; expected a size such as "8" or "8x10"')
    spec = puzzles_pb2.PuzzleSpec()
    queens = spec.queens
    size = split_any(words[0], "xX")
    rows = _side(size[0])
    cols = _side(size[1]) if len(size) == 2 else rows
    if len(size) > 2 or rows is None or cols is None:
        raise _nqueens_error(f"size '{words[0]}': expected N or NxM with sides 1..{MAX_SIDE}")
    queens.rows, queens.cols = rows, cols
    if rows != cols:
        # The longer side cannot give every line a queen: its lines hold 0 or 1.
        rows_longer = rows > cols
        queens.row_counts.extend([0 if rows_longer else 1] * rows)
        queens.row_two_values.extend([rows_longer] * rows)
        queens.col_counts.extend([1 if rows_longer else 0] * cols)
        queens.col_two_values.extend([not rows_longer] * cols)
    topology_set = attack_set = False
    for word in words[1:]:
        if word in ("torus", "cylinder"):
            if topology_set:
                raise _nqueens_error(f"'{word}': the topology is already set")
            topology_set = True
            queens.topology = (queens_pb2.QUEENS_TOPOLOGY_TORUS if word == "torus"
                               else queens_pb2.QUEENS_TOPOLOGY_CYLINDER)
        elif word == "adjacent" or word.startswith("distance="):
            if attack_set:
                raise _nqueens_error(f"'{word}': the attack rule is already set")
            attack_set = True
            if word == "adjacent":
                queens.attack = queens_pb2.QUEENS_ATTACK_ADJACENT_DIAGONALS
                continue
            distance = atoi(word[9:], UINT32)
            if distance is None:
                raise _nqueens_error(f"'{word}': expected distance=D with D a whole number")
            queens.attack = queens_pb2.QUEENS_ATTACK_DIAGONAL_DISTANCE
            queens.diagonal_distance.append(distance)
        elif word.startswith("queen="):
            place = word[6:].split(",")
            r = atoi(place[0], INT32) if len(place) == 2 else None
            c = atoi(place[1], INT32) if len(place) == 2 else None
            if r is None or c is None or not (1 <= r <= rows and 1 <= c <= cols):
                raise _nqueens_error(f"'{word}': expected queen=R,C with 1 <= R <= {rows} and 1 <= C <= {cols}")
            queens.given_queens.append((r - 1) * cols + (c - 1))
        else:
            raise _nqueens_error(f"unknown option '{word}' (torus, cylinder, adjacent, distance=D, queen=R,C)")
    return spec


def parse_queens(text):
    rows = [""]
    for pos, ch in enumerate(text):
        if ch in " \t\r":
            continue
        if ch in "/\n":
            rows.append("")
            continue
        if ch != "#" and not is_alpha(ch):
            raise error(f"queens text: unexpected character '{ch}' at offset {pos} "
                        "(region letters, lower case for a queen, '#')")
        rows[-1] += ch
    # Blank lines (a trailing newline, an empty line between rows) separate nothing.
    board = [row for row in rows if row]
    if not board:
        raise error("queens text: no rows")
    width = len(board[0])
    if len(board) > MAX_SIDE or width > MAX_SIDE:
        raise error(f"queens text: the board is larger than {MAX_SIDE}x{MAX_SIDE}")
    for r, row in enumerate(board[1:], start=2):
        if len(row) != width:
            raise error(f"queens text: row {r} has {len(row)} cells, row 1 has {width}")
    letters = sorted({ch.upper() for row in board for ch in row if ch != "#"})
    region_of = {letter: k for k, letter in enumerate(letters)}
    spec = puzzles_pb2.PuzzleSpec()
    queens = spec.queens
    queens.rows, queens.cols = len(board), width
    queens.attack = queens_pb2.QUEENS_ATTACK_ADJACENT_DIAGONALS
    any_masked = any("#" in row for row in board)
    for r, row in enumerate(board):
        for c, ch in enumerate(row):
            if any_masked:
                queens.masked.append(ch == "#")
            if ch == "#":
                queens.regions.append(-1)
                continue
            queens.regions.append(region_of[ch.upper()])
            if ch.islower():
                queens.given_queens.append(r * width + c)
    return spec
