# tests/symbols/symcheck.sh: the reference side of tests/symbols/run-symbols.sh, sourced
# after tests/lib.sh.  It parses a report's frame lines, finds the file binutils must read for
# each module (the module, or its separate debug file, found as libcrash is specified to find
# it), asks `addr2line -a -f -i -C` and `nm -S` about every printed pc, and prints one TAP line
# per frame line of the report (docs/report-format.md, issue 17).
#
# Needs: A2L, NMT, READELF, OBJCOPY (binutils for the target), LLVM_A2L, LLVM_DWARFDUMP (may
# be empty), SYSROOT (where a runner's guest files are, may be empty).
#
# The expected lines of one physical frame, from `addr2line -f -i -C -e REF 0xPC`'s pairs
# (NAME_1, LOC_1) ... (NAME_k, LOC_k): k-1 lines tagged [inline] named NAME_i at LOC_i, then the
# physical line at LOC_k, named as `nm -C` names the symbol that holds pc (addr2line's NAME_k
# is DWARF's and differs for clones such as `.cold`).  LOC without addr2line's
# ` (discriminator N)`; a LOC with line 0 or `?` (??:0, ??:?, FILE:?) means no ` at`.
#
# Where sc_resolve finds no file with DWARF that libcrash may use, no ` at` and no [inline] line
# is expected (addr2line would find /usr/lib/debug and .gnu_debuglink files by itself).  The
# offset of an [inline] line is checked against llvm-dwarfdump --lookup -p where installed: pc
# minus the instance's first address (its low_pc, or the start of its first listed range).
#
# binutils 2.40 has known DWARF 5 bugs (tests/unit/run-dwarf-info.sh names them: bfd-file0, the
# file register starting at 0, and bfd-lost, clang's DW_FORM_rnglistx inline ranges dropped),
# and names a function without DW_AT_linkage_name by the ELF symbol around it (bfd-names).  A
# line that differs from addr2line's answer passes where it is llvm-addr2line's answer at the
# same place (a lambda spelled as LLVM's demangler does): the TAP line carries a `# bfd:` note
# with addr2line's answer and is counted in SYM_BFD; SYM_STRICT=1 makes it fail instead.

declare -A SC_REF SC_A2L SC_LLVM SC_NMC SC_NMTAB SC_DWARF
SYM_BFD=0
SYM_FRAMES=0
SC_SEQ=0

# sc_host FILE: the path of a (guest) file on this machine, in SC_P: as qemu-user -L finds
# it, under the sysroot first.
sc_host() {
	SC_P=$1
	if [ -n "$SYSROOT" ] && [ -e "$SYSROOT$1" ]; then
		SC_P=$SYSROOT$1
	fi
}

# sc_has_dwarf FILE: does FILE carry its own line table?
sc_has_dwarf() {
	if [ -z "${SC_DWARF[$1]+x}" ]; then
		if $READELF -S -W "$1" 2>/dev/null | grep -qE '\] \.z?debug_line +'; then
			SC_DWARF[$1]=1
		else
			SC_DWARF[$1]=0
		fi
	fi
	[ "${SC_DWARF[$1]}" = 1 ]
}

# sc_has_bid MODULE: does the module's file carry a build-id note?
declare -A SC_BIDC
sc_has_bid() {
	local key="$1|$SYSROOT"
	if [ -z "${SC_BIDC[$key]+x}" ]; then
		sc_host "$1"
		SC_BIDC[$key]=0
		if $READELF -n "$SC_P" 2>/dev/null | grep -q 'Build ID: '; then
			SC_BIDC[$key]=1
		fi
	fi
	[ "${SC_BIDC[$key]}" = 1 ]
}

# sc_crc FILE: the CRC-32 of .gnu_debuglink (gzip's trailer holds the same CRC of its input).
sc_crc() {
	gzip -c <"$1" | tail -c 8 | head -c 4 | od -An -tu4 | tr -d ' '
}

