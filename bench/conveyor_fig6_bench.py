#!/usr/bin/python3
"""Side-by-side benchmark of the conveyor's Fig. 6 sweep (examples/conveyor_fig6.ini).

One run measures, on this machine:
  1. vibro, fixed length (1071 cases x 100 periods), on 1 and on 2 threads;
  2. vibro, adaptive steady state, on 1 and on 2 threads, and how its answers compare with the fixed
     run and with a long fixed reference run (1000 periods, 50-period window);
  3. the peers (SUNDIALS CVODE at atol 1e-12 and 1e-18, scipy solve_ivp) and vibro fixed-100 on the
     same product subset of the grid, single core, with each peer's accuracy against vibro.

It prints one Markdown table and notes. It never asserts anything about timings.
Needs python3 stdlib + numpy + h5py (use Debian's /usr/bin/python3, which also carries the scipy
that the scipy peer needs). See bench/README.md; bench/run_conveyor_fig6.sh fills in the paths.
"""

import argparse
import csv
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# Model constants the peers hard-code (cvode_conveyor.cpp, scipy_conveyor.py); the sweep must match.
PEER_MODEL = {"f": 50.0, "phi": 12.0, "g": 9.81, "c_r": 0.6, "mu": 0.15, "u_tol": 1e-9}


# ------------------------------------------------------------------------------------------------
# helpers

def log(msg):
    print(msg, file=sys.stderr, flush=True)


def machine_info():
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip() or str(usable)
    return {"cpu": model, "nproc": nproc, "usable": usable, "kernel": platform.release()}


def loadavg():
    try:
        with open("/proc/loadavg") as fh:
            return " ".join(fh.read().split()[:3])
    except OSError:
        return "n/a"


def git_revision():
    try:
        rev = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return rev + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "n/a"


def run_cmd(cmd, out_path=None, env=None):
    """Run cmd; return (process wall seconds, stderr text). stdout goes to out_path if given."""
    t0 = time.perf_counter()
    if out_path:
        with open(out_path, "w") as fh:
            p = subprocess.run(cmd, stdout=fh, stderr=subprocess.PIPE, text=True, env=env)
    else:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        # The peers exit 1 when some case failed but still write every case: keep going, report it.
        log(f"warning: exit {p.returncode} from {' '.join(cmd)}\n{p.stderr.strip()[-2000:]}")
    return wall, p.stderr


def snapshot(src, dst_dir):
    """Copy an executable into the work directory: another engineer may rebuild it meanwhile, and
    a binary being rewritten cannot be started (or changes between runs). Retries while it is."""
    os.makedirs(dst_dir, exist_ok=True)
    dst = os.path.join(dst_dir, os.path.basename(src))
    for attempt in range(30):
        try:
            shutil.copy2(src, dst)
            subprocess.run([dst, "--version"], capture_output=True, timeout=30)  # can it start?
            return dst
        except (OSError, subprocess.SubprocessError) as exc:
            log(f"waiting for {src} ({exc}); retry {attempt + 1}/30")
            time.sleep(2.0)
    raise SystemExit(f"cannot copy a runnable {src}")


def read_h5(path):
    with h5py.File(path, "r") as f:
        cls = np.array([c.decode() if isinstance(c, bytes) else str(c) for c in f["cases/class"][:]])
        return {
            "wall": float(f.attrs["wall_seconds"]),
            "a_hat": f["axes/a_hat"][:],
            "z0": f["axes/z0"][:],
            "cls": cls,
            "mv": f["cases/observables/mean_velocity"][:],
            "impacts": f["cases/counters/impacts"][:].astype(np.int64),
            "status": f["cases/status"][:],
            "periods_run": f["cases/periods_run"][:],
            "period": f["cases/period"][:] if "cases/period" in f else None,
            "case_wall": f["cases/wall_seconds"][:],
            "params": read_parameters(f),
            "threads": int(f.attrs.get("threads", -1)),
        }


