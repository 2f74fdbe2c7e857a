// The language select switches the site when a language is picked with the pointer. From the
// keyboard, arrow keys only move through the choices (ArrowRight used to switch the site at
// once); the "Go" button next to it, shown then, or Enter confirms.
const languageSelect = document.getElementById("language");
if (languageSelect) {
  const go = languageSelect.form.querySelector(".language-go");
  let byKeyboard = false;
  if (go) go.hidden = true;
  languageSelect.addEventListener("pointerdown", () => { byKeyboard = false; });
  languageSelect.addEventListener("keydown", (event) => {
    byKeyboard = true;
    if (event.key === "Enter" && languageSelect.value !== languageSelect.dataset.current) {
      event.preventDefault();
      languageSelect.form.submit();
    }
  });
  languageSelect.addEventListener("change", () => {
    if (!byKeyboard) {
      languageSelect.form.submit();
    } else if (go) {
      go.hidden = languageSelect.value === languageSelect.dataset.current;
    }
  });
}

// A refused request (429: over a rate limit, 413: too big) comes back with the reason in
// the fragment htmx asked for: show it (htmx leaves 4xx responses unswapped by default).
document.addEventListener("htmx:beforeSwap", (event) => {
  const status = event.detail.xhr.status;
  if (status === 413 || status === 429) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});

// A form on its way can't be sent twice: its submit buttons are disabled until the next page
// arrives (an upload or a match's last move may take a moment). The forms htmx posts disable
// theirs with hx-disabled-elt; htmx has already cancelled their submit event here. Disabled
// after the event, so the clicked button's name and value are still sent.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (event.defaultPrevented || !(form instanceof HTMLFormElement)) return;
  if (form.hasAttribute("hx-post")) return;
  const buttons = Array.from(form.querySelectorAll("button:not([type]), button[type=submit], input[type=submit]"));
  setTimeout(() => buttons.forEach((button) => {
    button.disabled = true;
    button.dataset.sending = "true";
  }), 0);
});

// Back to a page the browser kept (the back button): its buttons work again.
window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  document.querySelectorAll("[data-sending]").forEach((button) => {
    button.disabled = false;
    delete button.dataset.sending;
  });
});
