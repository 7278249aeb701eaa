#!/bin/bash
# unzstd.c against zstd: frames that the zstd CLI writes (levels, strategies,
# window sizes, long mode, several inputs, frames one after another) and the
# SHF_COMPRESSED debug sections that objcopy --compress-debug-sections=zstd
# writes, each compared byte for byte with its original (objcopy
# --decompress-debug-sections).  Skipped, with the reason, without zstd,
# python3 or an objcopy that writes zstd.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
CLI="$top_builddir/tests/unit/unzstd-cli"
OBJCOPY=${OBJCOPY:-objcopy}

# Inputs: text, machine code, zeros (RLE blocks), random bytes (raw blocks),
# a short string, nothing, runs of two letters, a block of ~32K sequences of
# 4 bytes (a 3-byte Number_of_Sequences), a 1000-byte text then its pieces
# each followed by 'z'.
if ! command -v zstd >/dev/null || ! command -v python3 >/dev/null; then
	skip "zstd frames" "no zstd or no python3"
else
	python3 - "$TMPD" "$top_srcdir/libcrash/unzstd.c" "$CLI" <<'PY'
import os, random, sys
tmp, text, binary = sys.argv[1:4]
rnd = random.Random(8878)
t = bytes(rnd.choice(b"abcdefghijklmnopqrstuvwxy") for _ in range(1000))
pieces = bytearray()
while len(pieces) < 200000:
    o = rnd.randrange(990)
    pieces += t[o:o + rnd.randint(3, 6)] + bytes([rnd.randrange(256)])
inputs = {
    "text": open(text, "rb").read(),
    "binary": open(binary, "rb").read()[:400000],
    "zeros": bytes(300000),
    "random": bytes(rnd.getrandbits(8) for _ in range(70000)),
    "short": b"a",
    "none": b"",
    "mixed": b"".join(bytes(rnd.choice(b"ab")) * rnd.randint(1, 300) for _ in range(2000)),
    "pieces": t + bytes(pieces),
}
for name, data in inputs.items():
    open(os.path.join(tmp, name), "wb").write(data)
PY
	for f in text binary zeros random short none mixed pieces; do
		for opt in -1 -3 -9 -19 "--ultra -22" --fast=5 "-3 --long=24" "-5 --zstd=wlog=10" \
			"-1 --zstd=wlog=10" "--no-check -6" "-12 --zstd=strategy=1" \
			"-19 --zstd=strategy=9,mml=3"; do
			z=$TMPD/$f.$(echo "$opt" | tr -c 'a-z0-9' _).zst
			zstd -q -f $opt "$TMPD/$f" -o "$z" 2>/dev/null || continue
			if $RUN "$CLI" "$z" >"$TMPD/out" 2>"$TMPD/err" &&
				cmp -s "$TMPD/out" "$TMPD/$f"; then
				ok 0 "zstd $opt $f"
			else
				ok 1 "zstd $opt $f"
				sed 's/^/#   /' "$TMPD/err"
			fi
		done
	done
	# Frames one after another, from a pipe (no content size), with a skippable frame.
	zstd -q -c -19 <"$TMPD/text" >"$TMPD/cat.zst"
	printf '\x50\x2a\x4d\x18\x02\x00\x00\x00hi' >>"$TMPD/cat.zst"
	zstd -q -c -1 <"$TMPD/binary" >>"$TMPD/cat.zst"
	cat "$TMPD/text" "$TMPD/binary" >"$TMPD/cat"
	$RUN "$CLI" "$TMPD/cat.zst" >"$TMPD/out" 2>"$TMPD/err" && cmp -s "$TMPD/out" "$TMPD/cat"
	ok $? "frames one after another, a skippable frame between them"
fi

# Debug sections compressed by objcopy, against the same sections decompressed by objcopy.
elf_sections() { # NAME FILE
	local f=$2 n=0 bad=0 s
	if ! "$OBJCOPY" --compress-debug-sections=zstd "$f" "$TMPD/c.elf" 2>"$TMPD/err" ||
		! "$OBJCOPY" --decompress-debug-sections "$TMPD/c.elf" "$TMPD/d.elf" \
			2>>"$TMPD/err"; then
		skip "$1: zstd-compressed debug sections" \
			"$OBJCOPY cannot rewrite it ($(head -1 "$TMPD/err"))"
		return
	fi
	for s in $($RUN "$CLI" -l "$TMPD/c.elf"); do
		n=$((n + 1))
		rm -f "$TMPD/want"
		if ! $RUN "$CLI" -s "$s" "$TMPD/c.elf" >"$TMPD/got" 2>"$TMPD/err" ||
			! "$OBJCOPY" --dump-section "$s=$TMPD/want" "$TMPD/d.elf" \
				"$TMPD/scratch.elf" ||
			! cmp -s "$TMPD/got" "$TMPD/want"; then
			bad=$((bad + 1))
			echo "#   $1: $s differs: $(head -1 "$TMPD/err")"
		fi
	done
	if [ "$n" = 0 ]; then
		skip "$1: zstd-compressed debug sections" "no debug sections (built without -g)"
	else
		ok $((bad != 0)) "$1: $n zstd-compressed debug sections, each as objcopy decompresses it"
	fi
}
if ! command -v "$OBJCOPY" >/dev/null; then
	skip "zstd-compressed debug sections" "no $OBJCOPY"
else
	elf_sections unzstd-cli "$CLI"
	elf_sections libcrash.so "$LIBCRASH"
fi
done_testing
