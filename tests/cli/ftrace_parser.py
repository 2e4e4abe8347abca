# SPDX-License-Identifier: GPL-2.0-only
"""A parser for the kernel's ftrace text output (/sys/kernel/tracing/trace),
written to the kernel's format rather than to the model's writer:

- the header of print_trace_header()/print_func_help_header_irq(): "# tracer:",
  "# entries-in-buffer/entries-written: N/M   #P:CPUS", the flag legend;
- each line as trace_print_context() lays it out: "%16s-%-7d" comm-pid (the
  comm right-aligned in 16 columns, at most TASK_COMM_LEN-1 = 15 characters,
  may contain spaces and '-'), " [%03d] " CPU, the 5 latency-format flag
  characters (irqs-off d/X/., need-resched N/n/p/., hardirq/softirq
  Z/z/H/h/s/., preempt-depth hex digit or '.', migrate-disable hex or '.'),
  " %5lu.%06lu: " seconds and microseconds, then "EVENT: FIELDS";
- sched_switch fields as TP_printk() of include/trace/events/sched.h prints
  them: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==>
  next_comm=%s next_pid=%d next_prio=%d, prev_state one of the task-state
  letters (R S D T t X Z P I, "+" appended when preempted with need-resched);
- sched_wakeup/sched_wakeup_new/sched_waking: comm=%s pid=%d prio=%d
  target_cpu=%03d;
- sched_migrate_task: comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d.
"""
import re

HEAD = re.compile(r"^(?P<comm>.{16})-(?P<pid>\d+) *\[(?P<cpu>\d{3})\] "
                  r"(?P<flags>[dX.][Nnp.][ZzHhs.][0-9a-f.][0-9a-f.]) +"
                  r"(?P<sec>\d+)\.(?P<usec>\d{6}): (?P<event>\w+): (?P<body>.*)$")
SWITCH = re.compile(r"^prev_comm=(?P<prev_comm>.{1,15}) prev_pid=(?P<prev_pid>-?\d+) prev_prio=(?P<prev_prio>-?\d+) "
                    r"prev_state=(?P<prev_state>[RSDTtXZPI](?:\|[RSDTtXZPI])*\+?) ==> "
                    r"next_comm=(?P<next_comm>.{1,15}) next_pid=(?P<next_pid>-?\d+) next_prio=(?P<next_prio>-?\d+)$")
WAKEUP = re.compile(r"^comm=(?P<comm>.{1,15}) pid=(?P<pid>-?\d+) prio=(?P<prio>-?\d+)(?: success=1)? target_cpu=(?P<target_cpu>\d{3})$")
MIGRATE = re.compile(r"^comm=(?P<comm>.{1,15}) pid=(?P<pid>-?\d+) prio=(?P<prio>-?\d+) "
                     r"orig_cpu=(?P<orig_cpu>\d+) dest_cpu=(?P<dest_cpu>\d+)$")
ENTRIES = re.compile(r"^# entries-in-buffer/entries-written: (\d+)/(\d+)\s+#P:(\d+)$")


class ParseError(Exception):
    pass


def parse(text):
    """Returns (header, events): header holds tracer, entries, written, cpus;
    each event is a dict with comm, pid, cpu, flags, ts_us, event and the
    event's typed fields."""
    header, events = {}, []
    for n, line in enumerate(text.split("\n"), 1):
        if line == "":
            continue
        if line.startswith("#"):
            if line.startswith("# tracer: "):
                header["tracer"] = line[len("# tracer: "):]
            m = ENTRIES.match(line)
            if m:
                header["entries"], header["written"], header["cpus"] = map(int, m.groups())
            continue
        m = HEAD.match(line)
        if not m:
            raise ParseError(f"line {n}: not a trace line: {line!r}")
        e = {"comm": m["comm"].lstrip(), "pid": int(m["pid"]), "cpu": int(m["cpu"]), "flags": m["flags"],
             "ts_us": int(m["sec"]) * 1000000 + int(m["usec"]), "event": m["event"]}
        if len(e["comm"]) > 15 and e["comm"] != "<idle>":
            raise ParseError(f"line {n}: comm longer than TASK_COMM_LEN - 1: {e['comm']!r}")
        if e["event"] == "sched_switch":
            f = SWITCH.match(m["body"])
        elif e["event"] in ("sched_wakeup", "sched_wakeup_new", "sched_waking"):
            f = WAKEUP.match(m["body"])
        elif e["event"] == "sched_migrate_task":
            f = MIGRATE.match(m["body"])
        else:
            raise ParseError(f"line {n}: unknown event {e['event']}")
        if not f:
            raise ParseError(f"line {n}: bad {e['event']} fields: {m['body']!r}")
        for k, v in f.groupdict().items():
            e[k] = int(v) if re.fullmatch(r"-?\d+", v) and not k.endswith("comm") and k != "comm" else v
        events.append(e)
    if "tracer" not in header:
        raise ParseError("no '# tracer:' header line")
    if header.get("entries") != len(events):
        raise ParseError(f"header says {header.get('entries')} entries, found {len(events)}")
    return header, events


def runs(events):
    """On-CPU intervals from sched_switch: (pid, start_us, end_us, prev_state),
    in the order they end. Checks that each switch's prev is the previous
    switch's next on the same CPU."""
    out, cur, since = [], {}, {}
    for e in events:
        if e["event"] != "sched_switch":
            continue
        c = e["cpu"]
        if c in cur and e["prev_pid"] != cur[c]:
            raise ParseError(f"switch at {e['ts_us']} us on CPU {c}: prev_pid {e['prev_pid']} is not the running pid {cur[c]}")
        if e["pid"] != e["prev_pid"]:
            raise ParseError(f"switch at {e['ts_us']} us is logged in the context of {e['pid']}, not prev {e['prev_pid']}")
        if cur.get(c, 0) != 0:
            out.append((cur[c], since[c], e["ts_us"], e["prev_state"]))
        cur[c], since[c] = e["next_pid"], e["ts_us"]
    return out
