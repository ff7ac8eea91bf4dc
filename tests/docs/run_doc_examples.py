#!/usr/bin/env python3
"""The tested docs: runs every example of the README and of the docs listed below against live qs_server
processes of a build tree and checks what the text claims (the conventions are in docs/testing.md,
"Tested docs").

  tests/docs/run_doc_examples.py --binary-dir BUILD [--source-dir ROOT] [--keep] [DOC ...]

Each document gets a fresh server (gRPC and HTTP on free loopback ports), a scratch folder that mirrors
the repository (its top-level entries linked, build/ linking the build tree) as the working directory,
PATH with the build tree's clients/ and server/ first, and TMPDIR inside the scratch folder. Exit status 0
when every example that runs shows what its text says and at most a tenth of the examples of DOCS are
skipped (the examples of LONG_DOCS may be skipped, each with its reason)."""
import argparse
import os
import pathlib
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# The documents whose examples are a reader's first steps: at most a tenth of their examples (all of them
# together) may be skipped.
DOCS = ["README.md", "docs/cli.md", "docs/http.md", "docs/python.md", "docs/auto.md", "docs/backends.md",
        "docs/formats.md", "docs/model.md", "docs/patches.md", "docs/preprocessing.md",
        "docs/sudoku-variants.md", "docs/zip.md", "docs/http-limits.md", "core/sample/lns/README.md",
        "core/sample/sb/README.md"]
# The documents whose examples reproduce measurements or run whole test stages: those that take seconds
# run, those that take minutes (or need root, a QPU token, files from outside the repository) carry a
# skip marker with the reason, and the share of skipped examples does not apply to them.
LONG_DOCS = ["docs/benchmarks.md", "docs/annealer.md", "docs/qaoa.md", "docs/testing.md"]
# The addresses the examples name: qsolve's default gRPC address, the HTTP address of the README's
# server line and the server's default metrics address. More gRPC ports of 127.0.0.1 (a batch over
# several servers) get servers of their own.
GRPC_DEFAULT = 50051
HTTP_DEFAULT = 8080
METRICS_DEFAULT = 9464
# Flags of a documented qs_server line that name a listening address: they get free loopback ports.
ADDRESS_FLAGS = {"--address": "port", "--http_address": "http_port", "--metrics_address": "metrics_port"}
SHELL_LANGS = {"sh", "bash", "shell", "console"}
PYTHON_LANGS = {"python", "py", "python3"}
OUTPUT_LANG = "output"
# <!-- doc: skip — reason --> before a block (an em dash, "-" or "--" separate the reason).
SKIP_RE = re.compile(r"^<!--\s*doc:\s*skip\s*(?:—|--|-|:)\s*(.+?)\s*-->$")
FENCE_RE = re.compile(r"^(```+|~~~+)\s*([\w+-]*)\s*$")
SHOWN_RE = re.compile(r"#\s*→\s?(.*)$")
EXIT_RE = re.compile(r"^exit (\d+)$")
COMMAND_TIMEOUT = 180
MAX_SKIPPED_SHARE = 0.10


class Example:
    """One command of a shell block or one Python block, with what its text claims."""

    def __init__(self, doc, line, lang, text, shown, skip=None):
        self.doc, self.line, self.lang, self.text = doc, line, lang, text
        self.shown = []  # lines the output must show, in order ("..." stands for any text)
        self.exit = 0
        self.skip = skip
        for line_shown in shown:
            self.add_shown(line_shown)

    def add_shown(self, text):
        """A shown line: `exit N` is the exit status, anything else a line of the output."""
        m = EXIT_RE.match(text.strip())
        if m:
            self.exit = int(m.group(1))
        else:
            self.shown.append(text)

    def where(self):
        return f"{self.doc}:{self.line}"


