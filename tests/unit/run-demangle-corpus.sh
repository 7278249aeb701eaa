#!/bin/bash
# cr_demangle against GNU c++filt, name by name (tests/unit/demangle-cli): every C++
# symbol libstdc++.so.6 defines, those of demo/crashcxx and tests/unit/demangle-corpus
# (lambdas, local names, clones, ABI tags as the compiler emits them), and those of the
# largest C++ library of the system among a few well-known ones (libLLVM, libclang-cpp,
# boost), when there is one.  One TAP line per corpus with its agreement figure; a
# difference fails it and the first ones are listed.  Under an emulator ($RUN) the
# driver runs there, c++filt natively.
#
# Named exceptions, counted apart, each where cr_demangle does more than c++filt:
#   long  c++filt (binutils 2.40) declines mangled names longer than 1024 bytes (a
#         stack guard, binutils PR 87675) and prints them as they are; cr_demangle
#         demangles them up to CR_DEMANGLE_MAXLEN.
#   rust  a Rust legacy name (_ZN...17h<hash>E) in a C++ library: c++filt prints the
#         hash, cr_demangle drops it as Rust's own backtraces do.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
CLI="$top_builddir/tests/unit/demangle-cli$EXEEXT"
NM=${NM:-nm}

if ! command -v c++filt >/dev/null 2>&1; then
	skip "demangle corpus" "c++filt not installed (Debian: binutils)"
	done_testing
	exit
fi
if ! command -v "$NM" >/dev/null 2>&1 && ! command -v nm >/dev/null 2>&1; then
	skip "demangle corpus" "nm not installed (Debian: binutils)"
	done_testing
	exit
fi

# nm FILE [-D]: the _Z names it defines, once each, without symbol versions.
names() {
	local f=$1 dyn=$2 out
	# A cross nm may not read the host's libraries: then the host's.
	out=$($NM ${dyn:+"$dyn"} --defined-only "$f" 2>/dev/null) ||
		out=$(nm ${dyn:+"$dyn"} --defined-only "$f" 2>/dev/null)
	awk '{ print $NF }' <<<"$out" | sed 's/@.*//' | grep '^_Z' | sort -u
}

# compare NAME FILE: one TAP line for the names in FILE.
compare() {
	local what=$1 list=$2 total agree long rust diff msg
	total=$(wc -l <"$list")
	if [ "$total" = 0 ]; then
		skip "demangle corpus $what" "no C++ names found"
		return
	fi
	$RUN "$CLI" <"$list" >"$TMPD/mine" 2>"$TMPD/err"
	c++filt <"$list" >"$TMPD/ref"
	paste -d '\t' "$list" "$TMPD/ref" "$TMPD/mine" | awk -F '\t' -v d="$TMPD/diff" '
		$2 == $3 { agree++; next }
		length($1) > 1024 && $2 == $1 && $3 != $1 { long++; next }
		$2 ~ /::h[0-9a-f]+$/ && substr($2, 1, length($2) - 19) == $3 { rust++; next }
		{ print > d }
		END { printf "%d %d %d\n", agree, long, rust }' >"$TMPD/counts"
	read -r agree long rust <"$TMPD/counts"
	diff=$((total - agree - long - rust))
	msg="$agree of $total names as c++filt, $long long, $rust rust (named exceptions)"
	ok "$diff" "demangle corpus $what: $msg"
	if [ "$diff" != 0 ]; then
		echo "#   $diff differ; the first ones (name, c++filt, cr_demangle):"
		head -5 "$TMPD/diff" | tr '\t' '\n' | sed 's/^/#     /'
		rm -f "$TMPD/diff"
	fi
}

# libstdc++: the compiler's, else the usual places.
lib=
for f in $(c++ -print-file-name=libstdc++.so.6 2>/dev/null) /usr/lib/*-linux-gnu*/libstdc++.so.6 \
	/usr/lib64/libstdc++.so.6 /usr/lib/libstdc++.so.6 /lib/*-linux-gnu*/libstdc++.so.6; do
	if [ -e "$f" ] && [ "${f#/}" != "$f" ]; then
		lib=$f
		break
	fi
done
if [ -n "$lib" ]; then
	names "$lib" -D >"$TMPD/libstdc++"
	compare "libstdc++" "$TMPD/libstdc++"
else
	skip "demangle corpus libstdc++" "libstdc++.so.6 not found"
fi

# The programs built here.
for p in demo/crashcxx tests/unit/demangle-corpus; do
	if [ -e "$top_builddir/$p$EXEEXT" ]; then
		names "$top_builddir/$p$EXEEXT" >"$TMPD/prog"
		compare "${p##*/}" "$TMPD/prog"
	else
		skip "demangle corpus ${p##*/}" "$p not built"
	fi
done

# The largest of a few big C++ libraries, if any is installed.
big=$(ls -1SL /usr/lib/*-linux-gnu*/libLLVM*.so* /usr/lib/llvm-*/lib/libLLVM*.so* \
	/usr/lib/*-linux-gnu*/libclang-cpp.so* /usr/lib/*-linux-gnu*/libboost_*.so* \
	/usr/lib64/libLLVM*.so* /usr/lib64/libboost_*.so* 2>/dev/null | head -1)
if [ -n "$big" ]; then
	names "$big" -D >"$TMPD/big"
	compare "${big##*/}" "$TMPD/big"
else
	skip "demangle corpus large library" "no libLLVM, libclang-cpp or boost library installed"
fi
done_testing
