"""Loading Shiny fast: the first page must answer within 2 s of `pdfrag serve` starting.

shinychat registers converters for google-genai responses and imports `google.genai.types` for that
when it is installed (over a second, and the engine's gemini provider installs it). The workbench
never hands the chat such objects, so `load_shiny()` hides google.genai while Shiny loads; the engine
imports it normally afterwards, when it needs it.
"""

from __future__ import annotations

import sys


def load_shiny() -> None:
    """Import shiny (and shinychat) without shinychat's google-genai converters."""
    if "shiny" in sys.modules or "google.genai" in sys.modules:
        return
    sys.modules["google.genai"] = None  # type: ignore[assignment]  # `import google.genai` raises ImportError
    try:
        import shiny  # noqa: F401
        import shinychat  # noqa: F401
    finally:
        if "google.genai" in sys.modules and sys.modules["google.genai"] is None:
            del sys.modules["google.genai"]
