"""Structure strings parsed into DocTrees: page ranges, nesting, uncategorized pages, warnings, rendering."""

import random
import re

import pytest

from engine.extract.landscape import deck_structure, group_sections
from engine.extract.toc_create import create_report_toc
from engine.markdown import iter_headings, join_pages
from engine.structure import build_tree, render_tree, tree_pages

# lines: 0 "# Report", 4 marker 1, 6 "## Methods" (top of page 2), 12 marker 2, 14 "more methods",
# 16 "## Results" (mid page 3), 19 marker 3, 21 "### Detail" (top of page 4), 24 marker 4, 26 "## Annex" (top of 5)
REPORT = join_pages([
    "# Report\n\nintro",
    "## Methods\n\ntext\n\ntext",
    "more methods\n\n## Results\nr",
    "### Detail\nd",
    "## Annex\na",
])
REPORT_STRUCTURE = (
    "# Report [line 0]\n## Methods [line 6]\n## Results [line 16]\n### Detail [line 21]\n## Annex [line 26]"
)


def spans(tree):
    return [(n.title, n.number, n.kind, n.level, n.start_page, n.end_page) for n in tree.root.walk()]


def test_fixture_lines():
    assert [(h.line, h.title) for h in iter_headings(REPORT)] == [
        (0, "Report"), (6, "Methods"), (16, "Results"), (21, "Detail"), (26, "Annex")
    ]
    assert create_report_toc(REPORT, "report") == REPORT_STRUCTURE


def test_report_ranges_nesting_and_shared_pages():
    tree = build_tree(REPORT_STRUCTURE, kind="report", pages=5, doc_title="The Report", markdown=REPORT)
    assert spans(tree) == [
        ("The Report", -1, "root", 0, 1, 5),
        ("Report", 0, "heading", 1, 1, 5),
        ("Methods", 6, "heading", 2, 2, 3),  # Results starts mid page 3: page 3 is shared
        ("Results", 16, "heading", 2, 3, 4),  # Annex starts at the top of page 5
        ("Detail", 21, "heading", 3, 4, 4),
        ("Annex", 26, "heading", 2, 5, 5),
    ]
    assert tree.warnings == []
    assert render_tree(tree) == (
        "The Report [1]\n"
        "  Report [1]\n"
        "    Methods [2]\n"
        "    Results [3]\n"
        "      Detail [4]\n"
        "    Annex [5]"
    )


def test_a_lone_top_heading_that_repeats_the_root_title_is_merged_into_the_root():
    tree = build_tree(REPORT_STRUCTURE, kind="report", pages=5, doc_title="REPORT", markdown=REPORT)
    assert [(n.title, n.level) for n in tree.root.children] == [
        ("Uncategorized", 1), ("Methods", 1), ("Results", 1), ("Annex", 1)]  # (page 1: the title page)
    assert tree.root.children[2].children[0].level == 2
    stem = "# report_v2 [line 0]\n## Report [line 0]\n### Methods [line 6]"
    with pytest.raises(ValueError):  # (two entries on one line: not a structure a created TOC writes)
        build_tree(stem, kind="report", pages=5, doc_title="The Report", markdown=REPORT)
    stem = "# report_v2 [line 0]\n## Methods [line 6]\n## Results [line 16]"
    tree = build_tree(stem, kind="report", pages=5, doc_title="The Report", markdown=REPORT, aliases=("report_v2",))
    assert [n.title for n in tree.root.children] == ["Uncategorized", "Methods", "Results"]
    unchanged = build_tree(stem, kind="report", pages=5, doc_title="The Report", markdown=REPORT)
    assert [n.title for n in unchanged.root.children] == ["report_v2"]


@pytest.mark.parametrize(("heading", "doc_title", "lifted"), [
    ("Survey Methods", "Survey Methods: A Field Guide", True),  # the root has the subtitle
    ("Survey Methods: A Field Guide", "Survey Methods", True),  # the root is a truncated copy (docinfo)
    ("Survey", "Survey Methods", False),  # one word opens too many titles
    ("Methods for Surveys", "Survey Methods", False),
    # the docinfo title leaves words of the printed one out ("Special Publication"): its words stand in order
    ("NIST Special Publication 800-34 Rev. 1 Contingency Planning Guide", "NIST 800-34, Rev 1 Contingency Planning "
     "Guide", True),
    ("Field Survey Methods", "Survey Methods", False),  # (a title of two words says too little)
    ("Planning Guide for Contingency", "Contingency Planning Guide for Agencies", False),  # (not in their order)
])
def test_a_lone_top_heading_that_extends_or_shortens_the_title_is_merged_into_the_root(heading, doc_title, lifted):
    structure = f"# {heading} [line 0]\n## Methods [line 6]\n## Results [line 16]"
    tree = build_tree(structure, kind="report", pages=5, doc_title=doc_title, markdown=REPORT)
    titles = [n.title for n in tree.root.children]
    assert titles == (["Uncategorized", "Methods", "Results"] if lifted else [heading])


