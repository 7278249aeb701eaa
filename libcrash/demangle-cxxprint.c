/* SPDX-License-Identifier: MIT */
/*
 * Itanium C++ names: the printer.  Prints the components the parser
 * (demangle-cxx.c) built the way GNU c++filt (binutils 2.40) prints them,
 * down to its spacing: "int const*", "void (*)(int)", "A<B<int> >",
 * "f<int, , char>" (an empty pack in the middle of a list), "(char)97".
 * This file: names, templates, the component dispatch;
 * demangle-cxxdecl.c: declarators (pointers, functions, arrays);
 * demangle-cxxpexpr.c: expressions and literals.
 *
 * C declarators print inside out: a pointer to a function returning int
 * is "int (*)()", the pointer between the return type and the parameters.
 * So a type constructor (pointer, reference, qualifier, array, function,
 * member pointer, and a function's own name) is not printed when met but
 * pushed on a list of pending modifiers; the type under it prints, and a
 * function or array type prints the pending modifiers at its own place
 * (inside its parentheses); those still pending afterwards print as
 * suffixes.  Template parameters (T_) print as the arguments of the
 * template that encloses them at that point of the printing (a stack of
 * template scopes), so a function's return type sees its own arguments.
 *
 * Like the parser it runs on an explicit stack of frames (ws->fr[]): a
 * procedure (CR_DM_Q_*) returns CR_DM_CALL after pushing a callee,
 * CR_DM_RET when done.  Modifier and scope records live in ws->mod[] and
 * ws->tpl[], allocated and freed in stack order by the frames that push
 * them.
 */
#include "demangle-cxx.h"

#include "str.h"

/*
 * The fixed texts (CR_DM_T_*), in one blob with no pointers (demangle-int.h
 * says why): each text is a member of struct texts named after its index,
 * so the compiler lays the blob out and computes the offsets.  All of them
 * are there, once each: the count below, -Woverride-init.
 */
#define TEXTS(X)                                                                                   \
	X(CR_DM_T_NONE, "")                                                                        \
	X(CR_DM_T_STD, "std")                                                                      \
	X(CR_DM_T_ANON, "(anonymous namespace)")                                                   \
	X(CR_DM_T_STRING_LITERAL, "string literal")                                                \
	X(CR_DM_T_AUTO, "auto")                                                                    \
	X(CR_DM_T_DECLTYPE_AUTO, "decltype(auto)")                                                 \
	X(CR_DM_T_ALLOCATOR, "std::allocator")                                                     \
	X(CR_DM_T_ALLOCATOR_S, "allocator")                                                        \
	X(CR_DM_T_BASIC_STRING, "std::basic_string")                                               \
	X(CR_DM_T_BASIC_STRING_S, "basic_string")                                                  \
	X(CR_DM_T_STRING,                                                                          \
	  "std::basic_string<char, std::char_traits<char>, std::allocator<char> >")                \
	X(CR_DM_T_ISTREAM, "std::basic_istream<char, std::char_traits<char> >")                    \
	X(CR_DM_T_ISTREAM_S, "basic_istream")                                                      \
	X(CR_DM_T_OSTREAM, "std::basic_ostream<char, std::char_traits<char> >")                    \
	X(CR_DM_T_OSTREAM_S, "basic_ostream")                                                      \
	X(CR_DM_T_IOSTREAM, "std::basic_iostream<char, std::char_traits<char> >")                  \
	X(CR_DM_T_IOSTREAM_S, "basic_iostream")                                                    \
	X(CR_DM_T_VTABLE, "vtable for ")                                                           \
	X(CR_DM_T_VTT, "VTT for ")                                                                 \
	X(CR_DM_T_TYPEINFO, "typeinfo for ")                                                       \
	X(CR_DM_T_TYPEINFO_NAME, "typeinfo name for ")                                             \
	X(CR_DM_T_TYPEINFO_FN, "typeinfo fn for ")                                                 \
	X(CR_DM_T_JAVA_CLASS, "java Class for ")                                                   \
	X(CR_DM_T_TLS_INIT, "TLS init function for ")                                              \
	X(CR_DM_T_TLS_WRAPPER, "TLS wrapper function for ")                                        \
	X(CR_DM_T_TPARM_OBJ, "template parameter object for ")                                     \
	X(CR_DM_T_THUNK, "non-virtual thunk to ")                                                  \
	X(CR_DM_T_VTHUNK, "virtual thunk to ")                                                     \
	X(CR_DM_T_COVTHUNK, "covariant return thunk to ")                                          \
	X(CR_DM_T_GUARD, "guard variable for ")                                                    \
	X(CR_DM_T_HIDDEN_ALIAS, "hidden alias for ")                                               \
	X(CR_DM_T_TXCLONE, "transaction clone for ")                                               \
	X(CR_DM_T_NONTXCLONE, "non-transaction clone for ")

