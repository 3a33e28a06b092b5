"""FakeMistral: chat completions, OCR and the models list, as the mistralai SDK sends and reads them.

Like the real service it answers only the models it lists (`models`: pixtral-large is retired, so a chat
with it is a 400), refuses unknown keys (`keys`: 401), refuses an OCR document with more pages or bytes than
its limits (`ocr_max_pages`, `ocr_max_bytes`: 400) and, with `rpm`, answers 429 with a Retry-After header.
"""

from __future__ import annotations

import base64
import math
from typing import Any

from tests.fakes.server import FakeServer, Quota, Recorded, Reply


def chat(text: str, finish: str = "stop", latency: float | None = None) -> Reply:
    return Reply(200, {"id": "fake-chat", "object": "chat.completion", "model": "fake", "created": 0,
                       "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                    "finish_reason": finish}]}, latency)


def ocr(pages: list[str], latency: float | None = None) -> Reply:
    return Reply(200, {"pages": [{"index": i, "markdown": md, "images": [],
                                  "dimensions": {"dpi": 200, "height": 2200, "width": 1700}}
                                 for i, md in enumerate(pages)],
                       "model": "fake-ocr", "usage_info": {"pages_processed": len(pages)}}, latency)


def _card(model: str) -> dict[str, Any]:
    return {"id": model, "object": "model", "created": 0, "owned_by": "mistralai", "type": "base",
            "capabilities": {"completion_chat": "ocr" not in model, "vision": True, "ocr": "ocr" in model}}


def error(status: int, message: str = "", latency: float | None = None) -> Reply:
    return Reply(status, {"object": "error", "message": message or f"fake error {status}", "type": "fake",
                          "code": status}, latency)


def chat_images(request: Recorded) -> list[bytes]:
    """The data-URL images of a chat request."""
    images = []
    for message in (request.body or {}).get("messages", []):
        content = message.get("content")
        for chunk in content if isinstance(content, list) else []:
            if chunk.get("type") == "image_url":
                url = chunk["image_url"] if isinstance(chunk["image_url"], str) else chunk["image_url"]["url"]
                images.append(base64.b64decode(url.split(",", 1)[1]))
    return images


def ocr_document(request: Recorded) -> bytes:
    url = ((request.body or {}).get("document") or {}).get("document_url", "")
    return base64.b64decode(url.split(",", 1)[1]) if "," in url else b""


CURRENT_MODELS = ("mistral-medium-3.5", "mistral-medium-latest", "mistral-small-latest", "mistral-ocr-latest",
                  "mistral-ocr-2512")


class FakeMistral(FakeServer):
    """Chat answers "(image transcribed by the fake vision model)"; OCR returns each page's text layer."""

    def __init__(self, latency: float = 0.0, *, models: tuple[str, ...] | list[str] = CURRENT_MODELS,
                 keys: tuple[str, ...] | None = None, ocr_max_pages: int = 1000, ocr_max_bytes: int = 50 * 2**20,
                 rpm: int | None = None, window_s: float = 60.0) -> None:
        super().__init__(latency)
        self.models = list(models)
        self.keys = keys
        self.ocr_max_pages, self.ocr_max_bytes = ocr_max_pages, ocr_max_bytes
        self.rpm, self.window_s = rpm, window_s
        self.quota = Quota(rpm, window_s)

    def route(self, request: Recorded) -> Reply | None:
        path = request.path.split("?")[0]
        auth = request.header("authorization")
        if self.keys is not None and auth.removeprefix("Bearer ") not in self.keys:
            return Reply(401, {"message": "Unauthorized", "request_id": "fake"}, 0.0)
        if request.method == "GET" and path == "/v1/models":
            return Reply(200, {"object": "list", "data": [_card(m) for m in self.models]}, 0.0)
        if request.method == "GET" and path.startswith("/v1/models/"):
            model = path.removeprefix("/v1/models/")
            return Reply(200, _card(model), 0.0) if model in self.models else \
                Reply(404, {"object": "error", "message": f"Model {model} not found", "code": "1500"}, 0.0)
        if request.method != "POST" or path not in ("/v1/chat/completions", "/v1/ocr"):
            return Reply(404, {"object": "error", "message": f"no route {request.path}"})
        model = (request.body or {}).get("model", "")
        if model not in self.models:
            return Reply(400, {"object": "error", "message": f"Invalid model: {model}", "type": "invalid_model",
                               "code": "1500"}, 0.0)
        if path == "/v1/ocr":
            data = ocr_document(request)
            if len(data) > self.ocr_max_bytes:
                return error(400, f"Document is larger than {self.ocr_max_bytes} bytes")
            import pymupdf

            with pymupdf.open(stream=data, filetype="pdf") as doc:
                if doc.page_count > self.ocr_max_pages:
                    return error(400, f"Document has {doc.page_count} pages; the maximum is {self.ocr_max_pages}")
        wait = self.quota.take()
        if wait is not None:
            return Reply(429, {"object": "error", "message": "Requests rate limit exceeded"}, 0.0,
                         {"Retry-After": f"{wait:.3f}"})
        return None

    @property
    def quota_refusals(self) -> int:
        """429s sent."""
        return self.quota.refusals

    def requests_to(self, path: str) -> list[Recorded]:
        return [r for r in list(self.requests) if r.path.split("?")[0] == path]

    def responder(self, request: Recorded) -> Reply:
        if request.path.startswith("/v1/ocr"):
            import pymupdf

            with pymupdf.open(stream=ocr_document(request), filetype="pdf") as doc:
                return ocr([page.get_text().strip() for page in doc])
        return chat("(image transcribed by the fake vision model)")

    def finish(self, request: Recorded, reply: Reply) -> Reply:
        body = reply.body
        if reply.status != 200 or not isinstance(body, dict) or "choices" not in body or "usage" in body:
            return reply
        chunks = [chunk for message in (request.body or {}).get("messages", [])
                  for chunk in (message.get("content") if isinstance(message.get("content"), list) else [])]
        prompt = sum(math.ceil(len(chunk.get("text", "")) / 4) for chunk in chunks) + 1000 * len(chat_images(request))
        answer = math.ceil(len(body["choices"][0]["message"]["content"] or "") / 4)
        return Reply(reply.status, {**body, "usage": {"prompt_tokens": prompt, "completion_tokens": answer,
                                                      "total_tokens": prompt + answer}}, reply.latency)
