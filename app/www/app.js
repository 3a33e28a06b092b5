// pdfrag workbench: links that open a page in Inspect, keyboard paging in Inspect, the upload size limit.
(function () {
  // <a href="#pdfrag-open:INPUT_ID:DOC_ID:PAGE"> sets the Shiny input INPUT_ID to {doc, page}; only the
  // pages' "-open" inputs (document text never yields such a link: app/safe_html.py drops relative links).
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest('a[href^="#pdfrag-open:"]');
    if (!link || !window.Shiny) return;
    event.preventDefault();
    event.stopPropagation();
    var parts = link.getAttribute("href").slice(1).split(":");
    if (parts.length !== 4 || !/^[\w-]+-open$/.test(parts[1]) || !/^\d+$/.test(parts[3])) return;
    var value = { doc: parts[2], page: parseInt(parts[3], 10), at: Date.now() };
    var cite = link.getAttribute("data-pdfrag-cite");  // Chat: the citation whose quote Inspect highlights
    if (cite && /^[\w-]+$/.test(cite)) value.cite = cite;
    Shiny.setInputValue(parts[1], value, { priority: "event" });
  }, true);

  // A "Go" button sends the page typed next to it with the click (the typed value may not have
  // reached the server yet).
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-jump-input]");
    if (!button || !window.Shiny) return;
    var box = document.getElementById(button.dataset.jumpFrom);
    Shiny.setInputValue(button.dataset.jumpInput, { page: box ? box.value : null, at: Date.now() },
                        { priority: "event" });
  });

  // In Inspect, the arrow keys page through the document (unless the user is typing).
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
      if (event.key === "Enter" && target.id === "inspect-jump") {
        var go = document.getElementById("inspect-go");
        if (go) go.click();
      }
      return;
    }
    var pane = document.querySelector(".tab-pane.active .pdfrag-inspect");
    if (!pane) return;
    var id = event.key === "ArrowLeft" ? "inspect-prev" : event.key === "ArrowRight" ? "inspect-next" : null;
    if (!id) return;
    var button = document.getElementById(id);
    if (button) { event.preventDefault(); button.click(); }
  });

  // Files above the upload limit are refused here, before Shiny sends them (the server checks again).
  // A file input inside [data-pdfrag-max-bytes] keeps only the files within the limit; the others are
  // named in that element's .pdfrag-upload-refused box. Browsing fires "change" and dropping fires
  // "drop": both are caught in the capture phase, ahead of Shiny's own handlers.
  function screenFiles(input, files) {  // null when nothing is refused, else the FileList to upload
    var box = input && input.closest && input.closest("[data-pdfrag-max-bytes]");
    var max = box ? parseInt(box.getAttribute("data-pdfrag-max-bytes"), 10) : 0;
    if (!(max > 0) || !files) return null;
    var report = box.querySelector(".pdfrag-upload-refused");
    var kept = new DataTransfer(), refused = [];
    for (var i = 0; i < files.length; i++) {
      if (files[i].size > max) refused.push(files[i]); else kept.items.add(files[i]);
    }
    if (report) report.replaceChildren();
    if (!refused.length) return null;
    refused.forEach(function (file) {
      var line = document.createElement("div"), name = document.createElement("strong");
      line.className = "alert alert-danger py-1 px-2 small mb-1 pdfrag-reject pdfrag-too-large";
      name.textContent = file.name;
      line.append(name, ": the file is " + (file.size / 1048576).toFixed(1) + " MB, above the " +
                  (max / 1048576).toFixed(0) + " MB limit; it was not uploaded");
      if (report) report.appendChild(line);
    });
    return kept.files;
  }

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input || input.type !== "file") return;
    var kept = screenFiles(input, input.files);
    if (kept === null) return;
    if (kept.length) {
      input.files = kept;  // Shiny's handler runs next and uploads only these
    } else {  // nothing to send: Shiny never sees this selection (an upload in progress goes on)
      event.stopImmediatePropagation();
      input.value = "";
    }
  }, true);

  window.addEventListener("drop", function (event) {
    if (event.pdfragScreened) return;
    var zone = event.target && event.target.closest && event.target.closest("div.input-group");
    var input = zone && zone.querySelector('input[type="file"]');
    var kept = input ? screenFiles(input, event.dataTransfer && event.dataTransfer.files) : null;
    if (kept === null) return;
    event.stopImmediatePropagation();
    event.preventDefault();
    // Shiny's drop handling still runs (it also clears the drag highlight), on the kept files only; with
    // none kept, on a drop without a dataTransfer, which it ignores (it logs that it found no files).
    var init = { bubbles: true, cancelable: true };
    if (kept.length) {
      init.dataTransfer = new DataTransfer();
      for (var i = 0; i < kept.length; i++) init.dataTransfer.items.add(kept[i]);
    }
    var again = new DragEvent("drop", init);
    again.pdfragScreened = true;
    event.target.dispatchEvent(again);
  }, true);
})();

// Inspect: a highlighted quote (a citation opened from Chat) is scrolled into view once its page image is
// there (the overlay is drawn in per cent of the image, so it has no size before the image loads).
(function () {
  function reveal() {
    var mark = document.querySelector(".tab-pane.active .pdfrag-highlight");
    if (!mark) return;
    var frame = mark.closest(".pdfrag-page-frame");
    var img = frame && frame.querySelector("img.pdfrag-page-image");
    var go = function () { mark.scrollIntoView({ block: "center", inline: "nearest" }); };
    if (img && !(img.complete && img.naturalWidth > 0)) img.addEventListener("load", go, { once: true });
    else go();
  }
  document.addEventListener("shiny:value", function (event) {
    if (/-overlay$/.test(event.name || "")) setTimeout(reveal, 0);
  });
})();
