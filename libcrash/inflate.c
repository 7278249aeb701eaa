/* SPDX-License-Identifier: MIT */
/*
 * DEFLATE decoding (RFC 1951) and the zlib wrapper (RFC 1950), written from
 * the RFCs.  The whole output buffer is the history window, so a distance is
 * checked against the bytes written so far and nothing is kept between calls.
 *
 * Truncation: the bit reader appends zero bytes past the end of the input and
 * counts them, so a symbol never needs a length check of its own; a decoder
 * step that consumed any of them fails with -CR_EINVAL before it writes.
 */
#include <stdint.h>
#include <string.h>

#include "inflate.h"

#define FAST_MASK ((1u << CR_HUFF_FAST) - 1)

/* RFC 1951 3.1.1: data elements are packed starting with the least significant bit of a byte. */
/* The input's bit reader (inflate.h: struct cr_inflate_bits). */
#define bits cr_inflate_bits

/*
 * At least 57 bits in buf: enough for the longest step, a length code with its
 * extra bits and a distance code with its extra bits (15 + 5 + 15 + 13 = 48).
 * Eight bytes at a time where the input has them (little-endian targets only).
 */
static inline void refill(struct bits *b)
{
	if (b->len - b->pos >= 8) {
		uint64_t v;

		memcpy(&v, b->in + b->pos, 8);
		b->buf |= v << b->cnt;
		b->pos += (63 - b->cnt) >> 3;
		b->cnt |= 56;	/* cnt + 8 * ((63 - cnt) >> 3) for cnt <= 56 */
		return;
	}
	while (b->cnt <= 56) {
		uint64_t byte = 0;

		if (b->pos < b->len)
			byte = b->in[b->pos++];
		else
			b->pad++;
		b->buf |= byte << b->cnt;
		b->cnt += 8;
	}
}

/* Did the decoder consume bits of the zero bytes past the input's end? */
static inline int overrun(const struct bits *b)
{
	return b->cnt < 8 * b->pad;
}

/* n (<= 32) bits, first bit least significant (3.1.1); refill() must have run. */
static inline unsigned getbits(struct bits *b, unsigned n)
{
	unsigned v = (unsigned)(b->buf & ((1ull << n) - 1));

	b->buf >>= n;
	b->cnt -= n;
	return v;
}

/*
 * Build a Huffman code from its code lengths (3.2.2: canonical codes; the
 * codes of one length are consecutive and follow those of the shorter
 * lengths).  A code must be complete: over-subscribed is malformed, and so is
 * incomplete except for the forms 3.2.7 allows, a single code of one bit and
 * no code at all (the caller rejects what may not be empty).
 */
static int build(struct cr_huff *h, const uint8_t *lens, unsigned n)
{
	uint16_t offs[16];
	unsigned len, s, k, code, total = 0;
	int left = 1;

	memset(h->count, 0, sizeof(h->count));
	for (s = 0; s < n; s++)
		h->count[lens[s]]++;
	h->count[0] = 0;
	for (len = 1; len < 16; len++) {
		left = 2 * left - h->count[len];	/* codes of this length still free */
		if (left < 0)
			return -CR_EINVAL;
		total += h->count[len];
	}
	if (left > 0 && total > 0 && !(total == 1 && h->count[1] == 1))
		return -CR_EINVAL;
	offs[1] = 0;
	for (len = 1; len < 15; len++)
		offs[len + 1] = offs[len] + h->count[len];
	for (s = 0; s < n; s++)
		if (lens[s])
			h->sym[offs[lens[s]]++] = (uint16_t)s;
	/* The table: every CR_HUFF_FAST-bit pattern that starts with a short
	   code.  Codes arrive most significant bit first (3.1.1), so a code's
	   pattern is its bits reversed, and the bits after it are free. */
	memset(h->fast, 0, sizeof(h->fast));
	for (len = 1, k = 0, code = 0; len <= CR_HUFF_FAST; len++, code <<= 1) {
		for (unsigned i = 0; i < h->count[len]; i++, k++, code++) {
			unsigned rev = 0;

			for (unsigned j = 0; j < len; j++)
				rev |= ((code >> j) & 1) << (len - 1 - j);
			for (unsigned p = rev; p <= FAST_MASK; p += 1u << len)
				h->fast[p] = (uint16_t)(len << 9 | h->sym[k]);
		}
	}
	return 0;
}

/*
 * A code longer than CR_HUFF_FAST bits (or none): walk the lengths.  At each
 * length, code holds the bits read so far; it is one of this length's codes
 * if it is within count of the first of them.  -1: no code matches (the
 * unused part of an incomplete code).
 */
