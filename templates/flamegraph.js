// The flame graph SVG's script (written into each SVG by libflame/write/svg.c): click to
// zoom, regex search with "Matched: P%", next and previous match, details on hover, URL
// state (?s=REGEX, ?x=&y=), as flamegraph.pl's SVGs do. Static code: every value it needs
// is read from the document (frame names from title text, geometry from data-geom or the
// <rect>s), never written into this script. The picture is a few paths (one per colour);
// the per-frame rects are hidden data. Zoom is one transform on the picture (the clip
// hides what falls outside) plus fresh labels for the frames in view, and the mouse is
// mapped to frames here (rows of frames sorted by x), so no interaction touches the
// 100,000 elements of a big graph. The SVG's onload calls init(evt), at the end.
"use strict";
var FG = (function () {
	var $ = function (id) { return document.getElementById(id); };
	var SVG_NS = "http://www.w3.org/2000/svg";
	// the graph's settings, from attributes of <svg> (written by libflame/write/svg.c)
	var svg = null, fontSize = 12, fontWidth = 0.59, xPad = 10, frameHeight = 16, graphWidth = 1200;
	var inverted = false, searchColor = "", nameType = "";
	// the frames in document order (a parent before its children): names, geometry, what
	// each stands for, the tree (parent index, last index of the subtree), rows by y
	var frameCount = 0, names = [], frameX = null, frameWidth = null, frameY = null, frameValue = null;
	var parentOf = null, subtreeEnd = null, rows = [];
	// zoom: the frame zoomed on (-1: none), the transform's origin and ratio, the ancestors
	// dimmed, the whole graph's labels (kept while zoomed), the frame under the mouse
	var zoomed = -1, zoomX0 = 0, zoomRatio = 1, dimmed = [], graphLabels = null, hovered = -1;
	// search: the term (null: none), the case toggle, the frames that match, the one shown
	var searchTerm = null, ignoreCase = false, matches = [], currentMatch = -1;

	//#include human-rules.js

	// what one of the units amounts are printed in stands for: "ms" 1e6 (ns), "KiB" 1024 (B)
	var UNIT_VALUES = (function () {
		var values = {}, k;
		for (k = 0; k < HUMAN_RULES.timeUnits.length; k++) values[HUMAN_RULES.timeUnits[k]] = Math.pow(HUMAN_RULES.timeStep, k);
		for (k = 0; k < HUMAN_RULES.byteUnits.length; k++) values[HUMAN_RULES.byteUnits[k]] = Math.pow(HUMAN_RULES.byteStep, k);
		return values;
	})();

	// ---- reading the frames

	function numberAttr(el, name, fallback) {
		var v = parseFloat(el.getAttribute(name));
		return isNaN(v) ? fallback : v;
	}

	// One pass over the frames: geometry, names and values into arrays, and the tree shape
	// (frames come parent first). Fast path: the geometry from data-geom, the titles from
	// one text read (each frame's element ends its line); element by element when they do
	// not line up.
	function loadFrames() {
		var frameData = $("fr"), kids = frameData.children;
		frameCount = kids.length;
		var n = frameCount;
		frameX = new Float64Array(n); frameWidth = new Float64Array(n); frameY = new Float64Array(n);
		frameValue = new Float64Array(n); subtreeEnd = new Int32Array(n); parentOf = new Int32Array(n);
		var open = [], depthKey = new Float64Array(n), rowOfY = {};
		var geomParts = [], geomEls = document.querySelectorAll("g[data-geom]"); // #fr, then more chunks
		for (var c = 0; c < geomEls.length; c++) geomParts.push(geomEls[c].getAttribute("data-geom"));
		var geom = geomParts.join(" ").split(" ");
		var titles = frameData.textContent.split("\n");
		var fast = n > 0 && geom.length === n && titles.length === n + 2;
		for (var i = 0; i < n; i++) {
			var info;
			if (fast) {
				var xwy = geom[i].split(",");
				frameX[i] = +xwy[0]; frameWidth[i] = +xwy[1]; frameY[i] = +xwy[2];
				info = titles[i + 1];
			} else {
				var rect = rectOf(i), title = rect.firstElementChild;
				frameX[i] = numberAttr(rect, "x", 0); frameWidth[i] = numberAttr(rect, "width", 0); frameY[i] = numberAttr(rect, "y", 0);
				info = title ? title.textContent : "";
			}
			var cut = info.lastIndexOf(" (");
			names.push(cut >= 0 ? info.substring(0, cut) : info);
			frameValue[i] = valueOf(cut >= 0 ? info.substring(cut + 1) : "", frameWidth[i]);
			depthKey[i] = inverted ? frameY[i] : -frameY[i]; // smaller: nearer the root
			// rows of frames: in document order (parents first) each row comes sorted by x
			if (!(frameY[i] in rowOfY)) { rowOfY[frameY[i]] = rows.length; rows.push({ y: frameY[i], frames: [] }); }
			rows[rowOfY[frameY[i]]].frames.push(i);
			while (open.length && depthKey[open[open.length - 1]] >= depthKey[i]) subtreeEnd[open.pop()] = i - 1;
			parentOf[i] = open.length ? open[open.length - 1] : -1;
			open.push(i);
		}
		while (open.length) subtreeEnd[open.pop()] = n - 1;
		// frames whose title --nameattr replaced carry their name in data-name
		var named = frameData.querySelectorAll("[data-name]");
		for (var j = 0; j < named.length; j++) {
			var el = named[j].parentNode === frameData ? named[j] : named[j].parentNode;
			var k = Array.prototype.indexOf.call(kids, el);
			if (k >= 0) names[k] = named[j].getAttribute("data-name");
		}
	}

	// What a frame stands for, from its title's "(1,234 samples, ..." or "(1.91 s, ...":
	// amounts printed for people go back to one unit; no amount, the frame's width
	function valueOf(counts, fallback) {
		var m = /^\(([0-9,.]+) ([A-Za-z]*)/.exec(counts);
		if (!m) return fallback;
		return parseFloat(m[1].replace(/,/g, "")) * (UNIT_VALUES.hasOwnProperty(m[2]) ? UNIT_VALUES[m[2]] : 1);
	}

	// Elements are looked up when needed, not kept in arrays: 100,000 kept wrappers would
	// make every garbage collection trace them.
	function rectOf(i) {
		var el = $("fr").children[i];
		return el.localName === "a" ? el.firstElementChild : el;
	}

	function infoOf(i) {
		var title = rectOf(i).firstElementChild;
		return title && title.localName === "title" ? title.textContent : names[i];
	}

	// ---- drawing: labels, outlines

	// the label of frame i at width w, fitted by the writer's estimate:
	// chars = int(w / (fontSize * fontWidth))
	function labelOf(i, w) {
		var chars = Math.floor(w / (fontSize * fontWidth));
		if (chars < 3) return "";
		var name = names[i].replace(/_\[[kwij]\]$/, "");
		return name.length <= chars ? name : name.substring(0, chars - 2) + "..";
	}

	function addLabel(frag, i, x, w) {
		var text = labelOf(i, w);
		if (text === "") return;
		var el = document.createElementNS(SVG_NS, "text");
		el.setAttribute("x", (x + 3).toFixed(1));
		el.setAttribute("y", (frameY[i] + (frameHeight - 1) / 2 + 3).toFixed(1));
		el.textContent = text;
		frag.appendChild(el);
	}

	// where frame i is drawn now (the zoom applied, clipped to the graph): [x, width]
	function drawnBox(i) {
		if (zoomed < 0) return [frameX[i], frameWidth[i]];
		if (i < zoomed && subtreeEnd[i] >= zoomed) return [xPad, graphWidth - 2 * xPad]; // an ancestor
		var left = xPad + (frameX[i] - zoomX0) * zoomRatio, right = left + frameWidth[i] * zoomRatio;
		left = Math.max(left, xPad);
		right = Math.min(right, graphWidth - xPad);
		return [left, Math.max(0, right - left)];
	}

	// frame i outlined by one of the overlay rectangles (#hl: hover, #cur: current match);
	// -1 hides it
	function outline(box, i) {
		if (i < 0) { box.classList.add("hide"); return; }
		var d = drawnBox(i);
		box.setAttribute("x", d[0].toFixed(1));
		box.setAttribute("y", frameY[i]);
		box.setAttribute("width", d[1].toFixed(1));
		box.setAttribute("height", frameHeight - 1);
		box.classList.remove("hide");
	}

	function refreshOutlines() {
		outline($("hl"), -1);
		if (currentMatch >= 0 && currentMatch < matches.length) outline($("cur"), matches[currentMatch]);
	}

	// the details line: the frame's title text after the name type, or blank
	function details(i) { $("details").firstChild.nodeValue = i < 0 ? " " : nameType + " " + infoOf(i); }

	// the tooltip (the frame's title text) next to the mouse, kept inside the image
	function showTip(e, i) {
		var tip = $("tip");
		if (i < 0) { tip.classList.add("hide"); return; }
		var pt = svgPoint(e), text = tip.lastElementChild, box = tip.firstElementChild, info = infoOf(i);
		if (text.firstChild.nodeValue !== info) text.firstChild.nodeValue = info;
		tip.classList.remove("hide");
		var w = text.getComputedTextLength() + 8, h = fontSize + 8;
		var x = Math.min(pt.x + 12, graphWidth - w - 2), y = pt.y + 18;
		if (y + h > svg.height.baseVal.value) y = pt.y - h - 6;
		box.setAttribute("x", x.toFixed(1));
		box.setAttribute("y", y.toFixed(1));
		box.setAttribute("width", w.toFixed(1));
		box.setAttribute("height", h);
		text.setAttribute("x", (x + 4).toFixed(1));
		text.setAttribute("y", (y + fontSize + 2).toFixed(1));
	}

	// ---- zoom: the ancestors stretch to the full width (dimmed), the subtree scales, the
	// rest falls outside the clip

	function zoom(i, keepUrl) {
		if (i < 0 || i >= frameCount) return;
		if (i === 0) { unzoom(!keepUrl); return; }
		undim();
		zoomed = i;
		var full = graphWidth - 2 * xPad, ratio = full / frameWidth[i], x0 = frameX[i];
		zoomX0 = x0;
		zoomRatio = ratio;
		$("zoom").setAttribute("transform", "matrix(" + ratio + ",0,0,1," + (xPad - x0 * ratio) + ",0)");
		var labels = $("labels");
		if (graphLabels === null) graphLabels = Array.prototype.slice.call(labels.childNodes);
		var labelFrag = document.createDocumentFragment(), dimFrag = document.createDocumentFragment();
		for (var a = parentOf[i]; a >= 0; a = parentOf[a]) {
			var cover = document.createElementNS(SVG_NS, "rect");
			cover.setAttribute("x", xPad);
			cover.setAttribute("y", frameY[a]);
			cover.setAttribute("width", full);
			cover.setAttribute("height", frameHeight - 1);
			dimFrag.appendChild(cover);
			dimmed.push(a);
			addLabel(labelFrag, a, xPad, full);
		}
		$("dim").appendChild(dimFrag);
		var minWidth = 3 * fontSize * fontWidth;
		for (var k = i, end = subtreeEnd[k]; k <= end; k++) {
			var w = frameWidth[k] * ratio;
			if (w >= minWidth) addLabel(labelFrag, k, xPad + (frameX[k] - x0) * ratio, w);
		}
		labels.textContent = "";
		labels.appendChild(labelFrag);
		$("unzoom").classList.remove("hide");
		refreshOutlines();
		if (!keepUrl) saveState();
	}

	function undim() {
		$("dim").textContent = "";
		dimmed = [];
	}

	function unzoom(updateUrl) {
		undim();
		if (zoomed >= 0) {
			$("zoom").removeAttribute("transform");
			var labels = $("labels"), frag = document.createDocumentFragment();
			labels.textContent = "";
			for (var j = 0; j < graphLabels.length; j++) frag.appendChild(graphLabels[j]);
			labels.appendChild(frag);
		}
		zoomed = -1;
		$("unzoom").classList.add("hide");
		refreshOutlines();
		if (updateUrl) saveState();
	}

	// ---- search: a regex over the frame names, "Matched: P%" of the root's total (frames
	// inside a matched frame are not counted again)

	function searchPrompt() {
		var term = prompt("Enter a search term (regexp allowed, eg: ^ext4_)" +
		                  (ignoreCase ? ", ignoring case" : "") +
		                  "\nPress Ctrl-i to toggle case sensitivity", "");
		if (term !== null && term !== "") search(term);
	}

	function toggleIgnoreCase() {
		ignoreCase = !ignoreCase;
		$("ignorecase").classList.toggle("show", ignoreCase);
		if (searchTerm !== null) search(searchTerm);
	}

	function search(term) {
		var re;
		try { re = new RegExp(term, ignoreCase ? "i" : ""); } catch (e) { return false; }
		var hits = [];
		for (var i = 0; i < frameCount; i++) if (re.test(names[i])) hits.push(i);
		showMatches(term, hits);
		return true;
	}

	function clearMatches() {
		$("found").textContent = "";
		outline($("cur"), -1);
		matches = [];
		currentMatch = -1;
	}

	function resetSearch(updateUrl) {
		clearMatches();
		searchTerm = null;
		$("search").classList.remove("show");
		$("search").firstChild.nodeValue = "Search";
		$("matched").classList.add("hide");
		$("prev").classList.add("hide");
		$("next").classList.add("hide");
		if (updateUrl) saveState();
	}

	function showMatched(text) {
		$("matched").firstChild.nodeValue = text;
		$("matched").classList.remove("hide");
	}

	// the frames `hits` (indices, ascending) painted as the matches of `term`, over the
	// frames in their own group (inside the zoom transform), so the frames are not touched
	function showMatches(term, hits) {
		clearMatches();
		searchTerm = term;
		// frames are parent first: a match inside a counted match's subtree is skipped
		var count = 0, end = -1, frag = document.createDocumentFragment();
		for (var h = 0; h < hits.length; h++) {
			var i = hits[h], mark = document.createElementNS(SVG_NS, "rect");
			mark.setAttribute("x", frameX[i]);
			mark.setAttribute("y", frameY[i]);
			mark.setAttribute("width", frameWidth[i]);
			mark.setAttribute("height", frameHeight - 1);
			mark.setAttribute("fill", searchColor);
			frag.appendChild(mark);
			matches.push(i);
			if (i > end) { count += frameValue[i]; end = subtreeEnd[i]; }
		}
		$("found").appendChild(frag);
		$("search").classList.add("show");
		$("search").firstChild.nodeValue = "Reset Search";
		var percent = frameCount && frameValue[0] > 0 ? 100 * count / frameValue[0] : 0;
		showMatched("Matched: " + (percent === 100 ? "100" : percent.toFixed(1)) + "%");
		$("prev").classList.toggle("hide", matches.length === 0);
		$("next").classList.toggle("hide", matches.length === 0);
		saveState();
	}

	// the next (1) or previous (-1) match: outlined, shown in the details line, and
	// brought into view when the zoom hides it
	function step(dir) {
		if (!matches.length) return;
		currentMatch = currentMatch < 0 ? (dir > 0 ? 0 : matches.length - 1) : (currentMatch + dir + matches.length) % matches.length;
		var i = matches[currentMatch];
		if (zoomed >= 0 && !(i >= zoomed && i <= subtreeEnd[zoomed])) unzoom(true);
		outline($("cur"), i);
		details(i);
	}

	//#include search.js

	// ---- events

	function svgPoint(e) {
		var pt = svg.createSVGPoint();
		pt.x = e.clientX;
		pt.y = e.clientY;
		var m = svg.getScreenCTM();
		return m ? pt.matrixTransform(m.inverse()) : pt;
	}

	// The frame under the mouse: the row by y, then a binary search by x in it (through the
	// zoom, where ancestors span the width); -1 for none.
	function frameAt(e) {
		var pt = svgPoint(e), row = null;
		for (var r = 0; r < rows.length; r++)
			if (pt.y >= rows[r].y && pt.y < rows[r].y + frameHeight - 1) { row = rows[r]; break; }
		if (!row || pt.x < xPad || pt.x > graphWidth - xPad) return -1;
		if (zoomed >= 0) {
			for (var a = parentOf[zoomed]; a >= 0; a = parentOf[a]) if (frameY[a] === row.y) return a;
		}
		var x = zoomed >= 0 ? zoomX0 + (pt.x - xPad) / zoomRatio : pt.x;
		var inRow = row.frames, lo = 0, hi = inRow.length - 1;
		while (lo <= hi) {
			var mid = (lo + hi) >> 1, i = inRow[mid];
			if (x < frameX[i]) hi = mid - 1;
			else if (x >= frameX[i] + frameWidth[i]) lo = mid + 1;
			else return zoomed >= 0 && (i < zoomed || i > subtreeEnd[zoomed]) ? -1 : i;
		}
		return -1;
	}

	function onClick(e) {
		var i = frameAt(e);
		if (i < 0) return;
		var el = $("fr").children[i];
		if (el.localName === "a") { // a --nameattr link
			window.open(el.getAttribute("xlink:href") || el.getAttribute("href"), el.getAttribute("target") || "_top");
			return;
		}
		zoom(i, false);
	}

	function onMove(e) {
		var i = frameAt(e);
		if (i !== hovered) {
			hovered = i;
			details(i);
			outline($("hl"), i);
		}
		showTip(e, i);
	}

	function onLeave(e) {
		hovered = -1;
		details(-1);
		outline($("hl"), -1);
		showTip(e, -1);
	}

	function onKey(e) {
		if (e.keyCode === 114 || (e.ctrlKey && e.keyCode === 70)) { // F3, Ctrl-F
			e.preventDefault();
			if (e.keyCode === 114 && searchTerm !== null && matches.length) step(e.shiftKey ? -1 : 1);
			else searchPrompt();
		} else if (e.ctrlKey && e.keyCode === 73) { // Ctrl-I
			e.preventDefault();
			toggleIgnoreCase();
		} else if (e.keyCode === 27) { // Escape
			resetSearch(true);
			unzoom(true);
		}
	}

	// ---- URL state: ?s=REGEX, ?x=&y= (the zoomed frame)

	function saveState() {
		var parts = [];
		if (searchTerm !== null) parts.push("s=" + encodeURIComponent(searchTerm));
		if (zoomed > 0) parts.push("x=" + Math.round(frameX[zoomed] * 10) / 10, "y=" + Math.round(frameY[zoomed] * 10) / 10);
		try {
			history.replaceState(null, "", location.pathname + (parts.length ? "?" + parts.join("&") : ""));
		} catch (e) { /* file: URLs in some browsers */ }
	}

	// the zoom restored from the URL; returns its search, if any
	function loadState() {
		var query = {};
		location.search.substring(1).split("&").forEach(function (kv) {
			var eq = kv.indexOf("=");
			if (eq < 0) return;
			try { query[kv.substring(0, eq)] = decodeURIComponent(kv.substring(eq + 1).replace(/\+/g, " ")); } catch (e) { /* bad escape */ }
		});
		if (query.x !== undefined && query.y !== undefined) {
			var x = parseFloat(query.x), y = parseFloat(query.y);
			for (var i = 1; i < frameCount; i++)
				if (Math.abs(frameX[i] - x) < 0.05 && Math.abs(frameY[i] - y) < 0.05) { zoom(i, true); break; }
		}
		return query.s;
	}

	// ---- start

	function start() {
		svg = document.documentElement;
		fontSize = numberAttr(svg, "font-size", 12);
		fontWidth = numberAttr(svg, "data-fw", 0.59);
		xPad = numberAttr(svg, "data-xpad", 10);
		frameHeight = numberAttr(svg, "data-fh", 16);
		graphWidth = numberAttr(svg, "width", 1200);
		inverted = svg.getAttribute("data-inverted") === "1";
		searchColor = svg.getAttribute("data-sc") || "rgb(230,0,230)";
		nameType = svg.getAttribute("data-nt") || "";
		loadFrames();
		var picture = $("pic");
		picture.addEventListener("click", onClick);
		picture.addEventListener("mousemove", onMove);
		picture.addEventListener("mouseleave", onLeave);
		$("unzoom").addEventListener("click", function () { unzoom(true); });
		$("search").addEventListener("click", function () { if (searchTerm === null) searchPrompt(); else resetSearch(true); });
		$("ignorecase").addEventListener("click", toggleIgnoreCase);
		$("prev").addEventListener("click", function () { step(-1); });
		$("next").addEventListener("click", function () { step(1); });
		window.addEventListener("keydown", onKey);
		var term = loadState();
		if (term === undefined || term === "") { api.ready = true; return; }
		searchBounded(term, ignoreCase, names, {
			found: function (hits) { showMatches(term, hits); api.ready = true; },
			stopped: function () { resetSearch(false); showMatched(SEARCH_STOPPED); api.ready = true; },
			literal: function (text) { search(text); api.ready = true; }
		});
	}

	var api = {
		ready: false, start: start,
		// for tests: the frames and the state, read-only
		names: function () { return names; },
		zoomed: function () { return zoomed; },
		drawn: function (i) {
			var box = drawnBox(i);
			return { x: box[0], w: box[1], y: frameY[i], h: frameHeight - 1, dimmed: dimmed.indexOf(i) >= 0 };
		},
		search: search, resetSearch: resetSearch
	};
	return api;
})();
// flamegraph.pl's entry point: the <svg> element's onload attribute calls it
function init(evt) { FG.start(); }
