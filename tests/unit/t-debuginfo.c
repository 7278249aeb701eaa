/* SPDX-License-Identifier: MIT */
/*
 * debuginfo.c: ELF images built here byte by byte in, the sections, link and
 * build-id out (cr_dbg_elf); every truncation and a hostile header answered
 * without a read out of the image (ASan); CRC-32 check values; the search
 * for a separate debug file (build-id tree, .gnu_debuglink with its CRC, the
 * debuginfod cache) over files written to a temporary directory, and a
 * candidate of another build refused.
 */
#include <dirent.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../tap.h"
#include "cursor.h"
#include "debuginfo.h"

/* A zlib stream of "hello, world\n" (one stored block). */
static const uint8_t hello_z[] = {
	0x78, 0x01, 0x01, 0x0d, 0x00, 0xf2, 0xff, 0x68, 0x65, 0x6c, 0x6c, 0x6f,
	0x2c, 0x20, 0x77, 0x6f, 0x72, 0x6c, 0x64, 0x0a, 0x21, 0xe7, 0x04, 0x93
};

static const uint8_t build_id[20] = { 0xab, 0xcd, 1, 2, 3, 4, 5, 6, 7, 8,
				      9, 10, 11, 12, 13, 14, 15, 16, 17, 18 };

struct img {
	uint8_t b[12288];
	size_t n;
	Elf64_Shdr sh[48];
	unsigned nsh;
	char names[3072];
	size_t nnames;
};

static uint64_t add_bytes(struct img *im, const void *p, size_t len)
{
	uint64_t at = (im->n + 7) & ~(size_t)7;

	memcpy(im->b + at, p, len);
	im->n = at + len;
	return at;
}

static void add_sect(struct img *im, const char *name, uint32_t type, uint64_t flags,
		     const void *p, size_t len)
{
	Elf64_Shdr *s = &im->sh[im->nsh++];

	memset(s, 0, sizeof(*s));
	s->sh_name = (uint32_t)im->nnames;
	memcpy(im->names + im->nnames, name, strlen(name) + 1);
	im->nnames += strlen(name) + 1;
	s->sh_type = type;
	s->sh_flags = flags;
	s->sh_offset = type == SHT_NOBITS ? 0 : add_bytes(im, p, len);
	s->sh_size = len;
}

/* Header, sections, then .shstrtab (its name last in itself) and the headers. */
static void finish(struct img *im)
{
	Elf64_Ehdr eh;

	add_sect(im, ".shstrtab", SHT_STRTAB, 0, "", 0);
	im->sh[im->nsh - 1].sh_offset = add_bytes(im, im->names, im->nnames);
	im->sh[im->nsh - 1].sh_size = im->nnames;
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_DYN;
	eh.e_ehsize = sizeof(eh);
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = (uint16_t)im->nsh;
	eh.e_shstrndx = (uint16_t)(im->nsh - 1);
	eh.e_shoff = add_bytes(im, im->sh, im->nsh * sizeof(Elf64_Shdr));
	memcpy(im->b, &eh, sizeof(eh));
}

static void start(struct img *im)
{
	memset(im, 0, sizeof(*im));
	im->n = sizeof(Elf64_Ehdr);
	im->nnames = 1;	/* "" */
	add_sect(im, "", SHT_NULL, 0, "", 0);
}

static void add_note(struct img *im, const uint8_t *id, unsigned n)
{
	uint8_t note[64];
	uint32_t h[3] = { 4, n, NT_GNU_BUILD_ID };

	memcpy(note, h, 12);
	memcpy(note + 12, "GNU", 4);
	memcpy(note + 16, id, n);
	add_sect(im, ".note.gnu.build-id", SHT_NOTE, SHF_ALLOC, note, 16 + n);
}

static void add_link(struct img *im, const char *name, uint32_t crc)
{
	uint8_t d[64] = { 0 };
	size_t at = (strlen(name) + 4) & ~(size_t)3;

	memcpy(d, name, strlen(name));
	memcpy(d + at, &crc, 4);
	add_sect(im, ".gnu_debuglink", SHT_PROGBITS, 0, d, at + 4);
}

