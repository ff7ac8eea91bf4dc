"""The puzzle client: compile, solve (streamed events and a result), solve_batch (many puzzles on one
stream, bounded in flight), count, generate and validate, taking puzzles as qsolve's text formats
(kind, text) or as qs.v1 messages. A text of a kind the local formats module reads is parsed here, any
other kind by the server (parse, Solver.Parse), so that every kind the server lists (families) works.
Every failed call raises qsolver.Error ("CODE: message")."""
import collections
import threading

import grpc
from google.protobuf.message import Message

from . import formats
from ._channel import ChannelConfig
from ._errors import Error, ParseError
from ._progress import BatchTracker, Reporter, SolveTracker
from ._proto import puzzles_pb2, solve_pb2, solver_service_pb2_grpc
from ._requests import compile_options, model_request, puzzle_spec, solve_params, solve_request
from ._results import BatchResult, ModelResult, ValidateResult

_COUNT_METHODS = {"auto": solve_pb2.COUNT_METHOD_AUTO, "sat": solve_pb2.COUNT_METHOD_SAT,
                  "bdd": solve_pb2.COUNT_METHOD_BDD}
_DIFFICULTIES = {"easy": solve_pb2.DIFFICULTY_EASY, "medium": solve_pb2.DIFFICULTY_MEDIUM,
                 "hard": solve_pb2.DIFFICULTY_HARD}


def _choice(name, value, choices):
    if isinstance(value, int):
        return value
    if value not in choices:
        raise ValueError(f"{name}: one of {', '.join(choices)}, got '{value}'")
    return choices[value]


def parses_locally(kind):
    """Whether the formats module reads texts of this kind (else the server parses them)."""
    return kind in formats.KINDS


def parse_request(kind, text, board=None):
    if not isinstance(kind, str) or not isinstance(text, str):
        raise TypeError("expected a puzzle kind and its text")
    if board is not None and not isinstance(board, str):
        board = "/".join(board)
    return solve_pb2.ParseRequest(kind=kind, text=text, board=board or "")


def parse_error(error):
    """A refusal of Parse as the ParseError a local parser raises (the message names the field)."""
    return ParseError(error.details) if error.code == grpc.StatusCode.INVALID_ARGUMENT else error


def server_parsed(kind, text):
    """(kind, text) when the server must parse this puzzle, else None (a message, or a text the local formats
    module reads). A text of a local kind that the module refuses goes to the server too: its formats are
    the authority, and may take forms this package's copy does not (Sudoku variants' lines)."""
    if not isinstance(kind, str) or not isinstance(text, str):
        return None
    if not parses_locally(kind):
        return kind, text
    return (kind, text) if local_refusal(kind, text) is not None else None


def local_refusal(kind, text):
    """The ParseError the formats module raises on this text of one of its kinds, else None. When the server
    refuses such a text too, this is the error a call raises, as before the server parsed any."""
    if not parses_locally(kind):
        return None
    try:
        formats.parse_puzzle(kind, text)
    except ParseError as refusal:
        return refusal
    return None


def count_request(kind, text, limit, method, time_limit_seconds):
    return solve_pb2.CountRequest(puzzle=puzzle_spec(kind, text), limit=limit,
                                  method=_choice("method", method, _COUNT_METHODS),
                                  time_limit_seconds=time_limit_seconds)


def generate_request(kind, size, cols, count, difficulty, clues, seed, time_limit_seconds, sampling):
    request = solve_pb2.GenerateRequest(family=kind, rows=size, cols=cols, count=count,
                                        difficulty=_choice("difficulty", difficulty, _DIFFICULTIES),
                                        target_clues=clues, time_limit_seconds=time_limit_seconds,
                                        sampling=solve_params(sampling))
    if seed is not None:
        request.seed = seed
    return request


def validate_request(kind, text, board):
    spec = puzzle_spec(kind, text)
    if not isinstance(board, puzzles_pb2.PuzzleSolution):
        # A PuzzleSpec field is also the name of the text kind whose board parser reads its boards.
        board_kind = kind if isinstance(kind, str) else spec.WhichOneof("puzzle")
        if not isinstance(board, str):
            board = "/".join(board)
        board = formats.parse_board(board_kind, spec, board)
    return solve_pb2.ValidateRequest(puzzle=spec, solution=board)


