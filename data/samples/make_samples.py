"""Generate the sample PDFs in data/samples/ together with their exact ground truth.

Run from anywhere:  python data/samples/make_samples.py

Writes, next to this script:
  pdfrag-field-guide.pdf   portrait A4 report (title page, contents, three heading levels,
                           running header/footer, lists, a hyphenated line break, a two-column
                           page and one raster figure)
  pdfrag-product-deck.pdf  16:9 slide deck (960 x 540 pt)
  ground_truth.json        what was generated, recorded while rendering (never hand-typed)

The output is deterministic: fixed creation dates, no randomness, the figure is drawn
procedurally. Only fpdf2 (and Pillow, which fpdf2 depends on) is needed. Text uses the core
PDF fonts (Helvetica, Times) with the windows-1252 encoding, so the bullet character works
without embedding a font. All prose is original sample text; every organisation, person and
product named in it is fictional.
"""

from __future__ import annotations

import io
import json
import math
from datetime import datetime, timezone
from pathlib import Path

from fpdf import FPDF
from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent

BULLET = "\u2022"  # in windows-1252 (0x95), so core fonts can draw it
GRAY = (90, 90, 90)
DARK = (20, 20, 20)

# ---------------------------------------------------------------------------------------------
# Field guide: content
# ---------------------------------------------------------------------------------------------

GUIDE_FILE = "pdfrag-field-guide.pdf"
GUIDE_TITLE = "River Survey Methods"
GUIDE_SUBTITLE = "A field guide to measuring and recording small rivers and streams"
GUIDE_AUTHOR = "Prepared by the pdfrag Documentation Team"
GUIDE_META_AUTHOR = "pdfrag Documentation Team"
GUIDE_DATE_LINE = "March 2025"
GUIDE_HEADER = "pdfrag Field Guide - River Survey Methods"
GUIDE_CREATED = datetime(2025, 3, 14, 9, 30, 0, tzinfo=timezone.utc)

CONTENTS_PAGE = 2  # physical page of the contents
BODY_START = 3  # first body page; printed page numbers start at 1 here
PAGE_OFFSET = BODY_START - 1  # printed page = physical page - PAGE_OFFSET

# Block kinds: ("h1"|"h2"|"h3", text), ("p", text), ("bullets", [..]), ("numbers", [..]),
# ("figure", caption), ("newpage",), ("twocol", [left blocks], [right blocks]).
# A "~" inside a word marks the one place where the word may be hyphenated at a line end.

