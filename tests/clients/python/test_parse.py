"""The clients learn the kinds from the server: families(), parse() (Solver.Parse) giving the same messages
as the local formats module, and every call taking a text of a kind the formats module does not read
through the server's parse. Such a kind is simulated by making the client treat every kind as one it has
no parser for; a kind nobody knows comes back as the server's INVALID_ARGUMENT naming `kind`."""
import asyncio

import pytest
import qsolver
import qsolver.client
from conftest import CALL_TIMEOUT

QUEENS_4 = ".Q../...Q/Q.../..Q."


@pytest.fixture
def server_parses_all(monkeypatch):
    """Every kind goes to the server's parse, as one the package has no parser for; yields the kinds the
    calls parsed."""
    monkeypatch.setattr(qsolver.client, "parses_locally", lambda kind: False)
    parsed = []
    for cls in (qsolver.Client, qsolver.aio.Client):
        original = cls.parse

        if asyncio.iscoroutinefunction(original):
            async def wrapped(self, kind, *args, _original=original, **kwargs):
                parsed.append(kind)
                return await _original(self, kind, *args, **kwargs)
        else:
            def wrapped(self, kind, *args, _original=original, **kwargs):
                parsed.append(kind)
                return _original(self, kind, *args, **kwargs)
        monkeypatch.setattr(cls, "parse", wrapped)
    return parsed


def test_families_by_kind(client):
    listed = client.list_families()
    families = client.families()
    assert list(families) == [f.kind for f in listed]
    assert families["nqueens"].puzzle_field == "queens"


def test_parse_matches_the_local_formats(client):
    for kind, family in client.families().items():
        parsed = client.parse(kind, family.example)
        assert parsed.family
        assert parsed.puzzle.WhichOneof("puzzle") == family.puzzle_field
        if kind in qsolver.KINDS:
            assert parsed.puzzle == qsolver.parse_puzzle(kind, family.example), kind
    board = client.parse("nqueens", "4", QUEENS_4).board
    assert board == qsolver.parse_board("nqueens", qsolver.parse_puzzle("nqueens", "4"), QUEENS_4)
    assert client.parse("nqueens", "4", QUEENS_4.split("/")).board == board


def test_refusals_name_the_field(client):
    with pytest.raises(qsolver.ParseError, match=r"^INVALID_ARGUMENT: kind: unknown puzzle kind 'no-such'"):
        client.parse("no-such", "8")
    with pytest.raises(qsolver.ParseError, match=r"^INVALID_ARGUMENT: text: "):
        client.parse("sudoku", "123")
    with pytest.raises(qsolver.ParseError, match=r"^INVALID_ARGUMENT: board: .*'Z'"):
        client.parse("nqueens", "4", ".Q../..Z.")


def test_unknown_kind_is_the_servers_answer(client):
    # The formats module does not know the kind, so the server parses it and names the field.
    with pytest.raises(qsolver.ParseError, match=r"^INVALID_ARGUMENT: kind: unknown puzzle kind 'no-such'"):
        client.solve("no-such", "8")
    results = list(client.solve_batch([("x", "no-such", "8"), ("y", "nqueens", "6")], num_reads=16, seed=1))
    by_id = {r.id: r for r in results}
    assert by_id["x"].status == "INVALID_ARGUMENT" and by_id["x"].message.startswith("kind: ")
    assert by_id["y"].ok and by_id["y"].result.valid


def test_every_call_parses_on_the_server(client, server_parses_all):
    solved = client.solve("nqueens", "6", backend="sat")
    assert solved.valid and len(solved.board) == 6
    assert client.compile("nqueens", "6").stats.variables_total == 36
    assert client.count("nqueens", "6").count == 4
    assert client.validate("nqueens", "4", QUEENS_4).valid
    assert not client.validate("nqueens", "4", "Q.../.Q../...Q/..Q.").valid
    results = list(client.solve_batch([("a", "nqueens", "6"), ("b", "nqueens", "x6")], backend="sat"))
    by_id = {r.id: r for r in results}
    assert by_id["a"].ok and by_id["a"].result.valid
    assert by_id["b"].status == "INVALID_ARGUMENT" and by_id["b"].message.startswith("text: ")
    assert server_parses_all.count("nqueens") == 7


def test_every_listed_kind_compiles_through_the_server(client, server_parses_all):
    families = client.families()
    for kind, family in families.items():
        assert client.compile(kind, family.example).stats.variables_total > 0, kind
    assert server_parses_all == list(families)


def test_aio_parses_on_the_server(server, server_parses_all):
    async def main():
        async with qsolver.aio.Client(server.target, timeout=CALL_TIMEOUT) as client:
            families = await client.families()
            solved = await client.solve("nqueens", "6", backend="sat")
            valid = await client.validate("nqueens", "4", QUEENS_4)
            batch = [r async for r in client.solve_batch([("a", "nqueens", "5"), ("b", "no-such", "5")],
                                                           backend="sat")]
            return families, solved, valid, {r.id: r for r in batch}

    families, solved, valid, batch = asyncio.run(main())
    assert "nqueens" in families
    assert solved.valid and valid.valid
    assert batch["a"].ok and batch["b"].status == "INVALID_ARGUMENT"
    assert server_parses_all == ["nqueens", "nqueens", "nqueens", "no-such"]
