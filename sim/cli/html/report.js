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
  box.append(el("h3", { text: a.name + " (%" + a.value + (a.line ? ", line " + a.line : "") + ")" }));
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
    if (lead) s.append(svg("text", { x: ox, y: oy - 4, text: "[" + key + ", :, :]" }));
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
    text: a.name + " %" + a.value + " " + a.dtype + "[" + a.shape.join(",") + "]" })));
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
      el("td", { text: originText(v.value) }),
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

/* --- start -------------------------------------------------------------------- */

for (const f of [drawSummary, drawMesh, drawLayouts, drawOps, drawLedger, drawTimeline,
                 drawMemory, drawCheck]) {
  try {
    f();
  } catch (e) {
    console.error(f.name + ": " + e.message);
  }
}
document.body.dataset.ready = "1";