GUIDE_BODY: list[tuple] = [
    ("h1", "1 Introduction"),
    ("p", "Rivers change from week to week, and the people responsible for them rarely have "
          "the time to watch every reach. A survey is a way of turning a short visit into a "
          "record that someone else can trust later: a set of measurements, notes and "
          "photographs taken in a known way, at a known place, on a known day. This guide "
          "describes a practical method for surveying small rivers and streams, the kind of "
          "water that can be waded on a normal summer day by a crew of two or three people."),
    ("p", "Nothing in these pages requires specialist equipment or a laboratory. The methods "
          "were chosen because they are simple enough to be repeated by different crews in "
          "different years and still give comparable results. Where a more precise technique "
          "exists, we say so, but the emphasis throughout is on consistency rather than on "
          "the highest possible accuracy at a single site."),
    ("h2", "1.1 Why survey small rivers"),
    ("p", "Small rivers make up most of the length of any river network, yet they are the "
          "least measured part of it. Gauging stations tend to sit on the larger channels, "
          "where flows are easier to model and the results matter to more people downstream. "
          "Headwater streams are left to occasional walkovers, and their condition is often "
          "described from memory rather than from data."),
    ("p", "A simple, repeatable survey closes part of that gap. It tells a catchment group "
          "whether a restoration project has changed the shape of the channel, whether fine "
          "sediment is building up behind a new culvert, or whether a spring that used to run "
          "all year now dries out in August. None of these questions needs a research "
          "programme. Each needs a handful of well-kept records taken at the same places over "
          "several seasons."),
    ("h2", "1.2 Who this guide is for"),
    ("p", "The guide is written for volunteers, students and staff who are new to field work "
          "and for coordinators who need to train them. It assumes that readers can use a "
          "tape measure, a notebook and a phone camera, and that they are comfortable walking "
          "on uneven ground. It does not assume any background in hydrology. Technical terms "
          "are explained where they first appear, and the final chapter explains how records "
          "should be checked and stored so that they remain useful after the original crew "
          "has moved on."),
    ("p", "Experienced surveyors may still find the planning and safety chapters worth a "
          "quick read. Most problems in field work come not from the measurements themselves "
          "but from the decisions made before anyone reaches the water."),
    ("h2", "1.3 How to use this guide"),
    ("p", "Each chapter follows the order of a real survey. Chapter 2 covers planning, "
          "Chapter 3 covers safety and the logistics of a field day, Chapter 4 describes the "
          "measurements, and Chapter 5 deals with recording, checking and archiving the "
          "results. Checklists are printed as bulleted lists so that they can be copied onto "
          "a field card. Procedures that must be carried out in a fixed order are numbered."),
    ("p", "Read the whole guide once before your first survey. After that, the contents page "
          "and the checklists should be enough to find what you need on the day."),

    ("h1", "2 Planning a Survey"),
    ("p", "A good survey is mostly decided at a desk. The choice of sites, the timing of the "
          "visits and the list of what will be measured determine whether the data can "
          "answer the question that prompted the work. Planning also protects the crew: a "
          "route that has been checked on a map and discussed with a landowner is safer than "
          "one improvised on the day."),
    ("h2", "2.1 Defining the question"),
    ("p", "Start by writing down, in one or two sentences, what the survey is meant to show. "
          "\"Has the channel below the old weir widened since the weir was lowered?\" is a "
          "useful question because it names a place, a feature and a change. \"What is the "
          "river like?\" is not, because no set of measurements can ever finish answering it."),
    ("p", "The question decides the measurements. A study of channel shape needs careful "
          "cross-sections and fixed reference points. A study of habitat needs substrate and "
          "vegetation notes and may barely need a tape at all. Resist the temptation to "
          "record everything: each extra measurement costs time on the bank, and time on the "
          "bank is the resource that runs out first."),
    ("h2", "2.2 Choosing survey reaches"),
    ("p", "A reach is a length of river that is surveyed as a unit, usually between ten and "
          "twenty times the wetted width of the channel. Reaches should be long enough to "
          "include at least one pool and one riffle, and short enough to be surveyed in a "
          "single visit. Mark the upstream and downstream ends on a map before the first "
          "visit and describe them in words as well, because a map reference alone is hard "
          "to find again under summer vegetation."),
    ("h3", "Access and permissions"),
    ("p", "Almost every river bank belongs to someone. Contact the landowner or tenant well "
          "before the survey, explain what will be done and for how long, and ask about "
          "livestock, locked gates and any areas to avoid. Keep a record of each conversation. "
          "Where the public has a right of access to the water, it is still courteous to "
          "let nearby residents know that a survey crew will be working on the bank."),
    ("h3", "Seasonal timing"),
    ("p", "Flows, vegetation and daylight all change through the year. Summer low flows make "
          "wading easier and expose more of the bed, but dense bankside growth can hide the "
          "channel edges. Winter gives clear banks and high water. For repeat surveys, the "
          "most important rule is to return at the same time of year and, as far as possible, "
          "at a similar flow, so that differences between visits reflect changes in the river "
          "rather than changes in the weather."),
    ("h2", "2.3 Equipment checklist"),
    ("p", "The list below covers a standard two-person survey. Pack it the evening before and "
          "check it again at the vehicle, because a forgotten item is rarely discovered until "
          "the crew has walked to the first site."),
    ("bullets", [
        "Two 30 m fibreglass tapes and four ranging poles or bank pins.",
        "A graduated wading rod, marked in centimetres, and a spare.",
        "A current meter or, for simple surveys, an orange and a stopwatch.",
        "Waterproof field sheets on a clipboard, pencils and a permanent marker.",
        "A phone or camera with a charged spare battery, and a small whiteboard for "
        "photograph labels.",
        "Waders or wellingtons, throw line, first aid kit and a charged mobile phone.",
        "Printed maps of each reach with access points and the emergency meeting point marked.",
    ]),
    ("p", "Check the current meter against its calibration record before the season starts. "
          "A meter that reads ten per cent high will produce data that look perfectly "
          "reasonable and are wrong in every single row."),

    ("h1", "3 Working on the Water: Safety and the Practical Logistics of a Field Day"),
    ("p", "Rivers are pleasant places to work and easy places to be hurt. Most accidents in "
          "field survey are minor slips on wet rock, but cold water, fast flows and remote "
          "sites can turn a small mistake into a serious one. This chapter sets out the "
          "routine that every crew should follow, however familiar the site."),
    ("h2", "3.1 Before leaving the office"),
    ("p", "The following steps must be completed in order before a crew sets out. The field "
          "coordinator signs the plan once the last step is done."),
    ("numbers", [
        "Check the weather forecast and the river level for the survey day and the day before.",
        "Confirm access with the landowner and note any livestock or locked gates.",
        "Write a field plan listing the sites, the crew, the vehicle and the expected return "
        "time.",
        "Leave the field plan with a named contact who is not part of the crew.",
        "Agree a call-in time and what the contact will do if the call does not come.",
    ]),
    ("p", "A field plan is only useful if someone reads it. The named contact should know the "
          "sites well enough to describe them to the emergency services, and should have a "
          "copy of the map showing where the vehicle will be parked."),
    ("h2", "3.2 On the bank"),
    ("p", "On arrival, walk the reach before entering the water. Look for soft banks, deep "
          "pools, fallen trees and anything caught in the channel that could trap a foot. "
          "Decide together where the crew will enter and leave the water and where the throw "
          "line will be kept. The person on the bank is responsible for watching the person "
          "in the water, not for writing notes while they work."),
    ("h3", "Wading limits"),
    ("p", "A useful rule is that nobody wades where the depth in metres multiplied by the "
          "velocity in metres per second is greater than one. In practice this means that "
          "knee-deep water is safe only when it is slow, and that fast water should be "
          "avoided even when it is shallow. Always face upstream, move one foot at a time and "
          "use the wading rod as a third point of contact."),
    ("h3", "Staying in contact"),
    ("p", "Mobile coverage along rivers is often poor, because valleys block the signal. Test "
          "the phones at the vehicle and again at the first site. Where there is no signal, "
          "agree a fixed time at which one person will walk to a known point with coverage "
          "and call in. Never split the crew so that one person is alone in the water."),
    ("h2", "3.3 Weather and changing flows"),
    ("p", "Rain many kilometres upstream can raise the level of a small river within an hour, "
          "even when the sky over the survey site is clear. Set a visible marker at the water "
          "edge when you arrive, such as a pin pushed into the bank, and look at it regularly. "
          "If the water rises noticeably or becomes cloudy, stop work and leave the channel. "
          "An unfinished survey can be repeated next week; the day is never worth the risk."),
    ("p", "Cold is the other common hazard. Even in summer, standing in moving water for an "
          "hour will chill most people. Plan short spells in the water, swap roles between the "
          "bank and the channel, and carry a warm drink and a dry layer for each person."),

    ("h1", "4 Measuring the Channel"),
    ("p", "The core of the survey is a small number of cross-sections, each measured in the "
          "same way every visit. A cross-section is a line across the channel, at right angles "
          "to the flow, along which the depth of water and the height of the bed are recorded "
          "at regular intervals. Together, a few cross-sections describe the shape of the "
          "reach and allow the flow to be estimated."),
    ("h2", "4.1 Setting out a cross-section"),
    ("p", "Choose a straight, even stretch where the water flows smoothly and the banks are "
          "well defined. Drive a bank pin into firm ground on each side, well above the normal "
          "water level, and record their positions with a photograph and a sketch. These pins "
          "are the reference points for every future visit, so they must be permanent and "
          "easy to find. Stretch the tape tight between them and read every distance from the "
          "left bank pin, looking downstream."),
    ("figure", "Figure 1: Example cross-section with the water surface, the bed profile and "
               "the measurement verticals used in Chapter 4."),
    ("p", "Figure 1 shows a typical result. The bed profile is drawn from the depth readings, "
          "and the dashed lines mark the verticals at which depth and velocity were measured. "
          "Note that the verticals are closer together where the bed changes quickly."),
    ("h2", "4.2 Depth and velocity"),
    ("p", "At each vertical, the wading rod is placed on the bed and the depth read at the "
          "water surface. The velocity is then measured at a fixed fraction of the depth. The "
          "flow through the section is found by multiplying, for each panel between two "
          "verticals, the mean depth by the width and the mean velocity, and adding the "
          "panels together. The method is simple, but it depends on careful placement of the "
          "verticals and on a steady hand on the rod."),
    ("h3", "Choosing verticals"),
    ("p", "Use at least fifteen verticals across the channel, and more where the bed is "
          "uneven. No panel should carry more than about a tenth of the total flow. In a "
          "narrow stream this may mean readings every twenty centimetres. Crews often space "
          "the verticals evenly across the tape, which is quick, but the best measure~ments "
          "come from placing extra verticals near the deepest and fastest part of the "
          "channel, where most of the water passes. Record the distance, depth and velocity "
          "for every vertical, even where the velocity is zero at the edge."),
    ("h3", "The six-tenths method"),
    ("p", "In water shallower than about three quarters of a metre, a single velocity reading "
          "taken at six tenths of the depth below the surface gives a good estimate of the "
          "mean velocity in that vertical. Set the meter at that height on the rod, face it "
          "into the flow and hold it still for at least thirty seconds. In deeper water, take "
          "two readings at two tenths and eight tenths of the depth and use their average."),
    ("h2", "4.3 Substrate and habitat notes"),
    ("p", "Measurements of shape and flow are more useful when they are accompanied by a short "
          "description of the bed and banks. For each cross-section, record:"),
    ("bullets", [
        "the dominant bed material: silt, sand, gravel, cobble, boulder or bedrock;",
        "whether the bed is firm or loose underfoot, and any sign of fine sediment;",
        "bank material and height, and whether the banks are vegetated or eroding;",
        "shading by trees, as a rough percentage of the channel width;",
        "anything unusual, such as outfalls, debris dams or recent works.",
    ]),
    ("p", "Keep the descriptions short and use the same words every time. A fixed vocabulary "
          "makes it possible to compare notes written by different people years apart."),

    ("h1", "5 Recording and Checking Data"),
    ("p", "A survey is only as good as its records. Readings that are written down carelessly, "
          "copied twice or stored in a single place are easily lost or corrupted. This "
          "chapter describes how to record data in the field, how to check it on the same day "
          "and how to archive it so that it can be found and understood later."),
    ("h2", "5.1 Paper or tablet?"),
    ("p", "Both paper sheets and digital forms work well when they are used consistently. The "
          "two approaches fail in different ways, and the choice usually depends on the crew "
          "and on the conditions at the site. The comparison below summarises our experience."),
    ("twocol",
     [
         ("h3", "Paper field sheets"),
         ("p", "Paper is cheap, does not need charging and works in any weather if the "
               "sheets are waterproof. A printed sheet also acts as a checklist: an empty box "
               "is an obvious reminder that a reading is missing. Crews new to survey work "
               "often find paper easier, because they can see the whole cross-section at "
               "once and sketch the site in the margin."),
         ("p", "The weakness of paper is the transcription step. Every sheet must be typed "
               "into a spreadsheet after the visit, and every copy is a chance to make an "
               "error. Sheets can also be lost or damaged before they are copied. For this "
               "reason, photograph each completed sheet before leaving the site, so that a "
               "copy exists even if the original is ruined on the way home."),
         ("p", "Use pencil rather than ink, cross out mistakes with a single line so that "
               "the original value can still be read, and never rub anything out."),
     ],
     [
         ("h3", "Tablets and phones"),
         ("p", "A digital form removes the transcription step and can check each value as "
               "it is entered, warning the crew when a depth is larger than the rod or when "
               "a velocity is negative. Photographs and positions can be attached directly "
               "to the record, and the data can be sent to the office the same evening."),
         ("p", "Screens are hard to read in bright sun and hard to use with wet or cold "
               "hands. Batteries fail, and a dropped device may take the whole day's work "
               "with it. Crews using tablets should carry a battery pack and a few blank "
               "paper sheets as a fallback, and should export or synchronise the records "
               "at every break rather than at the end of the day."),
         ("p", "Whatever the device, keep the order and the names of the fields identical "
               "to the paper sheet, so that the two can be used side by side."),
     ]),
    ("h2", "5.2 Checks on the same day"),
    ("p", "Check the records before the crew leaves the last site, while the river is still "
          "in front of them. A missing depth can be measured again in two minutes on the "
          "bank; the same gap discovered a week later may mean a second visit. Go through "
          "each sheet or form and confirm that the site name, date, crew and start time are "
          "present, that every vertical has a distance, a depth and a velocity, and that the "
          "distances increase steadily across the tape."),
    ("bullets", [
        "Depths should rise and fall smoothly; a single value far from its neighbours is "
        "usually a misread rod.",
        "The two bank pins should be the same distance apart as on the previous visit.",
        "Velocities close to the banks should be smaller than those in the middle of the "
        "channel.",
        "Every photograph should show the label board with the site name and date.",
    ]),
    ("h2", "5.3 Archiving and sharing"),
    ("p", "Within a week of the survey, copy the cleaned data into the shared archive, along "
          "with scans or photographs of the original sheets, the site photographs and a short "
          "note describing anything unusual about the visit. Use the same file names and the "
          "same folder structure every year. A simple convention, such as the site code "
          "followed by the date, is enough."),
    ("p", "Finally, write down the method. A future reader needs to know which meter was "
          "used, how the verticals were chosen and who did the work. A dataset without this "
          "context cannot be compared with the next survey, and the effort of collecting it "
          "is largely wasted. A dataset with it becomes part of the long record of the river, "
          "which is the real purpose of the work described in this guide."),
]

