// Puzzle page: a copy button for the share text (the text area works without it).
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
  document.addEventListener("DOMContentLoaded", function () { wire(document); });
  document.addEventListener("htmx:afterSwap", function (event) { wire(event.target); });
})();
