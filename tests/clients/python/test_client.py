"""qsolver.Client against a real server: a Sudoku solve, the event stream and its progress, compile,
validate, count, generate, a batch of mixed puzzles, errors with their gRPC status names, deadlines and
cancellation (the server stops the anneal and keeps serving)."""
import os
import signal
import subprocess
import threading
import time

import pytest
import qsolver
from conftest import CALL_TIMEOUT, NYT_SOLUTION, NYT_SUDOKU, ROOT, Server, metric_sum

NYT_ROWS = [NYT_SOLUTION[k:k + 9] for k in range(0, 81, 9)]
# The NYT 2024-01-08 hard Sudoku needs more than the default anneal (as in the CLI's tests).
NYT_PARAMS = dict(backend="cpu-sa", num_reads=3000, num_sweeps=3000, cpu_sa={"beta_hot": 1}, seed=2024,
                  stop_at_first_valid=True)
# A long solve: reads of 10^7 sweeps over 32-queens' 1024 variables take many seconds each.
LONG = dict(kind="nqueens", text="32", backend="cpu-sa", num_reads=8, num_sweeps=10_000_000, seed=1)


def stored_puzzles():
    """One stored puzzle of each family with its expected board (tests/data)."""
    queens = next(line.split() for line in (ROOT / "tests/data/queens/linkedin_queens.txt").read_text().splitlines()
                  if line.startswith("lq8-1"))
    takuzu = next(line.split() for line in (ROOT / "tests/data/takuzu/puzzles.txt").read_text().splitlines()
                  if line.startswith("unruly-6x6-de-1"))
    tents_lines = (ROOT / "tests/data/tents/sgt_puzzles.txt").read_text().splitlines()
    at = next(k for k, line in enumerate(tents_lines) if line.startswith("id "))
    return {
        "sudoku": ("sudoku", NYT_SUDOKU, NYT_ROWS),
        "queens": ("queens", queens[1], queens[2].split("/")),
        "takuzu": ("takuzu", takuzu[2], takuzu[3].split("/")),
        "tents": ("tents", tents_lines[at][3:], tents_lines[at + 1:at + 9]),
    }


def test_sudoku_solve(client):
    result = client.solve("sudoku", NYT_SUDOKU, **NYT_PARAMS)
    assert result.valid
    assert result.energy == -81
    assert result.ground_energy == -81
    assert result.board == NYT_ROWS
    assert result.violations == []
    assert result.termination in ("TARGET_REACHED", "COMPLETED")
    assert result.variables_total == 729 and result.variables == 211
    assert result.seed == 2024
    assert result.to_dict()["board"] == NYT_ROWS


def test_default_backend_is_auto(client):
    result = client.solve("sudoku", NYT_SUDOKU)
    assert result.valid and result.backend == "auto"
    assert result.solved_by in ("sat", "pt") and result.to_dict()["solved_by"] == result.solved_by
    off = client.solve("sudoku", NYT_SUDOKU, auto={"exact": "EXACT_OFF"})
    assert off.valid and off.solved_by == "pt"


def test_stream_events_and_progress(client):
    reports = []
    stream = client.solve_stream("nqueens", "8", backend="cpu-sa", num_reads=20, seed=4, progress=reports.append)
    kinds = [event.WhichOneof("event") for event in stream]
    assert kinds[0] == "header" and kinds[-1] == "summary"
    assert kinds.count("sample") == 20
    result = stream.result()
    assert result.reads == 20 and len(result.samples) == 20
    assert reports[-1].done == 20 and reports[-1].total == 20
    assert reports[-1].valid == result.num_valid
    assert [r.done for r in reports] == sorted(r.done for r in reports)
    assert min(s.energy for s in result.samples) == reports[-1].best_energy


def test_progress_bar_with_tqdm(client, capsys):
    pytest.importorskip("tqdm")
    result = client.solve("nqueens", "6", backend="cpu-sa", num_reads=12, seed=2, progress=True)
    assert result.reads == 12
    assert "12/12" in capsys.readouterr().err


