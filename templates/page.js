// The HTML flame graph page's script (written into each page by libflame/write/html.c):
// decodes the embedded profile (base64 of gzip of the stream html.c describes) into typed
// arrays, then draws it on canvases: the flame graph or icicle of the whole tree, laid out
// again at every zoom with only the frames wider than half a pixel; the sandwich view of
// one function (callers merged over every place it appears, above it; callees below); the
// table of every function; the frames found only in BEFORE of a differential profile.
// Names are data: they reach the page only as canvas text and textContent. FG.start(), at
// the end, runs it: it draws a large page's preview (the first screen's nodes, a block
// before the script) while the browser parses the data block after the script, then the
// whole tree.
"use strict";
var FG = (function () {
	var $ = function (id) { return document.getElementById(id); };
	// the profile: its header (title, countname, options), the names, as shown (no _[k]
	// mark), their colours (ABGR), the tree
	var meta = {}, names = [], shownNames = [], nameColors = null, tree = null;
	// how amounts read: a differential profile, the counts' decimals (10^-scale), times or
	// bytes for people, --factor, what percentages are of, the largest change
	var differential = false, scale = 0, humanUnits = false, factor = 1, percentOf = 0, maxDelta = 0;
	var fontSize = 12, fontWidth = 0.59, frameHeight = 16, font = "12px Verdana, sans-serif";
	var palette = null;         // background top and bottom, the root, search matches
	var functionTotals = null;  // per function: self0, self1, total0, total1
	var nodesByName = null;     // per function, its nodes (byName)
	// what the URL carries (saveState)
	var state = { view: "graph", icicle: false, zoom: 0, search: null, ignoreCase: false, selected: -1, sort: "tot", ascending: false, xf: [] };
	// search: the names that match (null: no search), the frames that match, the one shown
	// (currentMatch: the frame outlined, -1 for none; the next one is looked for from it)
	var matchedNames = null, anyMatch = false, currentMatch = -1, matchedPercent = null;
	var matchPending = false, matchScan = null; // "Matched: P%" still to count, and how far
	var graphView = null, callersView = null, calleesView = null, previewView = null;
	var sandwichTrees = null, removedTree = null;
	// the time section after the tree (page-heatmap.js reads it), the tree as read (the
	// heatmap's nodes), what else saves its state in the URL (the heatmap's ranges), and
	// the URL's fragment as opened (the page rewrites it before the heatmap's script runs)
	var timeBytes = null, readTree = null, stateHooks = [], openedHash = location.hash;

	// ---- decoding, as the data inflates: the base64 text goes to the inflater a slice at a
	// time, and what comes out is decoded as it comes (the header and names once they are
	// all there, then the columns straight into typed arrays), so no string or array holds
	// the whole inflated stream. Arrays are as narrow as the values allow (depths in 16
	// bits, names in 16 when there are few, counts in 32 until one needs more), which keeps
	// 20 M frames within a few hundred MB.

	var SHORT = { short: true }; // thrown when the bytes so far end inside the header or names
	function Reader(buf) { this.buf = buf; this.pos = 0; }
	Reader.prototype.varint = function () {
		var b = this.buf, p = this.pos, x = 0, mul = 1, c;
		do { if (p >= b.length) throw SHORT; c = b[p++]; x += (c & 127) * mul; mul *= 128; } while (c & 128);
		this.pos = p;
		return x;
	};
	Reader.prototype.take = function (n) {
		if (this.pos + n > this.buf.length) throw SHORT;
		var s = this.buf.subarray(this.pos, this.pos + n); this.pos += n; return s;
	};

	function fromBase64(text) {
		if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text);
		var bin = atob(text), n = bin.length, out = new Uint8Array(n);
		for (var i = 0; i < n; i++) out[i] = bin.charCodeAt(i);
		return out;
	}
	// the data block into a tree; its text is dropped from the document once read
	async function load(el) {
		var text = el.textContent, STEP = 1 << 22; // base64 characters a slice (a multiple of 4)
		el.textContent = "";
		var inflater = new DecompressionStream("gzip"), writer = inflater.writable.getWriter();
		var reader = inflater.readable.getReader(), dec = new StreamDecoder();
		var writing = (async function () {
			for (var at = 0; at < text.length; at += STEP) {
				await writer.ready;
				writer.write(fromBase64(text.substring(at, at + STEP))).catch(function () { /* reported by the reader */ });
			}
			await writer.close();
		})();
		writing.catch(function () { /* the reader reports it */ });
		for (;;) {
			var r = await reader.read();
			if (r.done) break;
			dec.feed(r.value);
		}
		await writing;
		api.times.decode = dec.decodeMs;
		return dec.finish();
	}

	function StreamDecoder() { this.pending = []; this.bytes = 0; this.tried = 0; this.cols = null; this.decodeMs = 0; this.tail = []; }
	StreamDecoder.prototype.feed = function (chunk) {
		var t = performance.now();
		this.take(chunk);
		this.decodeMs += performance.now() - t;
	};
	StreamDecoder.prototype.take = function (chunk) {
		if (!this.cols) {
			this.pending.push(chunk);
			this.bytes += chunk.length;
			if (this.bytes < 2 * this.tried) return; // try again when twice as much is here
			var buf = concat(this.pending), r = new Reader(buf);
			this.pending = [buf];
			try { this.cols = decodeHead(r); } catch (e) { if (e !== SHORT) throw e; this.tried = this.bytes; return; }
			this.pending = null;
			chunk = buf.subarray(r.pos);
		}
		var used = this.cols.feed(chunk);
		if (used < chunk.length) this.tail.push(chunk.subarray(used)); // the time section
	};
	StreamDecoder.prototype.finish = function () {
		if (!this.cols) { // the rest, waiting for a retry
			this.tried = 0;
			this.bytes = Infinity;
			try { this.take(new Uint8Array(0)); } catch (e) { throw e === SHORT ? new Error("the data ends early") : e; }
			if (!this.cols) throw new Error("the data ends early");
		}
		var c = this.cols;
		if (c.col < c.out.length) throw new Error("the data ends early");
		if (this.tail.length) timeBytes = concat(this.tail);
		differential = meta.differential === "1";
		return makeTree(c.out[1], c.out[0], c.out[2], differential ? c.out[3] : null);
	};
	function concat(parts) {
		if (parts.length === 1) return parts[0];
		var n = 0, k, out;
		for (k = 0; k < parts.length; k++) n += parts[k].length;
		out = new Uint8Array(n);
		for (k = 0, n = 0; k < parts.length; k++) { out.set(parts[k], n); n += parts[k].length; }
		return out;
	}

	// the header, names and colours, and the node count: the columns' decoder
	function decodeHead(r) {
		meta = {}; names = []; shownNames = [];
		var magic = String.fromCharCode.apply(null, r.take(4));
		if (magic !== "FLP1") throw new Error("not a flame graph page's data");
		var utf8 = new TextDecoder("utf-8"), dec = utf8, key;
		var str = function () { return dec.decode(r.take(r.varint())); };
		while ((key = str()) !== "") meta[key] = str();
		if (meta.encoding) { // --encoding: names and texts are in it
			try { dec = new TextDecoder(meta.encoding); } catch (e) { dec = utf8; }
			for (key in meta) if (key !== "encoding") meta[key] = dec.decode(new TextEncoder().encode(meta[key]));
		}
		decodeNames(r, utf8, dec);
		return new Columns(r.varint(), meta.differential === "1", names.length);
	}
	// The names, their shown forms and colours: one decoder call for the whole table when it
	// is all ASCII (the usual case: a call per name would cost more than the rest of the
	// decoding)
	function decodeNames(r, utf8, dec) {
		var count = r.varint(), start = new Int32Array(count), len = new Int32Array(count);
		var from = r.pos, ascii = true, i;
		for (i = 0; i < count; i++) { len[i] = r.varint(); start[i] = r.pos; r.take(len[i]); }
		for (i = from; i < r.pos && ascii; i++) if (r.buf[i] & 128) ascii = false;
		if (ascii) {
			var all = utf8.decode(r.buf.subarray(from, r.pos));
			for (i = 0; i < count; i++) names.push(all.substring(start[i] - from, start[i] - from + len[i]));
		} else {
			for (i = 0; i < count; i++) names.push(dec.decode(r.buf.subarray(start[i], start[i] + len[i])));
		}
		for (i = 0; i < count; i++) {
			var s = names[i];
			shownNames.push(s.charCodeAt(s.length - 1) === 93 ? s.replace(/_\[[kwij]\]$/, "") : s);
		}
		var rgbs = r.take(3 * count);
		nameColors = new Uint32Array(count);
		for (i = 0; i < count; i++) nameColors[i] = rgb(rgbs[3 * i], rgbs[3 * i + 1], rgbs[3 * i + 2]);
	}

	// The columns of n varints each (depth steps, names, self counts), decoded a chunk at a
	// time: a varint cut by the chunk's end carries over. out[0] holds depths. Self counts
	// start in 16 bits (most nodes of a large tree have none or a few).
	function Columns(n, diff, nameCount) {
		this.n = n; this.col = 0; this.i = 0; this.x = 0; this.mul = 1;
		this.out = [new Uint16Array(n), nameCount <= 65536 ? new Uint16Array(n) : new Int32Array(n), new Uint16Array(n)];
		if (diff) this.out.push(new Uint16Array(n));
		if (!n) this.col = this.out.length;
	}
	Columns.prototype.feed = function (b) {
		var p = 0, len = b.length;
		while (p < len && this.col < this.out.length) {
			var out = this.out[this.col], i = this.i, x = this.x, mul = this.mul, n = this.n, c;
			var isDepth = this.col === 0, wide = out instanceof Float64Array || out instanceof Int32Array;
			var limit = isDepth ? 65535 : out instanceof Uint16Array ? 65535 : 4294967295;
			while (p < len) {
				c = b[p++];
				x += (c & 127) * mul;
				if (c & 128) { mul *= 128; continue; }
				if (isDepth) x = i ? out[i - 1] + 1 - x : 0; // depth from the step up
				while (x > limit && !wide) {
					out = this.widen(out, i);
					wide = out instanceof Float64Array || out instanceof Int32Array;
					limit = out instanceof Uint16Array ? 65535 : 4294967295;
				}
				out[i++] = x;
				x = 0; mul = 1;
				if (i === n) break;
			}
			this.x = x; this.mul = mul;
			if (i === n) { this.col++; this.i = 0; } else this.i = i;
		}
		return p;
	};
	// column `col`'s array made wider (counts: 16 bits, then 32, then doubles), the first
	// `i` kept
	Columns.prototype.widen = function (out, i) {
		var counts = this.col === 2 || this.col === 3;
		var wide = !counts ? new Int32Array(this.n) : out instanceof Uint16Array ? new Uint32Array(this.n) : new Float64Array(this.n);
		wide.set(out.subarray(0, i));
		this.out[this.col] = wide;
		return wide;
	};

	// A tree in depth-first order: parent, subtree end, totals; `width` is what widths
	// measure (AFTER in a differential tree) and `childStart` where the children start inside
	// a frame (its own samples come first, as in the SVG).
	// the totals' array, from a copy of the selves: 32 bits when the sum fits
	function totals(self) {
		var sum = 0;
		for (var i = 0, n = self.length; i < n; i++) sum += self[i];
		return sum <= 4294967295 ? new Uint32Array(self) : new Float64Array(self);
	}
	function makeTree(name, depth, self0, self1) {
		var n = name.length, parent = new Int32Array(n), end = new Int32Array(n);
		var total0 = totals(self0), total1 = self1 ? totals(self1) : null;
		var open = new Int32Array(256), sp = 0, maxDepth = 0;
		for (var i = 0; i < n; i++) {
			var d = depth[i];
			if (d > maxDepth) maxDepth = d;
			while (sp > d) end[open[--sp]] = i - 1;
			parent[i] = sp ? open[sp - 1] : -1;
			if (sp === open.length) { var grown = new Int32Array(sp * 2); grown.set(open); open = grown; }
			open[sp++] = i;
		}
		while (sp) end[open[--sp]] = n - 1;
		for (i = n - 1; i > 0; i--) {
			total0[parent[i]] += total0[i];
			if (total1) total1[parent[i]] += total1[i];
		}
		return { n: n, name: name, depth: depth, parent: parent, end: end, self0: self0, self1: self1,
			total0: total0, total1: total1, width: total1 || total0, childStart: self1 || self0, maxDepth: maxDepth };
	}

	// ---- numbers, as the SVG prints them (libflame/write/layout.c, core/human.c)

	//#include human-rules.js
	//#include human.js

	// an amount in the tree's units (10^-scale of a count), as layout.c's flame__format_count
	function formatAmount(v) {
		var p = Math.pow(10, scale);
		if (humanUnits) return human(v / p * factor, meta.countname, false);
		if (factor === 1) return formatCount(v, scale, null);
		var x = v / p * factor, r = Math.floor(x + 0.5);
		if (Math.abs(x - r) < 1e-9 * Math.max(1, x) || scale === 0) return withSeparators(printfFixed(x, 0));
		var decimals = printfFixed(x - Math.floor(x), Math.max(scale, 2)).substring(1).replace(/0+$/, "").replace(/\.$/, "");
		return withSeparators(printfFixed(Math.floor(x), 0)) + decimals;
	}
	function amountWithName(v) { return humanUnits ? formatAmount(v) : formatAmount(v) + " " + meta.countname; }
	function percent(v) { return percentOf ? printfFixed(100 * v / percentOf, 2) : "0.00"; }

	function delta(tr, i) {
		return meta.diffmode === "total" ? tr.total1[i] - tr.total0[i] : tr.self1[i] - tr.self0[i];
	}

	// The tooltip and details text: "NAME (N samples, P%)", the SVG's form
	function info(tr, i) {
		var root = tr === tree && i === 0, v = tr.width[i];
		var s = (root ? "all" : shownNames[tr.name[i]]) + " (" + amountWithName(v) + ", " + (root ? "100" : percent(v)) + "%";
		if (differential) {
			var d = delta(tr, i);
			if (meta.negate === "1" && d !== 0) d = -d;
			s += "; " + (d > 0 ? "+" : "") + percent(d) + "%; before " + formatAmount(tr.total0[i]) + ", after " + formatAmount(tr.total1[i]);
			var per = +meta.diffper;
			if (per > 0) {
				var unit = humanUnits ? meta.countname : null, q = Math.pow(10, scale) * per;
				s += "; per request before " + human(tr.total0[i] * factor / q, unit, false) + ", after " + human(tr.total1[i] * factor / q, unit, false);
			}
			var st = tr.context ? null : statOf(tr, i);
			if (st) s += statText(st);
		}
		return s + ")";
	}

	// ---- colours: the SVG's per-name colours (computed by the writer), its differential
	// shades (write/color.c: flame__color_delta)

	// colours are kept as the 32-bit pixels of an ImageData (RGBA bytes, little-endian)
	function rgb(r, g, b) { return (0xff000000 | b << 16 | g << 8 | r) >>> 0; }
	function css(c) { return "rgb(" + (c & 255) + "," + (c >> 8 & 255) + "," + (c >> 16 & 255) + ")"; }
	function parseColor(s) {
		var g = document.createElement("canvas").getContext("2d");
		g.fillStyle = "#000";
		g.fillStyle = s;
		var m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/.exec(g.fillStyle);
		return m ? rgb(parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)) : rgb(0, 0, 0);
	}
	function deltaColor(v) {
		var r = 255, g = 255, b = 255, max = maxDelta;
		if (meta.negate === "1") v = -v;
		if (max <= 0) return rgb(255, 255, 255);
		if (v > max) v = max;
		if (v < -max) v = -max;
		if (v > 0) g = b = Math.floor(210 * (max - v) / max);
		else if (v < 0) r = g = Math.floor(210 * (max + v) / max);
		return rgb(r, g, b);
	}
	// a tested diff (meta.stats): per name id, [significant, change, low, high, q] of self
	// then of total; a change within noise is drawn as none
	var diffStats = null;
	function readStats() {
		if (!meta.stats) return;
		diffStats = {};
		meta.stats.split(";").forEach(function (row) {
			var v = row.split(" "), st = v.slice(1).map(Number);
			st[4] = v[5]; st[9] = v[10]; // q-values as the writer printed them
			diffStats[+v[0]] = st;
		});
	}
	function statOf(tr, i) {
		var st = diffStats && i > 0 && diffStats[tr.name[i]];
		return st ? st.slice(meta.diffmode === "total" ? 5 : 0).slice(0, 5) : null;
	}
	function statText(st) {
		var sign = meta.negate === "1" ? -1 : 1, lo = sign > 0 ? st[2] : -st[3], hi = sign > 0 ? st[3] : -st[2];
		function pc(v) { return (v > 0 ? "+" : v < 0 ? "-" : "+") + printfFixed(Math.abs(v), 2) + "%"; }
		return "; " + meta.diffmode + " " + pc(sign * st[1]) + " [" + pc(lo) + ", " + pc(hi) + "] q=" + st[4] + (st[0] ? "" : ", within noise");
	}
	function fillOf(tr, i) {
		var name = names[tr.name[i]];
		// a differential root is the sum of every change: no change of its own (as the SVG)
		if (tr.paintRoot && i === 0) return differential ? rgb(255, 255, 255) : palette.root;
		if (!differential || name === "-" || name === "--") return nameColors[tr.name[i]];
		// the frames only in BEFORE in the shrank hue, their callers grey, as the SVG's panel
		if (tr.context) return tr.context[i] ? rgb(224, 224, 224) : meta.negate === "1" ? rgb(255, 94, 94) : rgb(94, 94, 255);
		var d = delta(tr, i), st = statOf(tr, i);
		return deltaColor(Math.abs(d) < +meta.mindelta || (st && !st[0]) ? 0 : d);
	}

	// ---- layout: the frames at least half a pixel wide under the zoomed frame `zoomed`,
	// its ancestors across the whole width; x and width in px

	function layout(tr, zoomed, width) {
		var lay = { frames: [], x: [], width: [], rows: [], maxDepth: 0, tree: tr };
		var chain = [];
		for (var a = zoomed; a >= 0; a = tr.parent[a]) chain.push(a);
		for (var c = chain.length - 1; c >= 0; c--) place(lay, chain[c], 0, width, tr.depth[chain[c]]);
		var w = tr.width, childStart = tr.childStart, depth = tr.depth, end = tr.end;
		if (!(w[zoomed] > 0)) return lay;
		var pxPer = width / w[zoomed], minCount = 0.5 / pxPer;
		var next = new Float64Array(tr.maxDepth + 2); // per depth: where the next frame starts
		next[depth[zoomed] + 1] = childStart[zoomed];
		for (var i = zoomed + 1, e = end[zoomed]; i <= e;) {
			var d = depth[i], x = next[d], wi = w[i];
			next[d] = x + wi;
			if (wi < minCount) { i = end[i] + 1; continue; }
			place(lay, i, x * pxPer, wi * pxPer, d);
			next[d + 1] = x + childStart[i];
			i++;
		}
		return lay;
	}
	function place(lay, i, x, w, d) {
		var k = lay.frames.length;
		lay.frames.push(i); lay.x.push(x); lay.width.push(w);
		(lay.rows[d] || (lay.rows[d] = [])).push(k);
		if (d > lay.maxDepth) lay.maxDepth = d;
	}

	// ---- drawing: View draws a tree of nodes (the graph, or a sandwich's half) as a flame
	// graph or icicle. Only what the window shows is drawn: the canvas is the size of the
	// window (or of the graph, when smaller) and sticks to its top inside a box as tall as
	// the graph (.space), so the page scrolls through a graph of any depth while the canvas
	// stays within what browsers draw (Chromium draws no canvas over 32,767 px).

	function View(canvas, icicle) {
		this.canvas = canvas; this.space = canvas.parentNode; this.icicle = icicle;
		this.layout = null; this.current = -1; this.baseDepth = 0; this.height = 0; this.top = 0;
	}
	// the y of row `d` in the whole graph (the canvas shows it from this.top down)
	View.prototype.rowY = function (d) {
		var row = d - this.baseDepth;
		return this.icicle ? row * frameHeight : (this.layout.maxDepth - this.baseDepth - row) * frameHeight;
	};
	// lay `tr` out zoomed into `zoomed`, size the box, then paint what shows
	View.prototype.draw = function (tr, zoomed) {
		var width = this.space.clientWidth || 1200;
		var lay = this.layout = layout(tr, zoomed, width);
		this.width = width;
		this.baseDepth = tr.depth[0];
		this.height = (lay.maxDepth - this.baseDepth + 1) * frameHeight;
		this.space.style.height = this.height + "px";
		this.paint();
	};
	View.prototype.clear = function () {
		this.layout = null; this.height = 0;
		this.space.style.height = "0";
		this.canvas.style.height = "0";
	};
	// the canvas sized to the part of the graph in the window, and that part painted
	View.prototype.paint = function () {
		var lay = this.layout;
		if (!lay) return;
		var canvas = this.canvas, dpr = window.devicePixelRatio || 1;
		var h = Math.max(frameHeight, Math.min(this.height, window.innerHeight || 900));
		if (canvas.style.height !== h + "px") canvas.style.height = h + "px";
		var top = Math.round(canvas.getBoundingClientRect().top - this.space.getBoundingClientRect().top);
		this.top = Math.max(0, Math.min(this.height - h, top));
		canvas.width = Math.round(this.width * dpr);
		canvas.height = Math.round(h * dpr);
		this.viewHeight = h;
		var g = canvas.getContext("2d");
		this.fill(g, dpr);
		g.setTransform(dpr, 0, 0, dpr, 0, 0);
		this.labels(g);
		if (this.current >= 0) this.outline(g, this.current, 1.5);
	};
	// the depths whose rows show, lowest first
	View.prototype.shownRows = function () {
		var lay = this.layout, out = [];
		for (var d = this.baseDepth; d <= lay.maxDepth; d++) {
			var y = this.rowY(d) - this.top;
			if (y > -frameHeight && y < this.viewHeight && lay.rows[d]) out.push(d);
		}
		return out;
	};
	View.prototype.labels = function (g) {
		var lay = this.layout, tr = lay.tree, perChar = fontSize * fontWidth, rows = this.shownRows();
		g.font = font;
		g.textBaseline = "alphabetic";
		g.fillStyle = "#000";
		for (var r = 0; r < rows.length; r++) {
			var inRow = lay.rows[rows[r]], y = this.rowY(rows[r]) - this.top + (frameHeight - 1) / 2 + 3;
			for (var q = 0; q < inRow.length; q++) {
				var k = inRow[q], chars = Math.floor(lay.width[k] / perChar);
				if (chars < 3) continue;
				var i = lay.frames[k];
				var s = tr === tree && i === 0 ? "all" : shownNames[tr.name[i]], codePoints = Array.from(s);
				if (codePoints.length > chars) s = codePoints.slice(0, chars - 2).join("") + "..";
				g.fillText(s, lay.x[k] + 3, y);
			}
		}
	};
	// the background and the rectangles as pixels: one line per frame, then each row's line
	// copied down the row (a fillRect and a colour per frame would cost ten times as much)
	View.prototype.fill = function (g, dpr) {
		var lay = this.layout, tr = lay.tree, W = this.canvas.width, H = this.canvas.height;
		var img = g.createImageData(W || 1, H || 1), px = new Uint32Array(img.data.buffer), y, q;
		var all = this.height * dpr, from = this.top * dpr;
		for (y = 0; y < H; y++) {
			var t = Math.min(1, Math.max(0, ((y + from) / all - 0.05) / 0.9));
			px.fill(mix(palette.top, palette.bottom, t), y * W, (y + 1) * W);
		}
		var marked = tr === tree ? matchedNames : null, rows = this.shownRows();
		var rowHeight = Math.round((frameHeight - 1) * dpr);
		for (var r = 0; r < rows.length; r++) {
			var inRow = lay.rows[rows[r]], y0 = Math.round((this.rowY(rows[r]) - this.top) * dpr), line = Math.max(0, y0);
			if (line >= H || y0 + rowHeight <= 0) continue;
			for (q = 0; q < inRow.length; q++) {
				var k = inRow[q], i = lay.frames[k];
				var x0 = Math.round(lay.x[k] * dpr), x1 = Math.min(W, Math.max(x0 + 1, Math.round((lay.x[k] + lay.width[k]) * dpr)));
				px.fill(marked && marked[tr.name[i]] ? palette.search : fillOf(tr, i), line * W + x0, line * W + x1);
			}
			for (y = line + 1; y < y0 + rowHeight && y < H; y++) px.copyWithin(y * W, line * W, (line + 1) * W);
		}
		g.putImageData(img, 0, 0);
	};
	function mix(a, b, t) {
		var f = function (shift) { return Math.round((a >> shift & 255) * (1 - t) + (b >> shift & 255) * t); };
		return rgb(f(0), f(8), f(16));
	}
	View.prototype.outline = function (g, i, lineWidth) {
		var lay = this.layout, k = lay.frames.indexOf(i);
		if (k < 0) return;
		g.strokeStyle = "#000";
		g.lineWidth = lineWidth;
		g.strokeRect(lay.x[k] + 0.5, this.rowY(lay.tree.depth[i]) - this.top + 0.5, Math.max(lay.width[k] - 1, 0.5), frameHeight - 2);
	};
	// scroll the window so row `d` shows: at the bottom of the window in a flame graph (its
	// callees above it), at the top in an icicle. True when it scrolled (then paint again)
	View.prototype.reveal = function (d) {
		if (!this.layout) return false;
		var boxTop = this.space.getBoundingClientRect().top + window.scrollY, y = this.rowY(d);
		var inView = window.innerHeight || 900, slack = 2 * frameHeight;
		var target = this.icicle ? boxTop + y - slack : boxTop + y + frameHeight + slack - inView;
		if (!this.icicle && this.height + boxTop <= inView) return false; // all of it shows from the top
		if (y + boxTop >= window.scrollY && y + boxTop + frameHeight <= window.scrollY + inView - slack) return false;
		var from = window.scrollY;
		window.scrollTo(window.scrollX, Math.max(0, target));
		return window.scrollY !== from;
	};
	// the frame under the mouse: the row by y, then a binary search by x in it; -1 for none
	View.prototype.frameAt = function (e) {
		var lay = this.layout;
		if (!lay) return -1;
		var r = this.canvas.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top + this.top;
		var row = Math.floor(y / frameHeight), d = this.icicle ? row + this.baseDepth : lay.maxDepth - row;
		if (y - row * frameHeight >= frameHeight - 1) return -1;
		var inRow = lay.rows[d];
		if (!inRow) return -1;
		var lo = 0, hi = inRow.length - 1;
		while (lo <= hi) {
			var mid = (lo + hi) >> 1, k = inRow[mid];
			if (x < lay.x[k]) hi = mid - 1;
			else if (x >= lay.x[k] + lay.width[k]) lo = mid + 1;
			else return lay.frames[k];
		}
		return -1;
	};

	// ---- the tip and details line

	function showTip(e, text) {
		var tip = $("tip");
		if (text === null) { tip.hidden = true; return; }
		tip.textContent = text;
		tip.hidden = false;
		var x = e.clientX + 12, y = e.clientY + 18, w = tip.offsetWidth, h = tip.offsetHeight;
		if (x + w > window.innerWidth - 2) x = Math.max(2, window.innerWidth - w - 2);
		if (y + h > window.innerHeight - 2) y = e.clientY - h - 6;
		tip.style.left = x + "px";
		tip.style.top = y + "px";
	}
	function details(text) { $("details").textContent = text === null ? "\u00a0" : (meta.nametype ? meta.nametype + " " : "") + text; }

	function hookView(view, treeOf, onClick) {
		view.canvas.addEventListener("mousemove", function (e) {
			var i = view.frameAt(e);
			if (i < 0) { showTip(e, null); details(null); return; }
			var text = info(treeOf(), i);
			showTip(e, text);
			details(text);
		});
		view.canvas.addEventListener("mouseleave", function (e) { showTip(e, null); details(null); });
		view.canvas.addEventListener("click", function (e) { var i = view.frameAt(e); if (i >= 0) onClick(i); });
	}

	// ---- the main graph

	function graphTree() { return state.view === "removed" ? removedTreeOf() : tree; }

	function drawGraph() {
		var tr = graphTree();
		graphView.icicle = state.icicle;
		graphView.current = currentMatch >= 0 && state.view === "graph" ? currentMatch : -1;
		graphView.draw(tr, state.zoom < tr.n ? state.zoom : 0);
		crumbs();
	}

	function crumbs() {
		var el = $("crumbs"), tr = graphTree();
		el.textContent = "";
		if (state.view !== "graph" && state.view !== "removed") return;
		var chain = [];
		for (var a = state.zoom; a >= 0; a = tr.parent[a]) chain.unshift(a);
		chain.forEach(function (a, k) {
			if (k) el.appendChild(document.createTextNode(" \u203a "));
			var crumb = document.createElement("span");
			crumb.className = "c";
			crumb.textContent = a === 0 ? "all" : shownNames[tr.name[a]];
			crumb.addEventListener("click", function () { zoom(a); });
			el.appendChild(crumb);
		});
	}

	function zoom(i) {
		state.zoom = i;
		if (i > 0) state.selected = graphTree().name[i];
		drawGraph();
		revealZoom();
		saveState();
	}
	// the zoomed frame (the root, unzoomed) in the window
	function revealZoom() {
		var tr = graphTree();
		if (graphView.reveal(tr.depth[state.zoom < tr.n ? state.zoom : 0])) graphView.paint();
	}

	// The frames found only in BEFORE (AFTER is 0) on the path of their callers, widths by
	// BEFORE, as the SVG's panel draws them; callers are grey context.
	function removedTreeOf() {
		if (removedTree) return removedTree;
		var n = tree.n, width = new Float64Array(n), below = new Float64Array(n), childStart = new Float64Array(n);
		var context = new Uint8Array(n);
		for (var i = n - 1; i >= 0; i--) {
			var gone = tree.total1[i] === 0 && tree.total0[i] > 0 && i > 0;
			width[i] = gone ? tree.total0[i] : below[i];
			childStart[i] = width[i] - below[i];
			context[i] = gone ? 0 : 1;
			if (i > 0) below[tree.parent[i]] += width[i];
		}
		removedTree = Object.assign({}, tree, { width: width, childStart: childStart, context: context });
		return removedTree;
	}

	// ---- search: a regex over the names (each name once), "Matched: P%" as the SVG
	// computes it (frames inside a matched frame are not counted again)

	function compile(term) {
		try { return new RegExp(term, state.ignoreCase ? "i" : ""); } catch (e) { return null; }
	}
	// `term` searched for, or its matches given (`hits`: name indices, from the worker);
	// `quiet`: not drawn (a step to the first match follows)
	function search(term, hits, quiet) {
		if (term === null || term === "") { clearSearch(); return true; }
		var marked = new Uint8Array(names.length);
		if (hits) {
			hits.forEach(function (k) { marked[k] = 1; });
		} else {
			var re = compile(term);
			if (!re) { $("search").classList.add("bad"); return false; }
			for (var k = 0; k < names.length; k++) if (re.test(shownNames[k])) marked[k] = 1;
		}
		$("search").classList.remove("bad");
		marked[tree.name[0]] = 0;
		state.search = term;
		matchedNames = marked;
		currentMatch = -1;
		if ($("search").value !== term) $("search").value = term;
		// a tree of a million nodes or more draws its matches first: the pass over every
		// node for the percentage follows the paint (or comes sooner when asked for)
		matchPending = true;
		matchScan = null;
		if (tree.n < (1 << 20)) countMatches();
		else {
			$("matched").textContent = "Matched: \u2026";
			requestAnimationFrame(function () { countMatchesLater(marked); });
		}
		if (quiet) return true;
		redraw();
		saveState();
		return true;
	}
	// "Matched: P%": the matched frames' weight, frames inside a matched one not again;
	// `budget` nodes at most (a slice: false when more are left), else to the end
	function countMatches(budget) {
		if (!matchPending || !matchedNames) return true;
		var sc = matchScan || (matchScan = { i: 1, count: 0, found: false });
		var marked = matchedNames, count = sc.count, found = sc.found, name = tree.name, end = tree.end, width = tree.width;
		var n = tree.n, i = sc.i, stop = budget ? Math.min(n, i + budget) : n;
		while (i < stop) {
			if (marked[name[i]]) { count += width[i]; i = end[i] + 1; found = true; } else i++;
		}
		sc.i = i; sc.count = count; sc.found = found;
		if (i < n) return false;
		matchPending = false;
		matchScan = null;
		var p = tree.width[0] > 0 ? 100 * count / tree.width[0] : 0;
		matchedPercent = p === 100 ? "100" : p.toFixed(1);
		anyMatch = found;
		$("matched").textContent = "Matched: " + matchedPercent + "%";
		return true;
	}
	// the pass in slices of a million nodes, input answered between them, until done or
	// another search starts
	function countMatchesLater(marked) {
		setTimeout(function slice() {
			if (matchedNames === marked && !countMatches(1 << 20)) setTimeout(slice, 0);
		}, 0);
	}
	function clearSearch() {
		state.search = null;
		matchedNames = null;
		matchPending = false;
		matchScan = null;
		anyMatch = false;
		currentMatch = -1;
		matchedPercent = null;
		$("search").value = "";
		$("search").classList.remove("bad");
		$("matched").textContent = "";
		redraw();
		saveState();
	}
	// the next (1) or previous (-1) match: outlined, named in the details line, and zoomed
	// into when the zoom hides it or it is too narrow to see
	function step(dir) {
		if (matchPending ? !someMatch() : !anyMatch) return false;
		if (state.view !== "graph") setView("graph");
		var i = currentMatch, n = tree.n;
		if (i < 0) i = dir > 0 ? 0 : n;
		do { i += dir; if (i >= n) i = 1; else if (i < 1) i = n - 1; } while (!matchedNames[tree.name[i]]);
		currentMatch = i;
		var width = graphView.space.clientWidth || 1200;
		var inZoom = i >= state.zoom && i <= tree.end[state.zoom], pxPer = width / tree.width[state.zoom];
		if (!inZoom || tree.width[i] * pxPer < 0.5) state.zoom = inZoom ? tree.parent[i] : 0;
		if (tree.width[i] * width / tree.width[state.zoom] < 0.5) state.zoom = i;
		drawGraph();
		if (graphView.reveal(tree.depth[i])) graphView.paint(); // the match in the window
		details(info(tree, i));
		saveState();
		return true;
	}
	// whether a node matches, before the count says (the first one is usually near)
	function someMatch() {
		for (var i = 1, n = tree.n, name = tree.name; i < n; i++) if (matchedNames[name[i]]) return true;
		return false;
	}

	//#include search.js

	// ---- per function: self summed over every frame; total once per stack (a frame
	// inside another frame of the same name adds nothing), as speedscope and pprof count

	function functions() {
		if (functionTotals) return functionTotals;
		var count = names.length, n = tree.n;
		var self0 = new Float64Array(count), self1 = new Float64Array(count), total0 = new Float64Array(count), total1 = new Float64Array(count);
		var onStack = new Int32Array(count), open = new Int32Array(tree.maxDepth + 2), sp = 0;
		var depth = tree.depth, nameOf = tree.name, s0 = tree.self0, t0 = tree.total0, s1 = tree.self1, t1 = tree.total1;
		for (var i = 1; i < n; i++) {
			var d = depth[i], name = nameOf[i];
			while (sp >= d) onStack[nameOf[open[--sp]]]--;
			self0[name] += s0[i];
			if (s1) self1[name] += s1[i];
			if (!onStack[name]) { total0[name] += t0[i]; if (t1) total1[name] += t1[i]; }
			onStack[name]++;
			open[sp++] = i;
		}
		functionTotals = { self0: self0, self1: self1, total0: total0, total1: total1 };
		return functionTotals;
	}

	// ---- sandwich: trees merged by name path, built from the occurrences of one function
	// (in a Builder, the transforms' typed tree maker)

	function subtree(o) {
		var e = tree.end[o] + 1, depth = tree.depth.slice(o, e), base = tree.depth[o];
		for (var i = 0; i < depth.length; i++) depth[i] -= base;
		return makeTree(tree.name.slice(o, e), depth, tree.self0.slice(o, e), differential ? tree.self1.slice(o, e) : null);
	}
	// the frames of function `f` not inside another of its frames, in the tree's order
	function occurrences(f) {
		var found = [], name = tree.name, end = tree.end, n = tree.n, at = nodesByName;
		if (at) {
			for (var k = at.first[f], last = -1; k < at.first[f + 1]; k++) {
				var o = at.node[k];
				if (o > last && o > 0) { found.push(o); last = end[o]; }
			}
			return found;
		}
		for (var i = 1; i < n;) {
			if (name[i] === f) { found.push(i); i = end[i] + 1; } else i++;
		}
		return found;
	}
	// The nodes of each name in the tree's order (node[first[f]] to node[first[f + 1] - 1]),
	// by a counting sort of the name column: built when the page is idle, for the tree as
	// read when it has a million nodes or more (where a pass over every node takes longer
	// than a click may)
	function byName() {
		if (nodesByName || tree.n < 1 << 20) return nodesByName;
		var K = names.length, n = tree.n, name = tree.name, first = new Int32Array(K + 1), node = new Int32Array(n), i;
		for (i = 0; i < n; i++) first[name[i] + 1]++;
		for (i = 0; i < K; i++) first[i + 1] += first[i];
		var at = first.slice(0, K);
		for (i = 0; i < n; i++) node[at[name[i]]++] = i;
		nodesByName = { first: first, node: node };
		return nodesByName;
	}
	function sandwich(f) {
		var occ = occurrences(f), up = new Builder(64, f), down = new Builder(64, f);
		var one = occ.length === 1; // the callees are that frame's subtree as it is
		var depth = tree.depth, name = tree.name, parent = tree.parent, at = new Int32Array(tree.maxDepth + 2);
		for (var k = 0; k < occ.length; k++) {
			// callers: the path above the occurrence, its total on the outermost caller
			var o = occ[k], c = 0;
			for (var p = parent[o]; p > 0; p = parent[p]) c = up.child(c, name[p]);
			up.addAmount(c, tree.total0[o], differential ? tree.total1[o] : 0);
			if (one) continue;
			// callees: each frame below, by its path of names, with its own samples
			down.add(0, tree, o);
			var base = depth[o];
			at[0] = 0;
			for (var i = o + 1, e = tree.end[o]; i <= e; i++) {
				var d = depth[i] - base, m = down.child(at[d - 1], name[i]);
				at[d] = m;
				down.add(m, tree, i);
			}
		}
		return { f: f, up: up.tree(), down: one ? subtree(occ[0]) : down.tree() };
	}

	function drawSandwich() {
		var f = state.selected, head = $("sw-head");
		if (f < 0) {
			head.textContent = "Select a function: click a frame in the graph or a row of the table.";
			callersView.clear();
			calleesView.clear();
			return;
		}
		if (!sandwichTrees || sandwichTrees.f !== f) sandwichTrees = sandwich(f);
		var fn = functions(), selfAmount = differential ? fn.self1[f] : fn.self0[f], totalAmount = differential ? fn.total1[f] : fn.total0[f];
		var text = shownNames[f] + ": self " + amountWithName(selfAmount) + " (" + percent(selfAmount) + "%), total " +
			amountWithName(totalAmount) + " (" + percent(totalAmount) + "%)";
		if (differential) text += "; before: self " + formatAmount(fn.self0[f]) + ", total " + formatAmount(fn.total0[f]);
		head.textContent = text;
		callersView.icicle = false;
		callersView.draw(sandwichTrees.up, 0);
		calleesView.icicle = true;
		calleesView.draw(sandwichTrees.down, 0);
	}

	// ---- the table of every function, drawn a screenful of rows at a time

	var ROW_HEIGHT = 20, tableRows = [], tableColumns = [];
	function columnsOf() {
		var fn = functions();
		var c = [{ key: "name", head: "Function", get: function (f) { return shownNames[f]; }, text: true }];
		if (!differential) {
			c.push({ key: "self", head: "Self", get: function (f) { return fn.self0[f]; } },
				{ key: "selfp", head: "Self %", get: function (f) { return fn.self0[f]; }, percent: true },
				{ key: "tot", head: "Total", get: function (f) { return fn.total0[f]; } },
				{ key: "totp", head: "Total %", get: function (f) { return fn.total0[f]; }, percent: true });
		} else {
			c.push({ key: "self", head: "Self after", get: function (f) { return fn.self1[f]; } },
				{ key: "selfd", head: "Self delta", get: function (f) { return fn.self1[f] - fn.self0[f]; }, delta: true },
				{ key: "tot0", head: "Total before", get: function (f) { return fn.total0[f]; } },
				{ key: "tot", head: "Total after", get: function (f) { return fn.total1[f]; } },
				{ key: "totp", head: "Total %", get: function (f) { return fn.total1[f]; }, percent: true },
				{ key: "delta", head: "Total delta", get: function (f) { return fn.total1[f] - fn.total0[f]; }, delta: true });
		}
		return c;
	}
	function cellText(column, f) {
		var v = column.get(f);
		if (column.text) return v;
		if (column.percent) return percent(v) + "%";
		if (column.delta) return (v > 0 ? "+" : v < 0 ? "-" : "") + formatAmount(Math.abs(v));
		return formatAmount(v);
	}
	function buildTable() {
		var fn = functions();
		tableColumns = columnsOf();
		var head = $("t-head");
		head.textContent = "";
		$("v-table").style.setProperty("--cols", tableColumns.map(function (c) { return c.text ? "minmax(12em, 1fr)" : "9em"; }).join(" "));
		tableColumns.forEach(function (c) {
			var h = document.createElement("div");
			h.textContent = c.head;
			h.dataset.k = c.key;
			if (!c.text) h.className = "n";
			if (state.sort === c.key) h.classList.add("sorted");
			if (state.sort === c.key && state.ascending) h.classList.add("asc");
			h.addEventListener("click", function () {
				if (state.sort === c.key) state.ascending = !state.ascending; else { state.sort = c.key; state.ascending = !!c.text; }
				buildTable();
				saveState();
			});
			head.appendChild(h);
		});
		var column = tableColumns.filter(function (c) { return c.key === state.sort; })[0] || tableColumns[3] || tableColumns[1];
		var rows = [];
		for (var f = 0; f < names.length; f++) {
			if (f === tree.name[0] && !fn.self0[f] && !fn.total0[f]) continue;
			if (!fn.total0[f] && !fn.total1[f]) continue;
			if (matchedNames && !matchedNames[f]) continue;
			rows.push(f);
		}
		var key = rows.map(column.get), order = rows.map(function (_, k) { return k; });
		order.sort(function (a, b) {
			var x = key[a], y = key[b], r = x < y ? -1 : x > y ? 1 : 0;
			if (column.delta && !state.ascending) r = Math.abs(y) - Math.abs(x) || r; // largest change first
			else if (!state.ascending) r = -r;
			return r || (shownNames[rows[a]] < shownNames[rows[b]] ? -1 : 1);
		});
		tableRows = order.map(function (k) { return rows[k]; });
		$("t-body").style.height = tableRows.length * ROW_HEIGHT + "px";
		$("t-foot").textContent = tableRows.length + " functions" + (matchedNames ? " matching the search" : "");
		paintRows();
	}
	function paintRows() {
		var scroller = $("t-scroll"), body = $("t-body");
		var first = Math.max(0, Math.floor(scroller.scrollTop / ROW_HEIGHT) - 10);
		var last = Math.min(tableRows.length, first + Math.ceil((scroller.clientHeight || 600) / ROW_HEIGHT) + 20);
		body.textContent = "";
		var frag = document.createDocumentFragment();
		for (var r = first; r < last; r++) {
			var f = tableRows[r], row = document.createElement("div");
			row.className = f === state.selected ? "row sel" : "row";
			row.style.top = r * ROW_HEIGHT + "px";
			row.dataset.f = f;
			for (var c = 0; c < tableColumns.length; c++) {
				var cell = document.createElement("div");
				cell.textContent = cellText(tableColumns[c], f);
				if (!tableColumns[c].text) cell.className = "n";
				row.appendChild(cell);
			}
			frag.appendChild(row);
		}
		body.appendChild(frag);
	}

	// ---- transforms of the call tree (state.xf, in order, each kept in the link): focus
	// (the stacks through a function, rooted at it), drop (the stacks through it), merge
	// (its frames go, their time stays with the callers), only (merge every frame that does
	// not match), rec (collapse recursion: a function met again takes the stack back to its
	// first call), inv (invert). The same rules as the tools' --focus, --drop, --merge and
	// --collapse-recursion (libflame/xform/transform.c) and flame-render's --reverse: a
	// stack left with no frame is dropped. Each step maps every node of the tree before it to
	// a node of a new tree (parents first, so a node's place follows from its parent's),
	// built in typed arrays with an open-addressing table of (parent, name) -> node.

	var XF_OPS = { f: "focus", d: "drop", m: "merge", o: "only", r: "rec", i: "inv" };
	var XF_LABELS = { focus: "Focus", drop: "Drop", merge: "Merge", only: "Only", rec: "Collapse recursion", inv: "Invert" };
	var baseTree = null, undoStack = [], nameRank = null, nameOfRank = null;

	function Builder(capacity, rootName) {
		this.n = 1; this.cap = Math.max(16, capacity);
		this.name = new Int32Array(this.cap); this.parent = new Int32Array(this.cap);
		this.self0 = new Float64Array(this.cap); this.self1 = differential ? new Float64Array(this.cap) : null;
		this.name[0] = rootName; this.parent[0] = -1;
		this.slots = new Int32Array(64); this.mask = 63;
	}
	Builder.prototype.grow = function () {
		var cap = this.cap * 2, self = this;
		["name", "parent", "self0", "self1"].forEach(function (k) {
			if (!self[k]) return;
			var a = new self[k].constructor(cap);
			a.set(self[k]);
			self[k] = a;
		});
		this.cap = cap;
	};
	Builder.prototype.slot = function (p, nm) {
		var h = (Math.imul(p, 0x9e3779b1) ^ Math.imul(nm, 0x85ebca77)) >>> 0, m = this.mask, v;
		for (h &= m; (v = this.slots[h]) !== 0; h = (h + 1) & m) {
			if (this.parent[v] === p && this.name[v] === nm) return h;
		}
		return h;
	};
	// the child of `p` named `nm`, made when new
	Builder.prototype.child = function (p, nm) {
		var h = this.slot(p, nm), v = this.slots[h];
		if (v) return v;
		if (this.n === this.cap) this.grow();
		v = this.n++;
		this.name[v] = nm; this.parent[v] = p;
		this.slots[h] = v;
		if (this.n * 2 > this.mask) {
			this.slots = new Int32Array((this.mask + 1) * 2); this.mask = this.slots.length - 1;
			for (var k = 1; k < this.n; k++) this.slots[this.slot(this.parent[k], this.name[k])] = k;
		}
		return v;
	};
	Builder.prototype.addAmount = function (v, a0, a1) {
		this.self0[v] += a0;
		if (this.self1) this.self1[v] += a1;
	};
	Builder.prototype.add = function (v, src, i) {
		this.self0[v] += src.self0[i];
		if (this.self1) this.self1[v] += src.self1[i];
	};
	// to a tree in depth-first order, siblings by name (as the writer orders them): every
	// node but the root keyed parent * K + the rank of its name, one numeric sort of the
	// keys, so each parent's children come together in name order (siblings' names differ)
	Builder.prototype.tree = function () {
		var n = this.n, first = new Int32Array(n + 1), kids = new Int32Array(n), v, k, K = names.length;
		rankNames();
		var keys = new Float64Array(n - 1), nm = this.name;
		for (v = 1; v < n; v++) keys[v - 1] = this.parent[v] * K + nameRank[nm[v]];
		keys.sort();
		for (k = 0; k < n - 1; k++) {
			var p = Math.floor(keys[k] / K);
			kids[k] = this.slots[this.slot(p, nameOfRank[keys[k] - p * K])];
			first[p + 1]++;
		}
		for (v = 0; v < n; v++) first[v + 1] += first[v];
		var name = new Int32Array(n), depth = new Int32Array(n), self0 = new Float64Array(n), self1 = this.self1 ? new Float64Array(n) : null;
		var todo = new Int32Array(n), todoDepth = new Int32Array(n), sp = 0, out = 0;
		todo[sp] = 0; todoDepth[sp++] = 0;
		while (sp) {
			v = todo[--sp];
			var d = todoDepth[sp];
			name[out] = nm[v]; depth[out] = d; self0[out] = this.self0[v];
			if (self1) self1[out] = this.self1[v];
			out++;
			for (k = first[v + 1] - 1; k >= first[v]; k--) { todo[sp] = kids[k]; todoDepth[sp++] = d + 1; }
		}
		return makeTree(name, depth, self0, self1);
	};

	// each name's place in name order (a sort of every name: done once, when the page is idle)
	function rankNames() {
		if (nameRank) return;
		var K = names.length, byName = names.map(function (_, f) { return f; }).sort(function (a, b) { return names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0; });
		nameRank = new Int32Array(K);
		nameOfRank = new Int32Array(byName);
		byName.forEach(function (f, r) { nameRank[f] = r; });
	}

	var PENDING = -2, GONE = -1;
	// one step on `src`: a new tree
	function transformOnce(src, step) {
		var b = new Builder(src.n, src.name[0]), n = src.n, map = new Int32Array(n), i, p, nm;
		if (step.op === "inv") {
			for (i = 1; i < n; i++) {
				if (!src.self0[i] && !(src.self1 && src.self1[i])) continue;
				for (p = i, nm = 0; p > 0; p = src.parent[p]) nm = b.child(nm, src.name[p]);
				b.add(nm, src, i);
			}
			return b.tree();
		}
		var hit = step.re ? matcher(step) : null, op = step.op;
		map[0] = op === "focus" ? PENDING : 0;
		for (i = 1; i < n; i++) {
			var m = map[src.parent[i]], v;
			nm = src.name[i];
			if (m === GONE) { for (var e = src.end[i]; i <= e; i++) map[i] = GONE; i--; continue; }
			if (op === "focus") v = m === PENDING ? (hit[nm] ? b.child(0, nm) : PENDING) : b.child(m, nm);
			else if (op === "drop") v = hit[nm] ? GONE : b.child(m, nm);
			else if (op === "merge" || op === "only") v = (hit[nm] !== 0) === (op === "merge") ? m : b.child(m, nm);
			else { // rec
				for (v = m; v > 0 && b.name[v] !== nm; v = b.parent[v]);
				if (v <= 0) v = b.child(m, nm);
			}
			map[i] = v;
			if (v > 0) b.add(v, src, i);
		}
		return b.tree();
	}
	// the names a step's regex matches (1), as a search does over the names as they are
	function matcher(step) {
		var re = new RegExp(step.re), hit = new Uint8Array(names.length);
		for (var k = 0; k < names.length; k++) hit[k] = re.test(names[k]) ? 1 : 0;
		return hit;
	}
	function validStep(step) {
		if (!XF_LABELS[step.op]) return false;
		if (step.op === "rec" || step.op === "inv") return true;
		try { new RegExp(step.re); return true; } catch (e) { return false; }
	}

	// state.xf applied to the profile as read: the tree every view shows
	function applyTransforms() {
		var t = baseTree;
		for (var k = 0; k < state.xf.length; k++) t = transformOnce(t, state.xf[k]);
		tree = t;
		tree.paintRoot = true;
		functionTotals = null; sandwichTrees = null; removedTree = null; nodesByName = null;
		showTransforms();
	}
	// a step added by the bar (or removed, or undone): the tree again, zoom reset, search kept
	function setTransforms(xf) {
		undoStack.push(state.xf);
		state.xf = xf;
		state.zoom = 0;
		applyTransforms();
		if (state.search !== null) search(state.search); else { redraw(); saveState(); }
		if (state.view === "graph") revealZoom();
	}
	function undo() {
		if (!undoStack.length) return;
		state.xf = undoStack.pop();
		state.zoom = 0;
		applyTransforms();
		if (state.search !== null) search(state.search); else { redraw(); saveState(); }
	}
	// the regex a button's step takes: the search's, else the selected function's name
	function stepRegex() {
		if (state.search) return state.search;
		if (state.selected >= 0) return "^" + escapeRegExp(names[state.selected]) + "$";
		return null;
	}
	function addStep(op) {
		var step = { op: op };
		if (op !== "rec" && op !== "inv") {
			step.re = stepRegex();
			if (step.re === null) { $("xf").textContent = "Search or select a function first."; return; }
		}
		if (!validStep(step)) return;
		setTransforms(state.xf.concat([step]));
		if (op !== "rec" && op !== "inv" && state.search !== null) clearSearch();
	}
	function showTransforms() {
		var el = $("xf");
		el.textContent = "";
		state.xf.forEach(function (step, k) {
			var chip = document.createElement("span"), x = document.createElement("b");
			chip.className = "x";
			chip.textContent = XF_LABELS[step.op] + (step.re !== undefined ? ": " + step.re : "");
			x.textContent = "\u00d7";
			x.title = "Remove this transform";
			x.addEventListener("click", function () { setTransforms(state.xf.filter(function (_, j) { return j !== k; })); });
			chip.appendChild(x);
			el.appendChild(chip);
		});
		$("x-undo").disabled = !undoStack.length;
	}
	// the link's form: steps joined by ";", each its letter, then ":" and the regex
	function xfToLink(xf) {
		return xf.map(function (step) {
			for (var letter in XF_OPS) if (XF_OPS[letter] === step.op) break;
			return letter + (step.re !== undefined ? ":" + encodeURIComponent(step.re) : "");
		}).join(";");
	}
	function xfFromLink(text) {
		var out = [];
		(text || "").split(";").forEach(function (part) {
			var op = XF_OPS[part.charAt(0)], step = { op: op };
			if (!op) return;
			if (op !== "rec" && op !== "inv") {
				try { step.re = decodeURIComponent(part.substring(2)); } catch (e) { return; }
			}
			if (validStep(step)) out.push(step);
		});
		return out;
	}
	// the tree's stacks as folded text (what flame-collapse writes for the same transforms):
	// every node with samples of its own, its path from the root's child, its counts
	function foldedStacks() {
		var lines = [], path = [], p10 = Math.pow(10, scale);
		var num = function (v) { return scale ? (v / p10).toFixed(scale).replace(/\.?0+$/, "") : String(v); };
		for (var i = 1; i < tree.n; i++) {
			path[tree.depth[i] - 1] = names[tree.name[i]];
			var a = tree.self0[i], b = tree.self1 ? tree.self1[i] : 0;
			if (!a && !b) continue;
			lines.push(path.slice(0, tree.depth[i]).join(";") + " " + num(a) + (tree.self1 ? " " + num(b) : ""));
		}
		return lines.sort().join("\n") + (lines.length ? "\n" : "");
	}

	// ---- views

	function setView(view) {
		state.view = view;
		var graphLike = view === "graph" || view === "removed";
		["graph", "sandwich", "table", "removed"].forEach(function (k) { $("b-" + k).classList.toggle("on", k === view); });
		$("v-graph").hidden = !graphLike;
		$("v-sandwich").hidden = view !== "sandwich";
		$("v-table").hidden = view !== "table";
		$("b-orient").hidden = !graphLike;
		$("b-reset").hidden = !graphLike;
		redraw();
		saveState();
	}
	function redraw() {
		if (!tree) return;
		if (state.view === "graph" || state.view === "removed") drawGraph();
		else if (state.view === "sandwich") drawSandwich();
		else buildTable();
		$("b-orient").textContent = state.icicle ? "Flame graph" : "Icicle";
		$("b-case").classList.toggle("on", state.ignoreCase);
	}
	function select(f) {
		state.selected = f;
		sandwichTrees = null;
		setView("sandwich");
	}

	// ---- events

	function onKey(e) {
		var typing = e.target && e.target.tagName === "INPUT";
		if (e.key === "Escape") {
			if (typing) e.target.blur();
			clearSearch();
			state.zoom = 0;
			redraw();
			saveState();
		} else if (typing || e.ctrlKey || e.metaKey || e.altKey) {
			return;
		} else if (e.key === "/") {
			e.preventDefault();
			$("search").focus();
			$("search").select();
		} else if (e.key === "n") {
			step(1);
		} else if (e.key === "N") {
			step(-1);
		} else if (e.key === "u") {
			undo();
		}
	}

	function hookControls() {
		$("b-graph").addEventListener("click", function () { setView("graph"); });
		$("b-sandwich").addEventListener("click", function () { setView("sandwich"); });
		$("b-table").addEventListener("click", function () { setView("table"); });
		$("b-removed").addEventListener("click", function () { state.zoom = 0; setView("removed"); });
		$("b-orient").addEventListener("click", function () { state.icicle = !state.icicle; redraw(); revealZoom(); saveState(); });
		$("b-reset").addEventListener("click", function () { zoom(0); });
		["focus", "drop", "merge", "only", "rec", "inv"].forEach(function (op) {
			$("x-" + op).addEventListener("click", function () { addStep(op); });
		});
		$("x-undo").addEventListener("click", undo);
		$("b-case").addEventListener("click", function () {
			state.ignoreCase = !state.ignoreCase;
			if (state.search !== null) search(state.search); else redraw();
			saveState();
		});
		$("b-prev").addEventListener("click", function () { step(-1); });
		$("b-next").addEventListener("click", function () { step(1); });
		var typed = 0;
		$("search").addEventListener("input", function () {
			clearTimeout(typed);
			var term = this.value;
			typed = setTimeout(function () { search(term); }, 150);
		});
		$("search").addEventListener("keydown", function (e) {
			if (e.key === "Enter") {
				clearTimeout(typed);
				var stepping = state.view === "graph";
				search(this.value, null, stepping);
				if (stepping && !step(e.shiftKey ? -1 : 1)) { redraw(); saveState(); }
			}
		});
		$("t-scroll").addEventListener("scroll", paintRows);
		$("t-body").addEventListener("click", function (e) {
			var row = e.target.closest(".row");
			if (row) select(+row.dataset.f);
		});
		window.addEventListener("keydown", onKey);
		var resized = 0;
		window.addEventListener("resize", function () { clearTimeout(resized); resized = setTimeout(redraw, 100); });
		// scrolling through a tall graph paints the rows that come into the window
		var scrolled = false;
		window.addEventListener("scroll", function () {
			if (scrolled) return;
			scrolled = true;
			requestAnimationFrame(function () {
				scrolled = false;
				[graphView, callersView, calleesView].forEach(function (v) { if (v.layout && v.canvas.offsetParent) v.paint(); });
			});
		});
	}

	// ---- URL state: #v=VIEW&o=icicle&z=FRAME&s=REGEX&i=1&f=FUNCTION&k=SORT

	function saveState() {
		var parts = [];
		if (state.view !== "graph") parts.push("v=" + state.view);
		if (state.icicle) parts.push("o=icicle");
		if (state.zoom > 0) parts.push("z=" + state.zoom);
		if (state.search !== null) parts.push("s=" + encodeURIComponent(state.search));
		if (state.ignoreCase) parts.push("i=1");
		if (state.selected >= 0) parts.push("f=" + encodeURIComponent(names[state.selected]));
		if (state.sort !== defaultSort() || state.ascending) parts.push("k=" + state.sort + (state.ascending ? "+" : ""));
		if (state.xf.length) parts.push("x=" + xfToLink(state.xf));
		stateHooks.forEach(function (fn) { parts = parts.concat(fn()); });
		var hash = parts.length ? "#" + parts.join("&") : "";
		if (hash !== location.hash) {
			try { history.replaceState(null, "", location.pathname + location.search + (hash || "#")); } catch (e) { /* some file: URLs */ }
		}
	}
	// the table's first order: a diff's by the size of the total change, largest first
	function defaultSort() { return differential ? "delta" : "tot"; }
	// the state restored from the URL; returns its search, if any
	function loadState() {
		state.sort = defaultSort();
		var query = {};
		location.hash.substring(1).split("&").forEach(function (kv) {
			var eq = kv.indexOf("=");
			if (eq < 0) return;
			if (kv.substring(0, eq) === "x") { query.x = kv.substring(eq + 1); return; } // its regexes are escaped one by one
			try { query[kv.substring(0, eq)] = decodeURIComponent(kv.substring(eq + 1)); } catch (e) { /* bad escape */ }
		});
		if (/^(graph|sandwich|table|removed)$/.test(query.v || "") && (query.v !== "removed" || differential)) state.view = query.v;
		if (query.o === "icicle") state.icicle = true; else if (query.o === "flame") state.icicle = false;
		state.xf = xfFromLink(query.x);
		if (state.xf.length) applyTransforms();
		var z = parseInt(query.z, 10);
		if (z > 0 && z < tree.n) state.zoom = z;
		state.ignoreCase = query.i === "1";
		if (query.f !== undefined && names.indexOf(query.f) >= 0) state.selected = names.indexOf(query.f);
		if (query.k) { state.ascending = /\+$/.test(query.k); state.sort = query.k.replace(/\+$/, ""); }
		return query.s;
	}

	// ---- start

	async function start() {
		var t0 = performance.now();
		if ("scrollRestoration" in history) history.scrollRestoration = "manual"; // the link says what shows, not a reload's scroll
		try {
			await preview($("flame-preview"), t0);
		} catch (e) {
			tree = null; // the whole tree follows, and says what is wrong with the page
		}
		// the script comes before the data block, so the preview shows while it is parsed
		if (document.readyState === "loading") await new Promise(function (r) { document.addEventListener("DOMContentLoaded", r); });
		try {
			tree = baseTree = readTree = await load($("flame-data"));
			api.times.inflate = performance.now() - t0 - api.times.decode; // base64 and gzip, and waiting on them
		} catch (e) {
			fail("This page could not read its profile: " + e.message);
			return;
		}
		readOptions();
		var title = meta.title || (state.icicle ? "Icicle Graph" : "Flame Graph");
		document.title = title;
		$("title").textContent = title;
		$("subtitle").textContent = meta.subtitle || "";
		if (meta.notes) { $("notes").textContent = meta.notes; $("notes").hidden = false; }
		$("b-removed").hidden = !differential;
		if (!(tree.width[0] > 0) && !(differential && tree.total0[0] > 0)) { fail("ERROR: No valid input provided"); return; }
		graphView = new View($("c-graph"), state.icicle);
		callersView = new View($("c-callers"), false);
		calleesView = new View($("c-callees"), true);
		hookView(graphView, graphTree, function (i) { zoom(i); });
		hookView(callersView, function () { return sandwichTrees.up; }, function (i) { if (i > 0) select(sandwichTrees.up.name[i]); });
		hookView(calleesView, function () { return sandwichTrees.down; }, function (i) { if (i > 0) select(sandwichTrees.down.name[i]); });
		hookControls();
		var term = loadState(), t1 = performance.now();
		showTransforms();
		setView(state.view);
		if (state.view === "graph" || state.view === "removed") revealZoom(); // a tall flame graph opens on its root
		api.times.draw = performance.now() - t1;
		api.loadMs = performance.now() - t0;
		if (!api.times.firstPaint) painted();
		$("details").textContent = "\u00a0";
		// the per-function totals (the table's, the sandwich's head) once the page is idle: a
		// pass over every frame, taken before the first click needs it
		// (FG.times.idle: their time; FG.settled once done)
		var idle = window.requestIdleCallback || setTimeout, work = [functions, rankNames, byName];
		api.times.idle = 0;
		(function next() {
			if (!work.length) { api.settled = true; return; }
			idle(function () { var t = performance.now(); work.shift()(); api.times.idle += performance.now() - t; next(); });
		})();
		if (term === undefined || term === "") { api.ready = true; return; }
		searchBounded(term, state.ignoreCase, shownNames, {
			found: function (hits) { search(term, hits); api.ready = true; },
			stopped: function () {
				clearSearch();
				$("search").value = term;
				$("matched").textContent = SEARCH_STOPPED;
				api.ready = true;
			},
			literal: function (text) { search(text); api.ready = true; }
		});
	}
	// A large page's preview (write/html.c: the nodes the first screen can show, the rest of
	// each subtree folded into one node), drawn while the browser parses the data block;
	// only when the link asks for no more than an orientation. The whole tree replaces it.
	async function preview(el, t0) {
		var hash = location.hash.replace(/^#/, "");
		if (!el || (hash && !/^o=(icicle|flame)$/.test(hash))) return;
		tree = await load(el);
		readOptions();
		if (/^o=/.test(hash)) state.icicle = hash === "o=icicle";
		document.title = $("title").textContent = meta.title || (state.icicle ? "Icicle Graph" : "Flame Graph");
		$("subtitle").textContent = meta.subtitle || "";
		if (!(tree.width[0] > 0)) return;
		graphView = new View($("c-graph"), state.icicle);
		graphView.draw(tree, 0);
		if (graphView.reveal(0)) graphView.paint();
		$("details").textContent = "Reading the whole profile\u2026";
		api.times.preview = performance.now() - t0;
		painted();
		previewView = { view: graphView, tree: tree, names: names, shownNames: shownNames, nameColors: nameColors };
		tree = null; // nothing acts on the preview's nodes
	}
	// the time of the first frame drawn (FG.times.firstPaint, from navigation)
	function painted() {
		requestAnimationFrame(function () { requestAnimationFrame(function () { if (!api.times.firstPaint) api.times.firstPaint = performance.now(); }); });
	}
	// the header's options: how amounts read, fonts, colours, orientation
	function readOptions() {
		scale = +meta.scale || 0;
		factor = +meta.factor || 1;
		humanUnits = meta.human === "1" && unitKind(meta.countname) !== "count";
		fontSize = +meta.fontsize || 12; fontWidth = +meta.fontwidth || 0.59; frameHeight = +meta.frameheight || 16;
		font = fontSize + "px " + (meta.fonttype || "Verdana") + ", sans-serif";
		var colors = (meta.colors || "#eeeeee #eeeeb0 #ffffff rgb(230,0,230)").split(" ").map(parseColor);
		palette = { top: colors[0], bottom: colors[1], root: colors[2], search: colors[3] };
		state.icicle = meta.inverted === "1";
		tree.paintRoot = true; // the "all" frame, in the root colour (the removed view's too)
		percentOf = Math.max(tree.width[0], +meta.total || 0);
		if (differential) for (var i = 1; i < tree.n; i++) maxDelta = Math.max(maxDelta, Math.abs(delta(tree, i)));
		readStats();
	}
	function fail(message) {
		var el = document.createElement("div");
		el.id = "error";
		el.textContent = message;
		document.querySelector("main").replaceChildren(el);
		api.ready = true;
	}

	var api = {
		ready: false, settled: false, start: start, times: {}, loadMs: 0,
		// for tests and benchmarks: the state and the drawn frames, read-only
		state: function () { return JSON.parse(JSON.stringify(state)); },
		tree: function () { return tree; }, names: function () { return names; }, meta: function () { return meta; },
		// the preview's frames as drawn (as drawn() gives the graph's), undefined without one
		previewed: function () {
			if (!previewView) return undefined;
			var p = previewView, keep = [tree, names, shownNames, nameColors];
			tree = p.tree; names = p.names; shownNames = p.shownNames; nameColors = p.nameColors; // as it was drawn
			try { return api.drawn(p.view); } finally { tree = keep[0]; names = keep[1]; shownNames = keep[2]; nameColors = keep[3]; }
		},
		drawn: function (which) {
			var view = which instanceof View ? which : which === "callers" ? callersView : which === "callees" ? calleesView : graphView;
			if (!view || !view.layout) return [];
			// the frames laid out in the rows the window shows
			var lay = view.layout, r = view.canvas.getBoundingClientRect(), out = [], rows = view.shownRows();
			for (var q = 0; q < rows.length; q++) {
				for (var p = 0, inRow = lay.rows[rows[q]]; p < inRow.length; p++) {
					var k = inRow[p], i = lay.frames[k];
					out.push({ i: i, name: lay.tree === tree && i === 0 ? "all" : names[lay.tree.name[i]], x: r.left + lay.x[k], w: lay.width[k],
						y: r.top + view.rowY(lay.tree.depth[i]) - view.top, info: info(lay.tree, i), fill: css(fillOf(lay.tree, i)) });
				}
			}
			return out.sort(function (a, b) { return a.i - b.i; });
		},
		matched: function () { countMatches(); return matchedPercent; },
		functions: function () {
			var fn = functions();
			return { self0: Array.from(fn.self0), self1: Array.from(fn.self1), total0: Array.from(fn.total0), total1: Array.from(fn.total1) };
		},
		sandwichTrees: function () { return sandwichTrees; },
		tableRows: function () { return tableRows.map(function (f) { return tableColumns.map(function (c) { return cellText(c, f); }); }); },
		formatAmount: formatAmount,
		// for the heatmap (page-heatmap.js): the time section, the search's names, the graph
		// drawn again from other self counts of the same nodes (two: a diff), the URL
		timeData: function () { return timeBytes; },
		baseTree: function () { return readTree; },
		matchedNames: function () { return matchedNames; },
		useSelf: useSelf,
		onSaveState: function (fn) { stateHooks.push(fn); },
		openedHash: function () { return openedHash; },
		saveState: function () { saveState(); },
		// the stacks the page shows (after its transforms) as sorted folded text
		folded: foldedStacks
	};
	// The nodes of the tree as read with self counts `s0` (and `s1`: a diff, BEFORE and
	// AFTER; null: the profile as read when both are): the tree the transforms start from,
	// every view drawn again.
	function useSelf(s0, s1) {
		differential = !!s1;
		baseTree = s0 ? makeTree(readTree.name, readTree.depth, s0, s1 || null) : readTree;
		percentOf = Math.max(baseTree.width[0], +meta.total || 0);
		maxDelta = 0;
		if (differential) for (var i = 1; i < baseTree.n; i++) maxDelta = Math.max(maxDelta, Math.abs(delta(baseTree, i)));
		applyTransforms();
		if (state.zoom >= tree.n) state.zoom = 0; // an inverted tree's nodes follow the counts
		$("b-removed").hidden = !differential;
		if (state.view === "removed" && !differential) state.view = "graph";
		if (state.search !== null) search(state.search); else redraw();
	}
	return api;
})();
FG.start();
