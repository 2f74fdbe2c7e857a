// The start form: only the chosen variant's rules options are shown. Without JavaScript
// every variant's options are shown, and the server reads only the chosen variant's.
function showChosenVariantOptions() {
  const select = document.getElementById("id_variant");
  if (!select) return;
  const update = () => {
    document.querySelectorAll("fieldset.play-options").forEach((fieldset) => {
      fieldset.hidden = fieldset.dataset.variant !== select.value;
    });
  };
  select.addEventListener("change", update);
  update();
}

showChosenVariantOptions();

// A start refused by a limit (409: too many matches in progress, 429: too many starts) or a
// bad value (400) comes back as the start form's fragment with the reason: show it (htmx
// leaves 4xx responses unswapped by default).
document.addEventListener("htmx:beforeSwap", (event) => {
  const status = event.detail.xhr.status;
  const target = event.detail.target;
  if ((status === 400 || status === 409 || status === 429) && target &&
      target.id === "play-start") {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
