"""Sudoku text (core/families/sudoku/sudoku_text.cc): one character per cell, row-major, '0' or '.' for a blank,
'1'-'9' then 'A'-'P' for 10-25; whitespace and '|', '-', '+' are skipped. 16, 81, 256 or 625 cells."""
from .._proto import puzzles_pb2
from ._common import C_SPACE, error, is_alpha


def parse_sudoku(text):
    cells = []
    for pos, ch in enumerate(text):
        if ch in C_SPACE or ch in "|-+":
            continue
        if ch in ".0":
            cells.append(0)
        elif "1" <= ch <= "9":
            cells.append(ord(ch) - ord("0"))
        elif is_alpha(ch) and ch.upper() <= "P":
            cells.append(ord(ch.upper()) - ord("A") + 10)
        else:
            raise error(f"sudoku text: unexpected character '{ch}' at offset {pos}")
    box = 0
    for n in range(2, 6):
        if len(cells) == n ** 4:
            box = n
    if box == 0:
        raise error(f"sudoku text: {len(cells)} cells; expected 16, 81, 256 or 625 (4x4 to 25x25 grids), or a "
                    "'boxes RxC' or 'regions' line for other sides")
    side = box * box
    for k, value in enumerate(cells):
        if value > side:
            raise error(f"sudoku text: cell {k + 1} holds {value}, more than the grid's {side} digits")
    spec = puzzles_pb2.PuzzleSpec()
    spec.sudoku.box_size = box
    spec.sudoku.cells.extend(cells)
    return spec


def parse_sudoku_board(puzzle, text):
    grid = parse_sudoku(text.replace("/", "")).sudoku
    side = grid.box_size * grid.box_size
    board = puzzles_pb2.PuzzleSolution(height=side, width=side)
    board.cells.extend(grid.cells)
    return board
