"""aicore_sim.sweep() and aicore_sim.gen() (docs/python.md) against what they must agree with: each
point of a sweep is the run() of its configuration, a study file gives the CLI's results.csv, a
generated case is byte for byte the CLI's and simulates to the same cycles, and bad studies and
arguments raise InputError with the CLI's messages. Run by CTest (python.sweep_gen) as test_api.py."""
import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import types

import pytest

import aicore_sim

SRC = os.environ["AICORE_SOURCE_DIR"]
CLI = os.environ["AICORE_SIM"]
SEED_DIR = os.path.join(SRC, "traces", "seed_sparse_16x64x16")
SEED = os.path.join(SEED_DIR, "seed_sparse_16x64x16.trace")
PIPES = ("S", "MTE2", "MTE1", "M", "FIX")
READS = [8, 64]  # gm.read.bytes_per_cycle: far below and below atlas-a2's 177.3
HEADS = [0, 16]  # cube.head_cycles
GRID = {"traces": [SEED], "timing_only": True,
        "grid": {"gm.read.bytes_per_cycle": READS, "cube.head_cycles": HEADS}}


def cli(*args, cwd=None):
    return subprocess.run([CLI, *args], capture_output=True, text=True, cwd=cwd)


def test_a_2x2_sweeps_points_are_the_runs_of_their_configurations():
    rows = aicore_sim.sweep(GRID, jobs=2, as_dataframe=False)
    assert len(rows) == 4
    # Point order: the first grid key slowest; the key columns as numbers.
    assert [(r["point"], r["gm.read.bytes_per_cycle"], r["cube.head_cycles"]) for r in rows] == \
        [(0, 8, 0), (1, 8, 16), (2, 64, 0), (3, 64, 16)]
    for row in rows:
        r = aicore_sim.run(SEED, timing_only=True, set={"gm.read.bytes_per_cycle": row["gm.read.bytes_per_cycle"],
                                                        "cube.head_cycles": row["cube.head_cycles"]})
        assert row["status"] == "ok" and row["exit_code"] == 0 and row["message"] == ""
        assert row["cycles"] == r.cycles
        assert row["time_us"] == r.time_us
        assert row["bound_pipe"] == r.bound_pipe
        assert row["instructions"] == r.instruction_count == 13
        for p in PIPES:
            assert row[f"busy_cycles.{p}"] == r.pipes[p]["busy_cycles"]
            assert row[f"busy_ratio.{p}"] == r.pipes[p]["busy_ratio"]
    # The keys matter (else the comparison above proves little): 8 B/cycle reads are slower.
    assert rows[0]["cycles"] > rows[2]["cycles"] and rows[0]["busy_cycles.MTE2"] > rows[2]["busy_cycles.MTE2"]
    assert rows.attrs["swept"] == ["gm.read.bytes_per_cycle", "cube.head_cycles"]
    assert rows.attrs["run"] == 4 and rows.attrs["skipped"] == 0 and rows.attrs["out"] is None
    assert rows.attrs["summary"].startswith("sweep study: 4 points: 4 run, 0 skipped (done before); 4 ok, 0 failed")


def test_a_one_point_study_gives_the_golden_cycles(monkeypatch):
    # Independent of the code under test: tests/golden holds the committed figures.
    with open(os.path.join(SRC, "tests", "golden", "seed_sparse_16x64x16", "stats.json")) as f:
        golden = json.load(f)
    monkeypatch.chdir(SRC)  # a dict's paths are relative to the current directory
    (row,) = aicore_sim.sweep({"traces": "traces/seed_sparse_16x64x16/seed_sparse_16x64x16.trace",
                               "timing_only": True}, jobs=1, as_dataframe=False)
    assert row["trace"] == "traces/seed_sparse_16x64x16/seed_sparse_16x64x16.trace"
    assert row["cycles"] == golden["cycles"]
    assert {p: row[f"busy_cycles.{p}"] for p in PIPES} == {p: golden["pipes"][p]["busy_cycles"] for p in PIPES}


