/* SPDX-License-Identifier: MIT */
/*
 * Symbol demangling for the crash report: Itanium C++ ABI names (_Z...) as
 * GNU c++filt prints them, Rust legacy (_ZN...17h<hash>E) and v0 (_R...)
 * names as Rust's own backtraces print them (rustc-demangle's "{:#}" form:
 * no hash, no crate disambiguators).  No allocation, no recursion: the
 * grammars are recursive, so the parsers and printers run on explicit,
 * fixed-depth stacks in a workspace of fixed size.  demangle.c has the
 * rules (which demangler, the elision).
 */
#ifndef CR_DEMANGLE_H
#define CR_DEMANGLE_H

#include "common.h"

/*
 * Bounds.  A name that needs more than one of them is not demangled
 * (-CR_EINVAL: the caller prints it mangled).  The largest name of
 * libstdc++, libLLVM and every C++ and Rust library of a Debian 12
 * system needs 229 components, 65 substitutions, a depth under 64 and
 * 24 modifiers.
 */
#define CR_DEMANGLE_MAXLEN 4096		/* bytes of mangled name */
#define CR_DEMANGLE_NODES 1024		/* parsed components of one C++ name */
#define CR_DEMANGLE_SUBS 256		/* substitution candidates */
#define CR_DEMANGLE_DEPTH 128		/* nesting of parser and printer states */
#define CR_DEMANGLE_MODS 64		/* printer: pending declarator modifiers */
#define CR_DEMANGLE_SCOPES 16		/* printer: template scopes saved for references */
#define CR_DEMANGLE_MAXOUT (256 * 1024)	/* bytes of demangled text, before elision */
#define CR_DEMANGLE_MINCAP 64

/* Marks the elided middle of a name longer than the output buffer (U+2026, UTF-8). */
#define CR_DEMANGLE_ELLIPSIS " \xe2\x80\xa6 "

struct cr_dm_node {
	uint8_t kind, flag;
	uint16_t a, b, c;
};

struct cr_dm_frame {
	uint8_t fn, phase;
	uint16_t node;
	uint16_t v[6];
};

struct cr_dm_mod {
	uint16_t node, next, tpl;	/* next, tpl: index + 1, 0 = none */
	uint8_t printed, pad;
};

/*
 * All the state of one demangling: sizeof(struct cr_demangle_ws) is
 * 13 KiB on 64-bit hosts.  The report, which writes one report at a
 * time, keeps one in static storage; cr_demangle() puts one on its own
 * stack (too much for the handler's 16 KiB budget).
 */
struct cr_demangle_ws {
	const char *s;
	uint32_t len, pos;
	uint32_t steps;
	uint16_t nnodes, nsubs, sp, ret;
	uint16_t last_name;		/* parser: the class a constructor names */
	uint8_t is_expr, is_conv;	/* parser: in an expression, in a conversion's type */
	int8_t unres;			/* parser: how to read sr (demangle-cxx.c) */
	uint8_t fatal;			/* parser: a bound was hit */
	uint16_t nmods, ntpls;		/* printer: records in use */
	uint16_t mods, tpls, cur_tpl;	/* printer: modifier list, template scopes (index + 1) */
	uint16_t anchor;		/* printer: the innermost name's component */
	uint16_t nscopes, ncopies; /* printer: saved scopes, their records (tpl[] from the end) */
	int16_t pack;			/* printer: index in the pack being expanded, -1: all */
	uint8_t lambda;			/* printer: in a lambda's signature */
	uint8_t skip;			/* Rust: parsing without printing (an impl's path) */
	uint32_t bld;			/* Rust: lifetimes bound by enclosing binders */
	struct cr_dm_node node[CR_DEMANGLE_NODES];
	uint16_t sub[CR_DEMANGLE_SUBS];
	uint8_t printing[CR_DEMANGLE_NODES];
	struct cr_dm_frame fr[CR_DEMANGLE_DEPTH];
	struct cr_dm_mod mod[CR_DEMANGLE_MODS];
	uint16_t tpl[CR_DEMANGLE_MODS][2];	/* template scopes: node, next (index + 1) */
	uint16_t scope[CR_DEMANGLE_SCOPES][2];	/* template parameter, its saved scope */
	uint32_t puny[128];			/* Rust: a decoded Punycode identifier */
};

/*
 * Demangle name (NUL-terminated) into out (cap bytes, cap >= CR_DEMANGLE_MINCAP;
 * the result is always NUL-terminated).  Returns the length written (>= 0), or
 * -CR_EINVAL when name is not a mangled name this demangler understands or
 * needs more than the bounds above: then out is not written and the caller
 * prints the name as it is.  A result longer than cap - 1 is elided at token
 * boundaries, each elided stretch replaced by CR_DEMANGLE_ELLIPSIS: its start
 * and its end stay, and so does the end of its innermost name (a function's
 * own name, before its template arguments and parameters); demangle.c has
 * the rule.  Reads name up to its NUL (at most CR_DEMANGLE_MAXLEN + 1 bytes)
 * and ws.  AS-safe: no allocation, no locks, no recursion; bounded time, two
 * passes (count, then write) of at most CR_DEMANGLE_STEPS steps each.
 */
int cr_demangle_ws(struct cr_demangle_ws *ws, const char *name, char *out, size_t cap);

/* cr_demangle_ws() with the workspace on the stack (sizeof(struct cr_demangle_ws)). */
int cr_demangle(const char *name, char *out, size_t cap);

#endif
