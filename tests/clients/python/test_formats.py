"""The Python text parsers give what the C++ ones of the qsolve client give: the same PuzzleSpec and board
(message equality), or the same INVALID_ARGUMENT message, for the stored puzzles of tests/data, the fuzz
corpora (puzzle text, NUL, board text) and inputs made here to reach each parser's errors; and the writers
write the same text back for every puzzle that parsed (or refuse it alike). The C++ answers come from
qs_puzzle_text_dump of this build tree."""
import collections
import pathlib
import subprocess

import pytest
import qsolver
from conftest import BINARY_DIR, NYT_SOLUTION, NYT_SUDOKU, ROOT

# Inputs made to reach the parsers' branches, errors included (board texts after a NUL).
MADE = {
    "sudoku": [NYT_SUDOKU, "1.3.\n..1.\n.1..\n4..1", "12x", "123", "G" * 16, "9" * 16, "ab" * 8,
               "+-----+\n|1.|3.|\n" + "." * 12, NYT_SUDOKU + "\0" + NYT_SOLUTION,
               NYT_SUDOKU + "\0" + NYT_SOLUTION[:80] + "x", "p" * 625],
    "nqueens": ["8", " 8 torus ", "6x9 adjacent queen=1,1", "9x6 cylinder distance=2", "8x", "0", "1025",
                "8 torus cylinder", "8 adjacent distance=1", "8 distance=x", "8 queen=9,1", "8 queen=1",
                "8 queen=+1,-1", "8 bishop", "", "8X8 queen=2,3 queen=4,5", "4\0.Q../...Q/Q.../..Q.",
                "4\0.Q../...Q/Q.../..Q", "4\0.Q../...Q/Q.../..Qz"],
    "queens": ["AABB/AABB/CCDD/CCDD", "ABC/ABC", "AAbB\nAABB\n\nCCDD/CCdD\n", "A#B/##B/CCB", "AB/A", "A1/BB", "",
               "ab/ba", "AB/AB\0Q./.Q"],
    "tents": ["8x8:bbhicafbhbb_g,3,1,1,1,1,2,1,2,3,0,1,3,1,0,3,1", "1 0 1 1/...A 1/...A 0/.... 1/.A.. 1",
              "1,0, 1 1\n...A 1\n# comment\n. . . A 0/.... 1/.A.. 1", "3x3:_h,1,0,0,0,0,1", "3x3:z,0,0,0,0,0,0",
              "3x3:b,0,0,0,0,0", "3x3:b,0,0,0,0,0,x", "3x3:b_,0,0,0,0,0,0", "0x3:a,1", "1001x2:a", "1 2",
              "1 x/...A 1", "1 0/.A", "1 0/.B 1", "1 0/... 1", "2x1:y,0,0,0", "2x2:b_a,1,1,0,2"],
    "chess": ["QQQQ/QQQQ/QQQQ/QQQQ/regions/AABB/AABB/CCDD/CCDD", "8x8 N", "8X6 k", "QRBN/K.#q",
              "piece Z 1,2 -1,2 0,1*\nZZ/ZZ\nweight Z 3\npenalty 8\nvariant max", "variant coloured\nQQ/QQ",
              "variant colored/QQ/QQ/regions/A1/A1", "variant other", "piece Q 1,1", "piece 1 1,1",
              "piece Z 1", "weight Q x\nQQ", "weight R 2\nQQ", "penalty x", "8x8 N\nQQ", "Q.Z/QQQ",
              "QQ/Q", "QQ/QQ/regions/AB", "QQ/QQ/regions/AB/A", "QQ/QQ/regions/A-/AB", "QQ/QQ/regions/AB/AB/regions",
              "# a comment\nQQ/QQ", "0x8 N", "8x8 NN", "QQ QQ", "", "QQ/QQ\0Q./.Q", "QQ/QQ\0Q1/.Q"],
    "qubo": ["3 6 0\n0 0 -1\n1 1 -1\n2 2 -1\n0 1 2\n0 2 2\n1 2 2", "# c\n\n2 1 0.5\n0 1 -1e3\n",
             "2 1\n0 1 1", "2 1 x\n0 1 1", "2 1 0\n0 2 1", "2 2 0\n0 1 1", "", "2 1 0\n0 1 w",
             "-1 0 0", "2 1 inf\n0 0 nan", "2 1 0\n0 1 1\0" + "10", "2 1 0\n0 1 1\0" + "1x",
             # detection: qbsolv, coo (header or triples that are not the text format), ising, orlib, none
             "c x\np qubo 0 2 1 0\n0 0 1\n", "2 1 0.5\n0 1 -1\n", "0 1 -1\n1 1 2\n", "# vartype=SPIN\n0 1 -1\n",
             "ising 2\nJ 0 1 1\n", "10\n50 3\n", "1 2\n", "# only\nc comments\n", "p\n", "x y\n",
             # qbsolv: terms kept as given (pairs ordered), minimised
             "c a\nc\np qubo 0 3 2 2\n0 0 -1.5\n2 2 1\n2 1 4\n0 2 -3\n\0" + "101",
             "c\np qubo 0 2 1 0\n0 0 x\n", "p qubo 0 2 1 0\n2 2 1\n", "p qubo 0 2 1 1\n0 0 1\n", "p qubo 0 2\n",
             "p qubx 0 2 0 0\n", "p qubo 0 -1 0 0\n", "p qubo 0 2 3 0\n", "p qubo 0 2 0 y\n",
             "p qubo 0 2 0 1\n0 1\n", "# x\np qubo 0 2 0 0\n", "p qubo 0 2 1 0\n0 0 1e999\n",
             # orlib: maximised (stored negated), one or both triangles, several instances
             "1\n3 3\n1 1 5\n1 2 -3\n3 2 4\n", "1\n3 5\n1 1 5\n1 2 -3\n2 1 -3\n3 2 4\n2 3 4\n\0" + "1/1/0",
             "1\n2 2\n1 2 3\n2 1 4\n", "2\n2 1\n1 2 1\n3 1\n3 3 -2\n", "1\n2 1\n1 3 1\n", "1\n2 2\n1 2 1\n",
             "3\n2 1\n1 2 1\n", "1\n2 0\n2 0\n", "0\n", "1\n0 0\n", "1\n2\n", "1\n2 1\n1 2 q\n",
             "# c\n1\n2 2\n1 1 0\n2 2 0.25\n", "1\n2 1\n1 2 1 4\n",
             # coo: 0 .. the largest index, pairs ordered, vartype header anywhere
             "0 1 2\n3 1 -1\n2 2 0.5\n\0" + "1010", "# vartype=BINARY\n1 0 1\n", "0 1 2\n# vartype=SPIN\n",
             "#vartype=SPIN\n0 1 2\n", "# vartype=spin\n0 1 2\n", "0 1 2\n0 1\n", "0 -1 2\n", "0 x 2\n",
             "0 1 nan\n", "0 2147483647 1\n", "3 3 0\n0 1 1\n5 1 1\n",
             # ising: SPIN, optional offset
             "ising 3 -0.5\nh 0 1\nJ 2 1 -2\n# c\nh 2 0\n\0" + "10/1", "ising 2\nK 0 1 1\n", "ising 2\n# c\nJ 0 2 1\n",
             "ising 2\nh 1 nan\n", "ising 2\nJ 1 1 1\n", "ising\n", "ising 2 0 1\n", "ising x\n",
             "ising 2 y\n", "ising 2\nh 0\n", "ising 2\nJ 0 1\n", "ising 0\nh 0 1\n", "ising -1\n"],
    "maxcut": ["# a triangle\n3 3\n1 2 1\n2 3 -1\n1 3 2.5\n", "3 1\n1 4 1\n", "3 1\n2 2 1\n", "3 1\n1 2 one\n",
               "3 2\n1 2 1\n", "3\n", "0 0\n", "", "# c\n", "3 0\n\0" + "101", "2 1\n1 2 0.1\n\0" + "1/0",
               "2 1\n1 2 1 1\n", "2 x\n", "2 -1\n", "x 1\n1 2 1\n", "2 1\n0 2 1\n", "2 1\nx 2 1\n",
               "2 1\n1 2 inf\n", "2 1\n1 2 1e-7\n\0" + "1x", "4 2\n1 2 1\n3 4 -1\n\0" + ""],
    "takuzu": ["6x6:AcfECaeDGb", "6x6u:CibfEFcab", "8x8ude:" + "z" * 2 + "n", "6:AcfECaeDGb",
               "6x6:AcfECaeDG", "6x6:AcfECaeDGbb", "6x6#123", "6x6x:Acf", "2000x2:a", "6x6:Ac1",
               "1..0../....1./0...../....../..1.../.0...1", "10/0", "1a/01", " ", "10/01\0" + "10/01",
               "10/01\0" + "1./0x", "10/01\0" + "10/0"],
    "tango": ["1=..0/..../...1/..x./0.../..../..x..", "1=. . 0\n. . . .\n. . . 1\n. . x .\n0 . . .\n. . . .\n. .x. .",
              "\u2600\u263e/../\U0001F319\U0001F31E", "SM/-=/MS", "1=/../..", "=1/../..", "1==0/../..",
              "10/..", "10/.../01", "10/ab/01", "1q/../01", "10//01", "10/../0", "", "\u2600\ufe0f1/x./01",
              "10/../01\0" + "10/01", "10/../01\0" + "\u2600\u263e/01", "10/../01\0" + "1/01"],
}


