"""The Python API (python/aicore_sim, docs/python.md) against the CLI it must agree with: the same
cycles and stats.json as `aicore-sim run` on the seed trace, the CLI's messages as exceptions, and
checker errors as a status. Run by CTest (python.api) with PYTHONPATH at the build tree's package,
AICORE_SIM the CLI and AICORE_SOURCE_DIR the repository. Small traces only: this runs in seconds."""
import csv
import json
import os
import shutil
import subprocess
import sys
import threading

import numpy
import pytest

import aicore_sim

SRC = os.environ["AICORE_SOURCE_DIR"]
CLI = os.environ["AICORE_SIM"]
SEED_DIR = os.path.join(SRC, "traces", "seed_sparse_16x64x16")
SEED = os.path.join(SEED_DIR, "seed_sparse_16x64x16.trace")


def cli_run(tmp_path, trace, *args):
    out = tmp_path / "cli"
    p = subprocess.run([CLI, "run", trace, "--out", str(out), "-q", *args], capture_output=True, text=True)
    return p, out


def test_seed_trace_gives_the_clis_cycles_and_stats(tmp_path):
    p, out = cli_run(tmp_path, SEED)
    assert p.returncode == 0, p.stderr
    cli_stats = json.loads((out / "stats.json").read_text())
    r = aicore_sim.run(SEED)
    assert r.status == "completed" and r.ok and r.exit_status == 0
    assert r.cycles == cli_stats["cycles"]
    assert r.stats == cli_stats  # the whole document, field for field
    assert r.time_us == cli_stats["time_us"]
    assert r.bound_pipe == cli_stats["summary"]["bound_pipe"]
    assert r.pipes == cli_stats["pipes"]
    assert r.instruction_count == cli_stats["instructions"]
    assert r.files == []  # out=None writes nothing
    assert r.expects == [{"tensor": "c", "file": os.path.join(SEED_DIR, "c_golden.bin"), "match": True,
                          "bytes": 1024, "differing": 0, "elements": 0, "actual_file": ""}]


def test_the_repositorys_golden_cycles():
    # Independent of the code under test: tests/golden holds the committed figures.
    with open(os.path.join(SRC, "tests", "golden", "seed_sparse_16x64x16", "stats.json")) as f:
        golden = json.load(f)
    r = aicore_sim.run(SEED, timing_only=True)
    assert r.cycles == golden["cycles"]
    assert {p: v["busy_cycles"] for p, v in r.pipes.items()} == \
        {p: v["busy_cycles"] for p, v in golden["pipes"].items()}


def test_set_and_config_change_the_run_as_the_cli_does(tmp_path):
    sets = {"mte1.to_l0b.bytes_per_cycle": 64, "cube.head_cycles": 0}
    p, out = cli_run(tmp_path, SEED, "--timing-only", "--set", "mte1.to_l0b.bytes_per_cycle=64",
                     "--set", "cube.head_cycles=0")
    assert p.returncode == 0, p.stderr
    cli_stats = json.loads((out / "stats.json").read_text())
    r = aicore_sim.run(SEED, set=sets, timing_only=True)
    assert r.stats == cli_stats
    cfg = aicore_sim.config("atlas-a2", set=sets)
    assert cfg["cube.head_cycles"] == 0 and cfg["mte1.to_l0b.bytes_per_cycle"] == 64
    assert aicore_sim.run(SEED, config=cfg, timing_only=True).stats == cli_stats


def test_many_runs_in_one_process():
    # SystemC elaborates one model per process: every run is a child, so this process can go on.
    base = aicore_sim.run(SEED, timing_only=True).cycles
    slower = aicore_sim.run(SEED, timing_only=True, set={"gm.read.bytes_per_cycle": 8}).cycles
    again = aicore_sim.run(SEED, timing_only=True).cycles
    assert slower > base and again == base


