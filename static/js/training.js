// Training runs: show refused answers (400 bad pick, 409 run over, 429 too fast) in the
// run's fragment, and count a timed run's seconds down between answers. The count is only
// a display: the server's clock decides, and refuses answers after the deadline.
(function () {
  "use strict";
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    var target = event.detail.target;
    if ((status === 400 || status === 409 || status === 429) && target &&
        (target.id === "run" || target.id === "answer")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  var timer = null;
  function tick() {
    var clock = document.querySelector(".run-clock[data-seconds]");
    if (!clock) return;
    var left = parseInt(clock.getAttribute("data-seconds"), 10);
    if (isNaN(left)) return;
    left = Math.max(0, left - 1);
    clock.setAttribute("data-seconds", String(left));
    clock.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
  }
  function start() {
    if (timer === null && document.querySelector(".run-clock[data-seconds]")) {
      timer = window.setInterval(tick, 1000);
    }
  }
  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:afterSwap", start);
})();