static const struct texts {
#define MEMBER(i, s) char i[sizeof(s)];
	TEXTS(MEMBER)
#undef MEMBER
} texts = {
#define INIT(i, s) s,
	TEXTS(INIT)
#undef INIT
};

static const uint16_t text_at[CR_DM_T_COUNT] = {
#define OFFSET(i, s) [i] = offsetof(struct texts, i),
	TEXTS(OFFSET)
#undef OFFSET
};

#define ONE(i, s) +1
_Static_assert(0 TEXTS(ONE) == CR_DM_T_COUNT, "a text for each CR_DM_T_*");
_Static_assert(sizeof(struct texts) <= UINT16_MAX, "offsets fit text_at[]");
#undef ONE
#undef TEXTS

static const char *text(unsigned i)
{
	return (const char *)&texts + text_at[i];
}

const struct cr_dm_builtin cr_dm_builtin[CR_DM_B_COUNT] = {
	{ "signed char", CR_DM_PR_DEFAULT },
	{ "bool", CR_DM_PR_BOOL },
	{ "char", CR_DM_PR_DEFAULT },
	{ "double", CR_DM_PR_FLOAT },
	{ "long double", CR_DM_PR_FLOAT },
	{ "float", CR_DM_PR_FLOAT },
	{ "__float128", CR_DM_PR_FLOAT },
	{ "unsigned char", CR_DM_PR_DEFAULT },
	{ "int", CR_DM_PR_INT },
	{ "unsigned int", CR_DM_PR_UNSIGNED },
	{ "", 0 },
	{ "long", CR_DM_PR_LONG },
	{ "unsigned long", CR_DM_PR_ULONG },
	{ "__int128", CR_DM_PR_DEFAULT },
	{ "unsigned __int128", CR_DM_PR_DEFAULT },
	{ "", 0 },
	{ "", 0 },
	{ "", 0 },
	{ "short", CR_DM_PR_DEFAULT },
	{ "unsigned short", CR_DM_PR_DEFAULT },
	{ "", 0 },
	{ "void", CR_DM_PR_VOID },
	{ "wchar_t", CR_DM_PR_DEFAULT },
	{ "long long", CR_DM_PR_LLONG },
	{ "unsigned long long", CR_DM_PR_ULLONG },
	{ "...", CR_DM_PR_DEFAULT },
	{ "decimal32", CR_DM_PR_DEFAULT },
	{ "decimal64", CR_DM_PR_DEFAULT },
	{ "decimal128", CR_DM_PR_DEFAULT },
	{ "half", CR_DM_PR_FLOAT },
	{ "char8_t", CR_DM_PR_DEFAULT },
	{ "char16_t", CR_DM_PR_DEFAULT },
	{ "char32_t", CR_DM_PR_DEFAULT },
	{ "decltype(nullptr)", CR_DM_PR_DEFAULT },
	{ "std::bfloat16_t", CR_DM_PR_FLOAT },
};

