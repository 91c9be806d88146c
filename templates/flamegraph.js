// Flame graph interaction: click to zoom, regex search with "Matched: P%", next and
// previous match, details on hover, URL state (?s=REGEX, ?x=&y=). Static code: every
// value it needs is read from attributes of the document (frame names from title
// text, geometry from <rect>), never written into this script. The picture is a few
// paths (one per colour); the per-frame rects are hidden data. Zoom is one transform on
// the picture (the clip hides what falls outside) plus fresh labels for the frames in
// view, and the mouse is mapped to frames here (rows of frames sorted by x), so no
// interaction touches the 100,000 elements of a big graph.
"use strict";
var svg, frames, zoomg, fr, found, dim, tip, pic, labels, origLabels = null, details, matchedtxt, searchbtn, unzoombtn, icbtn, prevbtn, nextbtn;
var fontsize, fontwidth, xpad, inverted, searchcolor, nametype, fh, W;
var N = [], X = null, WD = null, Y = null, V = null, E = null, P = null;
var n = 0, rows = [];
var zoomed = -1, dimmed = [], zx0 = 0, zratio = 1, hl, curbox;
var matches = [], cur = -1, term = null, ignorecase = false;
var svgns = "http://www.w3.org/2000/svg";

function num(el, name, dflt) {
	var v = parseFloat(el.getAttribute(name));
	return isNaN(v) ? dflt : v;
}

function init(evt) {
	svg = document.documentElement;
	frames = document.getElementById("frames");
	zoomg = document.getElementById("zoom");
	fr = document.getElementById("fr");
	found = document.getElementById("found");
	dim = document.getElementById("dim");
	tip = document.getElementById("tip");
	pic = document.getElementById("pic");
	labels = document.getElementById("labels");
	details = document.getElementById("details").firstChild;
	matchedtxt = document.getElementById("matched");
	searchbtn = document.getElementById("search");
	unzoombtn = document.getElementById("unzoom");
	icbtn = document.getElementById("ignorecase");
	prevbtn = document.getElementById("prev");
	nextbtn = document.getElementById("next");
	hl = document.getElementById("hl");
	curbox = document.getElementById("cur");
	fontsize = num(svg, "font-size", 12);
	fontwidth = num(svg, "data-fw", 0.59);
	xpad = num(svg, "data-xpad", 10);
	fh = num(svg, "data-fh", 16);
	inverted = svg.getAttribute("data-inverted") === "1";
	searchcolor = svg.getAttribute("data-sc") || "rgb(230,0,230)";
	nametype = svg.getAttribute("data-nt") || "";
	W = num(svg, "width", 1200);
	load_frames();
	pic.addEventListener("click", on_click);
	pic.addEventListener("mousemove", on_move);
	pic.addEventListener("mouseleave", on_leave);
	unzoombtn.addEventListener("click", function () { unzoom(true); });
	searchbtn.addEventListener("click", function () { if (term === null) search_prompt(); else reset_search(true); });
	icbtn.addEventListener("click", toggle_ignorecase);
	prevbtn.addEventListener("click", function () { step(-1); });
	nextbtn.addEventListener("click", function () { step(1); });
	window.addEventListener("keydown", on_key);
	restore_state();
}

var UNIT = { ns: 1, us: 1e3, ms: 1e6, s: 1e9, B: 1, KiB: 1024, MiB: 1048576, GiB: 1073741824,
             TiB: 1099511627776, PiB: 1125899906842624, EiB: 1152921504606846976 };

