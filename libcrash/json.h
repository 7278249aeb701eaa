/* SPDX-License-Identifier: MIT */
/*
 * An AS-safe JSON writer (RFC 8259) over struct cr_out: no allocation, a
 * fixed nesting depth, a byte budget that the document never exceeds.
 *
 * Strings are escaped as RFC 8259 section 7 requires ('"', '\\', control
 * characters) and DEL as \u007f; valid UTF-8 (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF) is copied, and each byte that is not
 * part of a valid sequence becomes \ufffd (U+FFFD, the replacement
 * character), so the output is always valid UTF-8 and valid JSON.
 *
 * The budget (limit) is what the whole document may take, the closing
 * brackets, a "truncated" member and the final newline included: a value
 * that does not fit is dropped with everything after it (cut), and
 * cr_json_finish() closes what is open and adds "truncated": true to the
 * outermost object.  So a cut document is still one valid JSON line: a
 * prefix of the full one, members whole or absent.
 *
 * key: the member's name in an object (a literal: not escaped); NULL for an
 * array element or the top level.
 */
#ifndef CR_JSON_H
#define CR_JSON_H

#include "out.h"

#define CR_JSON_DEPTH 16

struct cr_json {
	struct cr_out *o;
	size_t limit;		/* bytes the document may take */
	size_t len;		/* bytes written */
	unsigned depth;		/* open containers */
	unsigned skip;		/* containers opened after the cut (not written) */
	int cut;		/* a value did not fit: nothing more is written */
	uint8_t member[CR_JSON_DEPTH];	/* the container at this depth has a member */
	uint8_t array[CR_JSON_DEPTH];	/* it is an array */
};

/* A document of at most limit bytes into o. */
void cr_json_init(struct cr_json *j, struct cr_out *o, size_t limit);
void cr_json_obj(struct cr_json *j, const char *key);	/* '{' */
void cr_json_arr(struct cr_json *j, const char *key);	/* '[' */
void cr_json_end(struct cr_json *j);	/* closes the innermost container */
void cr_json_str(struct cr_json *j, const char *key, const char *s);
void cr_json_strn(struct cr_json *j, const char *key, const char *s, size_t max);
void cr_json_u64(struct cr_json *j, const char *key, uint64_t v);
void cr_json_i64(struct cr_json *j, const char *key, int64_t v);
void cr_json_bool(struct cr_json *j, const char *key, int v);
void cr_json_null(struct cr_json *j, const char *key);
/* An address or register: the string "0x" and 16 hex digits (JSON numbers lose 64-bit values). */
void cr_json_addr(struct cr_json *j, const char *key, uint64_t v);
/* Bytes as a string of lowercase hex digits (a build-id). */
void cr_json_hex(struct cr_json *j, const char *key, const uint8_t *b, size_t n);
/*
 * Close every open container (the outermost object gets "truncated": true
 * if something was dropped), then a newline.  Returns 1 if cut, else 0.
 */
int cr_json_finish(struct cr_json *j);

/* The length of s[0..n) (up to a NUL) escaped as a JSON string's contents (tests). */
size_t cr_json_escaped_len(const char *s, size_t n);

/* ---------------------------------------------------------------- the JSON report */

#define CR_JSON_SCHEMA "libcrash.report/1"
#define CR_JSON_LIMIT (1024 * 1024)	/* a report's bytes at most (then cut, valid) */

struct cr_crash;
struct cr_jrep;		/* one JSON report being written (json-report.c) */

/*
 * The JSON report of c into o, one line of at most limit bytes
 * (docs/report-format.md, "JSON").  AS-safe, bounded, as cr_report().
 */
void cr_report_json(struct cr_out *o, const struct cr_crash *c, size_t limit);

/* A thread's entry in "threads", besides its registers and backtrace (c->regs). */
struct cr_json_thread {
	long tid;		/* <= 0: unknown */
	const char *name;	/* NULL or "": unknown */
	int crashed;		/* the thread that crashed */
	int current;		/* the thread that writes the report (the crashed one, or
				   crash_report_fd()'s caller) */
	const char *error;	/* not NULL: why it has no registers or backtrace */
};

/*
 * For the parts other helpers add (issue 18), one call each at their place
 * in cr_report_json(): another thread (c: its registers, walked as the
 * crashing thread's are), and the abort message.
 */
void cr_json_thread(struct cr_jrep *r, const struct cr_crash *c, const struct cr_json_thread *t);
void cr_json_abort_message(struct cr_jrep *r, const char *msg);

/*
 * Sentry's debug_id for an ELF build-id: its first 16 bytes (zero-padded) as
 * a GUID with the first three fields byte-swapped, "xxxxxxxx-xxxx-xxxx-xxxx-
 * xxxxxxxxxxxx" (36 bytes and a NUL; cap >= 37, else 0).  Returns the length.
 */
size_t cr_json_debug_id(char *dst, size_t cap, const uint8_t *id, unsigned len);

#endif
