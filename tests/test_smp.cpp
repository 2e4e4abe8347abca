// SPDX-License-Identifier: GPL-2.0-only
// The multi-CPU machinery around the per-CPU EEVDF: per-CPU ticks, the
// wakelist and IPIs, affinity. Schedules computed by hand; CPU selection and
// the balancer have their own tests (test_select_*.cpp, test_balance_*.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "io/rtapp.hpp"
#include "model/check.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

struct CpuSwitch {
	u64 t;
	u32 cpu;
	int prev, next;
	bool operator==(const CpuSwitch&) const = default;
};

struct SmpRecorder : Observer {
	std::vector<CpuSwitch> switches;
	std::vector<std::pair<u64, u32>> ticks;     // time, CPU
	std::vector<std::pair<u64, int>> wakeups;   // enqueue time, task
	void on_switch(const Simulation& s, u64 t, int prev, int next, bool, u64) override
	{
		switches.push_back({t, s.event_cpu(), prev, next});
	}
	void on_tick(const Simulation& s, u64 t, bool hrtick) override
	{
		if (!hrtick)
			ticks.emplace_back(t, s.event_cpu());
	}
	void on_wakeup(const Simulation&, u64 t, int task, int, bool) override { wakeups.emplace_back(t, task); }
	std::vector<CpuSwitch> on(u32 cpu) const
	{
		std::vector<CpuSwitch> v;
		for (const CpuSwitch& s : switches)
			if (s.cpu == cpu)
				v.push_back(s);
		return v;
	}
};

// Runs sim to its end with `obs` recording and the invariant checker on
// every event (the checker lives only for this run: sim must not run again).
void run_checked(Simulation& sim, Observer& obs)
{
	InvariantChecker check;
	sim.add_observer(&obs);
	sim.add_observer(&check);
	sim.run();
}

Config smp(std::string_view preset, u32 hz, u32 cpus, u64 slice = 0)
{
	Config c = make_config(*find_preset(preset), hz, cpus);
	if (slice)
		c.base_slice_ns = slice;
	return c;
}

}  // namespace

// Two CPUs that share nothing (every task pinned) run exactly what each
// would run alone: per-CPU EEVDF has no global state, and the ticks of both
// CPUs are on one grid. Checked against one-CPU runs of each pair, with the
// same base slice.
TEST_CASE("pinned tasks on two CPUs run as each CPU would alone", "[smp]")
{
	const u64 slice = 1400 * US;  // the 2-CPU default, used for the 1-CPU runs too
	auto pair_on = [](u32 cpu, int nice) {
		return std::vector<TaskSpec>{pinned(hog("a" + std::to_string(cpu), nice), {cpu}),
					     pinned(task("s" + std::to_string(cpu), {run(700 * US), sleep(2300 * US)}), {cpu})};
	};
	std::vector<TaskSpec> all = pair_on(0, 0);
	for (TaskSpec& t : pair_on(1, -3))
		all.push_back(t);
	Workload wl = workload(all);
	wl.duration = 500 * MS;
	Simulation sim(smp("6.18", 1000, 2, slice), wl);
	SmpRecorder r;
	run_checked(sim, r);

	for (u32 cpu : {0u, 1u}) {
		Workload one = workload(pair_on(cpu, cpu == 0 ? 0 : -3));
		for (TaskSpec& t : one.tasks)
			t.cpus.clear();
		const Recorder alone = simulate(config("6.18", 1000, slice), one, 500 * MS);
		const auto mine = r.on(cpu);
		REQUIRE(mine.size() == alone.switches.size());
		for (size_t i = 0; i < mine.size(); i++) {
			const int base = static_cast<int>(2 * cpu);
			auto map = [&](int t) { return t < 0 ? t : t + base; };
			CHECK(mine[i].t == alone.switches[i].t);
			CHECK(mine[i].prev == map(alone.switches[i].prev));
			CHECK(mine[i].next == map(alone.switches[i].next));
		}
	}
}

