/* SPDX-License-Identifier: MIT */
/*
 * Shared by the demangler's files (demangle*.c): the output sink, the
 * frames' protocol, reading the name, the C++ components and tables, the
 * Rust procedures.
 */
#ifndef CR_DEMANGLE_INT_H
#define CR_DEMANGLE_INT_H

#include "demangle.h"

/*
 * The output.  Every demangler runs twice: a counting pass (buf NULL) that
 * also finds every error and where the innermost name ends (anchor),
 * then a writing pass that cannot fail.  Text comes in pieces (an
 * identifier, "::", a number, ", "), and elision drops whole pieces: those
 * that overlap one of up to two cut ranges of the virtual text, each
 * replaced by CR_DEMANGLE_ELLIPSIS (demangle.c has the rule).
 */
struct cr_dm_sink {
	char *buf;
	size_t len;		/* virtual length so far */
	size_t anchor;		/* where the innermost name ends (0: not known) */
	size_t cut[2][2];	/* elision: [from, to) of the virtual text */
	size_t w;		/* bytes written to buf */
	uint8_t ncuts, marked;
	char last;		/* the last character of the virtual output */
	uint16_t pend;		/* ", " separators owed before the next piece */
	int err;
};

void cr_dm_put(struct cr_dm_sink *o, const char *s, size_t n);
void cr_dm_puts(struct cr_dm_sink *o, const char *s);
void cr_dm_putc(struct cr_dm_sink *o, char c);
void cr_dm_putu(struct cr_dm_sink *o, uint64_t v);

/*
 * The frames' protocol: a procedure runs in the top frame of ws->fr[] and
 * returns CR_DM_CALL after cr_dm_call() pushed a callee (its own phase
 * set to where it resumes), CR_DM_RET when done (its result in ws->ret),
 * or CR_DM_FAIL.
 */
enum { CR_DM_CALL, CR_DM_RET, CR_DM_FAIL };
int cr_dm_call(struct cr_demangle_ws *ws, struct cr_dm_frame *f, int phase, int fn, uint16_t node,
	       uint16_t v0);

static inline int cr_dm_ret(struct cr_demangle_ws *ws, uint16_t v)
{
	ws->sp--;
	ws->ret = v;
	return CR_DM_RET;
}

/* In a procedure (w, f in scope): run fn with node, v0, then resume at phase ph. */
#define CALL(ph, fn, node, v0) return cr_dm_call(w, f, ph, fn, node, v0)

/* Reading the mangled name: never past its end (ws->len). */
static inline char peek(const struct cr_demangle_ws *w)
{
	return w->pos < w->len ? w->s[w->pos] : 0;
}

static inline char peek2(const struct cr_demangle_ws *w)
{
	return w->pos + 1 < w->len ? w->s[w->pos + 1] : 0;
}

/* Consume c if it is next. */
static inline int eat(struct cr_demangle_ws *w, char c)
{
	if (peek(w) != c || !c)
		return 0;
	w->pos++;
	return 1;
}

static inline char next(struct cr_demangle_ws *w)
{
	char c = peek(w);

	if (c)
		w->pos++;
	return c;
}

static inline int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline int is_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f');
}

static inline int hexval(char c)
{
	return is_digit(c) ? c - '0' : c - 'a' + 10;
}

/* Each front end: 0 on success (text in o), -CR_EINVAL.  Called once per pass. */
int cr_dm_cxx_parse(struct cr_demangle_ws *ws);
int cr_dm_cxx_print(struct cr_demangle_ws *ws, struct cr_dm_sink *o);
int cr_dm_rust(struct cr_demangle_ws *ws, struct cr_dm_sink *o);

/* Rust (demangle-rust*.c): output that ws->skip silences, identifiers, the v0 procedures. */
struct cr_dm_ident {
	uint32_t a, an, p, pn;	/* offsets and lengths of the ASCII and the Punycode parts */
};
enum { CR_DM_V_PATH = 1, CR_DM_V_TYPE, CR_DM_V_CONST, CR_DM_V_GARG, CR_DM_V_DYNTRAIT,
       CR_DM_V_OPENPATH, CR_DM_V_BACKREF, CR_DM_V_SKIP };
void cr_dm_rput(struct cr_demangle_ws *ws, struct cr_dm_sink *o, const char *s, size_t n);
void cr_dm_rputs(struct cr_demangle_ws *ws, struct cr_dm_sink *o, const char *s);
void cr_dm_rputu(struct cr_demangle_ws *ws, struct cr_dm_sink *o, uint64_t v);
void cr_dm_rput_cp(struct cr_demangle_ws *ws, struct cr_dm_sink *o, uint32_t c);
int cr_dm_rident(struct cr_demangle_ws *ws, struct cr_dm_ident *id);
void cr_dm_rput_ident(struct cr_demangle_ws *ws, struct cr_dm_sink *o,
                      const struct cr_dm_ident *id);
