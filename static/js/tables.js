// Tables with friends (issue 28, docs/tables.md): the room's WebSocket. Each push is this
// seat's own view; when it shows a newer step (or the room's start, or who sits, who is
// online, who the bot plays), the table's part of the page (#play-table, the same parts as
// /play/'s) is fetched as htmx would (the view answers the fragment) and swapped in, keeping
// the focus where it was and the moves already shown (static/js/play.js narrates only the
// new ones). A heartbeat every 10 s keeps the seat seen and is answered with the room's
// step: a page behind it (a push lost on the way) fetches its part again. A closed socket
// is opened again (the server then sends the full view). Without JavaScript, reload the
// page; the forms post and redirect back.
(function () {
  "use strict";
  var room = document.getElementById("room");
  if (!room || !window.WebSocket) { return; }
  var path = room.getAttribute("data-ws");
  var socket = null;
  var beat = null;
  var wait = 1000;
  var before = null;
  var asked = null;
  var loading = false;
  var again = false;

  function table() { return document.getElementById("play-table"); }

  function stepOf(element) { return Number(element.getAttribute("data-step") || 0); }

  // Where the focus is in the table, to be found again in the fresh one: a tile of the
  // hand by its place, a button by its value, a field by its name (with what was typed).
  function focusOf(old) {
    var active = document.activeElement;
    if (!active || !old.contains(active)) { return null; }
    return { index: active.getAttribute("data-index"), value: active.getAttribute("value"),
             name: active.getAttribute("name"), tag: active.tagName };
  }

  function refocus(fresh, kept) {
    if (!kept) { return; }
    var found = null;
    if (kept.index) {
      var tiles = fresh.querySelectorAll(".play-hand button.tile-button");
      found = tiles[Math.min(Number(kept.index), tiles.length) - 1] || null;
    } else if (kept.tag === "BUTTON" && kept.value) {
      found = Array.prototype.find.call(fresh.querySelectorAll("button[name=action]"),
                                        function (b) { return b.value === kept.value; });
    } else if (kept.tag === "INPUT" && kept.name) {
      found = fresh.querySelector("input[name='" + kept.name + "']");
    }
    if (found) { found.focus(); }
  }

  // The moves the old list showed that head the fresh one too (the list runs from the
  // seat's last move: it only grows until the seat moves again).
  function seenOf(old, fresh) {
    var was = old.querySelectorAll(".play-moves > li");
    var now = fresh.querySelectorAll(".play-moves > li");
    if (!was.length || now.length < was.length) { return 0; }
    for (var i = 0; i < was.length; i += 1) {
      if (was[i].textContent !== now[i].textContent) { return 0; }
    }
    return was.length;
  }

  // Swap the table's part for `html`'s (a newer step only, unless `force`: a refusal).
  function place(html, force) {
    var old = table();
    var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("play-table");
    if (!old || !fresh || (!force && stepOf(fresh) < stepOf(old))) { return; }
    var kept = focusOf(old);
    Array.prototype.forEach.call(old.querySelectorAll("input[name]:not([type=hidden])"),
      function (input) {  // what someone was typing (their name, to join) stays
        var twin = fresh.querySelector("input[name='" + input.name + "']:not([type=hidden])");
        if (twin && input.value) { twin.value = input.value; }
      });
    fresh.setAttribute("data-seen", String(seenOf(old, fresh)));
    old.replaceWith(fresh);
    if (window.htmx) { window.htmx.process(fresh); }
    refocus(fresh, kept);
    // After the focus is back: a decision that arrived takes it to its first choice.
    if (typeof window.revealMoves === "function") { window.revealMoves(fresh); }
  }

  function refresh() {
    if (loading) { again = true; return; }
    loading = true;
    fetch(window.location.pathname, { credentials: "same-origin",
                                      headers: { "HX-Request": "true", "Accept": "text/html" } })
      .then(function (response) { return response.ok ? response.text() : ""; })
      .then(function (html) { if (html) { place(html, false); } })
      .catch(function () { again = true; })
      .then(function () {
        loading = false;
        if (again) { again = false; refresh(); }
      });
  }

  // A refused answer (stale, illegal) comes back as the table with the refusal: shown.
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (xhr && xhr.responseText && table() && table().contains(event.detail.elt)) {
      place(xhr.responseText, true);
    }
  });

  function open() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + window.location.host + path);
    socket.onopen = function () {
      wait = 1000;
      beat = window.setInterval(function () {
        if (socket.readyState === 1) { socket.send(JSON.stringify({ type: "heartbeat" })); }
      }, 10000);
    };
    socket.onmessage = function (message) {
      var data = JSON.parse(message.data);
      if (data.type === "heartbeat") {
        var shown = table();
        if (shown && typeof data.step === "number" && data.step > stepOf(shown)) { refresh(); }
        return;
      }
      if (data.type !== "state") { return; }
      var state = data.state;
      var now = table();
      if (!now) { return; }
      var started = state.started ? "1" : "0";
      var step = Number(state.step === undefined ? 0 : state.step);
      // Who sits, who is online and who the bot plays show on the page too.
      var seats = (state.seats || []).map(function (s) {
        return [s.taken, s.connected, s.autoplay].join(",");
      }).join(";");
      var changed = before === null || seats !== before;  // the first: since the page
      before = seats;
      if (started !== now.getAttribute("data-started") || step > stepOf(now) || changed) {
        refresh();
      }
    };
    socket.onclose = function () {
      window.clearInterval(beat);
      window.setTimeout(open, wait);
      wait = Math.min(wait * 2, 15000);
    };
  }
  // The clock counts down between pushes: the first number in it is the seconds left.
  window.setInterval(function () {
    var clock = document.querySelector(".room-clock[data-deadline]");
    if (!clock) { return; }
    var left = Math.max(0, Math.round((Date.parse(clock.getAttribute("data-deadline")) - Date.now()) / 1000));
    clock.innerHTML = clock.innerHTML.replace(/\d+/, String(left));
    var deadline = clock.getAttribute("data-deadline");
    if (left === 0 && asked !== deadline && socket && socket.readyState === 1) {
      asked = deadline;  // the time is up: the server applies it and pushes the change
      socket.send(JSON.stringify({ type: "state" }));
    }
  }, 1000);
  open();
})();
