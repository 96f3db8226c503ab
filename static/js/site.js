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

/* The menu button: on a phone the navigation folds behind it; it opens and
   closes the whole menu, and Escape closes it again. */
document.addEventListener("DOMContentLoaded", () => {
  const button = document.querySelector(".menu-toggle");
  const menu = button && document.getElementById(button.getAttribute("aria-controls"));
  if (!button || !menu) return;
  button.closest("nav").classList.add("folding");
  button.hidden = false;
  const open = (yes) => {
    button.setAttribute("aria-expanded", String(yes));
    menu.classList.toggle("open", yes);
  };
  button.addEventListener("click", () => open(button.getAttribute("aria-expanded") !== "true"));
  menu.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.classList.contains("open")) {
      open(false);
      button.focus();
    }
  });
});

/* A table too wide for the screen scrolls inside its box: the box takes the
   keyboard's focus (so it scrolls with the arrow keys) and is named after its
   table's caption or the heading before it (WCAG 2.1.1, axe's
   scrollable-region-focusable).  Checked again when the window is resized
   and when htmx swaps content in. */
function nameScrollingTables(root) {
  for (const box of root.querySelectorAll(".table-container, .table-scroll")) {
    if (box.scrollWidth > box.clientWidth + 1) {
      if (!box.hasAttribute("tabindex")) {
        box.tabIndex = 0;
        box.setAttribute("role", "region");
        if (!box.hasAttribute("aria-label") && !box.hasAttribute("aria-labelledby")) {
          const caption = box.querySelector("caption");
          let heading = box.previousElementSibling;
          while (heading && !/^H[1-6]$/.test(heading.tagName)) heading = heading.previousElementSibling;
          const name = (caption || heading || document.querySelector("h1"))?.textContent.trim() || "Table";
          box.setAttribute("aria-label", `${name} (scrolls sideways)`);
        }
      }
    } else if (box.getAttribute("role") === "region" && box.tabIndex === 0) {
      box.removeAttribute("tabindex");
      box.removeAttribute("role");
    }
  }
}
document.addEventListener("DOMContentLoaded", () => nameScrollingTables(document));
window.addEventListener("resize", () => nameScrollingTables(document));
document.addEventListener("htmx:afterSettle", () => nameScrollingTables(document));

/* The record sheet on a phone: "More" opens a game's card on all its columns. */
document.addEventListener("click", (event) => {
  const button = event.target instanceof Element && event.target.closest("button.row-more");
  if (!button) return;
  const open = button.getAttribute("aria-expanded") !== "true";
  button.setAttribute("aria-expanded", String(open));
  button.closest("tr")?.classList.toggle("open", open);
});
