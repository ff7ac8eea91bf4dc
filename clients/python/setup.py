"""Build step of the qsolver package: generates the gRPC stubs of the qs.v1 API from the repository's
proto/ with protoc and grpc_python_plugin (Debian: protobuf-compiler, protobuf-compiler-grpc) into
qsolver/_proto/ of the build tree. The build tree and the egg-info metadata go to a temporary directory
that is removed when the build step ends, so that a `pip install ./clients/python` (which builds in place)
leaves nothing generated in the source tree; `--build-base` / `--egg-base` on a setup.py command line
still choose other places.

The protos are looked up in $QSOLVER_PROTO_DIR, else in ../../proto next to this file (the repository
layout; pip builds a local directory in place). protoc comes from $PROTOC or PATH, the plugin from
$GRPC_PYTHON_PLUGIN, PATH or /usr/bin.
"""
import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def check_build_python():
    """pip's --no-build-isolation builds with the environment's own setuptools and wheel: a Python
    without them (a pyenv or other non-Debian python3 first on PATH) would fail with "invalid command
    'bdist_wheel'"; say which Python it was and what the documented install expects instead."""
    try:
        import wheel  # noqa: F401
    except ImportError:
        sys.exit(f"qsolver build: this Python ({os.path.realpath(sys.executable)}) has no 'wheel' module, "
                 "which building with --no-build-isolation needs. The documented install uses Debian's "
                 "/usr/bin/python3 "
                 "(python3-setuptools, python3-wheel, python3-grpcio, python3-protobuf, python3-numpy: "
                 "scripts/install-deps.sh): make the environment with "
                 "'/usr/bin/python3 -m venv --system-site-packages V'; 'python3' on PATH is "
                 f"{shutil.which('python3') or 'not found'}")


def scratch_dir():
    """A temporary directory for the build tree and the egg-info, removed when this process ends (each
    of pip's build steps is a process of its own and leaves its result in pip's own directories)."""
    path = tempfile.mkdtemp(prefix="qsolver-build-")
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def find_proto_dir():
    candidates = [os.environ.get("QSOLVER_PROTO_DIR"), os.path.normpath(os.path.join(HERE, "..", "..", "proto"))]
    for path in candidates:
        if path and os.path.isdir(os.path.join(path, "qs", "v1")):
            return os.path.abspath(path)
    sys.exit("qsolver build: the qs.v1 protos were not found (looked for qs/v1/ in "
             f"{[c for c in candidates if c]}); build from the repository's clients/python/ or set "
             "QSOLVER_PROTO_DIR to the repository's proto/ folder")


def find_tool(env, name, fallback):
    path = os.environ.get(env) or shutil.which(name) or fallback
    if not path or not os.path.exists(path):
        sys.exit(f"qsolver build: {name} not found (set {env}); on Debian: "
                 "apt-get install protobuf-compiler protobuf-compiler-grpc")
    return path


def generate_stubs(out_dir):
    """Runs protoc into out_dir and makes the generated modules import each other inside it."""
    proto_dir = find_proto_dir()
    protos = sorted(os.path.join(proto_dir, "qs", "v1", name)
                    for name in os.listdir(os.path.join(proto_dir, "qs", "v1")) if name.endswith(".proto"))
    protoc = find_tool("PROTOC", "protoc", None)
    plugin = find_tool("GRPC_PYTHON_PLUGIN", "grpc_python_plugin", "/usr/bin/grpc_python_plugin")
    raw = os.path.join(out_dir, "_raw")
    shutil.rmtree(raw, ignore_errors=True)
    os.makedirs(raw)
    subprocess.run([protoc, f"-I{proto_dir}", f"--python_out={raw}", f"--grpc_python_out={raw}",
                    f"--plugin=protoc-gen-grpc_python={plugin}", *protos], check=True)
    generated = os.path.join(raw, "qs", "v1")
    for name in sorted(os.listdir(generated)):
        with open(os.path.join(generated, name), encoding="utf-8") as f:
            text = f.read()
        # protoc names the modules by their proto path (qs.v1); inside the package they are siblings.
        text = re.sub(r"^from qs\.v1 import ", "from . import ", text, flags=re.MULTILINE)
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
            f.write(text)
    shutil.rmtree(raw)
    with open(os.path.join(out_dir, "__init__.py"), "w", encoding="utf-8") as f:
        f.write('"""Generated from proto/qs/v1 when the package was built; do not edit."""\n')


class BuildPyWithStubs(build_py):
    def run(self):
        super().run()
        out_dir = os.path.join(self.build_lib, "qsolver", "_proto")
        shutil.rmtree(out_dir, ignore_errors=True)  # no stubs of protos that are gone
        os.makedirs(out_dir)
        generate_stubs(out_dir)


check_build_python()
SCRATCH = scratch_dir()
setup(cmdclass={"build_py": BuildPyWithStubs},
      options={"build": {"build_base": os.path.join(SCRATCH, "build")}, "egg_info": {"egg_base": SCRATCH}})
