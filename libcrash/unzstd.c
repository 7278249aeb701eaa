/* SPDX-License-Identifier: MIT */
/*
 * Zstandard decoding (RFC 8878), written from the RFC; XXH64 from its
 * specification (xxhash.com "xxh64 algorithm").
 *
 * Truncation: the backward bit reader yields zero bits past the start of its
 * stream and counts them, and a stream must end consumed exactly (4.1, 4.2.1:
 * the decoder checks "all bits were consumed"); every forward read checks its
 * length first.  A block that fails is an error, whatever it wrote.
 */
#include <string.h>

#include "unzstd.h"

#define BLOCK_MAX (128u << 10)	/* 3.1.1.2.3 Block_Maximum_Size: at most 128 KiB */
#define HUF_MAXBITS 11		/* 4.2.1 Max_Number_of_Bits */

static inline unsigned highbit(uint32_t v)
{
	return 31u - (unsigned)__builtin_clz(v);
}

static inline uint32_t le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t le_n(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * 4.1: a backward bitstream.  Its last byte's highest set bit marks its end;
 * reading starts below it and goes towards the first byte, each field's
 * most significant bit first.
 */
struct bwd {
	const uint8_t *s;
	size_t ip;		/* bytes s[0, ip) not loaded yet */
	uint64_t buf;		/* the next cnt bits, the first to read in bit cnt - 1 */
	unsigned cnt;		/* <= 63 */
	unsigned over;		/* zero bits read past the stream's start */
};

static int bwd_init(struct bwd *b, const uint8_t *s, size_t len)
{
	if (len == 0 || s[len - 1] == 0)
		return -CR_EINVAL;	/* no end mark */
	b->s = s;
	b->ip = len - 1;
	b->buf = s[len - 1];
	b->cnt = highbit(s[len - 1]);
	b->over = 0;
	return 0;
}

/* At least 56 bits in buf, or all that is left (little-endian targets only). */
static inline void bwd_refill(struct bwd *b)
{
	if (b->ip >= 8) {
		unsigned k = (63 - b->cnt) >> 3;
		uint64_t v;

		if (k) {
			memcpy(&v, b->s + b->ip - 8, 8);
			b->buf = b->buf << 8 * k | v >> (64 - 8 * k);
			b->ip -= k;
			b->cnt += 8 * k;
		}
		return;
	}
	while (b->cnt <= 55 && b->ip > 0) {
		b->buf = b->buf << 8 | b->s[--b->ip];
		b->cnt += 8;
	}
}

/* n (<= 32) bits; zeros past the start, counted in over. */
static inline uint32_t bwd_read(struct bwd *b, unsigned n)
{
	uint64_t mask = (1ull << n) - 1;

	if (b->cnt < n) {
		bwd_refill(b);
		if (b->cnt < n) {
			uint64_t v = (b->buf << (n - b->cnt)) & mask;

			b->over += n - b->cnt;
			b->cnt = 0;
			return (uint32_t)v;
		}
	}
	b->cnt -= n;
	return (uint32_t)((b->buf >> b->cnt) & mask);
}

/* Every bit read, none past the start. */
static inline int bwd_done(const struct bwd *b)
{
	return b->ip == 0 && b->cnt == 0 && b->over == 0;
}

/* Forward bits (4.1.1: a distribution is read least significant bit first). */
static uint32_t fwd_read(const uint8_t *p, size_t len, size_t *bp, unsigned n, int *err)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < n; i++, (*bp)++) {
		if (*bp / 8 >= len) {
			*err = 1;
			return 0;
		}
		v |= (uint32_t)(p[*bp / 8] >> (*bp % 8) & 1) << i;
	}
	return v;
}

/*
 * 4.1.1 FSE Table Description: Accuracy_Log, then each symbol's probability
 * + 1 in as many bits as the points still to share need (the small values one
 * bit less), a probability 0 followed by 2-bit repeat flags of more zeros.
 * The points must add up to 1 << Accuracy_Log exactly.  *used: whole bytes.
 */
static int read_norm(const uint8_t *p, size_t len, unsigned maxlog, unsigned maxsym,
		     struct cr_unzstd_seqcode *d, size_t *used)
{
	size_t bp = 4;
	unsigned al, sym = 0, nbits;
	int remaining, threshold, err = 0;

