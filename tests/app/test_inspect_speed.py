"""Inspect on the 408-page corpus document: pages keep changing while it is ingested, and page to page its
images come from the server's cache and its renders ahead (needs ../shared/corpus). How fast is measured by
benchmarks/bench_app.py, not asserted here."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from browser_helpers import chromium  # noqa: F401  (fixtures)
from browser_helpers import Server, goto_page, open_page, start_server, stop_server, tab
from engine.workspace import Workspace

pytestmark = [pytest.mark.browser, pytest.mark.corpus, pytest.mark.slow]

BIG = "Regulation_Best_Interest_proposed_rule.pdf"
IMAGE_LINE = re.compile(r"page image (\w+) p\. (\d+): (cached|drawn ahead|drawn|awaited)$", re.M)


@pytest.fixture(scope="module")
def big_pdf(corpus_pdf):
    return corpus_pdf(BIG)


@pytest.fixture(scope="module")
def speed_server(tmp_path_factory, big_pdf, samples_workspace):
    """A server whose workspace already holds the samples (a copy of the session's), logging each page image."""
    root = tmp_path_factory.mktemp("speed")
    shutil.copytree(samples_workspace, root / "workspace")
    server = start_server(root / "workspace", env={"PDFRAG_LOG_LEVEL": "debug"})
    yield server
    stop_server(server)


@pytest.fixture(scope="module")
def page(chromium, speed_server):  # noqa: F811
    page = open_page(chromium, speed_server.url)
    yield page
    page.close()


class ImageLog:
    """How the server had each page image (its debug log: cached, drawn, drawn ahead, awaited), from a mark on."""

    def __init__(self, server: Server) -> None:
        self.path = server.data_dir.parent / f"server-{urlparse(server.url).port}.log"
        self.start = 0

    def mark(self) -> None:
        self.start = self.path.stat().st_size

    def since_mark(self, sha256: str) -> list[tuple[int, str]]:
        with open(self.path, "rb") as handle:
            handle.seek(self.start)
            text = handle.read().decode("utf-8", "replace")
        return [(int(n), how) for sha, n, how in IMAGE_LINE.findall(text) if sha256.startswith(sha)]


def ensure_big_document(page, big_pdf: Path, server: Server) -> None:
    """Upload the big document unless the test before did (its record is in the workspace, or its run is
    under way and the Inspect picker lists it), and wait until its run shows "ok". The workspace is read
    first: the picker is re-rendered when a run ends, and an upload of a document already ingested would run
    as "cached" and never show "ok"."""
    if Workspace(server.data_dir).find(BIG) is None \
            and not page.locator("#inspect-pick-doc option", has_text=BIG).count():  # run apart from the test before
        tab(page, "Library")
        page.set_input_files("#library-files", str(big_pdf))
    tab(page, "Pipeline")
    try:
        page.locator(f'tr.pdfrag-doc-progress[data-doc="{BIG}"][data-status="ok"]').wait_for(timeout=120_000)
    except PlaywrightTimeout:  # say what the page and the workspace showed instead
        rows = page.locator("tr.pdfrag-doc-progress")
        shown = [(rows.nth(i).get_attribute("data-doc"), rows.nth(i).get_attribute("data-status"))
                 for i in range(rows.count())]
        record = Workspace(server.data_dir).find(BIG)
        pytest.fail(f"no 'ok' row for {BIG} in 120 s; rows {shown}; record "
                    f"{record.status.value if record else None}")


def test_inspect_pages_change_while_a_400_page_document_is_ingested(page, big_pdf, speed_server):
    tab(page, "Inspect")
    page.select_option("#inspect-pick-doc", label="pdfrag-field-guide.pdf (11 p.)")
    page.locator('img.pdfrag-page-image[data-page="1"]').wait_for()
    tab(page, "Library")
    page.set_input_files("#library-files", str(big_pdf))
    page.locator(".alert-success", has_text="Accepted").wait_for()
    tab(page, "Inspect")
    shown, number, step = [], 1, 1
    while len(shown) < 25:  # each change shows its page's image and Markdown (goto_page throws if one never does)
        if not 1 <= number + step <= 11:
            step = -step
        number += step
        goto_page(page, number)
        shown.append(number)
    assert int(page.locator("img.pdfrag-page-image").get_attribute("data-page")) == shown[-1]
    ensure_big_document(page, big_pdf, speed_server)
    assert Workspace(speed_server.data_dir).find(BIG).status.value == "ok"


def test_inspect_page_to_page_uses_the_cache_and_the_renders_ahead(page, big_pdf, speed_server):
    ensure_big_document(page, big_pdf, speed_server)
    sha = Workspace(speed_server.data_dir).find(BIG).sha256
    log = ImageLog(speed_server)
    tab(page, "Inspect")
    page.select_option("#inspect-pick-doc", label=f"{BIG} (408 p.)")
    page.locator('img.pdfrag-page-image[data-page="1"]').wait_for(timeout=20_000)
    log.mark()
    goto_page(page, 200)  # unseen: drawn now
    for number in range(201, 221):
        goto_page(page, number)
    forward = log.since_mark(sha)
    log.mark()
    for number in range(219, 199, -1):
        goto_page(page, number)
    backward = log.since_mark(sha)

    print(f"\n[image log] forward {Counter(how for _, how in forward)}, back {Counter(how for _, how in backward)}")
    drawn = Counter(n for n, how in forward if how in ("drawn", "drawn ahead"))
    assert (200, "drawn") in forward
    assert sum(1 for _, how in forward if how == "drawn ahead") >= 1  # neighbours are rendered ahead
    assert max(drawn.values()) == 1  # no page drawn twice
    assert not [n for n, how in backward if how.startswith("drawn") and n < 220]  # going back, all were cached