# ---------------------------------------------------------------------------------------------
# Field guide: layout
# ---------------------------------------------------------------------------------------------

# Heading and body styles (family, style, size, line height). Consistent everywhere.
STYLES = {
    "title": ("Helvetica", "B", 30.0, 36.0),
    "subtitle": ("Helvetica", "", 15.0, 20.0),
    "h1": ("Helvetica", "B", 20.0, 25.0),
    "h2": ("Helvetica", "B", 14.0, 18.0),
    "h3": ("Helvetica", "BI", 11.5, 15.0),
    "body": ("Times", "", 10.5, 14.5),
    "caption": ("Helvetica", "I", 9.0, 12.0),
    "toc1": ("Helvetica", "B", 11.0, 17.0),
    "toc2": ("Times", "", 10.5, 15.0),
    "header": ("Helvetica", "I", 8.5, 10.0),
    "footer": ("Helvetica", "", 9.0, 10.0),
}
SPACE_BEFORE = {"h1": 0.0, "h2": 12.0, "h3": 8.0}
SPACE_AFTER = {"h1": 14.0, "h2": 6.0, "h3": 4.0}
PARA_GAP = 7.0
MARGIN_X = 72.0
MARGIN_TOP = 80.0
CONTENT_BOTTOM = 770.0  # nothing of the body below this y (pt, from the top)
FIGURE_PX = (640, 360)
FIGURE_WIDTH_PT = 320.0