# sc_resolve MODULE BUILDID ROOTS CACHE: the file binutils must read for MODULE, in SC_R:
# the module when it has a line table; else ROOT/.build-id/xx/rest.debug for each root of
# ROOTS (colon-separated; a guest's path, so under $SYSROOT first); else the .gnu_debuglink
# file next to the module, in its .debug/, or under ROOT/<module dir>/, if its CRC matches;
# else CACHE/BUILDID/debuginfo; else the module.  The caches' keys hold $SYSROOT: the same
# guest path is another file under another runner's root (run-symbols.sh's debug root).
sc_resolve() {
	local m=$1 id=$2 roots=$3 cache=$4 key="$1|$2|$3|$4|$SYSROOT" root f name crc dir tmp
	local -a R
	if [ -n "${SC_REF[$key]+x}" ]; then
		SC_R=${SC_REF[$key]}
		return
	fi
	sc_host "$m"
	m=$SC_P
	SC_R=$m
	if [ ! -e "$m" ] || sc_has_dwarf "$m"; then
		SC_REF[$key]=$SC_R
		return
	fi
	IFS=: read -ra R <<<"$roots"
	if [ -n "$id" ]; then
		for root in "${R[@]}"; do
			# a guest's path: under the runner's root first, as qemu-user -L opens it
			sc_host "$root/.build-id/${id:0:2}/${id:2}.debug"
			f=$SC_P
			if [ -n "$root" ] && [ -e "$f" ]; then
				SC_R=$f
				SC_REF[$key]=$SC_R
				return
			fi
		done
	fi
	tmp=$TMPD/debuglink.$$
	rm -f "$tmp"
	if $OBJCOPY --dump-section .gnu_debuglink="$tmp" "$m" "$tmp.o" 2>/dev/null && [ -s "$tmp" ]; then
		name=$(tr '\0' '\n' <"$tmp" | head -n 1)
		crc=$(tail -c 4 "$tmp" | od -An -tu4 | tr -d ' ')
		dir=$(dirname "$m")
		for f in "$dir/$name" "$dir/.debug/$name" $(for root in "${R[@]}"; do
			[ -n "$root" ] && echo "$root$dir/$name"; done); do
			if [ -e "$f" ] && [ "$f" != "$m" ] && [ "$(sc_crc "$f")" = "$crc" ]; then
				SC_R=$f
				SC_REF[$key]=$SC_R
				return
			fi
		done
	fi
	if [ -n "$id" ] && [ -n "$cache" ] && [ -e "$cache/$id/debuginfo" ]; then
		SC_R=$cache/$id/debuginfo
	fi
	SC_REF[$key]=$SC_R
}

# sc_norm_loc LOC: LOC without the discriminator; empty for an unknown line.
sc_norm_loc() {
	local l=${1% (discriminator *)}
	case $l in
	*:[1-9]*) SC_L=$l ;;
	*) SC_L= ;;
	esac
}

