#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Record hogs2-pinned again, read live from trace_pipe by a background cat.
set -u
T=/sys/kernel/tracing
W=/tmp/traces-work
EVENTS="sched:sched_switch sched:sched_wakeup sched:sched_wakeup_new sched:sched_waking sched:sched_migrate_task sched:sched_process_fork sched:sched_process_exit"
echo 0 > $T/tracing_on
echo nop > $T/current_tracer
echo > $T/set_event
echo 4096 > $T/buffer_size_kb
echo > $T/trace
for e in $EVENTS; do echo $e >> $T/set_event; done
taskset -c 0 $W/tpread $T/trace_pipe $W/hogs2-pinned.trace_pipe &
CATPID=$!
sleep 2
echo 1 > $T/tracing_on
bash -c 'cd /tmp/traces-work; taskset -c 1 ./hog hogs2-pinned-trace_pipe 0.5 & taskset -c 1 ./hog hogs2-pinned-trace_pipe 0.5 & wait'
sleep 0.05
echo 0 > $T/tracing_on
sleep 1                               # let the reader drain what is left
kill $CATPID 2>/dev/null; wait $CATPID
for c in $T/per_cpu/cpu*; do echo "$(basename $c): $(grep -E '^(entries|overrun|commit overrun|dropped events|read events):' $c/stats | tr '\n' ' ')"; done > $W/hogs2-pinned.trace_pipe.stats
echo > $T/set_event
cat $W/hogs2-pinned.trace_pipe.stats
