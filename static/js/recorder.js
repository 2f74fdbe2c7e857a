// Recording a hand from one seat (/record/, docs/recorder.md). The pages work without this
// file (every form posts); it adds the tile keyboard of the start page, one-tap saving, and
// the queue: each event gets the next sequence number and waits on the phone (localStorage)
// until the server has saved it, so events are sent in order once the network is back and a
// resent event is never saved twice (the server knows the numbers it has).
(function () {
  "use strict";

  // A keyboard fills its field; on the recording page one keyboard serves every field of
  // tiles laid down (data-tiles): the one chosen last.
  function startKeyboard() {
    document.querySelectorAll(".rec-keys[data-fills]").forEach((keys) => {
      const form = keys.closest("form");
      if (form) {
        form.addEventListener("focusin", (event) => {
          if (event.target.matches("input[data-tiles]")) keys.dataset.fills = event.target.id;
        });
      }
      keys.addEventListener("click", (event) => {
        const key = event.target.closest("button");
        const input = document.getElementById(keys.dataset.fills);
        if (!key || !input) return;
        const codes = input.value.trim().split(/\s+/).filter(Boolean);
        if (key.hasAttribute("data-back")) codes.pop();
        else codes.push(key.dataset.code);
        input.value = codes.join(" ");
        showChosen(keys, codes);
      });
    });
  }

  // The tapped tiles as tiles (a page in Chinese shows tile names, never codes).
  function showChosen(keys, codes) {
    const shown = document.querySelector("[data-shows='" + keys.dataset.fills + "']");
    if (!shown) return;
    shown.replaceChildren(...codes.map((code) => {
      const key = keys.querySelector("button[data-code='" + code + "']");
      return key ? key.querySelector(".tile").cloneNode(true) : document.createTextNode(code + " ");
    }));
  }

  function startRecorder(root) {
    const form = document.getElementById("rec-form");
    const store = "record:" + root.dataset.record;
    const csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;
    const state = JSON.parse(localStorage.getItem(store) || "null") ||
      { seq: Number(root.dataset.lastSeq), queue: [] };
    state.seq = Math.max(state.seq, Number(root.dataset.lastSeq));
    const times = (window.recorderTimes = []);
    let sending = false;
    let saved = Number(root.dataset.lastSeq);
    const keep = () => localStorage.setItem(store, JSON.stringify(state));
    const status = document.getElementById("rec-status");
    const queueNote = document.getElementById("rec-queue");
    const error = document.getElementById("rec-error");

    function show() {
      root.dataset.saved = String(saved);
      root.dataset.waiting = String(state.queue.length);
      status.textContent = status.dataset.template
        ? status.dataset.template.replace("0", String(saved)) : status.textContent;
      queueNote.hidden = state.queue.length === 0;
      queueNote.querySelector("[data-waiting]").textContent = state.queue.length ? "(" + state.queue.length + ")" : "";
    }

    function field(name) {
      const checked = form.querySelector("input[name=" + name + "]:checked");
      if (checked) return checked.value;
      const input = form.querySelector("input[name=" + name + "]");
      return input && input.type !== "radio" ? input.value : "";
    }

    function eventOfForm() {
      const names = ["type", "actor", "tile", "target", "kind", "suit", "hand", "reason",
        "shown0", "shown1", "shown2", "shown3"];
      const event = {};
      names.forEach((name) => { event[name] = field(name); });
      return event;
    }

    function describe(event) {
      const seat = form.querySelector("input[name=actor][value='" + event.actor + "']");
      const who = event.type === "end" ? "" : seat ? seat.nextElementSibling.textContent : "";
      const type = form.querySelector("input[name=type][value='" + event.type + "']");
      const tile = form.querySelector("input[name=tile][value='" + event.tile + "']");
      return [who, type ? type.nextElementSibling.textContent : "",
        tile && ["draw", "discard", "peng", "gang", "hu"].includes(event.type)
          ? (tile.nextElementSibling.getAttribute("aria-label") || tile.nextElementSibling.textContent) : ""]
        .join(" ").trim();
    }

    function advance(event) {
      // The next event is most often the next step of the turn: save the thumb a tap.
      const seats = 4;
      let type = null;
      let actor = Number(event.actor);
      if (event.type === "discard") { type = "draw"; actor = (actor + 1) % seats; }
      else if (event.type === "draw" || event.type === "peng") type = "discard";
      if (type) {
        form.querySelector("input[name=type][value=" + type + "]").checked = true;
        form.querySelector("input[name=actor][value='" + actor + "']").checked = true;
      }
      const tile = form.querySelector("input[name=tile]:checked");
      if (tile) tile.checked = false;
      form.querySelector("input[name=hand]").value = "";
      const laid = form.querySelector("[data-shows='rec-hand']");
      if (laid) laid.replaceChildren();
    }

    function add(event) {
      state.seq += 1;
      state.queue.push({ seq: state.seq, event, at: Date.now() });
      keep();
      const item = document.createElement("li");
      item.textContent = describe(event);
      item.dataset.seq = String(state.seq);
      item.className = "is-waiting";
      document.getElementById("rec-log").append(item);
      show();
      send();
    }

    async function send() {
      if (sending) return;
      sending = true;
      try {
        while (state.queue.length) {
          const item = state.queue[0];
          let answer;
          try {
            answer = await fetch(root.dataset.save, {
              method: "POST", credentials: "same-origin",
              headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
              body: JSON.stringify({ seq: item.seq, event: item.event }),
            });
          } catch (offline) {
            queueNote.hidden = false;
            setTimeout(send, 1000);
            return;
          }
          const body = await answer.json().catch(() => ({}));
          if (answer.ok) {
            times.push(Date.now() - item.at);
            saved = body.last_seq;
            const li = document.querySelector("#rec-log li[data-seq='" + item.seq + "']");
            if (li) li.className = "is-saved";
          } else {
            // The server refused the event (or it is out of order): drop it and number the
            // rest again after what the server has.
            error.hidden = false;
            error.textContent = body.error || answer.statusText;
            const li = document.querySelector("#rec-log li[data-seq='" + item.seq + "']");
            if (li) li.remove();
            if (answer.status === 409 && body.last_seq !== undefined) saved = body.last_seq;
            state.queue.shift();
            state.seq = saved;
            state.queue.forEach((rest) => { state.seq += 1; rest.seq = state.seq; });
            keep();
            continue;
          }
          state.queue.shift();
          keep();
          show();
        }
      } finally {
        sending = false;
        show();
      }
    }

    status.dataset.template = status.textContent.replace(/\d+/, "0");
    form.addEventListener("submit", (submit) => {
      submit.preventDefault();
      const event = eventOfForm();
      if (event.type !== "end" && !event.actor) return;
      error.hidden = true;
      add(event);
      advance(event);
    });
    // A draw or a discard is one tap on its tile.
    form.addEventListener("change", (change) => {
      if (change.target.name !== "tile") return;
      if (["draw", "discard"].includes(field("type"))) form.requestSubmit();
    });
    window.addEventListener("online", send);
    document.getElementById("rec-finish").addEventListener("submit", (finish) => {
      if (state.queue.length) { finish.preventDefault(); send(); }
    });
    show();
    send();
  }

  // The seats are chosen by place in the players' list; once the names are typed, each
  // choice shows its name too ("the second player listed: Bo").
  function nameSeats() {
    const players = document.getElementById("id_players");
    if (!players) return;
    const selects = ["id_seat", "id_dealer"].map((id) => document.getElementById(id))
      .filter(Boolean);
    selects.forEach((select) => Array.from(select.options).forEach((option) => {
      option.dataset.place = option.textContent;
    }));
    const update = () => {
      const names = players.value.split(",").map((name) => name.trim());
      selects.forEach((select) => Array.from(select.options).forEach((option, i) => {
        option.textContent = option.dataset.place + (names[i] ? ": " + names[i] : "");
      }));
    };
    players.addEventListener("input", update);
    update();
  }

  document.addEventListener("DOMContentLoaded", () => {
    startKeyboard();
    nameSeats();
    const root = document.getElementById("recorder");
    if (root) startRecorder(root);
  });
})();