def test_a_layout_heading_over_the_whole_outline_is_lifted_and_keeps_only_the_pages_before_it():
    # the title block's largest line ("Department of Energy") over every entry of the document's own outline
    outlined = "# Department of Energy [line 0]\n## Methods [line 6] [outline]\n## Results [line 16] [outline]"
    tree = build_tree(outlined, kind="report", pages=5, doc_title="Budget in Brief", markdown=REPORT)
    assert [(n.title, n.level, n.start_page, n.end_page, n.source) for n in tree.root.children] == [
        ("Department of Energy", 1, 1, 1, "layout"), ("Methods", 1, 2, 3, "outline"), ("Results", 1, 3, 5, "outline")]
    assert tree.root.source == "outline"
    layout_only = "# Department of Energy [line 0]\n## Methods [line 6]\n## Results [line 16]"
    tree = build_tree(layout_only, kind="report", pages=5, doc_title="Budget in Brief", markdown=REPORT)
    assert [n.title for n in tree.root.children] == ["Department of Energy"]  # the layout's own nesting stands
    in_outline = "# Department of Energy [line 0] [outline]\n## Methods [line 6] [outline]"
    tree = build_tree(in_outline, kind="report", pages=5, doc_title="Budget in Brief", markdown=REPORT)
    assert [n.title for n in tree.root.children] == ["Department of Energy"]  # the outline's own top entry


def test_a_lifted_heading_stays_on_every_section_path_for_retrieval():
    # the tree shows the outline's top level; retrieval reads the lifted heading's words where they stood
    from engine.index.nodes import _report_units

    outlined = "# Department of Energy [line 0]\n## Methods [line 6] [outline]\n## Results [line 16] [outline]"
    tree = build_tree(outlined, kind="report", pages=5, doc_title="Budget in Brief", markdown=REPORT)
    assert tree.context == ["Department of Energy"]
    nodes, _ = _report_units("d", tree.root, REPORT, 5, (), tree.context)
    assert [n.path for n in nodes if n.kind == "section"] == [
        ["Department of Energy"], ["Department of Energy", "Methods"], ["Department of Energy", "Results"]]
    named = build_tree("# Budget in Brief [line 0]\n## Methods [line 6]", kind="report", pages=5,
                       doc_title="Budget in Brief", markdown=REPORT)
    assert named.context == []  # (a heading that restates the title is the root itself)


def test_a_file_name_alias_lifts_only_a_heading_with_its_very_words():
    structure = "# report v2 final [line 0]\n## Methods [line 6]"
    tree = build_tree(structure, kind="report", pages=5, doc_title="T", markdown=REPORT, aliases=("report_v2",))
    assert [n.title for n in tree.root.children] == ["report v2 final"]


def test_report_pages_before_first_heading_are_uncategorized():
    structure = "## Results [line 16]\n### Detail [line 21]\n# Annex [line 26]"
    tree = build_tree(structure, kind="report", pages=5, doc_title="R", markdown=REPORT)
    assert spans(tree) == [
        ("R", -1, "root", 0, 1, 5),
        ("Uncategorized", -2, "section", 1, 1, 2),
        ("Results", 16, "heading", 2, 3, 4),
        ("Detail", 21, "heading", 3, 4, 4),
        ("Annex", 26, "heading", 1, 5, 5),
    ]
    assert tree.warnings == ["pages 1-2 not covered by the structure; put under Uncategorized"]
    assert tree_pages(tree) == {1, 2, 3, 4, 5}


def test_report_level_jump_nests_under_nearest_shallower():
    tree = build_tree("# A [line 0]\n### B [line 6]\n## C [line 16]", kind="report", pages=5,
                      doc_title="R", markdown=REPORT)
    assert render_tree(tree) == "R [1]\n  A [1]\n    B [2]\n    C [3]"
    assert [(n.title, n.start_page, n.end_page) for n in tree.root.walk()][2:] == [("B", 2, 3), ("C", 3, 5)]


@pytest.mark.parametrize("structure, bad", [
    ("# A [line 6]\n## B [line 0]", "## B [line 0]"),
    ("# A [line 6]\n## B [line 6]", "## B [line 6]"),
])
def test_report_non_monotonic_rejected(structure, bad):
    with pytest.raises(ValueError, match=rf"non-monotonic.*{re.escape(bad)}"):
        build_tree(structure, kind="report", pages=5, doc_title="R", markdown=REPORT)


def test_report_errors():
    with pytest.raises(ValueError, match="past the end"):
        build_tree("# A [line 999]", kind="report", pages=5, doc_title="R", markdown=REPORT)
    with pytest.raises(ValueError, match="markdown"):
        build_tree("# A [line 0]", kind="report", pages=5, doc_title="R")


