/*
 * The --html page's script (inlined by embed.py). It draws SVG directly:
 * the pictures are grids of rectangles, bars and one line plot, each a few
 * dozen lines here, so no plotting library is needed and nothing has to be
 * vendored or fetched. Everything drawn comes from the embedded JSON
 * (#shardsim-data; its keys are documented in sim/cli/html/README.md): the
 * page computes positions and colours, never sharding, memory or timing.
 *
 * Errors: any exception or console.error is listed in #page-errors, which
 * the browser tests read (tests/html/test_html_report.py).
 */
"use strict";

(function catchErrors() {
  const list = document.getElementById("page-errors");
  function note(text) {
    const li = document.createElement("li");
    li.className = "console-error";
    li.textContent = text;
    list.appendChild(li);
    list.hidden = false;
  }
  window.addEventListener("error", (e) => note("error: " + e.message + " (line " + e.lineno + ")"));
  const orig = console.error.bind(console);
  console.error = function (...args) {
    note("console.error: " + args.join(" "));
    orig(...args);
  };
})();

const DATA = JSON.parse(document.getElementById("shardsim-data").textContent);
const R = DATA.report;
const H = DATA.html;
const SVGNS = "http://www.w3.org/2000/svg";

/* --- helpers --------------------------------------------------------------- */

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = v;
    else if (k === "html") e.innerHTML = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
}

function svg(tag, attrs, ...kids) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) if (k) e.append(k);
  return e;
}

function titled(node, text) {
  node.append(svg("title", { text }));
  return node;
}

/* Bytes as the terminal report writes them (KiB, MiB, GiB: powers of 1024). */
function fmtBytes(n) {
  if (n === null || n === undefined) return "?";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let u = 0;
  while (Math.abs(n) >= 1024 && u < units.length - 1) { n /= 1024; u++; }
  return (u ? n.toFixed(n < 10 ? 2 : n < 100 ? 1 : 0) : String(n)) + " " + units[u];
}

function fmtUs(us) {
  return us >= 1000 ? (us / 1000).toFixed(3) + " ms" : us.toFixed(1) + " us";
}

/* One colour per mesh position, evenly around the hue circle. */
function deviceColour(pos, n) {
  const h = Math.round((360 * pos) / Math.max(n, 1));
  return "hsl(" + h + ",62%," + (pos % 2 ? 62 : 72) + "%)";
}

const NDEV = R.mesh.devices;
const posOfDevice = new Map(H.mesh_devices.map((d) => [d.device, d.position]));
function colourOfDevice(id) { return deviceColour(posOfDevice.get(id) ?? 0, NDEV); }

function specText(spec) {
  return "P(" + spec.map((s) => s === null ? "None"
    : Array.isArray(s) ? "(" + s.map((a) => "'" + a + "'").join(", ") + ")"
    : "'" + s + "'").join(", ") + ")";
}

function valueLabel(v) {
  const val = R.values ? R.values[v] : null;
  if (!val) return "%" + v;
  return "%" + v + " " + val.op + (val.name ? " " + val.name : "");
}

function opLink(v) {
  return el("a", { href: "#op-" + v, text: valueLabel(v) });
}

/* --- summary ----------------------------------------------------------------- */

function drawSummary() {
  document.getElementById("title").textContent =
    "shardsim " + R.command + " " + R.file;
  const axes = R.mesh.axes.map((a) => a.name + "=" + a.size).join(" ");
  const parts = [
    R.run ? "function " + R.run.function + ", " + R.run.steps + " step(s)" : "no run",
    R.mesh.devices + " devices (" + axes + "), " + R.mesh.hosts + " host(s)",
    fmtBytes(R.device_memory) + " per device",
  ];
  const s = document.getElementById("summary");
  s.textContent = parts.join(" \u00b7 ") + " ";
  if (R.command === "plan" && "fits" in R)
    s.append(el("span", { class: "badge " + (R.fits ? "ok" : "bad"),
      text: R.fits ? "fits in device memory" : "DOES NOT FIT" }));
  if (R.checks && R.checks.length) {
    const ok = R.checks.every((c) => c.passed);
    s.append(el("span", { class: "badge " + (ok ? "ok" : "bad"),
      text: ok ? "every check passed" : "a check FAILED" }));
  }
}

/* --- mesh -------------------------------------------------------------------- */