	if (len < 1 || (al = (p[0] & 15) + 5) > maxlog)
		return -CR_EINVAL;
	remaining = (1 << al) + 1;
	threshold = 1 << al;
	nbits = al + 1;
	while (remaining > 1) {
		int max = 2 * threshold - 1 - remaining, count;
		uint32_t v;

		if (sym > maxsym)
			return -CR_EINVAL;
		v = fwd_read(p, len, &bp, nbits - 1, &err);
		if ((int)v >= max) {
			v |= fwd_read(p, len, &bp, 1, &err) << (nbits - 1);
			if ((int)v >= threshold)
				v -= (uint32_t)max;
		}
		count = (int)v - 1;
		d->norm[sym++] = (int16_t)count;
		remaining -= count < 0 ? -count : count;
		if (remaining < 1 || err)
			return -CR_EINVAL;
		if (count == 0) {
			uint32_t r;

			do {
				r = fwd_read(p, len, &bp, 2, &err);
				if (err || sym + r > maxsym + 1)
					return -CR_EINVAL;
				for (uint32_t i = 0; i < r; i++)
					d->norm[sym++] = 0;
			} while (r == 3);
		}
		while (remaining < threshold) {
			nbits--;
			threshold >>= 1;
		}
	}
	d->log = (uint8_t)al;
	d->nsym = (uint8_t)sym;
	*used = (bp + 7) / 8;
	return 0;
}

/*
 * 4.1.1 FSE Decoding Table: "less than 1" symbols at the top, the others
 * spread with the step (size >> 1) + (size >> 3) + 3, then each state's
 * Number_of_Bits and Baseline from the symbol's next state count.
 */
static int fse_build(struct cr_fse *t, const int16_t *norm, unsigned nsym, unsigned al)
{
	unsigned size = 1u << al, high = size - 1, pos = 0, mask = size - 1;
	unsigned step = (size >> 1) + (size >> 3) + 3;
	uint16_t next[53];

	for (unsigned s = 0; s < nsym; s++) {
		if (norm[s] == -1) {
			t[high--].sym = (uint8_t)s;
			next[s] = 1;
		} else {
			next[s] = (uint16_t)norm[s];
		}
	}
	for (unsigned s = 0; s < nsym; s++) {
		for (int i = 0; i < norm[s]; i++) {
			t[pos].sym = (uint8_t)s;
			do
				pos = (pos + step) & mask;
			while (pos > high);
		}
	}
	if (pos != 0)
		return -CR_EINVAL;
	for (unsigned i = 0; i < size; i++) {
		unsigned x = next[t[i].sym]++, nb = al - highbit(x);

		t[i].nbits = (uint8_t)nb;
		t[i].base = (uint16_t)((x << nb) - size);
	}
	return 0;
}

/* 3.1.1.3.2.2: the predefined distributions (Accuracy_Log 6, 5, 6). */
static const int16_t ll_pred[36] = { 4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2,  2,  2,  1,  1,  1,  2,  2,
				     2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1 };
static const int16_t of_pred[29] = { 1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1,
				     1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1 };
static const int16_t ml_pred[53] = { 1, 4, 3, 2, 2, 2, 2, 2, 2, 1,  1,  1,  1,  1,  1,  1,  1, 1,
				     1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  1,  1,  1,  1,  1,  1,  1,  1, 1,
				     1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1 };

/* Per code k (literal length, offset, match length): the largest symbol and Accuracy_Log. */
static const uint8_t seq_maxsym[3] = { 35, 31, 52 };
static const uint8_t seq_maxlog[3] = { 9, 8, 9 };

static struct cr_fse *seq_table(struct cr_unzstd *st, unsigned k)
{
	return k == 0 ? st->ll : k == 1 ? st->of : st->ml;
}

static const uint8_t pred_log[3] = { 6, 5, 6 };

/* The Accuracy_Log of code k's table as d describes it. */
static unsigned seq_log(const struct cr_unzstd_seqcode *d, unsigned k)
{
	return d->mode == 1 ? pred_log[k] : d->mode == 3 ? d->log : 0;
}

/* Build st's table k from its description d (which set it: 0 or -CR_EINVAL). */
static int seq_build(struct cr_unzstd *st, unsigned k, const struct cr_unzstd_seqcode *d)
{
	static const int16_t *const pred[3] = { ll_pred, of_pred, ml_pred };
	static const uint8_t pred_n[3] = { 36, 29, 53 };
	struct cr_fse *t = seq_table(st, k);
	int ret = 0;

	if (d->mode == 1) {
		ret = fse_build(t, pred[k], pred_n[k], pred_log[k]);
	} else if (d->mode == 2) {
		t[0] = (struct cr_fse){ 0, d->rle, 0 };
	} else if (d->mode == 3) {
		ret = fse_build(t, d->norm, d->nsym, d->log);
	} else {
		return -CR_EINVAL;	/* Repeat_Mode with no previous table in this frame */
	}
	if (ret == 0)
		st->have |= 1u << k;
	return ret;
}

