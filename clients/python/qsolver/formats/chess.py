"""Chess-piece boards as text (core/families/chess/chess_text.cc): rows of piece letters ('.' or '#' for a cell
that takes no piece, lower case for a placed piece), an optional "regions" line and grid, "variant",
"piece", "weight" and "penalty" lines, or "RxC L" for a board whose cells all take one piece."""
from .._proto import chess_pb2, puzzles_pb2
from ._common import INT32, UINT32, atod, atoi, board_rows, error, is_alnum, is_alpha, split_any, strip_ascii

STANDARD = {"Q": chess_pb2.PIECE_QUEEN, "R": chess_pb2.PIECE_ROOK, "B": chess_pb2.PIECE_BISHOP,
            "N": chess_pb2.PIECE_KNIGHT, "K": chess_pb2.PIECE_KING}


def _chess_error(what):
    return error(f"chess text: {what}")


def _move(token, where):
    move = chess_pb2.PieceMove()
    if token.endswith("*"):
        move.slide = True
        token = token[:-1]
    parts = token.split(",")
    drow = atoi(parts[0], INT32) if len(parts) == 2 else None
    dcol = atoi(parts[1], INT32) if len(parts) == 2 else None
    if drow is None or dcol is None:
        raise _chess_error(f"{where}: move '{token}' is not drow,dcol (with an optional '*')")
    move.drow, move.dcol = drow, dcol
    return move