def read_parameters(f):
    """The unswept parameters: scalar datasets from schema 5 on, attributes of /parameters before."""
    if "parameters" not in f:
        return {}
    if int(f.attrs.get("schema_version", 0)) >= 5:
        return {k: d[()] for k, d in f["parameters"].items()}
    return dict(f["parameters"].attrs)


def read_peer_csv(path):
    rows = []
    with open(path) as fh:
        for r in csv.DictReader(fh):
            rows.append((float(r["a_hat"]), float(r["z0"]), float(r["mean_velocity"]),
                         int(r["impacts"]), float(r["wall_s"])))
    return rows


def regular(cls):
    return np.array([not c.startswith("X") for c in cls])


def strip_q(cls):
    return np.array([c.rstrip("~") for c in cls])


def fmt_rate(x):
    if x >= 1e5:
        return f"{x:.3g}".replace("e+0", "e").replace("e+", "e")
    if x >= 100:
        return f"{x:.0f}"
    return f"{x:.3g}"


def fmt_s(x):
    return f"{x:.3g}" if x < 10 else f"{x:.1f}"


def fmt_e(x):
    return f"{x:.1e}"


def pct(a, b):
    return f"{100.0 * a / b:.1f} %" if b else "n/a"


def write_subset_ini(src_ini, dst_ini, a_vals, z_vals, out_file):
    """Copy the sweep file with its a_hat and z0 axes replaced by explicit lists."""
    lines, section, seen = [], None, set()
    with open(src_ini) as fh:
        for line in fh:
            s = line.strip()
            m = re.match(r"\[(.+)\]", s)
            if m:
                section = m.group(1).strip()
            elif section == "axes":
                key = s.split("=", 1)[0].strip() if "=" in s else ""
                if key in ("a_hat", "z0"):
                    vals = a_vals if key == "a_hat" else z_vals
                    line = f"{key} = " + ", ".join(repr(float(v)) for v in vals) + "\n"
                    seen.add(key)
            lines.append(line)
    if seen != {"a_hat", "z0"}:
        raise SystemExit(f"{src_ini}: expected a_hat and z0 in [axes]")
    with open(dst_ini, "w") as fh:
        fh.writelines(lines)
        fh.write(f"\n# written by conveyor_fig6_bench.py; output {out_file}\n")


def write_cases_csv(path, a_vals, z_vals):
    with open(path, "w") as fh:
        fh.write("a_hat,z0\n")
        for a in a_vals:          # a_hat slowest: the same order as vibro's flattened cases
            for z in z_vals:
                fh.write(f"{float(a)!r},{float(z)!r}\n")


# ------------------------------------------------------------------------------------------------
# the measurements

