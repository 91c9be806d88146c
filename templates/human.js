// ---- numbers for people (templates/human.js, put in the page's script by embed.c):
// libflame/core/human.c's formatting, step for step, with its rules (HUMAN_RULES, which the
// build writes from core/human-rules.h), so an amount reads the same in the page as in the
// SVG and the text reports: time as "1.42 s" or "830 ms", bytes as "3.20 MiB", counts with
// separators. tests/core/human gives both the same values and compares the text.

// x with `decimals` digits after the point as C's printf("%.*f") writes it: from the exact
// binary value, a tie to the even digit (toFixed takes a tie up: 1.125 -> "1.13", not "1.12")
function printfFixed(x, decimals) {
	if (x < 0) return "-" + printfFixed(-x, decimals);
	if (x >= 1e21 && x < Infinity) return BigInt(x).toString() + (decimals ? "." + "0".repeat(decimals) : "");
	if (!(x < 1e21)) return x.toFixed(decimals);
	var exact = x.toFixed(100), point = exact.indexOf(".") + 1;
	if (/^50*$/.test(exact.substring(point + decimals))) {
		var kept = exact.substring(0, point + decimals - (decimals ? 0 : 1));
		if ((kept.charCodeAt(kept.length - 1) - 48) % 2 === 0) return kept;
	}
	return x.toFixed(decimals);
}

// `digits` (a run of decimal digits) with a separator every three from the right
function withSeparators(digits) {
	var out = "";
	for (var i = 0; i < digits.length; i++) {
		if (i && (digits.length - i) % HUMAN_RULES.group === 0) out += HUMAN_RULES.separator;
		out += digits.charAt(i);
	}
	return out;
}

// x >= 0 with three significant digits ("1.20": the same width in a table column); whole
// numbers of 1000 and more get separators
function threeDigits(x) {
	if (!(x >= 0) || x === Infinity) return x === Infinity ? "inf" : "nan"; // as C's %g
	if (x >= HUMAN_RULES.wholeFrom || x === 0) return withSeparators(printfFixed(x, 0));
	var decimals = x >= HUMAN_RULES.oneDecimalFrom ? 1 : x >= HUMAN_RULES.twoDecimalsFrom ? 2 : 2 - Math.floor(Math.log10(x));
	return printfFixed(x, Math.min(decimals, HUMAN_RULES.maxDecimals));
}

// x (>= 0) in the largest of `units` (each `step` times the one before) that keeps it at 1 or more
function inUnits(x, units, step) {
	var u = 0;
	while (u + 1 < units.length && x >= step * HUMAN_RULES.nextUnitAt) { x /= step; u++; }
	return threeDigits(x) + " " + units[u];
}

// what a count name measures: "time", "bytes" or "count"
function unitKind(unit) {
	if (HUMAN_RULES.timeNames.hasOwnProperty(unit)) return "time";
	return HUMAN_RULES.byteNames.indexOf(unit) >= 0 ? "bytes" : "count";
}

// `v` counts of `unit` as text, with its sign when `withSign` ("+830 ms") (flame__human)
function human(v, unit, withSign) {
	var sign = v < 0 ? "-" : withSign ? "+" : "", x = Math.abs(v), kind = unitKind(unit);
	if (kind === "time") return sign + (x === 0 ? HUMAN_RULES.zeroTime : inUnits(x * HUMAN_RULES.timeNames[unit], HUMAN_RULES.timeUnits, HUMAN_RULES.timeStep));
	if (kind === "bytes") return sign + inUnits(x, HUMAN_RULES.byteUnits, HUMAN_RULES.byteStep);
	return sign + threeDigits(x);
}

// `v` (a whole number of 10^-scale units) as text: time and bytes for people, other counts
// exact, the whole part with separators and the fraction's decimals as kept (flame_format_count)
function formatCount(v, scale, unit) {
	var p = Math.pow(10, scale);
	if (unitKind(unit) !== "count") return human(v / p, unit, false);
	var fraction = v % p, text = withSeparators(((v - fraction) / p).toFixed(0));
	if (fraction > 0) text += ("." + String(fraction + p).substring(1)).replace(/0+$/, "");
	return text;
}
