// Every page: the language switcher submits its form when a language is chosen (a file
// rather than an onchange attribute, which the Content Security Policy refuses).
document.querySelectorAll("form.language-switcher select").forEach((select) => {
  select.addEventListener("change", () => select.form.submit());
});

// A refused request (429: over a rate limit, 413: too big) comes back with the reason in
// the fragment htmx asked for: show it (htmx leaves 4xx responses unswapped by default).
document.addEventListener("htmx:beforeSwap", (event) => {
  const status = event.detail.xhr.status;
  if (status === 413 || status === 429) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