function drawMesh() {
  const view = document.getElementById("mesh-view");
  const axes = R.mesh.axes;
  const rows = axes.length > 1 ? axes[0].size : 1;
  const cols = NDEV / rows;
  const cw = 92, ch = 58, pad = 30;
  const s = svg("svg", { width: pad + cols * cw + 10, height: pad + rows * ch + 10,
                         id: "mesh-svg" });
  if (axes.length > 1)
    s.append(svg("text", { x: 2, y: pad + (rows * ch) / 2, text: axes[0].name + " \u2193" }));
  s.append(svg("text", { x: pad, y: 14,
    text: (axes.length > 1 ? axes.slice(1) : axes).map((a) => a.name).join(" \u00d7 ") + " \u2192" }));
  for (const d of H.mesh_devices) {
    const r = Math.floor(d.position / cols), c = d.position % cols;
    const g = svg("g", { class: "mesh-device", "data-device": d.device });
    g.append(titled(svg("rect", { x: pad + c * cw, y: pad + r * ch, width: cw - 6, height: ch - 6,
      rx: 4, fill: deviceColour(d.position, NDEV), stroke: "#556" }),
      "device " + d.device + ", host " + d.host + ", " +
      axes.map((a, i) => a.name + "=" + d.coords[i]).join(", ")));
    g.append(svg("text", { x: pad + c * cw + 6, y: pad + r * ch + 18, text: "device " + d.device }));
    g.append(svg("text", { x: pad + c * cw + 6, y: pad + r * ch + 32, text: "host " + d.host }));
    g.append(svg("text", { x: pad + c * cw + 6, y: pad + r * ch + 46,
      text: axes.map((a, i) => a.name[0] + d.coords[i]).join(" ") }));
    s.append(g);
  }
  view.append(s);
  view.append(el("p", { class: "hint", text: "Axes: " + axes.map((a) => "'" + a.name + "' of " +
    a.size).join(", ") + ". Device ids in mesh order: " + R.mesh.device_ids.join(", ") + "." }));
}

/* --- array layouts ----------------------------------------------------------- */

/* One array as an SVG: rank 1 and 2 as one grid (rank 1 as a row), rank 3
 * and up as small multiples, one panel per block of the leading dims. Each
 * device is one rect.tile; replicas split their cell into stripes. */
function drawArray(a) {
  const rank = a.shape.length;
  const box = el("div", { class: "array", "data-value": a.value });
  const tile0 = a.tiles[0];
  const tshape = tile0.start.map((s, i) => tile0.stop[i] - s);
  const where = [a.value >= 0 ? "%" + a.value : "declared", a.line ? "line " + a.line : ""];
  box.append(el("h3", { text: a.name + " (" + where.filter((w) => w).join(", ") + ")" }));
  box.append(el("div", { class: "mono", text: a.dtype + "[" + a.shape.join(",") + "] " + a.spec +
    " \u2014 each tile " + a.dtype + "[" + tshape.join(",") + "], " + fmtBytes(tile0.bytes) }));
  const lead = Math.max(rank - 2, 0);
  const panels = new Map(); /* leading-dims block -> tiles */
  for (const t of a.tiles) {
    const key = t.start.slice(0, lead).join(",");
    if (!panels.has(key)) panels.set(key, []);
    panels.get(key).push(t);
  }
  const rowsDim = rank >= 2 ? rank - 2 : -1, colsDim = rank - 1;
  const rowsN = rowsDim >= 0 ? a.shape[rowsDim] : 1, colsN = a.shape[colsDim];
  const W = panels.size > 1 ? 200 : 320;
  const ratio = rowsN / Math.max(colsN, 1);
  const Hh = Math.max(24, Math.min(W * ratio, W * 1.5));
  const s = svg("svg", { class: "layout", "data-value": a.value,
    width: Math.min(panels.size, 4) * (W + 12), height: Math.ceil(panels.size / 4) * (Hh + 22) });
  let p = 0;
  for (const [key, tiles] of panels) {
    const ox = (p % 4) * (W + 12), oy = Math.floor(p / 4) * (Hh + 22) + 16;
    if (lead) s.append(svg("text", { x: ox, y: oy - 4, text: "[" + tiles[0].start.slice(0, lead)
      .map((b, d) => b + ":" + tiles[0].stop[d]).join(", ") + ", :, :]" }));
    const cells = new Map();
    for (const t of tiles) {
      const k = (rowsDim >= 0 ? t.start[rowsDim] : 0) + "," + t.start[colsDim];
      if (!cells.has(k)) cells.set(k, []);
      cells.get(k).push(t);
    }
    for (const group of cells.values()) {
      const t = group[0];
      const r0 = rowsDim >= 0 ? t.start[rowsDim] : 0, r1 = rowsDim >= 0 ? t.stop[rowsDim] : 1;
      const x = ox + (W * t.start[colsDim]) / colsN, w = (W * (t.stop[colsDim] - t.start[colsDim])) / colsN;
      const y = oy + (Hh * r0) / rowsN, h = (Hh * (r1 - r0)) / rowsN;
      group.forEach((u, i) => {
        s.append(titled(svg("rect", { class: "tile", "data-device": u.device,
          x: x + (w * i) / group.length, y, width: w / group.length, height: h,
          fill: colourOfDevice(u.device) }),
          "device " + u.device + ": [" + u.start.map((b, d) => b + ":" + u.stop[d]).join(", ") +
          "], " + fmtBytes(u.bytes) + (u.replica ? " (replica " + u.replica + ")" : "")));
      });
      s.append(svg("rect", { x, y, width: w, height: h, fill: "none", stroke: "#334",
        "stroke-width": 1 }));
      if (w > 28 && h > 14)
        s.append(svg("text", { x: x + 3, y: y + Math.min(h - 3, 13),
          text: group.map((u) => u.device).join(",") }));
    }
    p++;
  }
  box.append(s);
  return box;
}

