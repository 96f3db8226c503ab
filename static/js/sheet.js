/* Record-sheet entry (templates/ratings/sheet_new.html).
   - nextRow(): the number of the next game row, sent by the "Add a game" button;
     "Remove" takes a row off.  Here, not in hx-vals/hx-on attributes: the
     Content-Security-Policy forbids eval and inline scripts.
   - Komi follows the handicap (6.5 even, 0.5 with handicap; ratings/services.py
     default_komi) until the volunteer types a komi of their own. */
"use strict";

function nextRow() {
  let last = -1;
  document.querySelectorAll(".game-row[data-row]").forEach((row) => {
    last = Math.max(last, parseInt(row.dataset.row, 10) || 0);
  });
  return last + 1;
}

document.addEventListener("input", (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || !input.form) return;
  if (input.name.endsWith("-komi")) {
    input.dataset.touched = "1";
  } else if (input.name.endsWith("-handicap")) {
    const komi = input.form.elements.namedItem(input.name.replace(/handicap$/, "komi"));
    if (komi && !komi.dataset.touched) {
      komi.value = parseInt(input.value || "0", 10) > 0 ? "0.5" : "6.5";
    }
  }
});

/* "+ Add a game" asks for row number nextRow(). */
document.addEventListener("htmx:configRequest", (event) => {
  if (event.detail.elt && event.detail.elt.classList.contains("add-row")) {
    event.detail.parameters.n = nextRow();
  }
});

/* "Remove" takes its game row off the page. */
document.addEventListener("click", (event) => {
  const button = event.target instanceof Element ? event.target.closest(".remove-row") : null;
  if (button) {
    const row = button.closest(".game-row");
    if (row) row.remove();
  }
});

/* A new row scrolls into view and its first name field gets the focus. */
document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.target && event.detail.target.id === "rows") {
    const rows = event.detail.target.querySelectorAll(".game-row");
    const row = rows[rows.length - 1];
    if (row) {
      row.scrollIntoView({ block: "nearest" });
      const first = row.querySelector("input[type=text]");
      if (first) first.focus();
    }
  }
});
