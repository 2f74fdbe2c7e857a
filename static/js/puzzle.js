// Puzzle page: show refused answers, a copy button for the share text (the text area works
// without it), the focus and the live region after an answer.
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
  // After an answer (issue 32): the focus on the verdict (or on the refusal, or on a
  // training run's last result), and the verdict said in the page's live region.
  function settle() {
    var answer = document.getElementById("answer");
    var error = document.querySelector("#answer .error[role=alert], #run > .error[role=alert]");
    var verdict = answer && answer.querySelector("h2");
    var over = document.querySelector(".run-over h1");
    var last = document.querySelector(".run-last summary");
    var target = error || verdict || over || last;
    if (!target) return;
    if (!target.matches("summary")) target.setAttribute("tabindex", "-1");
    target.focus();
    var said = error ? "" : verdict ? answer.getAttribute("data-announce") : target.textContent;
    if (said && window.announce) window.announce(said.trim());
  }
  document.addEventListener("DOMContentLoaded", function () { wire(document); });
  document.addEventListener("htmx:afterSwap", function (event) {
    wire(event.target);
    settle();
  });
})();
