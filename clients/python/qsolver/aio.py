"""The asyncio client (grpc.aio): qsolver.aio.Client has the methods of qsolver.Client as coroutines and
async iterators. Cancelling the awaiting task cancels the call on the server."""
import asyncio

import grpc

from ._channel import ChannelConfig
from ._errors import Error, ParseError
from ._progress import BatchTracker, Reporter
from ._proto import puzzles_pb2, solve_pb2, solver_service_pb2_grpc
from ._requests import compile_options, model_request, puzzle_spec, solve_request
from ._results import BatchResult, ModelResult, ValidateResult
from .client import (StreamBase, batch_item, count_request, generate_request, item_id_of, item_text,
                     local_refusal, parse_error, parse_request, server_parsed, validate_request, with_puzzle)


async def translated(call):
    """The responses of a streaming call; a failed call raises qsolver.Error, and leaving early or a
    cancelled task cancels it on the server."""
    try:
        async for response in call:
            yield response
    except grpc.RpcError as e:
        raise Error.from_rpc_error(e) from None
    except BaseException:
        call.cancel()
        raise


def drain(queue):
    """What the queue holds now."""
    return [queue.get_nowait() for _ in range(queue.qsize())]


class SolveStream(StreamBase):
    """A running Solve call: `async for event in stream`, `await stream.result()`, `stream.cancel()`."""

    async def _generate(self):
        try:
            async for event in translated(self._call):
                self._tracker.record(event)
                yield event
        finally:
            self._tracker.reporter.close()

    def __aiter__(self):
        return self._events

    async def result(self):
        async for _ in self._events:
            pass
        return self._tracker.result()


