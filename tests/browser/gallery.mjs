// The README's picture of the HTML page (fixtures/gallery/page.png) is what this build's
// page of the bundled example (tools/docs: gallery-page) shows in headless Chromium, as an
// icicle with a search: byte for byte, so a change to the page shows up here.
// FLAME_BLESS=1 writes the build's picture over the committed one.
// Usage: node gallery.mjs BUILD_DIR SOURCE_DIR
import { chromium } from "playwright-core";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [build, src] = process.argv.slice(2);
const html = path.join(build, "tools", "docs", "page.html");
const kept = path.join(src, "fixtures", "gallery", "page.png");
const made = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "flame-gallery-")), "page.png");
let fail = 0;
if (!fs.existsSync(html)) {
	console.log("FAIL: the build made no page.html");
	process.exit(1);
}
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true,
	args: ["--headless", "--no-sandbox", "--disable-gpu", "--font-render-hinting=none"] });
const page = await browser.newPage({ viewport: { width: 1000, height: 640 }, deviceScaleFactor: 1 });
await page.goto("file://" + html + "#o=icicle&s=%5Epong%24");
await page.waitForFunction(() => window.FG && FG.ready, null, { timeout: 30000 });
await page.screenshot({ path: made });
await browser.close();
if (process.env.FLAME_BLESS === "1") fs.copyFileSync(made, kept);
if (!fs.existsSync(kept) || !fs.readFileSync(made).equals(fs.readFileSync(kept))) {
	console.log(`FAIL: fixtures/gallery/page.png differs from the build's (${made}; FLAME_BLESS=1 to update)`);
	fail = 1;
}
if (!fs.readFileSync(path.join(src, "README.md"), "utf8").includes("(fixtures/gallery/page.png)")) {
	console.log("FAIL: README.md does not show page.png");
	fail = 1;
}
if (!fail) console.log("ok: the page's gallery picture matches the build and is in README.md");
process.exit(fail);
