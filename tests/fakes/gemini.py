"""FakeGemini: the Gemini API as google-genai sends and reads it, with the behaviours of today's service.

Routes: generateContent, models.list (paged), models.get, batchEmbedContents. Like the real service it
answers only the models it lists (`models`; any other name is a 404, as a retired model is), refuses keys
it does not know (`keys`: 400 API_KEY_INVALID), enforces a requests-per-window quota (`rpm`, `window_s`:
429 RESOURCE_EXHAUSTED with a RetryInfo delay), gives Gemini 3 models' function calls a `thoughtSignature`
and refuses (400) a later request whose history sends a function call back without it, refuses MINIMAL
thinking on models that dropped it, and counts thinking tokens (`thoughtsTokenCount`) by thinking level.

Replies are built with `text()`, `finish()`, `parts()`, `function_call()` and `error()`; requests are read with
`request_texts()`, `system_text()`, `inline_data()`, `response_schema()`, `function_declarations()`,
`function_responses()` and `generation_config()`. The default responder transcribes an inline PDF with
PyMuPDF, fills a requested JSON schema with empty values, and otherwise echoes the last text part of the
request (which is what a faithful reformatting returns).
"""

from __future__ import annotations

import base64
import math
import re
from typing import Any

from tests.fakes.server import FakeServer, Quota, Recorded, Reply

GENERATE_RE = re.compile(r"^/v1(?:beta|alpha)?/models/(?P<model>[^/:?]+):generateContent")
MODEL_RE = re.compile(r"^/v1(?:beta|alpha)?/models/(?P<model>[^/:?]+)(?:\?.*)?$")
LIST_RE = re.compile(r"^/v1(?:beta|alpha)?/models/?(?:\?(?P<query>.*))?$")
EMBED_RE = re.compile(r"^/v1(?:beta|alpha)?/models/(?P<model>[^/:?]+):(?:batchEmbedContents|embedContent)")
EMBED_DIMS = 16
INLINE_TOKENS = 258  # what Gemini counts for one page or image
# What the service lists on 2026-12-01 (a subset); gemini-2.5-flash is gone, as on the real service.
CURRENT_MODELS = ("gemini-3.8-flash", "gemini-3.6-flash", "gemini-3.5-flash-lite", "gemini-3.1-flash-lite",
                  "gemini-3.1-pro-preview", "gemini-2.5-flash-lite", "gemini-embedding-001")
NO_MINIMAL = ("gemini-3.8",)  # families that no longer take thinkingLevel MINIMAL
THOUGHTS = {"MINIMAL": 4, "LOW": 16, "MEDIUM": 64, "HIGH": 256}  # fake thinking tokens per call by level


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


def generation_config(request: Recorded) -> dict[str, Any]:
    body = request.body if isinstance(request.body, dict) else {}
    return body.get("generationConfig") or {}


def thinking_config(request: Recorded) -> dict[str, Any]:
    """The request's thinkingConfig with camelCase keys (the SDK sends this one's fields in snake_case, which the
    API accepts too, as proto3 JSON does)."""
    raw = generation_config(request).get("thinkingConfig") or {}
    return {re.sub(r"_([a-z])", lambda m: m.group(1).upper(), key): value for key, value in raw.items()}