def test_report_unparseable_lines_warned():
    tree = build_tree("# A [line 0]\nnonsense", kind="report", pages=5, doc_title="R", markdown=REPORT)
    assert tree.warnings == ["ignored structure line 'nonsense'"]
    assert tree_pages(tree) == set(range(1, 6))


def test_zero_pages_is_root_only():
    for kind, markdown in (("report", ""), ("deck", None)):
        tree = build_tree("", kind=kind, pages=0, doc_title="Empty", markdown=markdown)
        assert tree.root.children == [] and tree.pages == 0 and tree.root.number == -1
        assert render_tree(tree) == "Empty [1]"


DECK_STRUCTURE = """# Intro
- Page 1 : Cover
- Page 2 : Agenda
# Results
- Page 4 : Results (1 of 2)
- Page 2 : Agenda again
- Page 9 : Ghost
- Page 5 : Results (2 of 2)
# Empty
"""


def test_deck_tree_duplicates_out_of_range_and_uncategorized():
    tree = build_tree(DECK_STRUCTURE, kind="deck", pages=7, doc_title="Deck")
    assert spans(tree) == [
        ("Deck", -1, "root", 0, 1, 7),
        ("Intro", -2, "section", 1, 1, 2),
        ("Cover", 1, "page", 2, 1, 1),
        ("Agenda", 2, "page", 2, 2, 2),
        ("Uncategorized", -5, "section", 1, 3, 3),
        ("Page 3", 3, "page", 2, 3, 3),
        ("Results", -3, "section", 1, 4, 5),
        ("Results (1 of 2)", 4, "page", 2, 4, 4),
        ("Results (2 of 2)", 5, "page", 2, 5, 5),
        ("Uncategorized", -6, "section", 1, 6, 7),
        ("Page 6", 6, "page", 2, 6, 6),
        ("Page 7", 7, "page", 2, 7, 7),
    ]
    assert tree.warnings == [
        "page 2 is listed more than once; kept the first",
        "page 9 is out of range (1..7); dropped",
        "section 'Empty' has no pages; dropped",
        "page 3 not covered by the structure; put under Uncategorized",
        "pages 6-7 not covered by the structure; put under Uncategorized",
    ]
    assert render_tree(tree) == (
        "Deck [1]\n  Intro [1]\n    Cover [1]\n    Agenda [2]\n  Uncategorized [3]\n    Page 3 [3]\n"
        "  Results [4]\n    Results (1 of 2) [4]\n    Results (2 of 2) [5]\n"
        "  Uncategorized [6]\n    Page 6 [6]\n    Page 7 [7]"
    )


def test_deck_pages_before_any_section_and_zero_page():
    tree = build_tree("- Page 1 : Cover\n# Body\n- Page 2 : Text\n- Page 0 : nope", kind="deck",
                      pages=2, doc_title="D")
    assert render_tree(tree) == "D [1]\n  Cover [1]\n  Body [2]\n    Text [2]"
    assert tree.warnings == ["page 0 is out of range (1..2); dropped"]


def test_deck_roundtrip_from_grouping():
    titles = ["Intro", None, "Results (1 of 2)", "Results (2 of 2)"]
    tree = build_tree(deck_structure(group_sections(titles), titles), kind="deck", pages=4, doc_title="D")
    assert render_tree(tree) == (
        "D [1]\n  Intro [1]\n    Intro [1]\n    Intro [2]\n"
        "  Results [3]\n    Results (1 of 2) [3]\n    Results (2 of 2) [4]"
    )
    assert tree.warnings == []


def check_invariants(tree, pages, *, sorted_children=True):
    assert tree_pages(tree) == set(range(1, pages + 1))
    for node in tree.root.walk():
        assert 1 <= node.start_page <= node.end_page <= max(1, pages)
        for child in node.children:
            assert node.start_page <= child.start_page <= child.end_page <= node.end_page
    starts = [c.start_page for c in tree.root.children]
    assert starts == sorted(starts) or not sorted_children


def random_report(rng):
    blocks = []
    for _ in range(rng.randint(1, 10)):
        lines = []
        for _ in range(rng.randint(0, 6)):
            roll = rng.random()
            if roll < 0.3:
                lines.append("#" * rng.randint(1, 4) + f" H{rng.randint(0, 99)}")
            elif roll < 0.4:
                lines += ["```", "# fenced", "```"]
            elif roll < 0.55:
                lines.append("")
            else:
                lines.append("text")
        blocks.append("\n".join(lines))
    return join_pages(blocks), len(blocks)


