"""The example games (examples/*.yaml), as the tests name them: by path, since they are not built in."""
from __future__ import annotations

from pathlib import Path

FOLDER = Path(__file__).resolve().parents[1] / "examples"
EXAMPLES = [str(path) for path in sorted(FOLDER.glob("*.yaml"))]  # games nobody designed the language for
HEARTS = str(FOLDER / "hearts.yaml")