/* A debug file: .debug_info in place, .debug_str compressed (gABI), .zdebug_line (GNU). */
static void debug_image(struct img *im, int with_id)
{
	uint8_t chdr[24 + sizeof(hello_z)] = { 0 }, gnu[12 + sizeof(hello_z)] = { 'Z', 'L', 'I', 'B' };
	uint32_t type = ELFCOMPRESS_ZLIB;
	uint64_t size = 13;

	start(im);
	if (with_id)
		add_note(im, build_id, sizeof(build_id));
	add_sect(im, ".text", SHT_NOBITS, SHF_ALLOC | SHF_EXECINSTR, "", 4096);
	add_sect(im, ".debug_info", SHT_PROGBITS, 0, "INFO", 4);
	add_sect(im, ".debug_abbrev", SHT_PROGBITS, 0, "AB", 2);
	memcpy(chdr, &type, 4);
	memcpy(chdr + 8, &size, 8);
	memcpy(chdr + 24, hello_z, sizeof(hello_z));
	add_sect(im, ".debug_str", SHT_PROGBITS, SHF_COMPRESSED, chdr, sizeof(chdr));
	gnu[11] = 13;	/* the size, big-endian */
	memcpy(gnu + 12, hello_z, sizeof(hello_z));
	add_sect(im, ".zdebug_line", SHT_PROGBITS, 0, gnu, sizeof(gnu));
	add_sect(im, ".debug_frame", SHT_PROGBITS, 0, "F", 1);	/* not one of ours */
	add_sect(im, ".debug_line_str_x", SHT_PROGBITS, 0, "X", 1);	/* a longer name */
	finish(im);
}

static void t_crc(void)
{
	tap_is_u64(cr_crc32(0, "123456789", 9), 0xcbf43926, "crc32: the check value of \"123456789\"");
	tap_is_u64(cr_crc32(cr_crc32(0, "1234", 4), "56789", 5), 0xcbf43926,
		   "crc32: in two pieces");
	tap_is_u64(cr_crc32(0, "", 0), 0, "crc32: nothing");
}

static void t_elf(void)
{
	struct cr_dbgsec sec[CR_DS_N];
	struct img im;
	char link[64];
	uint8_t id[32];
	unsigned idlen;
	uint32_t crc;
	int bad = 0;

	debug_image(&im, 1);
	tap_is_i64(cr_dbg_elf(im.b, im.n, sec, link, sizeof(link), &crc, id, &idlen), 0,
		   "elf: parsed");
	tap_ok(sec[CR_DS_INFO].size == 4 && memcmp(im.b + sec[CR_DS_INFO].off, "INFO", 4) == 0 &&
		       !sec[CR_DS_INFO].compressed,
	       "elf: .debug_info in place");
	tap_ok(sec[CR_DS_STR].size == 24 + sizeof(hello_z) && sec[CR_DS_STR].compressed == 1,
	       "elf: .debug_str compressed (SHF_COMPRESSED)");
	tap_ok(sec[CR_DS_LINE].size == 12 + sizeof(hello_z) && sec[CR_DS_LINE].compressed == 2,
	       "elf: .zdebug_line as .debug_line, GNU-compressed");
	tap_ok(!sec[CR_DS_LINE_STR].size && !sec[CR_DS_ARANGES].size,
	       "elf: .debug_line_str_x is not .debug_line_str; absent sections are size 0");
	tap_ok(idlen == sizeof(build_id) && memcmp(id, build_id, idlen) == 0, "elf: build-id");
	tap_is_str(link, "", "elf: no debuglink");

	start(&im);
	add_sect(&im, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, "\xc3", 1);
	add_link(&im, "prog.debug", 0x12345678);
	finish(&im);	/* .gnu_debuglink's name just before .shstrtab's */
	cr_dbg_elf(im.b, im.n, sec, link, sizeof(link), &crc, id, &idlen);
	tap_ok(strcmp(link, "prog.debug") == 0 && crc == 0x12345678 && idlen == 0,
	       "elf: debuglink name and CRC, no build-id");
	tap_ok(!sec[CR_DS_INFO].size, "elf: a stripped module has no .debug_info");
	cr_dbg_elf(im.b, im.n, sec, link, 8, &crc, id, &idlen);
	tap_is_str(link, "", "elf: a debuglink name longer than the buffer is dropped");

	/* Every truncation: an answer, never a read past the image (ASan). */
	debug_image(&im, 1);
	for (size_t n = 0; n < im.n; n++) {
		uint8_t *copy = malloc(n ? n : 1);

		memcpy(copy, im.b, n);
		if (cr_dbg_elf(copy, n, sec, link, sizeof(link), &crc, id, &idlen) == 0)
			for (int k = 0; k < CR_DS_N; k++)
				if (sec[k].size && (sec[k].off > n || sec[k].size > n - sec[k].off))
					bad++;
		free(copy);
	}
	tap_is_i64(bad, 0, "elf: every truncation: sections inside what is left");

	/* Hostile headers. */
	{
		Elf64_Ehdr eh;
		Elf64_Shdr sh;

		debug_image(&im, 1);
		memcpy(&eh, im.b, sizeof(eh));
		eh.e_shnum = 0xffff;
		memcpy(im.b, &eh, sizeof(eh));
		tap_is_i64(cr_dbg_elf(im.b, im.n, sec, link, sizeof(link), &crc, id, &idlen),
			   -CR_EINVAL, "elf: more section headers than the file holds");
		debug_image(&im, 1);
		memcpy(&eh, im.b, sizeof(eh));
		eh.e_shstrndx = SHN_XINDEX;	/* the real index in section 0's sh_link: 0 here */
		eh.e_shnum = 0;			/* the real count in section 0's sh_size: 0 here */
		memcpy(im.b, &eh, sizeof(eh));
		tap_is_i64(cr_dbg_elf(im.b, im.n, sec, link, sizeof(link), &crc, id, &idlen),
			   -CR_EINVAL, "elf: SHN_XINDEX with section 0 saying nothing");
		memcpy(&sh, im.b + eh.e_shoff, sizeof(sh));
		sh.sh_size = im.nsh;
		sh.sh_link = im.nsh - 1;
		memcpy(im.b + eh.e_shoff, &sh, sizeof(sh));
		tap_is_i64(cr_dbg_elf(im.b, im.n, sec, link, sizeof(link), &crc, id, &idlen), 0,
			   "elf: SHN_XINDEX: count and string table from section 0");
		tap_ok(sec[CR_DS_INFO].size == 4, "elf: ...and the sections found");
		debug_image(&im, 1);
		memcpy(&sh, im.b + eh.e_shoff + 3 * sizeof(sh), sizeof(sh));
		sh.sh_offset = ~0ull - 2;	/* .debug_info's offset wraps */
		memcpy(im.b + eh.e_shoff + 3 * sizeof(sh), &sh, sizeof(sh));
		cr_dbg_elf(im.b, im.n, sec, link, sizeof(link), &crc, id, &idlen);
		tap_ok(!sec[CR_DS_INFO].size, "elf: a section out of the file is absent");
		debug_image(&im, 1);
		im.b[EI_CLASS] = ELFCLASS32;
		tap_is_i64(cr_dbg_elf(im.b, im.n, sec, link, sizeof(link), &crc, id, &idlen),
			   -CR_EINVAL, "elf: ELFCLASS32");
	}
}