function drawLayouts() {
  const view = document.getElementById("layout-view");
  const select = document.getElementById("array-select");
  const all = document.getElementById("array-all");
  if (!H.arrays.length) {
    view.append(el("p", { class: "hint", text: NDEV > 256 ? "Too many devices to draw tile by tile."
      : "No named array." }));
    return;
  }
  H.arrays.forEach((a, i) => select.append(el("option", { value: i,
    text: a.name + (a.value >= 0 ? " %" + a.value : "") + " " + a.dtype + "[" + a.shape.join(",") + "]" })));
  function show() {
    view.replaceChildren();
    const which = all.checked ? H.arrays : [H.arrays[Number(select.value) || 0]];
    for (const a of which) view.append(drawArray(a));
    view.dataset.arraysShown = String(which.length);
  }
  select.addEventListener("change", show);
  all.addEventListener("change", show);
  all.checked = location.hash === "#all-arrays";
  show();
}

/* --- ops --------------------------------------------------------------------- */

function originText(v) {
  const o = H.origins[v];
  if (!o) return "";
  const [kind, from, level] = o;
  switch (kind) {
    case "declared": return "declared: its own spec (input, param or constraint)";
    case "manual": return "manual: a block inside shard_map";
    case "constraint": return "lent by the constraint " + valueLabel(from) + " that reads it";
    case "operands": return "from its operands (propagation forward, level " + level + ")";
    case "user": return "from its user " + valueLabel(from) + " (propagation backward, level " + level + ")";
    case "primal": return "a gradient, laid out as its primal " + valueLabel(from);
    default: return "nothing reached it: replicated";
  }
}

/* The 'why' cell: the origin's sentence, with the value that decided linked
 * to its row. */
function originCell(v) {
  const td = el("td", { text: originText(v) });
  const o = H.origins[v];
  if (o && o[1] >= 0) td.append(" ", el("a", { href: "#op-" + o[1], text: "\u2192 %" + o[1] }));
  return td;
}

function drawOps() {
  const view = document.getElementById("ops-view");
  if (!R.values) { view.append(el("p", { class: "hint", text: "No run." })); return; }
  const byValue = new Map();
  (R.ledger ? R.ledger.entries : []).forEach((e) => {
    const v = e.provenance.value;
    if (!byValue.has(v)) byValue.set(v, []);
    byValue.get(v).push(e.seq);
  });
  const t = el("table", { id: "ops-table" });
  t.append(el("tr", {}, ...["value", "op", "name", "where", "phase", "shape", "sharding",
    "why this sharding", "how it was partitioned", "collectives"].map((h) => el("th", { text: h }))));
  for (const v of R.values) {
    const where = v.origin ? v.origin : v.line ? "line " + v.line : "";
    const colls = el("td");
    (byValue.get(v.value) || []).forEach((seq) => colls.append(el("a", { href: "#coll-" + seq,
      text: "#" + seq + " " }))); 
    t.append(el("tr", { id: "op-" + v.value, class: "op-row" },
      el("td", { class: "mono", text: "%" + v.value }), el("td", { text: v.op }),
      el("td", { text: v.name || "" }), el("td", { text: where }), el("td", { text: v.phase }),
      el("td", { class: "mono", text: v.dtype + "[" + v.shape.join(",") + "]" }),
      el("td", { class: "mono", text: specText(v.spec) +
        (v.partial.length ? " partial sum over " + v.partial.join(", ") : "") }),
      originCell(v.value),
      el("td", { class: "mono", text: H.explain[String(v.value)] || "" }), colls));
  }
  view.append(el("p", { class: "hint", text: "Every value of the program in order. 'Why' is the " +
    "propagation step that last changed its sharding; 'how' is the partitioner's line for the op " +
    "(local, or the reshards it needed)." }));
  view.append(el("div", { class: "scroll" }, t));
}

/* --- ledger ------------------------------------------------------------------ */

