// Browser test of the page's time heatmap (templates/page-heatmap.js) in headless Chromium:
// a perf profile of A for 2 s, B for 1 s, then A (10 ms samples) drawn by flame-render -o
// x.html. The heatmap (4 columns of seconds, 50 rows of 20 ms) holds B in column 2; a
// drag over seconds 2 and 3 makes the graph of that range (B is all); a shift-drag over
// seconds 0 and 1 diffs the two (A down, B up); the URL round trip reopens the same ranges;
// "only search matches" limits the heatmap to B; a page without time has no panel; a
// hostile name stays text. Usage: node time.test.mjs BUILD_DIR
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [build] = process.argv.slice(2);
const tool = (t) => path.join(build, "tools", t);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "flame-time-browser-"));
let failures = 0, checks = 0;
function check(cond, what) {
	checks++;
	if (!cond) failures++;
	console.log(`${cond ? "ok  " : "FAIL:"} ${what}`);
}
let perf = "";
for (let i = 0; i < 400; i++) { // 10 ms apart: 4 s
	const t = i * 0.01, fn = t >= 2 && t < 3 ? "B<img src=x onerror=alert(1)>" : "A";
	perf += `prog 7 [000] ${(100 + t).toFixed(6)}: 10000000 cpu-clock:\n\t1 ${fn} (/x)\n\t2 main (/x)\n\n`;
}
const file = path.join(tmp, "aba.html"), plain = path.join(tmp, "plain.html");
execFileSync(tool("flame-render"), ["-o", file], { input: perf });
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
	await page.waitForFunction(() => window.FG && FG.ready && (!window.FGTime || FGTime.ready), null, { timeout: 30000 });
	return page;
}
const widths = (page) => page.evaluate(() => {
	const t = FG.tree(), n = FG.names(), out = {};
	for (let i = 1; i < t.n; i++) if (t.depth[i] === 3) out[n[t.name[i]].slice(0, 1)] = [t.total0[i], t.total1 ? t.total1[i] : null];
	return out;
});
// the centre of the heatmap cell of second `s`, offset `ms`
const cellAt = (page, s, ms) => page.evaluate(([s, ms]) => {
	const c = document.querySelector("#c-time"), r = c.getBoundingClientRect(), g = FGTime.geometry;
	return [r.left + g.x0 + (s + 0.5) * g.cw, r.top + g.y0 + (ms / 20 + 0.5) * g.ch];
}, [s, ms]);

try {
	let page = await open(file);
	const ds = await page.evaluate(() => ({ ...document.querySelector("#c-time").dataset }));
	check(ds.kind === "heatmap" && ds.cols === "4" && ds.rows === "50", `heatmap of 4 columns and 50 rows (${JSON.stringify(ds)})`);
	const cells = await page.evaluate(() => Array.from(FGTime.cells));
	const col = (c) => cells.slice(c * 50, c * 50 + 50).reduce((a, b) => a + b, 0);
	check(col(0) === 1e9 && col(1) === 1e9 && col(2) === 1e9 && col(3) === 1e9, "each second holds its 100 samples");
	// drag over second 2 (all of its rows)
	let [x0, y0] = await cellAt(page, 2, 0), [x1, y1] = await cellAt(page, 2, 980);
	await page.mouse.move(x0, y0); await page.mouse.down(); await page.mouse.move(x1, y1); await page.mouse.up();
	let w = await widths(page);
	check(w.B && w.B[0] === 1e9 && !(w.A && w.A[0]), `range [2 s, 3 s): B is all (${JSON.stringify(w)})`);
	check(/#.*t=2,3/.test(page.url()), "range kept in the URL: " + page.url().split("#")[1]);
	// shift-drag over seconds 0 and 1: the diff of [2, 3) (BEFORE) and [0, 2) (AFTER)? no:
	// the first range is BEFORE, the second AFTER
	[x0, y0] = await cellAt(page, 0, 0); [x1, y1] = await cellAt(page, 1, 980);
	await page.keyboard.down("Shift");
	await page.mouse.move(x0, y0); await page.mouse.down(); await page.mouse.move(x1, y1); await page.mouse.up();
	await page.keyboard.up("Shift");
	w = await widths(page);
	check(w.A && w.A[0] === 0 && w.A[1] === 2e9 && w.B && w.B[0] === 2e9 && w.B[1] === 0,
		`diff of [2, 3) and [0, 2), normalized to the second's total: A up, B down (${JSON.stringify(w)})`);
	check(/t=2,3/.test(page.url()) && /d=0,2/.test(page.url()), "both ranges in the URL");
	// the other way round, through the API and the URL: [0, 2) before, [2, 3) after
	await page.close();
	page = await open(file, "#t=0,2&d=2,3");
	w = await widths(page);
	check(w.A && w.A[0] === 1e9 && w.A[1] === 0 && w.B && w.B[0] === 0 && w.B[1] === 1e9,
		`URL round trip: the diff of [0, 2) and [2, 3): A down, B up (${JSON.stringify(w)})`);
	check((await page.evaluate(() => FGTime.ranges())).length === 2, "URL round trip: two ranges");
	const t0 = Date.now();
	await page.evaluate(() => FGTime.clear());
	w = await widths(page);
	check(w.A[0] === 3e9 && w.B[0] === 1e9 && w.A[1] === null, "Whole recording again");
	check(Date.now() - t0 < 2000, "clearing is quick");
	// only search matches: the heatmap of B's stacks
	await page.fill("#search", "^B");
	await page.press("#search", "Enter");
	await page.check("#time-matches");
	const only = await page.evaluate(() => Array.from(FGTime.cells));
	const sum = (a, b) => a.slice(b * 50, b * 50 + 50).reduce((x, y) => x + y, 0);
	check(sum(only, 0) === 0 && sum(only, 1) === 0 && sum(only, 2) === 1e9 && sum(only, 3) === 0, "only search matches: B in second 2 only");
	check(/hm=1/.test(page.url()), "the choice in the URL");
	check(await page.evaluate(() => !document.querySelector("#v-time img")), "the hostile name is no markup");
	await page.close();
	page = await open(plain);
	check(await page.evaluate(() => !document.querySelector("#v-time") && !window.FGTime), "a page without time: no heatmap");
	await page.close();
} finally {
	await ctx.close();
}
check(errors.length === 0, "no page errors" + (errors.length ? ": " + errors.join("; ") : ""));
check(dialogs.length === 0, "no dialogs (no script ran from a name)");
console.log(`${checks - failures}/${checks} checks passed`);
process.exit(failures ? 1 : 0);
