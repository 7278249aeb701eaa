# `make bench`: builds the benchmark programs and prints README's tables.
if HAVE_LIBUNWIND
EXTRA_PROGRAMS = bench/bt bench/bt-nounw bench/chain bench/chain-nounw bench/latency bench/threads
bench_bt_SOURCES =
bench_bt_LDADD = bench/bt.o libcrash.la $(UNWIND_LIBS)
# -z now: the benchmark's own calls (strcmp, the entry points measured) are
# bound at start-up, so a first capture counts the unwinder, not the PLT.
bench_bt_LDFLAGS = -no-install -Wl,-z,now
bench_bt_DEPENDENCIES = bench/bt.o libcrash.la
bench_bt_nounw_SOURCES =
bench_bt_nounw_LDADD = bench/bt-nounw.o libcrash.la
bench_bt_nounw_LDFLAGS = -no-install -Wl,-z,now
bench_bt_nounw_DEPENDENCIES = bench/bt-nounw.o libcrash.la
# A chain of 128 distinct functions without frame pointers (issue 20):
# bench/gen-chain.sh writes it, bench/chain.c measures captures at its end.
bench_chain_SOURCES =
bench_chain_LDADD = bench/chain.o bench/chain-fns.o libcrash.la $(UNWIND_LIBS)
bench_chain_LDFLAGS = -no-install -Wl,-z,now
bench_chain_DEPENDENCIES = bench/chain.o bench/chain-fns.o libcrash.la
bench_chain_nounw_SOURCES =
bench_chain_nounw_LDADD = bench/chain-nounw.o bench/chain-fns.o libcrash.la -lgcc_s
bench_chain_nounw_LDFLAGS = -no-install -Wl,-z,now
bench_chain_nounw_DEPENDENCIES = bench/chain-nounw.o bench/chain-fns.o libcrash.la
bench_latency_SOURCES = bench/latency.c
bench_latency_LDADD =
# 16 threads in different system calls, one crashes (bench/threads.sh): -g -O2 whatever
# CFLAGS say, for file:line in the report.
bench_threads_SOURCES = bench/threads.c
bench_threads_CFLAGS = -g -O2 -pthread
bench_threads_LDADD = -lpthread
# The measured code: -O2, frame pointers and unwind tables, whatever CFLAGS say.
BENCH_CF = -g -O2 -fno-omit-frame-pointer -fasynchronous-unwind-tables -I$(srcdir)/include
bench/bt.o: $(srcdir)/bench/bt.c
	$(AM_V_CC)$(MKDIR_P) bench && $(CC) $(CFLAGS) $(BENCH_CF) -c -o $@ $<
bench/bt-nounw.o: $(srcdir)/bench/bt.c
	$(AM_V_CC)$(MKDIR_P) bench && $(CC) $(CFLAGS) $(BENCH_CF) -DBT_NO_LIBUNWIND -c -o $@ $<
# The chain: -O2 -fomit-frame-pointer with unwind tables, as distributions build.
CHAIN_CF = -O2 -fomit-frame-pointer -fasynchronous-unwind-tables -I$(srcdir)/include
bench/chain-fns.c: $(srcdir)/bench/gen-chain.sh
	$(AM_V_GEN)$(MKDIR_P) bench && $(SHELL) $(srcdir)/bench/gen-chain.sh 128 >$@
bench/chain-fns.o: bench/chain-fns.c
	$(AM_V_CC)$(CC) $(CFLAGS) $(CHAIN_CF) -c -o $@ bench/chain-fns.c
bench/chain.o: $(srcdir)/bench/chain.c
	$(AM_V_CC)$(MKDIR_P) bench && $(CC) $(CFLAGS) $(CHAIN_CF) -c -o $@ $<
bench/chain-nounw.o: $(srcdir)/bench/chain.c
	$(AM_V_CC)$(MKDIR_P) bench && $(CC) $(CFLAGS) $(CHAIN_CF) -DBT_NO_LIBUNWIND -c -o $@ $<
bench/refhandler.so: $(srcdir)/bench/refhandler.c
	$(AM_V_CC)$(MKDIR_P) bench && $(CC) $(CFLAGS) -O2 -fPIC -shared -o $@ $<
