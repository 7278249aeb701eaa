/* SPDX-License-Identifier: MIT */
/*
 * Shared by the C++ demangler's files (demangle-cxx*.c): the procedures of
 * the parser (CR_DM_P_*) and of the printer (CR_DM_Q_*), which dispatch
 * to each other across files, and the small helpers they all use.
 */
#ifndef CR_DEMANGLE_CXX_H
#define CR_DEMANGLE_CXX_H

#include "demangle-int.h"

enum {
	CR_DM_P_MANGLED = 1,
	CR_DM_P_ENCODING,
	CR_DM_P_SPECIAL,
	CR_DM_P_NAME,
	CR_DM_P_NESTED,
	CR_DM_P_PREFIX,
	CR_DM_P_LOCAL,
	CR_DM_P_UNQUAL,
	CR_DM_P_OPNAME,
	CR_DM_P_TYPE,
	CR_DM_P_CVQ,
	CR_DM_P_FUNCTYPE,
	CR_DM_P_BAREFN,
	CR_DM_P_PARMLIST,
	CR_DM_P_TARGS,
	CR_DM_P_TARG,
	CR_DM_P_EXPR,
	CR_DM_P_EXPR1,
	CR_DM_P_EXPRLIST,
	CR_DM_P_PRIMARY,
};

enum {
	CR_DM_Q_COMP = 1,
	CR_DM_Q_MOD,
	CR_DM_Q_MODLIST,
	CR_DM_Q_FUNCTYPE,
	CR_DM_Q_ARRAYTYPE,
	CR_DM_Q_SUBEXPR,
	CR_DM_Q_EXPROP,
	CR_DM_Q_FINDPACK,
	CR_DM_Q_ARGSLEN,
	CR_DM_Q_DESIG,
};

/* A parser frame that catches its callees' failure (its fn | CR_DM_CATCH). */
#define CR_DM_CATCH 0x80

/* Parser: return a component, 0 for a failure. */
#define RET(n) return cr_dm_pret(w, n)
/* Printer: print a component, then resume at phase ph. */
#define COMP(ph, node) CALL(ph, CR_DM_Q_COMP, node, 0)

static inline int cr_dm_pret(struct cr_demangle_ws *w, uint16_t n)
{
	w->sp--;
	w->ret = n;
	return n ? CR_DM_RET : CR_DM_FAIL;
}

/* ------------------------------------------------ reading the mangled name */

static inline int is_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

static inline int is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

/* ------------------------------------------------------------- components */

static inline struct cr_dm_node *N(struct cr_demangle_ws *w, uint16_t n)
{
	return &w->node[n];
}

static inline int kind(const struct cr_demangle_ws *w, uint16_t n)
{
	return w->node[n].kind;
}

/* A component's 32-bit number (b:c). */
static inline int32_t num(const struct cr_demangle_ws *w, uint16_t n)
{
	return (int32_t)((uint32_t)w->node[n].b << 16 | w->node[n].c);
}

/* A new component, 0 when CR_DEMANGLE_NODES are in use (a bound: fatal). */
static inline uint16_t mk(struct cr_demangle_ws *w, int k, uint16_t a, uint16_t b, uint16_t c)
{
	struct cr_dm_node *n;

	if (w->nnodes >= CR_DEMANGLE_NODES) {
		w->fatal = 1;
		return 0;
	}
	n = &w->node[w->nnodes];
	n->kind = (uint8_t)k;
	n->flag = 0;
	n->a = a;
	n->b = b;
	n->c = c;
	return w->nnodes++;
}

/* A component whose children must all be there (a missing one is a failed sub-parse). */
static inline uint16_t mk2(struct cr_demangle_ws *w, int k, uint16_t a, uint16_t b)
{
	return a && b ? mk(w, k, a, b, 0) : 0;
}

static inline uint16_t mk1(struct cr_demangle_ws *w, int k, uint16_t a)
{
	return a ? mk(w, k, a, 0, 0) : 0;
}

static inline uint16_t mknum(struct cr_demangle_ws *w, int k, uint16_t a, int32_t v)
{
	return mk(w, k, a, (uint16_t)((uint32_t)v >> 16), (uint16_t)v);
}

