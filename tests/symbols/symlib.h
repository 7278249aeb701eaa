#ifndef SYMLIB_H
#define SYMLIB_H
#ifdef __cplusplus
extern "C" {
#endif
typedef int (*sym_cb)(int);
int sym_lib_apply(sym_cb cb, int v);
#ifdef __cplusplus
}
#endif
#endif