// A wake-up of a task pinned to an idle CPU goes through that CPU's
// wakelist (ttwu_queue_cond(): the target is idle) and is enqueued when the
// IPI arrives: after ipi_latency + idle_exit_latency. Task w on CPU 0 runs
// 1 ms, then resumes z, pinned to CPU 1 and suspended since t=0: z is
// enqueued on CPU 1 at 1 ms + 20 us + 30 us and runs at once.
TEST_CASE("a remote wake-up of an idle CPU waits for the IPI and the idle exit", "[smp]")
{
	TaskSpec w = pinned(task("w", {run(1 * MS), resume(0), sleep(100 * MS)}, 1), {0});
	TaskSpec z = pinned(task("z", {suspend(0), run(500 * US)}, 1), {1});
	Workload wl = workload({w, z});
	wl.refs = {"z"};
	wl.duration = 10 * MS;
	Config cfg = smp("6.18", 1000, 2);
	cfg.knobs.ipi_latency = 20 * US;
	cfg.knobs.idle_exit_latency = 30 * US;
	Simulation sim(cfg, wl);
	SmpRecorder r;
	run_checked(sim, r);
	const u64 arrive = 1 * MS + 50 * US;
	bool woke = false;
	for (auto [t, task] : r.wakeups)
		if (task == 1 && t > 0) {
			CHECK(t == arrive);
			woke = true;
		}
	CHECK(woke);
	const auto on1 = r.on(1);
	REQUIRE(on1.size() >= 3);  // z runs to its suspend at 0, is woken, runs 0.5 ms
	CHECK(on1[2] == CpuSwitch{arrive, 1, IDLE, 1});
	CHECK(sim.rq(1).ipis == 1);
}

// With skew_tick=1 CPU c ticks c * ((TICK_NSEC >> 1) / nr_cpus) after CPU 0:
// at HZ=1000 on 4 CPUs, 0, 125, 250 and 375 us past each millisecond (the
// model's tick_phase semantics: the first tick at the first grid point > 0).
TEST_CASE("skew_tick offsets each CPU's tick by its share of half a period", "[smp]")
{
	std::vector<TaskSpec> hogs;
	for (u32 c = 0; c < 4; c++)
		hogs.push_back(pinned(hog("h" + std::to_string(c)), {c}));
	Workload wl = workload(hogs);
	wl.duration = 3 * MS + 500 * US;
	Config cfg = smp("6.18", 1000, 4);
	cfg.skew_tick = true;
	Simulation sim(cfg, wl);
	SmpRecorder r;
	sim.add_observer(&r);
	sim.run();
	std::map<u32, std::vector<u64>> per;
	for (auto [t, c] : r.ticks)
		per[c].push_back(t);
	// Ticks fire at t > 0 on each CPU's grid: CPU 0 at 1, 2, 3 ms; CPU c at
	// c * 125 us past 0, 1, 2 and 3 ms.
	for (u32 c = 0; c < 4; c++) {
		INFO("cpu " << c);
		const u64 first = c ? 0 : 1;
		REQUIRE(per[c].size() == 4 - first);
		for (u64 k = first; k < 4; k++)
			CHECK(per[c][k - first] == k * MS + c * 125 * US);
	}
}