/* A substitution candidate (ABI 5.1.10); -1 if n failed or CR_DEMANGLE_SUBS are in use. */
static inline int add_sub(struct cr_demangle_ws *w, uint16_t n)
{
	if (!n)
		return -1;
	if (w->nsubs >= CR_DEMANGLE_SUBS) {
		w->fatal = 1;
		return -1;
	}
	w->sub[w->nsubs++] = n;
	return 0;
}

/* The operator's code if n is an operator, else "". */
static inline const char *op_code(const struct cr_demangle_ws *w, uint16_t n)
{
	return kind(w, n) == CR_DM_OPERATOR ? cr_dm_ops[w->node[n].a].code : "";
}

static inline int is_code(const struct cr_demangle_ws *w, uint16_t n, const char *code)
{
	const char *c = op_code(w, n);

	return c[0] == code[0] && c[1] == code[1] && c[0];
}

/* r V K, and Dx Do DO Dw: the qualifiers <CV-qualifiers> takes. */
static inline int next_is_qual(const struct cr_demangle_ws *w)
{
	char c = peek(w), c2 = peek2(w);

	return c == 'r' || c == 'V' || c == 'K' ||
	       (c == 'D' && (c2 == 'x' || c2 == 'o' || c2 == 'O' || c2 == 'w'));
}

/* ------------------------------------------------------------- the parser */

int32_t cr_dm_number(struct cr_demangle_ws *w);
int32_t cr_dm_compact_number(struct cr_demangle_ws *w);
uint16_t cr_dm_source_name(struct cr_demangle_ws *w);
int cr_dm_discriminator(struct cr_demangle_ws *w);
uint16_t cr_dm_template_param(struct cr_demangle_ws *w);
uint16_t cr_dm_abi_tags(struct cr_demangle_ws *w, uint16_t n);
uint16_t cr_dm_substitution(struct cr_demangle_ws *w);
uint16_t cr_dm_innermost(const struct cr_demangle_ws *w, uint16_t n);
int cr_dm_has_return_type(const struct cr_demangle_ws *w, uint16_t n);
int cr_dm_find_op(char c1, char c2);

int cr_dm_p_mangled(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_encoding(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_special(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_name(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_nested(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_prefix(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_local(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_unqual(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_opname(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_cvq(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_type(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_functype(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_barefn(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_parmlist(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_targs(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_targ(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_expr(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_expr1(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_exprlist(struct cr_demangle_ws *w, struct cr_dm_frame *f);
int cr_dm_p_primary(struct cr_demangle_ws *w, struct cr_dm_frame *f);

/* ------------------------------------------------------------ the printer */

static inline struct cr_dm_mod *M(struct cr_demangle_ws *w, uint16_t m)
{
	return &w->mod[m - 1];
}

static inline int is_cv(int k)
{
	return k == CR_DM_RESTRICT || k == CR_DM_VOLATILE || k == CR_DM_CONST;
}

uint16_t cr_dm_push_mod(struct cr_demangle_ws *w, uint16_t node);
int cr_dm_push_tpl(struct cr_demangle_ws *w, uint16_t node);
void cr_dm_pop_tpl(struct cr_demangle_ws *w);
int cr_dm_find_scope(const struct cr_demangle_ws *w, uint16_t tp);
int cr_dm_save_scope(struct cr_demangle_ws *w, uint16_t tp);
int cr_dm_printing_under(const struct cr_demangle_ws *w, uint16_t tp, uint16_t ref);
int cr_dm_lookup(struct cr_demangle_ws *w, uint16_t tp, uint16_t *arg);
int cr_dm_lookup_elt(struct cr_demangle_ws *w, uint16_t tp, uint16_t *arg);
int cr_dm_pack_length(const struct cr_demangle_ws *w, uint16_t a);
int cr_dm_done(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o);

/* Printers: those that run in CR_DM_Q_COMP's frame (phases 10.., 30.., 60.., 70..), then the others. */
int cr_dm_q_typed(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o);
int cr_dm_q_expr(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o);
int cr_dm_q_literal(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o);
int cr_dm_q_modifier(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o);
int cr_dm_q_mod(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o);
int cr_dm_q_modlist(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o);
int cr_dm_q_functype(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o);
int cr_dm_q_arraytype(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o);
int cr_dm_q_subexpr(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o);
int cr_dm_q_exprop(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o);
int cr_dm_q_findpack(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o);
int cr_dm_q_argslen(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o);
int cr_dm_q_desig(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o);

#endif
