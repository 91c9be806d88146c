// First paint of our page (graph and heatmap drawn) and of async-profiler's heatmap page
// (its script has run: the heatmap drawn; its graph waits for a click) in fresh headless
// Chromium browsers, interleaved (bench/time/aprof.sh). Medians of RUNS with their range.
// Usage: node aprof.mjs OURS.html THEIRS.html RUNS
import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "../../tests/browser/package.json"));
const { chromium } = require("playwright-core");
const [ours, theirs, runsArg] = process.argv.slice(2);
const runs = +runsArg || 3;
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
	"--disable-component-update", "--disable-sync"];
const med = (v) => { const s = [...v].sort((a, b) => a - b); return s[s.length >> 1]; };
const fmt = (v) => `${med(v).toFixed(0)} ms (${Math.min(...v).toFixed(0)}-${Math.max(...v).toFixed(0)})`;

async function firstPaint(file, ready) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flame-bench-aprof-"));
	const ctx = await chromium.launchPersistentContext(dir, { executablePath: "/usr/bin/chromium", headless: true, args, viewport: { width: 1300, height: 900 } });
	const page = await ctx.newPage();
	await page.goto("file://" + path.resolve(file));
	await page.waitForFunction(ready, null, { timeout: 120000 });
	const t = await page.evaluate(async () => { await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); return performance.now(); });
	const heap = await page.evaluate(() => performance.memory ? performance.memory.usedJSHeapSize : 0);
	const time = await page.evaluate(() => { const c = document.querySelector("#c-time"); return c ? `${c.dataset.kind} of ${c.dataset.cols} columns` : "none"; });
	await ctx.close();
	fs.rmSync(dir, { recursive: true, force: true });
	return { t, heap, time };
}

const oursReady = () => window.FG && FG.ready && (!window.FGTime || FGTime.ready);
const theirsReady = () => document.readyState === "complete";
let info = "";
const paint = { ours: [], theirs: [] }, heap = { ours: [], theirs: [] };
for (let r = 0; r < runs; r++) {
	for (const [k, f, ready] of [["theirs", theirs, theirsReady], ["ours", ours, oursReady]]) {
		const b = await firstPaint(f, ready);
		paint[k].push(b.t);
		heap[k].push(b.heap / 1e6);
		if (k === "ours") info = b.time;
	}
}
const so = fs.statSync(ours).size, st = fs.statSync(theirs).size;
console.log(`page size: ours ${(so / 1e3).toFixed(1)} kB, async-profiler's heatmap ${(st / 1e3).toFixed(1)} kB: ${(st / so).toFixed(1)}x ours`);
console.log(`our heatmap: ${info}`);
console.log(`first paint: ours ${fmt(paint.ours)} (graph and heatmap), async-profiler's ${fmt(paint.theirs)} (heatmap): ${(med(paint.theirs) / med(paint.ours)).toFixed(2)}x ours`);
console.log(`JS heap after first paint: ours ${med(heap.ours).toFixed(1)} MB, async-profiler's ${med(heap.theirs).toFixed(1)} MB`);