static char dir[] = "/tmp/t-debuginfo-XXXXXX";

static void write_file(const char *rel, const struct img *im)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0700);
		*p = '/';
	}
	f = fopen(path, "wb");
	fwrite(im->b, 1, im->n, f);
	fclose(f);
}

static void module(struct cr_module *mod, const char *rel, int with_id)
{
	memset(mod, 0, sizeof(*mod));
	snprintf(mod->path, sizeof(mod->path), "%s/%s", dir, rel);
	if (with_id) {
		memcpy(mod->build_id, build_id, sizeof(build_id));
		mod->build_id_len = sizeof(build_id);
	}
}

static void t_find(void)
{
	char path[CR_DBG_PATH], want[CR_DBG_PATH], root[600];
	struct img exe, dbg, other;
	struct cr_module mod;
	uint32_t crc;

	if (!mkdtemp(dir)) {
		tap_ok(0, "find: a temporary directory");
		return;
	}
	snprintf(root, sizeof(root), "/nonexistent:%s/root", dir);
	cr_dbgcfg.roots = root;
	cr_dbgcfg.dcache = cr_dbgcfg.xdg = cr_dbgcfg.home = NULL;

	/* 1. The build-id tree under the second root. */
	debug_image(&dbg, 1);
	write_file("root/.build-id/ab/cd0102030405060708090a0b0c0d0e0f101112.debug", &dbg);
	start(&exe);
	add_note(&exe, build_id, sizeof(build_id));
	finish(&exe);
	write_file("bin/prog", &exe);
	module(&mod, "bin/prog", 1);
	snprintf(want, sizeof(want), "%s/root/.build-id/ab/cd0102030405060708090a0b0c0d0e0f101112.debug",
		 dir);
	tap_ok(cr_dbg_find_file(&mod, path, sizeof(path)) == 0 && strcmp(path, want) == 0,
	       "find: ROOT/.build-id/xx/rest.debug, second root");

	/* Of another build: refused. */
	{
		uint8_t id2[20];

		memcpy(id2, build_id, 20);
		id2[19] ^= 1;
		start(&other);
		add_note(&other, id2, 20);
		add_sect(&other, ".debug_info", SHT_PROGBITS, 0, "INFO", 4);
		finish(&other);
		write_file("root/.build-id/ab/cd0102030405060708090a0b0c0d0e0f101112.debug", &other);
		tap_is_i64(cr_dbg_find_file(&mod, path, sizeof(path)), -CR_ENOINFO,
			   "find: a debug file of another build-id is refused");
	}

	/* 2. A debuglink beside the module, then in its .debug/, then under a
	   root; its CRC decides when the debug file has no build-id. */
	debug_image(&dbg, 0);
	crc = cr_crc32(0, dbg.b, dbg.n);
	start(&exe);
	add_link(&exe, "prog.dbg", crc);
	finish(&exe);
	write_file("bin2/prog", &exe);
	module(&mod, "bin2/prog", 0);
	{
		char rel[600];

		/* ROOT/DIR/NAME: DIR is the module's absolute directory. */
		snprintf(rel, sizeof(rel), "root%s/bin2/prog.dbg", dir);
		write_file(rel, &dbg);
		snprintf(want, sizeof(want), "%s/root%s/bin2/prog.dbg", dir, dir);
		tap_ok(cr_dbg_find_file(&mod, path, sizeof(path)) == 0 && strcmp(path, want) == 0,
		       "find: debuglink under a root (ROOT/DIR/NAME), CRC checked");
	}
	write_file("bin2/.debug/prog.dbg", &dbg);
	snprintf(want, sizeof(want), "%s/bin2/.debug/prog.dbg", dir);
	tap_ok(cr_dbg_find_file(&mod, path, sizeof(path)) == 0 && strcmp(path, want) == 0,
	       "find: debuglink in the module's .debug/ before the roots");
	write_file("bin2/prog.dbg", &dbg);
	snprintf(want, sizeof(want), "%s/bin2/prog.dbg", dir);
	tap_ok(cr_dbg_find_file(&mod, path, sizeof(path)) == 0 && strcmp(path, want) == 0,
	       "find: debuglink beside the module first");
	dbg.b[dbg.n - 1] ^= 0xff;	/* another file: its CRC differs */
	write_file("bin2/prog.dbg", &dbg);
	snprintf(want, sizeof(want), "%s/bin2/.debug/prog.dbg", dir);
	tap_ok(cr_dbg_find_file(&mod, path, sizeof(path)) == 0 && strcmp(path, want) == 0,
	       "find: a debuglink file with the wrong CRC is passed over");

	/* The module's own file is read with pread where it has no DWARF
	   (debuginfo.c, own_lacks_dwarf): its section headers 16 at a time,
	   so a debuglink past the first 16 is found; a name table longer than
	   that reader's buffer sends it to the mapped reader, which finds it
	   too; and every truncation of the file gets an answer (ASan). */
	{
		char name[160];
		int found = 0, refused = 0;
		size_t full;

		debug_image(&dbg, 0);
		crc = cr_crc32(0, dbg.b, dbg.n);
		start(&exe);
		for (int i = 0; i < 40; i++) {
			snprintf(name, sizeof(name), ".pad%d", i);
			add_sect(&exe, name, SHT_PROGBITS, 0, "x", 1);
		}
		add_link(&exe, "prog.dbg", crc);
		finish(&exe);
		write_file("bin5/prog", &exe);
		write_file("bin5/prog.dbg", &dbg);
		module(&mod, "bin5/prog", 0);
		snprintf(want, sizeof(want), "%s/bin5/prog.dbg", dir);
		tap_ok(cr_dbg_find_file(&mod, path, sizeof(path)) == 0 && strcmp(path, want) == 0,
		       "find: a stripped module's debuglink, section 41 of 42 (read 16 headers at a time)");
		full = exe.n;
		for (size_t n = 0; n < full; n++) {
			exe.n = n;
			write_file("bin5/prog", &exe);
			if (cr_dbg_find_file(&mod, path, sizeof(path)) == 0)
				found++;
			else
				refused++;
		}
		tap_ok(found + refused == (int)full && found == 0,
		       "find: the stripped module cut at every byte: no debuglink read past its end");
		start(&exe);
		for (int i = 0; i < 20; i++) {
			snprintf(name, sizeof(name), ".a-section-name-of-some-length-%0100d", i);
			add_sect(&exe, name, SHT_PROGBITS, 0, "y", 1);
		}
		add_link(&exe, "prog.dbg", crc);
		finish(&exe);
		tap_ok(exe.nnames > 2048, "find: a name table over 2 KiB");
		write_file("bin5/prog", &exe);
		tap_ok(cr_dbg_find_file(&mod, path, sizeof(path)) == 0 && strcmp(path, want) == 0,
		       "find: ... its debuglink found through the mapped reader");
	}

	/* 3. The debuginfod cache: DEBUGINFOD_CACHE_PATH, else XDG, else HOME. */
	{
		char cache[600], xdg[600];

		debug_image(&dbg, 1);
		start(&exe);
		add_note(&exe, build_id, sizeof(build_id));
		finish(&exe);
		write_file("bin3/prog", &exe);
		module(&mod, "bin3/prog", 1);
		cr_dbgcfg.roots = "/nonexistent";
		write_file("home/.cache/debuginfod_client/abcd0102030405060708090a0b0c0d0e0f101112/debuginfo",
			   &dbg);
		snprintf(cache, sizeof(cache), "%s/home", dir);
		cr_dbgcfg.home = cache;
		snprintf(want, sizeof(want),
			 "%s/home/.cache/debuginfod_client/abcd0102030405060708090a0b0c0d0e0f101112/debuginfo",
			 dir);
		tap_ok(cr_dbg_find_file(&mod, path, sizeof(path)) == 0 && strcmp(path, want) == 0,
		       "find: the debuginfod cache under $HOME/.cache");
		snprintf(xdg, sizeof(xdg), "%s/xdg", dir);
		cr_dbgcfg.xdg = xdg;
		tap_is_i64(cr_dbg_find_file(&mod, path, sizeof(path)), -CR_ENOINFO,
			   "find: $XDG_CACHE_HOME, when set, instead of $HOME's");
		write_file("dc/abcd0102030405060708090a0b0c0d0e0f101112/debuginfo", &dbg);
		snprintf(cache, sizeof(cache), "%s/dc", dir);
		cr_dbgcfg.dcache = cache;
		snprintf(want, sizeof(want), "%s/dc/abcd0102030405060708090a0b0c0d0e0f101112/debuginfo",
			 dir);
		tap_ok(cr_dbg_find_file(&mod, path, sizeof(path)) == 0 && strcmp(path, want) == 0,
		       "find: $DEBUGINFOD_CACHE_PATH first");
		cr_dbgcfg.dcache = cr_dbgcfg.xdg = cr_dbgcfg.home = NULL;
	}

	/* A FIFO at a debug path is not opened for reading (it would block). */
	{
		char fifo[600];
		struct cr_module m2;

		module(&m2, "bin4/prog", 1);
		snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
		mkdir(fifo, 0700);
		snprintf(fifo, sizeof(fifo), "%s/fifo/.build-id", dir);
		mkdir(fifo, 0700);
		snprintf(fifo, sizeof(fifo), "%s/fifo/.build-id/ab", dir);
		mkdir(fifo, 0700);
		snprintf(fifo, sizeof(fifo),
			 "%s/fifo/.build-id/ab/cd0102030405060708090a0b0c0d0e0f101112.debug", dir);
		mkfifo(fifo, 0600);
		snprintf(root, sizeof(root), "%s/fifo", dir);
		cr_dbgcfg.roots = root;
		alarm(5);
		tap_is_i64(cr_dbg_find_file(&m2, path, sizeof(path)), -CR_ENOINFO,
			   "find: a FIFO in the build-id tree: passed over, not waited on");
		alarm(0);
	}
	{
		char cmd[700];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			tap_ok(0, "find: clean up");
	}
}