// One pass over the frames: geometry, names and counts into arrays, and the tree shape
// (frames come parent first: P = parent index, E = last index of the subtree).
function load_frames() {
	var kids = fr.children;
	n = kids.length;
	X = new Float64Array(n); WD = new Float64Array(n); Y = new Float64Array(n);
	V = new Float64Array(n); E = new Int32Array(n); P = new Int32Array(n);
	var stack = [], key = new Float64Array(n), rowOf = {};
	// fast path: geometry from one attribute, titles from one text read (each frame's
	// element ends its line); element by element when they do not line up
	var gparts = [], gel = document.querySelectorAll("g[data-geom]"); // #fr, then more chunks
	for (var c = 0; c < gel.length; c++) gparts.push(gel[c].getAttribute("data-geom"));
	var geom = gparts.join(" ").split(" ");
	var titles = fr.textContent.split("\n");
	var fast = n > 0 && geom.length === n && titles.length === n + 2;
	for (var i = 0; i < n; i++) {
		var info;
		if (fast) {
			var g3 = geom[i].split(",");
			X[i] = +g3[0]; WD[i] = +g3[1]; Y[i] = +g3[2];
			info = titles[i + 1];
		} else {
			var rect = rect_el(i), title = rect.firstElementChild;
			X[i] = num(rect, "x", 0); WD[i] = num(rect, "width", 0); Y[i] = num(rect, "y", 0);
			info = title ? title.textContent : "";
		}
		var cut = info.lastIndexOf(" (");
		N.push(cut >= 0 ? info.substring(0, cut) : info);
		var m = cut >= 0 ? /^\(([0-9,.]+) ([A-Za-z]*)/.exec(info.substring(cut + 1)) : null;
		// time and bytes are printed for people ("460 ms", "1.91 s"): back to one unit
		V[i] = m ? parseFloat(m[1].replace(/,/g, "")) * (UNIT.hasOwnProperty(m[2]) ? UNIT[m[2]] : 1) : WD[i];
		key[i] = inverted ? Y[i] : -Y[i]; // smaller key: nearer the root
		// rows of frames: in document order (parents first) each row comes sorted by x
		if (!(Y[i] in rowOf)) { rowOf[Y[i]] = rows.length; rows.push({ y: Y[i], f: [] }); }
		rows[rowOf[Y[i]]].f.push(i);
		while (stack.length && key[stack[stack.length - 1]] >= key[i]) E[stack.pop()] = i - 1;
		P[i] = stack.length ? stack[stack.length - 1] : -1;
		stack.push(i);
	}
	while (stack.length) E[stack.pop()] = n - 1;
	// frames whose title --nameattr replaced carry their name in data-name
	var named = fr.querySelectorAll("[data-name]");
	for (var j = 0; j < named.length; j++) {
		var el = named[j].parentNode === fr ? named[j] : named[j].parentNode;
		var k = Array.prototype.indexOf.call(kids, el);
		if (k >= 0) N[k] = named[j].getAttribute("data-name");
	}
}

// Elements are looked up when needed, not kept in arrays: 100,000 kept wrappers would
// make every garbage collection trace them.
function rect_el(i) {
	var c = fr.children[i];
	return c.localName === "a" ? c.firstElementChild : c;
}

function info_of(i) {
	var t = rect_el(i).firstElementChild;
	return t && t.localName === "title" ? t.textContent : N[i];
}

// Label fitted by the same estimate the writer used: chars = int(w / (fontsize * fontwidth)).
function label(i, w) {
	var chars = Math.floor(w / (fontsize * fontwidth));
	if (chars < 3) return "";
	var s = N[i];
	s = s.replace(/_\[[kwij]\]$/, "");
	if (s.length <= chars) return s;
	return s.substring(0, chars - 2) + "..";
}

function add_label(frag, i, x, w) {
	var txt = label(i, w);
	if (txt === "") return;
	var t = document.createElementNS(svgns, "text");
	t.setAttribute("x", (x + 3).toFixed(1));
	t.setAttribute("y", (Y[i] + (fh - 1) / 2 + 3).toFixed(1));
	t.textContent = txt;
	frag.appendChild(t);
}

// Where frame i is drawn now (the zoom transform applied, clipped to the graph): [x, w].
function drawn(i) {
	if (zoomed < 0) return [X[i], WD[i]];
	if (i < zoomed && E[i] >= zoomed) return [xpad, W - 2 * xpad]; // an ancestor
	var l = xpad + (X[i] - zx0) * zratio, r = l + WD[i] * zratio;
	l = Math.max(l, xpad);
	r = Math.min(r, W - xpad);
	return [l, Math.max(0, r - l)];
}

// outline frame i with one of the overlay rectangles (hover, current match); -1 hides it
function outline(box, i) {
	if (i < 0) { box.classList.add("hide"); return; }
	var d = drawn(i);
	box.setAttribute("x", d[0].toFixed(1));
	box.setAttribute("y", Y[i]);
	box.setAttribute("width", d[1].toFixed(1));
	box.setAttribute("height", fh - 1);
	box.classList.remove("hide");
}

// ---- zoom: ancestors stretch to full width (dimmed), the subtree scales, the rest
// falls outside the clip

function zoom(i, keep_url) {
	if (i < 0 || i >= n) return;
	if (i === 0) { unzoom(!keep_url); return; }
	undim();
	zoomed = i;
	var full = W - 2 * xpad, ratio = full / WD[i], x0 = X[i];
	zx0 = x0;
	zratio = ratio;
	zoomg.setAttribute("transform", "matrix(" + ratio + ",0,0,1," + (xpad - x0 * ratio) + ",0)");
	if (origLabels === null) origLabels = Array.prototype.slice.call(labels.childNodes);
	var frag = document.createDocumentFragment();
	var dfrag = document.createDocumentFragment();
	for (var a = P[i]; a >= 0; a = P[a]) {
		var d = document.createElementNS(svgns, "rect");
		d.setAttribute("x", xpad);
		d.setAttribute("y", Y[a]);
		d.setAttribute("width", full);
		d.setAttribute("height", fh - 1);
		dfrag.appendChild(d);
		dimmed.push(a);
		add_label(frag, a, xpad, full);
	}
	dim.appendChild(dfrag);
	var minw = 3 * fontsize * fontwidth;
	for (var k = i, end = E[k]; k <= end; k++) {
		var w = WD[k] * ratio;
		if (w >= minw) add_label(frag, k, xpad + (X[k] - x0) * ratio, w);
	}
	labels.textContent = "";
	labels.appendChild(frag);
	unzoombtn.classList.remove("hide");
	refresh_outlines();
	if (!keep_url) update_url();
}

function refresh_outlines() {
	outline(hl, -1);
	if (cur >= 0 && cur < matches.length) outline(curbox, matches[cur]);
}

function undim() {
	dim.textContent = "";
	dimmed = [];
}

function unzoom(update) {
	undim();
	if (zoomed >= 0) {
		zoomg.removeAttribute("transform");
		labels.textContent = "";
		var frag = document.createDocumentFragment();
		for (var j = 0; j < origLabels.length; j++) frag.appendChild(origLabels[j]);
		labels.appendChild(frag);
	}
	zoomed = -1;
	unzoombtn.classList.add("hide");
	refresh_outlines();
	if (update) update_url();
}

// ---- search

function search_prompt() {
	var t = prompt("Enter a search term (regexp allowed, eg: ^ext4_)" +
	               (ignorecase ? ", ignoring case" : "") +
	               "\nPress Ctrl-i to toggle case sensitivity", "");
	if (t !== null && t !== "") search(t);
}

function toggle_ignorecase() {
	ignorecase = !ignorecase;
	icbtn.classList.toggle("show", ignorecase);
	if (term !== null) search(term);
}

function clear_marks() {
	found.textContent = "";
	outline(curbox, -1);
	matches = [];
	cur = -1;
}

function reset_search(update) {
	clear_marks();
	term = null;
	searchbtn.classList.remove("show");
	searchbtn.firstChild.nodeValue = "Search";
	matchedtxt.classList.add("hide");
	prevbtn.classList.add("hide");
	nextbtn.classList.add("hide");
	if (update) update_url();
}

function search(t) {
	var re;
	try { re = new RegExp(t, ignorecase ? "i" : ""); } catch (e) { return false; }
	var hits = [];
	for (var i = 0; i < n; i++)
		if (re.test(N[i])) hits.push(i);
	show_matches(t, hits);
	return true;
}

// A search that comes from the URL (a link anyone can write) runs in a worker with a time
// budget: a pattern that backtracks catastrophically is stopped and said so, instead of
// freezing the page. Where workers cannot run, the URL's text is searched literally.
var URL_SEARCH_MS = 1500;
function search_bounded(t) {
	var w, src = "onmessage=function(e){var re=new RegExp(e.data.t,e.data.f),r=[],N=e.data.n;" +
		"for(var i=0;i<N.length;i++)if(re.test(N[i]))r.push(i);postMessage(r);};";
	try {
		new RegExp(t);
		w = new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" })));
	} catch (e) {
		search(literal(t));
		return;
	}
	var timer = setTimeout(function () {
		w.terminate();
		reset_search(false);
		matchedtxt.firstChild.nodeValue = "Search stopped: took over " + URL_SEARCH_MS / 1000 + " s";
		matchedtxt.classList.remove("hide");
	}, URL_SEARCH_MS);
	w.onmessage = function (e) { clearTimeout(timer); w.terminate(); show_matches(t, e.data); };
	w.onerror = function () { clearTimeout(timer); w.terminate(); search(literal(t)); };
	w.postMessage({ t: t, f: ignorecase ? "i" : "", n: N.slice(0, n) });
}

function literal(t) { return t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

// paint the frames `hits` (indices, ascending) as the matches of `t`
function show_matches(t, hits) {
	clear_marks();
	term = t;
	// frames are parent first: a match inside a counted match's subtree is skipped
	// matches are painted over in their own group (inside the zoom transform), so the
	// frames themselves are not touched
	var count = 0, end = -1, frag = document.createDocumentFragment();
	for (var h = 0; h < hits.length; h++) {
		var i = hits[h];
		var m = document.createElementNS(svgns, "rect");
		m.setAttribute("x", X[i]);
		m.setAttribute("y", Y[i]);
		m.setAttribute("width", WD[i]);
		m.setAttribute("height", fh - 1);
		m.setAttribute("fill", searchcolor);
		frag.appendChild(m);
		matches.push(i);
		if (i > end) { count += V[i]; end = E[i]; }
	}
	found.appendChild(frag);
	searchbtn.classList.add("show");
	searchbtn.firstChild.nodeValue = "Reset Search";
	var pct = n && V[0] > 0 ? 100 * count / V[0] : 0;
	if (pct !== 100) pct = pct.toFixed(1);
	matchedtxt.firstChild.nodeValue = "Matched: " + pct + "%";
	matchedtxt.classList.remove("hide");
	prevbtn.classList.toggle("hide", matches.length === 0);
	nextbtn.classList.toggle("hide", matches.length === 0);
	update_url();
}

// next (dir 1) or previous (dir -1) match: marked, shown in the details line, and
// brought into view when the zoom hides it
function step(dir) {
	if (!matches.length) return;
	cur = cur < 0 ? (dir > 0 ? 0 : matches.length - 1) : (cur + dir + matches.length) % matches.length;
	var i = matches[cur];
	if (zoomed >= 0 && !(i >= zoomed && i <= E[zoomed])) unzoom(true);
	outline(curbox, i);
	details.nodeValue = nametype + " " + info_of(i);
}

// ---- events

// The frame under the mouse: the row by y, then a binary search by x in it (through the
// zoom, where ancestors span the width); -1 for none.
function hit(e) {
	var pt = svg.createSVGPoint();
	pt.x = e.clientX;
	pt.y = e.clientY;
	var m = svg.getScreenCTM();
	if (m) pt = pt.matrixTransform(m.inverse());
	var row = null;
	for (var r = 0; r < rows.length; r++)
		if (pt.y >= rows[r].y && pt.y < rows[r].y + fh - 1) { row = rows[r]; break; }
	if (!row || pt.x < xpad || pt.x > W - xpad) return -1;
	if (zoomed >= 0) {
		for (var a = P[zoomed]; a >= 0; a = P[a]) if (Y[a] === row.y) return a;
	}
	var x = zoomed >= 0 ? zx0 + (pt.x - xpad) / zratio : pt.x;
	var f = row.f, lo = 0, hi = f.length - 1;
	while (lo <= hi) {
		var mid = (lo + hi) >> 1, i = f[mid];
		if (x < X[i]) hi = mid - 1;
		else if (x >= X[i] + WD[i]) lo = mid + 1;
		else return zoomed >= 0 && (i < zoomed || i > E[zoomed]) ? -1 : i;
	}
	return -1;
}

function on_click(e) {
	var i = hit(e);
	if (i < 0) return;
	var c = fr.children[i];
	if (c.localName === "a") { // a --nameattr link
		window.open(c.getAttribute("xlink:href") || c.getAttribute("href"), c.getAttribute("target") || "_top");
		return;
	}
	zoom(i, false);
}

var hovered = -1;
function on_move(e) {
	var i = hit(e);
	if (i !== hovered) {
		hovered = i;
		details.nodeValue = i < 0 ? " " : nametype + " " + info_of(i);
		outline(hl, i);
	}
	show_tip(i, e);
}

function on_leave(e) {
	hovered = -1;
	details.nodeValue = " ";
	outline(hl, -1);
	show_tip(-1, e);
}

// the tooltip (the frame's title text) next to the mouse, kept inside the image
function show_tip(i, e) {
	if (i < 0) { tip.classList.add("hide"); return; }
	var pt = svg.createSVGPoint();
	pt.x = e.clientX;
	pt.y = e.clientY;
	var m = svg.getScreenCTM();
	if (m) pt = pt.matrixTransform(m.inverse());
	var t = tip.lastElementChild, r = tip.firstElementChild;
	if (t.firstChild.nodeValue !== info_of(i)) t.firstChild.nodeValue = info_of(i);
	tip.classList.remove("hide");
	var w = t.getComputedTextLength() + 8, h = fontsize + 8;
	var x = Math.min(pt.x + 12, W - w - 2), y = pt.y + 18;
	if (y + h > svg.height.baseVal.value) y = pt.y - h - 6;
	r.setAttribute("x", x.toFixed(1));
	r.setAttribute("y", y.toFixed(1));
	r.setAttribute("width", w.toFixed(1));
	r.setAttribute("height", h);
	t.setAttribute("x", (x + 4).toFixed(1));
	t.setAttribute("y", (y + fontsize + 2).toFixed(1));
}

function on_key(e) {
	if (e.keyCode === 114 || (e.ctrlKey && e.keyCode === 70)) { // F3, Ctrl-F
		e.preventDefault();
		if (e.keyCode === 114 && term !== null && matches.length) step(e.shiftKey ? -1 : 1);
		else search_prompt();
	} else if (e.ctrlKey && e.keyCode === 73) { // Ctrl-I
		e.preventDefault();
		toggle_ignorecase();
	} else if (e.keyCode === 27) { // Escape
		reset_search(true);
		unzoom(true);
	}
}

// ---- URL state

function update_url() {
	var parts = [];
	if (term !== null) parts.push("s=" + encodeURIComponent(term));
	if (zoomed > 0) parts.push("x=" + Math.round(X[zoomed] * 10) / 10, "y=" + Math.round(Y[zoomed] * 10) / 10);
	try {
		history.replaceState(null, "", location.pathname + (parts.length ? "?" + parts.join("&") : ""));
	} catch (e) { /* file: URLs in some browsers */ }
}

function restore_state() {
	var q = location.search;
	if (!q) return;
	var params = {};
	q.substring(1).split("&").forEach(function (kv) {
		var eq = kv.indexOf("=");
		if (eq < 0) return;
		try { params[kv.substring(0, eq)] = decodeURIComponent(kv.substring(eq + 1).replace(/\+/g, " ")); } catch (e) {}
	});
	if (params.x !== undefined && params.y !== undefined) {
		var x = parseFloat(params.x), y = parseFloat(params.y);
		for (var i = 1; i < n; i++)
			if (Math.abs(X[i] - x) < 0.05 && Math.abs(Y[i] - y) < 0.05) { zoom(i, true); break; }
	}
	if (params.s !== undefined && params.s !== "") search_bounded(params.s);
}