// rt-app example 8's shape: 1.5 ms phases on CPU 0, then 1, then back on
// the task's own CPU 2 (what rt-app does for a phase without "cpus"). Each
// affinity change moves the
// running task: the stopper takes it off its CPU and it runs on the new one
// from the same instant.
TEST_CASE("a phase's affinity moves the running task at the phase start", "[smp]")
{
	Workload wl = workload({pinned(phased("thread0",
					      {Phase{"p1", 1, {set_affinity(0), run(1500 * US)}},
					       Phase{"p2", 1, {set_affinity(1), run(1500 * US)}},
					       Phase{"p3", 1, {set_affinity(2), run(1500 * US)}}},
					      1),
				       {2})},
			       10 * MS);
	wl.cpu_sets = {{0}, {1}, {2}};
	Simulation sim(smp("6.18", 1000, 3), wl);
	SmpRecorder r;
	run_checked(sim, r);
	// fork on CPU 2 (its mask) at 0, moved to 0 at 0, to 1 at 1.5, to 2 at 3.
	std::vector<CpuSwitch> ins;
	for (const CpuSwitch& s : r.switches)
		if (s.next == 0)
			ins.push_back(s);
	REQUIRE(ins.size() == 4);
	CHECK(ins[0] == CpuSwitch{0, 2, IDLE, 0});
	CHECK(ins[1] == CpuSwitch{0, 0, IDLE, 0});
	CHECK(ins[2] == CpuSwitch{1500 * US, 1, IDLE, 0});
	CHECK(ins[3] == CpuSwitch{3 * MS, 2, IDLE, 0});
	CHECK(sim.tasks()[0].nr_migrations == 3);
	CHECK(sim.tasks()[0].se.sum_exec_runtime == 4500 * US);
}

namespace {

// d (pinned to CPU 1) runs 1 ms from t=0; a nice-19 hog h, forked beside
// it at 10 us, has a deadline far away and does not preempt. d suspends at
// 1 ms ineligible (V is nearly its own vruntime, pulled back a little by h's
// weight 15), so it stays queued, delayed, and no pick happens on CPU 1
// before the next tick at 2 ms. w on CPU 0 resumes d at 1.1 ms.
struct DelayedWake : Observer {
	int d = 2;
	bool delayed_at_ttwu = false;
	u64 deadline_at_ttwu = 0;
	std::vector<u64> wakeups;  // d's enqueue (or in-place requeue) times
	void on_ttwu(const Simulation& s, u64, int task, int) override
	{
		if (task != d)
			return;
		delayed_at_ttwu = s.tasks()[static_cast<size_t>(d)].se.sched_delayed;
		deadline_at_ttwu = s.tasks()[static_cast<size_t>(d)].se.deadline;
	}
	void on_wakeup(const Simulation&, u64 t, int task, int, bool new_task) override
	{
		if (task == d && !new_task)
			wakeups.push_back(t);
	}
};

struct DelayedRun {
	DelayedWake obs;
	u64 ipis1 = 0;
	u64 deadline_after = 0, vruntime_after = 0, slice = 0;
};

DelayedRun run_delayed_wake(bool ttwu_queue_delayed, u64 ipi_latency)
{
	TaskSpec h = pinned(hog("h", 19), {1});
	h.delay = 10 * US;
	TaskSpec w = pinned(task("w", {run(1100 * US), resume(0), sleep(100 * MS)}, 1), {0});
	TaskSpec d = pinned(task("d", {run(1 * MS), suspend(0), run(5 * MS)}, 1), {1});
	Workload wl = workload({h, w, d});
	wl.refs = {"d"};
	wl.duration = 1100 * US + ipi_latency + 1;  // stop just after the wake-up lands
	Config cfg = smp("6.18", 1000, 2);
	cfg.features.set(Feature::TTWU_QUEUE_DELAYED, ttwu_queue_delayed);
	cfg.knobs.ipi_latency = ipi_latency;
	Simulation sim(cfg, wl);
	DelayedRun r;
	run_checked(sim, r.obs);
	r.ipis1 = sim.rq(1).ipis;
	const SchedEntity& se = sim.tasks()[2].se;
	r.deadline_after = se.deadline;
	r.vruntime_after = se.vruntime;
	r.slice = se.slice;
	return r;
}

}  // namespace

// Mainline (6.12+): the waker requeues a delayed task in place on its CPU,
// under that rq's lock, at the instant of the wake-up. The task keeps its
// deadline: requeue_delayed_entity() reads the lag before any update_curr()
// of h, so against the stale V it is still negative and DELAY_ZERO does not
// re-place it. The one IPI CPU 1 gets is the resched of d's preemption.
TEST_CASE("mainline wakes a delayed task in place, at the waker's instant", "[smp]")
{
	const DelayedRun r = run_delayed_wake(false, 20 * US);
	REQUIRE(r.obs.delayed_at_ttwu);
	REQUIRE(r.obs.wakeups.size() == 1);
	CHECK(r.obs.wakeups[0] == 1100 * US);
	CHECK(r.ipis1 == 1);
	CHECK(r.deadline_after == r.obs.deadline_at_ttwu);
}

