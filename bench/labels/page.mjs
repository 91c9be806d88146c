// First paint of two pages (without and with labels) in headless Chromium, a fresh page each
// run: from navigation to FG.ready (and FGLabels.ready), then, in the labelled page, the time
// to redraw the graph of one label slice. Medians of RUNS runs with their range.
// Usage: node page.mjs WITHOUT.html WITH.html RUNS
import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "../../tests/browser/package.json"));
const { chromium } = require("playwright-core");
const [without, labelled, runsArg] = process.argv.slice(2);
const runs = +runsArg || 5;
const med = (v) => { const s = [...v].sort((a, b) => a - b); return s[s.length >> 1]; };
const fmt = (v) => `${med(v).toFixed(0)} ms (${Math.min(...v).toFixed(0)}-${Math.max(...v).toFixed(0)})`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flame-bench-labels-"));
const ctx = await chromium.launchPersistentContext(dir, { executablePath: "/usr/bin/chromium", headless: true,
	args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"], viewport: { width: 1300, height: 900 } });
const paint = { without: [], with: [] }, slice = [];
try {
	for (let r = 0; r < runs; r++) {
		for (const [name, f] of [["without", without], ["with", labelled]]) {
			const page = await ctx.newPage();
			const t0 = Date.now();
			await page.goto("file://" + f);
			await page.waitForFunction(() => window.FG && FG.ready && (!window.FGLabels || FGLabels.ready), null, { timeout: 120000 });
			paint[name].push(Date.now() - t0);
			if (name === "with")
				slice.push(await page.evaluate(() => {
					const b = document.querySelector("#labels button.lv"), t = performance.now();
					FGLabels.pick(b.dataset.key, b.dataset.value);
					return performance.now() - t;
				}));
			await page.close();
		}
	}
} finally {
	await ctx.close();
}
console.log(`first paint without labels: ${fmt(paint.without)}; with labels: ${fmt(paint.with)} (${(med(paint.with) / med(paint.without)).toFixed(2)}x)`);
console.log(`the graph of one slice: ${fmt(slice)}`);
