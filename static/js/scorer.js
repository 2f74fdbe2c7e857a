// The hand scorer (/score/, docs/scorer.md). The page works without this file; it adds:
// the service worker (the page opens offline), a note when offline, and htmx showing the
// engine's refusals (400) in place.
(function () {
  const script = document.currentScript;
  const note = () => document.getElementById("scorer-offline");
  const showOffline = (offline) => { const n = note(); if (n) n.hidden = !offline; };

  if ("serviceWorker" in navigator && script) {
    navigator.serviceWorker.register(script.dataset.sw, { scope: script.dataset.scope })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        // Keep every file this page loaded (htmx included) for the next visit offline.
        const keep = [location.href, ...performance.getEntriesByType("resource").map((e) => e.name)];
        if (registration.active) registration.active.postMessage({ keep });
      })
      .catch(() => undefined);
  }

  window.addEventListener("online", () => showOffline(false));
  window.addEventListener("offline", () => showOffline(true));
  // A page the worker kept comes with its note shown; the browser may know it is offline too.
  document.addEventListener("DOMContentLoaded", () => { if (navigator.onLine === false) showOffline(true); });

  // Picking where the next tap goes asks the server nothing: the tap carries it.
  document.addEventListener("change", (event) => {
    if (event.target && event.target.name === "mode") event.stopPropagation();
  }, true);

  // Taps are sent one after another, each with the form the previous one left: a quick
  // thumb on a slow network loses none (htmx alone would drop taps while one is on its way).
  const taps = [];
  let sending = false;
  const sendNext = () => {
    const form = document.getElementById("scorer");
    if (sending || !taps.length || !form) return;
    const [name, value] = taps.shift();
    const params = new URLSearchParams(new FormData(form));
    if (name) params.set(name, value);
    sending = true;
    const done = () => { sending = false; sendNext(); };
    window.htmx.ajax("GET", `${form.getAttribute("action")}?${params}`,
      { target: "#scorer", swap: "outerHTML" }).then(done, done);
  };
  // A changed field goes the same way, after the taps before it (else answers could cross).
  document.addEventListener("change", (event) => {
    const field = event.target;
    if (!window.htmx || !field.closest || !field.closest("#scorer") || field.name === "mode") return;
    event.stopPropagation();
    taps.push([null, null]);
    sendNext();
  }, true);
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest(
      "#scorer button[name=add], #scorer button[name=drop]");
    if (!button || !window.htmx) return;
    event.preventDefault();
    taps.push([button.name, button.value]);
    sendNext();
  });

  // A hand the engine refuses comes back as 400 with the reason: show it.
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.target && event.detail.target.id === "scorer" && event.detail.xhr.status === 400) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  // A complete hand's score in view (the keyboard no longer follows the thumb then).
  const showScore = () => {
    const total = document.querySelector("#scorer[data-complete] .scorer-total") && document.querySelector(".scorer-chosen");
    if (total && window.matchMedia("(max-width: 899px)").matches) total.scrollIntoView({ block: "start" });
  };
  document.addEventListener("DOMContentLoaded", showScore);
  document.addEventListener("htmx:afterSwap", showScore);
  // No answer (offline, or the server unreachable): say so, keep the page as it was.
  document.addEventListener("htmx:sendError", () => showOffline(true));
  document.addEventListener("htmx:afterRequest", (event) => {
    const xhr = event.detail.xhr;
    if (!xhr || !(event.detail.successful || xhr.status === 400)) return;
    showOffline(xhr.getResponseHeader("X-Scorer-Kept") === "1");  // kept: still offline
  });
})();