class Timed:
    """Repeated runs of one configuration: sweep/solver-internal wall times and whole-process times."""

    def __init__(self, name):
        self.name = name
        self.inner = []    # vibro: root attribute wall_seconds; peers: sum of per-case wall_s
        self.process = []  # whole process, start-up included
        self.first = None  # parsed results of the first repeat

    @property
    def best(self):
        return min(self.inner)

    def spread(self):
        return f"{fmt_s(min(self.inner))} / {fmt_s(statistics.median(self.inner))} / " \
               f"{fmt_s(max(self.inner))}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--vibro", default=os.path.join(REPO, "build/jobs/vibro"))
    ap.add_argument("--cvode", default=os.path.join(REPO, "build/bench/peers/cvode_conveyor"))
    ap.add_argument("--scipy-peer", default=os.path.join(HERE, "peers/scipy_conveyor.py"))
    ap.add_argument("--python", default="/usr/bin/python3", help="interpreter for the scipy peer")
    ap.add_argument("--ini", default=os.path.join(REPO, "examples/conveyor_fig6.ini"))
    ap.add_argument("--repeats", type=int, default=5,
                    help="repeats of every vibro timing and of CVODE (min is reported)")
    ap.add_argument("--scipy-repeats", type=int, default=3)
    ap.add_argument("--a-stride", type=int, default=5, help="peer subset: every Nth a_hat value")
    ap.add_argument("--z-stride", type=int, default=4, help="peer subset: every Nth z0 value")
    ap.add_argument("--scipy-a-stride", type=int, default=None,
                    help="scipy's own a_hat stride if it must run on fewer cases (default: the same "
                         "subset as CVODE); must be a multiple of --a-stride")
    ap.add_argument("--ref-periods", type=int, default=1000)
    ap.add_argument("--periods", type=int, default=100)
    ap.add_argument("--window", type=int, default=50)
    ap.add_argument("--no-scipy", action="store_true")
    ap.add_argument("--workdir", default=None, help="keep the HDF5/CSV files here (default: temp)")
    args = ap.parse_args()

    for p in (args.vibro, args.ini):
        if not os.path.exists(p):
            raise SystemExit(f"not found: {p}")
    have_cvode = os.access(args.cvode, os.X_OK)
    have_scipy = not args.no_scipy and os.path.exists(args.scipy_peer) and os.access(args.python, os.X_OK)
    if not have_cvode:
        log(f"note: {args.cvode} not found, CVODE rows skipped")
    sa = args.scipy_a_stride or args.a_stride
    if sa % args.a_stride:
        raise SystemExit("--scipy-a-stride must be a multiple of --a-stride")

    work = args.workdir or tempfile.mkdtemp(prefix="vibro_fig6_bench_")
    os.makedirs(work, exist_ok=True)
    P = lambda name: os.path.join(work, name)  # noqa: E731
    vibro_src = args.vibro
    args.vibro = snapshot(args.vibro, P("bin"))
    vibro_version = subprocess.run([args.vibro, "--version"], capture_output=True,
                                   text=True).stdout.strip()
    if have_cvode:
        args.cvode = snapshot(args.cvode, P("bin"))
    t_start = time.perf_counter()
    mach = machine_info()
    load0 = loadavg()
    env = dict(os.environ)
    env.pop("OMP_NUM_THREADS", None)  # --run.threads decides

    def vibro_cmd(out, mode, threads, ini=None, periods=None):
        return [args.vibro, "run", ini or args.ini, f"--run.steady_state={mode}",
                f"--run.max_periods={periods or args.periods}", f"--run.window_periods={args.window}",
                f"--run.threads={threads}", f"--output.file={out}", "--output.overwrite=true", "--output.strobe_points=none"]

    # ---- 0. the long fixed reference run (answers only, not a timing)
    log(f"[{time.perf_counter() - t_start:6.1f} s] reference: fixed {args.ref_periods} periods, 2 threads")
    run_cmd(vibro_cmd(P("ref.h5"), "fixed", 2, periods=args.ref_periods), env=env)
    ref = read_h5(P("ref.h5"))
    bad = {k: (ref["params"].get(k), v) for k, v in PEER_MODEL.items()
           if k in ref["params"] and abs(float(ref["params"][k]) - v) > 1e-12 * abs(v)}

    # ---- 1 + 2. full sweeps, fixed and adaptive, 1 and 2 threads; repeats interleaved so that a
    # busy spell of the machine (another build) hits every configuration alike.
    full = {}
    for mode in ("fixed", "adaptive"):
        for th in (1, 2):
            full[(mode, th)] = Timed(f"{mode}-{th}")
    for rep in range(args.repeats):
        log(f"[{time.perf_counter() - t_start:6.1f} s] full sweeps, repeat {rep + 1}/{args.repeats}")
        for (mode, th), t in full.items():
            out = P(f"{mode}{th}_r{rep}.h5")
            w, _ = run_cmd(vibro_cmd(out, mode, th), env=env)
            r = read_h5(out)
            t.inner.append(r["wall"])
            t.process.append(w)
            if t.first is None:
                t.first = r
            else:
                # determinism check: identical answers on every repeat and thread count
                if not (np.array_equal(r["cls"], t.first["cls"]) and
                        np.array_equal(r["mv"], t.first["mv"], equal_nan=True)):
                    t.nondeterministic = True
            if rep > 0:
                os.remove(out)

    F1, F2 = full[("fixed", 1)], full[("fixed", 2)]
    A1, A2 = full[("adaptive", 1)], full[("adaptive", 2)]
    fx, ad = F1.first, A1.first
    n_full = len(fx["cls"])
    same_threads = (np.array_equal(F1.first["mv"], F2.first["mv"], equal_nan=True) and
                    np.array_equal(A1.first["mv"], A2.first["mv"], equal_nan=True) and
                    np.array_equal(F1.first["cls"], F2.first["cls"]) and
                    np.array_equal(A1.first["cls"], A2.first["cls"]))

    # adaptive vs fixed
    same_cls = int(np.sum(fx["cls"] == ad["cls"]))
    same_cls_nq = int(np.sum(strip_q(fx["cls"]) == strip_q(ad["cls"])))
    both = regular(fx["cls"]) & regular(ad["cls"])
    d_af = np.abs(ad["mv"][both] - fx["mv"][both])
    mean_periods_ad = float(np.mean(ad["periods_run"]))

    # both vs the reference, on the cases regular in all three
    reg3 = both & regular(ref["cls"])
    d_fr = np.abs(fx["mv"][reg3] - ref["mv"][reg3])
    d_ar = np.abs(ad["mv"][reg3] - ref["mv"][reg3])
    closer_ad = int(np.sum(d_ar < d_fr))
    closer_fx = int(np.sum(d_fr < d_ar))
    cls_ref_fx = int(np.sum(strip_q(fx["cls"]) == strip_q(ref["cls"])))
    cls_ref_ad = int(np.sum(strip_q(ad["cls"]) == strip_q(ref["cls"])))

    # ---- 3. product subset, vibro and the peers, one core each
    ia = np.arange(0, len(fx["a_hat"]), args.a_stride)
    iz = np.arange(0, len(fx["z0"]), args.z_stride)
    a_sub, z_sub = fx["a_hat"][ia], fx["z0"][iz]
    flat_idx = (ia[:, None] * len(fx["z0"]) + iz[None, :]).ravel()
    write_subset_ini(args.ini, P("subset.ini"), a_sub, z_sub, P("subset.h5"))
    write_cases_csv(P("subset.csv"), a_sub, z_sub)
    ia_s = np.arange(0, len(fx["a_hat"]), sa)
    write_cases_csv(P("subset_scipy.csv"), fx["a_hat"][ia_s], z_sub)
    n_sub = len(flat_idx)

    sub = {"vibro": Timed("vibro-subset")}
    if have_cvode:
        sub["cvode12"] = Timed("cvode-1e-12")
        sub["cvode18"] = Timed("cvode-1e-18")
    if have_scipy:
        sub["scipy"] = Timed("scipy")
    peer_cmds = {
        "cvode12": [args.cvode, P("subset.csv"), str(args.periods), str(args.window), "1e-12"],
        "cvode18": [args.cvode, P("subset.csv"), str(args.periods), str(args.window), "1e-18"],
        "scipy": [args.python, args.scipy_peer, P("subset_scipy.csv"), str(args.periods),
                  str(args.window), "1e-12"],
    }
    n_rep = max(args.repeats, args.scipy_repeats if "scipy" in sub else 0)
    for rep in range(n_rep):
        log(f"[{time.perf_counter() - t_start:6.1f} s] subset ({n_sub} cases), repeat {rep + 1}/{n_rep}")
        for key, t in sub.items():
            reps = args.scipy_repeats if key == "scipy" else args.repeats
            if rep >= reps:
                continue
            if key == "vibro":
                out = P(f"subset_r{rep}.h5")
                w, _ = run_cmd(vibro_cmd(out, "fixed", 1, ini=P("subset.ini")), env=env)
                r = read_h5(out)
                t.inner.append(r["wall"])
            else:
                out = P(f"{key}_r{rep}.csv")
                w, _ = run_cmd(peer_cmds[key], out_path=out, env=env)
                r = read_peer_csv(out)
                t.inner.append(sum(x[4] for x in r))
            t.process.append(w)
            if t.first is None:
                t.first = r

    vs = sub["vibro"].first
    sub_consistent = (np.array_equal(vs["mv"], fx["mv"][flat_idx], equal_nan=True) and
                      np.array_equal(vs["cls"], fx["cls"][flat_idx]))
    v_key = {(float(a), float(z)): i for i, (a, z) in
             enumerate((a, z) for a in vs["a_hat"] for z in vs["z0"])}

    def lookup(a, z):
        """Index into the vibro subset of a peer row (the peers print %.10g: nearest grid point)."""
        i = v_key.get((a, z))
        if i is None:
            i = min(v_key.items(), key=lambda kv: abs(kv[0][0] - a) + 1e3 * abs(kv[0][1] - z))[1]
        return i

    def peer_accuracy(rows):
        """Against vibro fixed-100 on the cases of `rows` that vibro classes as regular."""
        n_reg = w01 = w1 = 0
        imp_p = imp_v = imp_p_all = imp_v_all = 0
        outliers = []
        for a, z, mv, imp, _ in rows:
            i = lookup(a, z)
            imp_p_all += imp
            imp_v_all += int(vs["impacts"][i])
            if vs["cls"][i].startswith("X"):
                continue
            n_reg += 1
            ref_v = vs["mv"][i]
            rel = abs(mv - ref_v) / abs(ref_v) if ref_v != 0 else abs(mv - ref_v)
            w01 += rel <= 1e-3
            w1 += rel <= 1e-2
            imp_p += imp
            imp_v += int(vs["impacts"][i])
            if not rel <= 1e-3:
                g = flat_idx[i]  # the same case in the full grid, for the reference's answer
                k = int(vs["period"][i]) if vs["period"] is not None else 0
                outliers.append((a, z, f"{vs['cls'][i]}, k={k}", ref_v, mv, rel, int(vs["impacts"][i]), imp,
                                 ref["mv"][g], ref["cls"][g]))
        return {"n": len(rows), "n_reg": n_reg, "w01": w01, "w1": w1, "imp_p": imp_p, "imp_v": imp_v,
                "imp_p_all": imp_p_all, "imp_v_all": imp_v_all, "outliers": outliers}

    # ---- the table
    def vib_rates(t, threads):
        imp = int(np.sum(t.first["impacts"]))
        n = len(t.first["cls"])
        return n / t.best, imp / t.best, imp / t.best / threads, imp

    rows = []
    head = ("| # | run | cases | threads | wall s min / med / max | cases/s | impacts | impacts/s | "
            "impacts/s per core | speed-up | answers |")
    sep = "|" + "---|" * 11

    c1, i1, ic1, imp1 = vib_rates(F1, 1)
    c2, i2, ic2, imp2 = vib_rates(F2, 2)
    rows.append(f"| 1a | vibro fixed {args.periods} periods | {n_full} | 1 | {F1.spread()} | "
                f"{fmt_rate(c1)} | {imp1} | {fmt_rate(i1)} | {fmt_rate(ic1)} | 1 (base) | "
                f"vs ref-{args.ref_periods}: max {fmt_e(d_fr.max())}, p99 "
                f"{fmt_e(np.percentile(d_fr, 99))} m/s, {int(np.sum(d_fr > 1e-6))}/{len(d_fr)} > 1e-6; "
                f"class (no ~) {cls_ref_fx}/{n_full} |")
    rows.append(f"| 1b | vibro fixed {args.periods} periods | {n_full} | 2 | {F2.spread()} | "
                f"{fmt_rate(c2)} | {imp2} | {fmt_rate(i2)} | {fmt_rate(ic2)} | "
                f"x{F1.best / F2.best:.2f} vs 1 thread | identical to 1a: "
                f"{'yes' if same_threads else 'NO'} |")
    ca1, ia1, ica1, impa1 = vib_rates(A1, 1)
    ca2, ia2, ica2, impa2 = vib_rates(A2, 2)
    rows.append(f"| 2a | vibro adaptive | {n_full} | 1 | {A1.spread()} | {fmt_rate(ca1)} | {impa1} | "
                f"{fmt_rate(ia1)} | {fmt_rate(ica1)} | x{F1.best / A1.best:.2f} vs 1a | "
                f"vs 1a: class {same_cls}/{n_full} ({same_cls_nq} without ~); on {len(d_af)} regular: "
                f"max {fmt_e(d_af.max())}, p99 {fmt_e(np.percentile(d_af, 99))} m/s, "
                f"{int(np.sum(d_af > 1e-6))} > 1e-6. vs ref-{args.ref_periods}: max "
                f"{fmt_e(d_ar.max())}, p99 {fmt_e(np.percentile(d_ar, 99))} m/s, "
                f"{int(np.sum(d_ar > 1e-6))}/{len(d_ar)} > 1e-6; class (no ~) {cls_ref_ad}/{n_full} |")
    rows.append(f"| 2b | vibro adaptive | {n_full} | 2 | {A2.spread()} | {fmt_rate(ca2)} | {impa2} | "
                f"{fmt_rate(ia2)} | {fmt_rate(ica2)} | x{F2.best / A2.best:.2f} vs 1b, "
                f"x{A1.best / A2.best:.2f} vs 2a | as 2a |")
    rows.append(f"| R | vibro fixed {args.ref_periods} periods (reference) | {n_full} | 2 | "
                f"{fmt_s(ref['wall'])} (1 run) | {fmt_rate(n_full / ref['wall'])} | "
                f"{int(np.sum(ref['impacts']))} | {fmt_rate(np.sum(ref['impacts']) / ref['wall'])} | "
                f"{fmt_rate(np.sum(ref['impacts']) / ref['wall'] / 2)} | - | "
                f"{int(np.sum(regular(ref['cls'])))} regular, {int(np.sum(~regular(ref['cls'])))} X |")

    vt = sub["vibro"]
    v_imp = int(np.sum(vs["impacts"]))
    v_cps, v_ips = n_sub / vt.best, v_imp / vt.best
    rows.append(f"| 3a | vibro fixed {args.periods}, subset | {n_sub} | 1 | {vt.spread()} | "
                f"{fmt_rate(v_cps)} | {v_imp} | {fmt_rate(v_ips)} | {fmt_rate(v_ips)} | 1 (base) | "
                f"{int(np.sum(regular(vs['cls'])))} regular, {int(np.sum(~regular(vs['cls'])))} X; "
                f"same as 1a on these cases: {'yes' if sub_consistent else 'NO'} |")
    labels = {"cvode12": "CVODE Adams, rtol 1e-10, atol 1e-12",
              "cvode18": "CVODE Adams, rtol 1e-10, atol 1e-18",
              "scipy": "scipy solve_ivp DOP853, rtol 1e-10, atol 1e-12"}
    accs = {}
    for n, key in enumerate(k for k in ("cvode12", "cvode18", "scipy") if k in sub):
        t = sub[key]
        acc = peer_accuracy(t.first)
        accs[key] = acc
        imp = sum(x[3] for x in t.first)
        cps, ips = acc["n"] / t.best, imp / t.best
        # vibro's rate on exactly the peer's cases (scipy may run on a coarser subset)
        rows_idx = [lookup(a, z) for a, z, *_ in t.first]
        v_wall_share = vt.best * (float(np.sum(vs["case_wall"][rows_idx])) /
                                  max(float(np.sum(vs["case_wall"])), 1e-300))
        v_imp_same = int(np.sum(vs["impacts"][rows_idx]))
        v_cps_same = len(rows_idx) / v_wall_share if len(rows_idx) < n_sub else v_cps
        v_ips_same = v_imp_same / v_wall_share if len(rows_idx) < n_sub else v_ips
        rows.append(
            f"| 3{'bcd'[n]} | {labels[key]} | {acc['n']} | 1 | {t.spread()} | {fmt_rate(cps)} | {imp} | "
            f"{fmt_rate(ips)} | {fmt_rate(ips)} | vibro/peer: impacts/s x{v_ips_same / ips:.0f}, "
            f"cases/s x{v_cps_same / cps:.0f} | regular {acc['n_reg']}: within 0.1 % "
            f"{acc['w01']}/{acc['n_reg']}, within 1 % {acc['w1']}/{acc['n_reg']}; impacts "
            f"{pct(acc['imp_p'], acc['imp_v'])} of vibro's (all cases {pct(acc['imp_p_all'], acc['imp_v_all'])}) |")

    # ---- print
    print("# Conveyor Fig. 6 sweep: vibro against itself and its peers\n")
    print(f"Machine: {mach['cpu']}, nproc {mach['nproc']} (usable {mach['usable']}), Linux "
          f"{mach['kernel']}; load average at start {load0}, at end {loadavg()}.  ")
    print(f"{vibro_version or 'vibro'}, checkout {git_revision()} ({vibro_src}, copied before the "
          f"first run); sweep {os.path.relpath(args.ini, REPO)}: "
          f"a_hat {len(fx['a_hat'])} values x z0 {len(fx['z0'])} values = {n_full} cases, "
          f"{args.periods} periods, window {args.window}.  ")
    print(f"Subset for the peers: a_hat every {args.a_stride}th value ({', '.join(f'{v:g}' for v in a_sub)}) "
          f"x z0 every {args.z_stride}th value ({', '.join(f'{v:g}' for v in z_sub)}) = {n_sub} cases"
          + (f"; scipy: a_hat every {sa}th value = {len(ia_s) * len(iz)} cases" if sa != args.a_stride else "")
          + ".\n")
    print(head)
    print(sep)
    for r in rows:
        print(r)

    print("\nNotes")
    print(f"- Timings: every configuration was run {args.repeats} times (scipy {args.scipy_repeats}), the "
          "repeats interleaved; rates use the MIN wall time. vibro's time is the sweep's own timer "
          "(HDF5 root attribute wall_seconds: the sweep, without process start-up and file writing); "
          "a peer's time is the sum of its per-case wall_s (the figure in its stderr summary, without "
          "process and interpreter start-up). Whole-process min times: "
          + ", ".join(f"{t.name} {fmt_s(min(t.process))} s" for t in list(full.values()) + list(sub.values()))
          + ".")
    print("- impacts = sum of /cases/counters/impacts (whole run, transient included) or of the peer's "
          "impacts column; impacts/s = impacts / wall; per core = impacts/s / threads. Peers are "
          "single-threaded, one process, one core.")
    print(f"- Adaptive ran {mean_periods_ad:.1f} periods per case on average (fixed: {args.periods}); "
          f"its speed-up is cases/s against the fixed run at the same thread count.")
    print(f"- Accuracy against the reference (fixed {args.ref_periods} periods, window {args.window}): "
          f"on the {len(d_fr)} cases regular in fixed, adaptive and reference, fixed-{args.periods} "
          f"median |dv| {fmt_e(np.median(d_fr))}, p99 {fmt_e(np.percentile(d_fr, 99))}, max "
          f"{fmt_e(d_fr.max())} m/s, {int(np.sum(d_fr > 1e-6))} > 1e-6; adaptive median "
          f"{fmt_e(np.median(d_ar))}, p99 {fmt_e(np.percentile(d_ar, 99))}, max {fmt_e(d_ar.max())} "
          f"m/s, {int(np.sum(d_ar > 1e-6))} > 1e-6. Adaptive is closer to the reference on "
          f"{closer_ad} cases, fixed-{args.periods} on {closer_fx}, equal on "
          f"{len(d_fr) - closer_ad - closer_fx}. Class agreement with the reference (ignoring ~): "
          f"fixed {cls_ref_fx}/{n_full}, adaptive {cls_ref_ad}/{n_full}.")
    worst = np.argsort(-np.abs(ad["mv"] - fx["mv"]) * both)[:3]
    print("- Largest adaptive-vs-fixed differences on regular cases (a_hat, z0: class fixed/adaptive/ref, "
          "v fixed / adaptive / ref): " + "; ".join(
              f"{fx['a_hat'][i // len(fx['z0'])]:g}, {fx['z0'][i % len(fx['z0'])]:g}: "
              f"{fx['cls'][i]}/{ad['cls'][i]}/{ref['cls'][i]}, {fx['mv'][i]:.7g} / {ad['mv'][i]:.7g} / "
              f"{ref['mv'][i]:.7g}" for i in worst) + ".")
    print(f"- vibro's mean_velocity averages the window over whole orbit periods (floor({args.window}/k) k "
          f"periods for a period-k orbit), the peers over exactly {args.window} periods: on a converged "
          "orbit the two agree only where k divides the window or the orbit's velocity is even over "
          "its periods, and on a slowly converging (~) case the shorter window changes the transient share.")
    print("- Peer accuracy is against vibro fixed-100 on the subset cases vibro classes as regular "
          "(class not X); chaotic cases are compared by nothing but their impact counts. 'impacts x% "
          "of vibro's' = sum of the peer's impacts / sum of vibro's over the same cases.")
    for key, acc in accs.items():
        if acc["outliers"]:
            out = acc["outliers"]
            print(f"- {labels[key]}: regular cases outside 0.1 % (a_hat, z0, vibro class and period k: v vibro / "
                  f"v peer [m/s], rel. diff, impacts vibro / peer; reference {args.ref_periods}-period "
                  f"v and class): " + "; ".join(
                      f"{a:g}, {z:g}, {c}: {vv:.7g} / {pv:.7g}, {rel:.2g}, {iv} / {ip}; ref {rv:.7g} {rc}"
                      for a, z, c, vv, pv, rel, iv, ip, rv, rc in out[:8])
                  + (f"; and {len(out) - 8} more" if len(out) > 8 else "") + ".")
    # Exact check: on the period-1 hop (one impact a period, flight time T, the impact's friction
    # impulse enough to bring the part to the plate's tangential velocity) the impact law fixes the
    # plate's normal velocity at impact, V = g T/2 (1-c_r)/(1+c_r), whatever a_hat, so the part moves
    # at the plate's tangential velocity then: v = cot(phi) V.
    pr = ref["params"]
    if all(k in pr for k in ("phi", "g", "f", "c_r")):
        v_hop = (float(pr["g"]) / (2.0 * float(pr["f"])) * (1.0 - float(pr["c_r"])) /
                 (1.0 + float(pr["c_r"])) / np.tan(np.radians(float(pr["phi"]))))
        parts = []
        for name, r in (("fixed-%d" % args.periods, fx), ("adaptive", ad),
                        ("reference", ref)):
            h1 = strip_q(r["cls"]) == "H1"
            if np.any(h1):
                parts.append(f"{name} {int(np.sum(h1))} cases, max |dv| "
                             f"{fmt_e(np.max(np.abs(r['mv'][h1] - v_hop)))} m/s")
        print(f"- Closed-form check, class H1 (period-1 hop, v = cot(phi) g T/2 (1-c_r)/(1+c_r) = "
              f"{v_hop:.10g} m/s): " + "; ".join(parts) + ".")
    if bad:
        print(f"- WARNING: the sweep's model parameters differ from the peers' hard-coded ones: {bad}.")
    else:
        print("- The sweep's f, phi, g, c_r, mu, u_tol equal the constants the peers hard-code.")
    finish_report(list(full.values()), t_start, work, args.workdir)


def finish_report(timed, t_start, work, keep):
    """Last notes of a benchmark report (repeats that changed their answers, total time) and clean-up."""
    nondet = [t.name for t in timed if getattr(t, "nondeterministic", False)]
    if nondet:
        print(f"- WARNING: answers changed between repeats of {', '.join(nondet)}.")
    print(f"- Total benchmark time {time.perf_counter() - t_start:.0f} s; "
          + (f"files kept in {work}." if keep else "files removed (--workdir keeps them)."))
    if not keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
