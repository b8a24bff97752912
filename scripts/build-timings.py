#!/usr/bin/env python3
# Times `techo build` of the bench's reference manifest with two techo binaries, alternated, and
# prints the median CPU time (user + system, from wait4), wall time and peak RSS of each step:
#   scripts/build-timings.py bench-out/page OLD/techo NEW/techo [ROUNDS]
# (bench-out/page is what `techo-bench page` writes.) See docs/performance.md.
import subprocess, sys, time, os, shutil, statistics, json
d, before, after = sys.argv[1], sys.argv[2], sys.argv[3]
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 7
man = os.path.join(d, "reference-1.json"); moved = os.path.join(d, "reference-1-moved.json")
m = json.load(open(man))
for e in m["pages"][0]["elements"]:  # move the first placed element 10 px to the right
    if isinstance(e.get("at"), list) and isinstance(e["at"][0], (int, float)):
        e["at"][0] += 10
        break
json.dump(m, open(moved, "w"))
def run(args):
    t = time.perf_counter()
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    err = p.stderr.read(); dt = time.perf_counter() - t
    if status != 0: print("FAILED", args, err.decode()[:300]); sys.exit(1)
    return (dt, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024)
keys = ["new (no export)", "again (no export)", "moved (no export)", "new + export", "again + export", "export"]
res = {b: {k: [] for k in keys} for b in ("before", "after")}
for i in range(runs):
    for name, b in (("before", before), ("after", after)):
        j = os.path.join(d, f"t-{name}.techo"); out = os.path.join(d, f"out-{name}")
        shutil.rmtree(j, ignore_errors=True)
        r = res[name]
        r["new (no export)"].append(run([b, "build", man, "--journal", j, "--no-export"]))
        r["again (no export)"].append(run([b, "build", man, "--journal", j, "--no-export"]))
        r["moved (no export)"].append(run([b, "build", moved, "--journal", j, "--no-export"]))
        shutil.rmtree(j, ignore_errors=True)
        r["new + export"].append(run([b, "build", man, "--journal", j, "-o", out]))
        r["again + export"].append(run([b, "build", man, "--journal", j, "-o", out]))
        shutil.rmtree(out, ignore_errors=True)  # an unchanged output would be kept, not rendered
        r["export"].append(run([b, "export", j, "-o", out]))
print("load average after the runs:", " ".join(open("/proc/loadavg").read().split()[:3]))
for k in keys:
    line = f"| {k} |"
    for name in ("before", "after"):
        v = res[name][k]
        line += f" {statistics.median(x[1] for x in v):.3f} s CPU, {statistics.median(x[0] for x in v):.3f} s wall, {max(x[2] for x in v):.0f} MiB |"
    print(line)