int cr_dm_base62(struct cr_demangle_ws *ws, uint64_t *out);
int cr_dm_opt62(struct cr_demangle_ws *ws, char tag, uint64_t *out);
int cr_dm_backref(struct cr_demangle_ws *ws, struct cr_dm_frame *f, int phase, int fn,
                  uint16_t arg);
int cr_dm_v_const(struct cr_demangle_ws *ws, struct cr_dm_frame *f, struct cr_dm_sink *o);
int32_t cr_dm_v0(struct cr_demangle_ws *ws, struct cr_dm_sink *o);

/* Dispatch steps of one pass of a parser or printer (each O(1) but list walks). */
#define CR_DEMANGLE_STEPS 400000

/*
 * The tables below hold no pointers.  libcrash.so is preloaded into every
 * process, where each pointer in a table is a dynamic relocation
 * (R_X86_64_RELATIVE) the loader applies at every start-up, dirtying the
 * table's page: a text is a char array in its row, or, where the lengths
 * vary widely, a member of one blob found by a uint16_t offset.  The
 * tables other files read are declared hidden here, not only made so by
 * -fvisibility=hidden where defined: -fPIC code reaches an extern object
 * not known to be local through a GOT slot, one more relocation unless the
 * linker turns every access into a lea (it does a mov, not an add).
 */
#define CR_DM_HIDDEN __attribute__((visibility("hidden")))

/*
 * Fixed texts of C++ components (CR_DM_STR, CR_DM_SUBSTD, CR_DM_SPECIAL):
 * indices in the printer's blob of texts (demangle-cxxprint.c).
 */
enum {
	CR_DM_T_NONE,
	CR_DM_T_STD,
	CR_DM_T_ANON,
	CR_DM_T_STRING_LITERAL,
	CR_DM_T_AUTO,
	CR_DM_T_DECLTYPE_AUTO,
	CR_DM_T_ALLOCATOR,
	CR_DM_T_ALLOCATOR_S,
	CR_DM_T_BASIC_STRING,
	CR_DM_T_BASIC_STRING_S,
	CR_DM_T_STRING,
	CR_DM_T_ISTREAM,
	CR_DM_T_ISTREAM_S,
	CR_DM_T_OSTREAM,
	CR_DM_T_OSTREAM_S,
	CR_DM_T_IOSTREAM,
	CR_DM_T_IOSTREAM_S,
	CR_DM_T_VTABLE,
	CR_DM_T_VTT,
	CR_DM_T_TYPEINFO,
	CR_DM_T_TYPEINFO_NAME,
	CR_DM_T_TYPEINFO_FN,
	CR_DM_T_JAVA_CLASS,
	CR_DM_T_TLS_INIT,
	CR_DM_T_TLS_WRAPPER,
	CR_DM_T_TPARM_OBJ,
	CR_DM_T_THUNK,
	CR_DM_T_VTHUNK,
	CR_DM_T_COVTHUNK,
	CR_DM_T_GUARD,
	CR_DM_T_HIDDEN_ALIAS,
	CR_DM_T_TXCLONE,
	CR_DM_T_NONTXCLONE,
	CR_DM_T_COUNT
};

/* Builtin types: 0..25 the letters a..z of <builtin-type>, then these. */
enum {
	CR_DM_B_DF = 26,	/* Df decimal32, Dd, De, Dh, Du, Ds, Di in this order */
	CR_DM_B_NULLPTR = 33,	/* Dn */
	CR_DM_B_BF16,		/* DF16b */
	CR_DM_B_COUNT
};
/* How a literal of the type prints: 42, 42u, true, (double)[...], (char)97. */
enum { CR_DM_PR_DEFAULT, CR_DM_PR_INT, CR_DM_PR_UNSIGNED, CR_DM_PR_LONG, CR_DM_PR_ULONG,
       CR_DM_PR_LLONG, CR_DM_PR_ULLONG, CR_DM_PR_BOOL, CR_DM_PR_FLOAT, CR_DM_PR_VOID };
/*
 * name: "" for a letter that is no builtin type.  Sized for the longest,
 * "unsigned long long", and its NUL: C accepts without a warning a string
 * that fills the array exactly, and drops its NUL.
 */
struct cr_dm_builtin {
	char name[19];
	uint8_t print;
};
extern const struct cr_dm_builtin cr_dm_builtin[CR_DM_B_COUNT] CR_DM_HIDDEN;

