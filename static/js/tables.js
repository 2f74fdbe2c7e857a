// Tables with friends (issue 28, docs/tables.md): the room's WebSocket. Each push is this
// seat's own view; when its step (or the room's start) changes, the page's room is fetched
// again and swapped in. A heartbeat every 10 s keeps the seat seen; a closed socket is
// opened again (the server then sends the full view). Without JavaScript, reload the page.
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

  function current() {
    var r = document.getElementById("room");
    return { step: r.getAttribute("data-step"), started: r.getAttribute("data-started") };
  }

  function swap() {
    fetch(window.location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("room");
        var old = document.getElementById("room");
        if (fresh && old) { old.replaceWith(fresh); }
      });
  }

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
      if (data.type !== "state") { return; }
      var state = data.state;
      var now = current();
      var started = state.started ? "1" : "0";
      var step = String(state.step === undefined ? 0 : state.step);
      // Who sits, who is online and who the bot plays show on the page too.
      var seats = (state.seats || []).map(function (s) {
        return [s.taken, s.connected, s.autoplay].join(",");
      }).join(";");
      var changed = before === null || seats !== before;
      before = seats;
      if (started !== now.started || step !== now.step || changed) { swap(); }
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
