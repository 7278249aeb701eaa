#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check a JSON report (CRASH_FORMAT=json or both) against docs/report.schema.json and
against the text report of the same crash, fact by fact.

check-json.py SCHEMA JSON-FILE TEXT-FILE SAME [JSON-FILE TEXT-FILE SAME]...
  JSON-FILE: the file holding the JSON report: its one line that starts with '{'
  TEXT-FILE: the text report of the same crash (may be JSON-FILE: CRASH_FORMAT=both)
  SAME: 1 when both reports come from one process (CRASH_FORMAT=both): every fact is
        compared, absolute addresses included; 0 (two runs of the same program): the
        facts that do not depend on where things were loaded.
Prints one line per check, "PASS name" or "FAIL name: why"; exit status 1 on a failure.
With more than one triple (one Python start-up and one schema load for all of them: each
costs a few hundred milliseconds on a slow host), each triple's lines follow a line
"REPORT k" (k from 1), and its verdict is a last line "STATUS k 0" or "STATUS k 1".
Without Python's jsonschema the schema check is "SKIP" (FAIL when CI=true: CI installs it).
"""
import json
import os
import re
import sys
import traceback

results = []


def check(name, cond, why=""):
    results.append((name, bool(cond), why))
    return cond


def eq(name, got, want):
    return check(name, got == want, ("json %r, text %r" % (got, want))[:600])


def load_json(path):
    lines = [l for l in open(path, encoding="utf-8", errors="strict").read().split("\n")
             if l.startswith("{")]
    check("one JSON line", len(lines) == 1, "%d lines start with '{'" % len(lines))
    return json.loads(lines[0]) if lines else {}


FRAME = re.compile(
    r"^ +#(?P<idx>\d+) pc (?P<pc>[0-9a-f]{16})  (?P<mod><not in any executable mapping>|\S+)"
    r"(?: \((?P<name>.*)\+(?P<off>\d+)\))?(?: \(BuildId: (?P<bid>[0-9a-f]+)\))?"
    r" \[(?P<tag>[a-z?]+)\](?: at (?P<file>.*):(?P<line>\d+))?$")
HEAD = re.compile(r"^backtrace: (\d+) frames?, engine (\w+), (complete|truncated: (.*?))"
                  r"( \(unconfirmed scan frames\))?(0x[0-9a-f]{16})?$")
SIG = re.compile(r"^(\d+) \((\S+)\), code (-?\d+) \((\S+)\)(.*)$")
SEPARATOR = "--- --- --- --- --- --- --- --- --- --- --- --- --- --- --- ---"
STOPS = {
    "no unwind info for pc ": "no_unwind_info", "invalid memory at ": "invalid_memory",
    "frame limit": "frame_limit", "stack pointer went backwards at ": "sp_backwards",
    "loop at ": "loop", "bad return address ": "bad_return_address",
    "stack pointer left the stack at ": "sp_left_stack",
    "no function start for pc ": "no_function_start",
}


def parse_text(path):
    """The first text report of the file, as facts."""
    t = {"sections": [], "regs": {}, "memory": [], "maps": [], "threads": []}
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    i = 0
    while i < len(lines) and not lines[i].startswith("*** libcrash: "):
        i += 1
    sec = mem = th = None
    for line in lines[i + 1:]:
        if line.startswith("*** end of libcrash report"):
            break
        # The other threads (line 9): each after the separator, its own header,
        # registers and backtrace, or "not captured: REASON".
        if line == SEPARATOR:
            th = {"sections": [], "regs": {}, "error": None}
            t["threads"].append(th)
            sec = mem = None
            t["maps_on"] = False
            continue
        if th is not None:
            m = re.match(r"^pid: (\S+), tid: (\S+), name: (.*)$", line)
            if m:
                th["pid"], th["tid"], th["name"] = m.groups()
            elif line.startswith("not captured: "):
                th["error"] = line[len("not captured: "):]
            elif HEAD.match(line):
                sec = {"head": HEAD.match(line), "frames": []}
                th["sections"].append(sec)
            elif FRAME.match(line) and sec is not None:
                sec["frames"].append(FRAME.match(line).groupdict())
            elif not sec and re.match(r"^    \S", line):
                for name, val in re.findall(r"(\S+) +([0-9a-f]{16}|-{16})", line):
                    th["regs"][name] = val
            continue
        m = re.match(r"^other threads: (\d+|\?) \((.*)\)$", line)
        if m:
            t["other_threads"] = m.groups()
            t["maps_on"] = False
            continue
        m = re.match(r"^abort message: '(.*)'$", line)
        if m and "abort" not in t:
            t["abort"] = m.group(1)
            continue
        m = re.match(r"^pid: (\S+), tid: (\S+), name: (.*)  >>> (.*) <<<$", line)
        if m:
            t["pid"], t["tid"], t["name"], t["exe"] = m.groups()
            continue
        for key in ("timestamp", "process uptime", "cmdline", "uid", "kernel",
                    "libcrash version", "cause", "reason"):
            if line.startswith(key + ": ") and key not in t:
                t[key] = line[len(key) + 2:]
                break
        else:
            if line.startswith("signal "):
                t["signal"] = line[7:]
            elif line.startswith("raised in the handler of signal "):
                t["raised"] = line[len("raised in the handler of signal "):]
            elif HEAD.match(line):
                sec = {"head": HEAD.match(line), "frames": []}
                t["sections"].append(sec)
            elif FRAME.match(line) and sec is not None:
                sec["frames"].append(FRAME.match(line).groupdict())
            elif line.startswith("memory near "):
                m = re.match(r"^memory near (\S+)(?: \((.*)\))?:$", line)
                mem = {"name": m.group(1), "module": m.group(2), "rows": []}
                t["memory"].append(mem)
            elif mem is not None and re.match(r"^    [0-9a-f]{16}( [0-9a-f-]{2}){16}  ", line):
                mem["rows"].append(line)
            elif line.startswith("memory map ("):
                t["map_count"] = int(re.match(r"memory map \((\d+) entr", line).group(1))
                mem = None
                t["maps_on"] = True
            elif t.get("maps_on") and (line.startswith("    ") or line.startswith("--->")):
                t["maps"].append(line)
            elif not sec and re.match(r"^    \S", line):
                for name, val in re.findall(r"(\S+) +([0-9a-f]{16}|-{16})", line):
                    t["regs"][name] = val
    return t


def compare_threads(j, t, same):
    """The other threads: the count line, then each thread in the text's order.  From two
    runs (same 0) only how many: where another thread is at the crash is the run's own (in
    pthread_create, say, with every signal blocked: not captured)."""
    ot = j.get("other_threads")
    if not same:
        eq("other threads: as many as the text's",
           ot and ot.get("count"), int(t["other_threads"][0]) if "other_threads" in t and
           t["other_threads"][0] != "?" else (ot and ot.get("count")))
        eq("other threads: as many in the JSON as sections in the text",
           len((j.get("threads") or [])[1:]), len(t["threads"]))
        return
    if "other_threads" not in t:
        eq("no other threads' count without the text's line", ot, None)
    elif t["other_threads"][0] == "?":
        check("other threads: unknown count", ot and ot.get("count") is None and
              ot.get("error") == t["other_threads"][1], "json %r, text %r" % (ot, t["other_threads"]))
    else:
        m = re.match(r"(\d+) captured, (\d+) not captured, (\d+) over the limit of (\d+)$",
                     t["other_threads"][1])
        eq("other threads: the count line",
           ot and [ot.get(k) for k in ("count", "captured", "not_captured", "over_limit", "limit")],
           [int(t["other_threads"][0])] + [int(x) for x in m.groups()] if m else None)
    others = (j.get("threads") or [])[1:]
    eq("other threads: as many in the JSON as sections in the text", len(others), len(t["threads"]))
    for k, (jt, tt) in enumerate(zip(others, t["threads"])):
        where = "thread %d" % (k + 1)
        if same:
            eq(where + ": id", str(jt.get("id")), tt.get("tid"))
        eq(where + ": name", jt.get("name") or "?", tt.get("name"))
        eq(where + ": not crashed, not current", (jt.get("crashed"), jt.get("current")),
           (False, False))
        eq(where + ": why not captured", jt.get("error"), tt["error"])
        if tt["error"]:
            continue
        st = jt.get("stacktrace") or {}
        if same:
            regs = {n: (v[2:] if v else "-" * 16) for n, v in (st.get("registers") or {}).items()}
            eq(where + ": registers", regs, tt["regs"])
        check(where + ": a backtrace section", tt["sections"], "none in the text")
        if tt["sections"]:
            compare_frames(st, tt["sections"][0], same, where + ": backtrace")


def addr(s):
    return "0x" + s


def compare_frames(j, sec, same, where):
    frames = j.get("frames", [])
    tf = sec["frames"]
    eq(where + ": frame count", len(frames), len(tf))
    head = sec["head"]
    eq(where + ": frame_count is the header's", j.get("frame_count"), int(head.group(1)))
    eq(where + ": engine", j.get("engine"), head.group(2))
    if head.group(3) == "complete":
        eq(where + ": stop", j.get("stop"), "complete")
        eq(where + ": unconfirmed scan frames", bool(j.get("unconfirmed_scan_frames")),
           bool(head.group(5)))
    else:
        eq(where + ": stop", j.get("stop"), STOPS.get(head.group(4), head.group(4)))
        if same and head.group(6):
            eq(where + ": stop_addr", j.get("stop_addr"), head.group(6))
    seen_bid = {}
    bad = []
    for k, (jf, f) in enumerate(zip(frames, tf)):
        want = {"index": int(f["idx"]), "tag": f["tag"], "inline": f["tag"] == "inline"}
        got = {"index": jf.get("index"), "tag": jf.get("tag"), "inline": jf.get("inline")}
        if f["mod"] in ("<unknown>", "<not in any executable mapping>"):
            want["unresolved"] = "unknown" if f["mod"] == "<unknown>" else "not_executable"
            got["unresolved"] = jf.get("unresolved")
            if same:
                want["instruction_addr"] = addr(f["pc"])
                got["instruction_addr"] = jf.get("instruction_addr")
        else:
            # qemu-user's vDSO has a load bias of 0: its pcs change from run to run.
            if same or not f["mod"].startswith(("linux-vdso", "linux-gate", "[vdso]")):
                want["rel_pc"] = addr(f["pc"])
                got["rel_pc"] = jf.get("rel_pc")
            want["package"] = None if f["mod"] == "<anonymous>" else f["mod"]
            got["package"] = jf.get("package")
            if same and "image_addr" in jf:
                # instruction_addr - rel_pc is the load bias of the module, the same for
                # every frame of it, which the memory map's line gives.
                got["bias"] = int(jf["instruction_addr"], 16) - int(jf["rel_pc"], 16)
                want["bias"] = got["bias"]
        want["function"] = f["name"]
        got["function"] = jf.get("function")
        want["offset"] = int(f["off"]) if f["off"] is not None else None
        got["offset"] = jf.get("offset")
        want["filename"] = f["file"]
        got["filename"] = jf.get("filename")
        want["lineno"] = int(f["line"]) if f["line"] is not None else None
        got["lineno"] = jf.get("lineno")
        if f["bid"]:
            seen_bid[f["mod"]] = f["bid"]
        if f["mod"] in seen_bid:
            want["code_id"] = seen_bid[f["mod"]]
            got["code_id"] = jf.get("code_id")
        if got != want:
            bad.append("#%d: json %r, text %r" % (k, got, want))
    check(where + ": every frame's index, pcs, module, build-id, function, offset, file, line,"
          " inline flag and tag as the text's", not bad and frames, "; ".join(bad[:3]))
    return frames


def sigdesc_text(d):
    s = "%d (%s), code %d (%s)" % (d.get("number"), d.get("name") or "SIG?", d.get("code"),
                                  d.get("code_name") or "?")
    if "sender_pid" in d:
        s += ", sender pid %d, uid %d" % (d["sender_pid"], d["sender_uid"])
    elif "fault_addr" in d:
        s += ", fault addr " + d["fault_addr"]
    if "syscall" in d:
        s += ", syscall %d, audit arch 0x%08x" % (d["syscall"], d["audit_arch"])
    return s


def validator(schema_path):
    """The schema's validator, None without jsonschema."""
    try:
        import jsonschema
    except ImportError:
        return None
    return jsonschema.Draft202012Validator(json.load(open(schema_path)))