/* A new modifier record on top of the list: its index + 1, 0 when full. */
uint16_t cr_dm_push_mod(struct cr_demangle_ws *w, uint16_t node)
{
	struct cr_dm_mod *m;

	if (w->nmods >= CR_DEMANGLE_MODS)
		return 0;
	m = &w->mod[w->nmods++];
	m->node = node;
	m->next = w->mods;
	m->tpl = w->tpls;
	m->printed = 0;
	w->mods = w->nmods;
	return w->nmods;
}

int cr_dm_push_tpl(struct cr_demangle_ws *w, uint16_t node)
{
	if (w->ntpls + w->ncopies >= CR_DEMANGLE_MODS)
		return -1;
	w->tpl[w->ntpls][0] = node;
	w->tpl[w->ntpls][1] = w->tpls;
	w->tpls = ++w->ntpls;
	return 0;
}

void cr_dm_pop_tpl(struct cr_demangle_ws *w)
{
	w->tpls = w->tpl[w->tpls - 1][1];
	w->ntpls--;
}

/*
 * Saved scopes.  A reference to a template parameter (T&, T&&) is
 * printed, the first time, in the scope of templates current then; the
 * same parameter met again through a substitution (S8_ standing for T_
 * in another function's parameters) is printed in that first scope, as
 * c++filt does.  The scope is copied: records from the end of tpl[].
 */
int cr_dm_find_scope(const struct cr_demangle_ws *w, uint16_t tp)
{
	for (unsigned i = 0; i < w->nscopes; i++)
		if (w->scope[i][0] == tp)
			return (int)i;
	return -1;
}

int cr_dm_save_scope(struct cr_demangle_ws *w, uint16_t tp)
{
	uint16_t *link;

	if (w->nscopes >= CR_DEMANGLE_SCOPES)
		return -1;
	w->scope[w->nscopes][0] = tp;
	link = &w->scope[w->nscopes][1];
	w->nscopes++;
	for (uint16_t t = w->tpls; t; t = w->tpl[t - 1][1]) {
		uint16_t c;

		if (w->ntpls + w->ncopies >= CR_DEMANGLE_MODS)
			return -1;
		c = (uint16_t)(CR_DEMANGLE_MODS - w->ncopies++);
		w->tpl[c - 1][0] = w->tpl[t - 1][0];
		*link = c;
		link = &w->tpl[c - 1][1];
	}
	*link = 0;
	return 0;
}

/* Is a component being printed (below the current frame) the parameter tp or the reference ref? */
int cr_dm_printing_under(const struct cr_demangle_ws *w, uint16_t tp, uint16_t ref)
{
	for (unsigned i = 0; i + 1 < w->sp; i++)
		if (w->fr[i].fn == CR_DM_Q_COMP && (w->fr[i].node == tp || w->fr[i].node == ref))
			return 1;
	return 0;
}

/* The i-th argument of a template argument list (i < 0: the list), 0 if none. */
static uint16_t index_arg(struct cr_demangle_ws *w, uint16_t args, int32_t i)
{
	if (i < 0)
		return args;
	for (unsigned g = 0; args && g < CR_DEMANGLE_NODES; g++) {
		if (kind(w, args) != CR_DM_TARGLIST)
			return 0;
		if (i <= 0)
			return N(w, args)->a;
		i--;
		args = N(w, args)->b;
	}
	return 0;
}

/* What template parameter tp stands for in the current scope; -1 outside any template. */
int cr_dm_lookup(struct cr_demangle_ws *w, uint16_t tp, uint16_t *arg)
{
	if (!w->tpls)
		return -1;
	*arg = index_arg(w, N(w, w->tpl[w->tpls - 1][0])->b, num(w, tp));
	return 0;
}

/* cr_dm_lookup(), then the element of a pack being expanded. */
int cr_dm_lookup_elt(struct cr_demangle_ws *w, uint16_t tp, uint16_t *arg)
{
	if (cr_dm_lookup(w, tp, arg) < 0)
		return -1;
	if (*arg && kind(w, *arg) == CR_DM_TARGLIST)
		*arg = index_arg(w, *arg, w->pack);
	return *arg ? 0 : -1;
}

