# SPDX-License-Identifier: GPL-2.0-only
"""How output options behave on the command line: a file is written whole or
not at all, "-" sends one output to stdout, --schbench takes its file only
after "=", an SVG output must be named .svg, a flag given twice is refused,
and every command's --help has examples."""
import json
import os
import xml.etree.ElementTree as ET

from outputs_harness import run, test, path, validate, WORKLOAD, FLAGS


@test
def outputs_are_written_whole_or_not_at_all():
    bad = path("no/such/dir/x")
    for flag in ("--timehist", "--latency", "--csv", "--chrome", "--svg-lag", "--schbench"):
        given = [flag + "=" + bad] if flag == "--schbench" else [flag, bad]  # --schbench=FILE only
        e = run("sim", "--hogs", "2", "--duration", "10ms", *given, code=2).stderr
        assert flag in e and "cannot write" in e, e
    assert not os.path.exists(path("no"))


@test
def help_on_every_command_has_examples():
    for cmd in (["sim"], ["slice-table"], ["plot", "runs"], ["presets"], ["bugs"], ["check"], ["probe"]):
        p = run(*cmd, "--help")
        assert "Example" in p.stdout, cmd


@test
def schbench_takes_its_file_only_after_equals_so_it_never_swallows_the_workload():
    before = open(WORKLOAD).read()
    s = run("sim", "--schbench", WORKLOAD, "--duration", "100ms").stdout
    assert open(WORKLOAD).read() == before  # the workload was read, not written
    assert s.startswith("# eevdf model") and "Wakeup Latencies percentiles" in s
    assert s == run("sim", WORKLOAD, "--duration", "100ms", "--schbench").stdout


@test
def a_file_option_given_dash_writes_that_output_alone_to_stdout():
    t = path("dash.trace")
    run("sim", WORKLOAD, *FLAGS, "--trace", t)
    assert run("sim", WORKLOAD, *FLAGS, "--trace", "-").stdout == open(t).read()
    assert not os.path.exists("-")
    c = json.loads(run("sim", WORKLOAD, *FLAGS, "--chrome", "-").stdout)
    validate(c, "chrome.schema.json")
    svg = run("plot", "runs", "--hz", "100", "--slices", "3ms", "--duration", "50ms", "-o", "-").stdout
    ET.fromstring(svg)
    e = run("sim", WORKLOAD, *FLAGS, "--trace", "-", "--csv", "-", code=2).stderr
    assert "--csv -: only one output can go to the standard output, and --trace - already does" in e, e
    e = run("sim", WORKLOAD, *FLAGS, "--trace", "-", "--json", code=2).stderr
    assert "--trace -: the standard output already carries --json" in e, e


@test
def an_svg_output_named_as_another_image_format_is_refused():
    for args in (["plot", "runs", "--hz", "100", "--slices", "3ms", "-o", path("x.png")],
                 ["sim", "--hogs", "1", "--duration", "10ms", "--svg-lag", path("x.PDF")]):
        e = run(*args, code=2).stderr
        assert "eevdf writes SVG only" in e and ".svg" in e, e
    assert not os.path.exists(path("x.png")) and not os.path.exists(path("x.PDF"))


@test
def a_flag_given_twice_names_the_flag_and_both_values():
    e = run("sim", "--hogs", "1", "--duration=10ms", "--duration", "20ms", code=2).stderr
    assert "--duration was given 2 times ('10ms', '20ms'); it takes one value: give it once" in e, e
