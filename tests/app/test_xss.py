"""Text from a PDF never runs in the workbench.

Fast tests: the sanitiser (app/safe_html.py) on script payloads, and the pages' HTML for a real record of a
PDF full of payloads (body, a heading, title metadata, outline, file name). In chromium: that PDF uploaded,
then every page visited (Inspect in every view, a Chat answer quoting a payload, the remove dialog) under the
app's Content-Security-Policy; no dialog may fire, no payload element may exist, no CSP violation may occur.
"""

from __future__ import annotations

import re
import time
from html.parser import HTMLParser
from pathlib import Path

import pymupdf
import pytest
from htmltools import TagList

from app.safe_html import clean_html, markdown_blocks, render_markdown, safe_link
from browser_helpers import chromium, server  # noqa: F401  (fixtures)
from browser_helpers import CSP_WATCH, screenshot, tab, wait_idle, wait_page_image

REPO = Path(__file__).resolve().parents[2]

# Each payload, if it ran, would call alert() (a dialog) with its own label.
PAYLOADS = [
    "<script>alert('script')</script>",
    "<img src=x onerror=alert('img')>",
    "<iframe srcdoc=\"<script>parent.alert('srcdoc')</script>\"></iframe>",
    "<details open ontoggle=alert('details')>x</details>",
    "<svg onload=alert('svg')></svg>",
    "<a href=\"javascript:alert('jslink')\">click me</a>",
    "[markdown link](javascript:alert('mdlink'))",
    "[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "<a href=\"vbscript:msgbox('vb')\">vb</a>",
    "<a href=\"&#106;avascript:alert('entity')\">entity</a>",
    "[entity link](&#106;avascript:alert('mdentity'))",
    "<javascript:alert('autolink')>",
    "![image](x\" onerror=\"alert('mdimg'))",
    "<body onload=alert('body')>",
    "<input autofocus onfocus=alert('input')>",
    "<video><source onerror=alert('video')></video>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert('mxss')>",
    "<object data=\"javascript:alert('object')\"></object>",
    "<embed src=\"javascript:alert('embed')\">",
    "<form action=\"javascript:alert('form')\"><button>go</button></form>",
    "<base href=\"javascript:alert('base')//\">",
    "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert('meta')\">",
    "<marquee onstart=alert('marquee')>m</marquee>",
    "<<script>alert('nested')//<</script>",
    "<style>@import 'javascript:alert(1)';</style><p style=\"background:url(javascript:alert('css'))\">s</p>",
    "x' onmouseover='alert(\"quote\")' y='",
]
CHAT_SENTENCE = ("The harbour inspection found <iframe srcdoc=\"<script>parent.alert('chat')</script>\"></iframe> "
                 "rust on the crane rails and <img src=x onerror=alert('chat2')> cracked bollards.")
HOSTILE_NAME = "Harbour <img src=x onerror=alert('name')> ' onmouseover='alert(3) report.pdf"

DANGEROUS_TAGS = {"script", "iframe", "frame", "object", "embed", "img", "svg", "math", "video", "audio", "source",
                  "form", "input", "button", "base", "meta", "link", "style", "marquee", "template", "body"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "data", "poster", "background", "xlink:href"}


