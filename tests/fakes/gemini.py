"""FakeGemini: the Gemini API's generateContent and models.get, as google-genai sends and reads them.

Replies are built with `text()`, `finish()`, `parts()`, `function_call()` and `error()`; requests are read with
`request_texts()`, `system_text()`, `inline_data()`, `response_schema()`, `function_declarations()` and
`function_responses()`. The default responder
transcribes an inline PDF with PyMuPDF, fills a requested JSON schema with empty values, and otherwise echoes
the last text part of the request (which is what a faithful reformatting returns).
"""

from __future__ import annotations

import base64
import math
import re
from typing import Any

from tests.fakes.server import FakeServer, Recorded, Reply

GENERATE_RE = re.compile(r"^/v1(?:beta|alpha)?/models/(?P<model>[^/:?]+):generateContent")
MODEL_RE = re.compile(r"^/v1(?:beta|alpha)?/models/(?P<model>[^/:?]+)$")
EMBED_RE = re.compile(r"^/v1(?:beta|alpha)?/models/(?P<model>[^/:?]+):batchEmbedContents")
EMBED_DIMS = 16
INLINE_TOKENS = 258  # what Gemini counts for one page or image


def parts(items: list[dict[str, Any]], finish: str = "STOP", latency: float | None = None) -> Reply:
    """A candidate with arbitrary JSON parts (text, functionCall, ...) and a finish reason."""
    candidate: dict[str, Any] = {"index": 0, "finishReason": finish}
    if items:
        candidate["content"] = {"role": "model", "parts": items}
    return Reply(200, {"candidates": [candidate], "modelVersion": "fake"}, latency)


def text(value: str, finish: str = "STOP", latency: float | None = None) -> Reply:
    return parts([{"text": value}], finish, latency)


def finish(reason: str, latency: float | None = None) -> Reply:
    """A candidate that stopped for `reason` (RECITATION, SAFETY, ...) without content."""
    return parts([], reason, latency)


def function_call(name: str, args: dict[str, Any], latency: float | None = None) -> Reply:
    return parts([{"functionCall": {"name": name, "args": args}}], "STOP", latency)


def error(status: int, message: str = "", latency: float | None = None) -> Reply:
    names = {400: "INVALID_ARGUMENT", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED",
             500: "INTERNAL", 503: "UNAVAILABLE"}
    body = {"error": {"code": status, "message": message or f"fake error {status}",
                      "status": names.get(status, "UNKNOWN")}}
    return Reply(status, body, latency)


# -- reading requests ------------------------------------------------------------------------------


def request_parts(request: Recorded) -> list[dict[str, Any]]:
    body = request.body if isinstance(request.body, dict) else {}
    return [part for content in body.get("contents", []) for part in content.get("parts", [])]


def request_texts(request: Recorded) -> list[str]:
    return [part["text"] for part in request_parts(request) if "text" in part]


def system_text(request: Recorded) -> str:
    body = request.body if isinstance(request.body, dict) else {}
    system = body.get("systemInstruction") or body.get("system_instruction") or {}
    return "".join(part.get("text", "") for part in system.get("parts", []))


def inline_data(request: Recorded) -> list[tuple[str, bytes]]:
    found = []
    for part in request_parts(request):
        blob = part.get("inlineData") or part.get("inline_data")
        if blob:
            data = blob["data"].replace("-", "+").replace("_", "/")  # the SDK sends URL-safe base64
            mime = blob.get("mimeType") or blob.get("mime_type", "")
            found.append((mime, base64.b64decode(data + "=" * (-len(data) % 4))))
    return found


def response_schema(request: Recorded) -> dict[str, Any] | None:
    body = request.body if isinstance(request.body, dict) else {}
    config = body.get("generationConfig") or {}
    return config.get("responseJsonSchema") or config.get("responseSchema")


def function_declarations(request: Recorded) -> list[dict[str, Any]]:
    """The tools' function declarations the request offered."""
    body = request.body if isinstance(request.body, dict) else {}
    return [decl for tool in body.get("tools", []) for decl in tool.get("functionDeclarations", [])]


def function_responses(request: Recorded) -> list[dict[str, Any]]:
    """The functionResponse parts of the conversation sent (the results of earlier function calls)."""
    return [part["functionResponse"] for part in request_parts(request) if "functionResponse" in part]