def figure_png() -> bytes:
    """A deterministic cross-section diagram: bank, bed profile, water, verticals and a grid."""
    w, h = FIGURE_PX
    img = Image.new("RGB", (w, h), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    for gx in range(40, w, 40):
        draw.line([(gx, 20), (gx, h - 20)], fill=(232, 232, 232), width=1)
    for gy in range(20, h, 40):
        draw.line([(20, gy), (w - 20, gy)], fill=(232, 232, 232), width=1)
    left, right, water_y = 70, w - 70, 120

    def bed(x: float) -> float:  # depth profile: asymmetric trough with a thalweg left of centre
        t = (x - left) / (right - left)
        trough = 170 * math.sin(math.pi * t) ** 1.6 * (1.0 - 0.35 * t)
        return water_y + trough + 12 * math.sin(9 * t)

    profile = [(x, bed(x)) for x in range(left, right + 1, 4)]
    water = [(left, water_y)] + [(x, y) for x, y in profile if y >= water_y] + [(right, water_y)]
    draw.polygon(water, fill=(170, 205, 235))
    ground = [(20, 80), (left - 20, 80)] + profile + [(right + 20, 80), (w - 20, 80),
                                                        (w - 20, h - 20), (20, h - 20)]
    draw.polygon(ground, fill=(196, 170, 128))
    draw.line(profile, fill=(110, 80, 40), width=3)
    draw.line([(left, water_y), (right, water_y)], fill=(30, 90, 160), width=3)
    for vx in list(range(left + 30, right, 30)):
        y1 = bed(vx)
        for y in range(water_y, int(y1), 8):
            draw.line([(vx, y), (vx, min(y + 4, y1))], fill=(40, 40, 40), width=1)
        draw.ellipse([(vx - 3, y1 - 3), (vx + 3, y1 + 3)], fill=(200, 40, 40))
    for px in (left - 25, right + 25):  # bank pins
        draw.rectangle([(px - 3, 50), (px + 3, 82)], fill=(60, 60, 60))
    draw.rectangle([(0, 0), (w - 1, h - 1)], outline=(120, 120, 120), width=2)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False)
    return buf.getvalue()


class GuidePDF(FPDF):
    def header(self) -> None:
        if self.page < BODY_START:
            return
        family, style, size, _ = STYLES["header"]
        self.set_font(family, style, size)
        self.set_text_color(*GRAY)
        self.set_xy(MARGIN_X, 40)
        self.cell(self.w - 2 * MARGIN_X, 10, GUIDE_HEADER, align="L")
        self.set_draw_color(170, 170, 170)
        self.set_line_width(0.5)
        self.line(MARGIN_X, 54, self.w - MARGIN_X, 54)
        self.set_text_color(*DARK)
        self.set_y(MARGIN_TOP)

    def footer(self) -> None:
        if self.page < BODY_START:
            return
        family, style, size, _ = STYLES["footer"]
        self.set_font(family, style, size)
        self.set_text_color(*GRAY)
        self.set_xy(MARGIN_X, 800)
        self.cell(self.w - 2 * MARGIN_X, 10, f"Page {self.page - PAGE_OFFSET}", align="C")
        self.set_text_color(*DARK)