def write_study(tmp_path, body):
    d = tmp_path / "study"
    shutil.copytree(SEED_DIR, d / "seed")
    (d / "s.yaml").write_text(body)
    return d / "s.yaml"


STUDY = """name: two_keys
traces: [seed/seed_sparse_16x64x16.trace]
timing_only: true
grid:
  gm.read.bytes_per_cycle: [8, 64]
  cube.head_cycles: [0, 16]
"""


def test_a_study_file_gives_the_clis_results(tmp_path):
    study = write_study(tmp_path, STUDY)
    p = cli("sweep", str(study), "--out", str(tmp_path / "cli"), "-q", "-j", "2")
    assert p.returncode == 0, p.stderr
    with open(tmp_path / "cli" / "results.csv") as f:
        reader = csv.DictReader(f)
        want, header = list(reader), reader.fieldnames
    rows = aicore_sim.sweep(study, jobs=2, out=tmp_path / "py", as_dataframe=False)
    assert rows.columns == header
    assert len(rows) == len(want) == 4
    for got, w in zip(rows, want):
        for col in header:
            if col == "seconds":
                continue
            if isinstance(got[col], float):
                assert got[col] == pytest.approx(float(w[col]), rel=1e-5), col  # the CSV's %.6g
            else:
                assert ("" if got[col] is None else str(got[col])) == w[col], col
    # The folder holds what the CLI's does, and the rows are results.json's.
    saved = json.loads((tmp_path / "py" / "results.json").read_text())
    assert [r["cycles"] for r in saved["rows"]] == [r["cycles"] for r in rows]
    assert (tmp_path / "py" / "study.yaml").read_text() == STUDY
    assert all((tmp_path / "py" / "points" / r["id"] / "stats.json").exists() for r in rows)


def test_a_dict_with_every_kind_of_value_is_the_study_its_yaml_is(tmp_path):
    # set, a zip group, a range, run_args: the dict's YAML text, run by the CLI, gives the same
    # points and cycles; and the text is what a user would write.
    study = {"traces": [SEED], "timing_only": True, "set": {"cube.head_cycles": 0},
             "zip": [{"mte1.to_l0a.bytes_per_cycle": [64, 128], "mte1.to_l0b.bytes_per_cycle": [64, 128]}],
             "grid": {"gm.read.bytes_per_cycle": {"from": 32, "to": 128, "times": 2}},
             "run_args": ["--check=warn"]}
    text = aicore_sim._sweep.study_text(study)
    assert text == (f"traces: [{SEED}]\ntiming_only: true\nset:\n  cube.head_cycles: 0\nzip:\n  -\n"
                    "    mte1.to_l0a.bytes_per_cycle: [64, 128]\n    mte1.to_l0b.bytes_per_cycle: [64, 128]\n"
                    "grid:\n  gm.read.bytes_per_cycle: {from: 32, to: 128, times: 2}\n"
                    'run_args: ["--check=warn"]\n')
    (tmp_path / "s.yaml").write_text(text)
    p = cli("sweep", str(tmp_path / "s.yaml"), "--out", str(tmp_path / "cli"), "-q", "-j", "2")
    assert p.returncode == 0, p.stderr
    with open(tmp_path / "cli" / "results.csv") as f:
        want = list(csv.DictReader(f))
    rows = aicore_sim.sweep(study, jobs=2, as_dataframe=False)
    assert len(rows) == len(want) == 6  # 2 zip settings x 3 read bandwidths
    assert [(r["id"], str(r["cycles"])) for r in rows] == [(w["id"], w["cycles"]) for w in want]
    assert sorted({r["gm.read.bytes_per_cycle"] for r in rows}) == [32, 64, 128]