def main(v, json_path, text_path, same):
    same = same == "1"
    j = load_json(json_path)
    if v is not None:
        errs = ["%s: %s" % ("/".join(map(str, e.absolute_path)), e.message)
                for e in v.iter_errors(j)]
        check("valid against docs/report.schema.json", not errs, "; ".join(errs[:3]))
    else:
        if os.environ.get("CI") == "true":
            check("valid against docs/report.schema.json", False,
                  "python3-jsonschema is missing (tests/setup.sh installs it)")
        else:
            print("SKIP valid against docs/report.schema.json: no python3-jsonschema")
    check("not truncated", "truncated" not in j)
    t = parse_text(text_path)
    eq("schema", j.get("schema"), "libcrash.report/1")
    # The signal and where it came from.
    if "signal" in t:
        if j.get("signal") and j["signal"].get("no_context"):
            check("signal: called by other code", "handler called by other code" in t["signal"])
        elif same:
            eq("signal line", sigdesc_text(j.get("signal") or {}), t["signal"])
        else:
            m = SIG.match(t["signal"])
            eq("signal number, name, code, code name",
               [j["signal"].get(k) for k in ("number", "name", "code", "code_name")],
               [int(m.group(1)), m.group(2), int(m.group(3)), m.group(4)])
    else:
        eq("reason", j.get("reason"), t.get("reason"))
        eq("kind", j.get("kind"), "requested")
    eq("cause", j.get("cause"), t.get("cause"))
    r = j.get("raised_in_handler_of")
    if same or not r:
        eq("raised in the handler of", r and "%s (frame #%02d)" % (sigdesc_text(r), r["frame"]),
           t.get("raised"))
    # The crashing thread.
    th = (j.get("threads") or [{}])[0]
    eq("threads[0] crashed", th.get("crashed"), j.get("kind") == "crash")
    eq("threads[0] current", th.get("current"), True)
    st = th.get("stacktrace") or {}
    check("a backtrace section in the text", t["sections"], "no 'backtrace:' line")
    if t["sections"]:
        compare_frames(st, t["sections"][0], same, "backtrace")
        for k, sec in enumerate(t["sections"][1:]):
            es = (th.get("engine_stacktraces") or [{}] * 3)
            compare_frames(es[k] if k < len(es) else {}, sec, same, "backtrace %d" % (k + 2))
    eq("abort message", j.get("abort_message"), t.get("abort"))
    compare_threads(j, t, same)
    if not same:
        return
    # Everything else: one process wrote both.
    eq("pid", str(j.get("pid")), t.get("pid"))
    eq("tid", str(j.get("tid")), t.get("tid"))
    eq("thread id", str(th.get("id")), t.get("tid"))
    eq("thread name", j.get("thread_name"), t.get("name"))
    eq("executable", j.get("executable"), t.get("exe"))
    eq("timestamp", j.get("timestamp"), t.get("timestamp"))
    up = j.get("uptime_ms")
    check("uptime", up is not None and abs(up / 1000 - float(t["process uptime"][:-2])) < 1,
          "json %r, text %r" % (up, t.get("process uptime")))
    eq("cmdline", " ".join(j.get("cmdline", [])), t.get("cmdline"))
    uid = str(j.get("uid")) + ("" if j.get("euid") == j.get("uid") else ", euid: %s" % j.get("euid"))
    eq("uid", uid, t.get("uid"))
    k = j.get("kernel") or {}
    eq("kernel", "%s %s %s" % (k.get("name"), k.get("release"), k.get("machine")), t.get("kernel"))
    eq("libcrash version", j.get("libcrash_version"), t.get("libcrash version"))
    regs = {n: (v[2:] if v else "-" * 16) for n, v in (st.get("registers") or {}).items()}
    eq("registers", regs, t["regs"])
    mj = j.get("memory", [])
    eq("memory blocks", [(b["name"], b.get("module")) for b in mj],
       [(b["name"], b["module"]) for b in t["memory"]])
    bad = []
    for b, tb in zip(mj, t["memory"]):
        rows = ["    %016x %s" % (int(b["start"], 16) + 16 * r,
                                  " ".join(b["bytes"][32 * r + 2 * i:32 * r + 2 * i + 2]
                                           for i in range(16)))
                for r in range(16)]
        if rows != [row[:4 + 16 + 48] for row in tb["rows"]]:
            bad.append(b["name"])
    check("memory blocks' bytes", not bad, "differ: %s" % bad)
    mm = j.get("memory_map") or {}
    eq("memory map count", mm.get("count"), t.get("map_count"))
    lines = []
    for e in mm.get("entries", []):
        s = "%s-%s %s %08x" % (e["start"][2:], e["end"][2:], e["perms"], e["offset"])
        if "path" in e:
            s += "  " + e["path"]
        if "code_id" in e:
            s += " (BuildId: %s)" % e["code_id"]
        if "load_bias" in e:
            s += " (load bias %s)" % e["load_bias"]
        lines.append(s)
    fa = mm.get("fault_addr")
    if fa:
        note = "--->fault address %s falls " % fa["address"]
        if fa["position"] == "in":
            lines[fa["index"]] = "--->" + lines[fa["index"]]
        elif fa["position"] == "after_last":
            lines.append(note + "after the last mapping")
        else:
            lines.insert(fa["index"], note + ("before the first mapping"
                                              if fa["position"] == "before_first"
                                              else "between mappings"))
    lines = [l if l.startswith("--->") else "    " + l for l in lines]
    eq("memory map lines", lines, t["maps"])
    # debug_meta: every frame's module, its build-id and Sentry's debug_id from it.
    imgs = {i["image_addr"]: i for i in (j.get("debug_meta") or {}).get("images", [])}
    bad = [f["index"] for f in st.get("frames", []) if "image_addr" in f and
           (f["image_addr"] not in imgs or imgs[f["image_addr"]].get("code_id") != f.get("code_id"))]
    check("debug_meta has every frame's module", not bad, "frames %s" % bad)
    for i in imgs.values():
        if "code_id" in i:
            b = bytes.fromhex(i["code_id"])[:16].ljust(16, b"\0")
            g = b[3::-1] + b[5:3:-1] + b[7:5:-1] + b[8:]
            want = "%s-%s-%s-%s-%s" % (g[:4].hex(), g[4:6].hex(), g[6:8].hex(), g[8:10].hex(),
                                       g[10:].hex())
            eq("debug_id of " + i.get("code_file", "?"), i.get("debug_id"), want)


