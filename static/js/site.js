/* Behaviour every page may use, kept out of the templates so that the
   Content-Security-Policy can forbid inline scripts (clubrating/settings.py).
   - <form data-confirm="question">: asks before submitting. */
"use strict";

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
    event.preventDefault();
  }
});
