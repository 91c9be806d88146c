// Browser test of the page's label selector (templates/page-labels.js) in headless Chromium:
// four one-second pprof profiles with labels (endpoint, region, a numeric one; an endpoint
// whose value is hostile markup) merged by flame-merge -o x.html, so the page has labels and
// a timeline (and a hostile key). Clicking a value shows that slice; values of one key are any of them, of two
// keys all; shift-click picks a second slice and the graph becomes the diff of the two
// (BEFORE scaled to AFTER's total); a slice and a time range combine; the URL round trip
// reopens the same slices; hostile keys and values stay text; a page without labels has no
// selector. Usage: node labels.test.mjs BUILD_DIR
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [build] = process.argv.slice(2);
const tool = (t) => path.join(build, "tools", t);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "flame-labels-browser-"));
let failures = 0, checks = 0;
function check(cond, what) {
	checks++;
	if (!cond) failures++;
	console.log(`${cond ? "ok  " : "FAIL:"} ${what}`);
}

// ---- a profile.proto encoder, enough for these profiles (uncompressed: the reader takes it)
const varint = (v) => { const o = []; v = BigInt(v); do { let b = Number(v & 127n); v >>= 7n; if (v) b |= 128; o.push(b); } while (v); return o; };
const key = (f, wt) => varint(f * 8 + wt);
const num = (f, v) => [...key(f, 0), ...varint(v)];
const msg = (f, bytes) => [...key(f, 2), ...varint(bytes.length), ...bytes];
const HOSTILE = "/pay<img src=x onerror=alert(1)>\"'&", HOSTILE_KEY = "<svg onload=alert(2)>";
function profile(k, samples) {
	const strs = [""], str = (s) => { let i = strs.indexOf(s); if (i < 0) { i = strs.length; strs.push(s); } return i; };
	const out = [];
	out.push(...msg(1, [...num(1, str("samples")), ...num(2, str("count"))]));
	for (const [stack, value, labels] of samples) {
		const locs = stack.map((f) => ["main", "A", "B"].indexOf(f) + 1).reverse(); // leaf first
		const body = [...msg(1, locs.flatMap((l) => varint(l))), ...msg(2, varint(value))];
		for (const [lk, lv, unit] of labels)
			body.push(...msg(3, typeof lv === "number" ? [...num(1, str(lk)), ...num(3, lv), ...num(4, str(unit))]
			                                           : [...num(1, str(lk)), ...num(2, str(lv))]));
		out.push(...msg(2, body));
	}
	["main", "A", "B"].forEach((f, i) => {
		out.push(...msg(5, [...num(1, i + 1), ...num(2, str(f))]));
		out.push(...msg(4, [...num(1, i + 1), ...msg(4, num(1, i + 1))]));
	});
	for (const s of strs) out.push(...msg(6, [...Buffer.from(s)]));
	out.push(...num(9, 1700000000000000000n + BigInt(k) * 1000000000n), ...num(10, 1000000000));
	const f = path.join(tmp, `p${k}.pb`);
	fs.writeFileSync(f, Buffer.from(out));
	return f;
}
const cart = ["endpoint", "/cart"], pay = ["endpoint", HOSTILE], eu = ["region", "eu"], us = ["region", "us"];
const files = [
	profile(0, [[["main", "A"], 100, [cart, eu, ["bytes", 512, "bytes"]]], [["main", "B"], 50, [pay, us]]]),
	profile(1, [[["main", "A"], 100, [cart, eu]], [["main", "B"], 50, [pay, us]]]),
	profile(2, [[["main", "A"], 10, [cart, us]], [["main", "B"], 200, [pay, eu]]]),
	profile(3, [[["main", "A"], 100, [cart, eu, [HOSTILE_KEY, "\"'"]]]]),
];
const file = path.join(tmp, "labels.html"), plain = path.join(tmp, "plain.html");
execFileSync(tool("flame-merge"), ["-q", "-o", file, ...files]);
execFileSync(tool("flame-render"), ["-o", plain], { input: "main;a 3\nmain;b 1\n" });

const ctx = await chromium.launchPersistentContext(path.join(tmp, "profile"), {
	executablePath: "/usr/bin/chromium", headless: true,
	args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"], viewport: { width: 1300, height: 900 },
});
const errors = [], dialogs = [];
async function open(f, hash = "") {
	const page = await ctx.newPage();
	page.on("pageerror", (e) => errors.push(e.message));
	page.on("dialog", async (d) => { dialogs.push(d.message()); await d.dismiss(); });
	await page.goto("file://" + f + hash);
	await page.waitForFunction(() => window.FG && FG.ready && (!window.FGTime || FGTime.ready) &&
		(!window.FGLabels || FGLabels.ready), null, { timeout: 30000 });
	return page;
}
// A's and B's totals: [column 0, column 1 or null]
const widths = (page) => page.evaluate(() => {
	const t = FG.tree(), n = FG.names(), out = { A: [0, null], B: [0, null] };
	for (let i = 1; i < t.n; i++) if (t.depth[i] === 2) out[n[t.name[i]]] = [t.total0[i], t.total1 ? t.total1[i] : null];
	return out;
});
const click = (page, k, v, shift) => page.evaluate(([k, v]) => {
	for (const b of document.querySelectorAll("#labels button.lv")) if (b.dataset.key === k && b.dataset.value === v) return true;
	return false;
}, [k, v]).then(async (found) => {
	check(found, `a button for ${k}=${v}`);
	const sel = `#labels button.lv >> nth=${await page.evaluate(([k, v]) =>
		Array.from(document.querySelectorAll("#labels button.lv")).findIndex((b) => b.dataset.key === k && b.dataset.value === v), [k, v])}`;
	await page.click(sel, { modifiers: shift ? ["Shift"] : [] });
});
const same = (w, a, b) => w.A[0] === a[0] && w.A[1] === a[1] && w.B[0] === b[0] && w.B[1] === b[1];