def pdf_text(request: Recorded) -> str:
    """The text layer of the request's inline PDF (empty when there is none)."""
    import pymupdf

    for mime, data in inline_data(request):
        if mime == "application/pdf":
            with pymupdf.open(stream=data, filetype="pdf") as doc:
                return "\n".join(page.get_text() for page in doc)
    return ""


def has_pdf_containing(fragment: str):
    """A script predicate: the request's inline PDF contains `fragment`."""
    return lambda request: fragment in pdf_text(request)


def tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


# -- the server ------------------------------------------------------------------------------------


def empty_instance(schema: dict[str, Any], defs: dict[str, Any] | None = None) -> Any:
    """The simplest value a JSON schema (OpenAPI or JSON Schema flavour) accepts."""
    defs = defs if defs is not None else {**schema.get("$defs", {}), **schema.get("defs", {})}
    if "$ref" in schema:
        return empty_instance(defs[schema["$ref"].split("/")[-1]], defs)
    for key in ("anyOf", "any_of"):
        if schema.get(key):
            return empty_instance(schema[key][0], defs)
    kind = str(schema.get("type", "object")).lower()
    if isinstance(schema.get("type"), list):
        kind = str(schema["type"][0]).lower()
    if kind == "object":
        required = schema.get("required", list(schema.get("properties", {})))
        return {name: empty_instance(sub, defs) for name, sub in schema.get("properties", {}).items()
                if name in required}
    return {"array": [], "string": "", "integer": 0, "number": 0, "boolean": False, "null": None}.get(kind, None)


def embedding(text: str) -> list[float]:
    """A deterministic stand-in embedding: counts of the text's words hashed into EMBED_DIMS buckets
    (texts sharing words point the same way)."""
    values = [0.0] * EMBED_DIMS
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        values[sum(map(ord, word)) % EMBED_DIMS] += 1.0
    return values if any(values) else [1.0] + [0.0] * (EMBED_DIMS - 1)


class FakeGemini(FakeServer):
    """`POST /v1beta/models/{model}:generateContent` and `GET /v1beta/models/{model}`."""

    def route(self, request: Recorded) -> Reply | None:
        if request.method == "GET" and (match := MODEL_RE.match(request.path)):
            model = match["model"]
            return Reply(200, {"name": f"models/{model}", "displayName": model, "version": "fake",
                               "inputTokenLimit": 1048576, "outputTokenLimit": 65536,
                               "supportedGenerationMethods": ["generateContent", "countTokens"]}, 0.0)
        if request.method == "POST" and EMBED_RE.match(request.path):
            return Reply(200, {"embeddings": [{"values": embedding(r["content"]["parts"][0]["text"])}
                                              for r in request.body.get("requests", [])]}, 0.0)
        if request.method != "POST" or not GENERATE_RE.match(request.path):
            return Reply(404, {"error": {"code": 404, "message": f"no route {request.path}", "status": "NOT_FOUND"}})
        return None

    @property
    def embed_requests(self) -> list[Recorded]:
        return [r for r in list(self.requests) if r.method == "POST" and EMBED_RE.match(r.path)]

    @property
    def generate_requests(self) -> list[Recorded]:
        return [r for r in list(self.requests) if r.method == "POST" and GENERATE_RE.match(r.path)]

    def responder(self, request: Recorded) -> Reply:
        if any(mime == "application/pdf" for mime, _ in inline_data(request)):
            return text(pdf_text(request).strip())
        schema = response_schema(request)
        if schema is not None:
            import json

            return text(json.dumps(empty_instance(schema)))
        texts = request_texts(request)
        return text(texts[-1] if texts else "")

    def finish(self, request: Recorded, reply: Reply) -> Reply:
        body = reply.body
        if reply.status != 200 or not isinstance(body, dict) or "candidates" not in body or "usageMetadata" in body:
            return reply
        blobs = sum(1 for part in request_parts(request) if "inlineData" in part or "inline_data" in part)
        prompt = tokens(system_text(request) + "".join(request_texts(request))) + INLINE_TOKENS * blobs
        answer = sum(tokens(part.get("text", "")) for candidate in body["candidates"]
                     for part in candidate.get("content", {}).get("parts", []))
        usage = {"promptTokenCount": prompt, "candidatesTokenCount": answer, "totalTokenCount": prompt + answer}
        return Reply(reply.status, {**body, "usageMetadata": usage}, reply.latency)