def blocks_of(path, doc):
    """The fenced blocks of a markdown file: (first content line number, lang, lines, skip reason,
    output lines of a directly following ```output block)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    i = 0
    last_nonblank = ""
    while i < len(lines):
        m = FENCE_RE.match(lines[i])
        if not m:
            if lines[i].strip():
                last_nonblank = lines[i].strip()
            i += 1
            continue
        fence, lang = m.group(1), m.group(2).lower()
        start = i + 1
        j = start
        while j < len(lines) and lines[j].strip() != fence:
            j += 1
        if j == len(lines):
            raise SystemExit(f"{doc}:{i + 1}: a fence that is never closed")
        skip = SKIP_RE.match(last_nonblank)
        block = {"line": start + 1, "lang": lang, "lines": lines[start:j],
                 "skip": skip.group(1) if skip else None, "output": None}
        if lang == OUTPUT_LANG:
            if not out or out[-1]["end"] != "adjacent" or out[-1]["output"] is not None:
                raise SystemExit(f"{doc}:{i + 1}: an ```output block must follow a shell or Python block "
                                 "directly (blank lines only between them)")
            out[-1]["output"] = lines[start:j]
        else:
            out.append(block)
        # Whether the next fence follows with blank lines only in between.
        k = j + 1
        while k < len(lines) and not lines[k].strip():
            k += 1
        block["end"] = "adjacent" if k < len(lines) and FENCE_RE.match(lines[k]) else ""
        last_nonblank = ""
        i = j + 1
    return out


def complete(text):
    """Whether a shell text is a whole command (quotes and here-documents closed)."""
    if text.rstrip().endswith("\\"):
        return False
    return subprocess.run(["bash", "-n", "-c", text], capture_output=True).returncode == 0


def split_shown(line):
    """(line without a trailing '# → ...' comment, the shown text or None)."""
    m = SHOWN_RE.search(line)
    if not m:
        return line, None
    return line[:m.start()].rstrip(), m.group(1).rstrip()


def shell_examples(doc, block):
    """The commands of a shell block: a command runs up to the line that completes it; '# → TEXT' at
    its end or on the comment lines that follow it is what it shows."""
    examples = []
    pending, pending_line = [], 0
    for offset, raw in enumerate(block["lines"]):
        number = block["line"] + offset
        stripped = raw.strip()
        if not pending:
            if not stripped:
                continue
            if stripped.startswith("#"):
                _, shown = split_shown(stripped)
                if shown is not None and examples:
                    examples[-1].add_shown(shown)
                continue
            pending_line = number
        pending.append(raw)
        text = "\n".join(pending)
        if complete(text):
            body, shown = split_shown(pending[-1])
            pending[-1] = body
            examples.append(Example(doc, pending_line, "sh", "\n".join(pending),
                                    [shown] if shown is not None else [], block["skip"]))
            pending = []
    if pending:
        raise SystemExit(f"{doc}:{pending_line}: the command never ends")
    if block["output"] is not None:
        if not examples:
            raise SystemExit(f"{doc}:{block['line']}: an output block after a block without a command")
        for line in block["output"]:
            if line.strip():
                examples[-1].add_shown(line)
    return examples


def python_example(doc, block):
    shown = []
    for raw in block["lines"]:
        _, s = split_shown(raw)
        if s is not None:
            shown.append(s)
    if block["output"] is not None:
        shown.extend(l for l in block["output"] if l.strip())
    return Example(doc, block["line"], "python", "\n".join(block["lines"]) + "\n", shown, block["skip"])


def examples_of(root, doc):
    result = []
    for block in blocks_of(root / doc, doc):
        if block["lang"] in SHELL_LANGS:
            result.extend(shell_examples(doc, block))
        elif block["lang"] in PYTHON_LANGS:
            result.append(python_example(doc, block))
        elif block["output"] is not None:
            raise SystemExit(f"{doc}:{block['line']}: an output block after a ```{block['lang']} block")
    return result


def pattern(shown):
    """A shown line as a regular expression over a whole output line: '...' stands for any text."""
    return re.compile(".*".join(re.escape(part) for part in shown.strip().split("...")))


def check_shown(example, output):
    """The shown lines must appear in the output, in order, each as a whole line."""
    lines = [l.rstrip() for l in re.split(r"[\r\n]", output)]
    at = 0
    for shown in example.shown:
        regex = pattern(shown)
        while at < len(lines) and not regex.fullmatch(lines[at].strip()):
            at += 1
        if at == len(lines):
            return f"the output does not show (after the lines matched before it): {shown}"
        at += 1
    return None


SOLVE_RE = re.compile(r"(?:^|[\s;&|(])(?:\S*/)?(?:qsolve|\$\{?\w+\}?)\s+solve\b", re.MULTILINE)
VALID_RE = re.compile(r'(^energy .*: VALID$)|("valid"\s*:\s*true)|(^no valid board: the rules are '
                      r'unsatisfiable)|("termination"\s*:\s*"INFEASIBLE")', re.MULTILINE)


def check_solve(example, command, output):
    """A `qsolve solve` example shows a valid board or a proof that there is none, unless its text
    shows NOT VALID."""
    if not SOLVE_RE.search(command) or example.exit != 0:
        return None
    if any("NOT VALID" in s or '"valid":false' in s.replace(" ", "") for s in example.shown):
        return None
    if not VALID_RE.search(output):
        return "a qsolve solve example printed neither VALID nor a proof of infeasibility"
    return None


class ServerDidNotStart(Exception):
    pass


class Server:
    """A qs_server of the build tree on free loopback ports (gRPC, HTTP, metrics)."""

    def __init__(self, binary_dir, log_path, http=True, flags=None):
        """flags: a documented server line's flags (its addresses already on port 0); None: the runner's
        own server."""
        self.log_path = log_path
        self.log = open(log_path, "wb")
        if flags is None:
            flags = ["--address=127.0.0.1:0", "--metrics_address=127.0.0.1:0", "--shutdown_grace_seconds=5"]
            if http:
                flags.append("--http_address=127.0.0.1:0")
        else:
            http = any(f.startswith("--http_address=") and not f.endswith("=") for f in flags)
        self.flags = flags
        self.process = subprocess.Popen([str(binary_dir / "server" / "qs_server"), *flags],
                                        stdout=self.log, stderr=subprocess.STDOUT)
        self.port = self._wait_for(rb"qs_server listening on \S+ \(port (\d+)\)")
        self.metrics_port = self._wait_for(rb"qs_server listening on .*, metrics on \S+ \(port (\d+)\)")
        self.http_port = self._wait_for(rb"HTTP front on \S+ \(port (\d+)\)") if http else None

    def _wait_for(self, regex):
        for _ in range(3000):
            m = re.search(regex, self.log_path.read_bytes())
            if m:
                return int(m.group(1))
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        self.process.kill()
        raise ServerDidNotStart(f"qs_server {' '.join(self.flags)} did not start:\n"
                                + self.log_path.read_text(errors="replace"))

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = "killed after 60 s"
        self.log.close()
        return code


class Session:
    """What one document's examples share: the servers, the scratch folder, the shell variables set by
    earlier commands (NAME=value lines)."""

    def __init__(self, root, binary_dir, work, logs):
        self.root, self.binary_dir, self.work, self.logs = root, binary_dir, work, logs
        self.servers = {GRPC_DEFAULT: Server(binary_dir, logs / "qs_server.log")}
        self.stopped = []  # (port, exit status) of the servers a documented server line replaced
        # The metrics ports the examples name, by the gRPC port of their server.
        self.metrics = {METRICS_DEFAULT: GRPC_DEFAULT}
        for entry in root.iterdir():
            if entry.name in (".git", "build") or entry.name.startswith("build-"):
                continue
            (work / entry.name).symlink_to(entry)
        (work / "build").symlink_to(binary_dir)
        self.env = dict(os.environ)
        self.env.pop("QS_AUTH_TOKEN", None)
        self.env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"  # no network
        self.env["PATH"] = os.pathsep.join(
            [str(binary_dir / "clients"), str(binary_dir / "server"), self.env.get("PATH", "")])
        # mktemp -d (the examples' output folders) inside the scratch folder.
        (work / "tmp").mkdir()
        self.env["TMPDIR"] = str(work / "tmp")
        self.shell = Shell(work, self.env)

    def server_for(self, port):
        if port not in self.servers:
            self.servers[port] = Server(self.binary_dir, self.logs / f"qs_server_{port}.log", http=False)
        return self.servers[port]

    def localize(self, text):
        """The examples' fixed addresses become the live servers' ports."""
        main = self.servers[GRPC_DEFAULT]

        def grpc(m):
            return f"{m.group(1)}:{self.server_for(int(m.group(2))).port}"

        if main.http_port is not None:
            text = re.sub(rf"(127\.0\.0\.1|localhost):{HTTP_DEFAULT}\b",
                          lambda m: f"{m.group(1)}:{main.http_port}", text)

        def metrics(m):
            server = self.servers.get(self.metrics[int(m.group(2))])
            return f"{m.group(1)}:{server.metrics_port}" if server else m.group(0)

        ports = "|".join(str(p) for p in self.metrics)
        text = re.sub(rf"(127\.0\.0\.1|localhost):({ports})\b", metrics, text)
        ports = "|".join([r"500\d\d"] + [str(p) for p in self.servers])
        return re.sub(rf"(127\.0\.0\.1|localhost):({ports})\b", grpc, text)

    def start_documented_server(self, text):
        """Runs a documented `qs_server ... &` line with its own flags, its addresses moved to free
        loopback ports; it replaces the server of the gRPC port it names. Returns a failure or None."""
        words = shlex.split(text.rstrip().rstrip("&"))
        flags, port, metrics_port = [], GRPC_DEFAULT, METRICS_DEFAULT
        named = set()
        i = 1
        while i < len(words):
            word = words[i]
            name, eq, value = word.partition("=")
            if not eq and name in ADDRESS_FLAGS and i + 1 < len(words):
                value = words[i + 1]
                i += 1
            if name in ADDRESS_FLAGS:
                named.add(name)
                if name == "--address":
                    port = int(value.rsplit(":", 1)[1])
                if name == "--metrics_address" and value:
                    metrics_port = int(value.rsplit(":", 1)[1])
                flags.append(f"{name}=127.0.0.1:0" if value else f"{name}=")
            else:
                flags.append(word)
            i += 1
        for name in ("--address", "--metrics_address"):
            if name not in named:
                flags.append(f"{name}=127.0.0.1:0")
        if not any(f.startswith("--shutdown_grace_seconds") for f in flags):
            flags.append("--shutdown_grace_seconds=5")
        self.metrics[metrics_port] = port
        old = self.servers.pop(port, None)
        if old is not None:
            self.stopped.append((port, old.stop()))
        try:
            self.servers[port] = Server(self.binary_dir, self.logs / f"qs_server_{port}_{len(self.stopped)}.log",
                                        flags=flags)
        except ServerDidNotStart as e:
            # The examples after it still need a server.
            self.servers[port] = Server(self.binary_dir, self.logs / f"qs_server_{port}_fallback.log")
            return str(e)
        return None

    def add_default_addr(self, text):
        """qsolve without --addr talks to its default address, which is this document's server."""
        target = f"127.0.0.1:{self.servers[GRPC_DEFAULT].port}"

        def add(m):
            if "--addr" in m.group(3) or re.search(r"--(help|version)\b", m.group(3)):
                return m.group(0)
            return f"{m.group(1)}{m.group(2)} --addr {target}{m.group(3)}"

        # A qsolve call: the subcommand, then the rest of its pipeline stage.
        return re.sub(r"((?:^|[\s;&|(])(?:\S*/)?qsolve\s+)([a-z]+)((?:[^|;&\n\\]|\\\n|\\.)*)", add, text,
                      flags=re.MULTILINE)

    def stop(self):
        self.shell.stop()
        codes = self.stopped + [(port, server.stop()) for port, server in self.servers.items()]
        return [(port, code) for port, code in codes if code != 0]