bench/empty.so:
	$(AM_V_CC)$(MKDIR_P) bench && echo 'int crash_bench_empty;' | $(CC) $(CFLAGS) -fPIC -shared -x c -o $@ -
bench: all bench/bt bench/bt-nounw bench/chain bench/chain-nounw bench/latency bench/threads \
	bench/refhandler.so bench/empty.so bench/engines-fp bench/engines-nofp bench/engines-noeh
	@top_builddir=$(builddir) CXX="$(CXX)" $(SHELL) $(srcdir)/bench/run.sh
# The symbolization cost alone (bench/symbols.sh, also the end of `make bench`):
# a generated C++ program of 51,000 functions, built in bench/symbols/ (~1 min,
# kept while the generator and the compiler are the same), in 8 translation
# units a module (the worst case), then in 150 (bench/symbols-150/).
bench-symbols: all bench/latency
	@top_builddir=$(builddir) CXX="$(CXX)" $(SHELL) $(srcdir)/bench/symbols.sh
	@top_builddir=$(builddir) CXX="$(CXX)" SYM_TUS=150 $(SHELL) $(srcdir)/bench/symbols.sh
# Crash latency of the whole report, 16 threads (bench/threads.sh, also in `make bench`).
bench-chain: all bench/chain bench/chain-nounw
	@top_builddir=$(builddir) $(SHELL) $(srcdir)/bench/chain.sh
bench-threads: all bench/latency bench/threads bench/refhandler.so
	@top_builddir=$(builddir) $(SHELL) $(srcdir)/bench/threads.sh
else
bench bench-symbols bench-threads bench-chain bench-engines:
	@echo "make bench needs libunwind (libunwind-dev) for its references" >&2; exit 1
endif
# The fp and scan engines per frame (bench/engines.sh, issue 20): one chain of
# 128 distinct functions, with frame pointers, without, and without frame
# pointers or unwind tables (the scan engine's case).
ENGINES_CF = -g -O2 -I$(srcdir)/include
ENGINES_LD = -Wl,-z,now -Wl,-rpath,$(abs_builddir)/.libs -L.libs -lcrash
bench/engines-fp: $(srcdir)/bench/engines.c libcrash.la
	$(AM_V_CC)$(MKDIR_P) bench && $(CC) $(CFLAGS) $(ENGINES_CF) -fno-omit-frame-pointer \
		-o $@ $< $(ENGINES_LD)
bench/engines-nofp: $(srcdir)/bench/engines.c libcrash.la
	$(AM_V_CC)$(MKDIR_P) bench && $(CC) $(CFLAGS) $(ENGINES_CF) -fomit-frame-pointer \
		-o $@ $< $(ENGINES_LD)
bench/engines-noeh: $(srcdir)/bench/engines.c libcrash.la
	$(AM_V_CC)$(MKDIR_P) bench && $(CC) $(CFLAGS) $(ENGINES_CF) -fomit-frame-pointer \
		-fno-asynchronous-unwind-tables -fno-unwind-tables -o $@ $< $(ENGINES_LD)
bench-engines: all bench/engines-fp bench/engines-nofp bench/engines-noeh
	@top_builddir=$(builddir) $(SHELL) $(srcdir)/bench/engines.sh
CLEANFILES += bench/engines-fp bench/engines-nofp bench/engines-noeh
EXTRA_DIST += bench/engines.c bench/engines.sh
CLEANFILES += bench/*.o bench/refhandler.so bench/empty.so bench/bt bench/bt-nounw bench/latency \
	bench/threads bench/chain bench/chain-nounw bench/chain-fns.c
EXTRA_DIST += bench/run.sh bench/bt.c bench/chain.c bench/gen-chain.sh bench/chain.sh bench/latency.c bench/refhandler.c bench/symbols.sh \
	bench/gen-symbols.sh bench/threads.sh
clean-local: clean-bench-symbols
clean-bench-symbols:
	-rm -rf bench/symbols bench/symbols-*
.PHONY: bench bench-symbols bench-threads bench-chain bench-engines clean-bench-symbols
