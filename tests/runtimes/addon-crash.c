/* SPDX-License-Identifier: MIT */
/*
 * A Node-API addon whose crash() writes through a NULL pointer: a crash in
 * native code, not in V8's wasm memory, so Node's SIGSEGV handler does not
 * recover from it.  Built by run-runtimes.sh at test time.
 */
#include <node_api.h>

/* Read at run time, so that the compiler cannot see the NULL and emit a trap. */
int *volatile crash_target;

static napi_value crash(napi_env env, napi_callback_info info)
{
	(void)env;
	(void)info;
	*crash_target = 42;
	return NULL;
}

NAPI_MODULE_INIT()
{
	napi_value fn;

	if (napi_create_function(env, "crash", NAPI_AUTO_LENGTH, crash, NULL, &fn) != napi_ok ||
	    napi_set_named_property(env, exports, "crash", fn) != napi_ok)
		return NULL;
	return exports;
}
