/* SPDX-License-Identifier: MIT */
/*
 * For the unit tests that check a decoder against another on real tables:
 * every FDE of every loaded object whose .eh_frame_hdr has the searchable
 * table (version 1, datarel|sdata4 entries), decoded with cr_mem_self.
 */
#ifndef CR_TEST_LOADEDFDE_H
#define CR_TEST_LOADEDFDE_H

#include <link.h>
#include <string.h>

#include "cfi/cfi.h"

/* fde of the object whose tables src describes (as the loader maps them:
   its hdr and length, no .eh_frame bound, the hdr as the data base, and a
   module key of its own for the CIE memo). */
typedef void loaded_fde_fn(const struct cr_ehsrc *src, const struct cr_fde *fde, void *arg);

struct loaded_fde_walk {
	loaded_fde_fn *fn;
	void *arg;
};

static int loaded_fde_obj(struct dl_phdr_info *info, size_t size, void *arg)
{
	const struct loaded_fde_walk *w = arg;

	(void)size;
	for (unsigned i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		struct cr_ehsrc src;
		uint32_t hdr[3];

		if (ph->p_type != PT_GNU_EH_FRAME)
			continue;
		memset(&src, 0, sizeof(src));
		src.eh_hdr = info->dlpi_addr + ph->p_vaddr;
		src.eh_hdr_len = ph->p_memsz;
		src.eh_frame_end = UINT64_MAX;
		src.bases.data = src.eh_hdr;
		src.modkey = src.eh_hdr << 1 | 1;
		/* version 1, table_enc datarel|sdata4: entries (initial loc, fde) */
		memcpy(hdr, (void *)(uintptr_t)src.eh_hdr, sizeof(hdr));
		if ((hdr[0] & 0xff) != 1 || ((hdr[0] >> 24) & 0xff) != 0x3b)
			continue;
		const int32_t *tab = (const int32_t *)(uintptr_t)(src.eh_hdr + 12);
		for (uint32_t k = 0; k < hdr[2]; k++) {
			struct cr_fde fde;

			if (cr_eh_parse_fde(&cr_mem_self, &src, src.eh_hdr + (int64_t)tab[2 * k + 1],
					    &fde) == 0)
				w->fn(&src, &fde, w->arg);
		}
	}
	return 0;
}

static inline void each_loaded_fde(loaded_fde_fn *fn, void *arg)
{
	struct loaded_fde_walk w = { fn, arg };

	dl_iterate_phdr(loaded_fde_obj, &w);
}

#endif
