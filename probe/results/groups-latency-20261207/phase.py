import statistics
import re, collections
ev=[]
rx=re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+): (.*)$')
for line in open('/tmp/lat/tr.txt'):
    m=rx.match(line)
    if not m: continue
    comm,pid,cpu,ts,name,rest=m.groups()
    ev.append((float(ts),name,int(pid),rest))
sleeps=collections.Counter()
for ts,name,pid,rest in ev:
    if name=='sched_switch' and 'prev_state=S' in rest and 'prev_comm=python3' in rest:
        sleeps[int(re.search(r'prev_pid=(\d+)',rest).group(1))]+=1
periodics=[p for p,c in sleeps.items() if c>200]
print('periodic pids', periodics, [sleeps[p] for p in periodics])
for P in periodics:
    last_tick=None; waking=None; running=None; waits=[]; offs=[]; rows=[]
    for ts,name,pid,rest in ev:
        if name=='local_timer_entry': last_tick=ts
        elif name=='sched_waking' and 'pid=%d '%P in rest:
            waking=ts; wake_off=(ts-last_tick)*1e6 if last_tick else -1; cur=pid
        elif name=='sched_switch':
            nxt=int(re.search(r'next_pid=(\d+)',rest).group(1))
            if nxt==P and waking is not None:
                w=(ts-waking)*1e6; waits.append(w); rows.append((round(wake_off), round(w), cur)); waking=None
    import statistics
    print(P, 'n', len(waits), 'mean wait us %.0f'%statistics.mean(waits), 'p50 %.0f'%statistics.median(waits))
    # histogram of wake offset from tick (in 500 us bins) vs mean wait
    b=collections.defaultdict(list)
    for off,w,c in rows: b[int(off//500)].append(w)
    print('  offset-bin(500us): count, mean wait', {k*500:(len(v),round(statistics.mean(v))) for k,v in sorted(b.items())})
print('--- offsets from the 4 ms grid (t0 = first timer entry)')
t0=[ts for ts,name,pid,rest in ev if name=='local_timer_entry'][0]
for P in periodics:
    waking=None; b=collections.defaultdict(list); runner=collections.Counter()
    for ts,name,pid,rest in ev:
        if name=='sched_waking' and 'pid=%d '%P in rest:
            waking=ts
        elif name=='sched_switch' and waking is not None and int(re.search(r'next_pid=(\d+)',rest).group(1))==P:
            off=((waking-t0)*1e6)%4000
            b[int(off//250)].append((ts-waking)*1e6); waking=None
    print(P, {k*250:(len(v),round(statistics.mean(v))) for k,v in sorted(b.items())})