def test_runs_from_several_threads_agree():
    results = [None] * 4
    sets = [{}, {"gm.read.bytes_per_cycle": 8}, {}, {"gm.read.bytes_per_cycle": 8}]

    def go(i):
        results[i] = aicore_sim.run(SEED, timing_only=True, set=sets[i]).cycles

    threads = [threading.Thread(target=go, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0] == results[2] and results[1] == results[3] and results[1] > results[0]


def test_a_bad_set_key_raises_input_error_with_the_suggestion(tmp_path):
    with pytest.raises(aicore_sim.InputError) as e:
        aicore_sim.run(SEED, set={"cube.head_cycle": 1})
    assert str(e.value) == "--set:1:6: error: unknown config key 'cube.head_cycle'; did you mean 'cube.head_cycles'?"
    p, _ = cli_run(tmp_path, SEED, "--set", "cube.head_cycle=1")
    assert p.returncode == 2 and str(e.value) in p.stderr  # the CLI's own message
    assert isinstance(e.value, ValueError)
    with pytest.raises(aicore_sim.InputError, match=r"did you mean 'cube.head_cycles'"):
        aicore_sim.config(set={"cube.head_cycle": 1})


def test_bad_preset_and_missing_trace_are_input_errors():
    with pytest.raises(aicore_sim.InputError) as e:
        aicore_sim.config("atlas_a3")
    assert str(e.value).startswith("--config: error: unknown preset 'atlas_a3'; did you mean 'atlas-a3'?")
    with pytest.raises(aicore_sim.InputError, match="no/such.trace"):
        aicore_sim.run("no/such.trace")
    with pytest.raises(aicore_sim.InputError) as e:
        aicore_sim.run(SEED, check="warm")
    assert str(e.value) == "error: check must be error, warn, none or raise, not 'warm'; did you mean 'warn'?"
    with pytest.raises(aicore_sim.InputError, match="give out=FOLDER"):
        aicore_sim.run(SEED, instr_log=True)


def racy_trace(tmp_path):
    # The seed kernel without its MTE2_MTE1 flag pair: three RAW races on L1 (tests/check/cases).
    d = tmp_path / "racy"
    shutil.copytree(SEED_DIR, d)
    with open(SEED) as f:
        lines = [ln for ln in f if "event=MTE2_MTE1" not in ln]
    (d / "t.trace").write_text("".join(lines))
    return str(d / "t.trace")


def test_a_racy_trace_returns_check_error_with_its_reports(tmp_path):
    trace = racy_trace(tmp_path)
    r = aicore_sim.run(trace, timing_only=True)
    assert r.status == "check_error" and r.exit_status == 3 and not r.ok
    assert r.check_errors == 3 and len(r.checks) == 3
    p, out = cli_run(tmp_path, trace, "--timing-only")
    assert p.returncode == 3
    assert r.checks == json.loads((out / "checks.json").read_text())["reports"]
    assert [(c["kind"], c["hazard"], c["buffer"], c["line"]) for c in r.checks] == \
        [("race", "RAW", "L1", 17), ("race", "RAW", "L1", 18), ("race", "RAW", "L1", 18)]
    assert r.checks[0]["fix"]["text"] == "SetFlag<MTE2_MTE1> after line 14 and WaitFlag<MTE2_MTE1> before line 17"
    assert r.check_summary["errors"] == 3 and r.check_summary["mode"] == "error"
    assert "error: data race (RAW) on L1 [0x0, 0x400)" in r.log  # what the CLI prints on stderr
    assert aicore_sim.run(trace, timing_only=True, check="warn").status == "completed"
    with pytest.raises(aicore_sim.CheckError) as e:
        aicore_sim.run(trace, timing_only=True, check="raise")
    assert e.value.result.status == "check_error"


def test_a_deadlock_raises_fault_naming_the_instruction(tmp_path):
    t = tmp_path / "t.trace"
    t.write_text("LoadData dst=L0A:0 src=L1:0 repeatTimes=1\nWaitFlag event=MTE2_MTE1 id=1\n")
    with pytest.raises(aicore_sim.Fault) as e:
        aicore_sim.run(str(t), timing_only=True)
    assert "deadlock at cycle" in str(e.value) and "WaitFlag" in str(e.value)
    assert e.value.result.status == "fault"


def test_instructions_are_the_clis_instr_csv(tmp_path):
    p, out = cli_run(tmp_path, SEED, "--instr-log")
    with open(out / "instr.csv") as f:
        want = list(csv.DictReader(f))
    r = aicore_sim.run(SEED, instructions=True)
    rows = r.instructions(as_dataframe=False)
    assert len(rows) == len(want) == r.instruction_count
    for got, w in zip(rows, want):
        assert {k: str(v) for k, v in got.items()} == w
    with pytest.raises(ValueError, match="instructions=True"):
        aicore_sim.run(SEED, timing_only=True).instructions()


def test_tensors_are_the_bytes_the_run_computed():
    r = aicore_sim.run(SEED, tensors=True)
    golden = numpy.fromfile(os.path.join(SEED_DIR, "c_golden.bin"), dtype=numpy.uint8)
    assert numpy.array_equal(r.tensors["c"], golden)


def test_out_writes_the_clis_files(tmp_path):
    r = aicore_sim.run(SEED, out=tmp_path / "o", timing_only=True, instr_log=True)
    assert os.path.join(str(tmp_path / "o"), "stats.json") in r.files
    assert json.loads((tmp_path / "o" / "stats.json").read_text()) == r.stats
    assert (tmp_path / "o" / "instr.csv").exists()


def test_repr_html_has_the_summary_and_every_pipe():
    h = aicore_sim.run(SEED, timing_only=True)._repr_html_()
    assert "<b>completed</b>: 1114 cycles (0.602 us), 13 instructions" in h
    for pipe in ("S", "MTE2", "MTE1", "M", "FIX"):
        assert f"<td>{pipe}</td>" in h
    assert "bound pipe <b>MTE2</b>" in h
    assert "<svg" not in h  # no instructions kept, no Gantt
    r = aicore_sim.run(SEED, timing_only=True, instructions=True)
    g = r._repr_html_()
    assert g.count("<rect") == r.instruction_count == 13  # one busy span per instruction


def test_version_is_the_clis():
    p = subprocess.run([CLI, "--version"], capture_output=True, text=True)
    assert p.stdout.strip() == f"aicore-sim {aicore_sim.__version__}"


def test_the_docs_example_runs_and_plots(tmp_path):
    # examples/python/sweep_two_keys.py is docs/python.md's worked example; its atlas-a2 point
    # (177.3 B/cycle read, 128 B/cycle write) must give the tiled trace's golden cycles.
    with open(os.path.join(SRC, "tests", "golden", "tiled_sparse_512x1024x512", "stats.json")) as f:
        golden_stats = json.load(f)
    golden = golden_stats["cycles"]
    png = tmp_path / "sweep.png"
    p = subprocess.run([sys.executable, os.path.join(SRC, "examples", "python", "sweep_two_keys.py"), str(png)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    lines = [ln.split() for ln in p.stdout.splitlines()]
    # MTE2's busy ratio from the golden too: its busy cycles over the run's.
    busy = round(golden_stats["pipes"]["MTE2"]["busy_cycles"] / golden, 2)
    assert ["177.3", "128", str(golden), "MTE2", f"{busy:.2f}"] in lines
    assert len([ln for ln in lines if len(ln) == 5]) == 12  # one line per point
    assert png.stat().st_size > 10000
