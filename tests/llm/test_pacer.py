"""The pacer: requests/minute, tokens/minute and concurrency per process, shared; 429 + RetryInfo honoured."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.llm.pacer import Pacer, pacer_for
from engine.llm.settings import LlmSettings
from engine.pipeline import Pipeline
from engine.schemas import Status
from engine.workspace import Workspace
from tests.fakes.gemini import FakeGemini

SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"
GUIDE, DECK = SAMPLES / "pdfrag-field-guide.pdf", SAMPLES / "pdfrag-product-deck.pdf"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_requests_per_minute_and_concurrency():
    clock = Clock()
    pacer = Pacer(rpm=3, tpm=10**9, concurrency=2, clock=clock)
    first, _ = pacer.try_acquire(0)
    second, _ = pacer.try_acquire(0)
    assert first and second and pacer.try_acquire(0)[0] is None  # two in flight
    pacer.release(first)
    third, _ = pacer.try_acquire(0)
    pacer.release(second), pacer.release(third)
    ticket, wait = pacer.try_acquire(0)
    assert ticket is None and 60.0 < wait < 61.0  # three started this minute (and a margin)
    clock.now += 60.0
    assert pacer.try_acquire(0)[0] is None
    clock.now += 1.0
    assert pacer.try_acquire(0)[0] is not None


def test_tokens_per_minute_count_what_requests_really_cost():
    clock = Clock()
    pacer = Pacer(rpm=100, tpm=1000, concurrency=10, clock=clock)
    big, _ = pacer.try_acquire(600)
    assert pacer.try_acquire(600)[0] is None  # 1,200 estimated tokens would pass the limit
    pacer.release(big, tokens=100)  # it cost less than estimated
    assert pacer.try_acquire(600)[0] is not None


def test_a_429_with_a_delay_pauses_everyone_and_lowers_the_rate():
    clock = Clock()
    pacer = Pacer(rpm=1000, tpm=10**9, concurrency=50, clock=clock)
    for _ in range(21):
        ticket, _ = pacer.try_acquire(0)
        pacer.release(ticket)
    pacer.rate_limited(7.5)  # the 21st was refused: 20 got through
    ticket, wait = pacer.try_acquire(0)
    assert ticket is None and wait == 7.5 and pacer.effective_rpm == 20 and pacer.throttled == 1
    clock.now += 61
    assert pacer.try_acquire(0)[0] is not None
    pacer.rate_limited(None)  # no delay given: nothing shared changes
    assert pacer.try_acquire(0)[0] is not None and pacer.throttled == 2


def test_one_pacer_per_process_key_and_endpoint_and_workers_share_the_limits():
    one = pacer_for("gemini", "http://x", "k", (10, 100, 4))
    assert pacer_for("gemini", "http://x", "k", (10, 100, 4)) is one
    assert pacer_for("gemini", "http://x", "other-key", (10, 100, 4)) is not one
    settings = LlmSettings(rpm=20, concurrency=8)
    assert settings.limits()[0] == 20 and settings.limits()[2] == 8
    assert settings.model_copy(update={"pacer_share": 4}).limits() == (5, 250_000, 2)
    assert LlmSettings(tier="free").limits() == (10, 250_000, 2)


def test_a_quota_below_the_tier_costs_a_few_429s_and_the_document_ends_ok(tmp_path, llm_settings):
    with FakeGemini(rpm=8, window_s=2.0) as server:
        settings = llm_settings.model_copy(update={"gemini_base_url": server.url, "mistral_api_key": None,
                                                   "rate_window_s": 2.0})
        (result,) = Pipeline(tmp_path, provider="gemini", llm=settings, workers=1).ingest([DECK])
        record = Workspace(tmp_path).load(result.doc_id)
        assert result.status is Status.OK, result.error
        assert record.stages["read"].fallbacks == 0 and record.pages == 12
        calls = sum(state.calls for state in record.stages.values())
        # the first burst meets the quota with its pages in flight (4, as measured); then the pacer keeps to it
        refusals = server.quota_refusals
        assert calls > 16 and 1 <= refusals <= settings.page_workers + 2, (calls, refusals)


@pytest.mark.slow
def test_document_workers_do_not_multiply_requests_in_flight(tmp_path, llm_settings):
    with FakeGemini(latency=0.05) as server:
        settings = llm_settings.model_copy(update={"gemini_base_url": server.url, "mistral_api_key": None,
                                                   "concurrency": 2, "page_workers": 4})
        results = Pipeline(tmp_path, provider="gemini", llm=settings, workers=2).ingest([GUIDE, DECK])
        assert [r.status for r in results] == [Status.OK, Status.OK]
        assert len(server.generate_requests) > 23 and server.max_in_flight <= 2


def test_server_delays_are_waited_without_attempts_and_a_daily_quota_fails():
    import asyncio

    import pytest

    from engine.llm.errors import LlmError
    from engine.llm.retry import RetryPolicy, with_retries

    answers = [LlmError("quota", status=429, retryable=True, retry_after=0.01)] * 3 + ["done"]

    async def call():
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    policy = RetryPolicy(attempts=1, base_s=0.0, max_wait_s=5.0)  # one attempt: only server waits can retry
    assert asyncio.run(with_retries(call, policy, lambda exc: True)) == "done"

    async def daily():
        raise LlmError("Gemini HTTP 429: quota", status=429, retryable=True, retry_after=3600.0)

    with pytest.raises(LlmError, match="asks to wait 3600 s, more than PDFRAG_LLM_MAX_WAIT=5 s"):
        asyncio.run(with_retries(daily, policy, lambda exc: True))
