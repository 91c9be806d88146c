// speedscope's own importer (the npm package speedscope, its bundled web app) run on
// files in headless Chromium (playwright-core): for each FILE, a line per profile of
// what speedscope makes of it, `FILE<TAB>PROFILE<TAB>UNIT<TAB>TOTAL<TAB>MS`, the total
// weight as speedscope sums it and the import's time in milliseconds. The bundle exposes
// no API, so the promise of its import module is handed to the page (one line of the
// bundle, checked to be there, gains `globalThis.__flameImport=`).
// With --frames, a line `FILE<TAB>PROFILE<TAB>frame<TAB>NAME<TAB>SELF<TAB>TOTAL` follows for
// each frame speedscope made (NAME as a JSON string; its self and total weight, recursion
// counted once).
// Usage: node speedscope-import.mjs [--frames] FILE...
import { chromium } from "playwright-core";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const dir = path.join(path.dirname(require.resolve("speedscope/package.json")), "dist", "release");
const bundle = fs.readdirSync(dir).find((f) => /^speedscope-.*\.js$/.test(f));
let js = fs.readFileSync(path.join(dir, bundle), "utf8");
const hook = /var (\w+)=Promise\.resolve\(\)\.then\(\(\)=>\((\w+)\(\),(\w+)\)\);/;
const m = js.match(hook);
if (!m || !js.includes("importProfileGroupFromText:")) {
	console.error(`speedscope-import: the bundle ${bundle} has no import module to hook`);
	process.exit(1);
}
js = js.replace(hook, (s) => s + `globalThis.__flameImport=${m[1]};`);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true,
	args: ["--headless", "--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage();
// a page of its own on file:// (the app reads localStorage, which about:blank refuses)
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "flame-speedscope-"));
fs.writeFileSync(path.join(tmp, "app.js"), js);
fs.writeFileSync(path.join(tmp, "index.html"),
	'<!DOCTYPE html><html><body><script src="app.js"></script></body></html>');
page.on("pageerror", (e) => process.env.FLAME_DEBUG && console.error("page:", e.message));
await page.goto("file://" + path.join(tmp, "index.html"));
await page.waitForFunction(() => globalThis.__flameImport, null, { timeout: 30000 });
let fail = 0;
let args = process.argv.slice(2);
const frames = args[0] === "--frames";
if (frames) args = args.slice(1);
for (const file of args) {
	const text = fs.readFileSync(file, "utf8");
	const rows = await page.evaluate(async ([name, text, frames]) => {
		const mod = await globalThis.__flameImport;
		const t0 = performance.now();
		const group = await mod.importProfileGroupFromText(name, text);
		const ms = performance.now() - t0;
		if (!group) return null;
		return group.profiles.map((p) => {
			const fr = [];
			if (frames) p.forEachFrame((f) => fr.push([f.name, f.getSelfWeight(), f.getTotalWeight()]));
			return [p.getName(), p.getWeightUnit(), p.getTotalWeight(), ms, fr];
		});
	}, [path.basename(file), text, frames]);
	if (!rows) {
		console.log(`${file}\t-\t-\tnot imported\t-`);
		fail = 1;
		continue;
	}
	for (const [name, unit, total, ms, fr] of rows) {
		console.log(`${file}\t${name}\t${unit}\t${total}\t${ms.toFixed(1)}`);
		for (const [f, self, tot] of fr) console.log(`${file}\t${name}\tframe\t${JSON.stringify(f)}\t${self}\t${tot}`);
	}
}
await browser.close();
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(fail);
