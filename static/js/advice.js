/* Handicap and komi advice on the record sheet (templates/ratings/sheet_new.html).
   When both names of a game row are filled in, ask the server (htmx) what the
   list's primary system prescribes for that pairing; the answer is shown under
   the row's handicap and komi and fills them in, unless the volunteer typed a
   handicap or komi of their own in that row, or the rule gives White to the
   other player (then it is only shown). If the volunteer is in one of those
   fields when the answer arrives, the filled value is selected, so that what
   they type replaces it. */
"use strict";

(function () {
  const NAME = /^row-(\d+)-(white|black)$/;
  const script = document.currentScript;
  const ADVICE_URL = (script && script.dataset.adviceUrl) || "/sheets/new/advice/";

  function field(form, n, name) {
    return form.elements.namedItem(`row-${n}-${name}`);
  }

  function adviceBox(row, n) {
    let box = document.getElementById(`row-${n}-advice`);
    if (!box) {
      box = document.createElement("p");
      box.id = `row-${n}-advice`;
      box.className = "advice";
      box.setAttribute("aria-live", "polite");
      const terms = row.querySelector(".game-terms");
      if (terms) terms.insertAdjacentElement("afterend", box);
      else row.appendChild(box);
    }
    return box;
  }

  function ask(form, n) {
    const white = field(form, n, "white");
    const black = field(form, n, "black");
    const row = white && white.closest(".game-row");
    if (!row || !white.value.trim() || !black || !black.value.trim() || !window.htmx) return;
    const club = form.elements.namedItem("club");
    const day = field(form, n, "date");
    const sheetDay = form.elements.namedItem("date");
    const box = adviceBox(row, n);
    window.htmx.ajax("GET", ADVICE_URL, {
      target: box,
      swap: "innerHTML",
      values: {
        club: club ? club.value : "",
        white: white.value,
        black: black.value,
        date: (day && day.value) || (sheetDay && sheetDay.value) || "",
      },
    });
  }

  document.addEventListener("change", (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.form) return;
    const match = NAME.exec(input.name);
    if (match) ask(input.form, match[1]);
  });

  document.addEventListener("input", (event) => {
    const input = event.target;
    if (input instanceof HTMLInputElement && /^row-\d+-(handicap|komi)$/.test(input.name)) {
      input.dataset.ownValue = "1";
    }
  });

  document.addEventListener("htmx:afterSwap", (event) => {
    const box = event.detail.target;
    if (!box || !box.id || !/^row-\d+-advice$/.test(box.id)) return;
    const hint = box.querySelector(".advice-hint");
    const n = box.id.split("-")[1];
    const form = box.closest("form");
    if (!hint || !form || hint.dataset.swapped) return;
    const handicap = field(form, n, "handicap");
    const komi = field(form, n, "komi");
    if (!handicap || !komi || handicap.dataset.ownValue || komi.dataset.ownValue || komi.dataset.touched) return;
    // Setting a value moves the caret to its end: in a field the volunteer is in, select
    // what was filled so that what they type replaces it ("4" typed stays 4, not 54).
    for (const [input, value] of [[handicap, hint.dataset.stones], [komi, hint.dataset.komi]]) {
      input.value = value;
      if (document.activeElement === input) input.select();
    }
  });
})();
