#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Helper: record one scenario with the raw ftrace interface.
# usage: rec.sh NAME BUFFER_KB CMD...   (CMD is run by bash -c)
set -u
T=/sys/kernel/tracing
W=/tmp/traces-work
NAME=$1; BUF=$2; shift 2
EVENTS="sched:sched_switch sched:sched_wakeup sched:sched_wakeup_new sched:sched_waking sched:sched_migrate_task sched:sched_process_fork sched:sched_process_exit"
echo 0 > $T/tracing_on
echo nop > $T/current_tracer
echo > $T/set_event                 # disable all events
echo $BUF > $T/buffer_size_kb
echo > $T/trace                     # clear the buffer (all CPUs)
for e in $EVENTS; do echo $e >> $T/set_event; done
sleep ${SETTLE:-2}   # let the shell/tool start-up activity die down
echo 1 > $T/tracing_on
bash -c "$*"
sleep 0.05
echo 0 > $T/tracing_on
cp $T/trace $W/$NAME.ftrace
for c in $T/per_cpu/cpu*; do echo "$(basename $c): $(grep -E '^(entries|overrun|commit overrun|dropped events):' $c/stats | tr '\n' ' ')"; done > $W/$NAME.stats
echo > $T/set_event
cat $W/$NAME.stats
