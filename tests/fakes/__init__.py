"""Local HTTP servers that speak the Gemini and Mistral wire formats, scriptable per request, for tests."""

from tests.fakes.gemini import FakeGemini
from tests.fakes.mistral import FakeMistral
from tests.fakes.server import FakeServer, Recorded, Reply

__all__ = ["FakeGemini", "FakeMistral", "FakeServer", "Recorded", "Reply"]
