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