// TTWU_QUEUE_DELAYED (the unmerged patch 12): the waker queues the delayed
// task on its busy CPU's wakelist and sends an IPI; at the IPI's arrival
// that CPU dequeues it fully and places it with a fresh request
// (deadline = vruntime + slice at nice 0), since it is pinned there. The
// dequeue's update_curr() makes the lag positive first, so DELAY_ZERO
// clears it. The preemption is then local: one IPI in all.
TEST_CASE("TTWU_QUEUE_DELAYED sends a delayed task's wake-up to its CPU by IPI", "[smp]")
{
	const DelayedRun r = run_delayed_wake(true, 20 * US);
	REQUIRE(r.obs.delayed_at_ttwu);
	REQUIRE(r.obs.wakeups.size() == 1);
	CHECK(r.obs.wakeups[0] == 1100 * US + 20 * US);
	CHECK(r.ipis1 == 1);
	CHECK(r.deadline_after == r.vruntime_after + r.slice);
}

// PREEMPT_LAZY (the 7.1.5 default on x86): the fair class's resched of a
// busy remote CPU sets TIF_NEED_RESCHED_LAZY without an IPI. h hogs CPU 1;
// z, pinned there with a 0.1 ms custom slice, is suspended; w on CPU 0 wakes
// it at 1.5 ms. The CPUs share the LLC and CPU 1 is busy, so w enqueues z on
// CPU 1 itself: z is placed at V = 1.5 with d = 1.6, ahead of h's 2.4, and
// the wake-up preempts h. With full preemption (or PREEMPT_NONE on 6.18.39)
// the resched travels by IPI (20 us); with lazy, CPU 1 acts at its tick at
// 2 ms.
TEST_CASE("PREEMPT_LAZY leaves a busy remote CPU's wake-up preemption to its next tick", "[smp]")
{
	struct Case {
		std::string_view preset;
		std::optional<Preempt> preempt;
		u64 switch_at;
		u64 ipis;
	};
	for (const Case& c : {Case{"6.18.39", std::nullopt, 1520 * US, 1}, Case{"7.1.5", Preempt::Full, 1520 * US, 1},
			      Case{"7.1.5", std::nullopt, 2 * MS, 0}}) {
		INFO("preset " << c.preset << (c.preempt ? " --preempt " + std::string(preempt_name(*c.preempt)) : ""));
		TaskSpec h = pinned(hog("h"), {1});
		TaskSpec z = with_slice(pinned(task("z", {suspend(0), run(50 * US)}, 1), {1}), 100 * US);
		TaskSpec w = pinned(task("w", {run(1500 * US), resume(0), sleep(100 * MS)}, 1), {0});
		Workload wl = workload({h, z, w});
		wl.refs = {"z"};
		wl.duration = 3 * MS;
		Config cfg = smp(c.preset, 1000, 2);
		if (c.preempt)
			cfg.preempt = *c.preempt;
		cfg.knobs.ipi_latency = 20 * US;
		Simulation sim(cfg, wl);
		SmpRecorder r;
		run_checked(sim, r);
		bool found = false;
		for (const CpuSwitch& s : r.on(1))
			if (s.prev == 0 && s.next == 1 && s.t > 1 * MS) {
				CHECK(s.t == c.switch_at);
				found = true;
				break;
			}
		CHECK(found);
		CHECK(sim.rq(1).ipis == c.ipis);
	}
}

