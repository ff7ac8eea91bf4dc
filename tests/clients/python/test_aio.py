"""qsolver.aio.Client (grpc.aio) against a real server: solves, a batch, errors, and a cancelled task that
cancels its call on the server."""
import asyncio

import pytest
import qsolver
from conftest import CALL_TIMEOUT, metric_sum


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, CALL_TIMEOUT))


def test_solve_and_stream(server):
    async def main():
        async with qsolver.aio.Client(server.target, timeout=CALL_TIMEOUT) as client:
            result = await client.solve("nqueens", "8", num_reads=32, seed=3, stop_at_first_valid=True)
            stream = client.solve_stream("tango", "1=..0/..../...1/..x./0.../..../..x..", backend="cpu-sa",
                                          num_reads=10, seed=1)
            kinds = [event.WhichOneof("event") async for event in stream]
            backends = await client.list_backends()
            count = await client.count("nqueens", "6")
            checked = await client.validate("nqueens", "4", ".Q../...Q/Q.../..Q.")
            return result, kinds, await stream.result(), backends, count, checked

    result, kinds, streamed, backends, count, checked = run(main())
    assert result.valid and result.energy == 0
    assert kinds[0] == "header" and kinds[-1] == "summary" and kinds.count("sample") == 10
    assert streamed.reads == 10
    assert "cpu-sa" in [b.name for b in backends]
    assert count.count == 4
    assert checked.valid


def test_batch(server):
    async def main():
        async with qsolver.aio.Client(server.target, timeout=CALL_TIMEOUT) as client:
            items = [("a", "nqueens", "8"), ("b", "queens", "AABB/AABB/CCDD/CCDD"), ("c", "sudoku", "x"),
                     ("d", "takuzu", "6x6:AcfECaeDGb")]
            return [r async for r in client.solve_batch(items, concurrency=2, backend="cpu-sa", num_reads=32, seed=2)]

    results = {r.id: r for r in run(main())}
    assert sorted(results) == ["a", "b", "c", "d"]
    assert results["a"].ok and results["a"].result.valid
    assert results["b"].ok and results["b"].result.termination == "COMPLETED"
    assert results["c"].status == "INVALID_ARGUMENT"
    assert results["d"].ok and results["d"].result.valid


def test_errors(server):
    async def main():
        async with qsolver.aio.Client(server.target) as client:
            await client.solve("nqueens", "8", num_reads=0)

    with pytest.raises(qsolver.Error, match=r"^INVALID_ARGUMENT: .*num_reads"):
        run(main())


def test_cancelled_task_cancels_the_call(server):
    before = metric_sum(server.metrics(), "qs_requests_total", method="Solve", code="CANCELLED")

    async def main():
        async with qsolver.aio.Client(server.target, timeout=CALL_TIMEOUT) as client:
            stream = client.solve_stream("nqueens", "32", backend="cpu-sa", num_reads=8, num_sweeps=10_000_000,
                                          seed=1)
            started = asyncio.Event()

            async def consume():
                async for event in stream:
                    if event.WhichOneof("event") == "header":
                        started.set()

            task = asyncio.ensure_future(consume())
            await started.wait()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            for _ in range(300):
                if metric_sum(server.metrics(), "qs_requests_total", method="Solve", code="CANCELLED") > before:
                    break
                await asyncio.sleep(0.1)
            else:
                pytest.fail("the server did not record the cancelled solve")
            return await client.solve("nqueens", "8", num_reads=16, seed=1, stop_at_first_valid=True)

    assert run(main()).valid
