"""Page labels as the PDF defines them, its strings decoded (engine.pdf.inspect_pdf)."""

from __future__ import annotations

import pymupdf

from engine.pdf import inspect_pdf, pdf_text


def test_page_labels_written_as_hex_strings_are_decoded(tmp_path):
    # LaTeX's hyperref writes each label's prefix as a UTF-16 string in hex (/P <FEFF0031>), which PyMuPDF returns as
    # written: the inspector showed "<FEFF0031>" and the contents reader could not map "10" to its page
    path = tmp_path / "talk.pdf"
    doc = pymupdf.open()
    for _ in range(3):
        doc.new_page()
    doc.xref_set_key(doc.pdf_catalog(), "PageLabels",
                     "<</Nums[0<</P<FEFF0031>>>1<</P<FEFF00310030>>>2<</S/r>>]>>")
    doc.save(path)
    assert inspect_pdf(path).page_labels == ["1", "10", "i"]
    assert pdf_text("A-<4142>") == "A-AB" and pdf_text("<x>") == "<x>" and pdf_text("iv") == "iv"