try {
	let page = await open(file);
	const keys = await page.evaluate(() => Array.from(document.querySelectorAll("#labels .lkey")).map((e) => e.textContent));
	check(JSON.stringify(keys) === JSON.stringify([HOSTILE_KEY, "bytes", "endpoint", "region"]), `a row per key (${keys})`);
	const values = await page.evaluate(() => Array.from(document.querySelectorAll("#labels button.lv")).map((b) => b.textContent));
	check(values.includes("512 bytes (100)") && values.includes("/cart (310)") && values.includes(HOSTILE + " (300)") &&
		values.includes("eu (500)") && values.includes("us (110)"), `values with their weights (${values.join(" | ")})`);
	check(await page.evaluate(() => !document.querySelector("#v-labels img, #v-labels svg") && !!document.querySelector("#v-time")),
		"the hostile key and value are no markup; the heatmap is there too");
	// the hostile key's slice, through a click and the URL
	await click(page, HOSTILE_KEY, "\"'");
	check(same(await widths(page), [100, null], [0, null]), "the hostile key's slice: A's 100");
	await page.click("#b-labels-clear");
	check(same(await widths(page), [310, null], [300, null]), "the whole profile");
	// one slice
	await click(page, "endpoint", "/cart");
	check(same(await widths(page), [310, null], [0, null]), "endpoint=/cart: A alone");
	check(/#.*l=endpoint:%2Fcart/.test(page.url()), "the slice in the URL: " + page.url().split("#")[1]);
	// a second key: both must hold
	await click(page, "region", "us");
	check(same(await widths(page), [10, null], [0, null]), "endpoint=/cart and region=us: A's 10");
	// a second value of the same key: either
	await click(page, "endpoint", HOSTILE);
	check(same(await widths(page), [10, null], [100, null]), "endpoint /cart or the other, region=us");
	await page.click("#b-labels-clear");
	check(same(await widths(page), [310, null], [300, null]) && !/l=/.test(page.url()), "All labels again");
	// the diff of two slices: /cart before, the other endpoint after (scaled to its total)
	await click(page, "endpoint", "/cart");
	await click(page, "endpoint", HOSTILE, true);
	let w = await widths(page);
	check(same(w, [300, 0], [0, 300]), `diff of endpoint=/cart and the other: A down, B up, normalized (${JSON.stringify(w)})`);
	check(/l=endpoint:%2Fcart/.test(page.url()) && /ld=endpoint:/.test(page.url()), "both slices in the URL");
	const url = page.url().split("#")[1];
	await page.close();
	// the URL round trip
	page = await open(file, "#" + url);
	w = await widths(page);
	check(same(w, [300, 0], [0, 300]), `URL round trip: the same diff (${JSON.stringify(w)})`);
	check(JSON.stringify(await page.evaluate(() => FGLabels.slices())) === JSON.stringify([[["endpoint", "/cart"]], [["endpoint", HOSTILE]]]),
		"URL round trip: the same slices, the hostile value byte for byte");
	await page.evaluate(() => FGLabels.clear());
	// a slice and a time range: second 2 (the third profile), region=eu
	await page.evaluate(() => FGTime.select(2e9, 3e9));
	check(same(await widths(page), [10, null], [200, null]), "time range [2, 3) alone");
	await click(page, "region", "eu");
	check(same(await widths(page), [0, null], [200, null]), "time range [2, 3) and region=eu: B's 200");
	check(/t=2,3/.test(page.url()) && /l=region:eu/.test(page.url()), "range and slice in the URL");
	const both = page.url().split("#")[1];
	await page.close();
	page = await open(file, "#" + both);
	check(same(await widths(page), [0, null], [200, null]), "URL round trip of a range and a slice");
	// two ranges and one slice: the diff of [0, 1) and [2, 3), both region=eu
	await page.evaluate(() => FGTime.select(0, 1e9, 2e9, 3e9));
	w = await widths(page);
	check(same(w, [200, 0], [0, 200]), `diff of two ranges within region=eu (${JSON.stringify(w)})`);
	await page.close();
	page = await open(plain);
	check(await page.evaluate(() => !document.querySelector("#v-labels") && !window.FGLabels), "a page without labels: no selector");
	await page.close();
} finally {
	await ctx.close();
}
check(errors.length === 0, "no page errors" + (errors.length ? ": " + errors.join("; ") : ""));
check(dialogs.length === 0, "no dialogs (no script ran from a label)");
console.log(`${checks - failures}/${checks} checks passed`);
process.exit(failures ? 1 : 0);
