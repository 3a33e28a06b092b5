"""Speed in the browser: Inspect page-to-page on the 408-page corpus document, and a UI that stays
responsive while that document is ingested (needs ../shared/corpus; the timings are printed)."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

import pytest

from browser_helpers import chromium  # noqa: F401  (fixtures)
from browser_helpers import REPO, open_page, report_timing, start_server, stop_server, tab

pytestmark = [pytest.mark.browser, pytest.mark.corpus, pytest.mark.slow]

BIG = "Regulation_Best_Interest_proposed_rule.pdf"


@pytest.fixture(scope="module")
def big_pdf(corpus_pdf):
    return corpus_pdf(BIG)


@pytest.fixture(scope="module")
def speed_server(tmp_path_factory, big_pdf):
    """A server whose workspace already holds the samples (ingested with the CLI)."""
    root = tmp_path_factory.mktemp("speed")
    subprocess.run([sys.executable, "-m", "engine.cli", "ingest", str(REPO / "data" / "samples"),
                    "--data-dir", str(root / "workspace")], cwd=REPO, check=True, capture_output=True)
    server = start_server(root / "workspace")
    yield server
    stop_server(server)


@pytest.fixture(scope="module")
def page(chromium, speed_server):
    page = open_page(chromium, speed_server.url)
    yield page
    page.close()


SHOWN_JS = """async ([button, n]) => {
  const started = performance.now();
  if (button) document.getElementById(button).click();
  const shown = () => {
    const img = document.querySelector(`img.pdfrag-page-image[data-page='${n}']`);
    return img && img.complete && img.naturalWidth > 0 && document.querySelector(`.pdfrag-md[data-page='${n}']`);
  };
  while (!shown()) {
    if (performance.now() - started > 20000) throw new Error(`page ${n} did not show`);
    await new Promise(resolve => setTimeout(resolve, 4));
  }
  return (performance.now() - started) / 1000;
}"""


def goto_page(page, number: int) -> float:
    """Seconds from the click on Next/Previous (or Go) until the image has loaded and the Markdown shows
    `number`, timed inside the browser (what a user waits, without the test driver's round trips)."""
    current = int(page.locator("img.pdfrag-page-image").get_attribute("data-page"))
    if number in (current + 1, current - 1):
        button = "inspect-next" if number == current + 1 else "inspect-prev"
        return page.evaluate(SHOWN_JS, [button, number])
    page.fill("#inspect-jump", str(number))
    return page.evaluate(SHOWN_JS, ["inspect-go", number])


def summary(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p90 = ms[min(len(ms) - 1, int(round(0.9 * (len(ms) - 1))))]
    return f"[timing] {name}: n={len(ms)} median {statistics.median(ms):.0f} ms, p90 {p90:.0f} ms, max {ms[-1]:.0f} ms"


def test_ui_stays_responsive_during_a_400_page_ingest(page, big_pdf):
    tab(page, "Inspect")
    page.select_option("#inspect-pick-doc", label="pdfrag-field-guide.pdf (11 p.)")
    page.locator('img.pdfrag-page-image[data-page="1"]').wait_for()
    for number in range(2, 12):  # warm the small document first
        goto_page(page, number)
    goto_page(page, 1)
    tab(page, "Library")
    page.set_input_files("#library-files", str(big_pdf))
    page.locator(".alert-success", has_text="Accepted").wait_for()
    tab(page, "Inspect")
    latencies, started = [], time.perf_counter()
    number, step = 1, 1
    while len(latencies) < 25:
        if not 1 <= number + step <= 11:
            step = -step
        number += step
        latencies.append(goto_page(page, number))
    measured = time.perf_counter() - started
    tab(page, "Pipeline")
    row = page.locator(f'tr.pdfrag-doc-progress[data-doc="{BIG}"]')
    row.wait_for()
    still_running = row.get_attribute("data-status") == "running"
    page.locator(f'tr.pdfrag-doc-progress[data-doc="{BIG}"][data-status="ok"]').wait_for(timeout=120_000)
    ingest = row.locator("td").nth(-2).inner_text()
    report_timing(f"[timing] 408-page ingest in the app: {ingest}; measured for {measured:.1f} s"
          f" (ingest {'still running' if still_running else 'finished'} at the end)")
    report_timing(summary("Inspect page change during the 408-page ingest", latencies))
    assert statistics.median(latencies) < 1.0


def test_inspect_page_to_page_on_the_408_page_document(page, big_pdf):
    if not page.locator("#inspect-pick-doc option", has_text=BIG).count():  # run apart from the test above
        tab(page, "Library")
        page.set_input_files("#library-files", str(big_pdf))
        tab(page, "Pipeline")
        page.locator(f'tr.pdfrag-doc-progress[data-doc="{BIG}"][data-status="ok"]').wait_for(timeout=120_000)
    tab(page, "Inspect")
    page.select_option("#inspect-pick-doc", label=f"{BIG} (408 p.)")
    page.locator('img.pdfrag-page-image[data-page="1"]').wait_for(timeout=20_000)
    cold = [goto_page(page, 200)]
    forward = [goto_page(page, n) for n in range(201, 221)]  # each next page was rendered ahead
    backward = [goto_page(page, n) for n in range(219, 199, -1)]  # all cached now
    report_timing(summary("Inspect jump to an unseen page (cold)", cold))
    report_timing(summary("Inspect next page (warm, rendered ahead)", forward))
    report_timing(summary("Inspect previous page (warm, cached)", backward))
    warm = sorted(forward + backward)
    assert statistics.median(warm) <= 0.300