def stored_inputs():
    """(kind, input) pairs from tests/data: puzzles with their solution boards."""
    data = ROOT / "tests" / "data"
    out = []
    for line in (data / "queens" / "linkedin_queens.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            _, regions, solution = line.split()
            out.append(("queens", regions + "\0" + solution))
    for line in (data / "takuzu" / "puzzles.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            _, kind, text, solution = line.split()
            out.append((kind, text + "\0" + solution))
    lines = (data / "tents" / "sgt_puzzles.txt").read_text().splitlines()
    for k, line in enumerate(lines):
        if line.startswith("id "):
            rows = int(line[3:].split(":")[0].split("x")[1])
            out.append(("tents", line[3:] + "\0" + "/".join(lines[k + 1:k + 1 + rows])))
    for path in sorted((data / "qubo").glob("*.qubo")) + sorted((data / "qubo").glob("*.txt")):
        out.append(("qubo", path.read_text()))
    for path in sorted((data / "maxcut").glob("*.txt")):
        out.append(("maxcut", path.read_text()))
    return out


def corpus_inputs():
    """The stored fuzz inputs of the kinds the package's formats module reads (the others, such as zip,
    are parsed by the server's Parse; test_parse.py and test_linkedin_games.py cover them)."""
    out = []
    for folder in ("corpus", "regressions"):
        for path in sorted((ROOT / "tests" / "fuzz" / folder).glob("*_text_fuzzer/*")):
            kind = path.parent.name[:-len("_text_fuzzer")]
            if kind in qsolver.KINDS:
                out.append((kind, path.read_bytes().decode()))
    return out


def all_inputs():
    cases = [(kind, text) for kind, texts in MADE.items() for text in texts]
    return cases + stored_inputs() + corpus_inputs()


def cpp_answers(tmp_path, cases):
    """{case file: (spec kind, bytes, board kind, bytes, text kind, bytes)} from the C++ parsers."""
    dump = BINARY_DIR / "tests" / "qs_puzzle_text_dump"
    if not dump.exists():
        pytest.fail(f"{dump} is missing: build the qs_puzzle_text_dump target")
    by_kind = collections.defaultdict(list)
    for index, (kind, text) in enumerate(cases):
        path = tmp_path / f"case{index}"
        path.write_bytes(text.encode())
        by_kind[kind].append(str(path))
    answers = {}
    for kind, paths in by_kind.items():
        out = subprocess.run([str(dump), kind, *paths], check=True, capture_output=True, timeout=120).stdout
        for line in out.decode().splitlines():
            path, *fields = line.split("\t")
            answers[pathlib.Path(path).name] = tuple(bytes.fromhex(f) if k % 2 else f for k, f in enumerate(fields))
    return answers


def _attempt(name, function, *args):
    """(name, result) or (name_error, message)."""
    try:
        return name, function(*args)
    except qsolver.ParseError as e:
        return name + "_error", e.details


def python_answer(kind, text):
    """(spec kind, PuzzleSpec or message, board kind, PuzzleSolution or message, text kind, text or
    message), as the dump tool says."""
    puzzle_text, _, board_text = text.partition("\0")
    spec_kind, spec = _attempt("spec", qsolver.parse_puzzle, kind, puzzle_text)
    if spec_kind != "spec":
        return "error", spec, "none", "", "none", ""
    board = ("none", "") if "\0" not in text else _attempt("board", qsolver.parse_board, kind, spec, board_text)
    return ("spec", spec, *board, *_attempt("text", qsolver.format_puzzle, kind, spec))


def test_python_parsers_match_the_cpp_ones(tmp_path):
    cases = all_inputs()
    answers = cpp_answers(tmp_path, cases)
    assert len(answers) == len(cases)
    checked = collections.Counter()
    for index, (kind, text) in enumerate(cases):
        want_kind, want_spec, want_board_kind, want_board, want_text_kind, want_text = answers[f"case{index}"]
        got_kind, got_spec, got_board_kind, got_board, got_text_kind, got_text = python_answer(kind, text)
        where = f"{kind} {text!r}"
        assert got_kind == want_kind, f"{where}: C++ {want_kind} {want_spec!r}, Python {got_spec}"
        if want_kind == "error":
            assert got_spec == want_spec.decode(), where
        else:  # the same bytes (NaN weights included), or else the message diff
            if got_spec.SerializeToString() != want_spec:
                assert got_spec == qsolver.puzzles_pb2.PuzzleSpec.FromString(want_spec), where
        assert got_board_kind == want_board_kind, f"{where}: C++ {want_board!r}, Python {got_board}"
        if want_board_kind == "board_error":
            assert got_board == want_board.decode(), where
        elif want_board_kind == "board" and got_board.SerializeToString() != want_board:
            assert got_board == qsolver.puzzles_pb2.PuzzleSolution.FromString(want_board), where
        assert (got_text_kind, got_text) == (want_text_kind, want_text.decode()), where
        checked[(kind, want_kind, want_board_kind)] += 1
        checked[(kind, want_text_kind)] += 1
    # Every kind was seen parsing and failing, with a board that parses, and written back or refused.
    for kind in qsolver.KINDS:
        assert checked[(kind, "error", "none")] > 0, kind
        assert checked[(kind, "spec", "board")] > 0, kind
    for kind in ("maxcut", "sudoku", "queens", "takuzu", "tango", "tents"):
        assert checked[(kind, "text")] > 0, kind
    for kind in ("chess", "nqueens", "qubo", "queens", "takuzu"):  # no writer, or a text it cannot write
        assert checked[(kind, "text_error")] > 0, kind


def test_kinds_are_the_clis():
    assert qsolver.KINDS == ("chess", "maxcut", "nqueens", "qubo", "queens", "sudoku", "takuzu", "tango", "tents")
    with pytest.raises(qsolver.ParseError, match="^INVALID_ARGUMENT: unknown puzzle kind 'x' \\(one of chess,"):
        qsolver.parse_puzzle("x", "8")