/* An image whose compressed sections are read through the lazy memory. */
static void t_image(void)
{
	static struct cr_dbgset set;
	const struct cr_dbgimage *im;
	struct cr_module mod;
	struct img dbg;
	char buf[16] = { 0 };

	if (!mkdtemp(strcpy(dir, "/tmp/t-debuginfo-XXXXXX")))
		return;
	debug_image(&dbg, 1);
	write_file("prog", &dbg);	/* the module's own file, with its DWARF */
	module(&mod, "prog", 1);
	mod.lo = 0x1000;
	cr_dbgset_init(&set);
	im = cr_dbg_image(&set, &mod);
	tap_ok(im != NULL, "image: the module's own file");
	if (im) {
		tap_ok(cr_read(im->src.str.mem, 0, buf, 13) == 0 &&
			       memcmp(buf, "hello, world\n", 13) == 0,
		       "image: .debug_str inflated when read");
		tap_ok(cr_read(im->line.line.mem, 7, buf, 6) == 0 && memcmp(buf, "world\n", 6) == 0,
		       "image: .zdebug_line inflated when read");
		tap_ok(cr_read(im->src.str.mem, 10, buf, 4) < 0, "image: a read past the section fails");
		/* One mapping holds both: each in its own room, neither over the other. */
		tap_ok(im->zmap && (const uint8_t *)im->line.line.mem->buf >= im->src.str.mem->buf + 13 &&
			       cr_read(im->src.str.mem, 0, buf, 13) == 0 &&
			       memcmp(buf, "hello, world\n", 13) == 0,
		       "image: both inflated in one mapping, .debug_str intact after the line's");
		tap_ok(cr_read(im->src.info.mem, im->src.info.lo, buf, 4) == 0 &&
			       memcmp(buf, "INFO", 4) == 0,
		       "image: .debug_info in place");
	}
	tap_ok(cr_dbg_image(&set, &mod) == im, "image: the same image for the same module");
	cr_dbgset_close(&set);
	unlink(mod.path);
	rmdir(dir);
}

