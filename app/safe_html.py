"""The one place where text from a document may become markup: Markdown rendered without raw HTML, then
sanitised against an allow-list, with only http, https and mailto links.

Everything a PDF contributes (its text, title, outline, file name, answers and quotes drawn from it) is
hostile. The app shows such text in exactly two ways: as children or attribute values of htmltools tags
(`ui.p(text)`, `ui.tags.a(text, title=...)`), which htmltools escapes, or through `render_markdown` /
`markdown_blocks` here. Nothing else in app/ wraps document text in `HTML(...)` or uses `ui.markdown`
(a test holds app/ to that).
"""

from __future__ import annotations

import re
from functools import lru_cache

import nh3
from htmltools import HTML

# What rendered Markdown may contain: text formatting, headings, lists, quotes, code, tables and links.
# No images (a document's image URL would be fetched by every viewer), no forms, frames, media or scripts.
ALLOWED_TAGS = frozenset({
    "a", "b", "blockquote", "br", "code", "del", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "li",
    "ol", "p", "pre", "s", "strong", "sub", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
})
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}, "th": {"style"}, "td": {"style"}}
ALLOWED_STYLES = frozenset({"text-align"})  # table column alignment, the only style Markdown produces
LINK_SCHEMES = frozenset({"http", "https", "mailto"})
DROPPED_WITH_CONTENT = frozenset({"script", "style"})

_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.\-]*):")
_INVISIBLE = re.compile(r"[\x00-\x20\x7f]+")  # browsers ignore these inside a URL ("java\tscript:")


def safe_link(url: str) -> str | None:
    """`url` when it is an absolute http, https or mailto link, else None.

    Relative links are refused too: a document has no business linking into the app (its pages, its
    routes, the `#pdfrag-open:` links that drive it), and `javascript:`, `data:`, `vbscript:` and every
    other scheme can run or smuggle content.
    """
    squeezed = _INVISIBLE.sub("", url)
    match = _SCHEME.match(squeezed)
    if match is None or match.group(1).lower() not in LINK_SCHEMES:
        return None
    return url.strip()


@lru_cache(maxsize=1)
def _cleaner() -> nh3.Cleaner:
    return nh3.Cleaner(
        tags=set(ALLOWED_TAGS), clean_content_tags=set(DROPPED_WITH_CONTENT),
        attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
        attribute_filter=_keep_attribute, filter_style_properties=set(ALLOWED_STYLES),
        url_schemes=set(LINK_SCHEMES), url_relative="deny", link_rel="noopener noreferrer nofollow",
        set_tag_attribute_values={"a": {"target": "_blank"}},  # a document's link never replaces the app
        strip_comments=True,
    )


def _keep_attribute(tag: str, name: str, value: str) -> str | None:
    return safe_link(value) if name == "href" else value


def clean_html(html: str) -> str:
    """`html` reduced to the allow-list: unknown tags unwrapped (their text kept), scripts and styles
    dropped with their content, every attribute not listed removed, links only to http, https, mailto."""
    return _cleaner().clean(html)


@lru_cache(maxsize=1)
def _markdown():
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    # a document's text is shown as written: "&apos;" in an XML guide is those six characters, not an apostrophe
    md.disable("entity")
    md.validateLink = lambda url: safe_link(url) is not None  # type: ignore[method-assign]  # markdown-it's hook
    return md


def render_markdown(text: str) -> HTML:
    """Markdown from a document as safe HTML: raw HTML and character references ("&apos;") in it stay text, links
    are checked, and the result goes through the allow-list sanitiser."""
    return HTML(clean_html(_markdown().render(text)))


def markdown_blocks(text: str) -> list[HTML]:
    """`render_markdown(text)` cut into its top-level blocks (paragraphs, lists, tables, …), each a
    complete sanitised fragment, so an answer can be streamed a block at a time."""
    md = _markdown()
    tokens = md.parse(text)
    blocks, start, depth = [], 0, 0
    for i, token in enumerate(tokens):
        depth += token.nesting
        if depth == 0:  # a block closed, or a block of one token (fence, rule, code)
            html = clean_html(md.renderer.render(tokens[start:i + 1], md.options, {}))
            if html.strip():
                blocks.append(HTML(html))
            start = i + 1
    return blocks
