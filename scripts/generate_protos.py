"""Regenerate ``protocol/pb/*_pb2.py`` (and ``.pyi`` stubs) from our ``protocol/proto/*.proto``.

Usage::

    python scripts/generate_protos.py            # rewrite protocol/pb/
    python scripts/generate_protos.py --check    # exit 1 if protocol/pb/ is stale
    python scripts/generate_protos.py --out DIR  # generate into DIR instead

Theory of operation: the .proto files import each other as ``cockatrice_ext/wire/<name>.proto`` so that the
descriptor pool sees unique file names (a bare ``commands.proto`` could collide with another library that
loads the upstream Cockatrice protos into the same process).  We stage the sources under that virtual path
in a temporary folder, run the protoc bundled with grpcio-tools (pinned in pyproject, so output is
deterministic), and rewrite the generated absolute imports (``from cockatrice_ext.wire import x_pb2``) into
package-relative ones (``from . import x_pb2``) so that the modules work wherever
``cockatrice_ext.protocol.pb`` is installed.
"""

from __future__ import annotations

import argparse
import importlib.resources
import re
import shutil
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = REPO_ROOT / "protocol" / "proto"
PB_DIR = REPO_ROOT / "protocol" / "pb"
VIRTUAL_PREFIX = Path("cockatrice_ext") / "wire"
PB_INIT = '"""Generated protobuf modules (do not edit; run scripts/generate_protos.py)."""\n'

PB_PACKAGE = "cockatrice_ext.protocol.pb"

_ABSOLUTE_IMPORT = re.compile(r"^from cockatrice_ext\.wire import (\w+_pb2)(.*)$", re.MULTILINE)
_MODULE_NAME = re.compile(r"'cockatrice_ext\.wire\.(\w+_pb2)'")


def _relativise(source: str) -> str:
    """Make generated code import its siblings package-relatively and name its real module.

    ``from cockatrice_ext.wire import x_pb2 as y`` becomes ``from . import x_pb2 as y``, and the module name
    given to the message builder (used for ``__module__`` and pickling) becomes the installed one.
    """
    source = _ABSOLUTE_IMPORT.sub(r"from . import \1\2", source)
    return _MODULE_NAME.sub(rf"'{PB_PACKAGE}.\1'", source)


def generate() -> dict[str, str]:
    """Run protoc on every .proto in PROTO_DIR; return ``{file name: text}`` of the modules it produced.

    Raises:
        RuntimeError: protoc failed (its messages were printed to stderr) or found no .proto file.
    """
    from grpc_tools import protoc  # test dependency, imported lazily so --help works without it

    protos = sorted(PROTO_DIR.glob("*.proto"))
    if not protos:
        raise RuntimeError(f"no .proto files in {PROTO_DIR}")
    with tempfile.TemporaryDirectory(prefix="cx-protoc-") as tmp:
        stage = Path(tmp) / "src"
        gen = Path(tmp) / "gen"
        (stage / VIRTUAL_PREFIX).mkdir(parents=True)
        gen.mkdir()
        for proto in protos:
            shutil.copyfile(proto, stage / VIRTUAL_PREFIX / proto.name)
        well_known = importlib.resources.files("grpc_tools") / "_proto"
        args = [
            "protoc",
            f"--proto_path={stage}",
            f"--proto_path={well_known}",
            f"--python_out={gen}",
            f"--pyi_out={gen}",
            *(str(VIRTUAL_PREFIX / proto.name) for proto in protos),
        ]
        # protoc resolves the relative file names against --proto_path.
        status = protoc.main(args)
        if status != 0:
            raise RuntimeError(f"protoc failed with status {status}")
        produced: dict[str, str] = {"__init__.py": PB_INIT}
        for path in sorted((gen / VIRTUAL_PREFIX).iterdir()):
            if path.suffix in {".py", ".pyi"}:
                produced[path.name] = _relativise(path.read_text(encoding="utf-8"))
    return produced


def write(out_dir: Path, produced: dict[str, str]) -> None:
    """Write ``produced`` into ``out_dir`` atomically and delete generated modules that no longer exist."""
    from cockatrice_ext.fsutil import atomic_write_text

    for name, text in produced.items():
        atomic_write_text(out_dir / name, text)
    for stale in out_dir.glob("*_pb2.py*"):
        if stale.name not in produced:
            stale.unlink()


def stale_files(target: Path, produced: dict[str, str]) -> list[str]:
    """Names of files in ``target`` that differ from (or are missing/extra compared with) ``produced``."""
    differing = [
        name
        for name, text in produced.items()
        if not (target / name).is_file() or (target / name).read_text(encoding="utf-8") != text
    ]
    differing.extend(p.name for p in target.glob("*_pb2.py*") if p.name not in produced)
    return sorted(differing)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the process exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=PB_DIR, help="output folder (default: protocol/pb)")
    parser.add_argument("--check", action="store_true", help="only report whether the output is stale")
    options = parser.parse_args(argv)
    produced = generate()
    if options.check:
        differing = stale_files(options.out, produced)
        if differing:
            sys.stderr.write(f"stale generated files in {options.out}: {', '.join(differing)}\n")
            return 1
        return 0
    write(options.out, produced)
    return 0


if __name__ == "__main__":
    sys.exit(main())
