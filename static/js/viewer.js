// The viewer's keys and autoplay. Each step key follows the matching control link (htmx swaps
// the board); keys pressed while a step loads wait in a queue and are played in order, so
// thirty quick presses move thirty steps. The keys act while the board or its controls have
// the focus and the shortcuts are on; each step's event is said in the page's live region
// (static/js/a11y.js, issue 32).
const queue = [];
let busy = false;
let refocus = null;  // the data-key of the control that had the focus before a swap
const STEP_KEYS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "[", "]"];

function controlFor(key) {
  return document.querySelector(`.controls a[data-key="${CSS.escape(key)}"]`);
}

function follow(link) {
  busy = true;
  link.click();
}

function playQueue() {
  while (!busy && queue.length) {
    const link = controlFor(queue.shift());
    if (link) follow(link);
  }
}

// A step's request: one the viewer's controls (or autoplay) made, swapping #board-wrap. The
// analysis' progress polls every few seconds; their requests and swaps leave the keys alone.
function isStep(event) {
  const target = event.detail && event.detail.target;
  return !!target && target.id === "board-wrap";
}

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target && (["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)
                 || target.isContentEditable)) return;
  if (!STEP_KEYS.includes(event.key) || !document.querySelector(".controls a[data-key]")) return;
  if (!window.shortcutsFor || !window.shortcutsFor(document.getElementById("board-wrap"))) return;
  event.preventDefault();
  stopAutoplay();
  queue.push(event.key);
  playQueue();
});

// A control activated from the keyboard (Enter on "Next →") keeps the focus: the same
// control of the new board gets it back after the swap.
document.addEventListener("htmx:beforeRequest", (event) => {
  if (!isStep(event)) return;
  busy = true;
  const active = document.activeElement;
  const wrap = document.getElementById("board-wrap");
  refocus = null;
  if (active && active.matches(".controls a[data-key]")) refocus = active.dataset.key;
  else if (active && active.matches(".autoplay-toggle")) refocus = "autoplay";
  // Anywhere else in the swapped part: the new board, so that the keys still act.
  else if (active && wrap && wrap.contains(active)) refocus = "board";
});

function refocused(key) {
  if (key === "board") return document.getElementById("board");
  if (key === "autoplay") return document.querySelector(".autoplay-toggle");
  return controlFor(key);
}

// Each new step's event, said once (other parts of the page settle too: the analysis' progress).
let saidStep = null;
function announceStep() {
  const counter = document.querySelector(".controls .step-counter");
  const line = document.querySelector("#board .event-line");
  if (!counter || !line || counter.textContent === saidStep) return;
  if (saidStep !== null && window.announce) window.announce(line.textContent.trim());
  saidStep = counter.textContent;
}

// The focus goes back as soon as the new board is in, in the same task as the swap: at the
// settle, some milliseconds later, a key pressed in between found the focus nowhere (on the
// page's body, outside the keys' scope) and was dropped.
document.addEventListener("htmx:afterSwap", (event) => {
  if (!isStep(event)) return;
  // htmx boosts the new controls only at the settle: an Enter on "Next →" before then would
  // follow the link as a whole page load (and the focus would start on the board again).
  const wrap = document.getElementById("board-wrap");
  if (wrap && window.htmx) window.htmx.process(wrap);
  syncAutoplay();  // first: the autoplay button is hidden until then, and can't take the focus
  const lost = !document.activeElement || document.activeElement === document.body;
  if (refocus && lost) {  // only a focus the swap took away
    const again = refocused(refocus) || document.querySelector(".controls .step-counter");
    if (again) {
      if (!again.matches("a, button")) again.setAttribute("tabindex", "-1");
      again.focus();
    }
  }
  refocus = null;
});

document.addEventListener("htmx:afterSettle", (event) => {
  announceStep();
  if (!isStep(event)) return;
  busy = false;
  playQueue();
});

["htmx:responseError", "htmx:sendError", "htmx:timeout"].forEach((name) => {
  document.addEventListener(name, () => {
    busy = false;
    refocus = null;
    queue.length = 0;
    stopAutoplay();
  });
});

// Autoplay: follows "Next" at the chosen speed until the hand's end or a key press.
let autoplayTimer = null;
let autoplayDelay = 1000;

function syncAutoplay() {
  document.querySelectorAll(".autoplay").forEach((box) => {
    box.hidden = false;
    const toggle = box.querySelector(".autoplay-toggle");
    toggle.textContent = autoplayTimer ? toggle.dataset.pause : toggle.dataset.play;
    toggle.setAttribute("aria-pressed", autoplayTimer ? "true" : "false");
    box.querySelector(".autoplay-speed").value = String(autoplayDelay);
  });
}

function tick() {
  const next = controlFor("ArrowRight");
  if (!next) {
    stopAutoplay();
    return;
  }
  if (!busy) follow(next);
  autoplayTimer = window.setTimeout(tick, autoplayDelay);
}

function stopAutoplay() {
  if (autoplayTimer) window.clearTimeout(autoplayTimer);
  autoplayTimer = null;
  syncAutoplay();
}

document.addEventListener("click", (event) => {
  const toggle = event.target.closest(".autoplay-toggle");
  if (!toggle) return;
  if (autoplayTimer) {
    stopAutoplay();
  } else {
    autoplayTimer = window.setTimeout(tick, 0);
    syncAutoplay();
  }
});

document.addEventListener("change", (event) => {
  if (!event.target.matches(".autoplay-speed")) return;
  autoplayDelay = Number(event.target.value) || 1000;
});

syncAutoplay();
announceStep();  // the page's own step: not said, the page is read

// The board has the focus from the start (the step keys act while it has), unless the page
// opens at an anchor or something has the focus already.
function focusBoard() {
  const board = document.getElementById("board");
  if (board && !window.location.hash && document.activeElement === document.body) {
    board.focus({preventScroll: true});
  }
}
focusBoard();

// Back or Forward to a step htmx kept: the page is put back whole, and a step's swap still
// pending on the page left (its settle never reaches this document) is dropped with its keys.
document.addEventListener("htmx:historyRestore", () => {
  busy = false;
  refocus = null;
  queue.length = 0;
  stopAutoplay();
  saidStep = null;
  announceStep();
  focusBoard();
});

// Spoiler-free mode: picking an alternative opens the analysis and marks the pick.
document.addEventListener("click", (event) => {
  const button = event.target.closest(".pick button[data-alternative]");
  if (!button) return;
  const pick = button.closest(".pick");
  const details = pick.nextElementSibling;
  if (!details || details.tagName !== "DETAILS") return;
  details.open = true;
  details.querySelectorAll("tr.picked").forEach((row) => row.classList.remove("picked"));
  const row = details.querySelector(`tr[data-alternative="${button.dataset.alternative}"]`);
  if (row) row.classList.add("picked");
  pick.hidden = true;
});