def _has_id(item):
    """(id, kind, text) or (id, PuzzleSpec | SolveRequest)."""
    return isinstance(item, tuple) and (len(item) == 3 or (len(item) == 2 and isinstance(item[1], Message)))


def item_id_of(index, item):
    if isinstance(item, solve_pb2.BatchItem):
        return item.id
    return str(item[0]) if _has_id(item) else str(index)


def item_text(item):
    """(kind, text) of a batch item the server must parse, else None."""
    if not isinstance(item, tuple):
        return None
    body = item[1:] if _has_id(item) else item
    return server_parsed(*body) if len(body) == 2 else None


def with_puzzle(index, item, spec):
    """The batch item with its text replaced by the parsed PuzzleSpec, under the same id."""
    return (item_id_of(index, item), spec)


def batch_item(index, item, reduction, params):
    """A BatchItem from (kind, text), a PuzzleSpec or a SolveRequest, each optionally after an id as
    (id, kind, text) or (id, message), or a BatchItem; the id is the item's position when none is given."""
    if isinstance(item, solve_pb2.BatchItem):
        return item
    item_id = item_id_of(index, item)
    if _has_id(item):
        item = item[1:]
    args = item if isinstance(item, tuple) else (item,)
    return solve_pb2.BatchItem(id=item_id, request=solve_request(*args, reduction=reduction, params=params))


def translated(call):
    """The responses of a streaming call; a failed call raises qsolver.Error, and leaving early (break,
    KeyboardInterrupt) cancels it on the server."""
    try:
        yield from call
    except grpc.RpcError as e:
        raise Error.from_rpc_error(e) from None
    except BaseException:
        call.cancel()
        raise


class StreamBase:
    """What the sync and asyncio SolveStreams share: the call, the events seen so far, cancel()."""

    def __init__(self, call, reporter):
        self._call = call
        self._tracker = SolveTracker(reporter)
        self._events = self._generate()

    def _generate(self):
        raise NotImplementedError

    @property
    def header(self):
        """The SolveHeader, once it came."""
        return self._tracker.header

    def cancel(self):
        self._call.cancel()


class SolveStream(StreamBase):
    """A running Solve call: iterate it for the qs.v1.SolveResponse events (header, samples, progress,
    summary); result() waits for the end and gives the SolveResult; cancel() stops it (the iteration then
    raises qsolver.Error CANCELLED). A KeyboardInterrupt while waiting cancels the call on the server."""

    def _generate(self):
        try:
            for event in translated(self._call):
                self._tracker.record(event)
                yield event
        finally:
            self._tracker.reporter.close()

    def __iter__(self):
        return self._events

    def __next__(self):
        return next(self._events)

    def result(self):
        for _ in self._events:
            pass
        return self._tracker.result()


class _BatchSender:
    """The request side of a SolveBatch stream, run by gRPC on its own thread: at most `concurrency` items
    wait for a result; items that do not parse become local INVALID_ARGUMENT results."""

    def __init__(self, items, concurrency, reduction, params, parse):
        self.items, self.reduction, self.params, self.parse = items, reduction, params, parse
        self.slots = threading.Semaphore(concurrency)
        self.stop = threading.Event()
        self.local = collections.deque()
        self.failure = None

    def __iter__(self):
        try:
            for index, item in enumerate(self.items):
                try:
                    if (text := item_text(item)) is not None:
                        item = with_puzzle(index, item, self.parse(*text).puzzle)
                    message = batch_item(index, item, self.reduction, self.params)
                except ParseError as e:
                    self.local.append(BatchResult(item_id_of(index, item), e.code_name, e.details))
                    continue
                while not self.slots.acquire(timeout=0.1):
                    if self.stop.is_set():
                        return
                if self.stop.is_set():
                    return
                yield message
        except Exception as e:  # a bad item or a failing iterable: raised in the caller's thread
            self.failure = e

    def done_one(self):
        self.slots.release()

    def drain_local(self):
        while self.local:
            yield self.local.popleft()