static int decode_slow(struct bits *b, const struct cr_huff *h)
{
	unsigned len, code = 0, first = 0, index = 0;

	for (len = 1; len < 16; len++) {
		code |= (unsigned)(b->buf >> (len - 1)) & 1;
		if (code - first < h->count[len]) {
			getbits(b, len);
			return h->sym[index + code - first];
		}
		index += h->count[len];
		first = (first + h->count[len]) << 1;
		code <<= 1;
	}
	return -1;
}

/* The next symbol of code h; refill() must have run.  -1: none. */
static inline int decode(struct bits *b, const struct cr_huff *h)
{
	unsigned e = h->fast[b->buf & FAST_MASK];

	if (e) {
		getbits(b, e >> 9);
		return e & 511;
	}
	return decode_slow(b, h);
}

/* 3.2.6: the fixed codes; built once per call, at the first fixed block. */
static int fixed_codes(struct cr_inflate *st)
{
	int ret;

	if (st->fixed)
		return 0;
	memset(st->lens, 8, 144);
	memset(st->lens + 144, 9, 256 - 144);
	memset(st->lens + 256, 7, 280 - 256);
	memset(st->lens + 280, 8, 288 - 280);
	if ((ret = build(&st->lit, st->lens, 288)) < 0)
		return ret;
	/* Distance codes 0-31 are 5-bit codes; 30 and 31 never occur in data. */
	memset(st->lens, 5, 32);
	if ((ret = build(&st->dist, st->lens, 32)) < 0)
		return ret;
	st->fixed = 1;
	return 0;
}

/* 3.2.7: the order in which the code length code's lengths are sent. */
static const uint8_t cl_order[19] = { 16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
				      11, 4,  12, 3, 13, 2, 14, 1, 15 };

/*
 * 3.2.7: a dynamic block's header.  The code length code goes in st->dist
 * until the lengths it describes are read.  The literal/length and distance
 * lengths form one sequence: a repeat may cross from one to the other.
 */
static int dynamic_codes(struct cr_inflate *st, struct bits *b)
{
	unsigned hlit, hdist, hclen, n, i, rep, v;
	uint8_t cl[19];
	int ret, sym;

	st->fixed = 0;
	refill(b);
	hlit = getbits(b, 5) + 257;
	hdist = getbits(b, 5) + 1;
	hclen = getbits(b, 4) + 4;
	if (hlit > 286)
		return -CR_EINVAL;	/* HLIT: 257-286; HDIST 1-32 */
	memset(cl, 0, sizeof(cl));
	for (i = 0; i < hclen; i++) {
		refill(b);
		cl[cl_order[i]] = (uint8_t)getbits(b, 3);
	}
	if (overrun(b))
		return -CR_EINVAL;
	if ((ret = build(&st->dist, cl, 19)) < 0)
		return ret;
	for (n = 0; n < hlit + hdist;) {
		refill(b);
		if ((sym = decode(b, &st->dist)) < 0 || overrun(b))
			return -CR_EINVAL;
		if (sym < 16) {
			st->lens[n++] = (uint8_t)sym;
			continue;
		}
		if (sym == 16) {
			if (n == 0)
				return -CR_EINVAL;	/* nothing to repeat */
			v = st->lens[n - 1];
			rep = 3 + getbits(b, 2);
		} else if (sym == 17) {
			v = 0;
			rep = 3 + getbits(b, 3);
		} else {
			v = 0;
			rep = 11 + getbits(b, 7);
		}
		if (overrun(b) || rep > hlit + hdist - n)
			return -CR_EINVAL;
		memset(st->lens + n, (int)v, rep);
		n += rep;
	}
	if (st->lens[256] == 0)
		return -CR_EINVAL;	/* no end-of-block: the block could never end */
	if ((ret = build(&st->lit, st->lens, hlit)) < 0)
		return ret;
	return build(&st->dist, st->lens + hlit, hdist);
}

