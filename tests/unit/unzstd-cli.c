/* SPDX-License-Identifier: MIT */
/*
 * Test driver for unzstd.c (tests/unit/run-unzstd.sh):
 *   unzstd-cli FILE           decode FILE, Zstandard frames, to stdout
 *   unzstd-cli -s NAME FILE   decode FILE's SHF_COMPRESSED (ELFCOMPRESS_ZSTD) section NAME
 *                             to stdout, once whole and once lazily in 4 KiB steps,
 *                             which must agree
 *   unzstd-cli -l FILE        list FILE's SHF_COMPRESSED sections, one a line
 * Exit status 0, or 1 with the library's error code on stderr.
 */
#include "elfsect.h"
#include "inflate.h"
#include "unzstd.h"

static struct cr_unzstd st;

static int write_out(const uint8_t *p, size_t n)
{
	return fwrite(p, 1, n, stdout) == n && fflush(stdout) == 0 ? 0 : 1;
}

/* Zstandard frames: the output grows until it fits. */
static int zstd_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *in = NULL, *out = NULL;
	size_t n = 0, cap = 1 << 16, got;
	int ret;

	if (!fp) {
		perror(path);
		return 1;
	}
	for (size_t r = 1; r;) {
		in = realloc(in, n + 65536);
		r = fread(in + n, 1, 65536, fp);
		n += r;
	}
	fclose(fp);
	for (;;) {
		out = realloc(out, cap);
		ret = cr_unzstd(&st, in, n, out, cap, &got);
		if (ret != -CR_ERANGE)
			break;
		cap *= 2;
	}
	free(in);
	if (ret < 0) {
		fprintf(stderr, "%s: error %d\n", path, ret);
		free(out);
		return 1;
	}
	ret = write_out(out, got);
	free(out);
	return ret;
}

/* The section whole, then lazily; 0 or an error code. */
static int section(const uint8_t *sec, size_t len, uint8_t **outp, size_t *got)
{
	struct cr_unzstd_lazy z;
	struct cr_chdr ch;
	uint8_t *lazy;
	int ret;

	if ((ret = cr_chdr_parse(sec, len, &ch)) < 0)
		return ret;
	if (ch.type != CR_ELFCOMPRESS_ZSTD)
		return -CR_ENOSYS;
	*outp = malloc(ch.size + 1);
	lazy = malloc(ch.size + 1);
	ret = cr_unzstd(&st, sec + ch.data, len - ch.data, *outp, ch.size, got);
	if (ret == 0 && *got != ch.size)
		ret = -CR_EINVAL;
	if (ret == 0 && (ret = cr_unzstd_lazy_init(&z, sec + ch.data, len - ch.data, lazy,
						   ch.size)) == 0) {
		for (size_t w = 4096; ret == 0 && z.state == 0; w += 4096)
			ret = cr_unzstd_lazy_more(&st, &z, w);
		if (ret == 0 && memcmp(lazy, *outp, ch.size) != 0)
			ret = -CR_EINVAL;
	}
	free(lazy);
	return ret;
}

int main(int argc, char **argv)
{
	static struct elf_file f;	/* reachable until exit (LeakSanitizer) */
	static uint8_t *out;
	const Elf64_Shdr *s;
	size_t got;
	int ret;

	if (argc == 2)
		return zstd_file(argv[1]);
	if (argc == 3 && strcmp(argv[1], "-l") == 0) {
		if (elf_load(&f, argv[2]) < 0)
			return 1;
		for (unsigned i = 0; i < f.shnum; i++)
			if (f.sh[i].sh_flags & SHF_COMPRESSED)
				printf("%s\n", elf_name(&f, &f.sh[i]));
		return 0;
	}
	if (argc != 4 || strcmp(argv[1], "-s") != 0) {
		fprintf(stderr, "usage: unzstd-cli [-l | -s SECTION] FILE\n");
		return 2;
	}
	if (elf_load(&f, argv[3]) < 0)
		return 1;
	if (!(s = elf_section(&f, argv[2])) || !(s->sh_flags & SHF_COMPRESSED)) {
		fprintf(stderr, "%s: no compressed section %s\n", argv[3], argv[2]);
		return 1;
	}
	if ((ret = section(f.data + s->sh_offset, s->sh_size, &out, &got)) < 0) {
		fprintf(stderr, "%s: error %d\n", argv[2], ret);
		return 1;
	}
	return write_out(out, got);
}
