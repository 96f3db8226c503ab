/* Record-sheet entry (templates/ratings/sheet_new.html).
   - nextRow(): the number of the next game row, sent by the "Add a game" button;
     "Remove" takes a row off.  Here, not in hx-vals/hx-on attributes: the
     Content-Security-Policy forbids eval and inline scripts.
   - Komi follows the handicap (6.5 even, 0.5 with handicap; ratings/services/rows.py
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

/* What the name check sends besides the club and this field's own rank:
   the field's name, and the new players (name and starting rank) of the
   rows above it, so that it can answer "new, 15k (game 1)".  Only those:
   a whole long sheet would not fit in a URL. */
/* The name check of a player field (data-sheet-check) also sends the new
   players of the rows above it: added to the request here, since the
   Content-Security-Policy forbids htmx's evaluated hx-vals="js:...". */
document.addEventListener("htmx:configRequest", (event) => {
  const input = event.detail.elt;
  if (input instanceof HTMLInputElement && input.hasAttribute("data-sheet-check")) {
    Object.assign(event.detail.parameters, sheetCheckValues(input));
  }
});

function sheetCheckValues(input) {
  const values = { field: input.name };
  const here = input.closest(".game-row");
  for (const row of document.querySelectorAll("#rows .game-row")) {
    if (row === here) break;
    row.querySelectorAll(".rank-input input").forEach((rank) => {
      const name = document.getElementsByName(rank.name.replace(/_rank$/, ""))[0];
      if (rank.value.trim() && name) {
        values[name.name] = name.value;
        values[rank.name] = rank.value;
      }
    });
  }
  return values;
}

/* Keyboard: Enter in a field of the sheet never submits it.  In a game row it
   moves to the next row's first name (adding a row at the end); in the
   header, to the first row.  Buttons, <summary> and textareas keep Enter. */
function firstField(row) {
  return row.querySelector('input[type=text]');
}

document.addEventListener("keydown", (event) => {
  const input = event.target;
  if (event.key !== "Enter" || event.isComposing || !(input instanceof HTMLElement)) return;
  if (!input.closest(".sheet-form") || !(input instanceof HTMLInputElement || input instanceof HTMLSelectElement)) return;
  if (input.type === "submit" || input.type === "button") return;
  event.preventDefault();
  const rows = Array.from(document.querySelectorAll("#rows .game-row"));
  const here = input.closest(".game-row");
  const next = here ? rows[rows.indexOf(here) + 1] : rows[0];
  if (next) {
    firstField(next).focus();
  } else {
    document.querySelector("button.add-row").click(); /* the new row takes the focus */
  }
});

/* Tab out of a name the list does not know: the rank field appears after the
   check answers, and takes the focus (the keyboard order is name, rank). */
let rankFor = null;
document.addEventListener("keydown", (event) => {
  const input = event.target;
  if (event.key === "Tab" && !event.shiftKey && input instanceof HTMLInputElement && input.hasAttribute("data-sheet-check")) {
    rankFor = { id: input.id, next: nextAfter(input.id) };
  }
});

document.addEventListener("htmx:afterSwap", (event) => {
  const target = event.detail.target;
  if (!target || !target.classList || !target.classList.contains("player-status")) return;
  /* did you mean: the existing player is offered first */
  const rank = target.querySelector(".pick-player") || target.querySelector(".rank-input input");
  if (rankFor && target.id === `${rankFor.id}-status`) {
    const active = document.activeElement;
    /* only if the focus has not gone somewhere chosen by a click meanwhile */
    if (rank && (active === document.body || active === null || active === rankFor.next)) rank.focus();
    rankFor = null;
  }
});

function nextAfter(id) {
  /* the form of the field: a sheet, an added game or a correction */
  const form = document.getElementById(id).form;
  if (!form) return null;
  const fields = Array.from(form.querySelectorAll("input, select, button, summary"));
  const at = fields.findIndex((f) => f.id === id);
  for (let i = at + 1; i < fields.length; i += 1) {
    if (fields[i].tabIndex >= 0 && !fields[i].disabled && fields[i].offsetParent !== null) return fields[i];
  }
  return null;
}

/* A starting rank typed or changed: later rows naming the same new player
   ask the server again, which now answers "new, <rank> (game n)". */
function sameName(a, b) {
  return a.normalize("NFC").toLocaleLowerCase().replace(/\s+/g, " ").trim() ===
    b.normalize("NFC").toLocaleLowerCase().replace(/\s+/g, " ").trim();
}

document.addEventListener("change", (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || !/^row-\d+-(white|black)_rank$/.test(input.name)) return;
  const nameField = document.getElementsByName(input.name.replace(/_rank$/, ""))[0];
  const here = input.closest(".game-row");
  if (!nameField || !nameField.value.trim() || !here) return;
  let after = false;
  document.querySelectorAll("#rows .game-row").forEach((row) => {
    if (row === here) { after = true; return; }
    if (!after) return;
    row.querySelectorAll("input[data-sheet-check]").forEach((other) => {
      if (sameName(other.value, nameField.value)) htmx.trigger(other, "change");
    });
  });
});

