/* SPDX-License-Identifier: MIT */
#ifndef XW_WORKLOAD_H
#define XW_WORKLOAD_H
#ifdef __cplusplus
extern "C" {
#endif
unsigned long xw_run(unsigned long iters);
unsigned long xw_recurse(unsigned long depth, unsigned long n);
#ifdef __cplusplus
}
#endif
#endif
