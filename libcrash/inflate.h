/* SPDX-License-Identifier: MIT */
/*
 * DEFLATE (RFC 1951) in its zlib wrapper (RFC 1950), for ELF sections that
 * carry SHF_COMPRESSED with ELFCOMPRESS_ZLIB (gABI "Section Compression"):
 * debug sections that `ld --compress-debug-sections=zlib` or objcopy wrote.
 *
 * One call decodes a whole stream from an input buffer into a caller's output
 * buffer, which is also the 32 KiB history window.  No allocation, no
 * recursion, no libc call but memcpy/memset; the scratch state is the caller's
 * fixed-size struct cr_inflate.  Time is linear in input + output: every
 * Huffman symbol costs O(1) (a table load, or at most 15 steps for a code
 * longer than CR_HUFF_FAST bits), and a block header costs at most one table
 * build (O(2^CR_HUFF_FAST + 320)) while consuming at least 3 bits.  Pure and
 * AS-safe; under 512 bytes of stack besides the scratch (-fstack-usage, gcc 12
 * and clang 14 at -O2: 376 and 480 on the deepest path).
 */
#ifndef CR_INFLATE_H
#define CR_INFLATE_H

#include "common.h"

/*
 * Bits resolved by one table load; longer codes take the canonical walk.
 * 10, not 9: libc6-dbg's sections decoded with 9 spent 15% of their
 * instructions in that walk (33M of 222M for bench/threads' crashing
 * thread), with 10 2% (4.6M), for 2M more in the tables' builds.
 */
#define CR_HUFF_FAST 10

/* One Huffman code (RFC 1951 3.2.2), built from its code lengths. */
struct cr_huff {
	/* The next CR_HUFF_FAST input bits -> len << 9 | sym; 0: a longer code
	   or none. */
	uint16_t fast[1u << CR_HUFF_FAST];
	uint16_t count[16];	/* codes of each length */
	uint16_t sym[288];	/* symbols in canonical order (length, then value) */
};

/*
 * Scratch of one decode: 5,634 bytes on LP64 (sizeof is the truth; t-inflate
 * checks it stays under 6 KiB).  Static storage, not the stack: the report's
 * symbolizer holds one (struct cr_dbgset).  Nothing in it outlives a call.
 */
struct cr_inflate {
	struct cr_huff lit;	/* literal/length code */
	struct cr_huff dist;	/* distance code; the code-length code while a
				   dynamic block header is read */
	uint8_t lens[288 + 32];	/* a dynamic header's code lengths */
	uint8_t fixed;		/* lit and dist hold the fixed codes (3.2.6) */
	const void *owner;	/* the lazy stream whose block's codes they are, or NULL */
};

/* The decoder's position in its input. */
struct cr_inflate_bits {
	const uint8_t *in;
	size_t pos, len;	/* next byte to load; input size */
	uint64_t buf;		/* the next cnt bits of the stream, first in bit 0 */
	unsigned cnt;
	unsigned pad;		/* zero bytes loaded past the end of the input */
};

/*
 * A zlib stream decoded on demand, up to what is asked for, into out, which has
 * room for the whole output (size bytes, known beforehand: an ELF
 * compressed section's ch_size) and so is also the history window.  For
 * debug sections of which a lookup reads a prefix: the unit it needs and
 * what comes before.  The Adler-32 is checked when the last block is
 * decoded: bytes handed out before that are unchecked (the DWARF decoders
 * check everything they read).
 */
struct cr_inflate_lazy {
	struct cr_inflate_bits b;
	uint8_t *out;
	size_t size;		/* the output's size */
	size_t n;		/* bytes decoded so far: out[0, n) */
	int state;		/* 0: more to come; 1: all decoded and checked; < 0: -CR_E* */
	struct cr_inflate_bits hdr;	/* the current block's header, to rebuild its codes */
	uint8_t inblock;	/* stopped inside a coded block, at b */
	uint8_t last;		/* that block is the last (BFINAL) */
};

/* Check the zlib header, start decoding nothing yet.  0 or -CR_EINVAL. */
int cr_inflate_lazy_init(struct cr_inflate_lazy *z, const void *in, size_t inlen, void *out,
			 size_t size);

/*
 * Decode until z->n >= want or the stream's end (st: the scratch, which
 * several lazy streams may share).  A coded block is left between two
 * symbols once want is reached (a match may go past it): a block of
 * zlib's holds up to ~100 KiB, most of which a lookup does not need; its
 * codes stay in st while no other stream uses st, else they are built
 * again from the block's header when the stream goes on.  0 (z->n may still be
 * below want if the stream is shorter), or the sticky error: -CR_EINVAL
 * (malformed; or the stream's length is not size), -CR_ERANGE (longer than
 * size).  AS-safe; time linear in the bytes decoded.
 */
int cr_inflate_lazy_more(struct cr_inflate *st, struct cr_inflate_lazy *z, size_t want);

/*
 * Decode the zlib stream [in, in + inlen) into out (capacity cap).  Checks the
 * header (CM 8, CINFO <= 7, FCHECK, no preset dictionary) and the Adler-32 of
 * the output; bytes after the Adler-32 are ignored.  *outlen: the bytes
 * written, on success only.  0; -CR_EINVAL for any malformed or truncated
 * input; -CR_ERANGE if the output does not fit in cap.  out's contents are
 * unspecified on failure.
 */
int cr_inflate_zlib(struct cr_inflate *st, const void *in, size_t inlen, void *out, size_t cap,
		    size_t *outlen);

/* The raw DEFLATE stream alone (no header, no checksum); otherwise as above. */
int cr_inflate_raw(struct cr_inflate *st, const void *in, size_t inlen, void *out, size_t cap,
		   size_t *outlen);

/* gABI ch_type values. */
#define CR_ELFCOMPRESS_ZLIB 1
#define CR_ELFCOMPRESS_ZSTD 2

/* An Elf64_Chdr (gABI "Section Compression"): what a compressed section starts with. */
struct cr_chdr {
	uint32_t type;		/* ch_type: CR_ELFCOMPRESS_* */
	uint64_t size;		/* ch_size: the uncompressed size */
	uint64_t align;		/* ch_addralign */
	uint64_t data;		/* offset of the compressed stream in the section (24) */
};

/*
 * Parse the Elf64_Chdr at the start of a section's bytes [sec, sec + len)
 * (ELFCLASS64, little-endian: the four arches).  0, or -CR_EINVAL (shorter
 * than the header).  Neither the type nor the alignment is checked here.
 * Pure, AS-safe.
 */
int cr_chdr_parse(const void *sec, size_t len, struct cr_chdr *ch);

/*
 * A whole SHF_COMPRESSED section: cr_chdr_parse, then cr_inflate_zlib into out,
 * which must hold ch_size bytes (else -CR_ERANGE before decoding).  0 with
 * *outlen == ch_size; -CR_EINVAL (malformed, or a stream of another size than
 * ch_size); -CR_ENOSYS (ch_type other than ELFCOMPRESS_ZLIB: zstd is not
 * supported); -CR_ERANGE.
 */
int cr_inflate_section(struct cr_inflate *st, const void *sec, size_t len, void *out, size_t cap,
		       size_t *outlen);

#endif