def test_every_kind_solves(client):
    for kind, text, board in stored_puzzles().values():
        params = NYT_PARAMS if kind == "sudoku" else dict(num_reads=64, seed=5, stop_at_first_valid=True)
        result = client.solve(kind, text, **params)
        assert result.valid, (kind, result)
        assert result.board == board, kind


def test_families_come_from_the_server(client):
    # Every family the server lists parses its own example with the local parsers and solves or compiles.
    families = {f.kind: f for f in client.list_families()}
    assert {"sudoku", "queens", "nqueens", "tents", "chess", "takuzu", "tango", "qubo", "maxcut"} <= set(families)
    assert families["tango"].puzzle_field == "takuzu" and families["queens"].board == "grid"
    assert families["maxcut"].board == "cut" and families["qubo"].board == "values"
    assert families["sudoku"].rules and families["sudoku"].generate and not families["qubo"].rules
    for family in families.values():
        stats = client.compile(family.kind, family.example).stats
        assert stats.variables_total > 0, family.kind


def test_compile_and_reduction(client):
    full = client.compile("sudoku", NYT_SUDOKU)
    clues = client.compile("sudoku", NYT_SUDOKU, reduction="clues", return_qubo=True)
    assert (full.stats.variables_total, full.stats.variables) == (729, 211)
    assert clues.stats.variables == 513
    assert clues.qubo.num_variables == 513
    qpro = client.compile("sudoku", NYT_SUDOKU, preprocess="qpro")
    assert [s.name for s in qpro.stats.stages][-2:] == ["roof", "qpro"]
    assert qpro.stats.variables == 211 - qpro.stats.removed_by_preprocess
    with pytest.raises(ValueError, match="preprocess"):
        client.compile("sudoku", NYT_SUDOKU, preprocess="fast")


def test_validate(client):
    good = client.validate("sudoku", NYT_SUDOKU, "/".join(NYT_ROWS))
    assert good.valid and good.energy == -81 and good.violations == []
    swapped = NYT_ROWS[0][1] + NYT_ROWS[0][0] + NYT_ROWS[0][2:]
    bad = client.validate("sudoku", NYT_SUDOKU, [swapped] + NYT_ROWS[1:])
    assert not bad.valid and bad.violations
    spec = qsolver.parse_puzzle("nqueens", "4")
    assert client.validate(spec, None, ".Q../...Q/Q.../..Q.").valid


def test_count_and_generate(client):
    count = client.count("nqueens", "6")
    assert (count.count, count.complete) == (4, True)
    puzzles = list(client.generate("sudoku", 4, count=2, seed=9))
    assert len(puzzles) == 2 and all(p.unique for p in puzzles)
    for generated in puzzles:
        text = qsolver.format_puzzle(generated.puzzle_kind, generated.puzzle)  # what qsolve generate prints
        assert qsolver.parse_puzzle("sudoku", text) == generated.puzzle
        result = client.solve("sudoku", text, num_reads=32, seed=1, stop_at_first_valid=True)
        assert result.valid
        assert list(result.board) == list(generated.solution.rows)