/* 3.1.1.3.2.1: code k's Compression_Mode and its description at p.  *used: its bytes. */
static int seq_mode(struct cr_unzstd *st, struct cr_unzstd_keep *kp, unsigned k, unsigned mode,
		    const uint8_t *p, size_t len, size_t *used)
{
	struct cr_unzstd_seqcode *d = &kp->seq[k];
	int ret;

	*used = 0;
	switch (mode) {
	case 0:		/* Predefined_Mode */
		d->mode = 1;
		break;
	case 1:		/* RLE_Mode: one byte, the symbol */
		if (len < 1 || p[0] > seq_maxsym[k])
			return -CR_EINVAL;
		d->mode = 2;
		d->rle = p[0];
		*used = 1;
		break;
	case 2:		/* FSE_Compressed_Mode */
		d->mode = 0;
		if ((ret = read_norm(p, len, seq_maxlog[k], seq_maxsym[k], d, used)) < 0)
			return ret;
		d->mode = 3;
		break;
	default:	/* Repeat_Mode: the table the previous sequences used */
		if (d->mode != 0 && st->have & 1u << k)
			return 0;
		break;
	}
	return seq_build(st, k, d);
}

/*
 * 4.2.1: the Huffman table from the weights in kp.  Symbols of weight w have
 * codes of Max_Number_of_Bits + 1 - w bits; the lowest weights take the lowest
 * codes, and within a weight the lower symbols, so each symbol's code is a
 * run of 2^(w - 1) consecutive entries of the table of the next
 * Max_Number_of_Bits bits.
 */
static unsigned huf_bits(const struct cr_unzstd_keep *kp)
{
	uint32_t total = 0;

	for (unsigned s = 0; s < kp->hnum; s++)
		if (kp->hw[s])
			total += 1u << (kp->hw[s] - 1);
	return highbit(total);	/* a power of 2 (huf_desc made it so) */
}

static void huf_build(struct cr_unzstd *st, const struct cr_unzstd_keep *kp)
{
	unsigned maxbits = huf_bits(kp), pos = 0;

	for (unsigned w = 1; w <= maxbits; w++) {
		uint16_t e = (uint16_t)((maxbits + 1 - w) << 8);

		for (unsigned s = 0; s < kp->hnum; s++) {
			if (kp->hw[s] != w)
				continue;
			for (unsigned i = 0; i < 1u << (w - 1); i++)
				st->huf[pos++] = e | (uint16_t)s;
		}
	}
	st->have |= 1u << 8;
}

/*
 * 4.2.1.2: FSE-compressed weights, two states taking turns on one table,
 * until the bitstream is overread: then the other state's symbol is the last.
 */
static int huf_fse_weights(struct cr_unzstd *st, struct cr_unzstd_keep *kp, const uint8_t *p,
			   size_t len, unsigned *n)
{
	struct cr_unzstd_seqcode d;
	const struct cr_fse *t = st->hw;
	struct bwd b;
	size_t used;
	unsigned s1, s2, k = 0;
	int ret;

	if ((ret = read_norm(p, len, 6, 12, &d, &used)) < 0 ||
	    (ret = fse_build(st->hw, d.norm, d.nsym, d.log)) < 0 ||
	    (ret = bwd_init(&b, p + used, len - used)) < 0)
		return ret;
	s1 = bwd_read(&b, d.log);
	s2 = bwd_read(&b, d.log);
	if (b.over)
		return -CR_EINVAL;
	/* k is even here: at most 255 weights come out (the 256th symbol's is implied). */
	for (;;) {
		if (k > 253)
			return -CR_EINVAL;
		kp->hw[k++] = t[s1].sym;
		s1 = t[s1].base + bwd_read(&b, t[s1].nbits);
		if (b.over) {
			kp->hw[k++] = t[s2].sym;
			break;
		}
		kp->hw[k++] = t[s2].sym;
		s2 = t[s2].base + bwd_read(&b, t[s2].nbits);
		if (b.over) {
			kp->hw[k++] = t[s1].sym;
			break;
		}
	}
	*n = k;
	return 0;
}

/*
 * 4.2.1.1: Huffman_Tree_Description.  A header byte below 128 is the size of
 * FSE-compressed weights, else 127 + the number of 4-bit weights.  The last
 * symbol's weight is implied: what brings the sum of 2^(w - 1) to the next
 * power of 2, which must be a power of 2 itself.
 */