int cr_dm_pack_length(const struct cr_demangle_ws *w, uint16_t a)
{
	int n = 0;

	for (unsigned g = 0; a && g < CR_DEMANGLE_NODES; g++) {
		if (kind(w, a) != CR_DM_TARGLIST || !w->node[a].a)
			break;
		n++;
		a = w->node[a].b;
	}
	return n;
}

int cr_dm_done(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	/* The end of the innermost name, for the elision (the first time it prints). */
	if (f->node == w->anchor && !o->anchor)
		o->anchor = o->len;
	w->printing[f->node]--;
	return cr_dm_ret(w, 0);
}

/*
 * Print component node.  Phases 1..9 belong to the kinds
 * printed here, 10.. to the helpers (same frame).  A component printed
 * inside itself more than once is a loop (a template argument that
 * names its own template): an error, as in c++filt.
 */
static int q_comp(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	uint16_t dc = f->node, a;
	struct cr_dm_node *x = N(w, dc);

	if (f->phase >= 10 && f->phase < 30)
		return cr_dm_q_typed(w, f, o);
	if (f->phase >= 30 && f->phase < 60)
		return cr_dm_q_expr(w, f, o);
	if (f->phase >= 60 && f->phase < 70)
		return cr_dm_q_literal(w, f, o);
	if (f->phase >= 70)
		return cr_dm_q_modifier(w, f, o);
	if (f->phase == 0) {
		if (!dc || w->printing[dc] > 1)
			return CR_DM_FAIL;
		w->printing[dc]++;
	}
	switch (x->kind) {
	case CR_DM_NAME:
		cr_dm_put(o, w->s + x->a, x->b);
		return cr_dm_done(w, f, o);
	case CR_DM_STR:
	case CR_DM_SUBSTD:
		cr_dm_puts(o, text(x->a));
		return cr_dm_done(w, f, o);
	case CR_DM_BUILTIN:
		cr_dm_puts(o, cr_dm_builtin[x->a].name);
		return cr_dm_done(w, f, o);
	case CR_DM_FLOATN:
		cr_dm_puts(o, "_Float");
		cr_dm_putu(o, (uint64_t)num(w, dc));
		if (x->flag)
			cr_dm_putc(o, 'x');
		return cr_dm_done(w, f, o);
	case CR_DM_TAGGED:
		switch (f->phase) {
		case 0:
			COMP(1, x->a);
		case 1:
			cr_dm_puts(o, "[abi:");
			COMP(2, x->b);
		default:
			cr_dm_putc(o, ']');
			return cr_dm_done(w, f, o);
		}
	case CR_DM_QUAL:
	case CR_DM_LOCAL:
		switch (f->phase) {
		case 0:
			COMP(1, x->a);
		case 1:
			cr_dm_puts(o, "::");
			a = x->b;
			if (x->kind == CR_DM_LOCAL && kind(w, a) == CR_DM_DEFARG) {
				cr_dm_puts(o, "{default arg#");
				cr_dm_putu(o, (uint64_t)num(w, a) + 1);
				cr_dm_puts(o, "}::");
				a = N(w, a)->a;
			}
			COMP(2, a);
		default:
			return cr_dm_done(w, f, o);
		}
	case CR_DM_TEMPLATE:
		/* Modifiers do not reach into a template's arguments. v0, v1: saved state. */
		switch (f->phase) {
		case 0:
			f->v[0] = w->cur_tpl;
			w->cur_tpl = dc;
			f->v[1] = w->mods;
			w->mods = 0;
			COMP(1, x->a);
		case 1:
			if (o->last == '<')
				cr_dm_putc(o, ' ');
			cr_dm_putc(o, '<');
			COMP(2, x->b);
		default:
			/* "> >": no ">>" token */
			if (o->last == '>')
				cr_dm_putc(o, ' ');
			cr_dm_putc(o, '>');
			w->mods = f->v[1];
			w->cur_tpl = f->v[0];
			return cr_dm_done(w, f, o);
		}
	case CR_DM_TPARAM:
		if (f->phase) {
			w->tpls = f->v[0];
			return cr_dm_done(w, f, o);
		}
		if (w->lambda) {
			/* A generic lambda's auto parameter, as GCC writes it. */
			cr_dm_puts(o, "auto:");
			cr_dm_putu(o, (uint64_t)num(w, dc) + 1);
			return cr_dm_done(w, f, o);
		}
		if (cr_dm_lookup_elt(w, dc, &a) < 0)
			return CR_DM_FAIL;
		/* The argument may use an outer template's parameters: print it in the outer scope.
		 */
		f->v[0] = w->tpls;
		w->tpls = w->tpl[w->tpls - 1][1];
		COMP(1, a);
	case CR_DM_CTOR:
	case CR_DM_DTOR:
		if (f->phase)
			return cr_dm_done(w, f, o);
		if (x->kind == CR_DM_DTOR)
			cr_dm_putc(o, '~');
		COMP(1, x->a);
	case CR_DM_SPECIAL:
	case CR_DM_GLOBAL:
	case CR_DM_EXTOP:
	case CR_DM_VENDOR_TYPE:
	case CR_DM_DECLTYPE:
		if (f->phase) {
			if (x->kind == CR_DM_DECLTYPE)
				cr_dm_putc(o, ')');
			return cr_dm_done(w, f, o);
		}
		if (x->kind == CR_DM_SPECIAL)
			cr_dm_puts(o, text(x->flag));
		else if (x->kind == CR_DM_GLOBAL)
			cr_dm_puts(o, x->flag == 'I' ? "global constructors keyed to "
						     : "global destructors keyed to ");
		else if (x->kind == CR_DM_EXTOP)
			cr_dm_puts(o, "operator ");
		else if (x->kind == CR_DM_DECLTYPE)
			cr_dm_puts(o, "decltype (");
		COMP(1, x->a);
	case CR_DM_CTORVT:
	case CR_DM_REFTEMP:
	case CR_DM_CLONE:
	case CR_DM_MODENT:
		/*
		 * two parts: "construction vtable for A-in-B", "reference temporary #N for x", "f()
		 * [clone .cold]", "f@m"
		 */
		switch (f->phase) {
		case 0:
			if (x->kind == CR_DM_CTORVT)
				cr_dm_puts(o, "construction vtable for ");
			if (x->kind == CR_DM_REFTEMP) {
				cr_dm_puts(o, "reference temporary #");
				COMP(1, x->b);
			}
			COMP(1, x->a);
		case 1:
			cr_dm_puts(o, x->kind == CR_DM_CTORVT    ? "-in-"
			              : x->kind == CR_DM_REFTEMP ? " for "
			              : x->kind == CR_DM_CLONE   ? " [clone "
			                                         : "@");
			COMP(2, x->kind == CR_DM_REFTEMP ? x->a : x->b);
		default:
			if (x->kind == CR_DM_CLONE)
				cr_dm_putc(o, ']');
			return cr_dm_done(w, f, o);
		}
	case CR_DM_MODNAME:
	case CR_DM_MODPART:
		switch (f->phase) {
		case 0:
			if (x->a)
				COMP(1, x->a);
			/* fall through */
		case 1:
			if (x->kind == CR_DM_MODPART)
				cr_dm_putc(o, ':');
			else if (x->a)
				cr_dm_putc(o, '.');
			COMP(2, x->b);
		default:
			return cr_dm_done(w, f, o);
		}
	case CR_DM_NUMBER:
		if (num(w, dc) < 0)
			cr_dm_putc(o, '-');
		cr_dm_putu(o, num(w, dc) < 0 ? (uint64_t) - (int64_t)num(w, dc)
		                             : (uint64_t)num(w, dc));
		return cr_dm_done(w, f, o);
	case CR_DM_FPARAM:
		if (!num(w, dc)) {
			cr_dm_puts(o, "this");
		} else {
			cr_dm_puts(o, "{parm#");
			cr_dm_putu(o, (uint64_t)num(w, dc));
			cr_dm_putc(o, '}');
		}
		return cr_dm_done(w, f, o);
	case CR_DM_UNNAMED:
		cr_dm_puts(o, "{unnamed type#");
		cr_dm_putu(o, (uint64_t)num(w, dc) + 1);
		cr_dm_putc(o, '}');
		return cr_dm_done(w, f, o);
	case CR_DM_LAMBDA:
		if (!f->phase) {
			cr_dm_puts(o, "{lambda(");
			w->lambda++;
			COMP(1, x->a);
		}
		w->lambda--;
		cr_dm_puts(o, ")#");
		cr_dm_putu(o, (uint64_t)num(w, dc) + 1);
		cr_dm_putc(o, '}');
		return cr_dm_done(w, f, o);
	case CR_DM_OPERATOR: {
		const char *name = cr_dm_ops[x->a].name;
		size_t n = cr_strlen(name);

		cr_dm_puts(o, "operator");
		/* "operator new", "operator+" */
		if (name[0] >= 'a' && name[0] <= 'z')
			cr_dm_putc(o, ' ');
		if (n && name[n - 1] == ' ')
			n--;
		cr_dm_put(o, name, n);
		return cr_dm_done(w, f, o);
	}
	case CR_DM_CONVERSION:
		/*
		 * The operator's own template arguments are in scope for its
		 * type (cv T_ I...E); if the type is a template, only for its
		 * name, not its arguments (where c++filt then finds no T_).
		 */
		a = x->a;
		switch (f->phase) {
		case 0:
			cr_dm_puts(o, "operator ");
			if (w->cur_tpl) {
				if (cr_dm_push_tpl(w, w->cur_tpl) < 0)
					return CR_DM_FAIL;
				f->v[0] = 1;
			}
			if (kind(w, a) != CR_DM_TEMPLATE)
				COMP(1, a);
			COMP(2, N(w, a)->a);
		case 1:
			if (f->v[0])
				cr_dm_pop_tpl(w);
			return cr_dm_done(w, f, o);
		case 2:
			if (f->v[0])
				cr_dm_pop_tpl(w);
			if (o->last == '<')
				cr_dm_putc(o, ' ');
			cr_dm_putc(o, '<');
			COMP(3, N(w, a)->b);
		default:
			if (o->last == '>')
				cr_dm_putc(o, ' ');
			cr_dm_putc(o, '>');
			return cr_dm_done(w, f, o);
		}
	case CR_DM_ARGLIST:
	case CR_DM_TARGLIST:
		/*
		 * ", " goes only if something follows it (an empty pack prints nothing). v0: owed
		 * before.
		 */
		switch (f->phase) {
		case 0:
			if (x->a)
				COMP(1, x->a);
			/* fall through */
		case 1:
			if (!x->b)
				return cr_dm_done(w, f, o);
			f->v[0] = o->pend;
			o->pend++;
			o->last = ' ';
			COMP(2, x->b);
		default:
			if (o->pend == f->v[0] + 1)
				o->pend--;
			return cr_dm_done(w, f, o);
		}
	case CR_DM_INITLIST:
		switch (f->phase) {
		case 0:
			if (x->a)
				COMP(1, x->a);
			/* fall through */
		case 1:
			cr_dm_putc(o, '{');
			COMP(2, x->b);
		default:
			cr_dm_putc(o, '}');
			return cr_dm_done(w, f, o);
		}
	case CR_DM_BINDING:
		/* [a, b] */
		switch (f->phase) {
		case 0:
			cr_dm_putc(o, '[');
			f->v[0] = dc;
			COMP(1, x->a);
		default:
			f->v[0] = N(w, f->v[0])->b;
			if (!f->v[0]) {
				cr_dm_putc(o, ']');
				return cr_dm_done(w, f, o);
			}
			cr_dm_puts(o, ", ");
			COMP(1, N(w, f->v[0])->a);
		}
	case CR_DM_PACKEXP:
		/* Each element of the pack the pattern uses, with ", " between; none: "pattern...".
		 */
		switch (f->phase) {
		case 0:
			CALL(1, CR_DM_Q_FINDPACK, x->a, 0);
		case 1:
			if (!w->ret)
				CALL(2, CR_DM_Q_SUBEXPR, x->a, 0);
			f->v[1] = (uint16_t)cr_dm_pack_length(w, w->ret);
			f->v[2] = 0;
			goto pack;
		case 2:
			cr_dm_puts(o, "...");
			return cr_dm_done(w, f, o);
		default:
			if (f->v[2] + 1 < f->v[1])
				cr_dm_puts(o, ", ");
			f->v[2]++;
		pack:
			if (f->v[2] >= f->v[1])
				return cr_dm_done(w, f, o);
			w->pack = (int16_t)f->v[2];
			COMP(3, x->a);
		}
	case CR_DM_TYPED:
		return cr_dm_q_typed(w, f, o);
	case CR_DM_NULLARY:
		if (f->phase)
			return cr_dm_done(w, f, o);
		CALL(1, CR_DM_Q_EXPROP, x->a, 0);
	case CR_DM_UNARY:
	case CR_DM_BINARY:
	case CR_DM_TRINARY:
		return cr_dm_q_expr(w, f, o);
	case CR_DM_LITERAL:
		return cr_dm_q_literal(w, f, o);
	case CR_DM_RESTRICT:
	case CR_DM_VOLATILE:
	case CR_DM_CONST:
	case CR_DM_LREF:
	case CR_DM_RREF:
	case CR_DM_POINTER:
	case CR_DM_COMPLEX:
	case CR_DM_IMAGINARY:
	case CR_DM_VENDOR_QUAL:
	case CR_DM_RESTRICT_THIS:
	case CR_DM_VOLATILE_THIS:
	case CR_DM_CONST_THIS:
	case CR_DM_REF_THIS:
	case CR_DM_RREF_THIS:
	case CR_DM_TXSAFE:
	case CR_DM_NOEXCEPT:
	case CR_DM_THROWSPEC:
	case CR_DM_FUNCTYPE:
	case CR_DM_ARRAY:
	case CR_DM_PTRMEM:
	case CR_DM_VECTOR:
		return cr_dm_q_modifier(w, f, o);
	}
	return CR_DM_FAIL;
}