def test_out_resumes_and_force_runs_again(tmp_path):
    first = aicore_sim.sweep(GRID, jobs=2, out=tmp_path / "o", as_dataframe=False)
    again = aicore_sim.sweep(GRID, jobs=2, out=tmp_path / "o", as_dataframe=False)
    assert (again.attrs["run"], again.attrs["skipped"]) == (0, 4)
    assert [r["cycles"] for r in again] == [r["cycles"] for r in first]
    forced = aicore_sim.sweep(GRID, jobs=2, out=tmp_path / "o", force=True, as_dataframe=False)
    assert (forced.attrs["run"], forced.attrs["skipped"]) == (4, 0)
    assert forced.attrs["out"] == str(tmp_path / "o")


def test_a_failing_point_is_a_row_not_an_exception(tmp_path):
    t = tmp_path / "t.trace"
    t.write_text("LoadData dst=L0A:0 src=L1:0 repeatTimes=1\nWaitFlag event=MTE2_MTE1 id=1\n")
    (row,) = aicore_sim.sweep({"traces": [str(t)], "timing_only": True}, jobs=1, as_dataframe=False)
    assert row["status"] == "fault" and row["exit_code"] == 3
    assert "deadlock at cycle" in row["message"] and row["cycles"] is not None


def test_a_bad_study_key_raises_input_error_with_the_suggestion(tmp_path):
    bad = {"traces": [SEED], "timing_onyl": True, "grid": {"cube.head_cycle": [0, 16]}}
    with pytest.raises(aicore_sim.InputError) as e:
        aicore_sim.sweep(bad)
    message = str(e.value)
    assert isinstance(e.value, ValueError)
    assert "<dict>:2:1: error: unknown study key 'timing_onyl'; did you mean 'timing_only'?" in message
    # The dict's YAML is listed, numbered, so that line:column can be read.
    assert "   2| timing_onyl: true\n" in message
    # The CLI says the same of the same text in a file.
    study = tmp_path / "s.yaml"
    study.write_text(aicore_sim._sweep.study_text(bad))
    p = cli("sweep", str(study), "--out", str(tmp_path / "o"), "-q")
    assert p.returncode == 2
    assert p.stderr.splitlines()[0] == \
        f"{study}:2:1: error: unknown study key 'timing_onyl'; did you mean 'timing_only'? " \
        f"{message.splitlines()[0].split('? ', 1)[1]}"


def test_a_bad_config_key_in_a_study_file_is_the_clis_message(tmp_path):
    study = write_study(tmp_path, STUDY.replace("cube.head_cycles:", "cube.head_cycle:"))
    p = cli("sweep", str(study), "--out", str(tmp_path / "cli"), "-q")
    assert p.returncode == 2
    with pytest.raises(aicore_sim.InputError) as e:
        aicore_sim.sweep(study, out=tmp_path / "py")
    assert str(e.value) == p.stderr.rstrip("\n")
    # The column is the first wrong part of the key (docs/sweeps.md, Validation).
    assert f"{study}:6:8: error: unknown config key 'cube.head_cycle'; did you mean 'cube.head_cycles'?" \
        in str(e.value)
    assert not (tmp_path / "py").exists()  # nothing is made before the study is valid


def test_missing_study_and_bad_jobs_are_input_errors(tmp_path):
    with pytest.raises(aicore_sim.InputError, match="cannot open the study: no such file"):
        aicore_sim.sweep(tmp_path / "none.yaml")
    for jobs in (0, -1, 1.5, True):
        with pytest.raises(aicore_sim.InputError, match="jobs must be an integer of at least 1"):
            aicore_sim.sweep(GRID, jobs=jobs)


def test_a_capped_value_warns_as_the_cli_does():
    study = {"traces": [SEED], "timing_only": True, "grid": {"gm.read.bytes_per_cycle": [64, 384]}}
    with pytest.warns(RuntimeWarning, match=r"gm.read.bytes_per_cycle is capped in 1 of 2 configurations"):
        rows = aicore_sim.sweep(study, jobs=2, as_dataframe=False)
    assert rows.attrs["warnings"] and rows.attrs["warnings"][0].startswith("<dict>:4:3: warning:")