static int huf_desc(struct cr_unzstd *st, struct cr_unzstd_keep *kp, const uint8_t *p, size_t len,
		    size_t *used)
{
	unsigned n, h;
	uint32_t total = 0, rest;
	int ret;

	kp->hnum = 0;
	if (len < 1)
		return -CR_EINVAL;
	h = p[0];
	if (h >= 128) {
		n = h - 127;
		if (len < 1 + (n + 1) / 2)
			return -CR_EINVAL;
		for (unsigned i = 0; i < n; i++)
			kp->hw[i] = i & 1 ? p[1 + i / 2] & 15 : p[1 + i / 2] >> 4;
		*used = 1 + (n + 1) / 2;
	} else {
		if (len < 1 + h)
			return -CR_EINVAL;
		if ((ret = huf_fse_weights(st, kp, p + 1, h, &n)) < 0)
			return ret;
		*used = 1 + h;
	}
	for (unsigned i = 0; i < n; i++) {
		if (kp->hw[i] > HUF_MAXBITS)
			return -CR_EINVAL;
		if (kp->hw[i])
			total += 1u << (kp->hw[i] - 1);
	}
	if (total == 0 || highbit(total) + 1 > HUF_MAXBITS)
		return -CR_EINVAL;
	rest = (1u << (highbit(total) + 1)) - total;
	if (rest & (rest - 1))
		return -CR_EINVAL;
	kp->hw[n++] = (uint8_t)(highbit(rest) + 1);
	kp->hnum = (uint16_t)n;
	huf_build(st, kp);
	return 0;
}

/* 4.2.2: the symbol at the head of stream b (maxbits <= b->cnt). */
static inline uint8_t huf_sym(struct bwd *b, const uint16_t *t, unsigned maxbits)
{
	unsigned e = t[(b->buf >> (b->cnt - maxbits)) & ((1u << maxbits) - 1)];

	b->cnt -= e >> 8;
	return (uint8_t)e;
}

/* Four symbols of b into o, after a refill (56 >= 4 * 11 bits); b has 8 bytes to give. */
static inline void huf_four(struct bwd *b, const uint16_t *t, unsigned maxbits, uint8_t *o)
{
	bwd_refill(b);
	o[0] = huf_sym(b, t, maxbits);
	o[1] = huf_sym(b, t, maxbits);
	o[2] = huf_sym(b, t, maxbits);
	o[3] = huf_sym(b, t, maxbits);
}

/*
 * 4.2.2: the symbols [i, cnt) of a Huffman-coded stream into o, four at a
 * time while it has 8 bytes to give, then one at a time with the zero bits
 * past its start; it must end consumed exactly.
 */
static int huf_rest(struct bwd *b, const uint16_t *t, unsigned maxbits, uint8_t *o, size_t i,
		    size_t cnt)
{
	unsigned mask = (1u << maxbits) - 1, e;

	for (; cnt - i >= 4 && b->ip >= 8; i += 4)
		huf_four(b, t, maxbits, o + i);
	for (; i < cnt; i++) {
		if (b->cnt < maxbits)
			bwd_refill(b);
		if (b->cnt >= maxbits)
			e = t[(b->buf >> (b->cnt - maxbits)) & mask];
		else
			e = t[(b->buf << (maxbits - b->cnt)) & mask];
		if ((e >> 8) > b->cnt) {
			b->over += (e >> 8) - b->cnt;
			b->cnt = 0;
		} else {
			b->cnt -= e >> 8;
		}
		o[i] = (uint8_t)e;
	}
	return bwd_done(b) ? 0 : -CR_EINVAL;
}

/*
 * 3.1.1.3.1.6: 1 or 4 streams (a jump table of three sizes, the fourth the
 * rest).  The four streams are decoded in turns while each has 8 bytes to
 * give (independent work for the CPU), then each to its end.
 */
static int huf_literals(const struct cr_unzstd *st, const struct cr_unzstd_keep *kp,
			const uint8_t *p, size_t len, unsigned four, uint8_t *o, size_t regen)
{
	unsigned maxbits = huf_bits(kp);
	size_t seg = (regen + 3) / 4, sz[4], off = 6, i = 0;
	struct bwd b[4];
	int ret;

	if (!four) {
		if ((ret = bwd_init(&b[0], p, len)) < 0)
			return ret;
		return huf_rest(&b[0], st->huf, maxbits, o, 0, regen);
	}
	if (len < 6 || 3 * seg > regen)
		return -CR_EINVAL;
	sz[0] = p[0] | (size_t)p[1] << 8;
	sz[1] = p[2] | (size_t)p[3] << 8;
	sz[2] = p[4] | (size_t)p[5] << 8;
	if (sz[0] + sz[1] + sz[2] > len - 6)
		return -CR_EINVAL;
	sz[3] = len - 6 - sz[0] - sz[1] - sz[2];
	for (unsigned k = 0; k < 4; k++) {
		if ((ret = bwd_init(&b[k], p + off, sz[k])) < 0)
			return ret;
		off += sz[k];
	}
	/* The fourth stream has the fewest symbols: regen - 3 * seg. */
	for (; regen - 3 * seg - i >= 4 && b[0].ip >= 8 && b[1].ip >= 8 && b[2].ip >= 8 &&
	       b[3].ip >= 8;
	     i += 4)
		for (unsigned k = 0; k < 4; k++)
			huf_four(&b[k], st->huf, maxbits, o + k * seg + i);
	for (unsigned k = 0; k < 4; k++)
		if ((ret = huf_rest(&b[k], st->huf, maxbits, o + k * seg, i,
				    k < 3 ? seg : regen - 3 * seg)) < 0)
			return ret;
	return 0;
}