/*
 * An encoding: the name (and the qualifiers of this) become modifiers of
 * the function type, which prints them between its return type and its
 * parameters.  c++filt keeps at most 4 of them.  v0: saved list, v1:
 * first record, v2: records, v3: the name, v4: a template scope pushed.
 */
int cr_dm_q_typed(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	uint16_t dc = f->node, tn, i;
	struct cr_dm_mod *m;

	switch (f->phase) {
	case 0:
		f->v[0] = w->mods;
		w->mods = 0;
		f->v[1] = w->nmods;
		i = 0;
		for (tn = N(w, dc)->a; tn;) {
			if (i >= 4 || !cr_dm_push_mod(w, tn))
				return CR_DM_FAIL;
			i++;
			if (!cr_dm_is_fnqual(kind(w, tn)))
				break;
			tn = N(w, tn)->a;
		}
		if (!tn)
			return CR_DM_FAIL;
		/* A class local to a function: the qualifiers on its right apply here. */
		if (kind(w, tn) == CR_DM_LOCAL) {
			tn = N(w, tn)->b;
			if (kind(w, tn) == CR_DM_DEFARG)
				tn = N(w, tn)->a;
			while (tn && cr_dm_is_fnqual(kind(w, tn))) {
				uint16_t top;

				if (i >= 4 || !cr_dm_push_mod(w, 0))
					return CR_DM_FAIL;
				top = w->mods;
				*M(w, top) = *M(w, top - 1);
				M(w, top)->next = top - 1;
				m = M(w, top - 1);
				m->node = tn;
				m->printed = 0;
				m->tpl = w->tpls;
				i++;
				tn = N(w, tn)->a;
			}
			if (!tn)
				return CR_DM_FAIL;
		}
		f->v[2] = i;
		f->v[3] = tn;
		if (kind(w, tn) == CR_DM_TEMPLATE) {
			if (cr_dm_push_tpl(w, tn) < 0)
				return CR_DM_FAIL;
			f->v[4] = 1;
		}
		CALL(10, CR_DM_Q_COMP, N(w, dc)->b, 0);
	case 10:
		if (f->v[4])
			cr_dm_pop_tpl(w);
		/* fall through */
	default:
		while (f->v[2] > 0) {
			m = &w->mod[f->v[1] + --f->v[2]];
			if (!m->printed) {
				cr_dm_putc(o, ' ');
				CALL(11, CR_DM_Q_MOD, m->node, 0);
			}
		}
		w->mods = f->v[0];
		w->nmods = f->v[1];
		return cr_dm_done(w, f, o);
	}
}