def retry_info(seconds: float) -> dict[str, Any]:
    return {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": f"{seconds:g}s"}


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


def _b64(value: Any) -> bytes:
    """Base64 text (standard or URL-safe, padded or not) as bytes; b"" for anything else."""
    if not isinstance(value, str):
        return b""
    data = value.replace("-", "+").replace("_", "/")
    return base64.b64decode(data + "=" * (-len(data) % 4))


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
    """The Gemini API's routes with a model list, key check, quota, thought signatures and thinking tokens."""

    def __init__(self, latency: float = 0.0, *, models: tuple[str, ...] | list[str] = CURRENT_MODELS,
                 keys: tuple[str, ...] | None = None, rpm: int | None = None, window_s: float = 60.0) -> None:
        super().__init__(latency)
        self.models = list(models)
        self.keys = keys  # None: any key is accepted
        self.rpm, self.window_s = rpm, window_s
        self.quota = Quota(rpm, window_s)
        self.signature_refusals = 0  # 400s for a function call sent back without its thought signature
        self._signatures: set[bytes] = set()

    # -- what the service checks before answering
    def route(self, request: Recorded) -> Reply | None:
        if self.keys is not None and request.header("x-goog-api-key") not in self.keys:
            return Reply(400, {"error": {"code": 400, "message": "API key not valid. Please pass a valid API key.",
                                         "status": "INVALID_ARGUMENT", "details": [{
                                             "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                                             "reason": "API_KEY_INVALID", "domain": "googleapis.com"}]}}, 0.0)
        path = request.path
        if request.method == "GET" and (match := LIST_RE.match(path)):
            return Reply(200, {"models": [self._model_json(m) for m in self.models]}, 0.0)
        if request.method == "GET" and (match := MODEL_RE.match(path)):
            if match["model"] not in self.models:
                return self._not_found(match["model"])
            return Reply(200, self._model_json(match["model"]), 0.0)
        embed = EMBED_RE.match(path) if request.method == "POST" else None
        generate = GENERATE_RE.match(path) if request.method == "POST" else None
        if not (embed or generate):
            return Reply(404, {"error": {"code": 404, "message": f"no route {path}", "status": "NOT_FOUND"}})
        model = (embed or generate)["model"]
        if model not in self.models:
            return self._not_found(model)
        if generate and (refusal := self._refuse_generation(request, model)) is not None:
            return refusal
        if (limited := self._quota()) is not None:
            return limited
        return None  # scripts, then the responder

    def _model_json(self, model: str) -> dict[str, Any]:
        methods = ["embedContent", "batchEmbedContents"] if "embedding" in model else \
            ["generateContent", "countTokens"]
        return {"name": f"models/{model}", "displayName": model, "version": "fake", "inputTokenLimit": 1048576,
                "outputTokenLimit": 65536, "supportedGenerationMethods": methods}

    def _not_found(self, model: str) -> Reply:
        return Reply(404, {"error": {"code": 404, "status": "NOT_FOUND", "message":
                                     f"models/{model} is not found for API version v1beta, or is not supported for "
                                     "generateContent. Call ListModels to see the list of available models."}}, 0.0)

    def _refuse_generation(self, request: Recorded, model: str) -> Reply | None:
        level = str(thinking_config(request).get("thinkingLevel", "")).upper()
        if level == "MINIMAL" and model.startswith(NO_MINIMAL):
            return error(400, f"Thinking level MINIMAL is not supported for {model}.")
        if model.startswith("gemini-3"):
            for content in (request.body or {}).get("contents", []):
                calls = [p for p in content.get("parts", []) if "functionCall" in p]
                signed = bool(calls) and _b64(calls[0].get("thoughtSignature")) in self._signatures
                if content.get("role") == "model" and calls and not signed:
                    with self._lock:
                        self.signature_refusals += 1
                    return error(400, "Function call is missing a thought_signature in functionCall parts. This is "
                                      "required for tools to work correctly, and missing thought_signature may lead "
                                      "to degraded model performance.")
        return None

    def _quota(self) -> Reply | None:
        wait = self.quota.take()
        if wait is None:
            return None
        return Reply(429, {"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "message":
                                     "You exceeded your current quota, please check your plan and billing "
                                     f"details. Please retry in {wait:.1f}s.", "details": [
                                         {"@type": "type.googleapis.com/google.rpc.QuotaFailure",
                                          "violations": [{"quotaMetric": "generate_content_requests",
                                                          "quotaValue": str(self.rpm)}]},
                                         retry_info(round(wait, 3))]}}, 0.0)

    @property
    def quota_refusals(self) -> int:
        """429s sent."""
        return self.quota.refusals

    @property
    def embed_requests(self) -> list[Recorded]:
        return [r for r in list(self.requests) if r.method == "POST" and EMBED_RE.match(r.path)]

    @property
    def generate_requests(self) -> list[Recorded]:
        return [r for r in list(self.requests) if r.method == "POST" and GENERATE_RE.match(r.path)]

    @property
    def list_requests(self) -> list[Recorded]:
        return [r for r in list(self.requests) if r.method == "GET" and LIST_RE.match(r.path)]

    def responder(self, request: Recorded) -> Reply:
        if EMBED_RE.match(request.path):
            body = request.body or {}
            items = body.get("requests") or [body]
            return Reply(200, {"embeddings": [{"values": embedding(r["content"]["parts"][0]["text"])} for r in items]},
                         0.0)
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
        if reply.status != 200 or not isinstance(body, dict) or "candidates" not in body:
            return reply
        match = GENERATE_RE.match(request.path)
        if match is None:
            return reply
        model = match["model"]
        body = self._sign(model, body)
        if "usageMetadata" in body:
            return Reply(reply.status, body, reply.latency, reply.headers)
        blobs = sum(1 for part in request_parts(request) if "inlineData" in part or "inline_data" in part)
        prompt = tokens(system_text(request) + "".join(request_texts(request))) + INLINE_TOKENS * blobs
        answer = sum(tokens(part.get("text", "")) for candidate in body["candidates"]
                     for part in candidate.get("content", {}).get("parts", []))
        usage = {"promptTokenCount": prompt, "candidatesTokenCount": answer}
        thoughts = self._thoughts(model, thinking_config(request))
        if thoughts:
            usage["thoughtsTokenCount"] = thoughts
        usage["totalTokenCount"] = prompt + answer + thoughts
        return Reply(reply.status, {**body, "usageMetadata": usage}, reply.latency, reply.headers)

    def _sign(self, model: str, body: dict[str, Any]) -> dict[str, Any]:
        """Gemini 3: the first function call of each candidate carries a fresh thought signature."""
        if not model.startswith("gemini-3"):
            return body
        import copy
        import secrets

        body = copy.deepcopy(body)
        for candidate in body["candidates"]:
            calls = [p for p in candidate.get("content", {}).get("parts", []) if "functionCall" in p]
            if calls and "thoughtSignature" not in calls[0]:
                signature = base64.b64encode(secrets.token_bytes(24)).decode("ascii")
                with self._lock:
                    self._signatures.add(_b64(signature))
                calls[0]["thoughtSignature"] = signature
        return body

    @staticmethod
    def _thoughts(model: str, thinking: dict[str, Any]) -> int:
        if "thinkingBudget" in thinking:
            return min(int(thinking["thinkingBudget"]), THOUGHTS["HIGH"])
        if thinking.get("thinkingLevel"):
            return THOUGHTS.get(str(thinking["thinkingLevel"]).upper(), 0)
        return THOUGHTS["HIGH"] if model.startswith(("gemini-3", "gemini-2.5")) else 0  # the model's default
