"""The Structure page shows where the tree comes from: a source badge on the root and wherever a node's
source differs from its parent's, and every node's source as a data attribute."""

from htmltools import TagList

from app.pages.structure import tree_html
from engine.markdown import join_pages
from engine.structure import build_tree

MARKDOWN = join_pages(["# Guide\n\nx", "## Methods\n\ny\n\n## Results\n\nz"])


def test_tree_shows_sources_where_they_change():
    structure = "# Guide [line 0] [outline]\n## Methods [line 6]\n### Results [line 10] [outline]"
    tree = build_tree(structure, kind="report", pages=2, doc_title="The Guide", markdown=MARKDOWN)
    html = TagList(tree_html(tree.root, "doc1", "structure-open")).get_html_string()
    assert html.count('data-source="outline"') == 3 and html.count('data-source="layout"') == 1
    # the root (outline), Methods (layout, unlike its parent), Results (outline, unlike its parent, Methods); a
    # child with its parent's source (Guide) gets none
    assert html.count('class="badge') == 3
    nested = "# Guide [line 0] [outline]\n## Methods [line 6] [outline]\n## Results [line 10] [outline]"
    tree = build_tree(nested, kind="report", pages=2, doc_title="The Guide", markdown=MARKDOWN)
    assert TagList(tree_html(tree.root, "doc1", "structure-open")).get_html_string().count('class="badge') == 1
    assert 'title="from the PDF outline (bookmarks)"' in html and 'title="from the page layout"' in html
