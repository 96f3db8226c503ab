/* Behaviour every page may use, kept out of the templates so that the
   Content-Security-Policy can forbid inline scripts (clubrating/settings.py).
   - <form data-confirm="question">: asks before submitting.
   - <select data-autosubmit>: submits its form when changed.
   - <button data-print>: prints the page.
   - #improbable [data-row="ID"]: outlines the game row ID the entry check flagged. */
"use strict";

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
    event.preventDefault();
  }
});

document.addEventListener("change", (event) => {
  const field = event.target;
  if (field instanceof HTMLSelectElement && field.hasAttribute("data-autosubmit") && field.form) {
    field.form.requestSubmit();
  }
});

document.addEventListener("DOMContentLoaded", () => {
  for (const item of document.querySelectorAll("#improbable [data-row]")) {
    document.getElementById(item.dataset.row)?.classList.add("flagged-row");
  }
});

document.addEventListener("click", (event) => {
  if (event.target instanceof Element && event.target.closest("button[data-print]")) {
    window.print();
  }
});