def starts_server(text):
    """A command that starts qs_server in the background: the runner starts it with its flags."""
    return re.search(r"(^|/)qs_server$", text.split()[0]) is not None and text.rstrip().endswith("&")


def builds(text):
    """The targets of a `cmake --build build ... --target T ...` command, or None for another command."""
    words = shlex.split(text.split("#", 1)[0])
    if words[:3] != ["cmake", "--build", "build"]:
        return None
    targets, i = [], 3
    while i < len(words):
        if words[i] in ("--target", "-t"):
            i += 1
            while i < len(words) and not words[i].startswith("-"):
                targets.append(words[i])
                i += 1
        else:
            i += 1
    return targets


def check_built(binary_dir, targets):
    """A documented build command is not run (the tree is built before its tests, and a build inside a
    test would race the tests that run beside it): each target it names must be a program the build
    tree has."""
    if not targets:
        return "a cmake --build command without --target: the tests do not build the tree"
    found = {p.name for p in binary_dir.rglob("*") if p.is_file() and os.access(p, os.X_OK)
             and "CMakeFiles" not in p.parts}
    missing = [t for t in targets if t not in found]
    return f"the build tree has no program {', '.join(missing)}" if missing else None


class Shell:
    """One bash for a document's shell examples, as a reader's terminal: variables, the working
    directory and background jobs carry over from one command to the next."""

    MARK = "__doc_example_status__"

    def __init__(self, work, env):
        self.work, self.env = work, env
        self.process = None

    def _start(self):
        self.process = subprocess.Popen(["bash", "--norc", "--noprofile"], cwd=self.work, env=self.env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        # A pipeline fails when any of its commands fails, not only the last: `qsolve ... | head` checks
        # qsolve too.
        self.process.stdin.write(b"set -o pipefail\n")

    def run(self, script, timeout):
        """(exit status or None after the timeout, output)."""
        if self.process is None:
            self._start()
        self.process.stdin.write(f"{{\n{script}\n}} </dev/null\nprintf '\\n{self.MARK} %d\\n' $?\n"
                                 .encode())
        self.process.stdin.flush()
        fd = self.process.stdout.fileno()
        data = b""
        deadline = time.monotonic() + timeout
        pattern_ = re.compile(rb"\n" + self.MARK.encode() + rb" (\d+)\n$")
        while True:
            left = deadline - time.monotonic()
            ready = select.select([fd], [], [], max(left, 0))[0] if left > 0 else []
            if not ready:
                self.stop()
                return None, data.decode(errors="replace")
            chunk = os.read(fd, 65536)
            if not chunk:  # the command ended the shell (exit)
                self.stop()
                return None, data.decode(errors="replace") + "\n(the command ended the shell)"
            data += chunk
            m = pattern_.search(data)
            if m:
                return int(m.group(1)), data[:m.start()].decode(errors="replace")

    def stop(self):
        """Ends the shell and everything it started (its session)."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        self.process = None


def run_example(session, example):
    """Runs one example; returns (failure or None, output)."""
    if example.lang == "python":
        python = session.work / "V" / "bin" / "python"
        if not python.exists():
            return "no virtual environment V: the document's install command must run before", ""
        process = subprocess.Popen([str(python), "-c", session.localize(example.text)], cwd=session.work,
                                   env=session.env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        try:
            stdout, _ = process.communicate(timeout=COMMAND_TIMEOUT)
            status = process.returncode
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            stdout, _ = process.communicate()
            status = None
        output = stdout.decode(errors="replace")
    else:
        if starts_server(example.text):
            failure = session.start_documented_server(example.text)
            server = session.servers[GRPC_DEFAULT]
            return failure, f"(qs_server {' '.join(server.flags)})"
        targets = builds(example.text)
        if targets is not None:
            return check_built(session.binary_dir, targets), f"(the build tree has {' '.join(targets)})"
        status, output = session.shell.run(session.add_default_addr(session.localize(example.text)),
                                           COMMAND_TIMEOUT)
    if status is None:
        return f"did not finish within {COMMAND_TIMEOUT} s", output
    if status != example.exit:
        return f"exit status {status}, the text says {example.exit}", output
    failure = check_shown(example, output)
    if failure is None and example.lang == "sh":
        failure = check_solve(example, example.text, output)
    return failure, output


def tree_files(path):
    return {str(p.relative_to(path)) for p in path.rglob("*")} if path.exists() else set()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary-dir", required=True, type=pathlib.Path)
    parser.add_argument("--source-dir", type=pathlib.Path,
                        default=pathlib.Path(__file__).resolve().parents[2])
    parser.add_argument("--keep", action="store_true", help="keep the scratch folders and server logs")
    parser.add_argument("docs", nargs="*", default=DOCS + LONG_DOCS)
    args = parser.parse_args()
    root = args.source_dir.resolve()
    binary_dir = args.binary_dir.resolve()
    for binary in ("server/qs_server", "clients/qsolve"):
        if not (binary_dir / binary).exists():
            raise SystemExit(f"{binary_dir / binary} is missing: build the qs_server and qsolve targets")

    scratch = pathlib.Path(tempfile.mkdtemp(prefix="qs-doc-examples-"))
    python_tree = root / "clients" / "python"
    before = tree_files(python_tree)
    passed, failed, skipped = [], [], []
    start = time.monotonic()
    try:
        for doc in args.docs:
            examples = examples_of(root, doc)
            work = scratch / doc.replace("/", "_")
            logs = scratch / (doc.replace("/", "_") + ".logs")
            work.mkdir()
            logs.mkdir()
            session = Session(root, binary_dir, work, logs)
            try:
                for example in examples:
                    if example.skip:
                        skipped.append(example)
                        print(f"SKIP {example.where()}: {example.skip}", flush=True)
                        continue
                    t0 = time.monotonic()
                    failure, output = run_example(session, example)
                    took = time.monotonic() - t0
                    first = example.text.strip().splitlines()[0]
                    if failure is None:
                        passed.append(example)
                        print(f"ok   {example.where()} ({took:.1f} s): {first}", flush=True)
                    else:
                        failed.append(example)
                        print(f"FAIL {example.where()} ({took:.1f} s): {first}\n  {failure}\n  the example:\n"
                              + "\n".join("    " + l for l in example.text.splitlines())
                              + "\n  its output:\n"
                              + "\n".join("    " + l for l in output.splitlines()[-40:]), flush=True)
            finally:
                bad = session.stop()
                for port, code in bad:
                    failed.append(Example(doc, 0, "server", f"qs_server {port}", []))
                    print(f"FAIL {doc}: the server for port {port} ended with {code}", flush=True)
        new = sorted(tree_files(python_tree) - before)
        if new:
            failed.append(Example("clients/python", 0, "tree", "install", []))
            print("FAIL the documented install left generated files in the source tree: "
                  + ", ".join(f"clients/python/{n}" for n in new[:10]))
    finally:
        if args.keep:
            print(f"scratch folders and server logs kept in {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)

    total = len(passed) + len(failed) + len(skipped)
    if skipped:
        print("Skipped examples and their reasons:")
        for example in skipped:
            print(f"  {example.where()}: {example.skip}")
    # The share is of the examples of DOCS together; a run of some of them only reports it.
    counted = [e for e in passed + failed + skipped if e.doc in DOCS]
    counted_skipped = [e for e in skipped if e.doc in DOCS]
    too_many = (counted and len(counted_skipped) > MAX_SKIPPED_SHARE * len(counted)
                and set(DOCS) <= set(args.docs))
    if too_many:
        print(f"FAIL {len(counted_skipped)} of the {len(counted)} examples of {', '.join(DOCS)} are skipped: "
              f"at most {MAX_SKIPPED_SHARE:.0%} may be")
    print(f"doc examples in {time.monotonic() - start:.0f} s: {len(passed)} passed, {len(failed)} failed, "
          f"{len(skipped)} skipped")
    return 1 if failed or too_many or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