class _Scan(HTMLParser):
    def __init__(self, allowed: set[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.allowed, self.findings, self.text = allowed, [], []

    def handle_starttag(self, tag, attrs):
        if tag == "script" and attrs == [("data-bslib-card-init", "")]:  # ui.card's own set-up
            return
        if tag in DANGEROUS_TAGS - self.allowed:
            self.findings.append(f"<{tag}>")
        for name, value in attrs:
            value = value or ""
            if name.startswith("on") or name == "srcdoc":
                self.findings.append(f"<{tag} {name}>")
            elif name in URL_ATTRIBUTES and not (safe_link(value) or value.startswith("#pdfrag-open:")):
                self.findings.append(f"<{tag} {name}={value!r}>")

    def handle_data(self, data):
        self.text.append(data)


def unsafe_markup(html: str, allowed: set[str] = frozenset()) -> list[str]:
    """What in `html` could run script or leave the page: dangerous tags, event handlers, srcdoc, links to
    anything but http(s), mailto and the app's own open-at-page links."""
    scan = _Scan(set(allowed))
    scan.feed(html)
    scan.close()
    return scan.findings


def visible_text(html: str) -> str:
    scan = _Scan(set())
    scan.feed(html)
    return "".join(scan.text)


# -- the sanitiser ---------------------------------------------------------------------------------------------


def test_the_scanner_finds_every_raw_payload():  # it could not fail otherwise
    for payload in PAYLOADS[:6] + PAYLOADS[8:10] + PAYLOADS[13:]:
        if payload.startswith(("[", "x'", "!", "<javascript")):
            continue
        assert unsafe_markup(payload), payload


@pytest.mark.parametrize("payload", PAYLOADS)
@pytest.mark.parametrize("where", ["{}", "# {}", "- {}", "> {}", "| a |\n|---|\n| {} |", "**{}**",
                                   "[{}](https://x.org)"])
def test_markdown_renders_a_payload_as_text(payload, where):
    html = str(render_markdown(f"Before {where.format(payload)} after."))
    assert unsafe_markup(html) == []
    word = re.findall(r"[a-z]{4,}", payload)[0]
    assert word in visible_text(html)  # the reader sees what the document says


@pytest.mark.parametrize("payload", PAYLOADS)
def test_raw_html_is_cleaned_to_the_allow_list(payload):
    assert unsafe_markup(clean_html(payload)) == []


@pytest.mark.parametrize("url", [
    "javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
    "java\nscript:alert(1)", "\x01javascript:alert(1)", "data:text/html,<script>alert(1)</script>",
    "data:image/png;base64,AAAA", "vbscript:msgbox(1)", "file:///etc/passwd", "/session/x", "../x",
    "#pdfrag-open:library-remove_confirmed:x:1", "//evil.example/x", "",
])
def test_unsafe_and_relative_links_are_refused(url):
    assert safe_link(url) is None
    html = str(render_markdown(f"[link]({url})"))
    assert "href" not in html


@pytest.mark.parametrize("url", ["https://example.org/a?b=1", "http://example.org", "mailto:someone@example.org"])
def test_web_and_mail_links_are_kept(url):
    html = str(render_markdown(f"[link]({url})"))
    assert 'href="' in html and 'rel="noopener noreferrer nofollow"' in html and 'target="_blank"' in html


def test_formatting_survives():
    html = str(render_markdown("# Title\n\nSome **bold** and *slanted* text, `code`.\n\n"
                               "| left | right |\n|:--|--:|\n| 1 | 2 |\n\n1. one\n2. two\n\n> quoted\n"))
    for tag in ("<h1>", "<strong>", "<em>", "<code>", "<table>", '<td style="text-align:right">', "<ol>",
                "<blockquote>"):
        assert tag in html, tag


def test_character_references_in_a_document_stay_as_written():
    # an XML guide's "How to search for &apos; in text nodes?" is those characters, not an apostrophe; a reference
    # spelling a tag stays text too
    html = str(render_markdown("Search for &apos; and &amp; here, not &#60;script&#62;."))
    assert "&amp;apos;" in html and "&amp;amp;" in html and "&amp;#60;script&amp;#62;" in html
    assert "'" not in html and "<script" not in html
    assert "&amp;apos;" in "".join(map(str, markdown_blocks("Search for &apos; in text nodes.")))


def test_blocks_add_up_to_the_whole():
    text = "# T\n\npara one <script>x</script>\n\n- a\n- b\n\n```\n<b>code</b>\n```\n\n---\n\nlast"
    blocks = markdown_blocks(text)
    assert len(blocks) == 6
    assert "".join(map(str, blocks)) == str(render_markdown(text))


def test_app_builds_no_html_from_strings_outside_safe_html():
    """Document text reaches the DOM escaped by htmltools or through app/safe_html.py, nowhere else."""
    offenders = []
    for path in sorted((REPO / "app").rglob("*.py")):
        if path.name == "safe_html.py":
            continue
        source = path.read_text(encoding="utf-8")
        for pattern in (r"\bHTML\(", r"ui\.markdown\(", r"markdown_it", r"\bnh3\b"):
            offenders += [f"{path.name}: {pattern}" for _ in re.finditer(pattern, source)]
    for path in sorted((REPO / "app" / "www").glob("*.js")):
        source = path.read_text(encoding="utf-8")
        for pattern in (r"innerHTML", r"outerHTML", r"insertAdjacentHTML", r"document\.write", r"\beval\(",
                        r"new Function", r"\.html\("):
            offenders += [f"{path.name}: {pattern}" for _ in re.finditer(pattern, source)]
    assert offenders == []


# -- the pages' HTML for a real record ---------------------------------------------------------------------------


def hostile_pdf(path: Path) -> Path:
    """Three pages: a payload heading and title, the payloads one a line, a sentence for Chat; docinfo and an
    outline full of payloads too."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Harbour <script>alert('heading')</script> Review", fontsize=22)
    page.insert_text((72, 110), "1 Findings <img src=x onerror=alert('h2')>", fontsize=15)
    y = 140
    for payload in PAYLOADS[:13]:
        page.insert_text((72, y), payload, fontsize=8)
        y += 22
    page = doc.new_page()
    page.insert_text((72, 72), "2 More <details open ontoggle=alert('h3')>", fontsize=15)
    y = 100
    for payload in PAYLOADS[13:]:
        page.insert_text((72, y), payload, fontsize=8)
        y += 22
    page = doc.new_page()
    page.insert_text((72, 72), "3 Inspection", fontsize=15)
    words, line = CHAT_SENTENCE.split(" "), []
    y = 100
    for word in words + [None]:
        if word is None or len(" ".join(line + [word])) > 80:
            page.insert_text((72, y), " ".join(line), fontsize=10)
            y, line = y + 14, []
        if word is not None:
            line.append(word)
    doc.set_metadata({"title": "<img src=x onerror=alert('title')>", "author": "<script>alert('author')</script>",
                      "subject": "<iframe srcdoc=\"<script>parent.alert('subject')</script>\"></iframe>",
                      "keywords": "<svg onload=alert('keywords')>"})
    doc.set_toc([[1, "<iframe srcdoc=\"<script>parent.alert('outline')</script>\"></iframe>", 1],
                 [1, "<img src=x onerror=alert('outline2')>", 2], [1, "[x](javascript:alert('outline3'))", 3]])
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def hostile_record(tmp_path_factory):
    from engine.pipeline import Pipeline
    from engine.workspace import Workspace

    root = tmp_path_factory.mktemp("hostile")
    [result] = Pipeline(root / "workspace", workers=1).ingest([hostile_pdf(root / "in" / HOSTILE_NAME)])
    assert result.doc_id, result.error
    workspace = Workspace(root / "workspace")
    return workspace, workspace.load(result.doc_id)


def test_metadata_structure_and_chat_html_escape_the_record(hostile_record):
    from app.pages.chat import answer_chunks
    from app.pages.metadata import metadata_cards
    from app.pages.structure import extracted_html, tree_html
    from engine.agent import ask

    workspace, record = hostile_record
    assert record.pdf.outline and record.tree is not None and "alert" in (record.metadata.title or "")
    answer = ask(workspace, "What did the harbour inspection find on the crane rails?")
    assert "iframe srcdoc" in answer.answer + " ".join(c.quote for c in answer.citations)
    parts = {
        "metadata": metadata_cards(record),
        "extracted": extracted_html(record, "structure-open"),
        "tree": tree_html(record.tree.root, record.doc_id, "structure-open"),
        "chat": TagList(*answer_chunks(answer, [record], "chat-open")),
    }
    for name, part in parts.items():
        html = TagList(part).get_html_string()
        assert unsafe_markup(html, allowed={"details"} if name == "chat" else set()) == [], name
        assert "alert(" in visible_text(html), name  # shown, as text
    chat = TagList(parts["chat"]).get_html_string()
    assert f'href="#pdfrag-open:chat-open:{record.doc_id}:3"' in chat


# -- in chromium ------------------------------------------------------------------------------------------------

PAGE_CHECK = """() => {
  const found = [];
  const payloads = 'iframe, object, embed, marquee, video, audio, math, base, meta[http-equiv], form[action], '
                   + 'input[autofocus], svg[onload], img:not(.pdfrag-page-image)';
  for (const el of document.querySelectorAll(payloads)) {
    found.push(el.outerHTML.slice(0, 120));
  }
  for (const el of document.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase(), value = attr.value.replace(/[\\x00-\\x20]+/g, '').toLowerCase();
      if (name.startsWith('on') || name === 'srcdoc') found.push(el.tagName + ' ' + name);
      if (['href', 'src', 'action', 'formaction', 'data'].includes(name)
          && /^(javascript|vbscript|data):/.test(value) && !value.startsWith('data:image/')) {
        found.push(el.tagName + ' ' + name + '=' + value.slice(0, 60));
      }
    }
  }
  return found;
}"""


@pytest.fixture(scope="module")
def hostile_file(tmp_path_factory) -> Path:
    return hostile_pdf(tmp_path_factory.mktemp("payloads") / HOSTILE_NAME)


@pytest.fixture(scope="module")
def browser_page(chromium, server):
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    events: dict[str, list[str]] = {"dialogs": [], "csp": [], "errors": []}

    def on_dialog(dialog):
        events["dialogs"].append(dialog.message)
        dialog.dismiss()

    def on_console(message):
        text = message.text
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            events["csp"].append(text)

    page.on("dialog", on_dialog)
    page.on("console", on_console)
    page.on("pageerror", lambda error: events["errors"].append(str(error)))
    page.add_init_script(f"({CSP_WATCH})()")
    response = page.goto(server.url)
    page.wait_for_function("() => window.Shiny && window.Shiny.shinyapp && window.Shiny.shinyapp.isConnected()")
    wait_idle(page)
    page.events = events
    page.first_response = response
    yield page
    page.close()


def assert_clean(page, where: str) -> None:
    time.sleep(0.5)  # a payload that runs does so as soon as it is in the DOM (a toggle, an error, a load)
    wait_idle(page)
    csp = page.evaluate("() => window.__csp") + page.events["csp"]
    assert page.events["dialogs"] == [], f"{where}: a payload ran"
    assert page.evaluate(PAGE_CHECK) == [], f"{where}: a payload element is in the DOM"
    assert csp == [], f"{where}: Content-Security-Policy violations"


@pytest.mark.browser
@pytest.mark.slow
def test_a_pdf_full_of_payloads_runs_nothing_on_any_page(browser_page, hostile_file):
    page = browser_page
    policy = page.first_response.headers.get("content-security-policy", "")
    assert "script-src 'self' 'sha256-" in policy and "unsafe-inline" not in policy.split("style-src")[0]
    page.set_input_files("#library-files", str(hostile_file))
    page.locator(".alert-success", has_text="Accepted").wait_for()
    assert_clean(page, "Library after the upload")
    tab(page, "Pipeline")
    page.wait_for_function("() => { const rows = [...document.querySelectorAll('tr.pdfrag-doc-progress')];"
                           " return rows.length === 1 && rows[0].dataset.status === 'ok'; }", timeout=90_000)
    assert_clean(page, "Pipeline")

    tab(page, "Library")
    page.locator("#library-corpus td").first.wait_for()
    assert "onerror" in page.locator("#library-corpus").inner_text()  # the hostile name, as text
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    modal = page.locator("#shiny-modal")
    for _ in range(5):  # the table is drawn again (selection lost) while the run's last updates arrive
        page.locator("#library-corpus td").first.click()
        try:  # a click on a table being replaced selects nothing: click the new one
            page.locator("#library-corpus tr[aria-selected='true']").wait_for(timeout=5_000)
            page.click("#library-remove")
            modal.wait_for(timeout=3_000)
            break
        except PlaywrightTimeout:
            continue
    modal.wait_for()
    assert_clean(page, "the remove dialog")  # Shiny's modal runs an inline script of its own: hashed
    page.get_by_role("button", name="Keep them").click()
    page.locator("#shiny-modal").wait_for(state="detached")

    tab(page, "Inspect")
    page.locator('img.pdfrag-page-image[data-page="1"]').wait_for()
    for number in (1, 2, 3):
        for kind in ("reformatted", "raw"):
            page.click(f"input[name='inspect-kind'][value='{kind}']")
            for view in ("rendered", "source"):
                page.click(f"input[name='inspect-view'][value='{view}']")
                pane = page.locator(f'.pdfrag-md[data-page="{number}"][data-kind="{kind}"]')
                pane.wait_for()
                if view == "rendered":
                    page.locator(".pdfrag-md-rendered").wait_for()
                assert "alert(" in pane.inner_text()  # the payloads are shown, as text
                assert_clean(page, f"Inspect page {number}, {kind}, {view}")
        if number < 3:
            page.click("#inspect-next")
            wait_page_image(page, number + 1)

    tab(page, "Metadata")
    page.locator("#metadata-cards").get_by_text("File name").wait_for()
    assert "alert('title')" in page.locator("#metadata-cards").inner_text()
    assert_clean(page, "Metadata")

    tab(page, "Structure")
    page.locator("#structure-tree .pdfrag-node").first.wait_for()
    for name in ("Extracted TOC", "Created TOC", "Structure string", "Side by side"):
        page.get_by_role("tab", name=name, exact=True).click()
        assert_clean(page, f"Structure, {name}")
    assert "alert('outline')" in page.locator("#structure-side_by_side").inner_text()  # the outline, as text

    from app.pages.chat import agent_available

    if agent_available():
        tab(page, "Chat")
        box = page.locator("#chat-chat .shiny-chat-input [role='textbox']")
        box.click()
        box.type("What did the harbour inspection find on the crane rails?")
        box.press("Enter")
        answer = page.locator("#chat-chat .shiny-chat-message", has_text="crane rails")
        answer.wait_for(timeout=30_000)
        page.locator('#chat-chat a[href^="#pdfrag-open:"]').first.wait_for()
        assert_clean(page, "Chat")
        assert "iframe srcdoc" in answer.inner_text()  # the quote is shown, as text
    tab(page, "Settings")
    assert_clean(page, "Settings")
    assert page.events["errors"] == []
    screenshot(page, "xss-chat")
