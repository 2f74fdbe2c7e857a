"""Build games/core/shape_tables.bin, the engine's fixed shape tables (games/core/shapes.py).

    python tools/build_shape_tables.py          # write the file (about a minute)
    python tools/build_shape_tables.py --check  # exit 1 unless the shipped file matches

The file is package data: built once here, loaded at import, and checked against the
builder by the tests (tests/test_value_tables.py).
"""

from __future__ import annotations

import argparse
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import shapes  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare the shipped file with a fresh build instead of writing")
    args = parser.parse_args()
    built = shapes.build_fixed_tables()
    path = ROOT / "games" / "core" / shapes.TABLES_FILE
    if args.check:
        same = path.is_file() and zlib.decompress(path.read_bytes()) == zlib.decompress(built)
        print("the shipped shape tables match the builder" if same
              else f"{path.name} differs from the builder: run without --check to rebuild")
        return 0 if same else 1
    path.write_bytes(built)
    print(f"wrote {path.name}: {len(built)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