// Finding F16: the kernel breaks ties by CPU number, so relabelling the
// CPUs does not relabel the schedule. Three hogs forked from CPU 0 onto
// three idle CPUs: find_idlest_group_cpu() keeps the first of the equally
// idle CPUs, so hog-1 goes to CPU 1 and hog-2 to CPU 2, and a relabelling
// that swaps CPUs 1 and 2 still puts hog-1 on CPU 1. (props'
// smp_relabel_pinned states what does hold.)
TEST_CASE("F16: forked tasks take the lowest-numbered idle CPU, so CPU relabelling is not a symmetry", "[smp]")
{
	Simulation sim(smp("6.18", 250, 3), hogs_workload(3, 20 * NSEC_PER_MSEC));
	SmpRecorder r;
	run_checked(sim, r);
	CHECK(sim.tasks()[0].cpu == 0);
	CHECK(sim.tasks()[1].cpu == 1);
	CHECK(sim.tasks()[2].cpu == 2);
	REQUIRE(!r.on(1).empty());
	CHECK(r.on(1).front().next == 1);
	CHECK(r.on(2).front().next == 2);
}

// Finding F16, second cause: events at one instant on several CPUs run in
// CPU order (docs/model.md, "Time and order"), so relabelling the CPUs can
// reorder two that meet. smp_relabel_pinned's counterexample (all tasks
// SCHED_BATCH, pinned): at 764082 us t0 finishes a run and resumes t0s,
// and t0s, on another CPU, finishes its run and loops to its suspend. With
// t0s on the lower-numbered CPU it suspends first and the resume wakes it at
// once; with the labels swapped the resume comes first, finds no waiter
// (rt-app's resume is a broadcast, lost without one), and t0s sleeps until
// the next resume, 2.111 ms later. Both orders are interleavings the kernel
// can run; the model picks one by CPU number.
TEST_CASE("F16: one instant on two CPUs runs in CPU order, so a resume and its suspend meet by label", "[smp]")
{
	auto t0s_switch_ins = [](u32 t0_cpu, u32 t0s_cpu) {
		const std::string a = std::to_string(t0_cpu), b = std::to_string(t0s_cpu);
		const Workload wl = parse_rtapp(R"({"global": {"duration": 0.77}, "tasks": {
			"t0": {"loop": -1, "policy": "SCHED_BATCH", "priority": -20, "dl-runtime": 100, "cpus": [)" + a + R"(],
			       "run": 2011, "resume": "waket0", "sleep": 100},
			"t0s": {"loop": -1, "policy": "SCHED_BATCH", "cpus": [)" + b + R"(], "suspend": "waket0", "run": 801},
			"t1": {"loop": -1, "policy": "SCHED_BATCH", "dl-runtime": 100, "cpus": [)" + b + R"(],
			       "run": 1422, "timer": {"ref": "timert1", "period": 4447}},
			"t2": {"loop": -1, "policy": "SCHED_BATCH", "priority": -20, "dl-runtime": 100, "cpus": [1], "run": -1},
			"t3": {"loop": -1, "policy": "SCHED_BATCH", "priority": -20, "dl-runtime": 100, "cpus": [3], "run": -1}}})",
						"f16.json");
		Config c = smp("6.6", 300, 7, 2250000);
		for (Feature f : {Feature::PLACE_LAG, Feature::PLACE_DEADLINE_INITIAL, Feature::RUN_TO_PARITY,
				  Feature::WAKEUP_PREEMPTION, Feature::TTWU_QUEUE, Feature::SIS_UTIL, Feature::WA_IDLE,
				  Feature::WA_WEIGHT, Feature::WA_BIAS, Feature::UTIL_EST})
			c.features.set(f, false);
		c.features.set(Feature::HRTICK, true);
		c.features.set(Feature::NO_HZ_FULL, true);
		const Recorder r = simulate(c, wl, wl.duration);
		return r.switch_ins(1);
	};
	const auto contains = [](const std::vector<u64>& v, u64 t) { return std::find(v.begin(), v.end(), t) != v.end(); };
	const std::vector<u64> low = t0s_switch_ins(2, 0), high = t0s_switch_ins(0, 2);
	CHECK(contains(low, 764082 * US));
	CHECK_FALSE(contains(high, 764082 * US));
	CHECK(contains(high, 766193 * US));
}
