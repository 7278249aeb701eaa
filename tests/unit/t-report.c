/* SPDX-License-Identifier: MIT */
/*
 * report.c's writer: frame lines and the backtrace line, from frames and a
 * made-up module (fakeproc.h: .dynsym in memory, no files), to the exact text
 * docs/report-format.md specifies.
 */
#include "../tap.h"
#include "crash.h"
#include "fakeproc.h"
#include "report.h"

static char text[4096];

static int find(const struct cr_mem *m, uint64_t pc, struct cr_module *out)
{
	(void)m;
	return fp_find_module(NULL, pc, out);
}

static void setup(void)
{
	static const uint8_t id[] = { 0xde, 0xad, 0xbe, 0xef };

	fp_reset();
	fp_sym("f", FP_CODE + 0x100, 0x40);
	fp_sym("g", FP_CODE + 0x200, 0x10);
	memcpy(fp_mod.build_id, id, sizeof(id));
	fp_mod.build_id_len = sizeof(id);
	strcpy(fp_mod.path, "/fake/mod.so");
}

/* The lines of frames f[0..n) as one backtrace prints them. */
static const char *lines(const struct cr_frame *f, unsigned n)
{
	struct cr_btlines bl = { .find_module = find };
	struct cr_out o;

	cr_out_mem(&o, text, sizeof(text));
	cr_symfiles_init(&bl.files);
	for (unsigned i = 0; i < n; i++)
		cr_report_frame(&o, &fp_mem, i, &f[i], &bl);
	cr_symfiles_close(&bl.files);
	cr_out_drain(&o);
	return text;
}

static void t_frames(void)
{
	const struct cr_frame f[] = {
		{ FP_CODE + 0x104, 0, CR_TAG_CTX, CR_FRAME_EXACT },
		{ FP_CODE + 0x20b, 0, CR_TAG_CFI, 0 },
		{ FP_CODE + 0x701, 0, CR_TAG_FP, 0 },
		{ FP_JIT + 0x11, 0, CR_TAG_SCAN, 0 },
		{ FP_CODE + 0x141, 0, CR_TAG_RA, 0 },
		{ FP_CODE + 0x100, 0, CR_TAG_SIG, CR_FRAME_EXACT },
	};

	setup();
	tap_is_str(lines(f, 6),
		   "      #00 pc 0000000000001104  /fake/mod.so (f+4) (BuildId: deadbeef) [ctx]\n"
		   "      #01 pc 000000000000120a  /fake/mod.so (g+10) [cfi]\n"
		   "      #02 pc 0000000000001700  /fake/mod.so [fp]\n"
		   "      #03 pc 0000000000900010  <unknown> [scan]\n"
		   "      #04 pc 0000000000001140  /fake/mod.so [ra]\n"
		   "      #05 pc 0000000000001100  /fake/mod.so (f+0) [sig]\n",
		   "frames: module-relative pcs (return addresses - 1), symbols that hold them, one "
		   "build-id, tags");

	const struct cr_frame noexec = { 0x12345, 0, CR_TAG_CTX, CR_FRAME_EXACT | CR_FRAME_NOEXEC };

	tap_is_str(lines(&noexec, 1),
		   "      #00 pc 0000000000012345  <not in any executable mapping> [ctx]\n",
		   "a pc in no executable mapping: as it is");

	struct cr_frame many[12];

	for (unsigned i = 0; i < 12; i++)
		many[i] = (struct cr_frame){ FP_CODE + 0x201 + i, 0, CR_TAG_FP, 0 };
	fp_mod.path[0] = 0;
	fp_mod.build_id_len = 0;
	lines(many, 12);
	tap_ok(strstr(text, "      #11 pc 000000000000120b  <anonymous> (g+11) [fp]\n") != NULL,
	       "frame #11, a module without a path or build-id");

	/* Without the backtrace's state: the process's own modules. */
	struct cr_out o;

	setup();
	cr_out_mem(&o, text, sizeof(text));
	cr_report_frame(&o, &fp_mem, 0, &f[0], NULL);
	cr_out_drain(&o);
	tap_is_str(text, "      #00 pc 0000000000401104  <unknown> [ctx]\n",
		   "no state: the process's own module lookup (nothing at a made-up pc)");
}

static const char *head(const char *engine, unsigned n, unsigned stop, uint64_t addr,
			unsigned unconfirmed)
{
	struct cr_policy p = { .name = engine };
	struct cr_trace t = { .n = n, .stop = (uint8_t)stop, .stop_addr = addr,
			      .unconfirmed = unconfirmed };
	struct cr_out o;

	cr_out_mem(&o, text, sizeof(text));
	cr_report_head(&o, &p, &t);
	cr_out_drain(&o);
	return text;
}

static void t_head(void)
{
	tap_is_str(head("auto", 8, CR_STOP_COMPLETE, 0x1234, 0),
		   "backtrace: 8 frames, engine auto, complete\n", "complete");
	tap_is_str(head("scan", 3, CR_STOP_COMPLETE, 0, 2),
		   "backtrace: 3 frames, engine scan, complete (unconfirmed scan frames)\n",
		   "complete with unconfirmed scan frames");
	tap_is_str(head("fp", 1, CR_STOP_MAXFRAMES, 0x1234, 0),
		   "backtrace: 1 frame, engine fp, truncated: frame limit\n",
		   "one frame, the frame limit (no address)");
	tap_is_str(head("cfi", 2, CR_STOP_NOINFO, 0x401000, 0),
		   "backtrace: 2 frames, engine cfi, truncated: no unwind info for pc "
		   "0x0000000000401000\n",
		   "no unwind info, and the pc");
	tap_is_str(head("cfi", 2, CR_STOP_BADMEM, 0x7ffd00000007ull, 0),
		   "backtrace: 2 frames, engine cfi, truncated: invalid memory at 0x00007ffd00000007\n",
		   "invalid memory, and its address");
	tap_is_str(head("fp", 4, CR_STOP_SP_BACKWARDS, 0x10, 0),
		   "backtrace: 4 frames, engine fp, truncated: stack pointer went backwards at "
		   "0x0000000000000010\n",
		   "sp backwards");
	tap_is_str(head("fp", 4, CR_STOP_LOOP, 0x20, 0),
		   "backtrace: 4 frames, engine fp, truncated: loop at 0x0000000000000020\n", "loop");
	tap_is_str(head("fp", 4, CR_STOP_BADPC, 0, 0),
		   "backtrace: 4 frames, engine fp, truncated: bad return address 0x0000000000000000\n",
		   "bad return address");
	tap_is_str(head("fp", 4, CR_STOP_BADSP, 0x30, 0),
		   "backtrace: 4 frames, engine fp, truncated: stack pointer left the stack at "
		   "0x0000000000000030\n",
		   "sp left the stack");
	tap_is_str(head("scan", 4, CR_STOP_NOSTART, 0x401234, 1),
		   "backtrace: 4 frames, engine scan, truncated: no function start for pc "
		   "0x0000000000401234\n",
		   "no function start (unconfirmed frames said only when complete)");
}

int main(void)
{
	t_frames();
	t_head();
	return tap_done();
}