/* "Did you mean François Dupont?": a click puts the existing player's name in
   the field, which the server then confirms (✓ and their rank). */
document.addEventListener("click", (event) => {
  const button = event.target instanceof Element ? event.target.closest(".pick-player") : null;
  if (!button) return;
  const input = button.closest(".player-field").querySelector("input[data-sheet-check]");
  input.value = button.dataset.name;
  htmx.trigger(input, "change");
  rankFor = null;
  input.focus();
});

/* Type-ahead: while a name is typed, the players it may mean, ranked by the
   server (ratings.names through /sheets/new/suggest/: accents, word order,
   typos; then recent activity and the club's members), in a listbox under
   the field.  Down and Up move through them, Enter picks one (the name
   check then runs as on leaving the field), Escape closes the list; a tap
   or a click picks one too.  The <datalist> is for browsers without this
   script: it matches substrings only, so it is switched off here. */
let suggestTimer = null;
let suggestSeq = 0;

function suggestBox(input) {
  return document.getElementById(`${input.id}-suggest`);
}

function suggestOptions(input) {
  const box = suggestBox(input);
  return box ? Array.from(box.querySelectorAll('[role="option"]')) : [];
}

function closeSuggestions(input) {
  const box = suggestBox(input);
  if (box) box.innerHTML = "";
  input.setAttribute("aria-expanded", "false");
  input.removeAttribute("aria-activedescendant");
}

function pickSuggestion(input, option) {
  input.value = option.dataset.name;
  closeSuggestions(input);
  htmx.trigger(input, "change");
}

function isSuggesting(element) {
  return element instanceof HTMLInputElement && element.hasAttribute("data-suggest");
}

document.addEventListener("focusin", (event) => {
  const input = event.target;
  if (!isSuggesting(input) || input.dataset.suggestOn) return;
  input.dataset.suggestOn = "1";
  input.removeAttribute("list");
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
});

document.addEventListener("input", (event) => {
  const input = event.target;
  if (!isSuggesting(input)) return;
  clearTimeout(suggestTimer);
  const text = input.value.trim();
  if (text.length < 2) {
    suggestSeq += 1;
    closeSuggestions(input);
    return;
  }
  suggestTimer = setTimeout(() => fetchSuggestions(input, text), 200);
});

function fetchSuggestions(input, text) {
  suggestSeq += 1;
  const seq = suggestSeq;
  const club = document.getElementById("id_club");
  const params = new URLSearchParams({ q: text, field: input.name, club: club ? club.value : "" });
  fetch(`${input.dataset.suggest}?${params}`, { credentials: "same-origin" })
    .then((response) => (response.ok ? response.text() : ""))
    .then((html) => {
      /* a later keystroke, or the focus gone: this answer is stale */
      if (seq !== suggestSeq || document.activeElement !== input) return;
      const box = suggestBox(input);
      if (!box) return;
      box.innerHTML = html;
      input.setAttribute("aria-expanded", suggestOptions(input).length ? "true" : "false");
    })
    .catch(() => {});
}

/* In the capture phase: Enter on a chosen player picks it and goes no
   further (the sheet's own Enter moves to the next row). */
document.addEventListener("keydown", (event) => {
  const input = event.target;
  if (!isSuggesting(input)) return;
  const items = suggestOptions(input);
  if (!items.length) return;
  const at = items.findIndex((option) => option.classList.contains("active"));
  if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    event.preventDefault();
    const next = event.key === "ArrowDown" ? (at + 1) % items.length : (at <= 0 ? items.length - 1 : at - 1);
    items.forEach((option, i) => {
      option.classList.toggle("active", i === next);
      option.setAttribute("aria-selected", i === next ? "true" : "false");
    });
    input.setAttribute("aria-activedescendant", items[next].id);
    items[next].scrollIntoView({ block: "nearest" });
  } else if (event.key === "Enter" && at >= 0) {
    event.preventDefault();
    event.stopImmediatePropagation();
    pickSuggestion(input, items[at]);
  } else if (event.key === "Escape") {
    closeSuggestions(input);
  }
}, true);

/* A click or a tap picks a player; mousedown, so that the field keeps the focus. */
document.addEventListener("mousedown", (event) => {
  const option = event.target instanceof Element ? event.target.closest('.suggestions [role="option"]') : null;
  if (!option) return;
  event.preventDefault();
  const input = document.getElementById(option.closest(".suggest").id.replace(/-suggest$/, ""));
  if (input) pickSuggestion(input, option);
});

document.addEventListener("focusout", (event) => {
  const input = event.target;
  if (!isSuggesting(input)) return;
  clearTimeout(suggestTimer);
  suggestSeq += 1;
  closeSuggestions(input);
});