@pytest.mark.parametrize("seed", range(300))
def test_random_report_layouts_cover_every_page(seed):
    rng = random.Random(seed)
    markdown, pages = random_report(rng)
    with_root = create_report_toc(markdown, "doc")
    raw = "\n".join(f"{'#' * h.level} {h.title} [line {h.line}]" for h in iter_headings(markdown))
    for structure in (with_root, raw):
        # (a title other than the root entry's "doc": a lone top heading named like the root is merged into it)
        tree = build_tree(structure, kind="report", pages=pages, doc_title="A random report", markdown=markdown)
        check_invariants(tree, pages)
        numbers = [n.number for n in tree.root.walk() if n.kind == "heading"]
        lines = [h.line for h in iter_headings(markdown)]
        assert numbers == (lines if structure == raw else [0] + lines)


@pytest.mark.parametrize("seed", range(300))
def test_random_deck_structures_list_every_page_once(seed):
    rng = random.Random(seed)
    pages = rng.randint(0, 12)
    lines = []
    for _ in range(rng.randint(0, 5)):
        if rng.random() < 0.8:
            lines.append(f"# S{rng.randint(0, 9)}")
        lines += [f"- Page {rng.randint(-1, pages + 2)} : t" for _ in range(rng.randint(0, 5))]
    tree = build_tree("\n".join(lines), kind="deck", pages=pages, doc_title="Deck")
    page_nodes = sorted(n.number for n in tree.root.walk() if n.kind == "page")
    assert page_nodes == list(range(1, pages + 1))
    if pages:
        check_invariants(tree, pages, sorted_children=False)  # decks keep the listed section order
    else:
        assert tree.root.children == []


# --- sources: tagged structure lines, the root's source, records written before nodes had one

SOURCED = (
    "# Report [line 0]\n## Methods [line 6] [outline]\n## Results [line 16] [outline]\n### Detail [line 21]\n"
    "## Annex [line 26] [contents]"
)


def test_tagged_lines_give_their_nodes_a_source_and_untagged_ones_the_default():
    tree = build_tree(SOURCED, kind="report", pages=5, doc_title="R", markdown=REPORT, source="llm")
    assert [(n.title, n.source) for n in tree.root.walk()] == [
        ("R", "outline"), ("Report", "llm"), ("Methods", "outline"), ("Results", "outline"), ("Detail", "llm"),
        ("Annex", "contents"),
    ]
    assert spans(tree) == spans(build_tree(REPORT_STRUCTURE, kind="report", pages=5, doc_title="R",
                                           markdown=REPORT))


def test_an_untagged_structure_is_the_layout_s_and_uncategorized_pages_take_the_root_s_source():
    tree = build_tree("## Results [line 16]", kind="report", pages=5, doc_title="R", markdown=REPORT)
    assert {n.source for n in tree.root.walk()} == {"layout"}
    tree = build_tree("## Results [line 16] [contents]", kind="report", pages=5, doc_title="R", markdown=REPORT)
    assert [(n.title, n.source) for n in tree.root.walk()] == [
        ("R", "contents"), ("Uncategorized", "contents"), ("Results", "contents")]


def test_deck_nodes_take_the_given_source():
    structure = "# Intro\n- Page 1 : Welcome\n- Page 2 : Agenda"
    tree = build_tree(structure, kind="deck", pages=3, doc_title="D", source="llm")
    assert {n.source for n in tree.root.walk()} == {"llm"}


def test_a_record_tree_without_sources_still_loads():
    from engine.schemas.tree import DocTree

    tree = build_tree(REPORT_STRUCTURE, kind="report", pages=5, doc_title="R", markdown=REPORT)
    old = tree.model_dump(mode="json")
    for node in [old["root"], *old["root"]["children"]]:
        node.pop("source")
    loaded = DocTree.model_validate(old)
    assert loaded.root.source == "layout" and loaded == tree


def test_a_decks_subsections_nest_under_its_sections_and_keep_the_outline_as_source():
    structure = ("# Talk\n- Page 1 : Talk\n# Introduction [outline]\n## Why it matters [outline]\n"
                 "- Page 2 : Motivation\n- Page 3 : Motivation\n## The model [outline]\n- Page 4 : Model\n"
                 "# Results [outline]\n- Page 5 : Results")
    tree = build_tree(structure, kind="deck", pages=5, doc_title="Talk")
    intro = tree.root.children[1]
    assert (intro.title, intro.start_page, intro.end_page, intro.source) == ("Introduction", 2, 4, "outline")
    assert [(c.title, c.kind, c.level) for c in intro.children] == [("Why it matters", "section", 2),
                                                                    ("The model", "section", 2)]
    assert [(p.number, p.level) for p in intro.children[0].children] == [(2, 3), (3, 3)]
    assert tree.root.children[0].source == "layout" and tree.root.source == "outline"
    assert tree_pages(tree) == {1, 2, 3, 4, 5} and not tree.warnings
