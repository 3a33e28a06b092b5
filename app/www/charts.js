// pdfrag workbench: draws the figures app/charts.py puts in div.pdfrag-plot[data-figure] with plotly.js (served
// by the app from the plotly package). A click on a point that carries customdata [doc_id, page] sets the
// chart's "-open" (or "_open") input, which opens that page in Inspect (the same input the page links use).
(function () {
  function clickValue(point) {
    var data = point && point.customdata;
    if (!data || data.length < 2 || typeof data[0] !== "string" || !/^\d+$/.test(String(data[1]))) return null;
    return { doc: data[0], page: parseInt(data[1], 10), at: Date.now() };
  }

  function draw(el, tries) {
    if (!window.Plotly) {  // the script arrives with the first chart's output
      if ((tries || 0) < 200) setTimeout(function () { draw(el, (tries || 0) + 1); }, 50);
      return;
    }
    if (!el.isConnected || el.dataset.drawn === "1") return;
    var figure;
    try { figure = JSON.parse(el.dataset.figure); } catch (e) { return; }
    el.dataset.drawn = "1";
    var config = Object.assign({ displaylogo: false, responsive: true }, figure.config || {});
    window.Plotly.newPlot(el, figure.data || [], figure.layout || {}, config).then(function () {
      el.dataset.ready = "1";
    });
    var input = el.dataset.input;
    if (!input || !/^[\w-]+[-_]open$/.test(input)) return;
    var send = function (points) {
      var value = clickValue(points && points[0]);
      if (value && window.Shiny) Shiny.setInputValue(input, value, { priority: "event" });
    };
    // a sunburst zooms on click by default: here a click opens the node's page instead
    el.on("plotly_sunburstclick", function (event) { send(event.points); return false; });
    el.on("plotly_click", function (event) {
      if (event.points && event.points[0] && event.points[0].data.type !== "sunburst") send(event.points);
    });
  }

  function drawAll(root) {
    var found = (root || document).querySelectorAll("div.pdfrag-plot[data-figure]:not([data-drawn])");
    for (var i = 0; i < found.length; i++) draw(found[i]);
  }

  new MutationObserver(function (records) {
    for (var i = 0; i < records.length; i++) {
      if (records[i].addedNodes.length) { drawAll(document); return; }
    }
  }).observe(document.documentElement, { childList: true, subtree: true });

  // a chart drawn while its tab was hidden has no width: size it when the tab shows
  document.addEventListener("shown.bs.tab", function () {
    if (!window.Plotly) return;
    var shown = document.querySelectorAll(".tab-pane.active div.pdfrag-plot[data-ready]");
    for (var i = 0; i < shown.length; i++) window.Plotly.Plots.resize(shown[i]);
  });
  document.addEventListener("DOMContentLoaded", function () { drawAll(document); });
})();
