// The page with time against the page without (bench/time/run.sh): in headless Chromium
// (playwright-core from tests/browser), time from navigation to the first painted graph
// (and heatmap) of each, in fresh browsers, interleaved; then in the page with time, a
// range selected (the graph of the range drawn: to the second frame after it) and two
// ranges diffed. Medians of RUNS runs with their range.
// Usage: node page.mjs WITH.html WITHOUT.html RUNS
import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "../../tests/browser/package.json"));
const { chromium } = require("playwright-core");
const [withTime, without, runsArg] = process.argv.slice(2);
const runs = +runsArg || 3;
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
	"--disable-component-update", "--disable-sync"];
const med = (v) => { const s = [...v].sort((a, b) => a - b); return s[s.length >> 1]; };
const fmt = (v) => `${med(v).toFixed(0)} ms (${Math.min(...v).toFixed(0)}-${Math.max(...v).toFixed(0)})`;

async function firstPaint(file) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flame-bench-time-"));
	const ctx = await chromium.launchPersistentContext(dir, { executablePath: "/usr/bin/chromium", headless: true, args, viewport: { width: 1300, height: 900 } });
	const page = await ctx.newPage();
	await page.goto("file://" + path.resolve(file));
	await page.waitForFunction(() => window.FG && FG.ready && (!window.FGTime || FGTime.ready), null, { timeout: 120000 });
	const t = await page.evaluate(async () => { await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); return performance.now(); });
	return { t, ctx, dir, page };
}

const paint = { with: [], without: [] }, select = [], diff = [];
let info = null;
for (let r = 0; r < runs; r++) {
	for (const [k, f] of [["without", without], ["with", withTime]]) {
		const b = await firstPaint(f);
		paint[k].push(b.t);
		if (k === "with") {
			info = await b.page.evaluate(() => ({ kind: document.querySelector("#c-time").dataset.kind,
				cols: +document.querySelector("#c-time").dataset.cols, nodes: FG.tree().n }));
			for (let i = 0; i < 3; i++) {
				const a = 600e9 + i * 300e9;
				select.push(await b.page.evaluate(async ([a]) => {
					const t0 = performance.now();
					FGTime.select(a, a + 600e9);
					await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
					return performance.now() - t0;
				}, [a]));
				diff.push(await b.page.evaluate(async ([a]) => {
					const t0 = performance.now();
					FGTime.select(0, 600e9, a, a + 600e9);
					await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
					return performance.now() - t0;
				}, [a]));
			}
		}
		await b.ctx.close();
		fs.rmSync(b.dir, { recursive: true, force: true });
	}
}
const sw = fs.statSync(withTime).size, so = fs.statSync(without).size;
console.log(`page size: with time ${(sw / 1e3).toFixed(1)} kB, without ${(so / 1e3).toFixed(1)} kB: ${(sw / so).toFixed(2)}x (goal <= 1.5x)`);
console.log(`heatmap: ${info.kind} of ${info.cols} columns over ${info.nodes} nodes`);
console.log(`first paint: with time ${fmt(paint.with)}, without ${fmt(paint.without)}: ${(med(paint.with) / med(paint.without)).toFixed(2)}x (goal <= 1.5x)`);
console.log(`range selected, graph drawn: ${fmt(select)} (goal <= 200 ms)`);
console.log(`two ranges diffed, graph drawn: ${fmt(diff)} (goal <= 300 ms)`);