function drawLedger() {
  const view = document.getElementById("ledger-view");
  if (!R.ledger) { view.append(el("p", { class: "hint", text: "No run." })); return; }
  const cols = [
    ["#", (e) => e.seq, true], ["phase", (e) => e.phase], ["kind", (e) => e.kind],
    ["axes", (e) => e.axes.join(",")], ["groups", (e) => e.ngroups + "\u00d7" + e.group_size],
    ["dtype", (e) => e.dtype], ["buffer bytes", (e) => e.bytes, true],
    ["sent / device", (e) => e.sent, true], ["received / device", (e) => e.received, true],
    ["source", (e) => e.provenance.source], ["op", (e) => e.provenance.value, true],
  ];
  const t = el("table", { id: "ledger-table" });
  const head = el("tr");
  const body = el("tbody");
  let order = R.ledger.entries.slice();
  let sortBy = 0, asc = true;
  function fill() {
    body.replaceChildren();
    for (const e of order) {
      const tr = el("tr", { id: "coll-" + e.seq, class: "ledger-row", "data-seq": e.seq });
      cols.forEach(([name, f, num], i) => {
        const v = f(e);
        if (name === "op") tr.append(el("td", {}, opLink(v)));
        else tr.append(el("td", { class: num ? "num" : "",
          text: i >= 6 && i <= 8 ? fmtBytes(v) : String(v) }));
      });
      body.append(tr);
    }
  }
  cols.forEach(([name, f], i) => {
    const th = el("th", { class: "sortable" + (i >= 6 && i <= 8 ? " num" : ""), text: name });
    th.addEventListener("click", () => {
      asc = sortBy === i ? !asc : true;
      sortBy = i;
      order.sort((a, b) => {
        const x = f(a), y = f(b);
        return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
      });
      fill();
    });
    head.append(th);
  });
  t.append(el("thead", {}, head), body);
  fill();
  const n = R.ledger.entries.length;
  view.append(el("p", { class: "hint", text: n + " collective(s) per step, " +
    fmtBytes(R.ledger.sent_bytes_per_device) + " sent per device. Click a heading to sort; " +
    "the op column links to the op that caused each one." }));
  const sum = el("table", { id: "ledger-summary" });
  sum.append(el("tr", {}, ...["axes", "kind", "count", "bytes / device", "share"].map((h) =>
    el("th", { text: h }))));
  for (const s of R.ledger.summary)
    sum.append(el("tr", {}, el("td", { text: s.axes.join(",") }), el("td", { text: s.kind }),
      el("td", { class: "num", text: s.count }), el("td", { class: "num",
        text: fmtBytes(s.bytes_per_device) }),
      el("td", { class: "num", text: (100 * s.share).toFixed(1) + "%" })));
  view.append(sum, el("p"), el("div", { class: "scroll" }, t));
}

/* --- timeline ---------------------------------------------------------------- */

const SLICE_COLOURS = { compute: "#5b8def", collective: "#f0a030", wait: "#d9534f" };

function drawTimeline() {
  const view = document.getElementById("timeline-view");
  const tl = H.timeline;
  if (!tl) { view.append(el("p", { class: "hint", text: "No run." })); return; }
  let end = 0;
  for (const d of tl.devices) for (const s of d.slices) end = Math.max(end, s[1] + s[2]);
  const W = 900, rowH = 22, left = 110;
  const s = svg("svg", { id: "timeline-svg", width: left + W + 10,
    height: 30 + tl.devices.length * rowH });
  tl.devices.forEach((d, i) => {
    const y = 20 + i * rowH;
    s.append(svg("text", { x: 0, y: y + 14, text: d.device < 0 ? "every device" : "device " + d.device }));
    for (const [kind, t0, dur, name, seq] of d.slices) {
      const x = left + (W * t0) / (end || 1), w = Math.max((W * dur) / (end || 1), 0.5);
      const r = svg("rect", { class: "slice slice-" + kind, x, y: kind === "wait" ? y + 3 : y,
        width: w, height: kind === "wait" ? rowH - 10 : rowH - 4, fill: SLICE_COLOURS[kind] });
      titled(r, name + " (" + kind + (kind === "collective" && seq ? " #" + seq : "") + "): " +
        fmtUs(dur) + " at " + fmtUs(t0));
      s.append(r);
    }
  });
  s.append(svg("text", { x: left, y: 12, text: "0" }));
  s.append(svg("text", { x: left + W - 60, y: 12, text: fmtUs(end) }));
  view.append(el("p", { class: "hint", text: tl.source === "trace"
    ? "The last step as the devices ran it (the run's trace): compute, and each collective " +
      "from entry to exit (transfer) with the wait for its group inside it."
    : "The plan's estimate on the " + tl.profile + " profile (every device runs the same " +
      "list; kernels by roofline, collectives by an alpha-beta ring model, no overlap)." }));
  view.append(el("div", { class: "legend" }, ...Object.entries({ compute: "compute",
    collective: "collective (transfer)", wait: "collective wait" }).map(([k, label]) =>
    el("span", {}, el("i", { style: "background:" + SLICE_COLOURS[k] }), label))));
  view.append(el("div", { style: "overflow-x:auto" }, s));
}