/* Where a block's literals are: in the input, or at the end of the output. */
struct lits {
	const uint8_t *p;
	size_t n;		/* how many */
	int tail;		/* at out[size - n, size): copies may overlap */
};

/*
 * 3.1.1.3.1: Literals_Section_Header and its content.  Regenerated literals
 * go to the end of the output buffer (see unzstd.h).  *used: the section's bytes.
 */
static int literals(struct cr_unzstd *st, struct cr_unzstd_lazy *z, const uint8_t *p, size_t len,
		    struct lits *l, size_t *used)
{
	static const uint8_t hsz[4] = { 3, 3, 4, 5 }, fbits[4] = { 10, 10, 14, 18 };
	unsigned type, sf, h;
	size_t regen, csize, tsize = 0;
	uint8_t *o;
	int ret;

	if (len < 1)
		return -CR_EINVAL;
	type = p[0] & 3;
	sf = p[0] >> 2 & 3;
	if (type < 2) {
		/* Raw_Literals_Block, RLE_Literals_Block: 5, 12 or 20 bits of size. */
		h = (sf & 1) == 0 ? 1 : sf == 1 ? 2 : 3;
		if (len < h)
			return -CR_EINVAL;
		regen = h == 1 ? p[0] >> 3 : (size_t)(le_n(p, h) >> 4);
		if (regen > BLOCK_MAX)
			return -CR_EINVAL;
		if (type == 0) {
			if (len - h < regen)
				return -CR_EINVAL;
			if (regen > z->size - z->n)
				return -CR_ERANGE;
			*l = (struct lits){ p + h, regen, 0 };
			*used = h + regen;
			return 0;
		}
		if (len - h < 1)
			return -CR_EINVAL;
		if (regen > z->size - z->n)
			return -CR_ERANGE;
		o = z->out + z->size - regen;
		memset(o, p[h], regen);
		*l = (struct lits){ o, regen, 1 };
		*used = h + 1;
		return 0;
	}
	/* Compressed_Literals_Block, Treeless_Literals_Block. */
	h = hsz[sf];
	if (len < h)
		return -CR_EINVAL;
	regen = (size_t)(le_n(p, h) >> 4) & ((1u << fbits[sf]) - 1);
	csize = (size_t)(le_n(p, h) >> (4 + fbits[sf])) & ((1u << fbits[sf]) - 1);
	if (len - h < csize || regen > BLOCK_MAX)
		return -CR_EINVAL;
	if (regen > z->size - z->n)
		return -CR_ERANGE;
	if (type == 2) {
		if ((ret = huf_desc(st, &z->keep, p + h, csize, &tsize)) < 0)
			return ret;
	} else {
		if (z->keep.hnum == 0)
			return -CR_EINVAL;	/* no previous tree in this frame */
		if (!(st->have & 1u << 8))
			huf_build(st, &z->keep);
	}
	o = z->out + z->size - regen;
	if ((ret = huf_literals(st, &z->keep, p + h + tsize, csize - tsize, sf != 0, o, regen)) < 0)
		return ret;
	*l = (struct lits){ o, regen, 1 };
	*used = h + csize;
	return 0;
}

/* 3.1.1.3.2.1.1: codes' baselines and extra bits. */
static const uint32_t ll_base[36] = { 0,  1,  2,   3,   4,   5,   6,    7,    8,    9,     10,    11,
				      12, 13, 14,  15,  16,  18,  20,   22,   24,   28,    32,    40,
				      48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536 };
static const uint8_t ll_bits[36] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,  0,  0,  0,  0,  1,  1,
				     1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static const uint32_t ml_base[53] = {
	3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14,	 15,  16,  17,  18,   19,   20,
	21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,	 33,  34,  35,  37,   39,   41,
	43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539
};
static const uint8_t ml_bits[53] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	 0,  0,	 0,  0,
				     0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	 1,  1,	 1,  1,
				     2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

/* Copy n literals from l to out[*np]; a tail copy runs forward (it never starts behind out). */
static void copy_lits(uint8_t *out, size_t *np, struct lits *l, size_t size, size_t n)
{
	uint8_t *d = out + *np;

	if (!l->tail || *np + n <= size - l->n)
		memcpy(d, l->p, n);
	else
		for (size_t i = 0; i < n; i++)
			d[i] = l->p[i];
	l->p += n;
	l->n -= n;
	*np += n;
}