/* A debug file with every section in place, each string section's bytes its own. */
static void plain_image(struct img *im, const char *tag)
{
	char str[32], lstr[32];

	snprintf(str, sizeof(str), "str of %s", tag);
	snprintf(lstr, sizeof(lstr), "line_str of %s", tag);
	start(im);
	add_note(im, build_id, sizeof(build_id));
	add_sect(im, ".text", SHT_NOBITS, SHF_ALLOC | SHF_EXECINSTR, "", 4096);
	add_sect(im, ".debug_info", SHT_PROGBITS, 0, "INFO", 4);
	add_sect(im, ".debug_abbrev", SHT_PROGBITS, 0, "AB", 2);
	add_sect(im, ".debug_line", SHT_PROGBITS, 0, "LINE", 4);
	add_sect(im, ".debug_str", SHT_PROGBITS, 0, str, strlen(str) + 1);
	add_sect(im, ".debug_line_str", SHT_PROGBITS, 0, lstr, strlen(lstr) + 1);
	add_sect(im, ".debug_rnglists", SHT_PROGBITS, 0, "RNGLISTS", 8);
	add_sect(im, ".debug_ranges", SHT_PROGBITS, 0, "RANGES", 6);
	add_sect(im, ".debug_addr", SHT_PROGBITS, 0, "ADDR", 4);
	finish(im);
}