/* --- memory ------------------------------------------------------------------ */

function drawMemory() {
  const view = document.getElementById("memory-view");
  const pts = H.memory_points;
  const mem = R.memory;
  if (!mem || !pts.length) { view.append(el("p", { class: "hint", text: "No run." })); return; }
  const W = 860, Hh = 260, left = 80, top = 16;
  let peak = 0, peakAt = 0;
  pts.forEach((p, i) => { if (p[4] > peak) { peak = p[4]; peakAt = i; } });
  const cap = mem.capacity;
  const capOnScale = cap <= peak * 4;
  const ymax = Math.max(peak, capOnScale ? cap : 0) * 1.08 || 1;
  const X = (i) => left + (W * i) / Math.max(pts.length - 1, 1);
  const Y = (b) => top + Hh - (Hh * b) / ymax;
  const s = svg("svg", { id: "memory-svg", width: left + W + 20, height: top + Hh + 40,
    "data-peak": peak });
  for (let k = 0; k <= 4; k++) {
    const b = (ymax * k) / 4;
    s.append(svg("line", { x1: left, x2: left + W, y1: Y(b), y2: Y(b), stroke: "#e3e7ee" }));
    s.append(svg("text", { x: 2, y: Y(b) + 4, text: fmtBytes(Math.round(b)) }));
  }
  s.append(svg("polyline", { fill: "none", stroke: "#9bb7ea", "stroke-width": 1,
    points: pts.map((p, i) => X(i) + "," + Y(p[4])).join(" "), class: "mem-peak-line" }));
  s.append(svg("polyline", { fill: "none", stroke: "#2458b3", "stroke-width": 1.5,
    points: pts.map((p, i) => X(i) + "," + Y(p[3])).join(" "), class: "mem-live-line" }));
  if (capOnScale) {
    s.append(svg("line", { id: "mem-capacity", x1: left, x2: left + W, y1: Y(cap), y2: Y(cap),
      stroke: "#b00020", "stroke-dasharray": "6 4" }));
    s.append(svg("text", { x: left + W - 150, y: Y(cap) - 4, fill: "#b00020",
      text: "capacity " + fmtBytes(cap) }));
  }
  const p = pts[peakAt];
  s.append(titled(svg("circle", { id: "mem-peak", cx: X(peakAt), cy: Y(peak), r: 5,
    fill: "#b00020", "data-bytes": peak, "data-step": p[0] }),
    "peak " + fmtBytes(peak) + " at step " + p[0] + " (" + p[2] + " " + valueLabel(p[1]) + ")"));
  s.append(svg("text", { x: Math.min(X(peakAt) + 8, left + W - 160), y: Y(peak) + 14,
    text: "peak " + fmtBytes(peak) }));
  s.append(svg("text", { x: left, y: top + Hh + 20, text: "instruction 0" }));
  s.append(svg("text", { x: left + W - 90, y: top + Hh + 20, text: "instruction " + (pts.length - 1) }));
  view.append(el("p", { class: "hint", text: "Arena bytes alive on each device after every " +
    "instruction of the step (dark line; the light line includes a kernel's scratch while it " +
    "runs), as the plan replays it: every device runs the same list. " +
    (capOnScale ? "The dashed line is the capacity." : "The capacity, " + fmtBytes(cap) +
      ", is far above (off the scale).") }));
  view.append(s);
  drawDeviceLive(view, cap);
  const lst = el("table", { id: "peak-buffers" });
  lst.append(el("tr", {}, el("th", { text: "buffer alive at the peak" }),
    el("th", { class: "num", text: "bytes" }), el("th", { text: "value" })));
  for (const b of mem.largest_at_peak)
    lst.append(el("tr", { class: "peak-buffer" }, el("td", { class: "mono", text: b.buffer }),
      el("td", { class: "num", text: fmtBytes(b.bytes) }),
      el("td", {}, b.value !== undefined ? opLink(b.value) : "scratch")));
  view.append(el("h3", { text: "The largest buffers at the peak" }), lst);
  const dev = el("table", { id: "device-peaks" });
  dev.append(el("tr", {}, ...["device", "peak", "of capacity"].map((h) => el("th", { text: h }))));
  for (const d of mem.devices)
    dev.append(el("tr", {}, el("td", { text: d.device }), el("td", { class: "num",
      text: fmtBytes(d.peak_bytes) }), el("td", { class: "num",
      text: (100 * d.used_fraction).toFixed(2) + "%" })));
  view.append(el("h3", { text: R.command === "run" ? "Measured peak per device (the run)"
    : "Planned peak per device" }), dev);
}