/* A match: ml bytes from off back (checked), 8 at a time where they do not overlap. */
static void copy_match(uint8_t *out, size_t n, size_t off, size_t ml)
{
	uint8_t *d = out + n;
	const uint8_t *s = d - off;
	size_t i = 0;

	if (off >= ml) {
		memcpy(d, s, ml);
		return;
	}
	if (off >= 8)
		for (; i + 8 <= ml; i += 8)
			memcpy(d + i, s + i, 8);
	for (; i < ml; i++)
		d[i] = s[i];
}

/* 3.1.1.5: the offset an Offset_Value means, and the repeat offsets after it. */
static uint32_t offset(uint32_t *rep, uint32_t ofv, uint32_t ll)
{
	uint32_t off, idx;

	if (ofv > 3) {
		rep[2] = rep[1];
		rep[1] = rep[0];
		return rep[0] = ofv - 3;
	}
	idx = ofv - 1 + (ll == 0);
	if (idx == 0)
		return rep[0];
	off = idx == 3 ? rep[0] - 1 : rep[idx];
	if (idx != 1)
		rep[2] = rep[1];
	rep[1] = rep[0];
	return rep[0] = off;
}

/* 3.1.1.3.2.1.2 and 3.1.1.4: decode and execute nseq sequences from the bitstream at p. */
static int execute(struct cr_unzstd *st, struct cr_unzstd_lazy *z, const uint8_t *p, size_t len,
		   unsigned nseq, struct lits *l)
{
	const struct cr_fse *tl = st->ll, *to = st->of, *tm = st->ml;
	const struct cr_unzstd_seqcode *d = z->keep.seq;
	uint32_t *rep = z->keep.rep;
	size_t n = z->n, size = z->size;
	unsigned sl, so, sm;
	struct bwd b;
	int ret;

	if ((ret = bwd_init(&b, p, len)) < 0)
		return ret;
	/* Initial states: literal length, offset, match length. */
	sl = bwd_read(&b, seq_log(&d[0], 0));
	so = bwd_read(&b, seq_log(&d[1], 1));
	sm = bwd_read(&b, seq_log(&d[2], 2));
	for (unsigned i = 0; i < nseq; i++) {
		unsigned oc = to[so].sym, mc = tm[sm].sym, lc = tl[sl].sym;
		uint32_t ofv, ml, ll, off;

		/* Extra bits: offset, match length, literal length (3.1.1.3.2.1.2).
		   The codes are within seq_maxsym: seq_mode and read_norm saw to it. */
		ofv = (1u << oc) + bwd_read(&b, oc);
		ml = ml_base[mc] + bwd_read(&b, ml_bits[mc]);
		ll = ll_base[lc] + bwd_read(&b, ll_bits[lc]);
		/* States: literal length, match length, offset; none after the last. */
		if (i + 1 < nseq) {
			sl = tl[sl].base + bwd_read(&b, tl[sl].nbits);
			sm = tm[sm].base + bwd_read(&b, tm[sm].nbits);
			so = to[so].base + bwd_read(&b, to[so].nbits);
		}
		if (b.over || ll > l->n)
			return -CR_EINVAL;
		/* The match must fit before the literals still to be copied. */
		if (ml + l->n > size - n)
			return -CR_ERANGE;
		/* Fast paths (twins: copy_lits, copy_match): 16-byte copies that may
		   write past the end of what they copy, where that is neither past
		   the output nor on the literals still to be copied. */
		if (ll <= 16 && l->n >= 16 &&
		    (l->tail ? size - l->n - n >= 16 : size - n >= 16)) {
			memcpy(z->out + n, l->p, 16);
			l->p += ll;
			l->n -= ll;
			n += ll;
		} else {
			copy_lits(z->out, &n, l, size, ll);
		}
		off = offset(rep, ofv, ll);
		if (off == 0 || off > n - z->fstart)
			return -CR_EINVAL;
		if (off >= 16 && (l->tail ? size - l->n : size) - n >= ml + 16) {
			for (size_t k = 0; k < ml; k += 16)
				memcpy(z->out + n + k, z->out + n + k - off, 16);
		} else {
			copy_match(z->out, n, off, ml);
		}
		n += ml;
	}
	if (!bwd_done(&b))
		return -CR_EINVAL;
	copy_lits(z->out, &n, l, size, l->n);
	z->n = n;
	return 0;
}

/* 3.1.1.3.2: Sequences_Section_Header, the tables, the bitstream (the rest of the block). */
static int sequences(struct cr_unzstd *st, struct cr_unzstd_lazy *z, const uint8_t *p, size_t len,
		     struct lits *l)
{
	unsigned nseq, modes, h;
	size_t used;
	int ret;

