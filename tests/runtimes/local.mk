# Real runtimes (JVM, Node.js, Rust, Python) with and without libcrash (issue 14).
