#!/usr/bin/env python3
"""Makes tests/data/takuzu/puzzles.txt: Unruly puzzles from Debian's sgt-unruly and signed 6x6 Tango puzzles
from our own generator, each with its unique solution (format in tests/data/takuzu/README.md).

Rules ([Mata Ali & Mencia 2025] §2): every row and column holds as many ones as zeros, no three equal cells in a row or
column, '=' / 'x' signs between neighbours, and for Takuzu in unique mode no two equal rows or columns.
Solutions are found and counted by a small propagation + backtracking solver; every puzzle written has
exactly one solution under its own rules. Deterministic: fixed seeds for sgt-unruly and for the Tango
generator.

Usage: scripts/make_takuzu_data.py [output]   (default tests/data/takuzu/puzzles.txt)
"""

import os
import random
import subprocess
import sys

SGT_UNRULY = "/usr/games/sgt-unruly"


class Puzzle:
    def __init__(self, rows, cols, givens, signs=(), unique=False):
        self.rows, self.cols = rows, cols
        self.givens = list(givens)  # -1 blank, 0, 1; row-major
        self.signs = list(signs)  # (a, b, parity): parity 0 '=', 1 'x'; cells row-major
        self.unique = unique
        self.triples = []
        for r in range(rows):
            for c in range(cols):
                if c + 2 < cols:
                    self.triples.append((r * cols + c, r * cols + c + 1, r * cols + c + 2))
                if r + 2 < rows:
                    self.triples.append((r * cols + c, (r + 1) * cols + c, (r + 2) * cols + c))
        self.lines = [[r * cols + c for c in range(cols)] for r in range(rows)]
        self.lines += [[r * cols + c for r in range(rows)] for c in range(cols)]


def propagate(p, v):
    """Applies the forced moves in place; False on a contradiction."""
    changed = True
    while changed:
        changed = False
        for a, b, parity in p.signs:
            if v[a] >= 0 and v[b] >= 0:
                if (v[a] ^ v[b]) != parity:
                    return False
            elif v[a] >= 0:
                v[b] = v[a] ^ parity
                changed = True
            elif v[b] >= 0:
                v[a] = v[b] ^ parity
                changed = True
        for t in p.triples:
            vals = [v[c] for c in t]
            for x in (0, 1):
                n = vals.count(x)
                if n == 3:
                    return False
                if n == 2 and -1 in vals:
                    v[t[vals.index(-1)]] = 1 - x
                    changed = True
                    vals = [v[c] for c in t]
        for line in p.lines:
            half = len(line) // 2
            ones = sum(1 for c in line if v[c] == 1)
            zeros = sum(1 for c in line if v[c] == 0)
            if ones > half or zeros > half:
                return False
            if ones + zeros < len(line) and (ones == half or zeros == half):
                fill = 0 if ones == half else 1
                for c in line:
                    if v[c] < 0:
                        v[c] = fill
                changed = True
        if p.unique:
            for group in (p.lines[: p.rows], p.lines[p.rows :]):
                full = [tuple(v[c] for c in line) for line in group if all(v[c] >= 0 for c in line)]
                if len(set(full)) != len(full):
                    return False
    return True


def solve(p, limit=2, rng=None):
    """Up to `limit` solutions (lists of 0/1). With rng, values are tried in random order."""
    solutions = []

    def search(v):
        if len(solutions) >= limit or not propagate(p, v):
            return
        free = [c for c in range(len(v)) if v[c] < 0]
        if not free:
            solutions.append(list(v))
            return
        cell = free[0]
        order = [0, 1]
        if rng:
            rng.shuffle(order)
        for x in order:
            w = list(v)
            w[cell] = x
            search(w)

    search(list(p.givens))
    return solutions


def board_text(p, v):
    return "/".join("".join(str(v[r * p.cols + c]) for c in range(p.cols)) for r in range(p.rows))


def decode_unruly(game_id):
    params, desc = game_id.split(":")
    unique = "u" in params
    dims = params.rstrip("u")
    w, h = (int(x) for x in dims.split("x"))
    givens = [-1] * (w * h)
    pos = 0
    for ch in desc:
        if ch in "zZ":
            pos += 25
            continue
        pos += ord(ch.lower()) - ord("a")
        if pos < w * h:
            givens[pos] = 0 if ch.islower() else 1
        pos += 1
    assert pos == w * h + 1, game_id
    return Puzzle(h, w, givens, unique=unique)


