// The page's script: no library, no network but its own server. User text is put into the
// page as text (textContent); only HTML our own renderer made (escaped) goes in as HTML.
"use strict";

const DEBOUNCE_MS = 250;
const $ = (id) => document.getElementById(id);
const user = Math.random().toString(36).slice(2) + Date.now().toString(36);
const solve = { seq: 0, shown: 0, timer: null, html: "" };
const checking = { seq: 0, shown: 0 };

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...body, user }),
  });
  return response;
}

function settings() {
  return {
    toml: $("spec").value,
    lang: $("lang").value,
    // empty: the spec's own decimals (its `decimals = N`), else 2, as `derive` does
    decimals: $("decimals").value === "" ? null : Number.parseInt($("decimals").value, 10),
    detail: $("detail").value,
    limit: $("limit").value,
  };
}

// ------------------------------------------------------------------ the solution
function schedule() {
  clearTimeout(solve.timer);
  solve.timer = setTimeout(derive, DEBOUNCE_MS);
  drawGutter();
}

async function derive() {
  const seq = ++solve.seq;
  $("status").textContent = "Deriving…";
  const sent = settings();
  let answer;
  try {
    // The solution first; the spec's claims are checked in a second request (markClaims).
    const response = await post("/api/solve", { ...sent, seq, marks: false });
    answer = await response.json();
  } catch (error) {
    if (seq === solve.seq) $("status").textContent = "The server does not answer.";
    return;
  }
  answer.seq ??= seq; // a refused request (too large, not JSON) is this edit's answer too
  // Only the answer to the newest edit is shown: a stale one never replaces a newer input's.
  if (answer.superseded || answer.seq !== solve.seq || answer.seq <= solve.shown) return;
  solve.shown = answer.seq;
  if (answer.grids) drawGrids(answer.grids);
  if (answer.ok) {
    showSolution(answer);
    showError(null);
    $("status").textContent = answer.marks_later ? "Checking the spec's claims…" : "";
    if (answer.marks_later) markClaims(sent, seq);
  } else {
    $("solution").classList.add("stale");
    showError(answer);
    $("status").textContent = "The last good solution, dimmed, until the spec is right again.";
  }
}

function showSolution(answer) {
  $("solution").innerHTML = answer.html;
  solve.html = answer.html;
  $("solution").classList.remove("stale");
  placeHeatmaps(answer.heatmaps || []);
}

// ``redraw`` with the focus kept on the same heatmap entry (found again by its label).
function keepingFocus(redraw) {
  const focused = document.activeElement;
  const label = $("solution").contains(focused) ? focused.getAttribute("aria-label") : null;
  redraw();
  if (!label) return;
  for (const cell of $("solution").querySelectorAll("[aria-label]")) {
    if (cell.getAttribute("aria-label") === label) return cell.focus();
  }
}

// The same solution with each claim marked; dropped when a newer edit came meanwhile (the
// server stops it then too: the same page's next solve supersedes it).
async function markClaims(sent, seq) {
  let answer;
  try {
    answer = await (await post("/api/solve", { ...sent, seq, marks: true })).json();
  } catch (error) {
    answer = { ok: false, error: "The server does not answer." };
  }
  if (answer.superseded || seq !== solve.seq || seq !== solve.shown) return;
  // Claims that all hold change nothing: the solution (and the reader's focus) stays.
  if (answer.ok && answer.html !== solve.html) keepingFocus(() => showSolution(answer));
  $("status").textContent = answer.ok ? "" : `The claims were not checked: ${answer.error}`;
}

function showError(answer) {
  const box = $("spec-error");
  for (const control of document.querySelectorAll("[aria-invalid]")) {
    control.removeAttribute("aria-invalid");
  }
  solve.badLine = null;
  for (const other of document.querySelectorAll("fieldset .field-error")) other.hidden = true;
  if (!answer) {
    box.hidden = true;
    drawGutter();
    return;
  }
  box.hidden = false;
  box.textContent = answer.error;
  box.dataset.field = answer.field || "";
  if (answer.line) {
    solve.badLine = answer.line;
    box.textContent = `line ${answer.line}: ${answer.error}`;
  }
  $("spec").setAttribute("aria-invalid", "true");
  for (const control of document.querySelectorAll(`[data-key="${answer.field}"]`)) {
    control.setAttribute("aria-invalid", "true");
    const near = control.closest("fieldset").querySelector(".field-error");
    near.hidden = false;
    near.textContent = answer.error;
  }
  drawGutter();
}

