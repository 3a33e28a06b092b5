"""FakeMistral: `POST /v1/chat/completions` and `POST /v1/ocr` as the mistralai SDK sends and reads them."""

from __future__ import annotations

import base64
import math
from typing import Any

from tests.fakes.server import FakeServer, Recorded, Reply


def chat(text: str, finish: str = "stop", latency: float | None = None) -> Reply:
    return Reply(200, {"id": "fake-chat", "object": "chat.completion", "model": "fake", "created": 0,
                       "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                    "finish_reason": finish}]}, latency)


def ocr(pages: list[str], latency: float | None = None) -> Reply:
    return Reply(200, {"pages": [{"index": i, "markdown": md, "images": [],
                                  "dimensions": {"dpi": 200, "height": 2200, "width": 1700}}
                                 for i, md in enumerate(pages)],
                       "model": "fake-ocr", "usage_info": {"pages_processed": len(pages)}}, latency)


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


class FakeMistral(FakeServer):
    """Chat answers "(image transcribed by the fake vision model)"; OCR returns each page's text layer."""

    def route(self, request: Recorded) -> Reply | None:
        if request.method == "POST" and request.path.split("?")[0] in ("/v1/chat/completions", "/v1/ocr"):
            return None
        return Reply(404, {"object": "error", "message": f"no route {request.path}"})

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
