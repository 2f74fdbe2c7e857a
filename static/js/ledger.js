// The match ledger (docs/ledger.md). The page works without this script: the row form is a
// plain POST. With it, a row is first queued on the device (localStorage) with an id made
// here, then sent; a row sent while offline stays queued and is sent when the network is
// back (the server stores an id once, so a retry never makes a second row). A follower's
// page (the share link) listens on the ledger's socket and fetches the ledger again.
(function () {
  "use strict";
  var script = document.currentScript;
  var pagePath = script.dataset.page;

  function refreshBody() {
    return fetch(pagePath, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var body = document.getElementById("ledger-body");
        if (body) { body.innerHTML = html; }
        var title = document.querySelector(".ledger-form-title");
        var last = body && body.querySelector("[data-row]");
        if (title && body) {
          var next = last ? parseInt(last.dataset.row, 10) + 1 : 1;
          title.textContent = title.textContent.replace(/\d+/, String(next));
        }
      });
  }

  function follow(path) {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var wait = 1000;
    var known = null;
    function open() {
      var socket = new WebSocket(scheme + location.host + path);
      socket.onopen = function () { wait = 1000; };
      socket.onmessage = function (event) {
        var data = JSON.parse(event.data);
        if (data.type === "changed") {
          if (known !== null && data.rows !== known) { refreshBody(); }
          else if (known === null) { refreshBody(); }
          known = data.rows;
        }
      };
      socket.onclose = function () {
        setTimeout(open, wait);
        wait = Math.min(wait * 2, 30000);
      };
    }
    open();
  }

  if (script.dataset.socket) {
    follow(script.dataset.socket);
    return;
  }

  var ledger = script.dataset.ledger;
  var rowsUrl = script.dataset.rows;
  if (!ledger || !rowsUrl) { return; }
  var key = "ledger-queue:" + ledger;
  var offlineNote = document.querySelector("[data-offline-note]");
  var pendingNote = document.querySelector("[data-pending]");
  var sending = false;

  function queue() {
    try { return JSON.parse(localStorage.getItem(key) || "[]"); } catch (e) { return []; }
  }
  function store(items) { localStorage.setItem(key, JSON.stringify(items)); show(items); }
  function show(items) {
    items = items || queue();
    if (pendingNote) {
      pendingNote.hidden = items.length === 0;
      pendingNote.textContent = items.length ? (script.dataset.pendingText || "{n}").replace("{n}", items.length) : "";
    }
    if (offlineNote) { offlineNote.hidden = navigator.onLine; }
  }
  function newId() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);
  }
  function showError(message) {
    var box = document.querySelector("[data-form-error]");
    if (box) { box.textContent = message; box.hidden = !message; }
  }

  function flush() {
    if (sending) { return; }
    var items = queue();
    if (!items.length) { show(items); return; }
    sending = true;
    var item = items[0];
    fetch(rowsUrl, {
      method: "POST", body: item.body, credentials: "same-origin",
      headers: { "Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded" }
    }).then(function (response) {
      // A refusal that isn't the ledger's JSON (a proxy's page) still has a status.
      return response.json().catch(function () { return {}; }).then(function (answer) {
        if (response.ok || (response.status >= 400 && response.status < 500 && response.status !== 429)) {
          store(queue().filter(function (other) { return other.id !== item.id; }));
          if (!response.ok) { showError(answer.error || String(response.status)); }
          return true;
        }
        return false;  // a server error or a rate limit: kept, tried again later
      });
    }).catch(function () { return false; })  // offline: kept
      .then(function (sent) {
        sending = false;
        show();
        if (sent) {
          if (queue().length) { flush(); } else { refreshBody(); }
        }
      });
  }

  var form = document.querySelector("[data-ledger-row]");
  if (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var data = new FormData(form);
      var id = newId();
      data.set("client_id", id);
      var items = queue();
      items.push({ id: id, body: new URLSearchParams(data).toString() });
      store(items);
      showError("");
      form.reset();
      form.querySelectorAll("details").forEach(function (d) { d.open = false; });
      window.scrollTo({ top: 0 });
      flush();
    });
  }
  document.addEventListener("submit", function (event) {
    var undo = event.target.closest("[data-undo]");
    if (undo && queue().length) {
      // A row still waiting is not on the page yet: undoing now would take back the one before.
      event.preventDefault();
      showError(script.dataset.waitUndo || "");
    }
  });
  window.addEventListener("online", flush);
  window.addEventListener("offline", function () { show(); });
  setInterval(flush, 5000);
  show();
  flush();
})();