/* 3.2.5: lengths 3-258 (symbols 257-285) and distances 1-32768 (codes 0-29). */
static const uint16_t len_base[29] = { 3,  4,  5,  6,  7,  8,  9,  10,  11,  13,
				       15, 17, 19, 23, 27, 31, 35, 43,  51,  59,
				       67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const uint8_t len_extra[29] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
				       2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
static const uint16_t dist_base[30] = { 1,    2,    3,    4,    5,    7,     9,     13,
					17,   25,   33,   49,   65,   97,    129,   193,
					257,  385,  513,  769,  1025, 1537,  2049,  3073,
					4097, 6145, 8193, 12289, 16385, 24577 };
static const uint8_t dist_extra[30] = { 0, 0, 0, 0, 1, 1, 2, 2,	  3,  3,  4,  4,  5,  5,  6,
					6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };

/* 3.2.5: a Huffman block's symbols, up to end-of-block, appended at out[*np]. */
/*
 * A match's copy (3.2.5): len bytes from dist back; room: bytes writable at d
 * (>= len).  Eight bytes at a time where the source ends at or before the
 * destination's start (dist >= 8: each eight it reads were written before),
 * the last eight past len when the room allows (what they write past len is
 * written again by what follows, or is past the output's end and never read);
 * a run of one byte as a fill; else byte by byte (an overlapping copy repeats
 * the last dist bytes, 3.2.3).
 */
static inline void copy_match(uint8_t *d, unsigned dist, unsigned len, size_t room)
{
	const uint8_t *s = d - dist;

	if (dist >= 8) {
		if (room - len >= 8) {
			for (unsigned i = 0; i < len; i += 8)
				memcpy(d + i, s + i, 8);
			return;
		}
		for (; len >= 8; len -= 8, d += 8, s += 8)
			memcpy(d, s, 8);
	} else if (dist == 1) {
		memset(d, *s, len);
		return;
	}
	while (len--)
		*d++ = *s++;
}

/*
 * 3.2.5: a coded block's data with st's codes, up to its end-of-block (0) or
 * until *np >= want (1: stopped between two symbols; *bp is where to go on).
 */
static int inflate_codes(struct cr_inflate *st, struct bits *bp, uint8_t *out, size_t cap,
			 size_t *np, size_t want)
{
	/* The bit reader in a local: the compiler keeps it in registers (out's
	   bytes may alias anything, a pointer's fields would be stored and loaded
	   again at every write). */
	struct bits b = *bp;
	size_t n = *np;
	unsigned len, dist, e;
	int sym, d, ret = 0;

	for (;;) {
		if (n >= want) {
			ret = 1;
			break;
		}
		if (b.cnt < 48)
			refill(&b);	/* 48 bits: the longest step (refill()'s comment) */
		e = st->lit.fast[b.buf & FAST_MASK];
		if (e) {
			getbits(&b, e >> 9);
			sym = (int)(e & 511);
		} else {
			struct bits t = b;

			sym = decode_slow(&t, &st->lit);
			b = t;
		}
		if (sym < 0 || overrun(&b)) {
			ret = -CR_EINVAL;
			break;
		}
		if (sym < 256) {
			if (n == cap) {
				ret = -CR_ERANGE;
				break;
			}
			out[n++] = (uint8_t)sym;
			continue;
		}
		if (sym == 256)
			break;
		if ((sym -= 257) >= 29) {
			ret = -CR_EINVAL;	/* 286, 287: in the fixed code, never in data */
			break;
		}
		len = len_base[sym] + getbits(&b, len_extra[sym]);
		e = st->dist.fast[b.buf & FAST_MASK];
		if (e) {
			getbits(&b, e >> 9);
			d = (int)(e & 511);
		} else {
			struct bits t = b;

			d = decode_slow(&t, &st->dist);
			b = t;
		}
		if (d < 0 || d >= 30) {
			ret = -CR_EINVAL;
			break;
		}
		dist = dist_base[d] + getbits(&b, dist_extra[d]);
		if (overrun(&b) || dist > n) {
			ret = -CR_EINVAL;	/* truncated, or before the start of the output */
			break;
		}
		if (len > cap - n) {
			ret = -CR_ERANGE;
			break;
		}
		copy_match(out + n, dist, len, cap - n);
		n += len;
	}
	*bp = b;
	*np = n;
	return ret;
}

/*
 * 3.2.4: a stored block.  Skip to the byte boundary, give back the whole bytes
 * still in the bit buffer, and copy straight from the input.
 */
static int stored(struct bits *b, uint8_t *out, size_t cap, size_t *np)
{
	size_t held, len, nlen;

	getbits(b, b->cnt & 7);
	held = b->cnt / 8;
	if (held < b->pad)
		return -CR_EINVAL;
	b->pos -= held - b->pad;
	b->buf = 0;
	b->cnt = b->pad = 0;
	if (b->len - b->pos < 4)
		return -CR_EINVAL;
	len = b->in[b->pos] | (size_t)b->in[b->pos + 1] << 8;
	nlen = b->in[b->pos + 2] | (size_t)b->in[b->pos + 3] << 8;
	b->pos += 4;
	if (len != (~nlen & 0xffff) || len > b->len - b->pos)
		return -CR_EINVAL;
	if (len > cap - *np)
		return -CR_ERANGE;
	memcpy(out + *np, b->in + b->pos, len);
	b->pos += len;
	*np += len;
	return 0;
}

/*
 * 3.2.3: a block's header, then a stored block's bytes, or a coded block's
 * codes into st (its data is inflate_codes'). *final: BFINAL; *type: BTYPE.
 */
static int block_start(struct cr_inflate *st, struct bits *b, uint8_t *out, size_t cap,
		       size_t *np, unsigned *final, unsigned *type)
{
	refill(b);
	*final = getbits(b, 1);
	*type = getbits(b, 2);
	if (overrun(b))
		return -CR_EINVAL;
	if (*type == 0)
		return stored(b, out, cap, np);
	if (*type == 1)
		return fixed_codes(st);
	if (*type == 2)
		return dynamic_codes(st, b);
	return -CR_EINVAL;	/* 11: reserved */
}

/* One whole block. */
static int one_block(struct cr_inflate *st, struct bits *b, uint8_t *out, size_t cap, size_t *np,
		     unsigned *final)
{
	unsigned type;
	int ret;

	if ((ret = block_start(st, b, out, cap, np, final, &type)) < 0)
		return ret;
	if (type != 0 && (ret = inflate_codes(st, b, out, cap, np, SIZE_MAX)) < 0)
		return ret;
	return 0;
}

/* 3.2.3: blocks up to the one with BFINAL set.  *np: bytes written. */
static int inflate_blocks(struct cr_inflate *st, struct bits *b, uint8_t *out, size_t cap,
			  size_t *np)
{
	unsigned final;
	int ret;

	st->fixed = 0;
	st->owner = NULL;	/* no lazy stream's codes once this one has built its own */
	*np = 0;
	do {
		if ((ret = one_block(st, b, out, cap, np, &final)) < 0)
			return ret;
	} while (!final);
	return 0;
}

static void bits_init(struct bits *b, const void *in, size_t inlen)
{
	b->in = in;
	b->pos = 0;
	b->len = inlen;
	b->buf = 0;
	b->cnt = b->pad = 0;
}

int cr_inflate_raw(struct cr_inflate *st, const void *in, size_t inlen, void *out, size_t cap,
		   size_t *outlen)
{
	struct bits b;
	size_t n;
	int ret;

	bits_init(&b, in, inlen);
	if ((ret = inflate_blocks(st, &b, out, cap, &n)) < 0)
		return ret;
	*outlen = n;
	return 0;
}

/*
 * RFC 1950 2.2 (ADLER32) and 9: two sums modulo 65521.  5552 bytes is the most
 * that can be added before b overflows 32 bits: 255 n (n + 1) / 2 +
 * (n + 1)(65521 - 1) <= 2^32 - 1.
 */
static uint32_t adler32(const uint8_t *p, size_t n)
{
	uint32_t a = 1, b = 0;

	while (n) {
		size_t k = n < 5552 ? n : 5552;

		n -= k;
		while (k--) {
			a += *p++;
			b += a;
		}
		a %= 65521;
		b %= 65521;
	}
	return b << 16 | a;
}

/*
 * RFC 1950 2.2: CM 8 (deflate) with CINFO <= 7 (a window of at most 32 KiB);
 * FCHECK makes CMF * 256 + FLG a multiple of 31; a preset dictionary (FDICT)
 * is one we do not have.
 */
static int zlib_header(const uint8_t *p, size_t inlen)
{
	if (inlen < 2 || (p[0] & 0x0f) != 8 || p[0] >> 4 > 7 || (p[0] << 8 | p[1]) % 31 != 0 ||
	    (p[1] & 0x20))
		return -CR_EINVAL;
	return 0;
}

/* The Adler-32 after the last block: on the next byte boundary, most significant byte first. */
static int zlib_trailer(struct bits *b, const uint8_t *out, size_t n)
{
	uint32_t sum;

	getbits(b, b->cnt & 7);
	refill(b);
	sum = getbits(b, 8) << 24;
	sum |= getbits(b, 8) << 16;
	sum |= getbits(b, 8) << 8;
	sum |= getbits(b, 8);
	if (overrun(b) || sum != adler32(out, n))
		return -CR_EINVAL;
	return 0;
}

int cr_inflate_zlib(struct cr_inflate *st, const void *in, size_t inlen, void *out, size_t cap,
		    size_t *outlen)
{
	const uint8_t *p = in;
	struct bits b;
	size_t n;
	int ret;

	if ((ret = zlib_header(p, inlen)) < 0)
		return ret;
	bits_init(&b, p + 2, inlen - 2);
	if ((ret = inflate_blocks(st, &b, out, cap, &n)) < 0 || (ret = zlib_trailer(&b, out, n)) < 0)
		return ret;
	*outlen = n;
	return 0;
}

int cr_inflate_lazy_init(struct cr_inflate_lazy *z, const void *in, size_t inlen, void *out,
			 size_t size)
{
	const uint8_t *p = in;
	int ret;

	if ((ret = zlib_header(p, inlen)) < 0)
		return ret;
	bits_init(&z->b, p + 2, inlen - 2);
	z->out = out;
	z->size = size;
	z->n = 0;
	z->state = 0;
	z->inblock = z->last = 0;
	return 0;
}

int cr_inflate_lazy_more(struct cr_inflate *st, struct cr_inflate_lazy *z, size_t want)
{
	/* Up to what is asked, not past it: the readers' windows (cursor.c,
	   a page or two from the read) are what goes ahead.  4 KiB more at
	   each stop (as here until 2026-11-27) decoded 20 KiB more of libc6-dbg
	   per crash, ~100 us of the report of demo/crashme, and saved no stop:
	   seven stops, one of them rebuilding a block's codes, either way.
	   The output's last byte asked for: on to the stream's end, which
	   checks the length and the Adler-32. */
	size_t stop = want < z->size ? want : SIZE_MAX;
	unsigned final, type;
	int ret = 0;

	while (z->state == 0 && z->n < stop) {
		if (!z->inblock) {
			z->hdr = z->b;
			if ((ret = block_start(st, &z->b, z->out, z->size, &z->n, &final, &type)) < 0)
				break;
			z->last = (uint8_t)final;
			z->inblock = type != 0;
			st->owner = z;
		} else if (st->owner != z) {
			/* Another stream has used st since: this block's codes
			   again, from its header (it was read once without error;
			   what it gives now is checked all the same). */
			struct bits h = z->hdr;
			size_t n0 = z->n;

			if ((ret = block_start(st, &h, z->out, z->size, &n0, &final, &type)) < 0)
				break;
			if (type == 0 || final != z->last) {
				ret = -CR_EINVAL;
				break;
			}
			st->owner = z;
		}
		if (z->inblock) {
			if ((ret = inflate_codes(st, &z->b, z->out, z->size, &z->n, stop)) < 0)
				break;
			if (ret == 1)
				continue;	/* stopped at want, inside the block */
			z->inblock = 0;
		}
		if (z->last) {
			ret = zlib_trailer(&z->b, z->out, z->n);
			z->state = ret < 0 ? ret : z->n != z->size ? -CR_EINVAL : 1;
			ret = 0;
		}
	}
	if (ret < 0)
		z->state = ret;
	return z->state < 0 ? z->state : 0;
}

int cr_chdr_parse(const void *sec, size_t len, struct cr_chdr *ch)
{
	const uint8_t *p = sec;

	/* Elf64_Chdr: ch_type (4), ch_reserved (4), ch_size (8), ch_addralign (8). */
	if (len < 24)
		return -CR_EINVAL;
	memcpy(&ch->type, p, 4);
	memcpy(&ch->size, p + 8, 8);
	memcpy(&ch->align, p + 16, 8);
	ch->data = 24;
	return 0;
}

int cr_inflate_section(struct cr_inflate *st, const void *sec, size_t len, void *out, size_t cap,
		       size_t *outlen)
{
	struct cr_chdr ch;
	size_t n;
	int ret;

	if ((ret = cr_chdr_parse(sec, len, &ch)) < 0)
		return ret;
	if (ch.type == CR_ELFCOMPRESS_ZSTD)
		return -CR_ENOSYS;
	if (ch.type != CR_ELFCOMPRESS_ZLIB)
		return -CR_EINVAL;
	if (ch.size > cap)
		return -CR_ERANGE;
	ret = cr_inflate_zlib(st, (const uint8_t *)sec + ch.data, len - ch.data, out, ch.size, &n);
	/* A stream longer or shorter than ch_size contradicts the header. */
	if (ret == -CR_ERANGE || (ret == 0 && n != ch.size))
		return -CR_EINVAL;
	if (ret < 0)
		return ret;
	*outlen = n;
	return 0;
}
