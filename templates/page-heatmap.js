// page-heatmap.js: the time heatmap above the graph, in a page whose profile keeps time
// (libflame/write/html.c's "TIM1" section after the tree: per leaf node, its weight per
// cell). FlameScope's layout: a column a second from the first sample, rows the offset
// within it (0 ms at the top); a timeline of bars when the cells are a second or longer,
// or the recording is under 3 s or over 20 minutes. Drag over it: the graph, sandwich and
// table show that range. Shift-drag a second range: the diff of the two (BEFORE the first,
// scaled to the second's total, as flame-diff -n). "Only search matches": the stacks
// through a frame the search matches. The ranges and the choice are kept in the URL
// (t=A,B d=C,D in seconds, hm=1). It reaches the page only through FG's hooks (timeData,
// baseTree, matchedNames, useSelf, onSaveState, openedHash: the fragment as opened, which
// the page has rewritten by the time this script runs). With labels (page-labels.js), a
// "LAB1" section comes first and entries name units (a leaf node under one label set):
// FGLabels draws the graph of a range and a label slice together.
var FGTime = (function () {
	var MAX_COLUMNS = 1200, MIN_SECONDS = 3, HEIGHT = 150;
	var api = { ready: false, ranges: function () { return ranges.slice(); }, select: select, clear: clear, cells: null,
		entries: function () { return { node: node, cell: cell, weight: weight, cellNs: cellNs }; } };
	// per stack (leaf node): its weight per cellNs; the heatmap's own cells: the whole
	// profile's weight per heatNs (finer than cellNs when the page keeps ranges coarse)
	var cellNs = 0, spanNs = 0, node = null, cell = null, weight = null, base = null;
	var heatNs = 0, heatTotals = null;
	var heat = false, rows = 1, cols = 1, perBar = 1, nCells = 0;
	var ranges = [], onlyMatches = false, lastMatched = null, drag = null;
	var canvas = null, label = null, matchBox = null;

	function decode(b) {
		var p = 0, varint = function () {
			var x = 0, mul = 1, c;
			do { c = b[p++]; x += (c & 127) * mul; mul *= 128; } while (c & 128);
			return x;
		};
		if (String.fromCharCode(b[0], b[1], b[2], b[3]) === "LAB1") { p = 4; var skip = varint(); b = b.subarray(p + skip); p = 0; }
		if (b.length < 4 || String.fromCharCode(b[0], b[1], b[2], b[3]) !== "TIM1") return false;
		p = 4;
		cellNs = varint(); spanNs = varint();
		var n = varint(), i;
		node = new Int32Array(n); cell = new Int32Array(n); weight = new Float64Array(n);
		for (i = 0; i < n; i++) node[i] = (i ? node[i - 1] : 0) + varint();
		for (i = 0; i < n; i++) cell[i] = (i && node[i] === node[i - 1] ? cell[i - 1] : 0) + varint();
		for (i = 0; i < n; i++) weight[i] = varint();
		heatNs = varint();
		heatTotals = new Float64Array(varint());
		for (i = 0; i < heatTotals.length; i++) heatTotals[i] = varint();
		return true;
	}

	// heatmap or timeline, and the grid
	function shape() {
		var perSec = 1e9 / heatNs, seconds = Math.max(1, Math.ceil(spanNs / 1e9));
		nCells = heatTotals.length;
		heat = perSec >= 2 && perSec === Math.floor(perSec) && seconds >= MIN_SECONDS && seconds <= MAX_COLUMNS;
		if (heat) { rows = perSec; cols = seconds; perBar = 1; return; }
		rows = 1;
		perBar = Math.max(1, Math.ceil(nCells / MAX_COLUMNS));
		cols = Math.ceil(nCells / perBar);
	}

	// per node: 1 when a frame on its path matches the search
	function matchedNodes() {
		var m = FG.matchedNames();
		if (!onlyMatches || !m) return null;
		var out = new Uint8Array(base.n);
		for (var i = 1; i < base.n; i++) out[i] = m[base.name[i]] || out[base.parent[i]];
		var units = labelled() ? FGLabels.unitNode() : null; // entries name units: their nodes'
		return units ? Array.prototype.map.call(units, function (nd) { return out[nd]; }) : out;
	}

	// the weight per grid place (column-major, as drawn)
	function grid() {
		var g = new Float64Array(cols * rows), m = matchedNodes(), k, c;
		var put = function (c, v) { if (c < nCells) g[heat ? c : Math.floor(c / perBar)] += v; };
		if (!m) {
			for (c = 0; c < nCells; c++) put(c, heatTotals[c]);
			return g;
		}
		// the matches' stacks, known per cellNs: spread over the heat cells it covers
		var per = Math.max(1, Math.round(cellNs / heatNs));
		for (k = 0; k < node.length; k++) {
			if (!m[node[k]]) continue;
			for (c = 0; c < per; c++) put(cell[k] * per + c, weight[k] / per);
		}
		return g;
	}

	// a grid place's time span [start, end) in ns from the first sample
	function placeTime(i) {
		var c0 = heat ? i : i * perBar, c1 = heat ? i + 1 : (i + 1) * perBar;
		return [c0 * heatNs, c1 * heatNs];
	}

	function geometry() {
		var width = Math.max(200, (canvas.parentNode.clientWidth || 1200) - 20);
		var cw = Math.min(heat ? 40 : 8, (width - 60) / cols), ch = heat ? Math.max(2, HEIGHT / rows) : HEIGHT;
		return { x0: 50, y0: 4, cw: cw, ch: ch, w: 50 + cw * cols + 10, h: 4 + ch * rows + 18 };
	}

	function inRange(t, r) { return t >= r[0] && t < r[1]; }

	function draw() {
		var g = grid(), geo = geometry(), dpr = window.devicePixelRatio || 1, max = 0, i;
		api.cells = g;
		for (i = 0; i < g.length; i++) if (g[i] > max) max = g[i];
		canvas.width = Math.round(geo.w * dpr);
		canvas.height = Math.round(geo.h * dpr);
		canvas.style.width = geo.w + "px";
		canvas.style.height = geo.h + "px";
		var x = canvas.getContext("2d");
		x.scale(dpr, dpr);
		x.fillStyle = "#fafafa";
		x.fillRect(0, 0, geo.w, geo.h);
		for (i = 0; i < g.length; i++) {
			var col = heat ? Math.floor(i / rows) : i, row = heat ? i % rows : 0, t = placeTime(i)[0];
			var f = max ? g[i] / max : 0, px = geo.x0 + col * geo.cw;
			var sel = ranges.length && inRange(t, ranges[0]) ? 1 : ranges.length > 1 && inRange(t, ranges[1]) ? 2 : 0;
			if (g[i]) {
				var k = 0.15 + 0.85 * f;
				x.fillStyle = "rgb(" + Math.round(255 - 75 * k) + "," + Math.round(235 - 215 * k) + "," + Math.round(215 - 200 * k) + ")";
				if (heat) x.fillRect(px, geo.y0 + row * geo.ch, geo.cw - 0.5, geo.ch - 0.5);
				else x.fillRect(px, geo.y0 + geo.ch * (1 - f), Math.max(1, geo.cw - 0.5), geo.ch * f);
			}
			if (sel) {
				x.fillStyle = sel === 1 ? "rgba(40,90,220,0.35)" : "rgba(30,160,60,0.35)";
				x.fillRect(px, heat ? geo.y0 + row * geo.ch : geo.y0, geo.cw, heat ? geo.ch : geo.ch);
			}
		}
		x.fillStyle = "#000";
		x.font = "11px Verdana, sans-serif";
		var every = Math.max(1, Math.ceil(60 / geo.cw));
		for (i = 0; i < cols; i += every) {
			var s = (heat ? i : i * perBar * heatNs / 1e9);
			x.fillText((heat ? i : +s.toPrecision(4)) + " s", geo.x0 + i * geo.cw, geo.h - 4);
		}
		if (heat) { x.fillText("0 ms", 4, geo.y0 + 10); x.fillText("1 s", 4, geo.y0 + rows * geo.ch); }
		canvas.dataset.kind = heat ? "heatmap" : "timeline";
		canvas.dataset.cols = cols;
		canvas.dataset.rows = rows;
		api.geometry = geo;
	}

	function placeAt(e) {
		var geo = api.geometry, r = canvas.getBoundingClientRect();
		var col = Math.floor((e.clientX - r.left - geo.x0) / geo.cw), row = heat ? Math.floor((e.clientY - r.top - geo.y0) / geo.ch) : 0;
		if (col < 0 || col >= cols || row < 0 || row >= rows) return -1;
		return heat ? col * rows + row : col;
	}

	function secs(ns) { return +(ns / 1e9).toFixed(6); }

	function describe() {
		if (!ranges.length) { label.textContent = "Drag over the heatmap to see a time range; shift-drag a second range to diff the two."; return; }
		var text = ranges.map(function (r, k) { return (k ? "after " : ranges.length > 1 ? "before " : "") + secs(r[0]) + " s to " + secs(r[1]) + " s"; });
		label.textContent = (ranges.length > 1 ? "Diff: " : "Range: ") + text.join(", ") +
			(cellNs > heatNs ? " (the graph to the " + secs(cellNs) + " s this page keeps per stack)" : "") + " (Esc or the button clears)";
	}

	function selfOf(r) {
		var s = new Float64Array(base.n);
		for (var k = 0; k < node.length; k++) { // a cell counts when it starts in the range,
			var t = cell[k] * cellNs;                 // or the range lies inside it
			if ((t >= r[0] && t < r[1]) || (t < r[0] && t + cellNs > r[0])) s[node[k]] += weight[k];
		}
		return s;
	}

	// the graph of the ranges: one, the graph of it; two, their diff (the first scaled to
	// the second's total, rounded down, as difffolded.pl -n)
	function labelled() { return typeof FGLabels !== "undefined" && FGLabels.present(); }
	function apply() {
		if (labelled()) { FGLabels.apply(); describe(); draw(); return; }
		if (!ranges.length) { FG.useSelf(null); describe(); draw(); FG.saveState(); return; }
		var s0 = selfOf(ranges[0]);
		if (ranges.length > 1) {
			var s1 = selfOf(ranges[1]), t0 = 0, t1 = 0, i;
			for (i = 0; i < base.n; i++) { t0 += s0[i]; t1 += s1[i]; }
			if (t0 && t0 !== t1) for (i = 0; i < base.n; i++) s0[i] = Math.floor(s0[i] * t1 / t0);
			FG.useSelf(s0, s1);
		} else {
			FG.useSelf(s0);
		}
		describe();
		draw();
		FG.saveState();
	}

	// select [a, b) ns (and a second range: a diff); for tests and the URL
	function select(a, b, c, d) {
		ranges = [[a, b]];
		if (c !== undefined) ranges.push([c, d]);
		apply();
	}
	function clear() { ranges = []; apply(); }

	function hook() {
		canvas.addEventListener("mousedown", function (e) {
			var i = placeAt(e);
			if (i < 0) return;
			e.preventDefault();
			drag = { from: i, to: i, second: e.shiftKey && ranges.length > 0 };
		});
		canvas.addEventListener("mousemove", function (e) {
			var i = placeAt(e);
			if (i >= 0) {
				var t = placeTime(i), g = api.cells ? api.cells[i] : 0;
				canvas.title = secs(t[0]) + " s: " + FG.formatAmount(g);
			}
			if (drag && i >= 0) drag.to = i;
		});
		window.addEventListener("mouseup", function () {
			if (!drag) return;
			var a = Math.min(drag.from, drag.to), b = Math.max(drag.from, drag.to);
			var r = [placeTime(a)[0], placeTime(b)[1]];
			ranges = drag.second ? [ranges[0], r] : [r];
			drag = null;
			apply();
		});
		window.addEventListener("keydown", function (e) {
			if (e.key === "Escape" && ranges.length && !(e.target && e.target.tagName === "INPUT")) clear();
		});
		matchBox.addEventListener("change", function () { onlyMatches = matchBox.checked; draw(); FG.saveState(); });
	}

	function panel() {
		var box = document.createElement("section");
		box.id = "v-time";
		box.style.cssText = "margin:0 0 6px 0;overflow-x:auto";
		canvas = document.createElement("canvas");
		canvas.id = "c-time";
		canvas.style.cursor = "crosshair";
		label = document.createElement("div");
		label.id = "time-range";
		label.style.cssText = "font:12px Verdana,sans-serif;margin:2px 0";
		var opts = document.createElement("label");
		opts.style.cssText = "font:12px Verdana,sans-serif;margin-left:1em";
		matchBox = document.createElement("input");
		matchBox.type = "checkbox";
		matchBox.id = "time-matches";
		var clearButton = document.createElement("button");
		clearButton.id = "b-time-clear";
		clearButton.textContent = "Whole recording";
		clearButton.addEventListener("click", clear);
		opts.append(matchBox, " only search matches");
		var bar = document.createElement("div");
		bar.append(clearButton, opts);
		box.append(canvas, label, bar);
		document.getElementById("panels").append(box);
	}

	function urlState() {
		var m = FG.matchedNames();
		if (m !== lastMatched) { lastMatched = m; if (onlyMatches && canvas) draw(); }
		var parts = ranges.map(function (r, k) { return (k ? "d=" : "t=") + secs(r[0]) + "," + secs(r[1]); });
		if (onlyMatches) parts.push("hm=1");
		return parts;
	}

	function fromUrl() {
		var q = {};
		FG.openedHash().substring(1).split("&").forEach(function (kv) {
			var eq = kv.indexOf("=");
			if (eq > 0) q[kv.substring(0, eq)] = kv.substring(eq + 1);
		});
		var range = function (s) {
			var m = /^(\d+(?:\.\d+)?),(\d+(?:\.\d+)?)$/.exec(s || "");
			return m ? [Math.round(+m[1] * 1e9), Math.round(+m[2] * 1e9)] : null;
		};
		onlyMatches = matchBox.checked = q.hm === "1";
		var a = range(q.t), b = range(q.d);
		if (a) ranges = b ? [a, b] : [a];
	}

	function boot() {
		if (!FG.ready) { setTimeout(boot, 5); return; }
		var bytes = FG.timeData();
		// with labels, entries name units: wait for page-labels.js (the next script) to have
		// booted, its panel built (FG.ready may come after both scripts have run)
		if (bytes && bytes.length > 4 && String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]) === "LAB1" &&
			(typeof FGLabels === "undefined" || !FGLabels.ready)) { setTimeout(boot, 5); return; }
		base = FG.baseTree();
		if (!bytes || !base || !decode(bytes)) { api.ready = true; return; }
		var t0 = performance.now();
		shape();
		panel();
		hook();
		FG.onSaveState(urlState);
		fromUrl();
		if (ranges.length) apply(); else { describe(); draw(); }
		api.loadMs = performance.now() - t0;
		api.ready = true;
	}
	boot();
	return api;
})();