def test_batch_of_mixed_puzzles(client):
    stored = stored_puzzles()
    items = [(name, kind, text) for name, (kind, text, _) in stored.items() if kind != "sudoku"]
    # An item with parameters of its own: the batch's keyword arguments fill in only what it leaves unset.
    nyt = qsolver.solve_pb2.SolveRequest(puzzle=qsolver.parse_puzzle("sudoku", NYT_SUDOKU))
    nyt.params.CopyFrom(qsolver.solve_pb2.SolveParams(backend="cpu-sa", num_reads=3000, num_sweeps=3000,
                                                           cpu_sa={"beta_hot": 1}))
    items.append(("sudoku", nyt))
    items += [("tango", "tango", "1=..0/..../...1/..x./0.../..../..x.."),
              ("nq8", "nqueens", "8"),
              ("chess", "chess", "QQQQ/QQQQ/QQQQ/QQQQ/regions/AABB/AABB/CCDD/CCDD"),
              ("qubo", "qubo", (ROOT / "tests/data/qubo/frustrated_triangle.qubo").read_text()),
              ("bad-text", "sudoku", "12x")]
    # Well-formed for the parser, refused by the server: 80 cells.
    server_bad = qsolver.puzzles_pb2.PuzzleSpec()
    server_bad.sudoku.box_size = 3
    server_bad.sudoku.cells.extend([0] * 80)
    reports = []
    results = list(client.solve_batch(items + [server_bad], concurrency=2, num_reads=64, seed=6,
                                      stop_at_first_valid=True, progress=reports.append))
    by_id = {r.id: r for r in results}
    assert len(results) == len(by_id) == len(items) + 1
    for name, (kind, text, board) in stored.items():
        assert by_id[name].ok and by_id[name].result.valid, by_id[name]
        assert by_id[name].result.board == board
    for name in ("tango", "nq8", "chess", "qubo"):
        assert by_id[name].ok and by_id[name].result.valid, by_id[name]
    assert by_id["qubo"].result.energy == -1
    assert by_id["bad-text"].status == "INVALID_ARGUMENT"
    assert by_id["bad-text"].message.startswith("sudoku text:")
    assert by_id[str(len(items))].status == "INVALID_ARGUMENT"
    assert "cells" in by_id[str(len(items))].message
    assert reports[-1].done == len(results) and reports[-1].total == len(results)


def test_batch_bounds_what_is_in_flight(client):
    pulled = []

    def items():
        for k in range(12):
            pulled.append(k)
            yield ("nqueens", str(6 + k % 3))

    answered = 0
    for result in client.solve_batch(items(), concurrency=3, num_reads=8, seed=1):
        assert result.ok
        answered += 1
        # Items are read from the iterable only when a slot is free: at most 3 ahead of the answers
        # (plus the one the sender holds while it waits for a slot).
        assert len(pulled) <= answered + 3 + 1
    assert answered == 12


def test_errors_carry_the_status_name(client):
    with pytest.raises(qsolver.Error, match=r"^INVALID_ARGUMENT: sudoku text: 3 cells") as local:
        client.solve("sudoku", "123")
    assert isinstance(local.value, qsolver.ParseError)
    # A kind the formats module does not read goes to the server, whose refusal names the field.
    with pytest.raises(qsolver.ParseError, match=r"^INVALID_ARGUMENT: kind: unknown puzzle kind 'soduku'"):
        client.solve("soduku", NYT_SUDOKU)
    with pytest.raises(qsolver.Error, match=r"^INVALID_ARGUMENT: .*num_reads") as remote:
        client.solve("nqueens", "8", num_reads=0)
    assert remote.value.code_name == "INVALID_ARGUMENT"
    assert not isinstance(remote.value, qsolver.ParseError)
    with pytest.raises(qsolver.Error, match=r"^RESOURCE_EXHAUSTED: params.backend: .exact. takes at most 30 variables"):
        client.solve("nqueens", "8", backend="exact")  # 64 variables


def test_deadline(client):
    with pytest.raises(qsolver.Error, match=r"^DEADLINE_EXCEEDED: ") as caught:
        client.solve(LONG["kind"], LONG["text"], timeout=1.0, **{k: v for k, v in LONG.items()
                                                                 if k not in ("kind", "text")})
    assert caught.value.code_name == "DEADLINE_EXCEEDED"


def _long_stream(client):
    params = {k: v for k, v in LONG.items() if k not in ("kind", "text")}
    return client.solve_stream(LONG["kind"], LONG["text"], timeout=CALL_TIMEOUT, **params)