static int dispatch(struct cr_demangle_ws *w, struct cr_dm_frame *f, struct cr_dm_sink *o)
{
	switch (f->fn) {
	case CR_DM_Q_COMP:
		return q_comp(w, f, o);
	case CR_DM_Q_MOD:
		return cr_dm_q_mod(w, f, o);
	case CR_DM_Q_MODLIST:
		return cr_dm_q_modlist(w, f, o);
	case CR_DM_Q_FUNCTYPE:
		return cr_dm_q_functype(w, f, o);
	case CR_DM_Q_ARRAYTYPE:
		return cr_dm_q_arraytype(w, f, o);
	case CR_DM_Q_SUBEXPR:
		return cr_dm_q_subexpr(w, f, o);
	case CR_DM_Q_EXPROP:
		return cr_dm_q_exprop(w, f, o);
	case CR_DM_Q_FINDPACK:
		return cr_dm_q_findpack(w, f, o);
	case CR_DM_Q_ARGSLEN:
		return cr_dm_q_argslen(w, f, o);
	case CR_DM_Q_DESIG:
		return cr_dm_q_desig(w, f, o);
	}
	return CR_DM_FAIL;
}

/*
 * The innermost name: what a function's (or variable's, or a vtable's
 * class's) qualified name ends with, before its template arguments.
 */