function drawGutter() {
  const lines = $("spec").value.split("\n").length;
  const gutter = $("gutter");
  gutter.textContent = "";
  for (let n = 1; n <= lines; n++) {
    const line = document.createElement("span");
    line.textContent = String(n);
    if (n === solve.badLine) line.className = "bad";
    gutter.append(line, "\n");
  }
  gutter.scrollTop = $("spec").scrollTop;
}

// ------------------------------------------------------------------ heatmaps
function placeHeatmaps(maps) {
  for (const map of maps) {
    const section = document.getElementById(map.key);
    if (section) section.after(heatmap(map));
  }
}

function shade(value) {
  if (value === null || Number.isNaN(value)) return "#eee";
  const light = Math.round(97 - 55 * Math.max(0, Math.min(1, value)));
  return `hsl(212 60% ${light}%)`;
}

function heatmap(map) {
  const figure = document.createElement("figure");
  figure.className = "heatmap-grid";
  figure.dataset.key = map.key;
  const caption = document.createElement("figcaption");
  // Its words come in the solution's language; symbolic weights are drawn at the numbers
  // the solution chose (the caption says so).
  const at = map.chosen ? ` ${map.words.at_chosen}` : "";
  caption.textContent = map.words.caption;
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  head.append(document.createElement("th"));
  for (const key of map.keys) {
    const th = document.createElement("th");
    th.textContent = key;
    head.append(th);
  }
  const detail = document.createElement("div");
  detail.className = "entry-detail";
  detail.setAttribute("aria-live", "polite");
  const body = table.createTBody();
  map.rows.forEach((row, i) => {
    const tr = body.insertRow();
    const th = document.createElement("th");
    th.textContent = map.queries[i];
    tr.append(th);
    row.forEach((cell, j) => {
      const td = tr.insertCell();
      td.tabIndex = 0;
      td.textContent = cell.decimal ?? "…";
      td.style.background = shade(cell.shade);
      if (cell.shade !== null && cell.shade > 0.6) td.style.color = "#fff";
      const where = `α[${i + 1},${j + 1}], ${map.queries[i]} → ${map.keys[j]}`;
      const value = map.chosen ? ` ≈ ${cell.decimal}${at}` : ` = ${cell.text}${cell.decimal ? " ≈ " + cell.decimal : ""}`;
      td.setAttribute("aria-label", `${where}${value}`);
      const show = () => showEntry(detail, map, i, j, where);
      td.addEventListener("mouseenter", show);
      td.addEventListener("focus", show);
      td.addEventListener("keydown", (event) => moveFocus(event, table, i, j));
    });
  });
  figure.append(caption, table, detail);
  return figure;
}

function showEntry(detail, map, i, j, where) {
  const cell = map.rows[i][j];
  detail.textContent = "";
  const line = document.createElement("p");
  line.className = "entry-value";
  if (map.chosen) {
    line.append(`${where}: ≈ ${cell.decimal} ${map.words.chosen_value}`);
  } else {
    line.append(`${where}: ${map.words.exact} `);
    const exact = document.createElement("span");
    exact.className = "exact";
    exact.innerHTML = cell.mathml; // MathML converted on the server from the exact value
    line.append(exact);
    if (cell.decimal) line.append(` ≈ ${cell.decimal}`);
  }
  const formula = document.createElement("p");
  formula.className = "entry-formula";
  formula.append(`${map.words.softmax_row.replace("{row}", String(i + 1))} `);
  const maths = document.createElement("span");
  maths.innerHTML = map.formulas[i];
  formula.append(maths);
  detail.append(line, formula);
}

function moveFocus(event, table, i, j) {
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const move = moves[event.key];
  if (!move) return;
  const row = table.tBodies[0].rows[i + move[0]];
  const cell = row && row.cells[j + move[1] + 1];
  if (cell && cell.tabIndex === 0) {
    event.preventDefault();
    cell.focus();
  }
}