def _wait_for_cancelled(server, before):
    """The server counts the call as CANCELLED (polled: it records a call when it ends)."""
    for _ in range(300):
        if metric_sum(server.metrics(), "qs_requests_total", method="Solve", code="CANCELLED") > before:
            return
        time.sleep(0.1)
    pytest.fail("the server did not record the cancelled solve")


def test_keyboard_interrupt_cancels_the_call(client, server):
    before = metric_sum(server.metrics(), "qs_requests_total", method="Solve", code="CANCELLED")
    stream = _long_stream(client)
    with pytest.raises(KeyboardInterrupt):
        for event in stream:
            if event.WhichOneof("event") == "header":
                # What Ctrl-C does, while the main thread waits for the next event.
                threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
    _wait_for_cancelled(server, before)
    assert client.solve("nqueens", "8", num_reads=16, seed=1, stop_at_first_valid=True).valid


def test_cancel_from_another_thread(client, server):
    before = metric_sum(server.metrics(), "qs_requests_total", method="Solve", code="CANCELLED")
    stream = _long_stream(client)
    assert next(stream).WhichOneof("event") == "header"
    threading.Timer(0.3, stream.cancel).start()
    with pytest.raises(qsolver.Error, match=r"^CANCELLED: ") as caught:
        stream.result()
    assert caught.value.code_name == "CANCELLED"
    _wait_for_cancelled(server, before)
    assert client.solve("sudoku", NYT_SUDOKU, **NYT_PARAMS).valid


@pytest.fixture(scope="module")
def secure_server(tmp_path_factory):
    """A server with TLS (a CA and a server certificate for 127.0.0.1 made here by openssl) and a bearer
    token."""
    d = tmp_path_factory.mktemp("tls")
    key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    for args in (["req", "-x509", *key, "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=qs-ca"],
                 ["req", *key, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"],
                 ["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                  "-out", "server.pem", "-days", "1", "-extfile", "san.ext"]):
        (d / "san.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1")
        subprocess.run(["openssl", *args], cwd=d, check=True, capture_output=True, timeout=60)
    (d / "token.txt").write_text("s3cret-token\n")
    started = Server(d / "qs_server.log", f"--tls_cert_file={d / 'server.pem'}",
                     f"--tls_key_file={d / 'server.key'}", f"--auth_token_file={d / 'token.txt'}")
    yield started, d
    started.stop()


def test_tls_and_token(secure_server, monkeypatch):
    started, d = secure_server
    monkeypatch.delenv("QS_AUTH_TOKEN", raising=False)
    with qsolver.Client(started.target, tls_ca=str(d / "ca.pem"), token_file=str(d / "token.txt"),
                        timeout=CALL_TIMEOUT) as client:
        assert client.solve("nqueens", "6", num_reads=16, seed=1, stop_at_first_valid=True).valid
    with qsolver.Client(started.target, tls_ca=(d / "ca.pem").read_bytes(), timeout=CALL_TIMEOUT) as client:
        with pytest.raises(qsolver.Error, match=r"^UNAUTHENTICATED: "):
            client.solve("nqueens", "6")
        monkeypatch.setenv("QS_AUTH_TOKEN", "wrong")
    with qsolver.Client(started.target, tls_ca=str(d / "ca.pem"), timeout=CALL_TIMEOUT) as client:
        with pytest.raises(qsolver.Error, match=r"^UNAUTHENTICATED: "):
            client.count("nqueens", "6")
    monkeypatch.setenv("QS_AUTH_TOKEN", "s3cret-token")
    with qsolver.Sampler(started.target, tls_ca=str(d / "ca.pem"), timeout=CALL_TIMEOUT) as sampler:
        assert sampler.sample_qubo({(0, 0): -1}, num_reads=4).first.energy == -1
    with qsolver.Client(started.target, token="s3cret-token", timeout=10) as plaintext:
        with pytest.raises(qsolver.Error, match=r"^UNAVAILABLE: "):
            plaintext.solve("nqueens", "6")
