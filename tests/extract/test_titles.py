"""Titles compared across sources: numbering labels set apart, how a line holds a title, run-in cuts."""

from engine.extract.titles import (
    Title, label_only, line_match, prefix_end, read_line, read_title, respaced, similar, split_label, words_of,
)


def test_labels_are_set_apart_and_keyed_by_their_number():
    assert split_label("4.1.2 Tokens") == ("4 1 2", "Tokens")
    assert split_label("Chapter 4 Usage") == ("4", "Usage")
    assert split_label("Appendix B. Glossary") == ("b", "Glossary")
    assert split_label("IV. DISCUSSION") == ("iv", "DISCUSSION")
    assert split_label("(b) Remote access") == ("b", "Remote access")
    assert split_label("A Study in Estimation") == ("", "A Study in Estimation")  # an article, not a label
    assert split_label("Chapter 4") == ("", "Chapter 4")  # nothing would be left


def test_read_title_normalises_words():
    assert read_title("## **2.1 Data-Augmentation:** ﬁrst") == Title("2 1", ("data", "augmentation", "first"))
    assert words_of("3.5 Technologies") == ("3", "5", "technologies")


def test_a_line_number_before_the_label_is_a_second_reading():
    first, second = read_line("85 3.3.2 Existing Infrastructure")
    assert first.label == "85"
    assert second == Title("3 3 2", ("existing", "infrastructure"))
    assert len(read_line("3.3.2 Existing Infrastructure")) == 1


def test_label_only_lines():
    assert label_only("Chapter 4") == "4"
    assert label_only("Anhang B") == "b"
    assert label_only("12.") == "12"
    assert label_only("Chapter 4 Usage") is None


def test_line_match_kinds():
    title = read_title("Security Requirements")
    assert line_match(title, read_title("3.1 Security Requirements"), heading=True) == "exact"
    assert line_match(title, read_title("Security Requirement"), heading=False) == "fuzzy"
    assert line_match(title, read_title("Security Requirements: every system shall"), heading=False) == "prefix"
    assert line_match(title, read_title("Security"), heading=False) == "wrapped"
    assert line_match(title, read_title("Privacy Requirements"), heading=True) is None
    # a one-word title opens a plain line only when the layout called that line a heading
    assert line_match(read_title("Results"), read_title("Results show that"), heading=False) is None
    assert line_match(read_title("Results"), read_title("Results show that"), heading=True) == "prefix"


def test_prefix_end_cuts_after_the_run_in_title():
    line = "1) Accuracy- and Precision-based Robustness: In the literature"
    end = prefix_end(line, read_title("Accuracy- and Precision-based Robustness:"))
    assert line[:end] == "1) Accuracy- and Precision-based Robustness:"
    assert prefix_end("Noise Models: We add noise", read_title("Noise Models")) == len("Noise Models:")
    # a one-word title must be closed by punctuation or numbered, else it is the start of a sentence
    assert prefix_end("Results show that", read_title("Results")) is None
    assert prefix_end("Results. We show", read_title("Results")) == len("Results.")


def test_similar_is_symmetric_and_length_guarded():
    assert similar("security requirements", "security requirement")
    assert similar("security requirement", "security requirements")
    assert not similar("scope", "scope of the document and its audience")


def test_titles_that_differ_in_a_number_are_not_near_matches():
    assert line_match(read_title("TABLE MMC-2"), read_title("TABLE MMC-6B"), heading=True) is None
    assert line_match(read_title("Phase 2 results"), read_title("Phase 3 results"), heading=True) is None
    assert line_match(read_title("Phase 2 result"), read_title("Phase 2 results"), heading=True) == "fuzzy"


def test_a_label_glued_to_its_title_is_set_apart():
    # word processors write outline entries without the tab between number and title ("1.1Sample Production")
    assert split_label("1.1Sample Production") == ("1 1", "Sample Production")
    assert split_label("2.4.5LL(1) Conflicts") == ("2 4 5", "LL(1) Conflicts")
    assert split_label("1.Overview") == ("1", "Overview")
    assert split_label("3.5mm Jack") == ("", "3.5mm Jack")  # a measure, not a label
    assert split_label("3D Printing") == ("", "3D Printing")


def test_a_number_and_a_colon_is_a_label():
    assert split_label("3: TYPES") == ("3", "TYPES")
    assert split_label("10:30 Coffee break") == ("", "10:30 Coffee break")  # a time of day is no label


def test_a_line_of_the_same_letters_spaced_otherwise_holds_the_title():
    title = read_title("3: TYPES")
    assert line_match(title, read_line("T Y PE S")[0], heading=True) == "spaced"
    assert line_match(read_title("Designing Interfaces"), read_line("DE S IG N ING IN T E R FACE S")[0],
                      heading=False) == "spaced"
    assert line_match(title, read_line("T Y PE D")[0], heading=True) is None  # other letters


def test_a_letter_spaced_line_is_spaced_as_its_title():
    assert respaced("T Y PE S", "3: TYPES") == "TYPES"
    assert respaced("3 T Y PE S", "3: Types") == "3 TYPES"  # its own case and its number kept
    assert respaced("85 3.3.2 T Y PE S", "3.3.2 Types") == "85 3.3.2 TYPES"  # a line number before it stays
    assert respaced("F E E DBACK W E L COME !", "Feedback welcome!") == "FEEDBACK WELCOME !"
    assert respaced("AB C", "Something else") == "AB C"  # not the title's letters: unchanged
