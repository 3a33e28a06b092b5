"""The generated samples the reader tests read, their exact ground truth, and the field guide as read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.readers.offline import OfflineReader

SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"
TRUTH = json.loads((SAMPLES / "ground_truth.json").read_text(encoding="utf-8"))
GUIDE = TRUTH["pdfrag-field-guide.pdf"]


@pytest.fixture(scope="module")
def guide():
    """The field-guide sample as the offline reader reads it (once per test module that imports this)."""
    return OfflineReader().read(SAMPLES / "pdfrag-field-guide.pdf")