/* A run: each device's live bytes over the last step, from the trace's
 * counter (one line per device, in the device's colour). */
function drawDeviceLive(view, cap) {
  const tl = H.timeline;
  if (!tl || tl.source !== "trace") return;
  let end = 0, top = 0;
  for (const d of tl.devices)
    for (const [t, b] of d.live) { end = Math.max(end, t); top = Math.max(top, b); }
  if (!top) return;
  const capOnScale = cap <= top * 4;
  const ymax = Math.max(top, capOnScale ? cap : 0) * 1.08;
  const W = 860, Hh = 200, left = 80, y0 = 10;
  const X = (t) => left + (W * t) / (end || 1);
  const Y = (b) => y0 + Hh - (Hh * b) / ymax;
  const s = svg("svg", { id: "device-live-svg", width: left + W + 20, height: y0 + Hh + 30 });
  for (let k = 0; k <= 4; k++) {
    const b = (ymax * k) / 4;
    s.append(svg("line", { x1: left, x2: left + W, y1: Y(b), y2: Y(b), stroke: "#e3e7ee" }));
    s.append(svg("text", { x: 2, y: Y(b) + 4, text: fmtBytes(Math.round(b)) }));
  }
  for (const d of tl.devices) {
    if (!d.live.length) continue;
    let pts = "", last = null;
    for (const [t, b] of d.live) {
      if (last !== null) pts += X(t) + "," + Y(last) + " ";
      pts += X(t) + "," + Y(b) + " ";
      last = b;
    }
    s.append(titled(svg("polyline", { class: "device-live", "data-device": d.device, fill: "none",
      stroke: colourOfDevice(d.device), "stroke-width": 1.5, points: pts }), "device " + d.device));
  }
  if (capOnScale)
    s.append(svg("line", { x1: left, x2: left + W, y1: Y(cap), y2: Y(cap), stroke: "#b00020",
      "stroke-dasharray": "6 4" }));
  s.append(svg("text", { x: left, y: y0 + Hh + 20, text: "0" }));
  s.append(svg("text", { x: left + W - 80, y: y0 + Hh + 20, text: fmtUs(end) }));
  view.append(el("h3", { text: "Measured on each device during the last step" }),
    el("p", { class: "hint", text: "Live arena bytes of each device (its colour in the mesh) " +
      "after every allocation and free, from the run's trace." +
      (capOnScale ? " The dashed line is the capacity." : "") }), s);
}

/* --- check ------------------------------------------------------------------- */

function drawCheck() {
  const view = document.getElementById("check-view");
  if (R.command === "plan") {
    view.append(el("p", { text: "A plan runs nothing, so there is nothing to check: " +
      (R.fits === false ? "it does not fit (" + fmtBytes(R.memory.plan_peak_bytes) + " needed, " +
        fmtBytes(R.device_memory) + " per device)." : "it fits in device memory.") }));
    return;
  }
  if (!R.checks || !R.checks.length) {
    view.append(el("p", { class: "hint", text: "The run has no check." }));
    return;
  }
  const t = el("table", { id: "checks" });
  t.append(el("tr", {}, ...["result", "max abs error", "max rel error", "tolerance", "verdict"]
    .map((h) => el("th", { text: h }))));
  for (const c of R.checks)
    t.append(el("tr", {}, el("td", { text: c.name }),
      el("td", { class: "num", text: Number(c.max_abs_error).toPrecision(3) }),
      el("td", { class: "num", text: Number(c.max_rel_error).toPrecision(3) }),
      el("td", { class: "num", text: Number(c.tolerance).toPrecision(2) }),
      el("td", {}, el("span", { class: "badge " + (c.passed ? "ok" : "bad"),
        text: c.passed ? (c.max_abs_error === 0 ? "ok (bitwise equal)" : "ok") : "FAILED" }))));
  view.append(el("p", { class: "hint", text: "Each result of the sharded run against the same " +
    "program run on one device." }), t);
}

/* --- teaching mode: step through the program -------------------------------- */

/* What each kind of collective does to a group's blocks, in one sentence. */
const COLLECTIVE_SENTENCE = {
  all_gather: "each device holds one block; afterwards every device of the group holds all of " +
    "them (the array is no longer split over {axes})",
  all_reduce: "each device holds a partial sum (the contraction was split over {axes}); " +
    "afterwards every device of the group holds the whole sum",
  reduce_scatter: "each device holds a partial sum of the whole; afterwards each holds the sum " +
    "of its own block only (summed, then split over {axes})",
  all_to_all: "each device cuts its block into one part per device and sends part j to device " +
    "j: the split over {axes} moves from one dimension to another",
  collective_permute: "each device sends its block to another (the source \u2192 target " +
    "pairs) over {axes}",
  broadcast: "one device's block is copied to every device of the group over {axes}",
};