class Client:
    """A client of one server (a gRPC target such as "127.0.0.1:50051" or "dns:///solver:50051").

    Options: timeout (default deadline of every call, seconds), tls (True for the system's roots), tls_ca
    (CA file or PEM bytes; turns TLS on), tls_cert / tls_key (client certificate, mutual TLS),
    tls_server_name, token or token_file (bearer token; default $QS_AUTH_TOKEN), channel_options."""

    def __init__(self, target, **options):
        self._config = ChannelConfig(target, **options)
        self._channel = self._config.make()
        self._stub = solver_service_pb2_grpc.SolverStub(self._channel)

    def close(self):
        self._channel.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _unary(self, method, request, timeout):
        # As a future, so that a KeyboardInterrupt while waiting cancels the call.
        future = method.future(request, timeout=self._config.call_timeout(timeout), metadata=self._config.metadata)
        try:
            return future.result()
        except grpc.RpcError as e:
            raise Error.from_rpc_error(e) from None
        except BaseException:
            future.cancel()
            raise

    def wait_ready(self, timeout=None):
        """Waits until the channel is connected; UNAVAILABLE after timeout seconds."""
        try:
            grpc.channel_ready_future(self._channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            raise Error(grpc.StatusCode.UNAVAILABLE, f"{self._config.target} not reachable") from None

    def list_backends(self, timeout=None):
        """The backends (qs.v1.BackendDescription) and whether each is usable."""
        return list(self._unary(self._stub.ListBackends, solve_pb2.ListBackendsRequest(), timeout).backends)

    def list_families(self, timeout=None):
        """The puzzle families and raw model kinds the server takes (qs.v1.FamilyDescription): each text
        kind with its PuzzleSpec field, an example, whether the exact engines and Generate serve it."""
        return list(self._unary(self._stub.ListFamilies, solve_pb2.ListFamiliesRequest(), timeout).families)

    def families(self, timeout=None):
        """list_families as a dict by text kind, in the server's order: families()[kind].example."""
        return {family.kind: family for family in self.list_families(timeout)}

    def _parse_for(self, kind, text, board=None):
        """parse() for a call given a text: a refusal of a text the formats module refuses too is the
        module's own error."""
        try:
            return self.parse(kind, text, board)
        except ParseError:
            refusal = local_refusal(kind, text)
            if refusal is not None:
                raise refusal from None
            raise

    def parse(self, kind, text, board=None, *, timeout=None):
        """The server's parse (qs.v1.ParseResponse: puzzle, board, family) of a text of any kind it lists,
        and of a board (rows separated by '/', or a list of rows) when given. A refused text raises
        qsolver.ParseError naming the field (kind, text or board)."""
        try:
            return self._unary(self._stub.Parse, parse_request(kind, text, board), timeout)
        except Error as e:
            raise parse_error(e) from None

    def _puzzle(self, kind, text):
        """The PuzzleSpec of a (kind, text), or the message given: the server parses what the local formats
        module does not read."""
        if server_parsed(kind, text) is not None:
            return self._parse_for(kind, text).puzzle, None
        return kind, text

    def compile(self, kind, text=None, *, reduction=None, return_qubo=False, preprocess=None, timeout=None):
        """The qs.v1.CompileResponse of a puzzle: stats, and the reduced model with return_qubo."""
        request = solve_pb2.CompileRequest(puzzle=puzzle_spec(*self._puzzle(kind, text)),
                                           options=compile_options(reduction, return_qubo, preprocess))
        return self._unary(self._stub.Compile, request, timeout)

    def solve_stream(self, kind, text=None, *, reduction=None, request_id="", timeout=None, progress=None,
                     **params):
        """Starts a solve and returns its SolveStream (events, result(), cancel())."""
        request = solve_request(*self._puzzle(kind, text), reduction=reduction, request_id=request_id,
                                params=params)
        call = self._stub.Solve(request, timeout=self._config.call_timeout(timeout),
                                metadata=self._config.metadata)
        return SolveStream(call, Reporter(progress, "reads"))

    def solve(self, kind, text=None, *, reduction=None, request_id="", timeout=None, progress=None, **params):
        """Solves a puzzle: kind and text as qsolve's --kind and --input (or a PuzzleSpec or SolveRequest),
        params by their SolveParams names (num_reads, num_sweeps, seed, stop_at_first_valid, backend,
        cpu_sa={...} ...). progress: a callable receiving qsolver.Progress, or True for a tqdm bar."""
        return self.solve_stream(kind, text, reduction=reduction, request_id=request_id, timeout=timeout,
                                 progress=progress, **params).result()

    def solve_model(self, model, *, format=None, sense=None, time_limit=None, target_objective=None,
                    integer_encoding=None, inequality=None, penalty=None, reduction=None, request_id="",
                    timeout=None, progress=None, **params):
        """Solves a constrained model: a qsolver.Model, a qs.v1.ConstrainedModel, or an LP, OPB or QPLIB text
        (format "lp", "opb", "qplib"; None: the server tells). time_limit: seconds (time_limit_seconds);
        target_objective: stop at the first feasible sample whose objective is that good (target_energy =
        the objective when minimised, minus it when maximised, with stop_at_first_valid; sense= says which
        for a text whose sense line this client cannot find). integer_encoding, inequality, penalty override
        the model's compile choices; params as solve(). A ModelResult (feasible, objective, assignment,
        violations)."""
        spec, params = model_request(model, params, format=format, sense=sense, time_limit=time_limit,
                                     target_objective=target_objective, integer_encoding=integer_encoding,
                                     inequality=inequality, penalty=penalty)
        result = self.solve(spec, reduction=reduction, request_id=request_id, timeout=timeout, progress=progress,
                            **params)
        return ModelResult(result, [v.name for v in spec.model.variables])

    def solve_batch(self, items, *, concurrency=8, reduction=None, timeout=None, progress=None, **params):
        """Solves many puzzles on one SolveBatch stream and yields a BatchResult per item, in completion
        order. items: (kind, text), (id, kind, text), PuzzleSpec, SolveRequest or BatchItem; at most
        `concurrency` are in flight. timeout bounds the whole stream."""
        sender = _BatchSender(items, concurrency, reduction, params, self._parse_for)
        tracker = BatchTracker(progress, items)
        call = self._stub.SolveBatch(iter(sender), timeout=self._config.call_timeout(timeout),
                                     metadata=self._config.metadata)
        try:
            for proto in call:
                sender.done_one()
                for result in [*sender.drain_local(), BatchResult.from_proto(proto)]:
                    yield tracker.record(result)
            for result in sender.drain_local():
                yield tracker.record(result)
        except grpc.RpcError as e:
            raise Error.from_rpc_error(e) from None
        except BaseException:
            call.cancel()
            raise
        finally:
            sender.stop.set()
            tracker.reporter.close()
        if sender.failure is not None:
            raise sender.failure

    def validate(self, kind, text, board, *, timeout=None):
        """Checks a board (rows separated by '/', a list of rows, or a PuzzleSolution) against the puzzle's
        rules; a ValidateResult."""
        if server_parsed(kind, text) is not None and not isinstance(board, puzzles_pb2.PuzzleSolution):
            parsed = self._parse_for(kind, text, board)
            request = solve_pb2.ValidateRequest(puzzle=parsed.puzzle, solution=parsed.board)
        else:
            request = validate_request(*self._puzzle(kind, text), board)
        return ValidateResult(self._unary(self._stub.Validate, request, timeout))

    def count(self, kind, text=None, *, limit=0, method="auto", time_limit_seconds=0, timeout=None):
        """Counts the puzzle's solutions (qs.v1.CountResponse: count, complete, unique ...)."""
        request = count_request(*self._puzzle(kind, text), limit, method, time_limit_seconds)
        return self._unary(self._stub.Count, request, timeout)

    def generate(self, kind, size, *, cols=0, count=1, difficulty="hard", clues=0, seed=None,
                 time_limit_seconds=0, timeout=None, **sampling):
        """Yields puzzles with proven-unique solutions (qs.v1.GeneratedPuzzle) as the server makes them."""
        request = generate_request(kind, size, cols, count, difficulty, clues, seed, time_limit_seconds,
                                   sampling)
        yield from translated(self._stub.Generate(request, timeout=self._config.call_timeout(timeout),
                                                  metadata=self._config.metadata))