# sc_a2l TOOL CACHE-ARRAY REF PC...: run TOOL -a -f -i -C on the pcs not yet known; stores
# "NAME\nLOC\n..." (LOC normalized) per "REF|pc" (pc: hex without leading zeros).
sc_a2l() {
	local tool=$1 arr=$2 ref=$3 p k line want=() name=
	local -n sc_cache=$arr
	shift 3
	for p in "$@"; do
		[ -z "${sc_cache[$ref|$p]+x}" ] || continue
		want+=("0x$p")
		sc_cache[$ref|$p]=
	done
	[ ${#want[@]} -gt 0 ] || return 0
	k=
	while IFS= read -r line; do
		if [[ $line =~ ^0x0*([0-9a-f]+)$ ]] && [ -z "$name" ]; then
			k=${BASH_REMATCH[1]}
			continue
		fi
		[ -n "$k" ] || continue
		if [ -z "$name" ]; then
			name=$line
		else
			sc_norm_loc "$line"
			sc_cache[$ref|$k]+="$name"$'\n'"$SC_L"$'\n'
			name=
		fi
	done < <($tool -a -f -i -C -e "$ref" "${want[@]}" 2>/dev/null)
}

# sc_nmtab FILE RAW: a table "ADDR SIZE NAME" (decimal; SIZE 0 if unsized) of FILE's
# function symbols, demangled unless RAW=1; the dynamic symbols if FILE has no .symtab.
# The table's path in SC_T.
sc_nmtab() {
	local f=$1 raw=$2 key="$1|$2" opt=-C
	if [ -n "${SC_NMTAB[$key]+x}" ]; then
		SC_T=${SC_NMTAB[$key]}
		return
	fi
	SC_SEQ=$((SC_SEQ + 1))
	SC_T=$TMPD/nm.$SC_SEQ
	[ "$raw" = 1 ] && opt=
	{ $NMT $opt -S --defined-only "$f" 2>/dev/null | grep . ||
		$NMT -D $opt -S --defined-only "$f" 2>/dev/null; } |
		awk 'function h2d(s,   i, n) {
			n = 0
			for (i = 1; i <= length(s); i++)
				n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return n
		}
		{
			w = length($1)
			if ($2 ~ /^[0-9a-f]+$/ && length($2) == w && length($3) == 1) {
				t = $3; sz = h2d($2); name = substr($0, 2 * w + 5)
			} else {
				t = $2; sz = 0; name = substr($0, w + 4)
			}
			if (t !~ /^[tTwWi]$/)
				next
			sub(/@.*$/, "", name)
			print h2d($1), sz, name
		}' >"$SC_T"
	SC_NMTAB[$key]=$SC_T
}

# sc_nm FILE RAW PC...: per "FILE|RAW|pc" the candidate names of the symbol holding pc, as
# lines "OFF<TAB>NAME": every sized symbol (aliases too) that contains pc; if none, the
# unsized symbols at the highest address <= pc.
sc_nm() {
	local f=$1 raw=$2 p k off name want=()
	shift 2
	for p in "$@"; do
		[ -z "${SC_NMC[$f|$raw|$p]+x}" ] || continue
		want+=("$p")
		SC_NMC[$f|$raw|$p]=
	done
	[ ${#want[@]} -gt 0 ] || return 0
	sc_nmtab "$f" "$raw"
	while IFS=$'\t' read -r k off name; do
		SC_NMC[$f|$raw|$k]+="$off"$'\t'"$name"$'\n'
	done < <(awk -v pcs="${want[*]}" 'function h2d(s,   i, n) {
			n = 0
			for (i = 1; i <= length(s); i++)
				n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return n
		}
		BEGIN { np = split(pcs, P, " "); for (i = 1; i <= np; i++) V[i] = h2d(P[i]) }
		{
			a = $1; sz = $2; name = $0; sub(/^[0-9]+ [0-9]+ /, "", name)
			for (i = 1; i <= np; i++) {
				if (sz > 0 && a <= V[i] && V[i] < a + sz)
					S[i] = S[i] (V[i] - a) "\t" name "\n"
				else if (sz == 0 && a <= V[i] && a >= best[i]) {
					if (a > best[i] || !(i in U))
						U[i] = ""
					best[i] = a
					U[i] = U[i] (V[i] - a) "\t" name "\n"
				}
			}
		}
		END {
			for (i = 1; i <= np; i++) {
				s = (i in S) ? S[i] : ((i in U) ? U[i] : "")
				n = split(s, L, "\n")
				for (j = 1; j < n; j++)
					print P[i] "\t" L[j]
			}
		}' "$SC_T")
}

# sc_inl_offs REF PC [BUILDID]: the offsets an [inline] line may print, innermost first, in
# SC_IO: "OFF" = pc minus the inlined instance's first address (its low_pc, or the start of
# the first range its DW_AT_ranges lists: docs/report-format.md), and pc minus its lowest
# address ("F L"), from llvm-dwarfdump --lookup -p (the chain of DIEs holding pc).  Empty when
# llvm-dwarfdump is missing.  Kept per BUILDID and pc where the module has one: every file
# of one build (the module, its debug file stripped off, copied or compressed) has the same
# DWARF, and one llvm-dwarfdump run costs tens of milliseconds (libLLVM's start-up).
declare -A SC_IOC
sc_inl_offs() {
	local key="$1|$2"
	[ -z "${3:-}" ] || key="bid:$3|$2"
	SC_IO=()
	[ -n "$LLVM_DWARFDUMP" ] || return 0
	if [ -z "${SC_IOC[$key]+x}" ]; then
		SC_IOC[$key]=$("$LLVM_DWARFDUMP" --lookup="0x$2" -p "$1" 2>/dev/null | awk -v pc="$2" '
			function h2d(s,   i, n) {
				s = tolower(s); sub(/^0x/, "", s); n = 0
				for (i = 1; i <= length(s); i++)
					n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
				return n
			}
			function flush() {
				if (inl && lo != "")
					out = (P - fst) " " (P - lo) "\n" out
				inl = 0; lo = ""; fst = ""; low = ""
			}
			BEGIN { P = h2d(pc) }
			/^0x[0-9a-f]+: +DW_TAG_/ { flush(); inl = $2 == "DW_TAG_inlined_subroutine"; next }
			!inl { next }
			/DW_AT_low_pc/ { match($0, /0x[0-9a-f]+/); low = h2d(substr($0, RSTART, RLENGTH)) }
			/DW_AT_high_pc/ {
				match($0, /0x[0-9a-f]+/); high = h2d(substr($0, RSTART, RLENGTH))
				if (low != "") { lo = low; fst = low }
			}
			/^ +\[0x[0-9a-f]+, 0x[0-9a-f]+\)/ {
				match($0, /\[0x[0-9a-f]+/); a = h2d(substr($0, RSTART + 1, RLENGTH - 1))
				match($0, /, 0x[0-9a-f]+/); b = h2d(substr($0, RSTART + 2, RLENGTH - 2))
				if (lo == "" || a < lo) lo = a
				if (fst == "") fst = a
			}
			END { flush(); printf "%s", out }')
	fi
	mapfile -t SC_IO <<<"${SC_IOC[$key]}"
}

# sc_parse LINE: a frame line into F_NUM F_PC (hex, no leading zeros) F_MOD F_SYM F_OFF F_BID
# F_TAG F_AT; false if it does not have the format.
sc_parse() {
	local l=$1 head
	F_SYM= F_OFF= F_BID= F_AT=
	local re='^ {6}#([0-9]+) pc ([0-9a-f]{16})  (.*) \[(ctx|ra|fp|cfi|scan|sig|inline)\]( at (.*))?$'

	[[ $l =~ $re ]] || return 1
	F_NUM=$((10#${BASH_REMATCH[1]}))
	printf -v F_PC %x $((16#${BASH_REMATCH[2]}))
	head=${BASH_REMATCH[3]} F_TAG=${BASH_REMATCH[4]} F_AT=${BASH_REMATCH[6]}
	if [[ $head =~ ^(.*)\ \(BuildId:\ ([0-9a-f]+)\)$ ]]; then
		head=${BASH_REMATCH[1]} F_BID=${BASH_REMATCH[2]}
	fi
	case $head in
	"<"*) F_MOD=$head ;;
	*)
		F_MOD=${head%% *}
		[ "$F_MOD" = "$head" ] && return 0
		[[ ${head#* } =~ ^\((.*)\+([0-9]+)\)$ ]] || return 1
		F_SYM=${BASH_REMATCH[1]} F_OFF=${BASH_REMATCH[2]}
		;;
	esac
}

# sc_show TEXT: TEXT's non-empty lines as TAP diagnostics.
sc_show() {
	local l
	[ -n "$1" ] || return 0
	while IFS= read -r l; do
		[ -z "$l" ] || printf '#   %s\n' "$l"
	done <<<"$1"
}

# check_report NAME FILE MODE ROOTS CACHE: the first backtrace of report FILE.
# MODE: full (names, ` at`, [inline] lines against addr2line), names or mangled (CRASH_SYMBOLS:
# no ` at`, no [inline], every name as nm -C or nm prints it), hostile (the physical lines'
# names only, from the module's own symbol table: its debug file is damaged).
# ROOTS, CACHE: the run's CRASH_DEBUG_PATH and debuginfod cache directory.
check_report() {
	local v=$1 f=$2 mode=$3 roots=$4 cache=$5
	local -a L NUM PC MOD SYM OFF TAG AT REFS
	local -A BID PCS
	local i n hdr bad m s e raw=0
	mapfile -t L < <(awk '/^backtrace:/ { n++ } n == 1 && /^ +#[0-9]+ pc /' "$f")
	hdr=$(grep -m 1 '^backtrace:' "$f")
	n=${#L[@]}
	if [ "$n" = 0 ]; then
		ok 1 "$v: report has a backtrace"
		sc_show "$(cat "$f" "$f.stderr" 2>/dev/null)"
		return
	fi
	check "$v: report ends with its end marker" grep -q '^\*\*\* end of libcrash report \*\*\*$' "$f"
	is "$(sed -nE 's/^backtrace: ([0-9]+) frames?, .*/\1/p' <<<"$hdr")" "$n" \
		"$v: the header counts the $n frame lines"
	bad=
	for ((i = 0; i < n; i++)); do
		if ! sc_parse "${L[i]}"; then
			bad+="unparsed: ${L[i]}"$'\n'
			F_NUM=-1 F_PC=0 F_MOD="?" F_TAG=ctx
		fi
		NUM[i]=$F_NUM PC[i]=$F_PC MOD[i]=$F_MOD SYM[i]=$F_SYM OFF[i]=$F_OFF TAG[i]=$F_TAG
		AT[i]=$F_AT
		[ "$F_NUM" = "$i" ] || bad+="line $i numbered #${NUM[i]}"$'\n'
		case $F_MOD in
		"<"*) ;;
		*)
			if [ -z "${BID[$F_MOD]+x}" ]; then
				BID[$F_MOD]=$F_BID
				[ -n "$F_BID" ] || ! sc_has_bid "$F_MOD" ||
					bad+="#$i: first line of $F_MOD without BuildId"$'\n'
			elif [ -n "$F_BID" ]; then
				bad+="#$i: BuildId again for $F_MOD"$'\n'
			fi
			;;
		esac
	done
	[ -z "$bad" ]
	ok $? "$v: frame lines parse, numbered #00.. in order, BuildId on each module's first line only"
	sc_show "$bad"
	bad=
	for ((i = 0; i < n; i++)); do
		[ "${TAG[i]}" = inline ] || continue
		if [ $((i + 1)) -ge "$n" ]; then
			bad+="#$i: [inline] line last"$'\n'
		elif [ "${PC[i]}|${MOD[i]}" != "${PC[i + 1]}|${MOD[i + 1]}" ]; then
			bad+="#$i: pc/module ${PC[i]} ${MOD[i]}, next line ${PC[i + 1]} ${MOD[i + 1]}"$'\n'
		fi
	done
	[ -z "$bad" ]
	ok $? "$v: every [inline] line has the pc and module of the line after it"
	sc_show "$bad"
	case $mode in
	names | mangled)
		check "$v: CRASH_SYMBOLS=$mode: no ' at '" test -z "$(grep -E '^ +#[0-9]+ pc .*\] at ' "$f")"
		check "$v: CRASH_SYMBOLS=$mode: no [inline] lines" test -z "$(grep -F '[inline]' "$f")"
		;;
	esac
	[ "$mode" = mangled ] && raw=1

	# The references, one addr2line and one nm run per module.
	for ((i = 0; i < n; i++)); do
		case ${MOD[i]} in "<"* | "?") continue ;; esac
		sc_resolve "${MOD[i]}" "${BID[${MOD[i]}]}" "$roots" "$cache"
		REFS[i]=$SC_R
		if [ "$mode" = hostile ]; then
			sc_host "${MOD[i]}"
			REFS[i]=$SC_P
		fi
		PCS[${REFS[i]}]+=" ${PC[i]}"
	done
	for m in "${!PCS[@]}"; do
		# shellcheck disable=SC2086
		[ "$mode" = full ] && sc_a2l "$A2L" SC_A2L "$m" ${PCS[$m]}
		# shellcheck disable=SC2086
		sc_nm "$m" "$raw" ${PCS[$m]}
	done

	# One physical frame at a time: lines s..e, e the physical one.
	s=0
	while [ "$s" -lt "$n" ]; do
		e=$s
		while [ "$e" -lt $((n - 1)) ] && [ "${TAG[e]}" = inline ]; do
			e=$((e + 1))
		done
		sc_frame "$v" "$mode" "$raw" "$s" "$e"
		s=$((e + 1))
	done
}

# sc_frame NAME MODE RAW S E: the TAP lines of one physical frame (check_report's arrays).
sc_frame() {
	local v=$1 mode=$2 raw=$3 s=$4 e=$5 ref k kl g i t j got want want_ok a2l llvm pc mod bad desc
	local -a EN EA LN LA T
	pc=${PC[e]} mod=${MOD[e]} ref=${REFS[e]}
	case $mod in
	"<"* | "?")
		for ((i = s; i <= e; i++)); do
			is "${L[i]##*[}" "${TAG[i]}]" "$v #${NUM[i]}: pc in no module"
		done
		return
		;;
	esac
	# addr2line finds separate debug files by itself (build-id under /usr/lib/debug,
	# .gnu_debuglink): where sc_resolve found none that libcrash may use, no DWARF is expected.
	a2l=
	[ "$mode" = full ] && sc_has_dwarf "$ref" && a2l=${SC_A2L[$ref|$pc]}
	mapfile -t T <<<"${a2l%$'\n'}"
	# EN/EA: the expected names and locations, innermost first; the last is the physical line.
	if [ -z "$a2l" ] || { [ ${#T[@]} = 2 ] && [ -z "${T[1]}" ]; }; then
		EN=("") EA=("")
	else
		for ((j = 0; j < ${#T[@]}; j += 2)); do
			EN+=("${T[j]}") EA+=("${T[j + 1]}")
		done
	fi
	k=${#EN[@]}
	# The physical line: nm's candidates (aliases) for the name and offset.
	want=${SC_NMC[$ref|$raw|$pc]}
	got="${OFF[e]}"$'\t'"${SYM[e]}"
	if [ -z "${SYM[e]}" ] && [ -z "$want" ]; then
		want_ok=0
	elif [ -n "${SYM[e]}" ] && [[ $'\n'$want == *$'\n'"$got"$'\n'* ]]; then
		want_ok=0
	else
		want_ok=1
	fi
	SYM_FRAMES=$((SYM_FRAMES + 1))
	if [ "$mode" = hostile ]; then
		for ((i = s; i < e; i++)); do
			skip "$v #${NUM[i]} [inline]" "the module's debug file is damaged: only symtab names checked"
		done
		ok $want_ok "$v #${NUM[e]} [${TAG[e]}] ${SYM[e]}+${OFF[e]}: the symtab's name"
		[ $want_ok = 0 ] || sc_show "got: ${L[e]}"$'\n'"nm -S $ref:"$'\n'"${want:-(no symbol)}"
		return
	fi
	# Per line: addr2line's answer at its position, or, where it is not, llvm-addr2line's
	# (lambdas in its demangler's spelling), when the frame has as many lines as that answer.
	g=$((e - s + 1))
	bad=0
	SC_IO=()
	[ "$g" -gt 1 ] && sc_inl_offs "$ref" "$pc" "${BID[$mod]:-}"
	for ((i = s; i <= e; i++)); do
		sc_line_ok "$((i - s))" "$i" "$e" a || bad=1
	done
	[ "$g" = "$k" ] || bad=1
	kl=0
	if [ "$bad" = 1 ] && [ -n "$a2l" ] && [ -n "$LLVM_A2L" ] && [ "${SYM_STRICT:-0}" != 1 ]; then
		# every pc of the report in this file at once: one start-up of LLVM's tools
		# shellcheck disable=SC2086
		sc_a2l "$LLVM_A2L" SC_LLVM "$ref" "$pc" ${PCS[$ref]}
		llvm=${SC_LLVM[$ref|$pc]}
		mapfile -t T <<<"${llvm%$'\n'}"
		for ((j = 0; j + 1 < ${#T[@]}; j += 2)); do
			LN+=("${T[j]}") LA+=("${T[j + 1]}")
		done
		kl=${#LN[@]}
	fi
	for ((i = s; i <= e; i++)); do
		t=$((i - s))
		if [ "$i" = "$e" ]; then
			desc="$v #${NUM[e]} [${TAG[e]}] ${SYM[e]:-(no name)}${SYM[e]:++${OFF[e]}} at ${AT[e]:-(none)}"
		else
			desc="$v #${NUM[i]} [inline] ${SYM[i]}+${OFF[i]} at ${AT[i]:-(none)}"
		fi
		SC_OFFBAD=
		if sc_line_ok "$t" "$i" "$e" a; then
			ok 0 "$desc"
		elif [ "$kl" -gt 0 ] && sc_line_ok "$t" "$i" "$e" l; then
			[ "$i" = "$e" ] && t=$((k - 1))
			ok 0 "$desc # bfd: llvm-addr2line agrees, addr2line says:\
 ${EN[t]:-(nothing)} at ${EA[t]:-(none)}"
			SYM_BFD=$((SYM_BFD + 1))
		else
			ok 1 "$desc"
			sc_show "got:  ${L[i]}"
			sc_show "$SC_OFFBAD"
			if [ "$i" = "$e" ]; then
				sc_show "want: at ${EA[k - 1]:-(none)}; name+off one of (nm -S $ref):"
				sc_show "${want:-(no symbol)}"
			elif [ "$t" -lt $((k - 1)) ]; then
				sc_show "want: [inline] ${EN[t]} at ${EA[t]:-(none)}"
			else
				sc_show "want: no such [inline] line"
			fi
		fi
	done
	for ((t = g - 1; t < k - 1; t++)); do
		[ "$kl" -gt 0 ] && [ "$g" = "$kl" ] && break
		ok 1 "$v #${NUM[e]}-: missing [inline] ${EN[t]} at ${EA[t]:-(none)} (pc $pc)"
	done
	if [ "$bad" = 1 ] && [ "$mode" = full ]; then
		echo "# frame differs from addr2line: $v pc $pc $ref"
		sc_show "addr2line -f -i -C: ${a2l//$'\n'/|}"
		[ -z "${SC_LLVM[$ref|$pc]+x}" ] ||
			sc_show "llvm-addr2line:     ${SC_LLVM[$ref|$pc]//$'\n'/|}"
	fi
}

# sc_line_ok T I E a|l: does report line I, the T-th of its frame (E its physical line), say
# what addr2line (a: EN, EA) or llvm-addr2line (l: LN, LA) says at position T?  The physical
# line's name is nm's (want_ok), never addr2line's.
sc_line_ok() {
	local t=$1 i=$2 e=$3 n a name len
	if [ "$4" = a ]; then len=${#EN[@]}; else len=${#LN[@]}; fi
	# The physical line is the answer's last; an [inline] line must have its place before it.
	if [ "$i" = "$e" ]; then
		t=$((len - 1))
	elif [ "$t" -ge $((len - 1)) ]; then
		return 1
	fi
	[ "$t" -ge 0 ] || return 1
	if [ "$4" = a ]; then n=${EN[t]} a=${EA[t]}; else n=${LN[t]} a=${LA[t]}; fi
	[ "${AT[i]}" = "$a" ] || return 1
	if [ "$i" = "$e" ]; then
		[ "$want_ok" = 0 ]
		return
	fi
	# The offset: from the inlined instance's first address (docs/report-format.md),
	# where llvm-dwarfdump gives a chain with as many inlines.
	if [ ${#SC_IO[@]} = $((len - 1)) ] && [ -n "${SC_IO[t]}" ] &&
		[ "${OFF[i]}" != "${SC_IO[t]%% *}" ]; then
		SC_OFFBAD="#${NUM[i]}: OFF ${OFF[i]}, want ${SC_IO[t]%% *}: pc minus the instance's\
 first address (pc minus its lowest address: ${SC_IO[t]##* })"$'\n'
		return 1
	fi
	name=${SYM[i]}
	# llvm's demangler spells c++filt's {lambda(int)#1} as 'lambda'(int), #2 as 'lambda0'.
	[ "$4" = l ] && [[ $name == *"{lambda("* ]] && name=$(sed -E "s/\{lambda(\([^{}]*\))#1\}/'lambda'\1/g;
		s/\{lambda(\([^{}]*\))#([0-9]+)\}/'lambda\2'\1/g" <<<"$name")
	[ "$name" = "$n" ]
}