/* How many of this process's descriptors name path (/proc/self/fd). */
static int fds_on(const char *path)
{
	char link[600], to[600];
	struct dirent *e;
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		ssize_t k;

		snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
		if ((k = readlink(link, to, sizeof(to) - 1)) <= 0)
			continue;
		to[k] = 0;
		n += strcmp(to, path) == 0;
	}
	closedir(d);
	return n;
}

static int str_is(const struct cr_dwsect *s, const char *want)
{
	char buf[32] = { 0 };
	size_t n = strlen(want);	/* the section's bytes: want, and a NUL or nothing */

	return s->mem && s->hi - s->lo >= n && s->hi - s->lo <= n + 1 && cr_read(s->mem, s->lo, buf, n) == 0 &&
	       memcmp(buf, want, n) == 0;
}

/*
 * The sections read in scattered small pieces (.debug_str, .debug_rnglists,
 * .debug_ranges) are read with pread, through the image's probe, not its
 * mapping: their memory has no views, and reading them opens the file.
 * The sections read in order (.debug_info's DIEs in place, .debug_line,
 * .debug_line_str, .debug_addr) stay on the mapping.  Each image keeps its
 * file open until the set is closed; in a process short of descriptors
 * (the one given less than CR_DBG_FD_SPARE below RLIMIT_NOFILE), one image
 * at a time: reading B's closes A's.  A file replaced on disk after it was
 * mapped is not taken: its reads come from the mapping, the same bytes,
 * with nothing held.
 */
