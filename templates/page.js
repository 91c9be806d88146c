// The HTML flame graph page (written by libflame/write/html.c): decodes the embedded
// profile (base64 of gzip of the stream html.c describes) into typed arrays, then draws
// it on canvases: the flame graph or icicle of the whole tree, laid out again at every
// zoom with only the frames wider than half a pixel; the sandwich view of one function
// (callers merged over every place it appears, above it; callees below); the table of
// every function; the frames found only in BEFORE of a differential profile. Names are
// data: they reach the page only as canvas text and textContent.
"use strict";
var FG = (function () {
	var $ = function (id) { return document.getElementById(id); };
	var M = {};            // the header: title, countname, options
	var NAMES = [], DISP = [], COLOR = null; // names, as shown (no _[k] mark), colours (ABGR)
	var T = null;          // the main tree
	var DIFF = false, SCALE = 1, HUMAN = false, FACTOR = 1, TIMEMAX = 0, MAXDELTA = 0;
	var FS = 12, FW = 0.59, FH = 16, FONT = "12px Verdana, sans-serif";
	var COLORS = [];       // bg top, bg bottom, root, search colour
	var FN = null;         // per function: self0, self1, tot0, tot1
	var S = { view: "graph", icicle: false, zoom: 0, search: null, ic: false, fn: -1, sort: "tot", asc: false };
	var match = null, matchList = [], matchCur = -1, matchedPct = null;
	var G = null, CALLERS = null, CALLEES = null, SW = null;
	var removedTree = null;

	// ---- decoding

	function Reader(buf) { this.b = buf; this.p = 0; }
	Reader.prototype.v = function () {
		var b = this.b, p = this.p, x = 0, mul = 1, c;
		do { c = b[p++]; x += (c & 127) * mul; mul *= 128; } while (c & 128);
		this.p = p;
		return x;
	};
	Reader.prototype.bytes = function (n) { var s = this.b.subarray(this.p, this.p + n); this.p += n; return s; };

	async function inflate(b64) {
		var u;
		if (Uint8Array.fromBase64) {
			u = Uint8Array.fromBase64(b64);
		} else {
			var bin = atob(b64), n = bin.length;
			u = new Uint8Array(n);
			for (var i = 0; i < n; i++) u[i] = bin.charCodeAt(i);
		}
		var s = new Blob([u]).stream().pipeThrough(new DecompressionStream("gzip"));
		return new Uint8Array(await new Response(s).arrayBuffer());
	}

	function decode(buf) {
		var r = new Reader(buf);
		var magic = String.fromCharCode.apply(null, r.bytes(4));
		if (magic !== "FLP1") throw new Error("not a flame graph page's data");
		var utf8 = new TextDecoder("utf-8"), dec = utf8, k, v;
		var str = function () { return dec.decode(r.bytes(r.v())); };
		for (;;) {
			k = str();
			if (k === "") break;
			v = str();
			M[k] = v;
		}
		if (M.encoding) { // --encoding: names and texts are in it
			try { dec = new TextDecoder(M.encoding); } catch (e) { dec = utf8; }
			for (var key in M) if (key !== "encoding") M[key] = dec.decode(new TextEncoder().encode(M[key]));
		}
		// names: one decoder call for the whole table when it is all ASCII (the usual
		// case: a call per name would cost more than the rest of the decoding)
		var K = r.v(), start = new Int32Array(K), len = new Int32Array(K), from = r.p, ascii = true, i;
		for (i = 0; i < K; i++) { len[i] = r.v(); start[i] = r.p; r.p += len[i]; }
		for (i = from; i < r.p && ascii; i++) if (r.b[i] & 128) ascii = false;
		if (ascii) {
			var all = utf8.decode(r.b.subarray(from, r.p));
			for (i = 0; i < K; i++) NAMES.push(all.substring(start[i] - from, start[i] - from + len[i]));
		} else {
			for (i = 0; i < K; i++) NAMES.push(dec.decode(r.b.subarray(start[i], start[i] + len[i])));
		}
		for (i = 0; i < K; i++) {
			var s = NAMES[i];
			DISP.push(s.charCodeAt(s.length - 1) === 93 ? s.replace(/_\[[kwij]\]$/, "") : s);
		}
		var cb = r.bytes(3 * K);
		COLOR = new Uint32Array(K);
		for (i = 0; i < K; i++) COLOR[i] = rgb(cb[3 * i], cb[3 * i + 1], cb[3 * i + 2]);
		DIFF = M.differential === "1";
		var n = r.v(), depth = new Int32Array(n), name = new Int32Array(n), s0 = new Float64Array(n), s1 = DIFF ? new Float64Array(n) : null;
		r.p = column(r.b, r.p, depth);
		for (i = 1; i < n; i++) depth[i] = depth[i - 1] + 1 - depth[i];
		r.p = column(r.b, r.p, name);
		r.p = column(r.b, r.p, s0);
		if (DIFF) r.p = column(r.b, r.p, s1);
		return makeTree(name, depth, s0, s1);
	}
	// a column of varints into `out`, from b[p]; returns where it ends (one tight loop:
	// millions of values)
	function column(b, p, out) {
		for (var i = 0, n = out.length; i < n; i++) {
			var c = b[p++], x = c & 127;
			if (c & 128) {
				var mul = 128;
				do { c = b[p++]; x += (c & 127) * mul; mul *= 128; } while (c & 128);
			}
			out[i] = x;
		}
		return p;
	}

	// A tree in depth-first order: parent, subtree end, totals; `w` is what widths measure
	// (AFTER in a differential tree) and `off` where the children start inside a frame
	// (its own samples come first, as in the SVG).
	function makeTree(name, depth, s0, s1) {
		var n = name.length, parent = new Int32Array(n), end = new Int32Array(n);
		var t0 = new Float64Array(s0), t1 = s1 ? new Float64Array(s1) : null;
		var stack = new Int32Array(256), sp = 0, maxd = 0;
		for (var i = 0; i < n; i++) {
			var d = depth[i];
			if (d > maxd) maxd = d;
			while (sp > d) end[stack[--sp]] = i - 1;
			parent[i] = sp ? stack[sp - 1] : -1;
			if (sp === stack.length) { var ns = new Int32Array(sp * 2); ns.set(stack); stack = ns; }
			stack[sp++] = i;
		}
		while (sp) end[stack[--sp]] = n - 1;
		for (i = n - 1; i > 0; i--) {
			t0[parent[i]] += t0[i];
			if (t1) t1[parent[i]] += t1[i];
		}
		return { n: n, name: name, depth: depth, parent: parent, end: end, s0: s0, s1: s1, t0: t0, t1: t1,
			w: t1 || t0, off: s1 || s0, maxd: maxd };
	}

	// ---- numbers, as the SVG prints them (libflame/write/layout.c, core/human.c)

	function commas(digits) { return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
	function sig3(x) {
		if (x >= 99.95 || x === 0) return commas(x.toFixed(0));
		var dec = x >= 9.995 ? 1 : x >= 0.9995 ? 2 : 2 - Math.floor(Math.log10(x));
		return x.toFixed(Math.min(dec, 12));
	}
	function scaled(x, names, step) {
		var u = 0;
		while (u + 1 < names.length && x >= step * 0.9995) { x /= step; u++; }
		return sig3(x) + " " + names[u];
	}
	var TIME = { nanoseconds: 1, ns: 1, microseconds: 1e3, us: 1e3, milliseconds: 1e6, ms: 1e6, seconds: 1e9, s: 1e9 };
	function human(v, unit) {
		var sign = v < 0 ? "-" : "", x = Math.abs(v);
		if (TIME.hasOwnProperty(unit)) return sign + (x === 0 ? "0 s" : scaled(x * TIME[unit], ["ns", "us", "ms", "s"], 1000));
		if (unit === "bytes" || unit === "B") return sign + scaled(x, ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"], 1024);
		return sign + sig3(x);
	}
	function fmtCount(v) { // v in the tree's units (10^-scale)
		var p = Math.pow(10, SCALE);
		if (HUMAN) return human(v / p * FACTOR, M.countname);
		if (FACTOR === 1) {
			var ip = Math.floor(v / p), fr = v - ip * p, s = commas(ip.toFixed(0));
			if (fr > 0) s += ("." + String(Math.round(fr) + p).substring(1)).replace(/0+$/, "");
			return s;
		}
		var x = v / p * FACTOR, r = Math.floor(x + 0.5);
		if (Math.abs(x - r) < 1e-9 * Math.max(1, x) || SCALE === 0) return commas(x.toFixed(0));
		var f = (x - Math.floor(x)).toFixed(Math.max(SCALE, 2)).substring(1).replace(/0+$/, "").replace(/\.$/, "");
		return commas(Math.floor(x).toFixed(0)) + f;
	}
	function countWithName(v) { return HUMAN ? fmtCount(v) : fmtCount(v) + " " + M.countname; }
	function pct(v) { return TIMEMAX ? (100 * v / TIMEMAX).toFixed(2) : "0.00"; }

	function delta(tr, i) {
		return M.diffmode === "total" ? tr.t1[i] - tr.t0[i] : tr.s1[i] - tr.s0[i];
	}

	// The tooltip and details text: "NAME (N samples, P%)", the SVG's form
	function info(tr, i) {
		var root = tr === T && i === 0, v = tr.w[i];
		var s = (root ? "all" : DISP[tr.name[i]]) + " (" + countWithName(v) + ", " + (root ? "100" : pct(v)) + "%";
		if (DIFF) {
			var d = delta(tr, i);
			if (M.negate === "1" && d !== 0) d = -d;
			s += "; " + (d > 0 ? "+" : "") + pct(d) + "%; before " + fmtCount(tr.t0[i]) + ", after " + fmtCount(tr.t1[i]);
			var per = +M.diffper;
			if (per > 0) {
				var u = HUMAN ? M.countname : null, q = Math.pow(10, SCALE) * per;
				s += "; per request before " + human(tr.t0[i] * FACTOR / q, u) + ", after " + human(tr.t1[i] * FACTOR / q, u);
			}
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
		var r = 255, g = 255, b = 255, max = MAXDELTA;
		if (M.negate === "1") v = -v;
		if (max <= 0) return rgb(255, 255, 255);
		if (v > max) v = max;
		if (v < -max) v = -max;
		if (v > 0) g = b = Math.floor(210 * (max - v) / max);
		else if (v < 0) r = g = Math.floor(210 * (max + v) / max);
		return rgb(r, g, b);
	}
	function fillOf(tr, i) {
		var nm = NAMES[tr.name[i]];
		if (tr.root0 && i === 0) return COLORS[2];
		if (!DIFF || nm === "-" || nm === "--") return COLOR[tr.name[i]];
		if (tr.context && tr.context[i]) return rgb(200, 200, 200);
		var d = delta(tr, i);
		return deltaColor(Math.abs(d) < +M.mindelta ? 0 : d);
	}

	// ---- layout: the frames at least half a pixel wide under the zoomed frame `z`, its
	// ancestors across the whole width; x and width in px

	function layout(tr, z, width) {
		var L = { idx: [], x: [], w: [], rows: [], maxd: 0, tr: tr };
		var chain = [];
		for (var a = z; a >= 0; a = tr.parent[a]) chain.push(a);
		for (var c = chain.length - 1; c >= 0; c--) add(L, chain[c], 0, width, tr.depth[chain[c]]);
		var w = tr.w, off = tr.off, depth = tr.depth, end = tr.end;
		if (!(w[z] > 0)) return L;
		var scale = width / w[z], minc = 0.5 / scale;
		var next = new Float64Array(tr.maxd + 2);
		next[depth[z] + 1] = off[z];
		for (var i = z + 1, e = end[z]; i <= e;) {
			var d = depth[i], x = next[d], wi = w[i];
			next[d] = x + wi;
			if (wi < minc) { i = end[i] + 1; continue; }
			add(L, i, x * scale, wi * scale, d);
			next[d + 1] = x + off[i];
			i++;
		}
		return L;
	}
	function add(L, i, x, w, d) {
		var k = L.idx.length;
		L.idx.push(i); L.x.push(x); L.w.push(w);
		(L.rows[d] || (L.rows[d] = [])).push(k);
		if (d > L.maxd) L.maxd = d;
	}

	// ---- drawing

	function View(canvas, icicle) { this.c = canvas; this.icicle = icicle; this.L = null; this.hover = -1; this.cur = -1; this.base = 0; }
	View.prototype.rowY = function (d) {
		var r = d - this.base;
		return this.icicle ? r * FH : (this.L.maxd - this.base - r) * FH;
	};
	View.prototype.draw = function (tr, z) {
		var c = this.c, width = c.parentNode.clientWidth || 1200;
		var L = this.L = layout(tr, z, width);
		this.base = tr.depth[0];
		var h = (L.maxd - this.base + 1) * FH, dpr = window.devicePixelRatio || 1;
		c.width = Math.round(width * dpr);
		c.height = Math.round(h * dpr);
		c.style.height = h + "px";
		var g = c.getContext("2d");
		// the rectangles as pixels: one line per frame, then each row's line copied down
		// the row (a fillRect and a colour per frame would cost ten times as much)
		var W = c.width, H = c.height, img = g.createImageData(W || 1, H || 1), px = new Uint32Array(img.data.buffer);
		for (var y = 0; y < H; y++) {
			var t = Math.min(1, Math.max(0, (y / H - 0.05) / 0.9));
			px.fill(mix(COLORS[0], COLORS[1], t), y * W, (y + 1) * W);
		}
		var mk = tr === T ? match : null, rowLine = new Int32Array(L.maxd + 1).fill(-1), k, i;
		for (k = 0; k < L.idx.length; k++) {
			i = L.idx[k];
			var d = tr.depth[i], y0 = rowLine[d];
			if (y0 < 0) y0 = rowLine[d] = Math.round(this.rowY(d) * dpr);
			var x0 = Math.round(L.x[k] * dpr), x1 = Math.min(W, Math.max(x0 + 1, Math.round((L.x[k] + L.w[k]) * dpr)));
			px.fill(mk && mk[tr.name[i]] ? COLORS[3] : fillOf(tr, i), y0 * W + x0, y0 * W + x1);
		}
		var rh = Math.round((FH - 1) * dpr);
		for (d = 0; d <= L.maxd; d++) {
			y0 = rowLine[d];
			for (y = 1; y0 >= 0 && y < rh && y0 + y < H; y++) px.copyWithin((y0 + y) * W, y0 * W, (y0 + 1) * W);
		}
		g.putImageData(img, 0, 0);
		g.setTransform(dpr, 0, 0, dpr, 0, 0);
		g.font = FONT;
		g.textBaseline = "alphabetic";
		var per = FS * FW;
		g.fillStyle = "#000";
		for (k = 0; k < L.idx.length; k++) {
			var chars = Math.floor(L.w[k] / per);
			if (chars < 3) continue;
			i = L.idx[k];
			var s = tr === T && i === 0 ? "all" : DISP[tr.name[i]], cps = Array.from(s);
			if (cps.length > chars) s = cps.slice(0, chars - 2).join("") + "..";
			g.fillText(s, L.x[k] + 3, this.rowY(tr.depth[i]) + (FH - 1) / 2 + 3);
		}
		if (this.cur >= 0) this.outline(g, this.cur, 1.5);
	};
	function mix(a, b, t) {
		var f = function (sh) { return Math.round((a >> sh & 255) * (1 - t) + (b >> sh & 255) * t); };
		return rgb(f(0), f(8), f(16));
	}
	View.prototype.outline = function (g, i, lw) {
		var L = this.L, k = L.idx.indexOf(i);
		if (k < 0) return;
		g.strokeStyle = "#000";
		g.lineWidth = lw;
		g.strokeRect(L.x[k] + 0.5, this.rowY(L.tr.depth[i]) + 0.5, Math.max(L.w[k] - 1, 0.5), FH - 2);
	};
	// the frame index under a mouse event, or -1
	View.prototype.hit = function (e) {
		var L = this.L;
		if (!L) return -1;
		var r = this.c.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
		var row = Math.floor(y / FH), d = this.icicle ? row + this.base : L.maxd - row;
		if (y - row * FH >= FH - 1) return -1;
		var ks = L.rows[d];
		if (!ks) return -1;
		var lo = 0, hi = ks.length - 1;
		while (lo <= hi) {
			var mid = (lo + hi) >> 1, k = ks[mid];
			if (x < L.x[k]) hi = mid - 1;
			else if (x >= L.x[k] + L.w[k]) lo = mid + 1;
			else return L.idx[k];
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
	function details(text) { $("details").textContent = text === null ? "\u00a0" : (M.nametype ? M.nametype + " " : "") + text; }

	function hookView(v, trOf, onClick) {
		v.c.addEventListener("mousemove", function (e) {
			var i = v.hit(e), tr = trOf();
			if (i < 0) { showTip(e, null); details(null); return; }
			var t = info(tr, i);
			showTip(e, t);
			details(t);
		});
		v.c.addEventListener("mouseleave", function (e) { showTip(e, null); details(null); });
		v.c.addEventListener("click", function (e) { var i = v.hit(e); if (i >= 0) onClick(i); });
	}

	// ---- the main graph

	function graphTree() { return S.view === "removed" ? removedTreeOf() : T; }

	function drawGraph() {
		var tr = graphTree();
		G.icicle = S.icicle;
		G.cur = matchCur >= 0 && S.view === "graph" ? matchList[matchCur] : -1;
		G.draw(tr, S.zoom < tr.n ? S.zoom : 0);
		crumbs();
	}

	function crumbs() {
		var el = $("crumbs"), tr = graphTree();
		el.textContent = "";
		if (S.view !== "graph" && S.view !== "removed") return;
		var chain = [];
		for (var a = S.zoom; a >= 0; a = tr.parent[a]) chain.unshift(a);
		chain.forEach(function (a, k) {
			if (k) el.appendChild(document.createTextNode(" \u203a "));
			var sp = document.createElement("span");
			sp.className = "c";
			sp.textContent = a === 0 ? "all" : DISP[tr.name[a]];
			sp.addEventListener("click", function () { zoom(a); });
			el.appendChild(sp);
		});
	}

	function zoom(i) {
		S.zoom = i;
		if (i > 0) S.fn = graphTree().name[i];
		drawGraph();
		saveState();
	}

	// The frames found only in BEFORE (AFTER is 0) on the path of their callers, widths by
	// BEFORE, as the SVG's panel draws them; callers are grey context.
	function removedTreeOf() {
		if (removedTree) return removedTree;
		var n = T.n, rw = new Float64Array(n), acc = new Float64Array(n), off = new Float64Array(n);
		var ctx = new Uint8Array(n);
		for (var i = n - 1; i >= 0; i--) {
			var gone = T.t1[i] === 0 && T.t0[i] > 0 && i > 0;
			rw[i] = gone ? T.t0[i] : acc[i];
			off[i] = rw[i] - acc[i];
			ctx[i] = gone ? 0 : 1;
			if (i > 0) acc[T.parent[i]] += rw[i];
		}
		removedTree = Object.assign({}, T, { w: rw, off: off, context: ctx });
		return removedTree;
	}

	// ---- search: a regex over the names (each name once), "Matched: P%" as the SVG
	// computes it (frames inside a matched frame are not counted again)

	function compile(t) {
		try { return new RegExp(t, S.ic ? "i" : ""); } catch (e) { return null; }
	}
	function search(t, hitsOrNull) {
		if (t === null || t === "") { clearSearch(); return true; }
		var m = new Uint8Array(NAMES.length);
		if (hitsOrNull) {
			hitsOrNull.forEach(function (k) { m[k] = 1; });
		} else {
			var re = compile(t);
			if (!re) { $("search").classList.add("bad"); return false; }
			for (var k = 0; k < NAMES.length; k++) if (re.test(DISP[k])) m[k] = 1;
		}
		$("search").classList.remove("bad");
		m[T.name[0]] = 0;
		S.search = t;
		match = m;
		var count = 0, list = [];
		for (var i = 1; i < T.n; i++) if (m[T.name[i]]) list.push(i);
		for (i = 1; i < T.n;) {
			if (m[T.name[i]]) { count += T.w[i]; i = T.end[i] + 1; } else i++;
		}
		var p = T.w[0] > 0 ? 100 * count / T.w[0] : 0;
		matchedPct = p === 100 ? "100" : p.toFixed(1);
		matchList = list;
		matchCur = -1;
		if ($("search").value !== t) $("search").value = t;
		$("matched").textContent = "Matched: " + matchedPct + "%";
		redraw();
		saveState();
		return true;
	}
	function clearSearch() {
		S.search = null;
		match = null;
		matchList = [];
		matchCur = -1;
		matchedPct = null;
		$("search").value = "";
		$("search").classList.remove("bad");
		$("matched").textContent = "";
		redraw();
		saveState();
	}
	// next (1) or previous (-1) match: outlined, named in the details line, and zoomed
	// into when the zoom hides it or it is too narrow to see
	function step(dir) {
		if (!matchList.length) return;
		if (S.view !== "graph") setView("graph");
		matchCur = matchCur < 0 ? (dir > 0 ? 0 : matchList.length - 1) : (matchCur + dir + matchList.length) % matchList.length;
		var i = matchList[matchCur];
		var inZoom = i >= S.zoom && i <= T.end[S.zoom];
		var scale = (G.c.parentNode.clientWidth || 1200) / T.w[S.zoom];
		if (!inZoom || T.w[i] * scale < 0.5) S.zoom = inZoom ? T.parent[i] : 0;
		if (T.w[i] * (G.c.parentNode.clientWidth || 1200) / T.w[S.zoom] < 0.5) S.zoom = i;
		drawGraph();
		details(info(T, i));
		saveState();
	}

	// A search from the URL (a link anyone can write) runs in a worker with a time budget,
	// as the SVG's does: a pattern that backtracks for ever is stopped instead of freezing
	// the page. Where no worker can run, the text is searched for literally.
	var URL_SEARCH_MS = 1500;
	function searchBounded(t, done) {
		var w, src = "onmessage=function(e){var re=new RegExp(e.data.t,e.data.f),r=[],N=e.data.n;" +
			"for(var i=0;i<N.length;i++)if(re.test(N[i]))r.push(i);postMessage(r);};";
		try {
			new RegExp(t);
			w = new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" })));
		} catch (e) {
			search(t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
			done();
			return;
		}
		var timer = setTimeout(function () {
			w.terminate();
			clearSearch();
			$("search").value = t;
			$("matched").textContent = "Search stopped: took over " + URL_SEARCH_MS / 1000 + " s";
			done();
		}, URL_SEARCH_MS);
		w.onmessage = function (e) { clearTimeout(timer); w.terminate(); search(t, e.data); done(); };
		w.onerror = function () { clearTimeout(timer); w.terminate(); search(t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")); done(); };
		w.postMessage({ t: t, f: S.ic ? "i" : "", n: DISP });
	}

	// ---- per function: self summed over every frame; total once per stack (a frame
	// inside another frame of the same name adds nothing), as speedscope and pprof count

	function functions() {
		if (FN) return FN;
		var K = NAMES.length, n = T.n;
		var self0 = new Float64Array(K), self1 = new Float64Array(K), tot0 = new Float64Array(K), tot1 = new Float64Array(K);
		var on = new Int32Array(K), stack = new Int32Array(T.maxd + 2), sp = 0;
		for (var i = 1; i < n; i++) {
			var d = T.depth[i], nm = T.name[i];
			while (sp >= d) on[T.name[stack[--sp]]]--;
			self0[nm] += T.s0[i];
			if (DIFF) self1[nm] += T.s1[i];
			if (!on[nm]) { tot0[nm] += T.t0[i]; if (DIFF) tot1[nm] += T.t1[i]; }
			on[nm]++;
			stack[sp++] = i;
		}
		FN = { self0: self0, self1: self1, tot0: tot0, tot1: tot1 };
		return FN;
	}

	// ---- sandwich: trees merged by name path, built from occurrences of one function

	function Merged() { this.name = [0]; this.parent = [-1]; this.t0 = [0]; this.t1 = [0]; this.kids = new Map(); }
	Merged.prototype.child = function (p, nm) {
		var key = p * 4294967296 + nm, c = this.kids.get(key);
		if (c === undefined) {
			c = this.name.length;
			this.kids.set(key, c);
			this.name.push(nm); this.parent.push(p); this.t0.push(0); this.t1.push(0);
		}
		return c;
	};
	// to a tree in depth-first order, children by name, selves = total - children's
	Merged.prototype.tree = function (rootName) {
		var n = this.name.length, kids = [], i;
		this.name[0] = rootName;
		for (i = 0; i < n; i++) kids.push(null);
		for (i = 1; i < n; i++) (kids[this.parent[i]] || (kids[this.parent[i]] = [])).push(i);
		var self = this, cmp = function (a, b) { var x = NAMES[self.name[a]], y = NAMES[self.name[b]]; return x < y ? -1 : x > y ? 1 : 0; };
		var order = new Int32Array(n), depth = new Int32Array(n), k = 0, st = [0], sd = [0];
		while (st.length) {
			var v = st.pop(), d = sd.pop();
			order[k] = v; depth[k++] = d;
			var ks = kids[v];
			if (ks) { ks.sort(cmp); for (var j = ks.length - 1; j >= 0; j--) { st.push(ks[j]); sd.push(d + 1); } }
		}
		var name = new Int32Array(n), s0 = new Float64Array(n), s1 = DIFF ? new Float64Array(n) : null;
		for (i = 0; i < n; i++) {
			v = order[i];
			name[i] = this.name[v];
			var c0 = this.t0[v], c1 = this.t1[v], ks2 = kids[v];
			if (ks2) for (j = 0; j < ks2.length; j++) { c0 -= this.t0[ks2[j]]; c1 -= this.t1[ks2[j]]; }
			s0[i] = Math.max(0, c0);
			if (s1) s1[i] = Math.max(0, c1);
		}
		return makeTree(name, depth, s0, s1);
	};

	function subtree(o) {
		var e = T.end[o] + 1, depth = T.depth.slice(o, e), base = T.depth[o];
		for (var i = 0; i < depth.length; i++) depth[i] -= base;
		return makeTree(T.name.slice(o, e), depth, T.s0.slice(o, e), DIFF ? T.s1.slice(o, e) : null);
	}
	function occurrences(f) {
		var occ = [];
		for (var i = 1; i < T.n;) {
			if (T.name[i] === f) { occ.push(i); i = T.end[i] + 1; } else i++;
		}
		return occ;
	}
	function sandwich(f) {
		var occ = occurrences(f), up = new Merged(), down = new Merged();
		var one = occ.length === 1; // the callees are that frame's subtree as it is
		for (var k = 0; k < occ.length; k++) {
			var o = occ[k], a0 = T.t0[o], a1 = DIFF ? T.t1[o] : 0;
			up.t0[0] += a0; up.t1[0] += a1;
			for (var p = T.parent[o], c = 0; p > 0; p = T.parent[p]) {
				c = up.child(c, T.name[p]);
				up.t0[c] += a0; up.t1[c] += a1;
			}
			if (one) break;
			down.t0[0] += a0; down.t1[0] += a1;
			var map = [0], base = T.depth[o];
			for (var i = o + 1, e = T.end[o]; i <= e; i++) {
				var d = T.depth[i] - base;
				var m = down.child(map[d - 1], T.name[i]);
				map[d] = m;
				down.t0[m] += T.t0[i]; down.t1[m] += DIFF ? T.t1[i] : 0;
			}
		}
		return { f: f, up: up.tree(f), down: one ? subtree(occ[0]) : down.tree(f) };
	}

	function drawSandwich() {
		var f = S.fn, head = $("sw-head");
		if (f < 0) {
			head.textContent = "Select a function: click a frame in the graph or a row of the table.";
			CALLERS.c.style.height = CALLEES.c.style.height = "0";
			CALLERS.L = CALLEES.L = null;
			return;
		}
		if (!SW || SW.f !== f) SW = sandwich(f);
		var fn = functions();
		var t = DISP[f] + ": self " + countWithName(DIFF ? fn.self1[f] : fn.self0[f]) + " (" + pct(DIFF ? fn.self1[f] : fn.self0[f]) +
			"%), total " + countWithName(DIFF ? fn.tot1[f] : fn.tot0[f]) + " (" + pct(DIFF ? fn.tot1[f] : fn.tot0[f]) + "%)";
		if (DIFF) t += "; before: self " + fmtCount(fn.self0[f]) + ", total " + fmtCount(fn.tot0[f]);
		head.textContent = t;
		CALLERS.icicle = false;
		CALLERS.draw(SW.up, 0);
		CALLEES.icicle = true;
		CALLEES.draw(SW.down, 0);
	}

	// ---- the table of every function, drawn a screenful of rows at a time

	var ROWH = 20, rows = [], cols = [];
	function tableCols() {
		var fn = functions();
		var c = [{ k: "name", h: "Function", get: function (f) { return DISP[f]; }, text: true }];
		if (!DIFF) {
			c.push({ k: "self", h: "Self", get: function (f) { return fn.self0[f]; } },
				{ k: "selfp", h: "Self %", get: function (f) { return fn.self0[f]; }, p: true },
				{ k: "tot", h: "Total", get: function (f) { return fn.tot0[f]; } },
				{ k: "totp", h: "Total %", get: function (f) { return fn.tot0[f]; }, p: true });
		} else {
			c.push({ k: "self", h: "Self after", get: function (f) { return fn.self1[f]; } },
				{ k: "selfd", h: "Self delta", get: function (f) { return fn.self1[f] - fn.self0[f]; }, d: true },
				{ k: "tot0", h: "Total before", get: function (f) { return fn.tot0[f]; } },
				{ k: "tot", h: "Total after", get: function (f) { return fn.tot1[f]; } },
				{ k: "totp", h: "Total %", get: function (f) { return fn.tot1[f]; }, p: true },
				{ k: "delta", h: "Total delta", get: function (f) { return fn.tot1[f] - fn.tot0[f]; }, d: true });
		}
		return c;
	}
	function cellText(col, f) {
		var v = col.get(f);
		if (col.text) return v;
		if (col.p) return pct(v) + "%";
		if (col.d) return (v > 0 ? "+" : v < 0 ? "-" : "") + fmtCount(Math.abs(v));
		return fmtCount(v);
	}
	function buildTable() {
		var fn = functions();
		cols = tableCols();
		var head = $("t-head");
		head.textContent = "";
		var tmpl = cols.map(function (c) { return c.text ? "minmax(12em, 1fr)" : "9em"; }).join(" ");
		$("v-table").style.setProperty("--cols", tmpl);
		cols.forEach(function (c) {
			var h = document.createElement("div");
			h.textContent = c.h;
			h.dataset.k = c.k;
			if (!c.text) h.className = "n";
			if (S.sort === c.k) h.classList.add("sorted");
			if (S.sort === c.k && S.asc) h.classList.add("asc");
			h.addEventListener("click", function () {
				if (S.sort === c.k) S.asc = !S.asc; else { S.sort = c.k; S.asc = !!c.text; }
				buildTable();
				saveState();
			});
			head.appendChild(h);
		});
		var col = cols.filter(function (c) { return c.k === S.sort; })[0] || cols[3] || cols[1];
		rows = [];
		for (var f = 0; f < NAMES.length; f++) {
			if (f === T.name[0] && !fn.self0[f] && !fn.tot0[f]) continue;
			if (!fn.tot0[f] && !fn.tot1[f]) continue;
			if (match && !match[f]) continue;
			rows.push(f);
		}
		var key = rows.map(col.get), idx = rows.map(function (_, k) { return k; });
		idx.sort(function (a, b) {
			var x = key[a], y = key[b], r = x < y ? -1 : x > y ? 1 : 0;
			if (col.d && !S.asc) r = Math.abs(y) - Math.abs(x) || r; // largest change first
			else if (!S.asc) r = -r;
			return r || (DISP[rows[a]] < DISP[rows[b]] ? -1 : 1);
		});
		rows = idx.map(function (k) { return rows[k]; });
		$("t-body").style.height = rows.length * ROWH + "px";
		$("t-foot").textContent = rows.length + " functions" + (match ? " matching the search" : "");
		paintRows();
	}
	function paintRows() {
		var sc = $("t-scroll"), body = $("t-body");
		var first = Math.max(0, Math.floor(sc.scrollTop / ROWH) - 10);
		var last = Math.min(rows.length, first + Math.ceil((sc.clientHeight || 600) / ROWH) + 20);
		body.textContent = "";
		var frag = document.createDocumentFragment();
		for (var r = first; r < last; r++) {
			var f = rows[r], row = document.createElement("div");
			row.className = f === S.fn ? "row sel" : "row";
			row.style.top = r * ROWH + "px";
			row.dataset.f = f;
			for (var c = 0; c < cols.length; c++) {
				var cell = document.createElement("div");
				cell.textContent = cellText(cols[c], f);
				if (!cols[c].text) cell.className = "n";
				row.appendChild(cell);
			}
			frag.appendChild(row);
		}
		body.appendChild(frag);
	}

	// ---- views and state

	function setView(v) {
		S.view = v;
		if (v !== "graph" && v !== "removed") S.zoom = S.zoom; // kept for going back
		["graph", "sandwich", "table", "removed"].forEach(function (k) { $("b-" + k).classList.toggle("on", k === v); });
		$("v-graph").hidden = !(v === "graph" || v === "removed");
		$("v-sandwich").hidden = v !== "sandwich";
		$("v-table").hidden = v !== "table";
		$("b-orient").hidden = !(v === "graph" || v === "removed");
		$("b-reset").hidden = !(v === "graph" || v === "removed");
		redraw();
		saveState();
	}
	function redraw() {
		if (!T) return;
		if (S.view === "graph" || S.view === "removed") drawGraph();
		else if (S.view === "sandwich") drawSandwich();
		else buildTable();
		$("b-orient").textContent = S.icicle ? "Flame graph" : "Icicle";
		$("b-case").classList.toggle("on", S.ic);
	}
	function select(f) {
		S.fn = f;
		SW = null;
		setView("sandwich");
	}

	function saveState() {
		var p = [];
		if (S.view !== "graph") p.push("v=" + S.view);
		if (S.icicle) p.push("o=icicle");
		if (S.zoom > 0) p.push("z=" + S.zoom);
		if (S.search !== null) p.push("s=" + encodeURIComponent(S.search));
		if (S.ic) p.push("i=1");
		if (S.fn >= 0) p.push("f=" + encodeURIComponent(NAMES[S.fn]));
		if (S.sort !== "tot" || S.asc) p.push("k=" + S.sort + (S.asc ? "+" : ""));
		var h = p.length ? "#" + p.join("&") : "";
		if (h !== location.hash) {
			try { history.replaceState(null, "", location.pathname + location.search + (h || "#")); } catch (e) { /* some file: URLs */ }
		}
	}
	function loadState() {
		var q = {}, h = location.hash.substring(1);
		h.split("&").forEach(function (kv) {
			var eq = kv.indexOf("=");
			if (eq < 0) return;
			try { q[kv.substring(0, eq)] = decodeURIComponent(kv.substring(eq + 1)); } catch (e) { /* bad escape */ }
		});
		if (/^(graph|sandwich|table|removed)$/.test(q.v || "") && (q.v !== "removed" || DIFF)) S.view = q.v;
		if (q.o === "icicle") S.icicle = true; else if (q.o === "flame") S.icicle = false;
		var z = parseInt(q.z, 10);
		if (z > 0 && z < T.n) S.zoom = z;
		S.ic = q.i === "1";
		if (q.f !== undefined && NAMES.indexOf(q.f) >= 0) S.fn = NAMES.indexOf(q.f);
		if (q.k) { S.asc = /\+$/.test(q.k); S.sort = q.k.replace(/\+$/, ""); }
		return q.s;
	}

	function onKey(e) {
		var typing = e.target && e.target.tagName === "INPUT";
		if (e.key === "Escape") {
			if (typing) e.target.blur();
			clearSearch();
			S.zoom = 0;
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
		}
	}

	// ---- start

	async function start() {
		var t0 = performance.now(), raw;
		try {
			raw = await inflate($("flame-data").textContent);
			FG.times.inflate = performance.now() - t0;
			T = decode(raw);
			FG.times.decode = performance.now() - t0 - FG.times.inflate;
		} catch (e) {
			fail("This page could not read its profile: " + e.message);
			return;
		}
		SCALE = +M.scale || 0;
		FACTOR = +M.factor || 1;
		HUMAN = M.human === "1" && (TIME.hasOwnProperty(M.countname) || M.countname === "bytes" || M.countname === "B");
		FS = +M.fontsize || 12; FW = +M.fontwidth || 0.59; FH = +M.frameheight || 16;
		FONT = FS + "px " + (M.fonttype || "Verdana") + ", sans-serif";
		COLORS = (M.colors || "#eeeeee #eeeeb0 #ffffff rgb(230,0,230)").split(" ").map(parseColor);
		S.icicle = M.inverted === "1";
		T.root0 = true;
		TIMEMAX = Math.max(T.w[0], +M.total || 0);
		if (DIFF) for (var i = 1; i < T.n; i++) MAXDELTA = Math.max(MAXDELTA, Math.abs(delta(T, i)));
		var title = M.title || (S.icicle ? "Icicle Graph" : "Flame Graph");
		document.title = title;
		$("title").textContent = title;
		$("subtitle").textContent = M.subtitle || "";
		if (M.notes) { $("notes").textContent = M.notes; $("notes").hidden = false; }
		$("b-removed").hidden = !DIFF;
		if (!(T.w[0] > 0) && !(DIFF && T.t0[0] > 0)) { fail("ERROR: No valid input provided"); return; }
		G = new View($("c-graph"), S.icicle);
		CALLERS = new View($("c-callers"), false);
		CALLEES = new View($("c-callees"), true);
		hookView(G, graphTree, function (i) { zoom(i); });
		hookView(CALLERS, function () { return SW.up; }, function (i) { if (i > 0) select(SW.up.name[i]); });
		hookView(CALLEES, function () { return SW.down; }, function (i) { if (i > 0) select(SW.down.name[i]); });
		$("b-graph").addEventListener("click", function () { setView("graph"); });
		$("b-sandwich").addEventListener("click", function () { setView("sandwich"); });
		$("b-table").addEventListener("click", function () { setView("table"); });
		$("b-removed").addEventListener("click", function () { S.zoom = 0; setView("removed"); });
		$("b-orient").addEventListener("click", function () { S.icicle = !S.icicle; redraw(); saveState(); });
		$("b-reset").addEventListener("click", function () { zoom(0); });
		$("b-case").addEventListener("click", function () { S.ic = !S.ic; if (S.search !== null) search(S.search); else redraw(); saveState(); });
		$("b-prev").addEventListener("click", function () { step(-1); });
		$("b-next").addEventListener("click", function () { step(1); });
		var timer = 0;
		$("search").addEventListener("input", function () {
			clearTimeout(timer);
			var v = this.value;
			timer = setTimeout(function () { search(v); }, 150);
		});
		$("search").addEventListener("keydown", function (e) {
			if (e.key === "Enter") {
				clearTimeout(timer);
				search(this.value);
				if (matchList.length && S.view === "graph") step(e.shiftKey ? -1 : 1);
			}
		});
		$("t-scroll").addEventListener("scroll", paintRows);
		$("t-body").addEventListener("click", function (e) {
			var row = e.target.closest(".row");
			if (row) select(+row.dataset.f);
		});
		window.addEventListener("keydown", onKey);
		var resizeTimer = 0;
		window.addEventListener("resize", function () { clearTimeout(resizeTimer); resizeTimer = setTimeout(redraw, 100); });
		var s = loadState(), t1 = performance.now();
		setView(S.view);
		FG.times.draw = performance.now() - t1;
		FG.loadMs = performance.now() - t0;
		if (s !== undefined && s !== "") searchBounded(s, function () { FG.ready = true; });
		else FG.ready = true;
	}
	function fail(msg) {
		var d = document.createElement("div");
		d.id = "error";
		d.textContent = msg;
		document.querySelector("main").replaceChildren(d);
		FG.ready = true;
	}

	var api = {
		ready: false, start: start, times: {},
		// for tests and benchmarks: the state and the drawn frames, read-only
		state: function () { return JSON.parse(JSON.stringify(S)); },
		tree: function () { return T; }, names: function () { return NAMES; }, meta: function () { return M; },
		drawn: function (which) {
			var v = which === "callers" ? CALLERS : which === "callees" ? CALLEES : G;
			if (!v || !v.L) return [];
			var L = v.L, r = v.c.getBoundingClientRect(), out = [];
			for (var k = 0; k < L.idx.length; k++) {
				var i = L.idx[k];
				out.push({ i: i, name: L.tr === T && i === 0 ? "all" : NAMES[L.tr.name[i]], x: r.left + L.x[k], w: L.w[k],
					y: r.top + v.rowY(L.tr.depth[i]), info: info(L.tr, i), fill: css(fillOf(L.tr, i)) });
			}
			return out;
		},
		matched: function () { return matchedPct; },
		functions: function () { var fn = functions(); return { self0: Array.from(fn.self0), self1: Array.from(fn.self1), tot0: Array.from(fn.tot0), tot1: Array.from(fn.tot1) }; },
		sandwichTrees: function () { return SW; },
		tableRows: function () { return rows.map(function (f) { return cols.map(function (c) { return cellText(c, f); }); }); },
		fmtCount: function (v) { return fmtCount(v); }
	};
	return api;
})();
FG.start();
