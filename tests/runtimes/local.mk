# Real runtimes (JVM, Node.js, Rust, Python) with and without libcrash (issue 14).
# Each runtime runs its programs with and without LD_PRELOAD=libcrash.so and compares;
# the sources are compiled at test time (javac, rustc, cc against node_api.h).
TESTS += tests/runtimes/run-runtimes.sh
EXTRA_DIST += tests/runtimes/run-runtimes.sh tests/runtimes/JvmCrash.java \
	tests/runtimes/JvmTraps.java tests/runtimes/wasm-traps.js tests/runtimes/addon-crash.c \
	tests/runtimes/addon-crash.js tests/runtimes/overflow.rs