static void t_held(void)
{
	static struct cr_dbgset set;
	const struct cr_dbgimage *a, *b, *c;
	struct cr_module ma, mb, mc;
	struct img ia, ib, ic;
	struct rlimit lim, low;
	int next;

	if (!mkdtemp(strcpy(dir, "/tmp/t-debuginfo-XXXXXX")))
		return;
	plain_image(&ia, "a");
	plain_image(&ib, "b");
	plain_image(&ic, "c");
	write_file("a", &ia);
	write_file("b", &ib);
	write_file("c", &ic);
	module(&ma, "a", 0);
	module(&mb, "b", 0);
	module(&mc, "c", 0);
	ma.lo = 0x1000;
	mb.lo = 0x2000;
	mc.lo = 0x3000;
	cr_dbgset_init(&set);
	a = cr_dbg_image(&set, &ma);
	b = cr_dbg_image(&set, &mb);
	c = cr_dbg_image(&set, &mc);
	tap_ok(a && b && c, "held: three images, each its module's own file");
	if (!a || !b || !c) {
		cr_dbgset_close(&set);
		return;
	}
	tap_ok(a->src.str.mem == &a->probe && a->src.rnglists.mem == &a->probe &&
		       a->src.ranges.mem == &a->probe && a->line.str.mem == &a->probe &&
		       !a->probe.view && a->src.probe == &a->probe,
	       "held: .debug_str, .debug_rnglists, .debug_ranges through the probe, which has no views");
	tap_ok(a->src.info.mem == &a->file && a->line.line.mem == &a->file &&
		       a->src.line_str.mem == &a->file && a->line.line_str.mem == &a->file &&
		       a->src.addr.mem == &a->file && a->file.view,
	       "held: .debug_info, .debug_line, .debug_line_str, .debug_addr on the mapping");
	tap_ok(fds_on(ma.path) == 0 && fds_on(mb.path) == 0, "held: nothing open before a read");
	tap_ok(str_is(&a->src.info, "INFO") && str_is(&a->src.line_str, "line_str of a") &&
		       fds_on(ma.path) == 0,
	       "held: reads of the mapping open nothing");
	tap_ok(str_is(&a->src.str, "str of a") && str_is(&a->src.rnglists, "RNGLISTS") &&
		       str_is(&a->src.ranges, "RANGES"),
	       "held: A's scattered sections read right");
	tap_ok(fds_on(ma.path) == 1, "held: A's file open after, once");
	tap_ok(str_is(&b->src.str, "str of b") && fds_on(mb.path) == 1 && fds_on(ma.path) == 1,
	       "held: B read: B's file open too");
	tap_ok(str_is(&a->src.str, "str of a") && str_is(&b->src.rnglists, "RNGLISTS") &&
		       fds_on(ma.path) == 1 && fds_on(mb.path) == 1,
	       "held: A and B again: the same descriptors");
	/* c replaced on disk (a new inode at its path) after it was mapped */
	unlink(mc.path);
	plain_image(&ic, "C");
	write_file("c", &ic);
	tap_ok(str_is(&c->src.str, "str of c") && fds_on(mc.path) == 0,
	       "held: a file replaced on disk: the mapping's bytes, nothing held");
	tap_ok(str_is(&c->src.rnglists, "RNGLISTS") && fds_on(mc.path) == 0,
	       "held: ...and not tried again");
	tap_ok(cr_read(a->src.str.mem, a->probe.hi - 2, (char[4]){ 0 }, 4) < 0,
	       "held: a read past the file fails");
	cr_dbgset_close(&set);
	tap_ok(fds_on(ma.path) == 0 && fds_on(mb.path) == 0 && fds_on(mc.path) == 0,
	       "held: the set closed: nothing open");
	/* Short of descriptors: the next one given is less than CR_DBG_FD_SPARE below the limit. */
	unlink(mc.path);
	plain_image(&ic, "c");
	write_file("c", &ic);
	next = dup(0);
	close(next);
	getrlimit(RLIMIT_NOFILE, &lim);
	low = lim;
	low.rlim_cur = (rlim_t)next + CR_DBG_FD_SPARE / 2;
	if (next < 0 || setrlimit(RLIMIT_NOFILE, &low) < 0) {
		tap_ok(0, "held: short of descriptors (setrlimit)");
	} else {
		cr_dbgset_init(&set);
		a = cr_dbg_image(&set, &ma);
		b = cr_dbg_image(&set, &mb);
		tap_ok(a && b && str_is(&a->src.str, "str of a") && fds_on(ma.path) == 1,
		       "held: short of descriptors: A's file open after a read");
		tap_ok(b && str_is(&b->src.str, "str of b") && fds_on(mb.path) == 1 &&
			       fds_on(ma.path) == 0,
		       "held: short of descriptors: B read: B's file open, A's closed");
		tap_ok(a && str_is(&a->src.str, "str of a") && fds_on(ma.path) == 1 &&
			       fds_on(mb.path) == 0,
		       "held: short of descriptors: A again: A's open, B's closed");
		cr_dbgset_close(&set);
		tap_ok(fds_on(ma.path) == 0 && fds_on(mb.path) == 0,
		       "held: short of descriptors: the set closed: nothing open");
		setrlimit(RLIMIT_NOFILE, &lim);
	}
	unlink(ma.path);
	unlink(mb.path);
	unlink(mc.path);
	rmdir(dir);
}

/*
 * A zlib stream of n bytes of "abcd" repeated (n >= 4): one fixed Huffman
 * block (RFC 1951 3.2.6) of the four literals, matches of length 258 at
 * distance 4, and literals for the rest.  Its length, or 0 if it does not fit
 * in cap.
 */
struct zbits {
	uint8_t *p;
	size_t cap, bit;
};

static void zput(struct zbits *z, unsigned v, unsigned n)	/* LSB first (3.1.1) */
{
	for (unsigned i = 0; i < n; i++, z->bit++)
		if (z->bit / 8 < z->cap && (v >> i & 1))
			z->p[z->bit / 8] |= (uint8_t)(1u << z->bit % 8);
}

static void zcode(struct zbits *z, unsigned code, unsigned len)	/* MSB first */
{
	for (unsigned i = len; i-- > 0;)
		zput(z, code >> i & 1, 1);
}