class GuideRenderer:
    """Renders GUIDE_BODY and records every heading, image and special feature as it goes."""

    def __init__(self, contents: list[dict] | None):
        self.contents = contents
        pdf = GuidePDF(orientation="P", unit="pt", format="A4")
        pdf.core_fonts_encoding = "windows-1252"
        pdf.set_auto_page_break(False)
        pdf.set_margins(MARGIN_X, MARGIN_TOP, MARGIN_X)
        pdf.set_title(f"{GUIDE_TITLE}: A Field Guide")
        pdf.set_author(GUIDE_META_AUTHOR)
        pdf.set_subject("Field methods for surveying small rivers and streams (pdfrag sample "
                        "document)")
        pdf.set_keywords("river survey, cross-section, velocity, field safety, data recording, "
                         "pdfrag sample")
        pdf.set_creator("pdfrag data/samples/make_samples.py")
        pdf.set_creation_date(GUIDE_CREATED)
        pdf.set_lang("en")
        self.pdf = pdf
        self.width = pdf.w - 2 * MARGIN_X
        self.headings: list[dict] = []
        self.images: list[dict] = []
        self.hyphenations: list[dict] = []
        self.two_column_pages: list[int] = []

    # -- primitives --------------------------------------------------------------------------

    def font(self, key: str) -> float:
        family, style, size, line_h = STYLES[key]
        self.pdf.set_font(family, style, size)
        return line_h

    def wrap(self, text: str, width: float, key: str) -> tuple[list[str], list[tuple[int, str]]]:
        """Greedy line breaking; a "~" marks an allowed hyphenation point inside a word.

        Returns the lines and (line index, word) for each word hyphenated across a line end.
        """
        self.font(key)
        fits = lambda s: self.pdf.get_string_width(s) <= width  # noqa: E731
        lines: list[str] = []
        hyphenated: list[tuple[int, str]] = []
        current = ""
        for word in text.split():
            shown = word.replace("~", "")
            candidate = f"{current} {shown}" if current else shown
            if fits(candidate):
                current = candidate
                continue
            if "~" in word and current:
                head, tail = word.split("~", 1)
                if fits(f"{current} {head}-"):
                    hyphenated.append((len(lines), shown))
                    lines.append(f"{current} {head}-")
                    current = tail.replace("~", "")
                    continue
            if current:
                lines.append(current)
            current = shown
        if current:
            lines.append(current)
        return lines, hyphenated

    def remaining(self) -> float:
        return CONTENT_BOTTOM - self.pdf.get_y()

    def new_page(self) -> None:
        self.pdf.add_page()
        self.pdf.set_y(MARGIN_TOP)

    def write_lines(self, lines: list[str], x: float, width: float, key: str,
                    allow_break: bool = True) -> None:
        line_h = self.font(key)
        for line in lines:
            if self.pdf.get_y() + line_h > CONTENT_BOTTOM:
                if not allow_break:
                    raise RuntimeError(f"text overflows a fixed area on page {self.pdf.page}")
                self.new_page()
                self.font(key)
            self.pdf.set_x(x)
            self.pdf.cell(width, line_h, line, align="L", new_x="LMARGIN", new_y="NEXT")

    # -- blocks ------------------------------------------------------------------------------

    def heading(self, level: int, text: str, x: float = MARGIN_X, width: float | None = None,
                allow_break: bool = True) -> None:
        key = f"h{level}"
        width = width or self.width
        lines, _ = self.wrap(text, width, key)
        line_h = self.font(key)
        body_h = STYLES["body"][3]
        if level == 1:
            if self.pdf.get_y() > MARGIN_TOP + 1:
                self.new_page()
        else:
            if self.pdf.get_y() > MARGIN_TOP + 1:
                self.pdf.set_y(self.pdf.get_y() + SPACE_BEFORE[key])
            need = len(lines) * line_h + SPACE_AFTER[key] + 4 * body_h  # keep with next
            if self.remaining() < need:
                if not allow_break:
                    raise RuntimeError(f"heading {text!r} does not fit its fixed area")
                self.new_page()
        self.headings.append({"title": text, "level": level, "page": self.pdf.page})
        self.write_lines(lines, x, width, key, allow_break=False)
        self.pdf.set_y(self.pdf.get_y() + SPACE_AFTER[key])

    def paragraph(self, text: str, x: float = MARGIN_X, width: float | None = None,
                  allow_break: bool = True) -> None:
        width = width or self.width
        lines, hyphenated = self.wrap(text, width, "body")
        split_at = dict(hyphenated)
        line_h = self.font("body")
        for index, line in enumerate(lines):
            if self.pdf.get_y() + line_h > CONTENT_BOTTOM:
                if not allow_break:
                    raise RuntimeError(f"paragraph overflows a fixed area on page {self.pdf.page}")
                self.new_page()
            if index in split_at:
                # the continuation must stay on the same page, or the break is not a line break
                if self.pdf.get_y() + 2 * line_h > CONTENT_BOTTOM:
                    raise RuntimeError("hyphenated word would straddle a page break")
                self.hyphenations.append({"word": split_at[index], "page": self.pdf.page})
            self.write_lines([line], x, width, "body", allow_break=allow_break)
        self.pdf.set_y(self.pdf.get_y() + PARA_GAP)

    def item_list(self, items: list[str], numbered: bool) -> None:
        indent = 20.0 if numbered else 16.0
        text_w = self.width - indent - 6
        line_h = STYLES["body"][3]
        for number, item in enumerate(items, start=1):
            lines, _ = self.wrap(item, text_w, "body")
            if self.remaining() < min(len(lines), 2) * line_h:
                self.new_page()
            self.font("body")
            self.pdf.set_xy(MARGIN_X + 6, self.pdf.get_y())
            marker = f"{number}." if numbered else BULLET
            self.pdf.cell(indent, line_h, marker, align="L")
            self.pdf.set_x(MARGIN_X + 6 + indent)
            self.write_lines(lines, MARGIN_X + 6 + indent, text_w, "body")
            self.pdf.set_y(self.pdf.get_y() + 2.5)
        self.pdf.set_y(self.pdf.get_y() + PARA_GAP - 2.5)

    def figure(self, caption: str) -> None:
        png = figure_png()
        w_px, h_px = FIGURE_PX
        h_pt = FIGURE_WIDTH_PT * h_px / w_px
        cap_lines, _ = self.wrap(caption, self.width - 60, "caption")
        need = h_pt + 8 + len(cap_lines) * STYLES["caption"][3] + 12
        if self.remaining() < need:
            self.new_page()
        y = self.pdf.get_y() + 4
        self.pdf.image(io.BytesIO(png), x=(self.pdf.w - FIGURE_WIDTH_PT) / 2, y=y,
                       w=FIGURE_WIDTH_PT, h=h_pt)
        self.images.append({"page": self.pdf.page, "width": w_px, "height": h_px})
        self.pdf.set_y(y + h_pt + 8)
        line_h = self.font("caption")
        for line in cap_lines:
            self.pdf.set_x(MARGIN_X + 30)
            self.pdf.cell(self.width - 60, line_h, line, align="C", new_x="LMARGIN",
                          new_y="NEXT")
        self.pdf.set_y(self.pdf.get_y() + 12)

    def two_columns(self, left: list[tuple], right: list[tuple]) -> None:
        gap = 22.0
        col_w = (self.width - gap) / 2
        if self.remaining() < max(self.column_height(left, col_w),
                                  self.column_height(right, col_w)):
            self.new_page()
        top = self.pdf.get_y()
        page = self.pdf.page
        bottoms = []
        for col, blocks in enumerate((left, right)):
            x = MARGIN_X + col * (col_w + gap)
            self.pdf.set_y(top)
            for block in blocks:
                if block[0] == "h3":
                    self.heading(3, block[1], x=x, width=col_w, allow_break=False)
                elif block[0] == "p":
                    self.paragraph(block[1], x=x, width=col_w, allow_break=False)
                else:
                    raise ValueError(block[0])
            bottoms.append(self.pdf.get_y())
        assert self.pdf.page == page
        self.two_column_pages.append(page)
        self.pdf.set_y(max(bottoms))

    def column_height(self, blocks: list[tuple], width: float) -> float:
        height = 0.0
        for kind, text in blocks:
            lines, _ = self.wrap(text, width, "h3" if kind == "h3" else "body")
            if kind == "h3":
                height += SPACE_BEFORE["h3"] + SPACE_AFTER["h3"]
                height += len(lines) * STYLES["h3"][3]
            else:
                height += len(lines) * STYLES["body"][3] + PARA_GAP
        return height

    # -- pages -------------------------------------------------------------------------------

    def title_page(self) -> None:
        pdf = self.pdf
        pdf.add_page()
        pdf.set_fill_color(30, 90, 160)
        pdf.rect(MARGIN_X, 230, 60, 6, style="F")
        pdf.set_y(250)
        line_h = self.font("title")
        pdf.set_x(MARGIN_X)
        pdf.cell(self.width, line_h, GUIDE_TITLE, align="L", new_x="LMARGIN", new_y="NEXT")
        pdf.set_y(pdf.get_y() + 10)
        lines, _ = self.wrap(GUIDE_SUBTITLE, self.width - 60, "subtitle")
        self.font("subtitle")
        pdf.set_text_color(*GRAY)
        self.write_lines(lines, MARGIN_X, self.width - 60, "subtitle", allow_break=False)
        pdf.set_text_color(*DARK)
        pdf.set_y(640)
        pdf.set_font("Helvetica", "", 12)
        pdf.cell(self.width, 18, GUIDE_AUTHOR, align="L", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", "", 11)
        pdf.set_text_color(*GRAY)
        pdf.cell(self.width, 16, GUIDE_DATE_LINE, align="L", new_x="LMARGIN", new_y="NEXT")
        pdf.set_text_color(*DARK)

    def contents_page(self) -> None:
        pdf = self.pdf
        pdf.add_page()
        assert pdf.page == CONTENTS_PAGE
        pdf.set_y(MARGIN_TOP)
        self.heading(1, "Contents")
        for entry in self.contents or []:
            key = "toc1" if entry["level"] == 1 else "toc2"
            indent = 0.0 if entry["level"] == 1 else 18.0
            line_h = self.font(key)
            if entry["level"] == 1 and pdf.get_y() > MARGIN_TOP + 40:
                pdf.set_y(pdf.get_y() + 5)
            number = str(entry["printed_page"])
            title_w = pdf.get_string_width(entry["title"])
            number_w = pdf.get_string_width(number)
            x0 = MARGIN_X + indent
            x_right = MARGIN_X + self.width
            assert x0 + title_w + number_w + 30 < x_right, entry["title"]
            y = pdf.get_y()
            pdf.set_xy(x0, y)
            pdf.cell(title_w, line_h, entry["title"], align="L")
            leader_x0 = x0 + title_w + 6
            leader_x1 = x_right - number_w - 6
            self.pdf.set_font("Times", "", 10.5)
            dot_w = pdf.get_string_width(".")
            dots = "." * int((leader_x1 - leader_x0) / dot_w)
            pdf.set_xy(leader_x1 - pdf.get_string_width(dots), y)
            pdf.set_text_color(*GRAY)
            pdf.cell(pdf.get_string_width(dots), line_h, dots, align="L")
            pdf.set_text_color(*DARK)
            self.font(key)
            pdf.set_xy(x_right - number_w, y)
            pdf.cell(number_w, line_h, number, align="R", new_x="LMARGIN", new_y="NEXT")
        assert pdf.get_y() < CONTENT_BOTTOM and pdf.page == CONTENTS_PAGE, "contents overflow"

    def render(self) -> FPDF:
        self.title_page()
        self.contents_page()
        assert self.pdf.page == BODY_START - 1
        for block in GUIDE_BODY:
            kind = block[0]
            if kind in ("h1", "h2", "h3"):
                self.heading(int(kind[1]), block[1])
            elif kind == "p":
                self.paragraph(block[1])
            elif kind == "bullets":
                self.item_list(block[1], numbered=False)
            elif kind == "numbers":
                self.item_list(block[1], numbered=True)
            elif kind == "figure":
                self.figure(block[1])
            elif kind == "newpage":
                if self.pdf.get_y() > MARGIN_TOP + 1:
                    self.new_page()
            elif kind == "twocol":
                self.two_columns(block[1], block[2])
            else:
                raise ValueError(kind)
        return self.pdf


def build_field_guide() -> dict:
    # Pass 1 lays out the body to learn where each heading lands; pass 2 renders the same body
    # with the contents page filled in. The contents page is one fixed page, so the body layout
    # cannot differ between the passes (asserted below).
    first = GuideRenderer(contents=None)
    first.render()
    contents = [
        {"title": h["title"], "level": h["level"], "printed_page": h["page"] - PAGE_OFFSET,
         "page": h["page"]}
        for h in first.headings
        if h["level"] <= 2 and h["page"] >= BODY_START
    ]
    second = GuideRenderer(contents=contents)
    pdf = second.render()
    assert second.headings == first.headings, "layout differs between passes"
    assert len(second.hyphenations) == 1, second.hyphenations
    assert len(second.two_column_pages) == 1
    assert any(h["level"] == 1 and len(second.wrap(h["title"], second.width, "h1")[0]) > 1
               for h in second.headings), "no multi-line level-1 heading"
    pdf.output(str(HERE / GUIDE_FILE))
    return {
        "pages": pdf.page,
        "format": "portrait",
        "page_size_pt": [round(pdf.w, 2), round(pdf.h, 2)],
        "title": GUIDE_TITLE,
        "author": GUIDE_META_AUTHOR,
        "headings": second.headings,
        "contents_page": CONTENTS_PAGE,
        "contents": contents,
        "body_start_page": BODY_START,
        "printed_page_offset": PAGE_OFFSET,
        "running_header": GUIDE_HEADER,
        "running_footer": "Page {printed_page}",
        "images": second.images,
        "two_column_page": second.two_column_pages[0],
        "hyphenated_word": second.hyphenations[0]["word"],
        "hyphenated_page": second.hyphenations[0]["page"],
    }


# ---------------------------------------------------------------------------------------------
# Product deck
# ---------------------------------------------------------------------------------------------

DECK_FILE = "pdfrag-product-deck.pdf"
DECK_TITLE = "Riverline - Product Overview"
DECK_AUTHOR = "Riverline Product Team (fictional sample)"
DECK_CREATED = datetime(2025, 4, 2, 14, 0, 0, tzinfo=timezone.utc)
DECK_FOOTER = "Riverline product overview | April 2025"
SLIDE_W, SLIDE_H = 960.0, 540.0
ACCENT = (30, 90, 160)

# Each slide: section name, title (None = untitled), kind, payload.
DECK_SLIDES: list[dict] = [
    {"section": "Riverline", "title": "Riverline", "kind": "cover",
     "subtitle": "Field data without the paperwork",
     "byline": "Product overview for river and catchment teams  |  April 2025"},
    {"section": "Agenda", "title": "Agenda", "kind": "agenda"},
    {"section": "Why Riverline", "title": "Why Riverline", "kind": "bullets",
     "bullets": [
         "Survey crews still write readings on paper and type them up again at the office.",
         "Every copy step adds errors that nobody notices until the analysis looks odd.",
         "Records from different teams use different sheets, names and units.",
         "Coordinators spend their week chasing missing sheets instead of planning visits.",
     ]},
    {"section": "Why Riverline", "title": None, "kind": "bignumber",
     "number": "4.5 hours",
     "text": "spent re-typing and checking field sheets for every day a two-person crew "
             "spends on the river",
     "note": "Sample figure for illustration, based on interviews with fictional customers."},
    {"section": "How it works", "title": "How it works", "kind": "steps",
     "steps": [
         ("1  Capture", "Crews record depths, velocities, notes and photos in a form that "
                        "mirrors the paper sheet. Works offline all day."),
         ("2  Check", "Each value is checked as it is entered. Gaps and outliers are flagged "
                      "before the crew leaves the bank."),
         ("3  Publish", "Clean records sync to the shared archive with the method, crew and "
                        "equipment attached."),
     ]},
    {"section": "How it works", "title": "How it works", "kind": "bullets",
     "bullets": [
         "Forms are built from your existing field sheets, field for field.",
         "Offline first: records stay on the device until a connection is available.",
         "Photos are labelled automatically with site code, date and crew.",
         "Exports to CSV and to a documented archive layout that outlives the app.",
     ]},
    {"section": "Customer stories", "title": "Customer stories (1 of 3)", "kind": "story",
     "who": "Upper Vale Catchment Trust",
     "quote": "\"Our volunteers used to post their sheets to us. Now the data is in the "
              "archive before they have taken their waders off.\"",
     "bullets": ["42 volunteer surveyors across 18 reaches",
                 "Transcription backlog cleared in the first month",
                 "Same-day checks cut repeat visits by a third"]},
    {"section": "Customer stories", "title": "Customer stories (2 of 3)", "kind": "story",
     "who": "Northmoor Water Laboratory",
     "quote": "\"We needed every crew to measure the same way. The form simply does not let "
              "anyone skip the six-tenths reading.\"",
     "bullets": ["Six field teams using one shared method",
                 "Calibration records attached to every flow estimate",
                 "Audit preparation reduced from weeks to days"]},
    {"section": "Customer stories", "title": "Customer stories (3 of 3)", "kind": "story",
     "who": "Harlow Brook Volunteers",
     "quote": "\"We are a small group with no office. Riverline gave us a proper archive "
              "without anyone having to run a server.\"",
     "bullets": ["Eight years of paper records imported in a weekend",
                 "Photos matched to sites automatically",
                 "Annual report produced straight from the archive"]},
    {"section": "Plans and pricing", "title": "Plans and pricing", "kind": "table",
     "rows": [
         ["Plan", "Surveyors", "Archive storage", "Price per month"],
         ["Community", "Up to 10", "20 GB", "Free for volunteer groups"],
         ["Team", "Up to 50", "200 GB", "240 per organisation"],
         ["Agency", "Unlimited", "2 TB", "Contact us"],
     ],
     "note": "All plans include offline forms, same-day checks and CSV export. Prices are "
             "illustrative."},
    {"section": "Getting started", "title": "Getting started", "kind": "numbers",
     "bullets": [
         "Send us one of your current field sheets.",
         "We build a matching form and a test archive within a week.",
         "Run a pilot on two reaches with one crew.",
         "Review the pilot data together and decide on the rollout.",
     ]},
    {"section": "Thank you", "title": "Thank you", "kind": "contacts",
     "lines": [
         ("Contacts", ""),
         ("Sales and pilots", "hello@riverline.example"),
         ("Support", "support@riverline.example"),
         ("Web", "www.riverline.example"),
     ]},
]


class DeckPDF(FPDF):
    def footer(self) -> None:
        if self.page == 1:
            return
        self.set_font("Helvetica", "", 10)
        self.set_text_color(130, 130, 130)
        self.set_xy(48, SLIDE_H - 34)
        self.cell(400, 12, DECK_FOOTER, align="L")
        self.set_xy(SLIDE_W - 48 - 60, SLIDE_H - 34)
        self.cell(60, 12, str(self.page), align="R")
        self.set_text_color(*DARK)


def build_product_deck() -> dict:
    pdf = DeckPDF(orientation="L", unit="pt", format=(SLIDE_H, SLIDE_W))
    pdf.core_fonts_encoding = "windows-1252"
    pdf.set_auto_page_break(False)
    pdf.set_margins(48, 40, 48)
    pdf.set_title(DECK_TITLE)
    pdf.set_author(DECK_AUTHOR)
    pdf.set_subject("Product overview slide deck (pdfrag sample document)")
    pdf.set_keywords("slides, product overview, field data, pdfrag sample")
    pdf.set_creator("pdfrag data/samples/make_samples.py")
    pdf.set_creation_date(DECK_CREATED)
    pdf.set_lang("en")
    body_w = SLIDE_W - 96
    sections_in_order = []
    for slide in DECK_SLIDES:
        if slide["section"] not in sections_in_order:
            sections_in_order.append(slide["section"])
    agenda_items = [s for s in sections_in_order if s not in ("Riverline", "Agenda", "Thank you")]

    slides: list[dict] = []
    sections: list[dict] = []

    def bullets(items: list[str], y: float, numbered: bool = False, size: float = 22) -> float:
        for number, item in enumerate(items, start=1):
            pdf.set_font("Helvetica", "", size)
            pdf.set_text_color(*ACCENT)
            pdf.set_xy(64, y)
            pdf.cell(34, size * 1.3, f"{number}." if numbered else BULLET, align="L")
            pdf.set_text_color(*DARK)
            pdf.set_xy(100, y)
            pdf.multi_cell(body_w - 60, size * 1.3, item, align="L", new_x="LMARGIN",
                           new_y="NEXT")
            y = pdf.get_y() + size * 0.6
        return y

    for slide in DECK_SLIDES:
        pdf.add_page()
        page = pdf.page
        title = slide["title"]
        kind = slide["kind"]
        if kind == "cover":
            pdf.set_fill_color(*ACCENT)
            pdf.rect(0, 0, 24, SLIDE_H, style="F")
            pdf.set_font("Helvetica", "B", 64)
            pdf.set_xy(96, 170)
            pdf.cell(body_w, 76, title, align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.set_font("Helvetica", "", 28)
            pdf.set_text_color(*ACCENT)
            pdf.set_xy(96, pdf.get_y() + 8)
            pdf.cell(body_w, 36, slide["subtitle"], align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.set_font("Helvetica", "", 16)
            pdf.set_text_color(*GRAY)
            pdf.set_xy(96, 400)
            pdf.cell(body_w, 20, slide["byline"], align="L")
            pdf.set_text_color(*DARK)
        else:
            if title is not None:
                pdf.set_font("Helvetica", "B", 34)
                pdf.set_text_color(*DARK)
                pdf.set_xy(48, 44)
                pdf.cell(body_w, 42, title, align="L")
                pdf.set_fill_color(*ACCENT)
                pdf.rect(48, 96, 80, 4, style="F")
            y = 132.0
            if kind == "agenda":
                bullets(agenda_items, y, numbered=True, size=24)
            elif kind == "bullets":
                bullets(slide["bullets"], y)
            elif kind == "numbers":
                bullets(slide["bullets"], y, numbered=True)
            elif kind == "bignumber":
                pdf.set_font("Helvetica", "B", 110)
                pdf.set_text_color(*ACCENT)
                pdf.set_xy(48, 120)
                pdf.cell(body_w, 130, slide["number"], align="C", new_x="LMARGIN",
                         new_y="NEXT")
                pdf.set_text_color(*DARK)
                pdf.set_font("Helvetica", "", 26)
                pdf.set_xy(160, 280)
                pdf.multi_cell(SLIDE_W - 320, 34, slide["text"], align="C", new_x="LMARGIN",
                               new_y="NEXT")
                pdf.set_font("Helvetica", "I", 12)
                pdf.set_text_color(*GRAY)
                pdf.set_xy(48, 440)
                pdf.cell(body_w, 16, slide["note"], align="C")
                pdf.set_text_color(*DARK)
            elif kind == "steps":
                box_w, gap = (body_w - 2 * 28) / 3, 28
                for index, (head, text) in enumerate(slide["steps"]):
                    x = 48 + index * (box_w + gap)
                    pdf.set_fill_color(232, 240, 250)
                    pdf.rect(x, 140, box_w, 260, style="F")
                    pdf.set_font("Helvetica", "B", 24)
                    pdf.set_text_color(*ACCENT)
                    pdf.set_xy(x + 20, 160)
                    pdf.cell(box_w - 40, 30, head, align="L")
                    pdf.set_text_color(*DARK)
                    pdf.set_font("Helvetica", "", 18)
                    pdf.set_xy(x + 20, 210)
                    pdf.multi_cell(box_w - 40, 25, text, align="L")
            elif kind == "story":
                pdf.set_font("Helvetica", "B", 22)
                pdf.set_text_color(*ACCENT)
                pdf.set_xy(48, y)
                pdf.cell(body_w, 28, slide["who"], align="L")
                pdf.set_text_color(*DARK)
                pdf.set_font("Times", "I", 24)
                pdf.set_xy(64, y + 44)
                pdf.multi_cell(body_w - 120, 32, slide["quote"], align="L", new_x="LMARGIN",
                               new_y="NEXT")
                bullets(slide["bullets"], pdf.get_y() + 24, size=20)
            elif kind == "table":
                rows = slide["rows"]
                col_w = [190, 160, 200, 314]
                row_h = 52
                x0, y0 = 48, y + 8
                pdf.set_draw_color(150, 150, 150)
                pdf.set_line_width(0.8)
                for r, row in enumerate(rows):
                    x = x0
                    for c, text in enumerate(row):
                        if r == 0:
                            pdf.set_fill_color(*ACCENT)
                            pdf.set_text_color(255, 255, 255)
                            pdf.set_font("Helvetica", "B", 18)
                        else:
                            pdf.set_fill_color(*((244, 247, 251) if r % 2 else (255, 255, 255)))
                            pdf.set_text_color(*DARK)
                            pdf.set_font("Helvetica", "B" if c == 0 else "", 18)
                        pdf.set_xy(x, y0 + r * row_h)
                        pdf.cell(col_w[c], row_h, "  " + text, border=1, align="L", fill=True)
                        x += col_w[c]
                pdf.set_text_color(*GRAY)
                pdf.set_font("Helvetica", "I", 14)
                pdf.set_xy(48, y0 + len(rows) * row_h + 24)
                pdf.cell(body_w, 18, slide["note"], align="L")
                pdf.set_text_color(*DARK)
            elif kind == "contacts":
                yy = y + 10
                for label, value in slide["lines"]:
                    if not value:
                        pdf.set_font("Helvetica", "B", 26)
                        pdf.set_text_color(*ACCENT)
                        pdf.set_xy(64, yy)
                        pdf.cell(body_w, 34, label, align="L")
                        pdf.set_text_color(*DARK)
                        yy += 54
                        continue
                    pdf.set_font("Helvetica", "B", 20)
                    pdf.set_xy(64, yy)
                    pdf.cell(260, 28, label, align="L")
                    pdf.set_font("Helvetica", "", 20)
                    pdf.set_xy(330, yy)
                    pdf.cell(500, 28, value, align="L")
                    yy += 42
            else:
                raise ValueError(kind)
        assert pdf.get_y() < SLIDE_H - 40, f"slide {page} overflows"
        slides.append({"page": page, "title": title})
        if not sections or sections[-1]["title"] != slide["section"]:
            sections.append({"title": slide["section"], "pages": []})
        sections[-1]["pages"].append(page)

    pdf.output(str(HERE / DECK_FILE))
    assert [p for s in sections for p in s["pages"]] == list(range(1, pdf.page + 1))
    return {
        "pages": pdf.page,
        "format": "landscape",
        "page_size_pt": [SLIDE_W, SLIDE_H],
        "title": DECK_TITLE,
        "author": DECK_AUTHOR,
        "slides": slides,
        "agenda": agenda_items,
        "sections": sections,
    }


def main() -> None:
    truth = {
        GUIDE_FILE: build_field_guide(),
        DECK_FILE: build_product_deck(),
    }
    (HERE / "ground_truth.json").write_text(json.dumps(truth, indent=2) + "\n", encoding="utf-8")
    for name, info in truth.items():
        size = (HERE / name).stat().st_size
        print(f"{name}: {info['pages']} pages, {size // 1024} KB")


if __name__ == "__main__":
    main()
