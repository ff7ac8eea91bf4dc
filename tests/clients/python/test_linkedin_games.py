"""LinkedIn's Zip and Patches through the Python client, which has no code for either: the text goes to the
server's Parse, the solve runs with no solver flags, and the answer is the contract's board (Zip: the step at
which the path enters each cell; Patches: the index of the clue whose rectangle holds each cell). The
protobuf route works too: a ZipPuzzle / PatchesPuzzle built from the generated modules."""
import qsolver
from qsolver._proto import puzzles_pb2


def solve_example(client, kind):
    family = client.families()[kind]
    assert kind not in qsolver.KINDS  # the package reads no text of it
    result = client.solve(kind, family.example, time_limit_seconds=20)
    assert result.valid, result.violations
    return client.parse(kind, family.example).puzzle, result


def test_zip_example_is_one_path_through_every_cell(client):
    puzzle, result = solve_example(client, "zip")
    zip_puzzle = puzzle.zip
    cells = list(result.summary.best_solution.cells)
    size = zip_puzzle.rows * zip_puzzle.cols
    assert sorted(cells) == list(range(1, size + 1))
    steps = [cells[w] for w in zip_puzzle.waypoints]
    assert steps[0] == 1 and steps[-1] == size and steps == sorted(steps)
    order = sorted(range(size), key=lambda cell: cells[cell])
    for a, b in zip(order, order[1:]):
        ra, ca = divmod(a, zip_puzzle.cols)
        rb, cb = divmod(b, zip_puzzle.cols)
        assert abs(ra - rb) + abs(ca - cb) == 1


def test_patches_example_is_a_tiling_by_the_clues(client):
    puzzle, result = solve_example(client, "patches")
    patches = puzzle.patches
    cells = list(result.summary.best_solution.cells)
    assert len(cells) == patches.rows * patches.cols
    for index, clue in enumerate(patches.clues):
        assert cells[clue.cell] == index
        held = [i for i, owner in enumerate(cells) if owner == index]
        rows = {i // patches.cols for i in held}
        cols = {i % patches.cols for i in held}
        assert len(held) == len(rows) * len(cols)  # a full rectangle
        if clue.area:
            assert len(held) == clue.area


def test_a_zip_message_solves_without_text(client):
    # 2x3, path 0 1 2 5 4 3: waypoints at its ends and in the middle.
    spec = puzzles_pb2.PuzzleSpec()
    spec.zip.rows, spec.zip.cols = 2, 3
    spec.zip.waypoints.extend([0, 5, 3])
    result = client.solve(spec)
    assert result.valid
    assert list(result.summary.best_solution.cells) == [1, 2, 3, 6, 5, 4]


def test_sudoku_variant_texts_go_to_the_server(client):
    # LinkedIn's Mini Sudoku: 6x6 with 2x3 boxes, a form the package's own Sudoku parser does not read.
    text = "boxes 2x3\n" + "\n".join(["1.3...", "...2..", "..5...", "...6..", "..1...", "...4.."])
    spec = client.parse("sudoku", text).puzzle
    assert (spec.sudoku.box_rows, spec.sudoku.box_cols) == (2, 3)
    result = client.solve("sudoku", text, time_limit_seconds=20)
    assert result.valid, result.violations
    assert len(result.summary.best_solution.cells) == 36