static size_t abcd_z(uint8_t *out, size_t cap, size_t n)
{
	struct zbits z = { out, cap, 16 };
	uint32_t a = 1, b = 0;
	size_t done = 0;

	memset(out, 0, cap);
	out[0] = 0x78;	/* deflate, 32 KiB window; 0x7801 % 31 == 0 */
	out[1] = 0x01;
	zput(&z, 1, 1);	/* BFINAL */
	zput(&z, 1, 2);	/* BTYPE 01: fixed codes */
	for (; done < 4; done++)
		zcode(&z, 0x30 + (unsigned)"abcd"[done], 8);	/* literals 0-143: 8 bits from 0x30 */
	for (; n - done >= 258 + 3 || n - done == 258; done += 258) {
		zcode(&z, 0xc0 + 5, 8);	/* length 258: symbol 285, 8 bits from 0xc0 for 280-287 */
		zcode(&z, 3, 5);	/* distance code 3: distance 4 */
	}
	for (; done < n; done++)
		zcode(&z, 0x30 + (unsigned)"abcd"[done % 4], 8);
	zcode(&z, 0, 7);	/* end of block: symbol 256, 7 bits from 0 */
	z.bit = (z.bit + 7) & ~(size_t)7;
	for (size_t i = 0; i < n; i++) {
		a = (a + (uint8_t)"abcd"[i % 4]) % 65521;
		b = (b + a) % 65521;
	}
	zput(&z, (b >> 8 & 0xff) | (b & 0xff) << 8, 16);	/* Adler-32, MSB first */
	zput(&z, (a >> 8 & 0xff) | (a & 0xff) << 8, 16);
	return z.bit / 8 <= cap ? z.bit / 8 : 0;
}

/*
 * A cursor's view of a compressed section asks no further than the
 * section's view_max: the lookup inflates about what it reads, not up to
 * the end of the next page (cursor.c, debuginfo.c).
 */
static void t_zview(void)
{
	static struct cr_dbgset set;
	const struct cr_dbgimage *im;
	uint8_t sec[24 + 240];
	uint32_t type = ELFCOMPRESS_ZLIB;
	uint64_t size = 16384;
	struct cr_module mod;
	struct cr_cursor c;
	struct img dbg;
	size_t zn = abcd_z(sec + 24, sizeof(sec) - 24, (size_t)size);

	if (!mkdtemp(strcpy(dir, "/tmp/t-debuginfo-XXXXXX")))
		return;
	memset(sec, 0, 24);
	memcpy(sec, &type, 4);
	memcpy(sec + 8, &size, 8);
	start(&dbg);
	add_note(&dbg, build_id, sizeof(build_id));
	add_sect(&dbg, ".text", SHT_NOBITS, SHF_ALLOC | SHF_EXECINSTR, "", 4096);
	add_sect(&dbg, ".debug_info", SHT_PROGBITS, 0, "INFO", 4);
	add_sect(&dbg, ".debug_abbrev", SHT_PROGBITS, 0, "AB", 2);
	add_sect(&dbg, ".debug_str", SHT_PROGBITS, SHF_COMPRESSED, sec, 24 + zn);
	add_sect(&dbg, ".debug_line", SHT_PROGBITS, 0, "L", 1);	/* an image needs one */
	finish(&dbg);
	write_file("prog", &dbg);
	module(&mod, "prog", 1);
	mod.lo = 0x1000;
	cr_dbgset_init(&set);
	im = cr_dbg_image(&set, &mod);
	tap_ok(zn > 0 && im != NULL, "zview: an image with 16 KiB of .debug_str in 240 bytes");
	if (zn && im) {
		const struct cr_mem *m = im->src.str.mem;
		const struct cr_inflate_lazy *z = &im->lazy[CR_DS_STR];

		tap_ok(m->view_max > 0 && m->view_max <= 4096 && im->file.view_max == 0,
		       "zview: a compressed section's views are bounded, the file's are not");
		cr_cursor_init(&c, m, 0, size);
		cr_skip(&c, 5000);
		tap_ok(cr_u32(&c) == 0x64636261 && c.err == 0, "zview: a u32 at 5000 reads \"abcd\"");
		tap_ok(z->n >= 5004 && z->n <= 5004 + m->view_max + 258,
		       "zview: inflated up to the view, not the next page's end (8192)");
		/* The same read without the bound: the view runs to 16384. */
		((struct cr_mem *)(uintptr_t)m)->view_max = 0;
		cr_cursor_init(&c, m, 0, size);
		cr_skip(&c, 12000);
		tap_ok(cr_u32(&c) == 0x64636261 && z->n == size,
		       "zview: unbounded, the view runs to the end of the next page");
		cr_cursor_init(&c, m, size - 4, size);
		tap_ok(cr_u32(&c) == 0x64636261 && c.err == 0 && z->state == 1,
		       "zview: the last u32; the stream's end and Adler-32 checked");
	}
	cr_dbgset_close(&set);
	unlink(mod.path);
	rmdir(dir);
}

int main(void)
{
	t_crc();
	t_elf();
	t_find();
	t_image();
	t_held();
	t_zview();
	return tap_done();
}
