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

// The rules presets (issue 29): choosing one fills the options it governs; changing one
// of those options by hand makes the rules custom. Without JavaScript the server applies
// the chosen preset to the options it governs.
function linkPresetsToOptions() {
  document.querySelectorAll("fieldset.play-options").forEach((fieldset) => {
    const variant = fieldset.dataset.variant;
    const radios = fieldset.querySelectorAll(`input[name="${variant}-preset"]`);
    if (!radios.length) return;
    const field = (name) => fieldset.querySelector(`#id_${variant}-${name}`);
    const fill = (values) => {
      Object.entries(values).forEach(([name, value]) => {
        const input = field(name);
        if (!input) return;
        if (input.type === "checkbox") input.checked = Boolean(value);
        else input.value = String(value);
      });
    };
    radios.forEach((radio) => {
      radio.addEventListener("change", () => {
        if (radio.checked && radio.dataset.values) fill(JSON.parse(radio.dataset.values));
      });
      if (radio.checked && radio.dataset.values) fill(JSON.parse(radio.dataset.values));
    });
    fieldset.querySelectorAll("[data-governed] input, [data-governed] select").forEach((input) => {
      input.addEventListener("change", () => {
        const custom = fieldset.querySelector(`input[name="${variant}-preset"][value="custom"]`);
        if (custom) custom.checked = true;
      });
    });
  });
}

linkPresetsToOptions();

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
