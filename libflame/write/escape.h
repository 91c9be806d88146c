/* The one gate from untrusted text (frame names, titles, notes, count names, nameattr
 * values) to markup: XML-escape, replace bytes XML 1.0 forbids, repair invalid UTF-8; and
 * the quoting of names in CSV and JSON reports; JSON strings for the speedscope and
 * .cpuprofile writers. */
#ifndef FLAME_WRITE_ESCAPE_H
#define FLAME_WRITE_ESCAPE_H
#include <stddef.h>
#include "../flame.h"

/** Worst-case output size for `n` input bytes ("&quot;" is 6 bytes per byte). */
#define FLAME__ESCAPE_MAX(n) ((n) * 6)

/** Escape `src[0..n)` into `dst` (room for FLAME__ESCAPE_MAX(n) bytes; not
 * NUL-terminated) for use in XML text and in double- or single-quoted attributes:
 * & < > " ' become entities; TAB LF CR become character references (so attribute
 * values keep them); other control bytes, U+FFFE/U+FFFF and every byte that is not part
 * of well-formed UTF-8 (overlong forms, surrogates, > U+10FFFF, truncated sequences)
 * become U+FFFD. Returns the bytes written. */
size_t flame__xml_escape(char *dst, const char *src, size_t n);

/** Escape `src[0..n)` as the inside of a JSON string into `dst` (room for
 * FLAME__ESCAPE_MAX(n) bytes): '"' and '\\' get a backslash, control bytes become \u00XX;
 * other bytes pass as they are (JSON readers take invalid UTF-8 as U+FFFD, and ours reads
 * the bytes back). Returns the bytes written. */
size_t flame__json_escape(char *dst, const char *src, size_t n);

/** Repair `src[0..n)` into well-formed, XML-allowed UTF-8 without escaping markup (for
 * cairo text, which is not markup): same replacements as flame__xml_escape. `dst` needs
 * 3 * n bytes. Returns the bytes written. */
size_t flame__utf8_repair(char *dst, const char *src, size_t n);
/** A field of a CSV or JSON report (cost reports, the diff report): quoted, as RFC 4180
 * (json 0) or a JSON string (json 1) wants, invalid UTF-8 as U+FFFD, through `fn`. */
int flame__put_quoted(flame_text_fn fn, void *ud, const char *p, size_t n, int json);
#endif