def run_one(v, json_path, text_path, same):
    """One triple's lines; True when every check passed (a Python exception: a FAIL)."""
    del results[:]
    try:
        main(v, json_path, text_path, same)
    except Exception as e:  # noqa: BLE001 (one report's exception must not hide the others')
        ours = [f.lineno for f in traceback.extract_tb(e.__traceback__)
                if f.filename == __file__]
        check("check-json.py ran to its end", False,
              "%s: %s (check-json.py line %s)" % (type(e).__name__, e, ours[-1] if ours else "?"))
    for name, ok, why in results:
        print(("PASS %s" % name) if ok else ("FAIL %s: %s" % (name, why)))
    return all(ok for _, ok, _ in results)


def run_all(argv):
    args = argv[1:]
    if len(args) < 4 or (len(args) - 1) % 3:
        sys.exit("usage: check-json.py SCHEMA JSON-FILE TEXT-FILE SAME [JSON-FILE TEXT-FILE SAME]...")
    v = validator(args[0])
    triples = [args[i:i + 3] for i in range(1, len(args), 3)]
    if len(triples) == 1:
        sys.exit(0 if run_one(v, *triples[0]) else 1)
    bad = 0
    for k, t in enumerate(triples, 1):
        print("REPORT %d" % k)
        good = run_one(v, *t)
        print("STATUS %d %d" % (k, 0 if good else 1))
        bad += not good
    sys.exit(1 if bad else 0)


run_all(sys.argv)