/* Where each block of a collective's first group starts and ends: a list of
 * moves [fromRow, fromSlot, toRow, toSlot, stripe, stripes] over rows =
 * the group's devices and slots = its size (stripes split a slot for sums). */
function collectiveMoves(kind, n, pairs) {
  const m = [];
  for (let j = 0; j < n; j++)
    for (let k = 0; k < n; k++) {
      if (kind === "all_gather") m.push([j, j, k, j, 0, 1]);
      else if (kind === "all_reduce") for (let q = 0; q < n; q++) m.push([j, q, k, q, j, n]);
      else if (kind === "reduce_scatter") m.push([j, k, k, k, j, n]);
      else if (kind === "all_to_all") m.push([j, k, k, j, 0, 1]);
      else if (kind === "broadcast" && j === 0) for (let q = 0; q < n; q++) m.push([0, q, k, q, 0, 1]);
    }
  if (kind === "collective_permute")
    for (const [a, b] of pairs) for (let q = 0; q < n; q++) m.push([a, q, b, q, 0, 1]);
  return m;
}

function drawCollective(e) {
  const groups = e.replica_groups;
  if (!groups || !groups.length) return el("p", { class: "hint", text: "(too many devices to draw)" });
  const g = groups[0], n = g.length;
  if (n > 16) return el("p", { class: "hint", text: "(groups of more than 16 devices are not drawn)" });
  const rowOf = new Map(g.map((d, i) => [d, i]));
  const pairs = (e.source_target_pairs || []).filter(([a, b]) => rowOf.has(a) && rowOf.has(b))
    .map(([a, b]) => [rowOf.get(a), rowOf.get(b)]);
  const slotW = Math.min(60, 360 / n), rowH = 26, left = 70, gap = 120;
  const W = n * slotW, Hh = n * rowH;
  const s = svg("svg", { class: "teach-collective", "data-kind": e.kind,
    width: left + 2 * W + gap + 20, height: Hh + 34 });
  s.append(svg("text", { x: left, y: 12, text: "before" }));
  s.append(svg("text", { x: left + W + gap, y: 12, text: "after" }));
  const X0 = (slot) => left + slot * slotW, X1 = (slot) => left + W + gap + slot * slotW;
  const Y = (row) => 20 + row * rowH;
  g.forEach((d, r) => {
    s.append(svg("text", { x: 0, y: Y(r) + 16, text: "device " + d }));
    for (let q = 0; q < n; q++) {
      /* before: a gather's device holds its own block, a broadcast's root
       * the whole; any other a whole buffer (a partial sum, or the parts it
       * will send) */
      if (e.kind === "all_gather" ? q === r : e.kind === "broadcast" ? r === 0 : true)
        s.append(svg("rect", { x: X0(q), y: Y(r), width: slotW - 2, height: rowH - 4,
          fill: colourOfDevice(d), stroke: "#334" }));
      s.append(svg("rect", { x: X1(q), y: Y(r), width: slotW - 2, height: rowH - 4, fill: "none",
        stroke: "#c5ccd6" }));
    }
  });
  const moving = [];
  for (const [fr, fs, tr, ts, stripe, stripes] of collectiveMoves(e.kind, n, pairs)) {
    const h = (rowH - 4) / stripes;
    const r = svg("rect", { class: "moving-tile", width: slotW - 2, fill: colourOfDevice(g[fr]),
      stroke: "#334", "stroke-width": 0.5 });
    moving.push([r, [X0(fs), Y(fr), rowH - 4], [X1(ts), Y(tr) + stripe * h, h]]);
    s.append(r);
  }
  animateTiles(s, moving);
  return s;
}

/* Move each tile from its start [x, y, height] to its end over 1.6 s
 * (after 0.3 s), then mark the picture data-done="1". */
function animateTiles(s, moving) {
  const delay = 300, dur = 1600;
  let t0 = null;
  function place(f) {
    const k = f * f * (3 - 2 * f); /* ease in and out */
    for (const [r, a, b] of moving) {
      r.setAttribute("x", a[0] + (b[0] - a[0]) * k);
      r.setAttribute("y", a[1] + (b[1] - a[1]) * k);
      r.setAttribute("height", a[2] + (b[2] - a[2]) * k);
    }
  }
  /* timers, not requestAnimationFrame: a headless browser's virtual time
   * (the tests' screenshots) advances timers but draws no frames */
  function frame() {
    const now = performance.now();
    if (t0 === null) t0 = now;
    const f = Math.min(Math.max((now - t0 - delay) / dur, 0), 1);
    place(f);
    if (f < 1) setTimeout(frame, 20);
    else s.dataset.done = "1";
  }
  place(0);
  frame();
}

