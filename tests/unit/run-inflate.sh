#!/bin/bash
# inflate.c against zlib: streams that python3's zlib module writes (levels,
# strategies, window sizes, several inputs) and the SHF_COMPRESSED debug
# sections that objcopy --compress-debug-sections=zlib writes, each compared
# byte for byte with its original.  Skipped, with the reason, without python3
# or objcopy.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
CLI="$top_builddir/tests/unit/inflate-cli"
OBJCOPY=${OBJCOPY:-objcopy}

# Inputs: text, machine code, zeros (long runs), random bytes (stored blocks),
# a short string, nothing at all.
if ! python3 -c 'import zlib' 2>/dev/null; then
	skip "zlib streams" "no python3 with zlib"
else
	python3 - "$TMPD" "$top_srcdir/libcrash/inflate.c" "$CLI" <<'PY'
import os, random, sys, zlib
tmp, text, binary = sys.argv[1:4]
rnd = random.Random(1951)
inputs = {
    "text": open(text, "rb").read(),
    "binary": open(binary, "rb").read()[:200000],
    "zeros": bytes(100000),
    "random": bytes(rnd.getrandbits(8) for _ in range(70000)),
    "short": b"a",
    "none": b"",
    "mixed": b"".join(bytes(rnd.choice(b"ab")) * rnd.randint(1, 300) for _ in range(2000)),
}
S = {"default": zlib.Z_DEFAULT_STRATEGY, "filtered": zlib.Z_FILTERED,
     "huffman": zlib.Z_HUFFMAN_ONLY, "rle": zlib.Z_RLE, "fixed": zlib.Z_FIXED}
variants = [(0, "default", 15), (1, "default", 15), (6, "default", 15), (9, "default", 15),
            (9, "default", 9), (6, "default", 12), (6, "filtered", 15), (6, "huffman", 15),
            (6, "rle", 15), (9, "fixed", 15)]
for name, data in inputs.items():
    open(os.path.join(tmp, name), "wb").write(data)
    for level, strat, wbits in variants:
        o = zlib.compressobj(level, zlib.DEFLATED, wbits, 9, S[strat])
        z = o.compress(data) + o.flush()
        open(os.path.join(tmp, "%s.%d-%s-%d.z" % (name, level, strat, wbits)), "wb").write(z)
# One stream flushed into many blocks of every kind, in 997-byte steps.
o = zlib.compressobj(6)
z = b"".join(o.compress(inputs["binary"][i:i + 997]) + o.flush(zlib.Z_FULL_FLUSH if i % 3 else
             zlib.Z_SYNC_FLUSH) for i in range(0, len(inputs["binary"]), 997)) + o.flush()
open(os.path.join(tmp, "binary.flushed.z"), "wb").write(z)
PY
	for z in "$TMPD"/*.z; do
		name=${z##*/}
		orig=$TMPD/${name%%.*}
		if $RUN "$CLI" "$z" >"$TMPD/out" 2>"$TMPD/err" && cmp -s "$TMPD/out" "$orig"; then
			ok 0 "zlib stream ${name%.z}"
		else
			ok 1 "zlib stream ${name%.z}"
			sed 's/^/#   /' "$TMPD/err"
		fi
	done
fi

# Debug sections compressed by objcopy, against the same sections decompressed by objcopy.
elf_sections() { # NAME FILE
	local f=$2 n=0 bad=0 s
	if ! "$OBJCOPY" --compress-debug-sections=zlib "$f" "$TMPD/c.elf" 2>"$TMPD/err" ||
		! "$OBJCOPY" --decompress-debug-sections "$TMPD/c.elf" "$TMPD/d.elf" \
			2>>"$TMPD/err"; then
		skip "$1: compressed debug sections" \
			"$OBJCOPY cannot rewrite it ($(head -1 "$TMPD/err"))"
		return
	fi
	for s in $($RUN "$CLI" -l "$TMPD/c.elf"); do
		n=$((n + 1))
		rm -f "$TMPD/want"
		if ! $RUN "$CLI" -s "$s" "$TMPD/c.elf" >"$TMPD/got" ||
			! "$OBJCOPY" --dump-section "$s=$TMPD/want" "$TMPD/d.elf" \
				"$TMPD/scratch.elf" ||
			! cmp -s "$TMPD/got" "$TMPD/want"; then
			bad=$((bad + 1))
			echo "#   $1: $s differs"
		fi
	done
	if [ "$n" = 0 ]; then
		skip "$1: compressed debug sections" "no debug sections (built without -g)"
	else
		ok $((bad != 0)) "$1: $n compressed debug sections, each as objcopy decompresses it"
	fi
}
if ! command -v "$OBJCOPY" >/dev/null; then
	skip "compressed debug sections" "no $OBJCOPY"
else
	elf_sections inflate-cli "$CLI"
	elf_sections libcrash.so "$LIBCRASH"
fi
done_testing