def unruly_puzzles():
    out = []
    for size in (6, 8, 10, 14):
        for variant, seed in (("de", 11), ("dn", 12), ("ude", 13), ("udn", 14)):
            unique = variant.startswith("u")
            params = f"{size}x{size}{'u' if unique else ''}d{variant[-1]}"
            ids = subprocess.run([SGT_UNRULY, "--generate", "5", f"{params}#{seed}"], check=True,
                                 capture_output=True, text=True).stdout.split()
            for k, game_id in enumerate(ids):
                p = decode_unruly(game_id)
                sols = solve(p)
                assert len(sols) == 1, (game_id, len(sols))
                name = f"unruly-{size}x{size}-{variant}-{k + 1}"
                out.append((name, "takuzu", game_id, board_text(p, sols[0])))
    return out


def random_board(rows, cols, rng):
    return solve(Puzzle(rows, cols, [-1] * (rows * cols)), limit=1, rng=rng)[0]


def tango_text(p):
    """Cell rows with '=' / 'x' between cells, interleaved with one-mark-per-column sign rows."""
    horizontal, vertical = {}, {}
    for a, b, parity in p.signs:
        mark = "x" if parity else "="
        if b == a + 1:
            horizontal[a] = mark
        else:
            vertical[a] = mark
    lines = []
    for r in range(p.rows):
        row = ""
        for c in range(p.cols):
            cell = r * p.cols + c
            row += "." if p.givens[cell] < 0 else str(p.givens[cell])
            if c + 1 < p.cols:
                row += horizontal.get(cell, "")
        lines.append(row)
        if r + 1 < p.rows:
            lines.append("".join(vertical.get(r * p.cols + c, ".") for c in range(p.cols)))
    return "/".join(lines)


def tango_puzzles(count=20, rows=6, cols=6, seed=2024):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = random_board(rows, cols, rng)
        clues = [("given", c) for c in range(rows * cols)]
        for r in range(rows):
            for c in range(cols):
                if c + 1 < cols:
                    clues.append(("sign", (r * cols + c, r * cols + c + 1)))
                if r + 1 < rows:
                    clues.append(("sign", (r * cols + c, (r + 1) * cols + c)))
        rng.shuffle(clues)

        # Clues stay independent (cells + one "fixed" node form a forest), as in the paper's count of
        # optimized variables: no sign between cells that givens and other signs already tie together.
        parent = list(range(rows * cols + 1))

        def find(x):
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        def make(chosen):
            givens = [-1] * (rows * cols)
            signs = []
            for kind, what in chosen:
                if kind == "given":
                    givens[what] = board[what]
                else:
                    a, b = what
                    signs.append((a, b, board[a] ^ board[b]))
            return Puzzle(rows, cols, givens, signs)

        chosen = []
        for kind, what in clues:
            a, b = (what, rows * cols) if kind == "given" else what
            if find(a) == find(b):
                continue
            parent[find(a)] = find(b)
            chosen.append((kind, what))
            if len(solve(make(chosen))) == 1:
                break
        for clue in list(chosen):
            trial = [x for x in chosen if x != clue]
            if len(solve(make(trial))) == 1:
                chosen = trial
        signs = sum(1 for kind, _ in chosen if kind == "sign")
        if signs < 4:
            continue
        p = make(chosen)
        sols = solve(p)
        assert len(sols) == 1 and sols[0] == board
        out.append((f"tango-6x6-{len(out) + 1}", "tango", tango_text(p), board_text(p, board)))
    return out


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "tests/data/takuzu/puzzles.txt")
    rows = unruly_puzzles() + tango_puzzles()
    with open(path, "w") as f:
        f.write("# Generated by scripts/make_takuzu_data.py; format in README.md.\n")
        f.write("# name kind input solution\n")
        for row in rows:
            f.write(" ".join(row) + "\n")
    print(f"wrote {len(rows)} puzzles to {path}")


if __name__ == "__main__":
    main()
