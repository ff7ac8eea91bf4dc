"""The puzzle text formats of the qsolve command-line client, in Python: parse_puzzle(kind, text) gives the
same qs.v1.PuzzleSpec as the client's C++ parsers (formats/), parse_board(kind, puzzle, text) the
same PuzzleSolution (for Validate). Errors raise qsolver.ParseError (INVALID_ARGUMENT) with the C++
parsers' messages."""
from .._proto import puzzles_pb2
from ._common import board_rows, error
from .chess import parse_chess, parse_chess_board
from .maxcut import parse_maxcut
from .queens import parse_nqueens, parse_queens
from .qubo import FORMATS as QUBO_FORMATS
from .qubo import detect_qubo_format, parse_orlib_instances, parse_qubo, parse_qubo_model
from .sudoku import parse_sudoku, parse_sudoku_board
from .takuzu import parse_takuzu, parse_takuzu_board, parse_tango
from .tents import parse_tents
from .writers import WRITERS


def parse_binary_board(puzzle, text):
    """Boards whose cells are 0/1 (queens, tents, raw QUBO, Max-Cut): '1', 'Q', 'T' are 1; '0', '.', 'A', '#', '_'
    are 0."""
    board = puzzles_pb2.PuzzleSolution()
    for row in board_rows(text):
        for c, ch in enumerate(row):
            if ch in "1QT":
                board.cells.append(1)
            elif ch in "0.A#_":
                board.cells.append(0)
            else:
                raise error(f"board row {len(board.rows) + 1} column {c + 1}: unexpected character '{ch}'")
        board.rows.append(row)
    if not board.rows:
        raise error("board: no rows")
    board.height, board.width = len(board.rows), len(board.rows[0])
    return board


_FORMATS = {
    "sudoku": (parse_sudoku, parse_sudoku_board),
    "nqueens": (parse_nqueens, parse_binary_board),
    "queens": (parse_queens, parse_binary_board),
    "tents": (parse_tents, parse_binary_board),
    "chess": (parse_chess, parse_chess_board),
    "qubo": (parse_qubo, parse_binary_board),
    "maxcut": (parse_maxcut, parse_binary_board),
    "takuzu": (parse_takuzu, parse_takuzu_board),
    "tango": (parse_tango, parse_takuzu_board),
}

KINDS = tuple(sorted(_FORMATS))


def _format(kind):
    if kind not in _FORMATS:
        raise error(f"unknown puzzle kind '{kind}' (one of {', '.join(KINDS)})")
    return _FORMATS[kind]


def parse_puzzle(kind, text):
    """The qs.v1.PuzzleSpec of a puzzle text of `kind` (a --kind of qsolve)."""
    return _format(kind)[0](text)


def format_puzzle(kind, puzzle):
    """The puzzle as a text of `kind` (sudoku, queens, takuzu, tango, tents on one line; maxcut as a rudy
    file), what qsolve generate
    prints: GeneratedPuzzle.puzzle_kind names the kind. ParseError when the format cannot express it."""
    _format(kind)
    if kind not in WRITERS:
        raise error(f"puzzle kind '{kind}' has no text writer")
    return WRITERS[kind](puzzle)


def parse_board(kind, puzzle, text):
    """The qs.v1.PuzzleSolution of a board text (rows separated by '/' or newlines) of a puzzle of `kind`."""
    return _format(kind)[1](puzzle, text)


__all__ = ["KINDS", "QUBO_FORMATS", "detect_qubo_format", "format_puzzle", "parse_board", "parse_orlib_instances",
           "parse_puzzle", "parse_qubo_model"]
