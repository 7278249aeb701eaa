/* SPDX-License-Identifier: MIT */
/*
 * Test driver for inflate.c (tests/unit/run-inflate.sh):
 *   inflate-cli FILE           inflate FILE, a zlib stream, to stdout
 *   inflate-cli -s NAME FILE   inflate FILE's SHF_COMPRESSED section NAME to stdout
 *   inflate-cli -l FILE        list FILE's SHF_COMPRESSED sections, one a line
 * Exit status 0, or 1 with the library's error code on stderr.
 */
#include "elfsect.h"
#include "inflate.h"

static struct cr_inflate st;

static int write_out(const uint8_t *p, size_t n)
{
	return fwrite(p, 1, n, stdout) == n && fflush(stdout) == 0 ? 0 : 1;
}

/* A raw zlib stream: the output grows until it fits. */
static int zlib_file(const char *path)
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
		ret = cr_inflate_zlib(&st, in, n, out, cap, &got);
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

int main(int argc, char **argv)
{
	static struct elf_file f;	/* reachable until exit (LeakSanitizer) */
	static uint8_t *out;
	const Elf64_Shdr *s;
	struct cr_chdr ch;
	size_t got;
	int ret;

	if (argc == 2)
		return zlib_file(argv[1]);
	if (argc == 3 && strcmp(argv[1], "-l") == 0) {
		if (elf_load(&f, argv[2]) < 0)
			return 1;
		for (unsigned i = 0; i < f.shnum; i++)
			if (f.sh[i].sh_flags & SHF_COMPRESSED)
				printf("%s\n", elf_name(&f, &f.sh[i]));
		return 0;
	}
	if (argc != 4 || strcmp(argv[1], "-s") != 0) {
		fprintf(stderr, "usage: inflate-cli [-l | -s SECTION] FILE\n");
		return 2;
	}
	if (elf_load(&f, argv[3]) < 0)
		return 1;
	if (!(s = elf_section(&f, argv[2])) || !(s->sh_flags & SHF_COMPRESSED)) {
		fprintf(stderr, "%s: no compressed section %s\n", argv[3], argv[2]);
		return 1;
	}
	if ((ret = cr_chdr_parse(f.data + s->sh_offset, s->sh_size, &ch)) < 0) {
		fprintf(stderr, "%s: bad Elf64_Chdr: %d\n", argv[2], ret);
		return 1;
	}
	out = malloc(ch.size + 1);
	ret = cr_inflate_section(&st, f.data + s->sh_offset, s->sh_size, out, ch.size, &got);
	if (ret < 0) {
		fprintf(stderr, "%s: error %d\n", argv[2], ret);
		return 1;
	}
	return write_out(out, got);
}
