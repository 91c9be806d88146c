// page-labels.js: the label selector above the graph, in a page whose stacks have labels
// (libflame/write/html.c's "LAB1" section after the tree: the label sets the stacks use,
// and each unit's weight, a unit being a leaf node under one set). For each key, its values
// with their weights: click values to see that slice (values of one key: any of them;
// of several keys: all), shift-click to pick a second slice: the graph becomes the diff of
// the two (BEFORE the first, scaled to the second's total, as flame-diff -n). With the
// heatmap (page-heatmap.js) a slice and a time range combine: its entries name units, and
// its ranges come here to be drawn. Kept in the URL (l=KEY:VALUE,... and ld=... for the
// second slice). Keys and values are data: they reach the page only as textContent. It
// reaches the page only through FG's hooks (timeData, baseTree, useSelf, onSaveState,
// openedHash, formatAmount) and FGTime's (ranges, entries), as page-heatmap.js does.
var FGLabels = (function () {
	var api = { ready: false, present: present, apply: apply, pick: pick, clear: clear,
		slices: function () { return slices.map(function (s) { return s.map(function (kv) { return kv.slice(); }); }); },
		unitNode: function () { return unitNode; } };
	var decoded = false, sets = null, unitNode = null, unitSet = null, unitW = null, keys = [];
	var slices = [[], []], base = null, box = null, label = null, rows = null;

	function decode(b) {
		if (!b || b.length < 4 || String.fromCharCode(b[0], b[1], b[2], b[3]) !== "LAB1") return false;
		var p = 4, utf8 = new TextDecoder("utf-8"), varint = function () {
			var x = 0, mul = 1, c;
			do { c = b[p++]; x += (c & 127) * mul; mul *= 128; } while (c & 128);
			return x;
		};
		var str = function () { var n = varint(), s = utf8.decode(b.subarray(p, p + n)); p += n; return s; };
		varint(); // the section's length
		var ns = varint(), i, k;
		sets = [];
		for (i = 0; i < ns; i++) {
			var n = varint(), set = [];
			for (k = 0; k < n; k++) set.push([str(), str()]);
			sets.push(set);
		}
		var nu = varint();
		unitNode = new Int32Array(nu); unitSet = new Int32Array(nu); unitW = new Float64Array(nu);
		for (i = 0; i < nu; i++) unitNode[i] = (i ? unitNode[i - 1] : 0) + varint();
		for (i = 0; i < nu; i++) unitSet[i] = varint();
		for (i = 0; i < nu; i++) unitW[i] = varint();
		return true;
	}

	// decoded on the first call (FGTime asks as it opens, maybe before this script's boot)
	function present() {
		if (!decoded && FG.ready) {
			decoded = true;
			if (!decode(FG.timeData())) sets = null;
			base = FG.baseTree();
		}
		return !!sets;
	}

	// per key, its values with their weights (the whole profile), keys and values sorted
	function catalogue() {
		var byKey = {}, setW = new Float64Array(sets.length), i;
		for (i = 0; i < unitSet.length; i++) setW[unitSet[i]] += unitW[i];
		sets.forEach(function (set, s) {
			set.forEach(function (kv) {
				var vals = byKey[kv[0]] || (byKey[kv[0]] = {});
				vals[kv[1]] = (vals[kv[1]] || 0) + setW[s];
			});
		});
		keys = Object.keys(byKey).sort().map(function (k) {
			var vals = Object.keys(byKey[k]).map(function (v) { return [v, byKey[k][v]]; });
			vals.sort(function (a, b) { return b[1] - a[1] || (a[0] < b[0] ? -1 : 1); });
			return { key: k, values: vals };
		});
	}

	// per set: 1 when it is in the slice (values of one key OR'ed, keys AND'ed); null: all
	function members(slice) {
		if (!slice.length) return null;
		var want = {};
		slice.forEach(function (kv) { (want[kv[0]] || (want[kv[0]] = {}))[kv[1]] = true; });
		var out = new Uint8Array(sets.length);
		sets.forEach(function (set, s) {
			var ok = true;
			for (var key in want) {
				var any = false;
				for (var j = 0; j < set.length && !any; j++) any = set[j][0] === key && want[key][set[j][1]] === true;
				if (!any) { ok = false; break; }
			}
			out[s] = ok ? 1 : 0;
		});
		return out;
	}

	// the self counts of one side: units in the slice (null: all), in the time range if any
	function sideSelf(m, range, times) {
		var s = new Float64Array(base.n), u, k;
		if (!range) {
			for (u = 0; u < unitW.length; u++) if (!m || m[unitSet[u]]) s[unitNode[u]] += unitW[u];
			return s;
		}
		for (k = 0; k < times.node.length; k++) {
			u = times.node[k];
			var t = times.cell[k] * times.cellNs;
			if (m && !m[unitSet[u]]) continue;
			if ((t >= range[0] && t < range[1]) || (t < range[0] && t + times.cellNs > range[0])) s[unitNode[u]] += times.weight[k];
		}
		return s;
	}

	// the graph of the slices and the heatmap's ranges: a side per slice or range (two:
	// their diff, the first scaled to the second's total)
	function apply() {
		if (!present()) return;
		var ranges = window.FGTime && FGTime.ranges ? FGTime.ranges() : [];
		var times = ranges.length && FGTime.entries && FGTime.entries().node ? FGTime.entries() : null;
		var picked = slices[0].length ? (slices[1].length ? [slices[0], slices[1]] : [slices[0]]) : [];
		var n = Math.max(picked.length, times ? ranges.length : 0), sides = [], i;
		if (!n) { FG.useSelf(null); after(); return; }
		for (var k = 0; k < n; k++) {
			var m = picked.length ? members(picked[Math.min(k, picked.length - 1)]) : null;
			sides.push(sideSelf(m, times ? ranges[Math.min(k, ranges.length - 1)] : null, times));
		}
		if (n > 1) {
			var t0 = 0, t1 = 0;
			for (i = 0; i < base.n; i++) { t0 += sides[0][i]; t1 += sides[1][i]; }
			if (t0 && t0 !== t1) for (i = 0; i < base.n; i++) sides[0][i] = Math.floor(sides[0][i] * t1 / t0);
			FG.useSelf(sides[0], sides[1]);
		} else {
			FG.useSelf(sides[0]);
		}
		after();
	}
	function after() { describe(); paint(); FG.saveState(); }

	// pick KEY=VALUE into slice `side` (0, or 1: the diff's second), or out when it is in
	function pick(key, value, side) {
		side = side ? 1 : 0;
		if (side && !slices[0].length) side = 0;
		var s = slices[side], at = -1;
		for (var i = 0; i < s.length; i++) if (s[i][0] === key && s[i][1] === value) at = i;
		if (at >= 0) s.splice(at, 1); else s.push([key, value]);
		if (!slices[0].length) slices[1] = [];
		apply();
	}
	function clear() { slices = [[], []]; apply(); }

	function text(slice) { return slice.map(function (kv) { return kv[0] + "=" + kv[1]; }).join(", "); }
	function describe() {
		if (!slices[0].length) { label.textContent = "Click label values to see that slice; shift-click to pick a second slice and diff the two."; return; }
		label.textContent = slices[1].length ? "Diff: before " + text(slices[0]) + ", after " + text(slices[1]) : "Slice: " + text(slices[0]);
	}
	function sideOf(key, value) {
		for (var side = 0; side < 2; side++)
			for (var i = 0; i < slices[side].length; i++) if (slices[side][i][0] === key && slices[side][i][1] === value) return side + 1;
		return 0;
	}
	function paint() {
		rows.querySelectorAll("button.lv").forEach(function (b) {
			var side = sideOf(b.dataset.key, b.dataset.value);
			b.dataset.side = side;
			b.style.background = side === 1 ? "#c8d8ff" : side === 2 ? "#c8f0cc" : "";
		});
	}

	function panel() {
		box = document.createElement("section");
		box.id = "v-labels";
		box.style.cssText = "margin:0 0 6px 0;font:12px Verdana,sans-serif";
		rows = document.createElement("div");
		rows.id = "labels";
		keys.forEach(function (k) {
			var row = document.createElement("div"), name = document.createElement("span");
			row.className = "lk";
			name.className = "lkey";
			name.style.cssText = "font-weight:bold;margin-right:0.5em";
			name.textContent = k.key;
			row.append(name);
			k.values.forEach(function (v) {
				var b = document.createElement("button");
				b.className = "lv";
				b.dataset.key = k.key;
				b.dataset.value = v[0];
				b.textContent = v[0] + " (" + FG.formatAmount(v[1]) + ")";
				b.addEventListener("click", function (e) { pick(k.key, v[0], e.shiftKey); });
				row.append(b);
			});
			rows.append(row);
		});
		label = document.createElement("div");
		label.id = "labels-slice";
		label.style.margin = "2px 0";
		var clearButton = document.createElement("button");
		clearButton.id = "b-labels-clear";
		clearButton.textContent = "All labels";
		clearButton.addEventListener("click", clear);
		box.append(rows, label, clearButton);
		document.getElementById("panels").append(box);
	}

	function link(slice) {
		return slice.map(function (kv) { return encodeURIComponent(kv[0]) + ":" + encodeURIComponent(kv[1]); }).join(",");
	}
	function urlState() {
		var parts = [];
		if (slices[0].length) parts.push("l=" + link(slices[0]));
		if (slices[1].length) parts.push("ld=" + link(slices[1]));
		return parts;
	}
	function fromUrl() {
		var q = {};
		FG.openedHash().substring(1).split("&").forEach(function (kv) {
			var eq = kv.indexOf("=");
			if (eq > 0) q[kv.substring(0, eq)] = kv.substring(eq + 1);
		});
		var slice = function (s) {
			var out = [];
			(s || "").split(",").forEach(function (kv) {
				var c = kv.indexOf(":");
				if (c <= 0) return;
				try { out.push([decodeURIComponent(kv.substring(0, c)), decodeURIComponent(kv.substring(c + 1))]); } catch (e) { /* bad escape */ }
			});
			return out;
		};
		slices = [slice(q.l), slice(q.ld)];
		if (!slices[0].length) slices[1] = [];
	}

	function boot() {
		if (!FG.ready) { setTimeout(boot, 5); return; }
		if (!present()) { api.ready = true; return; }
		var t0 = performance.now();
		catalogue();
		panel();
		FG.onSaveState(urlState);
		fromUrl();
		if (slices[0].length) apply(); else { describe(); paint(); }
		api.loadMs = performance.now() - t0;
		api.ready = true;
	}
	boot();
	return api;
})();