	if (len < 1)
		return -CR_EINVAL;
	if (p[0] == 0) {
		if (len != 1)
			return -CR_EINVAL;
		if (l->n > z->size - z->n)
			return -CR_ERANGE;
		copy_lits(z->out, &z->n, l, z->size, l->n);
		return 0;
	}
	if (p[0] < 128) {
		nseq = p[0];
		h = 1;
	} else if (p[0] < 255) {
		if (len < 2)
			return -CR_EINVAL;
		nseq = (p[0] - 128u) << 8 | p[1];
		h = 2;
	} else {
		if (len < 3)
			return -CR_EINVAL;
		nseq = p[1] + ((unsigned)p[2] << 8) + 0x7f00;
		h = 3;
	}
	if (len < h + 1 || (p[h] & 3))
		return -CR_EINVAL;	/* Reserved bits must be 0 */
	modes = p[h++];
	/* Descriptions: literal length, offset, match length. */
	for (unsigned k = 0; k < 3; k++) {
		if ((ret = seq_mode(st, &z->keep, k, modes >> (6 - 2 * k) & 3, p + h, len - h,
				    &used)) < 0)
			return ret;
		h += (unsigned)used;
	}
	return execute(st, z, p + h, len - h, nseq, l);
}

/* 3.1.1.3: a compressed block's content, [p, p + len). */
static int compressed(struct cr_unzstd *st, struct cr_unzstd_lazy *z, const uint8_t *p, size_t len)
{
	struct lits l;
	size_t used, n0 = z->n;
	int ret;

	if ((ret = literals(st, z, p, len, &l, &used)) < 0 ||
	    (ret = sequences(st, z, p + used, len - used, &l)) < 0)
		return ret;
	return z->n - n0 > BLOCK_MAX ? -CR_EINVAL : 0;
}

/* xxhash.com's XXH64 specification: four lanes of 8-byte stripes, then the rest. */
#define P1 11400714785074694791ull
#define P2 14029467366897019727ull
#define P3 1609587929392839161ull
#define P4 9650029242287828579ull
#define P5 2870177450012600261ull

static inline uint64_t rotl(uint64_t v, unsigned r)
{
	return v << r | v >> (64 - r);
}

static inline uint64_t xround(uint64_t acc, uint64_t lane)
{
	return rotl(acc + lane * P2, 31) * P1;
}

static inline uint64_t le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);	/* little-endian targets only */
	return v;
}

uint64_t cr_xxh64(const void *data, size_t n)
{
	const uint8_t *p = data, *end = p + n;
	uint64_t acc;

	if (n >= 32) {
		uint64_t v[4] = { P1 + P2, P2, 0, -P1 };

		for (; end - p >= 32; p += 32)
			for (unsigned i = 0; i < 4; i++)
				v[i] = xround(v[i], le64(p + 8 * i));
		acc = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18);
		for (unsigned i = 0; i < 4; i++)
			acc = (acc ^ xround(0, v[i])) * P1 + P4;
	} else {
		acc = P5;
	}
	acc += n;
	for (; end - p >= 8; p += 8)
		acc = rotl(acc ^ xround(0, le64(p)), 27) * P1 + P4;
	if (end - p >= 4) {
		acc = rotl(acc ^ le32(p) * P1, 23) * P2 + P3;
		p += 4;
	}
	for (; p < end; p++)
		acc = rotl(acc ^ *p * P5, 11) * P1;
	acc ^= acc >> 33;
	acc *= P2;
	acc ^= acc >> 29;
	acc *= P3;
	return acc ^ acc >> 32;
}

/* 3.1.1.3.2.1.1 / 3.1.1.5: a frame starts with no tables and offsets 1, 4, 8. */
static void keep_reset(struct cr_unzstd_keep *kp)
{
	kp->rep[0] = 1;
	kp->rep[1] = 4;
	kp->rep[2] = 8;
	kp->hnum = 0;
	for (unsigned k = 0; k < 3; k++)
		kp->seq[k].mode = 0;
}

/*
 * 3.1.1.1: a frame header (the magic, Frame_Header_Descriptor, Window_Descriptor,
 * Dictionary_ID, Frame_Content_Size), or 3.1.2 a skippable frame, skipped whole.
 */
