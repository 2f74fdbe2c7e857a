// Drag and drop onto the upload zone fills the file input.
const zone = document.getElementById("upload-zone");
if (zone) {
  const input = zone.querySelector("input[type=file]");
  ["dragenter", "dragover"].forEach((name) => zone.addEventListener(name, (event) => {
    event.preventDefault();
    zone.classList.add("is-dragover");
  }));
  ["dragleave", "drop"].forEach((name) => zone.addEventListener(name, () => {
    zone.classList.remove("is-dragover");
  }));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    if (event.dataTransfer && event.dataTransfer.files.length) {
      input.files = event.dataTransfer.files;
    }
  });
}
