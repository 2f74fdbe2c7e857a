// The play table: the bots' moves since your last one shown one by one at the match's speed,
// and said in the page's live region with what is asked now (static/js/a11y.js); the focus
// on the first choice when a decision arrives; keys to choose a tile (← → to move, Enter to
// discard, 1–9 and 0 for the first ten tiles) while the table has the focus and the
// shortcuts are on (issue 32). Without JavaScript the page shows the new state and every
// move at once; the forms post and redirect.
function tileButtons() {
  return Array.from(document.querySelectorAll(".play-hand button.tile-button"));
}

// The board's pieces a move adds (a discard in the seat's river, a meld), hidden until the
// list reaches the move: the board and the move list advance together (issue 28). Returns,
// for each move, the element it shows (or null). The first `seen` moves are shown already.
function boardPieces(table, items, seen = 0) {
  const pending = {river: {}, meld: {}};
  items.forEach((item, at) => {
    if (at === 0 || at < seen || item.dataset.seat === undefined) return;
    for (const kind of ["river", "meld"]) {
      if (item.hasAttribute(`data-${kind}`)) {
        (pending[kind][item.dataset.seat] ||= []).push(at);
      }
    }
  });
  const shows = items.map(() => null);
  for (const [kind, selector] of [["river", ".seat-river[data-seat='S'] .river-tiles > .tile"],
                                  ["meld", ".seat.seat-S .seat-melds > .meld"]]) {
    for (const [seat, ats] of Object.entries(pending[kind])) {
      const pieces = Array.from(table.querySelectorAll(selector.replace("S", seat)));
      const last = pieces.slice(-ats.length);
      if (last.length !== ats.length) continue;  // the board doesn't match: show it all
      last.forEach((piece, i) => { piece.hidden = true; shows[ats[i]] = piece; });
    }
  }
  return shows;
}

// A claim's tile, outlined in the discarder's river, brought into the part of the window
// above your hand (on a phone the rivers start below it).
function showClaim(table) {
  const tile = table.querySelector(".play-board[data-claim-seat] .seat-river .tile.is-last");
  const form = table.querySelector(".play-actions");
  if (!tile || !form || tile.hidden) return;
  const box = tile.getBoundingClientRect();
  const bottom = form.getBoundingClientRect().top;
  if (box.top >= 0 && box.bottom <= bottom) return;
  window.scrollBy(0, box.top - Math.max(0, (bottom - box.height) / 2));
}

// `root` is the swapped table, or the document on a full page load (which has no closest()).
// A table's `data-seen` (a table with friends, swapped at each step: static/js/tables.js)
// counts the moves at the top of its list that the page showed already: only the ones after
// them are narrated.
function revealMoves(root) {
  const list = root.querySelector(".play-moves");
  const table = root.id === "play-table" ? root : root.querySelector("#play-table");
  if (!table) return;
  announceTable(table);
  focusDecision(table);
  if (!list) {
    showClaim(table);
    return;
  }
  const speed = Number(table.dataset.speed || 0);
  const items = Array.from(list.children);
  const seen = Math.min(Number(table.dataset.seen || 0), items.length);
  if (!speed || items.length - seen < 2) {
    showClaim(table);
    return;
  }
  const shows = boardPieces(table, items, seen);
  items.forEach((item, at) => { item.hidden = at >= seen; });
  table.classList.add("is-narrating");
  let shown = seen;
  const reveal = () => {
    items[shown].hidden = false;
    items[shown].classList.add("is-new");
    if (shows[shown]) shows[shown].hidden = false;
    if (shown > 0) items[shown - 1].classList.remove("is-new");
    list.scrollTop = list.scrollHeight;
    shown += 1;
  };
  reveal();
  const timer = setInterval(() => {
    if (shown < items.length) reveal();
    if (shown >= items.length) {
      clearInterval(timer);
      table.classList.remove("is-narrating");
      showClaim(table);
    }
  }, speed);
}

// The table's news (its data-announce: the moves since your last one, what is asked now)
// said in the live region: the moves the page said already (a table with friends
// refreshes mid-list: data-seen) are skipped, and the same question is not said twice.
let announced = null;
function announceTable(table) {
  let news = null;
  try { news = JSON.parse(table.dataset.announce || "null"); } catch (error) { news = null; }
  if (!news || !window.announce) return;
  const seen = Math.min(Number(table.dataset.seen || 0), news.moves.length);
  const lines = news.moves.slice(seen);
  const key = `${table.dataset.step}|${news.now}`;
  if (!lines.length && key === announced) return;
  announced = key;
  if (news.now) lines.push(news.now);
  window.announce(lines.join(news.sep || " "));
}

// A new decision takes the focus to its first choice (a tile of the hand, else the first
// button: 14 Tabs to "Pass" before), unless the focus is somewhere on purpose.
let focusedStep = null;
function focusDecision(table) {
  const active = document.activeElement;
  if (active && active !== document.body && active !== table && active.isConnected) return;
  if (focusedStep === table.dataset.step) return;
  const first = table.querySelector(
    ".play-actions button.tile-button, .play-actions .exchange-pick input, .play-actions .play-buttons button");
  if (!first) return;
  focusedStep = table.dataset.step;
  first.focus();
}
window.focusDecision = focusDecision;

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (!window.shortcutsFor || !window.shortcutsFor(document.getElementById("play-table"))) return;
  const target = event.target;
  if (target && ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return;
  const buttons = tileButtons();
  if (!buttons.length) return;
  const at = buttons.indexOf(document.activeElement);
  if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
    event.preventDefault();
    const step = event.key === "ArrowRight" ? 1 : -1;
    const next = at < 0 ? (step > 0 ? 0 : buttons.length - 1)
                        : (at + step + buttons.length) % buttons.length;
    buttons[next].focus();
  } else if (/^[0-9]$/.test(event.key)) {
    const index = event.key === "0" ? 9 : Number(event.key) - 1;
    if (buttons[index]) {
      event.preventDefault();
      buttons[index].focus();
      buttons[index].click();
    }
  }
});

// After htmx swaps the table: say and replay its moves, the focus on the new decision.
document.addEventListener("htmx:afterSwap", (event) => {
  focusedStep = null;  // the player's own request (an answer, the hint): focus again
  revealMoves(event.target.id === "play-table" ? event.target : document);
});

// A second click while an answer is on its way would only be refused as stale: ignore it.
document.addEventListener("htmx:beforeRequest", (event) => {
  const form = event.target.closest && event.target.closest(".play-actions");
  if (form) form.classList.add("is-sending");
});

revealMoves(document);

// 换三张 (SC-H1): count the ticked tiles; the confirm button waits for three of one suit
// (without JavaScript the server refuses anything else, naming SC-H1).
function syncExchange(root) {
  const pick = root.querySelector(".exchange-pick");
  if (!pick) return;
  const form = pick.closest("form");
  const ticked = Array.from(pick.querySelectorAll("input:checked"));
  const suits = new Set(ticked.map((input) => input.value.slice(-1)));
  const button = form.querySelector('.exchange-confirm button[value="exchange"]');
  const count = form.querySelector(".exchange-count");
  if (button) button.disabled = !(ticked.length === 3 && suits.size === 1);
  if (count) count.textContent = `${ticked.length}/3`;
}

document.addEventListener("change", (event) => {
  if (event.target.matches && event.target.matches(".exchange-pick input[type=checkbox]")) {
    syncExchange(document);
    const count = document.querySelector(".exchange-count");
    if (count && window.announce) window.announce(count.textContent);  // the page's one region
  }
});
document.addEventListener("htmx:afterSwap", () => syncExchange(document));
syncExchange(document);
