"""Where the shared read-only material lives: ``../shared`` beside the checkout (CI's layout).

``COCKATRICE_EXT_SHARED`` overrides it. Tests that need a file from it skip when it is absent.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("COCKATRICE_EXT_SHARED", ROOT.parent / "shared"))
ALL_PRINTINGS = SHARED / "carddata" / "AllPrintings.json.xz"
EXAMPLES = SHARED / "examples"
COCKATRICE_FILES = SHARED / "cockatrice"
SCHEMAS = Path(os.environ.get("COCKATRICE_SCHEMAS", COCKATRICE_FILES / "schemas"))
SEEDS = SHARED / "seeds"

_COCKATRICE_SRC = os.environ.get("COCKATRICE_SRC", "")
UPSTREAM_PROTOS = Path(
    os.environ.get("COCKATRICE_PROTO_DIR")
    or (Path(_COCKATRICE_SRC) / "libcockatrice_protocol/libcockatrice/protocol/pb" if _COCKATRICE_SRC else "")
    or ROOT / "missing-upstream-protos"
)
"""Cockatrice's own .proto files (``COCKATRICE_PROTO_DIR``, or inside ``COCKATRICE_SRC``); absent on CI."""
