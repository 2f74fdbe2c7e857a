// Puzzle page: show refused answers, and a copy button for the share text (the text area
// works without it).
(function () {
  "use strict";
  function wire(root) {
    root.querySelectorAll("[data-copy]").forEach(function (button) {
      var source = document.querySelector(button.getAttribute("data-copy"));
      if (!source || !navigator.clipboard) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(source.value).then(function () {
          button.textContent = button.getAttribute("data-copied") || "✓";
        });
      });
    });
  }
  // A refused answer comes back as 400 with the reason in the answer fragment: show it
  // (htmx leaves 4xx responses unswapped by default).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (event.detail.xhr.status === 400 && target && target.id === "answer") {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  document.addEventListener("DOMContentLoaded", function () { wire(document); });
  document.addEventListener("htmx:afterSwap", function (event) { wire(event.target); });
})();