/* name: sized for the longest, "reinterpret_cast", and its NUL (as cr_dm_builtin's). */
struct cr_dm_op {
	char code[3];
	char name[17];
	uint8_t args;
};
extern const struct cr_dm_op cr_dm_ops[] CR_DM_HIDDEN;
extern const unsigned cr_dm_nops CR_DM_HIDDEN;

/* A qualifier of a member function's this, which prints after its parameters. */
int cr_dm_is_fnqual(int kind);

/* C++ components (the parser builds them, the printer walks them).  Node 0 is "none". */
enum {
	CR_DM_NONE,
	CR_DM_NAME,		/* a: offset in the name, b: length */
	CR_DM_STR,		/* a: text index (CR_DM_T_*) */
	CR_DM_SUBSTD,		/* a: text index (expansion); b: text index of its simple name */
	CR_DM_QUAL,		/* a::b */
	CR_DM_LOCAL,		/* a (encoding) :: b (entity) */
	CR_DM_TYPED,		/* a: name, b: function type */
	CR_DM_TEMPLATE,		/* a<b> */
	CR_DM_TPARAM,		/* b:c index */
	CR_DM_FPARAM,		/* b:c index (0: this) */
	CR_DM_CTOR,		/* a: class name */
	CR_DM_DTOR,
	CR_DM_SPECIAL,		/* flag: text index of the prefix ("vtable for "), a: what */
	CR_DM_CTORVT,		/* construction vtable: a -in- b */
	CR_DM_REFTEMP,		/* a: name, b: number */
	CR_DM_BUILTIN,		/* a: index in the builtin table */
	CR_DM_FLOATN,		/* _FloatN[x]: b:c bits, flag: 'x' */
	CR_DM_RESTRICT,
	CR_DM_VOLATILE,
	CR_DM_CONST,
	CR_DM_RESTRICT_THIS,	/* the qualifiers of a member function's this */
	CR_DM_VOLATILE_THIS,
	CR_DM_CONST_THIS,
	CR_DM_REF_THIS,
	CR_DM_RREF_THIS,
	CR_DM_TXSAFE,
	CR_DM_NOEXCEPT,		/* b: expression or 0 */
	CR_DM_THROWSPEC,	/* b: type list */
	CR_DM_VENDOR_QUAL,	/* a: type, b: qualifier */
	CR_DM_POINTER,
	CR_DM_LREF,
	CR_DM_RREF,
	CR_DM_COMPLEX,
	CR_DM_IMAGINARY,
	CR_DM_VENDOR_TYPE,	/* a: name */
	CR_DM_FUNCTYPE,		/* a: return type or 0, b: parameter list */
	CR_DM_ARRAY,		/* a: dimension or 0, b: element type */
	CR_DM_PTRMEM,		/* a: class, b: member type */
	CR_DM_VECTOR,		/* a: dimension, b: element type */
	CR_DM_ARGLIST,		/* a: item or 0, b: next or 0 */
	CR_DM_TARGLIST,
	CR_DM_OPERATOR,		/* a: index in the operator table */
	CR_DM_EXTOP,		/* vendor operator: a: name, c: arity */
	CR_DM_CONVERSION,	/* a: type */
	CR_DM_CAST,		/* a: type */
	CR_DM_NULLARY,		/* a: operator */
	CR_DM_UNARY,		/* a: operator, b: operand, flag: postfix */
	CR_DM_BINARY,		/* a: operator, b: left, c: right */
	CR_DM_TRINARY,		/* a: operator, b: first, c: CR_DM_PAIR(second, third) */
	CR_DM_PAIR,
	CR_DM_LITERAL,		/* a: type, b: value (CR_DM_NAME), flag: negative */
	CR_DM_LAMBDA,		/* a: parameter list, b:c number */
	CR_DM_UNNAMED,		/* b:c number */
	CR_DM_CLONE,		/* a: encoding, b: suffix (CR_DM_NAME) */
	CR_DM_TAGGED,		/* a[abi:b] */
	CR_DM_PACKEXP,		/* a: pattern */
	CR_DM_DECLTYPE,		/* a: expression */
	CR_DM_INITLIST,		/* a: type or 0, b: list */
	CR_DM_DEFARG,		/* a: entity, b:c number */
	CR_DM_GLOBAL,		/* flag: 'I' or 'D', a: what */
	CR_DM_BINDING,		/* structured binding: a: name, b: next */
	CR_DM_MODNAME,		/* a (or 0) . b */
	CR_DM_MODPART,		/* a : b */
	CR_DM_MODENT,		/* a @ b */
	CR_DM_NUMBER,		/* b:c value */
	CR_DM_KINDS
};

#endif
