"""Gemini provider against the fake server: page-transcription concurrency, and reformat tokens per page.

Run: python benchmarks/bench_llm.py
  1. A 62-page PDF transcribed with 200 ms latency per call: 1 worker (the baseline) vs 4 and 16 workers
     (bar: 16 workers in <= 1.5 s).
  2. Reformat input tokens per page at 20, 100 and 400 pages: page windows with a bounded outline (ours) vs
     re-sending the whole document every round (the quadratic scheme); the bar is a flat line for ours.
  3. The same PDF under a quota of 20 requests per 3 s window (429 + RetryInfo past it): the pacer (RetryInfo
     waited out, the server's rate kept) vs the old client (5 attempts with jittered backoff, no shared pause):
     429s, pages kept offline, seconds.
"""

from __future__ import annotations

import math
import multiprocessing
import sys
import tempfile
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.llm.clients import LlmClients, LlmSession  # noqa: E402
from engine.llm.prompts import render  # noqa: E402
from engine.llm.settings import LlmSettings  # noqa: E402
from engine.llm.usage import Usage  # noqa: E402
from engine.markdown import join_pages, split_pages  # noqa: E402
from engine.readers.gemini import GeminiReader  # noqa: E402
from engine.reformat_llm import reformat_document, window_text, windows  # noqa: E402
from tests.fakes import FakeGemini  # noqa: E402
from tests.fakes import gemini as g  # noqa: E402

LATENCY = 0.2
PAGES = 62
WORDS = ("river survey gauge flow sample station reach bank channel sediment discharge velocity depth width "
         "habitat season record method field team").split()


def make_pdf(path: Path, pages: int) -> Path:
    import pymupdf

    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page()
        page.insert_text((72, 72), f"Section {n}", fontsize=16)
        for k in range(30):
            line = " ".join(WORDS[(n + k + i) % len(WORDS)] for i in range(12))
            page.insert_text((72, 100 + 20 * k), line, fontsize=10)
    doc.save(path)
    return path


def settings(url: str, **changes) -> LlmSettings:
    return LlmSettings(gemini_api_key="bench-key", gemini_base_url=url, **{"backoff_s": 0.01, **changes})


def serve(latency: float, urls: Any, stop: Any) -> None:
    """A fake Gemini in its own process (as the real one is remote: it takes no CPU from the client)."""
    with FakeGemini(latency=latency) as server:
        server.responder = lambda request: g.text("## Section\n\nThe page as the model read it.")
        urls.put(server.url)
        stop.wait()


def transcription(pdf: Path) -> list[tuple[str, str, str]]:
    rows = []
    context = multiprocessing.get_context("spawn")
    urls, stop = context.Queue(), context.Event()
    process = context.Process(target=serve, args=(LATENCY, urls, stop), daemon=True)
    process.start()
    try:
        url = urls.get(timeout=60)
        GeminiReader(LlmClients(settings(url))).read(pdf)  # warm up: imports, first connection
        baseline = None
        for workers in (1, 4, 16):
            usage = Usage()
            started, cpu = time.perf_counter(), time.process_time()
            clients = LlmClients(settings(url, page_workers=workers, concurrency=workers))
            GeminiReader(clients).read(pdf, usage=usage)
            seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
            ideal = math.ceil(PAGES / workers) * LATENCY
            baseline = baseline or seconds
            note = "baseline" if workers == 1 else f"{baseline / seconds:.1f}x baseline"
            if workers == 16:
                note += f", bar <= 1.5 s: {'PASS' if seconds <= 1.5 else 'FAIL'}"
            rows.append((f"transcribe {PAGES} pages, {workers:>2} workers ({usage.calls} calls)",
                         f"{seconds:.2f} s", f"{100 * ideal / seconds:.0f}% of ideal {ideal:.1f} s; {note}; "
                                             f"client CPU {cpu:.2f} s"))
    finally:
        stop.set()
        process.join(timeout=10)
    return rows