def test_the_table_is_a_dataframe_when_pandas_is_there(monkeypatch):
    class Frame:  # stands in for pandas.DataFrame: what sweep() hands it
        def __init__(self, rows, columns):
            self.rows, self.columns, self.attrs = rows, columns, {}

    monkeypatch.setitem(sys.modules, "pandas", types.SimpleNamespace(DataFrame=Frame))
    frame = aicore_sim.sweep({"traces": [SEED], "timing_only": True, "grid": {"cube.head_cycles": [0, 16]}}, jobs=2)
    assert isinstance(frame, Frame)
    assert frame.columns[:5] == ["point", "id", "trace", "config", "cube.head_cycles"]
    assert [r["cube.head_cycles"] for r in frame.rows] == [0, 16]
    assert frame.attrs["swept"] == ["cube.head_cycles"]
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas fails
    assert isinstance(aicore_sim.sweep({"traces": [SEED], "timing_only": True}), list)
    with pytest.raises(ImportError):
        aicore_sim.sweep({"traces": [SEED], "timing_only": True}, as_dataframe=True)


def test_the_gil_is_released_while_a_sweep_runs():
    done = threading.Event()
    rows = []

    def go():
        rows.extend(aicore_sim.sweep(GRID, jobs=1, as_dataframe=False))
        done.set()

    t = threading.Thread(target=go)
    t.start()
    ticks = 0
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    t.join()
    assert len(rows) == 4
    assert ticks > 20  # this thread kept running: four points take far more than 20 ms


def test_a_study_with_a_gen_case_runs_the_generated_trace(tmp_path):
    rows = aicore_sim.sweep({"gen": {"shape": [16, 64, 16], "kind": "sparse"},
                             "grid": {"cube.head_cycles": [0, 16]}}, jobs=2, out=tmp_path / "o", as_dataframe=False)
    assert [r["status"] for r in rows] == ["ok", "ok"]  # full mode: the .expect golden matched
    trace = aicore_sim.gen(16, 64, 16, sparse=True, out=tmp_path / "g", name="sparse_16x64x16")
    assert rows[0]["cycles"] == aicore_sim.run(trace, set={"cube.head_cycles": 0}).cycles


def cli_gen(tmp_path, *args):
    p = cli("gen", *args)
    assert p.returncode == 0, p.stderr
    return p


def test_gen_writes_the_clis_case_and_runs_to_the_clis_cycles(tmp_path):
    cli_gen(tmp_path, "--m", "16", "--k", "64", "--n", "32", "--sparse", "--seed", "7", "--out",
            str(tmp_path / "cli"), "--name", "case")
    trace = aicore_sim.gen(16, 64, 32, sparse=True, seed=7, out=tmp_path / "py", name="case")
    assert trace == str(tmp_path / "py" / "case.trace")
    for f in ("a.bin", "b.bin", "idx.bin", "c_golden.bin", "a.npy", "b_sparse.npy"):
        assert (tmp_path / "py" / f).read_bytes() == (tmp_path / "cli" / f).read_bytes(), f
    body = [ln for ln in open(trace) if not ln.startswith("# generated by:")]
    assert body == [ln for ln in open(tmp_path / "cli" / "case.trace") if not ln.startswith("# generated by:")]
    p = cli("run", str(tmp_path / "cli" / "case.trace"), "--out", str(tmp_path / "run"), "-q")
    assert p.returncode == 0, p.stderr
    r = aicore_sim.run(trace)
    assert r.ok and r.expects[0]["match"]
    assert r.cycles == json.loads((tmp_path / "run" / "stats.json").read_text())["cycles"]