function teachSteps() {
  const steps = [];
  const byValue = new Map();
  for (const e of R.ledger ? R.ledger.entries : []) {
    const v = e.provenance.value;
    if (!byValue.has(v)) byValue.set(v, []);
    byValue.get(v).push(e);
  }
  for (const v of R.values || []) {
    if (H.explain[String(v.value)]) steps.push({ op: v });
    for (const e of byValue.get(v.value) || []) steps.push({ coll: e, op: v });
  }
  return steps;
}

function opSentence(v) {
  const where = v.origin ? v.origin : v.line ? "line " + v.line : "no source line";
  const line = H.explain[String(v.value)] || "";
  const how = line.includes(" -> ") ? line.slice(line.lastIndexOf(" -> ") + 4) : line;
  return valueLabel(v.value) + " (" + where + ") gives " + v.dtype + "[" + v.shape.join(",") +
    "] laid out " + specText(v.spec) + (v.partial.length ? " (partial sums over " +
    v.partial.join(", ") + ")" : "") + ": " + originText(v.value) + ". The partitioner: " + how + ".";
}

function collSentence(e) {
  const axes = e.axes.map((a) => "'" + a + "'").join(", ");
  const why = e.provenance.source === "user" ? "written in the program by " + valueLabel(e.provenance.value)
    : "inserted by the partitioner to lay out " + valueLabel(e.provenance.value) + " as its op needs";
  return "Collective #" + e.seq + " (" + e.phase + "): " + e.kind + " of " + e.dtype + " " +
    fmtBytes(e.bytes) + " over " + axes + " in " + e.ngroups + " group(s) of " + e.group_size +
    ", " + why + ": " + (COLLECTIVE_SENTENCE[e.kind] || e.kind).replace("{axes}", axes) +
    ". Each device sends " + fmtBytes(e.sent) + ". The first group is drawn.";
}

function drawTeach() {
  const view = document.getElementById("teach-view");
  const all = teachSteps();
  if (!all.length) { view.append(el("p", { class: "hint", text: "No run." })); return; }
  const onlyColl = el("input", { type: "checkbox", id: "teach-collectives" });
  const prev = el("button", { text: "\u2190 previous" }), next = el("button", { text: "next \u2192" });
  const range = el("input", { type: "range", min: 0, value: 0, style: "width:360px" });
  const counter = el("span"), sentence = el("p", { class: "sentence", id: "teach-sentence" });
  const picture = el("div", { id: "teach-picture" });
  view.append(el("p", { class: "hint", text: "One op or one collective per step, in the order " +
    "the devices run them, with what happens and why." }),
    el("p", {}, prev, " ", next, " ", range, " ", counter, " ",
      el("label", {}, onlyColl, " collectives only")), sentence, picture);
  view.dataset.steps = String(all.length);
  view.dataset.collectiveSteps = String(all.filter((x) => x.coll).length);
  let steps = all, at = 0;
  function show() {
    const st = steps[at];
    range.max = String(steps.length - 1);
    range.value = String(at);
    counter.textContent = "step " + (at + 1) + " of " + steps.length;
    picture.replaceChildren();
    document.querySelectorAll("tr.target").forEach((r) => r.classList.remove("target"));
    const row = document.getElementById("op-" + st.op.value);
    if (row) row.classList.add("target");
    if (st.coll) {
      sentence.textContent = collSentence(st.coll);
      picture.append(drawCollective(st.coll));
      const lr = document.getElementById("coll-" + st.coll.seq);
      if (lr) lr.classList.add("target");
    } else {
      sentence.textContent = opSentence(st.op);
      const a = H.arrays.find((x) => x.value === st.op.value);
      if (a) picture.append(drawArray(a));
    }
  }
  prev.addEventListener("click", () => { at = Math.max(at - 1, 0); show(); });
  next.addEventListener("click", () => { at = Math.min(at + 1, steps.length - 1); show(); });
  range.addEventListener("input", () => { at = Number(range.value); show(); });
  onlyColl.addEventListener("change", () => {
    steps = onlyColl.checked ? all.filter((x) => x.coll) : all;
    if (!steps.length) steps = all;
    at = 0;
    show();
  });
  /* #teach=N opens step N (from 0); #teach=cS the step of collective #S */
  const m = /teach=(c?)(\d+)/.exec(location.hash);
  if (m && m[1]) at = Math.max(all.findIndex((x) => x.coll && x.coll.seq === Number(m[2])), 0);
  else if (m) at = Math.min(Number(m[2]), steps.length - 1);
  show();
  if (m) view.parentElement.scrollIntoView();
}

/* --- start -------------------------------------------------------------------- */

for (const f of [drawSummary, drawMesh, drawLayouts, drawOps, drawLedger, drawTimeline,
                 drawMemory, drawCheck, drawTeach]) {
  try {
    f();
  } catch (e) {
    console.error(f.name + ": " + e.message);
  }
}
document.body.dataset.ready = "1";
