/* SPDX-License-Identifier: MIT */
#ifndef XC_CALLSITES_H
#define XC_CALLSITES_H
enum xc_site {
	XC_REC_DOWN, XC_REC_UP, XC_ALLOCA, XC_VARARGS, XC_BIG, XC_LIVE, XC_QSORT, XC_PTR,
	XC_RUN, XC_NSITES
};
void xc_probe(enum xc_site site);	/* glibccheck.c */
unsigned long xc_run(unsigned rounds);	/* callsites.c */
#endif