class _ChessTextParser:
    """Collects the directives and grids; pieces are numbered in order of first appearance."""

    def __init__(self):
        self.chess = chess_pb2.ChessPuzzle()
        self.custom = {}
        self.index = {}
        self.weights = {}
        self.board = []
        self.region_rows = []
        self.fill = ""

    def parse(self, text):
        # Rows may start with '#' (a cell that takes no piece): comments are "# ...".
        lines = [strip_ascii(line) for line in split_any(text, "\n/")]
        lines = [line for line in lines if line and not line.startswith("# ")]
        in_regions = False
        for k, line in enumerate(lines):
            where = f"line {k + 1}"
            words = split_any(line, " \t", skip_empty=True)
            keyword = words[0].lower()
            if keyword == "regions" and len(words) == 1:
                if in_regions:
                    raise _chess_error(f"{where}: a second 'regions' line")
                in_regions = True
            elif keyword == "variant" and len(words) == 2:
                self._variant(words[1], where)
            elif keyword == "piece" and len(words) >= 3:
                self._define_piece(words, where)
            elif keyword == "weight" and len(words) == 3:
                weight = atod(words[2])
                if len(words[1]) != 1 or weight is None:
                    raise _chess_error(f"{where}: expected 'weight <letter> <number>'")
                self.weights[words[1].upper()] = weight
            elif keyword == "penalty" and len(words) == 2:
                penalty = atod(words[1])
                if penalty is None:
                    raise _chess_error(f"{where}: expected 'penalty <number>'")
                self.chess.penalty = penalty
            elif len(words) == 2 and not in_regions and not self.board and not self.fill:
                self._fill(words, where)
            elif len(words) == 1:
                (self.region_rows if in_regions else self.board).append(words[0])
            else:
                raise _chess_error(f"{where}: cannot read '{line}'")
        return self._build()

    def _variant(self, word, where):
        value = word.lower()
        if value == "max":
            self.chess.variant = chess_pb2.CHESS_MAX
        elif value in ("coloured", "colored"):
            self.chess.variant = chess_pb2.CHESS_COLOURED
        else:
            raise _chess_error(f"{where}: variant '{word}' is not max or coloured")

    def _define_piece(self, words, where):
        if len(words[1]) != 1 or not is_alpha(words[1]):
            raise _chess_error(f"{where}: the piece letter '{words[1]}' is not one letter")
        letter = words[1].upper()
        if letter in STANDARD or letter in self.custom:
            raise _chess_error(f"{where}: piece '{letter}' is already defined")
        piece = chess_pb2.CustomPiece(symbol=letter)
        for token in words[2:]:
            piece.moves.append(_move(token, where))
        self.custom[letter] = piece

    def _fill(self, words, where):
        size = split_any(words[0], "xX")
        rows = atoi(size[0], UINT32) if len(size) == 2 else None
        cols = atoi(size[1], UINT32) if len(size) == 2 else None
        if not rows or not cols or len(words[1]) != 1:
            raise _chess_error(f"{where}: expected '<rows>x<cols> <piece letter>', got '{words[0]} {words[1]}'")
        self.chess.rows, self.chess.cols = rows, cols
        self.fill = words[1].upper()

    def _piece_index(self, letter, where):
        """The index (1-based) of a piece letter in chess.pieces, adding it on first use."""
        if letter in self.index:
            return self.index[letter]
        if letter in STANDARD:
            self.chess.pieces.add().standard = STANDARD[letter]
        elif letter in self.custom:
            self.chess.pieces.add().custom.CopyFrom(self.custom[letter])
        else:
            raise _chess_error(f"{where}: unknown piece '{letter}' (Q R B N K, or a letter defined by a "
                               "'piece' line)")
        self.index[letter] = len(self.chess.pieces)
        return len(self.chess.pieces)

    def _build_board(self):
        if not self.board:
            raise _chess_error("no board: give rows of piece letters or '<rows>x<cols> <piece>'")
        width = len(self.board[0])
        for r, row in enumerate(self.board):
            where = f"board row {r + 1}"
            if len(row) != width:
                raise _chess_error(f"{where}: {len(row)} cells, row 1 has {width}")
            for c, ch in enumerate(row):
                if ch in ".#":
                    self.chess.cell_pieces.append(0)
                    continue
                if not is_alpha(ch):
                    raise _chess_error(f"{where}: unexpected '{ch}'")
                self.chess.cell_pieces.append(self._piece_index(ch.upper(), where))
                if ch.islower():
                    self.chess.placed.append(r * width + c)
        self.chess.rows, self.chess.cols = len(self.board), width
        # One piece type on every cell: the compact form the compiler reads as "every cell takes pieces[0]".
        if len(self.chess.pieces) == 1 and all(p == 1 for p in self.chess.cell_pieces):
            del self.chess.cell_pieces[:]

    def _build_regions(self):
        if len(self.region_rows) != self.chess.rows:
            raise _chess_error(f"the region grid has {len(self.region_rows)} rows, the board {self.chess.rows}")
        ids = {}
        for r, row in enumerate(self.region_rows):
            if len(row) != self.chess.cols:
                raise _chess_error(f"region row {r + 1}: {len(row)} cells, the board has {self.chess.cols}")
            for ch in row:
                if not is_alnum(ch):
                    raise _chess_error(f"region row {r + 1}: unexpected '{ch}' (regions are letters or digits)")
                self.chess.regions.append(ids.setdefault(ch, len(ids)))

    def _build(self):
        if self.fill:
            if self.board:
                raise _chess_error("a board grid and a '<rows>x<cols> <piece>' line cannot both be given")
            self._piece_index(self.fill, "board")
        else:
            self._build_board()
        if self.region_rows:
            self._build_regions()
        for letter in sorted(self.weights):
            if letter not in self.index:
                raise _chess_error(f"weight for '{letter}', which is not on the board")
            self.chess.pieces[self.index[letter] - 1].weight = self.weights[letter]
        spec = puzzles_pb2.PuzzleSpec()
        spec.chess.CopyFrom(self.chess)
        return spec


def parse_chess(text):
    return _ChessTextParser().parse(text)


def parse_chess_board(puzzle, text):
    board = puzzles_pb2.PuzzleSolution()
    for row in board_rows(text, "chess text: "):
        for c, ch in enumerate(row):
            empty = ch in ".#"
            if not empty and not is_alpha(ch):
                raise _chess_error(f"board row {len(board.rows) + 1} column {c + 1}: unexpected '{ch}' "
                                   "(piece letters, '.' and '#')")
            board.cells.append(0 if empty else 1)
        board.rows.append(row.upper())
    if not board.rows:
        raise _chess_error("board: no rows")
    board.height, board.width = len(board.rows), len(board.rows[0])
    return board
