// ---- a search from a link (templates/search.js: one source, put in the SVG's script and
// the page's by embed.c). A regex from the URL (a link anyone can write) runs in a Web
// Worker with a time budget: one that backtracks catastrophically is stopped, and said so,
// instead of freezing the page. Where no worker can run, the text is searched for as it is.

var URL_SEARCH_MS = 1500;
var SEARCH_STOPPED = "Search stopped: took over " + URL_SEARCH_MS / 1000 + " s";

// the worker's whole program (sent as its source): the indices of the names that match
function matchNames(e) {
	var re = new RegExp(e.data.pattern, e.data.flags), names = e.data.names, hits = [];
	for (var i = 0; i < names.length; i++) if (re.test(names[i])) hits.push(i);
	postMessage(hits);
}

// `pattern` over `names` in a worker, then one of `then`'s: found(hits), the indices that
// match (ascending); stopped(), the budget ran out; literal(pattern), the pattern escaped to
// match its own text, to search for in place (no worker, or the worker failed)
function searchBounded(pattern, ignoreCase, names, then) {
	var worker;
	try {
		new RegExp(pattern);
		worker = new Worker(URL.createObjectURL(new Blob(["onmessage = " + matchNames], { type: "text/javascript" })));
	} catch (e) {
		then.literal(escapeRegExp(pattern));
		return;
	}
	var timer = setTimeout(function () { worker.terminate(); then.stopped(); }, URL_SEARCH_MS);
	worker.onmessage = function (e) { clearTimeout(timer); worker.terminate(); then.found(e.data); };
	worker.onerror = function () { clearTimeout(timer); worker.terminate(); then.literal(escapeRegExp(pattern)); };
	worker.postMessage({ pattern: pattern, flags: ignoreCase ? "i" : "", names: names });
}

function escapeRegExp(text) { return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