class Client:
    """An asyncio client of one server; the options of qsolver.Client. Use `async with` or close()."""

    def __init__(self, target, **options):
        self._config = ChannelConfig(target, **options)
        self._channel = self._config.make(aio=True)
        self._stub = solver_service_pb2_grpc.SolverStub(self._channel)

    async def close(self):
        await self._channel.close()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await self.close()

    def _kwargs(self, timeout):
        return {"timeout": self._config.call_timeout(timeout), "metadata": self._config.metadata}

    async def _unary(self, method, request, timeout):
        try:
            return await method(request, **self._kwargs(timeout))
        except grpc.RpcError as e:
            raise Error.from_rpc_error(e) from None

    async def list_backends(self, timeout=None):
        response = await self._unary(self._stub.ListBackends, solve_pb2.ListBackendsRequest(), timeout)
        return list(response.backends)

    async def list_families(self, timeout=None):
        response = await self._unary(self._stub.ListFamilies, solve_pb2.ListFamiliesRequest(), timeout)
        return list(response.families)

    async def families(self, timeout=None):
        return {family.kind: family for family in await self.list_families(timeout)}

    async def _parse_for(self, kind, text, board=None):
        """parse() for a call given a text: a refusal of a text the formats module refuses too is the
        module's own error."""
        try:
            return await self.parse(kind, text, board)
        except ParseError:
            refusal = local_refusal(kind, text)
            if refusal is not None:
                raise refusal from None
            raise

    async def parse(self, kind, text, board=None, *, timeout=None):
        try:
            return await self._unary(self._stub.Parse, parse_request(kind, text, board), timeout)
        except Error as e:
            raise parse_error(e) from None

    async def _puzzle(self, kind, text):
        if server_parsed(kind, text) is not None:
            return (await self._parse_for(kind, text)).puzzle, None
        return kind, text

    async def compile(self, kind, text=None, *, reduction=None, return_qubo=False, preprocess=None, timeout=None):
        request = solve_pb2.CompileRequest(puzzle=puzzle_spec(*await self._puzzle(kind, text)),
                                           options=compile_options(reduction, return_qubo, preprocess))
        return await self._unary(self._stub.Compile, request, timeout)

    def solve_stream(self, kind, text=None, *, reduction=None, request_id="", timeout=None, progress=None,
                     **params):
        """A SolveStream of a puzzle given as a message or a text the formats module reads; a text of
        another kind needs `await parse(kind, text)` first (solve does that)."""
        if server_parsed(kind, text) is not None:
            raise TypeError(f"solve_stream: parse the '{kind}' text first (await client.parse(kind, text))")
        request = solve_request(kind, text, reduction=reduction, request_id=request_id, params=params)
        return SolveStream(self._stub.Solve(request, **self._kwargs(timeout)), Reporter(progress, "reads"))

    async def solve(self, kind, text=None, *, reduction=None, request_id="", timeout=None, progress=None,
                    **params):
        stream = self.solve_stream(*await self._puzzle(kind, text), reduction=reduction, request_id=request_id,
                                   timeout=timeout, progress=progress, **params)
        return await stream.result()

    async def solve_model(self, model, *, format=None, sense=None, time_limit=None, target_objective=None,
                          integer_encoding=None, inequality=None, penalty=None, reduction=None, request_id="",
                          timeout=None, progress=None, **params):
        """qsolver.Client.solve_model as a coroutine: a ModelResult."""
        spec, params = model_request(model, params, format=format, sense=sense, time_limit=time_limit,
                                     target_objective=target_objective, integer_encoding=integer_encoding,
                                     inequality=inequality, penalty=penalty)
        result = await self.solve(spec, reduction=reduction, request_id=request_id, timeout=timeout,
                                  progress=progress, **params)
        return ModelResult(result, [v.name for v in spec.model.variables])

    async def solve_batch(self, items, *, concurrency=8, reduction=None, timeout=None, progress=None, **params):
        """Yields a BatchResult per item in completion order, at most `concurrency` in flight."""
        call = self._stub.SolveBatch(**self._kwargs(timeout))
        slots = asyncio.Semaphore(concurrency)
        local = asyncio.Queue()
        failure = []

        async def send():
            try:
                for index, item in enumerate(items):
                    try:
                        if (text := item_text(item)) is not None:
                            item = with_puzzle(index, item, (await self._parse_for(*text)).puzzle)
                        message = batch_item(index, item, reduction, params)
                    except ParseError as e:
                        local.put_nowait(BatchResult(item_id_of(index, item), e.code_name, e.details))
                        continue
                    await slots.acquire()
                    await call.write(message)
                await call.done_writing()
            except Exception as e:  # a bad item or a failing iterable: raised in the reading task
                failure.append(e)
                call.cancel()

        sender = asyncio.ensure_future(send())
        tracker = BatchTracker(progress, items)
        try:
            while (proto := await call.read()) is not grpc.aio.EOF:
                slots.release()
                for result in [*drain(local), BatchResult.from_proto(proto)]:
                    yield tracker.record(result)
            await sender
            for result in drain(local):
                yield tracker.record(result)
        except (grpc.RpcError, asyncio.CancelledError) as e:
            if failure:
                raise failure[0] from None
            if isinstance(e, grpc.RpcError):
                raise Error.from_rpc_error(e) from None
            call.cancel()
            raise
        except BaseException:
            call.cancel()
            raise
        finally:
            sender.cancel()
            tracker.reporter.close()

    async def validate(self, kind, text, board, *, timeout=None):
        if server_parsed(kind, text) is not None and not isinstance(board, puzzles_pb2.PuzzleSolution):
            parsed = await self._parse_for(kind, text, board)
            request = solve_pb2.ValidateRequest(puzzle=parsed.puzzle, solution=parsed.board)
        else:
            request = validate_request(*await self._puzzle(kind, text), board)
        response = await self._unary(self._stub.Validate, request, timeout)
        return ValidateResult(response)

    async def count(self, kind, text=None, *, limit=0, method="auto", time_limit_seconds=0, timeout=None):
        request = count_request(*await self._puzzle(kind, text), limit, method, time_limit_seconds)
        return await self._unary(self._stub.Count, request, timeout)

    async def generate(self, kind, size, *, cols=0, count=1, difficulty="hard", clues=0, seed=None,
                       time_limit_seconds=0, timeout=None, **sampling):
        request = generate_request(kind, size, cols, count, difficulty, clues, seed, time_limit_seconds,
                                   sampling)
        async for puzzle in translated(self._stub.Generate(request, **self._kwargs(timeout))):
            yield puzzle
