// Numbers for people in C and in the pages' JavaScript, on the same values: core/human.c
// (flame__human, flame_format_count; printed by values.c) against templates/human.js run
// with the rules the build wrote from core/human-rules.h (human-rules.js), the two parts
// embed.c puts into the HTML page's script. Each case of cases.txt must read the same.
// Usage: node compare.mjs HUMAN_VALUES HUMAN_RULES_JS HUMAN_JS CASES
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import vm from "node:vm";

const [values, rulesJs, humanJs, casesFile] = process.argv.slice(2);
const js = vm.createContext({});
vm.runInContext(fs.readFileSync(rulesJs, "utf8") + "\n" + fs.readFileSync(humanJs, "utf8"), js);

const cases = fs.readFileSync(casesFile, "utf8").split("\n").filter((l) => l !== "" && !l.startsWith("#"));
const fromC = execFileSync(values, [casesFile]).toString().split("\n").slice(0, -1);
let failures = 0;
if (fromC.length !== cases.length) {
	console.log(`FAIL: ${cases.length} cases, ${fromC.length} lines from C`);
	process.exit(1);
}
cases.forEach((line, k) => {
	const [kind, value, a, b] = line.split(/\s+/);
	const unit = (u) => (u === "-" ? null : u);
	const fromJs = kind === "human" ? js.human(Number(value), unit(a), b === "+")
		: js.formatCount(Number(value), Number(a), unit(b));
	const same = fromJs === fromC[k];
	if (!same) failures++;
	console.log(`${same ? "ok  " : "FAIL:"} ${line}: C "${fromC[k]}"${same ? "" : `, JavaScript "${fromJs}"`}`);
});
console.log(`${cases.length} cases, ${failures} differ`);
process.exit(failures || cases.length === 0 ? 1 : 0);