// ------------------------------------------------------------------ the form controls
// A table header on its own line ([weights], [[tables]]): not a line of a multi-line string.
const TOP_LEVEL = /^\[\[?[\w."' -]+\]\]?[ \t]*(#.*)?$/m;

function keyPattern(key) {
  return new RegExp(`^${key}\\s*=.*$`, "m");
}

function topLevel(text) {
  const table = text.search(TOP_LEVEL);
  return table < 0 ? text.length : table;
}

function readKey(text, key) {
  const head = text.slice(0, topLevel(text));
  const found = head.match(new RegExp(`^${key}\\s*=\\s*("(?:[^"\\\\]|\\\\.)*"|[^#\\n]*)`, "m"));
  if (!found) return null;
  const value = found[1].trim();
  return value.startsWith('"') ? JSON.parse(value) : value;
}

function writeKey(text, key, literal) {
  const end = topLevel(text);
  const head = text.slice(0, end);
  const line = `${key} = ${literal}`;
  if (keyPattern(key).test(head)) return head.replace(keyPattern(key), line) + text.slice(end);
  const gap = head.endsWith("\n") || head === "" ? "" : "\n";
  return `${head}${gap}${line}\n${text.slice(end)}`;
}

function fillForm() {
  const text = $("spec").value;
  for (const control of document.querySelectorAll("#form [data-key]")) {
    const value = readKey(text, control.dataset.key);
    if ("tau" in control.dataset) {
      control.value = temperature(value);
    } else if (control.tagName === "SELECT") {
      const known = [...control.options].some((o) => o.value === value);
      control.value = known ? value : control.options[0].value;
    } else {
      control.value = value ?? "";
    }
  }
}

// A temperature τ is the scale 1/τ (as in the temperature example); another scale has none.
function temperature(scale) {
  const found = /^1\/([0-9.eE+-]+)$/.exec(scale ?? "");
  return found ? found[1] : "";
}

function formEdited(event) {
  const control = event.target;
  const key = control.dataset.key;
  if (!key) return;
  let value = control.value.trim();
  if ("tau" in control.dataset) {
    if (value === "") return; // cleared: the scale stays as written
    value = `1/${value}`;
  }
  const literal = key === "heads" && /^\d+$/.test(value) ? value : JSON.stringify(value);
  $("spec").value = writeKey($("spec").value, key, literal);
  fillForm(); // the scale and τ show each other's change
  schedule();
}

// ------------------------------------------------------------------ matrix grids
function drawGrids(grids) {
  const box = $("grids");
  const inside = box.contains(document.activeElement);
  const shape = JSON.stringify(grids.map((g) => [g.path, g.rows.length, g.rows[0].length]));
  if (inside && box.dataset.shape === shape) {
    // The user is in a grid: keep the cell they are in, refresh the others.
    for (const input of box.querySelectorAll("input")) {
      const grid = grids[Number(input.dataset.grid)];
      if (input !== document.activeElement) input.value = grid.rows[input.dataset.row][input.dataset.col];
    }
    return;
  }
  box.dataset.shape = shape;
  box.textContent = "";
  grids.forEach((grid, index) => box.append(gridTable(grid, index)));
}

function gridTable(grid, index) {
  const fieldset = element("fieldset", null, "grid");
  fieldset.dataset.key = grid.key;
  fieldset.append(element("legend", grid.title));
  const table = element("table");
  grid.rows.forEach((row, i) => {
    const tr = table.insertRow();
    row.forEach((value, j) => {
      const input = document.createElement("input");
      Object.assign(input.dataset, { grid: index, row: i, col: j });
      input.value = value;
      input.size = Math.max(4, Math.min(10, value.length + 1));
      input.setAttribute("aria-label", `${grid.title}, row ${i + 1}, column ${j + 1}`);
      input.addEventListener("change", () => gridEdited(grid, i, j, input.value));
      tr.insertCell().append(input);
    });
  });
  fieldset.append(table, element("p", null, "field-error"));
  fieldset.lastChild.hidden = true;
  return fieldset;
}

async function gridEdited(grid, row, col, value) {
  const response = await post("/api/edit", { toml: $("spec").value, path: grid.path, row, col, value });
  const answer = await response.json();
  if (!answer.ok) {
    showError({ error: answer.error, field: grid.key, line: null });
    return;
  }
  $("spec").value = answer.toml;
  fillForm();
  schedule();
}

// ------------------------------------------------------------------ downloads
async function download(event) {
  const format = event.target.dataset.format;
  if (!format) return;
  $("status").textContent = `Making the ${format.toUpperCase()}…`;
  const response = await post("/api/download", { ...settings(), format });
  if (!response.ok) {
    const answer = await response.json();
    $("status").textContent = answer.error;
    return;
  }
  const blob = await response.blob();
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `solution.${format}`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  $("status").textContent = `Downloaded solution.${format}.`;
}

// ------------------------------------------------------------------ check a document
const SUFFIX_KIND = { md: "md", markdown: "md", txt: "txt", tex: "tex", ipynb: "ipynb", html: "html", htm: "html" };

function openFile() {
  const file = $("doc-file").files[0];
  if (!file) return;
  const suffix = file.name.split(".").pop().toLowerCase();
  $("doc-kind").value = SUFFIX_KIND[suffix] || "";
  const reader = new FileReader();
  reader.onload = () => {
    $("document").value = reader.result;
    checkDocument();
  };
  reader.readAsText(file);
}

async function checkDocument() {
  const seq = ++checking.seq;
  $("doc-status").textContent = "Reading the document and checking its numbers…";
  const kind = $("doc-kind").value || null;
  const response = await post("/api/check", { text: $("document").value, kind, lang: $("lang").value, seq });
  const answer = await response.json();
  answer.seq ??= seq;
  if (answer.superseded || answer.seq !== checking.seq || answer.seq <= checking.shown) return;
  checking.shown = answer.seq;
  $("doc-status").textContent = "";
  const box = $("doc-error");
  if (!answer.ok) {
    box.hidden = false;
    box.textContent = answer.error;
    $("document").setAttribute("aria-invalid", "true");
    $("report").classList.add("stale");
    return;
  }
  box.hidden = true;
  $("document").removeAttribute("aria-invalid");
  $("report").classList.remove("stale");
  drawReport(answer);
}

function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined && text !== null) made.textContent = text;
  if (className) made.className = className;
  return made;
}

function drawReport(answer) {
  const report = $("report");
  report.textContent = "";
  for (const finding of answer.findings) report.append(element("p", finding, "finding"));
  for (const example of answer.examples) {
    report.append(element("h2", example.title));
    const lines = element("ul", null, "mapping");
    for (const line of example.lines) lines.append(element("li", line));
    report.append(lines);
    if (example.claims.length) report.append(claimTable(example.claims));
    report.append(element("p", example.summary || "The document prints no results to check.", "summary"));
  }
}

function claimTable(claims) {
  const table = element("table", null, "claims");
  const head = table.createTHead().insertRow();
  for (const name of ["step", "printed", "verdict", "exact value", "decimals", "why"]) {
    head.append(element("th", name));
  }
  const body = table.createTBody();
  for (const claim of claims) {
    const row = body.insertRow();
    row.className = claim.holds ? "holds" : "wrong";
    row.append(element("td", claim.key), element("td", claim.claimed, "printed"));
    row.append(element("td", claim.verdict_words, "verdict"));
    const exact = element("td", null, "exact");
    if (claim.exact) exact.innerHTML = claim.exact; // MathML converted on the server
    else exact.textContent = "(too long to show)";
    row.append(exact, element("td", claim.decimal ?? "", "decimal"), element("td", claim.why ?? ""));
  }
  return table;
}

// ------------------------------------------------------------------ tabs and start
function selectTab(tab) {
  for (const other of document.querySelectorAll("[role=tab]")) {
    const chosen = other === tab;
    other.setAttribute("aria-selected", String(chosen));
    other.tabIndex = chosen ? 0 : -1;
    $(other.getAttribute("aria-controls")).hidden = !chosen;
  }
  tab.focus();
}

function tabKeys(event) {
  const tabs = [...document.querySelectorAll("[role=tab]")];
  const at = tabs.indexOf(event.target);
  if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
    const step = event.key === "ArrowRight" ? 1 : tabs.length - 1;
    selectTab(tabs[(at + step) % tabs.length]);
  }
}