def document(pages: int) -> str:
    blocks = ["# Survey Methods Handbook\n\nHow the river survey is planned, run and reported."]
    for n in range(2, pages + 1):
        body = " ".join(WORDS[(n + i) % len(WORDS)] for i in range(220))
        heading = f"# Chapter {n // 10 + 1}\n\n" if n % 10 == 0 else ""
        blocks.append(f"{heading}## {n // 10 + 1}.{n % 10} Topic {n}\n\n{body}.\n\n{body}.")
    return join_pages(blocks)


async def quadratic(session: LlmSession, raw: str) -> None:
    """The scheme we replace: every round sends the whole document, with the same instructions."""
    blocks = split_pages(raw)
    system = render("reformat_rules", deck=False)
    for numbers in windows(blocks, session.settings.reformat_window_pages):
        context = render("reformat_window", title="Handbook", total_pages=len(blocks), deck=False,
                         first_page=numbers[0], last_page=numbers[-1], outline=[])
        await session.gemini.generate([context, raw, "Repair these pages:\n" + window_text(blocks, numbers)],
                                      system=system)


def reformat_tokens() -> list[tuple[str, str, str]]:
    rows = []
    with FakeGemini() as server:
        clients = LlmClients(settings(server.url, tpm=10**10))  # token counts, not pacing, are measured here
        for pages in (20, 100, 400):
            raw = document(pages)
            ours, naive = Usage(), Usage()
            clients.run(lambda s, raw=raw: reformat_document(s, raw, doc_format="portrait", title="Handbook"), ours)
            clients.run(lambda s, raw=raw: quadratic(s, raw), naive)
            ratio = naive.input_tokens / ours.input_tokens
            rows.append((f"reformat input tokens/page, {pages:>3} pages ({ours.calls} calls)",
                         f"{ours.input_tokens / pages:.0f}",
                         f"quadratic scheme {naive.input_tokens / pages:.0f} ({ratio:.1f}x)"))
    return rows


class OldClients(LlmClients):
    """The client before the pacer: retries with jittered backoff only, no shared pause, no learned rate."""

    @asynccontextmanager
    async def session(self, usage: Usage):
        from engine.llm.gemini import GeminiClient
        from engine.llm.pacer import Pacer
        from engine.llm.retry import RetryPolicy

        class Unshared(Pacer):
            def rate_limited(self, delay, started=None):
                self.throttled += 1

        session = LlmSession(self.settings, usage)
        policy = RetryPolicy(self.settings.max_attempts, self.settings.backoff_s, self.settings.backoff_max_s,
                             rate_waits=0)
        session._gemini = GeminiClient(self.settings, usage, policy, Unshared(10**6, 10**9, 16))
        try:
            yield session
        finally:
            await session.aclose()


def quota(pdf: Path) -> list[tuple[str, str, str]]:
    rows = []
    for name, make in (("old client", OldClients), ("pacer", LlmClients)):
        with FakeGemini(rpm=20, window_s=3.0) as server:
            server.responder = lambda request: g.text("## Section\n\nThe page as the model read it.")
            usage = Usage()
            started = time.perf_counter()
            result = GeminiReader(make(settings(server.url, page_workers=4, rate_window_s=3.0, backoff_s=0.5,
                                                backoff_max_s=3.0))).read(pdf, usage=usage)
            seconds = time.perf_counter() - started
            kept = len(result.warnings)
            rows.append((f"{PAGES} pages, quota 20 per 3 s, {name}", f"{seconds:.1f} s",
                         f"{server.quota_refusals} x 429 of {len(server.generate_requests)} requests; "
                         f"{kept} page(s) kept offline"))
    return rows


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        pdf = make_pdf(Path(tmp) / "bench.pdf", PAGES)
        for phase in (transcription, lambda _: reformat_tokens(), quota):
            for name, value, note in phase(pdf):
                print(f"{name:<56} {value:>9}  {note}", flush=True)


if __name__ == "__main__":
    main()
