// pdfrag workbench: links that open a page in Inspect, and keyboard paging in Inspect.
(function () {
  // <a href="#pdfrag-open:INPUT_ID:DOC_ID:PAGE"> sets the Shiny input INPUT_ID to {doc, page}.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest('a[href^="#pdfrag-open:"]');
    if (!link || !window.Shiny) return;
    event.preventDefault();
    event.stopPropagation();
    var parts = link.getAttribute("href").slice(1).split(":");
    if (parts.length !== 4) return;
    Shiny.setInputValue(parts[1], { doc: parts[2], page: parseInt(parts[3], 10), at: Date.now() },
                        { priority: "event" });
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
})();