async function start() {
  const [examples, info] = await Promise.all(
    ["/api/examples", "/api/info"].map(async (path) => (await fetch(path)).json()),
  );
  const picker = $("example");
  picker.append(new Option("(your own spec)", ""));
  for (const example of examples) picker.append(new Option(`${example.name}: ${example.title}`, example.name));
  picker.addEventListener("change", () => {
    const chosen = examples.find((e) => e.name === picker.value);
    if (!chosen) return;
    $("spec").value = chosen.toml;
    fillForm();
    schedule();
  });
  if (!info.pdf) {
    $("dl-pdf").disabled = true;
    $("dl-pdf").title = "PDF needs pdflatex on the server";
  }
  $("spec").addEventListener("input", () => { fillForm(); schedule(); });
  $("spec").addEventListener("scroll", () => { $("gutter").scrollTop = $("spec").scrollTop; });
  for (const id of ["lang", "decimals", "detail"]) $(id).addEventListener("change", schedule);
  $("limit").addEventListener("input", schedule);
  $("form").addEventListener("change", formEdited);
  document.querySelector(".downloads").addEventListener("click", download);
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.addEventListener("click", () => selectTab(tab));
    tab.addEventListener("keydown", tabKeys);
  }
  $("doc-file").addEventListener("change", openFile);
  $("check-button").addEventListener("click", checkDocument);
  $("document").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.ctrlKey) checkDocument();
  });
  picker.value = "two-tokens";
  $("spec").value = examples.find((e) => e.name === "two-tokens").toml;
  fillForm();
  drawGutter();
  derive(); // the first solution at once: nothing typed yet to wait for
}

document.addEventListener("DOMContentLoaded", start);