static uint16_t innermost_name(const struct cr_demangle_ws *w, uint16_t n)
{
	for (unsigned g = 0; n && g < CR_DEMANGLE_NODES; g++) {
		int k = kind(w, n);

		if (k == CR_DM_CLONE || k == CR_DM_SPECIAL || k == CR_DM_GLOBAL ||
		    k == CR_DM_TYPED || k == CR_DM_TEMPLATE || k == CR_DM_DEFARG ||
		    cr_dm_is_fnqual(k))
			n = w->node[n].a;
		else if (k == CR_DM_QUAL || k == CR_DM_LOCAL)
			n = w->node[n].b;
		else
			break;
	}
	return n;
}

/* Print the parse in ws (root in ws->ret, as cr_dm_cxx_parse left it) into o. */
int cr_dm_cxx_print(struct cr_demangle_ws *w, struct cr_dm_sink *o)
{
	uint16_t root = w->ret;
	struct cr_dm_frame *f;

	for (unsigned i = 0; i < w->nnodes; i++)
		w->printing[i] = 0;
	w->nmods = w->ntpls = w->nscopes = w->ncopies = 0;
	w->mods = w->tpls = w->cur_tpl = 0;
	w->pack = 0;
	w->lambda = 0;
	w->steps = 0;
	w->anchor = innermost_name(w, root);
	w->sp = 1;
	f = &w->fr[0];
	f->fn = CR_DM_Q_COMP;
	f->phase = 0;
	f->node = root;
	for (unsigned i = 0; i < CR_ARRAY_SIZE(f->v); i++)
		f->v[i] = 0;
	while (w->sp) {
		if (++w->steps > CR_DEMANGLE_STEPS || o->err)
			return -CR_EINVAL;
		if (dispatch(w, &w->fr[w->sp - 1], o) == CR_DM_FAIL)
			return -CR_EINVAL;
	}
	w->ret = root;
	return o->err ? -CR_EINVAL : 0;
}