static int frame_header(struct cr_unzstd_lazy *z)
{
	static const uint8_t did_size[4] = { 0, 1, 2, 4 };
	const uint8_t *p = z->in + z->pos;
	size_t left = z->len - z->pos;
	unsigned fhd, fcs_size, hs;
	uint32_t magic;

	if (left < 4)
		return -CR_EINVAL;
	magic = le32(p);
	if ((magic & 0xfffffff0u) == 0x184d2a50u) {
		if (left < 8 || le32(p + 4) > left - 8)
			return -CR_EINVAL;
		z->pos += 8 + (size_t)le32(p + 4);
		return 0;
	}
	if (magic != 0xfd2fb528u || left < 5)
		return -CR_EINVAL;
	fhd = p[4];
	if (fhd & 8)
		return -CR_EINVAL;	/* Reserved_Bit */
	fcs_size = fhd >> 6 ? 1u << (fhd >> 6) : fhd >> 5 & 1;
	/* Single_Segment_Flag: no Window_Descriptor. */
	hs = 5 + !(fhd & 32) + did_size[fhd & 3] + fcs_size;
	if (left < hs)
		return -CR_EINVAL;
	p += 5 + !(fhd & 32);
	if (le_n(p, did_size[fhd & 3]) != 0)
		return -CR_ENOSYS;	/* a dictionary */
	p += did_size[fhd & 3];
	z->fcs = UINT64_MAX;
	if (fcs_size) {
		z->fcs = le_n(p, fcs_size) + (fcs_size == 2 ? 256 : 0);
		if (z->fcs > z->size - z->n)
			return -CR_ERANGE;
	}
	z->check = fhd >> 2 & 1;
	z->pos += hs;
	z->fstart = z->n;
	z->inframe = 1;
	z->frames = 1;
	keep_reset(&z->keep);
	return 0;
}

/* 3.1.1.1.4: the frame's end: its content size and Content_Checksum. */
static int frame_end(struct cr_unzstd_lazy *z)
{
	size_t len = z->n - z->fstart;

	z->inframe = 0;
	if (z->fcs != UINT64_MAX && z->fcs != len)
		return -CR_EINVAL;
	if (!z->check)
		return 0;
	if (z->len - z->pos < 4 ||
	    le32(z->in + z->pos) != (uint32_t)cr_xxh64(z->out + z->fstart, len))
		return -CR_EINVAL;
	z->pos += 4;
	return 0;
}

/* 3.1.1.2: one block. */
static int block(struct cr_unzstd *st, struct cr_unzstd_lazy *z)
{
	const uint8_t *p = z->in + z->pos;
	size_t left = z->len - z->pos, bs;
	unsigned type, last;
	uint32_t h;
	int ret;

	if (left < 3)
		return -CR_EINVAL;
	h = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
	last = h & 1;
	type = h >> 1 & 3;
	bs = h >> 3;
	p += 3;
	left -= 3;
	if (type == 3 || bs > BLOCK_MAX || left < (type == 1 ? 1 : bs))
		return -CR_EINVAL;
	if (type == 0) {
		if (bs > z->size - z->n)
			return -CR_ERANGE;
		memcpy(z->out + z->n, p, bs);
		z->n += bs;
		z->pos += 3 + bs;
	} else if (type == 1) {
		if (bs > z->size - z->n)
			return -CR_ERANGE;
		memset(z->out + z->n, p[0], bs);
		z->n += bs;
		z->pos += 4;
	} else {
		if ((ret = compressed(st, z, p, bs)) < 0)
			return ret;
		z->pos += 3 + bs;
	}
	return last ? frame_end(z) : 0;
}

/* One step: a frame header, or a block.  1: the input's end, after at least one frame. */
static int step(struct cr_unzstd *st, struct cr_unzstd_lazy *z)
{
	if (z->inframe)
		return block(st, z);
	if (z->pos == z->len)
		return z->frames ? 1 : -CR_EINVAL;
	return frame_header(z);
}

int cr_unzstd_lazy_init(struct cr_unzstd_lazy *z, const void *in, size_t inlen, void *out,
			size_t size)
{
	int ret = 0;

	z->in = in;
	z->pos = 0;
	z->len = inlen;
	z->out = out;
	z->size = size;
	z->n = 0;
	z->inframe = z->frames = 0;
	/* Up to the first frame's first block: the header is checked now. */
	while (ret == 0 && !z->inframe)
		ret = z->pos == z->len ? -CR_EINVAL : frame_header(z);
	z->state = ret;
	return ret;
}

int cr_unzstd_lazy_more(struct cr_unzstd *st, struct cr_unzstd_lazy *z, size_t want)
{
	int ret;

	/* Another stream may have used st's tables since: built again from z->keep if needed. */
	st->have = 0;
	/* Past a frame's last block, on to the next frame's first block or the input's end:
	   the end is checked as soon as the last block is decoded. */
	while (z->state == 0 && (z->n < want || !z->inframe)) {
		ret = step(st, z);
		if (ret < 0)
			z->state = ret;
		else if (ret == 1)
			z->state = z->n == z->size ? 1 : -CR_EINVAL;
	}
	return z->state < 0 ? z->state : 0;
}

int cr_unzstd(struct cr_unzstd *st, const void *in, size_t inlen, void *out, size_t cap,
	      size_t *outlen)
{
	struct cr_unzstd_lazy *z = &st->whole;
	int ret;

	if ((ret = cr_unzstd_lazy_init(z, in, inlen, out, cap)) < 0)
		return ret;
	st->have = 0;
	while ((ret = step(st, z)) == 0)
		;
	if (ret < 0)
		return ret;
	*outlen = z->n;
	return 0;
}
