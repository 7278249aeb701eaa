/* SPDX-License-Identifier: MIT */
/*
 * Zstandard (RFC 8878), for ELF sections that carry SHF_COMPRESSED with
 * ELFCOMPRESS_ZSTD (gABI "Section Compression"): debug sections that
 * `objcopy --compress-debug-sections=zstd` or `ld --compress-debug-sections=zstd`
 * wrote.  Frames (with their content size and XXH64 checksum checked),
 * skippable frames, several frames one after the other; raw, RLE and
 * compressed blocks; raw, RLE and Huffman literals (1 or 4 streams, and the
 * previous block's tree); sequences in predefined, RLE, FSE and repeat modes.
 * Not supported: dictionaries (a frame with a dictionary ID other than 0 is
 * -CR_ENOSYS).
 *
 * The caller's output buffer holds the whole output (an ELF section's
 * ch_size) and is also the window: an offset is checked against the bytes of
 * its frame written so far.  A block's literals are decoded into the end of
 * the output buffer, which the block's sequences fill from the front: an
 * output that does not fit is -CR_ERANGE before any of it is written past
 * the literals still to be copied.
 *
 * No allocation, no recursion, no libc call but memcpy/memset; the scratch is
 * the caller's fixed-size struct cr_unzstd, under 1 KiB of stack besides it
 * (-fstack-usage at -O2 on the deepest path, cr_unzstd -> block -> huf_rest:
 * gcc 12 ~490 bytes, clang 14 ~650).  Time is linear in input + output:
 * every block header consumes at least 3 input bytes and costs at most the
 * building of its tables (O(2^11 + 2 * 2^9 + 2^8 + 2^6)); every sequence
 * writes at least 3 bytes; every Huffman symbol writes one.  Pure and AS-safe.
 */
#ifndef CR_UNZSTD_H
#define CR_UNZSTD_H

#include "common.h"

/* RFC 8878 4.1.1: one state of an FSE decoding table. */
struct cr_fse {
	uint16_t base;		/* Baseline: the next state is base + nbits bits */
	uint8_t sym;
	uint8_t nbits;
};

/* One of the sequences' codes (literal length, offset, match length), as its last block set it. */
struct cr_unzstd_seqcode {
	uint8_t mode;		/* 0: none yet in this frame; 1 predefined; 2 RLE; 3 FSE */
	uint8_t log;		/* FSE: Accuracy_Log */
	uint8_t rle;		/* RLE: the symbol */
	uint8_t nsym;		/* FSE: symbols in norm */
	int16_t norm[53];	/* FSE: the distribution (4.1.1), -1 "less than 1" */
};

/*
 * What a frame carries from one block to the next (RFC 8878 3.1.1.5 and
 * 3.1.1.3.2.1.1: repeat offsets, the previous Huffman tree for treeless
 * literals, the previous tables for Repeat_Mode).  The tables are kept as
 * their descriptions, from which the scratch's tables are built again when
 * another stream has used the scratch since.
 */
struct cr_unzstd_keep {
	uint32_t rep[3];	/* Repeated_Offset1-3 */
	uint16_t hnum;		/* Huffman: symbols with a weight (the last implied); 0: no tree */
	uint8_t hw[256];	/* Huffman: each symbol's weight */
	struct cr_unzstd_seqcode seq[3];	/* literal length, offset, match length */
};

/*
 * A Zstandard input decoded on demand, a block at a time, into out, which
 * has room for the whole output (size bytes, known beforehand: an ELF
 * compressed section's ch_size) and so is also the window.  Everything that
 * lives from one block to the next is here (keep), not in the scratch: several
 * lazy streams may share one struct cr_unzstd.  A frame's checksum is checked
 * when its last block is decoded: bytes handed out before that are unchecked
 * (the DWARF decoders check everything they read).  680 bytes on LP64.
 */
struct cr_unzstd_lazy {
	const uint8_t *in;
	size_t pos, len;	/* next input byte; input size */
	uint8_t *out;
	size_t fstart;		/* where the current frame's output starts */
	uint64_t fcs;		/* its Frame_Content_Size; UINT64_MAX: not given */
	uint8_t inframe;	/* between a frame header and its last block */
	uint8_t check;		/* the frame has a Content_Checksum */
	uint8_t frames;		/* a Zstandard frame was seen (skippable ones do not count) */
	struct cr_unzstd_keep keep;
	size_t size;		/* the output's size */
	size_t n;		/* bytes decoded so far: out[0, n) */
	int state;		/* 0: more to come; 1: all decoded and checked; < 0: -CR_E* */
};

/*
 * Scratch of one decode: 10,160 bytes on LP64 (sizeof is the truth; t-unzstd
 * checks it stays under 12 KiB).  Its tables are rebuilt from a stream's keep
 * when needed; nothing in it outlives a call except for cr_unzstd's own
 * stream (whole).
 */
struct cr_unzstd {
	uint16_t huf[1u << 11];	/* the next 11 bits (or fewer) -> nbits << 8 | symbol */
	struct cr_fse ll[1u << 9], ml[1u << 9], of[1u << 8];
	struct cr_fse hw[1u << 6];	/* the Huffman weights' FSE table */
	unsigned have;		/* bit k: seq table k (ll, of, ml) built from the current keep; 8: huf */
	struct cr_unzstd_lazy whole;	/* cr_unzstd()'s stream */
};

/*
 * Check the first frame's header (skipping skippable frames before it), decode
 * nothing yet.  0; -CR_EINVAL (not Zstandard, malformed or truncated header);
 * -CR_ENOSYS (a dictionary); -CR_ERANGE (the header's content size exceeds size).
 */
int cr_unzstd_lazy_init(struct cr_unzstd_lazy *z, const void *in, size_t inlen, void *out,
			size_t size);

/*
 * Decode whole blocks until z->n >= want or the input's end (st: the
 * scratch, which several lazy streams may share).  0 (z->n may still be
 * below want if the output is shorter), or the sticky error: -CR_EINVAL
 * (malformed; a checksum or content size that does not match; or the output's
 * length is not size), -CR_ENOSYS (a dictionary), -CR_ERANGE (longer than
 * size).  AS-safe; time linear in the bytes decoded.
 */
int cr_unzstd_lazy_more(struct cr_unzstd *st, struct cr_unzstd_lazy *z, size_t want);

/*
 * Decode the Zstandard frames [in, in + inlen) (at least one Zstandard frame;
 * skippable frames anywhere) into out (capacity cap).  *outlen: the bytes
 * written, on success only.  0; -CR_EINVAL for any malformed or truncated
 * input, trailing bytes that are no frame, or a frame checksum or content
 * size that does not match; -CR_ENOSYS for a dictionary; -CR_ERANGE if the
 * output does not fit in cap.  out's contents are unspecified on failure.
 * Uses st->whole.  Pure, AS-safe, under 1 KiB of stack.
 */
int cr_unzstd(struct cr_unzstd *st, const void *in, size_t inlen, void *out, size_t cap,
	      size_t *outlen);

/* XXH64 of [p, p + n) with seed 0 (RFC 8878 3.1.1: the low 32 bits are Content_Checksum). */
uint64_t cr_xxh64(const void *p, size_t n);

#endif