def test_gen_options_map_to_the_clis(tmp_path):
    # The matmul kernel, dense int8 with forced tiles and no originals: each the CLI's files.
    trace = aicore_sim.gen(32, 64, 32, dtype="half", timing_only=True, base=(32, 32, 32), out=tmp_path / "mm")
    cli_gen(tmp_path, "--m", "32", "--k", "64", "--n", "32", "--dtype", "half", "--timing-only", "--base",
            "32x32x32", "--out", str(tmp_path / "mm_cli"), "--name", "mm")
    assert trace == str(tmp_path / "mm" / "mm.trace")
    assert sorted(os.listdir(tmp_path / "mm")) == ["mm.trace"]  # timing-only: the trace alone
    r = aicore_sim.run(trace, timing_only=True)
    assert r.cycles == aicore_sim.run(str(tmp_path / "mm_cli" / "mm.trace"), timing_only=True).cycles
    trace = aicore_sim.gen(32, 64, 32, sparse=False, tile_m=16, tile_n=16, tile_k=32, originals=False,
                           out=tmp_path / "d")
    assert not (tmp_path / "d" / "a.npy").exists() and not (tmp_path / "d" / "idx.bin").exists()
    assert "tile" in open(trace).read(400)
    assert aicore_sim.run(trace).ok


def test_bad_gen_arguments_raise_the_clis_message(tmp_path):
    cases = [
        (dict(m=0, k=64, n=16, sparse=True), ["--m", "0", "--k", "64", "--n", "16", "--sparse"],
         "gen: error: --m must be in [1, 1048576], got 0"),
        (dict(m=16, k=64, n=16), ["--m", "16", "--k", "64", "--n", "16"],
         "gen: error: give exactly one of --sparse and --dense"),
        (dict(m=16, k=64, n=16, sparse=True, tile_mm=16), ["--m", "16", "--k", "64", "--n", "16", "--sparse",
                                                            "--tile-mm", "16"],
         "gen: error: unknown option --tile-mm (did you mean --tile-m?)"),
    ]
    for kwargs, args, message in cases:
        with pytest.raises(aicore_sim.InputError) as e:
            aicore_sim.gen(out=tmp_path / "g", **kwargs)
        assert str(e.value) == message
        p = cli("gen", *args, "--out", str(tmp_path / "g"))
        assert p.returncode == 2 and p.stderr.splitlines()[0] == message
    with pytest.raises(aicore_sim.InputError, match=r"^gen: error: --out DIR is required$"):
        aicore_sim.gen(16, 64, 16, sparse=True)


def test_ctrl_c_stops_the_sweep_and_out_keeps_the_finished_points(tmp_path):
    # 40 points of the 1,436-instruction tiled trace on one worker: seconds of work, interrupted
    # by a SIGINT to this process (as Ctrl-C sends it, taken by whichever thread) once the first
    # point has its record.
    tiled = os.path.join(SRC, "traces", "tiled_sparse_512x1024x512", "tiled_sparse_512x1024x512.trace")
    study = {"traces": [tiled], "timing_only": True, "grid": {"cube.head_cycles": list(range(40))}}
    sent = []

    def interrupt_after_the_first_point():
        while not list((tmp_path / "o" / "points").glob("*/point.json")):
            time.sleep(0.002)
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    watcher = threading.Thread(target=interrupt_after_the_first_point)
    watcher.start()
    with pytest.raises(KeyboardInterrupt, match=r"sweep interrupted \(signal 2\)"):
        aicore_sim.sweep(study, jobs=1, out=tmp_path / "o")
    assert time.monotonic() - sent[0] < 2  # at once, not after the other points
    watcher.join()
    rest = aicore_sim.sweep(study, jobs=2, out=tmp_path / "o", as_dataframe=False)
    assert 0 < rest.attrs["skipped"] < 40 and rest.attrs["run"] + rest.attrs["skipped"] == 40
    assert [r["status"] for r in rest] == ["ok"] * 40
