// Shared by the tables, the replay viewer and the puzzles (issue 32, docs/accessibility.md):
// the page's one polite live region (#announcer, outside the parts htmx swaps) and the
// switch of the single-key shortcuts (WCAG 2.1.4), remembered in this browser.
(function () {
  "use strict";
  var KEY = "mahjong-shortcuts";
  var pending = null;

  // Say `text` in the live region: emptied first and written a moment later, so that the
  // same news twice (two discards of one tile) is said twice.
  function announce(text) {
    var region = document.getElementById("announcer");
    if (!region || !text) { return; }
    region.textContent = "";
    window.clearTimeout(pending);
    pending = window.setTimeout(function () { region.textContent = text; }, 150);
  }

  function shortcutsOn() {
    try { return window.localStorage.getItem(KEY) !== "off"; } catch (e) { return true; }
  }

  // A shortcut key acts only while the switch is on and the focus is inside `scope` (the
  // table, the replay's board): a digit typed anywhere else on the page does nothing.
  function shortcutsFor(scope) {
    var active = document.activeElement;
    return shortcutsOn() && !!scope && !!active && scope.contains(active);
  }

  // The switch is shown where there is a keyboard (a pointer that hovers, as the keys' help).
  function wireSwitch() {
    var keyboard = window.matchMedia("(hover: hover) and (pointer: fine)").matches;
    document.querySelectorAll(".shortcuts-switch").forEach(function (box) {
      var input = box.querySelector("input.shortcuts-on");
      box.hidden = !keyboard;
      input.checked = shortcutsOn();
      input.addEventListener("change", function () {
        try { window.localStorage.setItem(KEY, input.checked ? "on" : "off"); } catch (e) { /* private mode */ }
      });
    });
  }

  window.announce = announce;
  window.shortcutsOn = shortcutsOn;
  window.shortcutsFor = shortcutsFor;
  wireSwitch();
})();
