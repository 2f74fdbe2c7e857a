// Keyboard stepping: each key follows the matching control link (htmx swaps the board).
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target && ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return;
  const link = document.querySelector(`.controls a[data-key="${CSS.escape(event.key)}"]`);
  if (link) {
    event.preventDefault();
    link.click();
  }
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
