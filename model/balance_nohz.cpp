// SPDX-License-Identifier: GPL-2.0-only
// nohz idle balancing (kernel/sched/fair.c, v6.18.44): idle CPUs with their
// tick stopped enter and leave nohz.idle_cpus_mask; a busy tick's
// nohz_balancer_kick() sends kick_ilb() to one of them, whose
// nohz_csd_func() and softirq run _nohz_idle_balance() for all of them
// (their blocked load and their own domains' balance); a CPU going idle
// refreshes their blocked load itself when due. And the tick's
// sched_balance_trigger(), which runs the kick.
// See model/balance.cpp for the balancer as a whole: what it follows, the
// other releases and the simplifications.
#include "model/balance_internal.hpp"

namespace eevdf {
namespace balance_internal {

// ---------------------------------------------------------------- nohz

static void set_cpu_sd_state_idle(Machine& sim, u32 cpu)
{
	SchedDomain* sd = sim.topology_mut().sd_llc(cpu);
	BalanceCpu& b = bcpu(sim, cpu);
	if (!sd || b.sd_llc_nohz_idle)
		return;
	b.sd_llc_nohz_idle = true;
	sd->shared->nr_busy_cpus--;
}

static void set_cpu_sd_state_busy(Machine& sim, u32 cpu)
{
	SchedDomain* sd = sim.topology_mut().sd_llc(cpu);
	BalanceCpu& b = bcpu(sim, cpu);
	if (!sd || !b.sd_llc_nohz_idle)
		return;
	b.sd_llc_nohz_idle = false;
	sd->shared->nr_busy_cpus++;
}

// The body of the kernel's nohz_balance_enter_idle().
static void nohz_enter(Machine& sim, u32 cpu)
{
	Rq& rq = sim.rq_mut(cpu);
	BalanceState& bs = sim.balance_state();
	bcpu(sim, cpu).has_blocked_load = true;
	if (!rq.nohz_idle) {
		if (!sim.topology().sd(cpu))
			return;  // on_null_domain()
		rq.nohz_idle = true;
		bs.nohz_idle_cpus.set(cpu);
		bs.nohz_nr_cpus++;
		set_cpu_sd_state_idle(sim, cpu);
		bs.nohz_needs_update = true;
	}
	// Each idle entry may leave blocked load to decay.
	bs.nohz_has_blocked = true;
}

static void nohz_balance_exit_idle(Machine& sim, u32 cpu)
{
	Rq& rq = sim.rq_mut(cpu);
	BalanceState& bs = sim.balance_state();
	if (!rq.nohz_idle)
		return;
	rq.nohz_idle = false;
	bs.nohz_idle_cpus.clear(cpu);
	bs.nohz_nr_cpus--;
	set_cpu_sd_state_busy(sim, cpu);
}

// The CPUs idle since the start of the run: their idle loop would have
// stopped the tick and entered them into nohz long before any workload.
void nohz_boot(Machine& sim, u32 self)
{
	BalanceState& bs = sim.balance_state();
	if (bs.booted)
		return;
	bs.booted = true;
	for (u32 c = 0; c < sim.nr_cpus(); c++)
		if (c != self && sim.rq(c).idle_cpu())
			nohz_enter(sim, c);
}

static int find_new_ilb(const Machine& sim, u32 this_cpu)
{
	const CpuMask& m = sim.balance_state().nohz_idle_cpus;
	for (u32 c = m.first(); c < MAX_CPUS; c = m.next(c + 1)) {
		if (c == this_cpu)
			continue;
		if (sim.rq(c).idle_cpu())
			return static_cast<int>(c);
	}
	return -1;
}

// kick_ilb(): the first idle CPU of the nohz mask gets the IPI, unless
// those kicks are pending there already.
static void kick_ilb(Machine& sim, unsigned flags, u32 this_cpu)
{
	BalanceState& bs = sim.balance_state();
	if (flags & NOHZ_BALANCE_KICK)
		bs.nohz_next_balance = sim.jiffies() + 1;
	const int ilb = find_new_ilb(sim, this_cpu);
	if (ilb < 0)
		return;
	BalanceCpu& b = bcpu(sim, static_cast<u32>(ilb));
	if ((b.nohz_flags & flags) == flags)
		return;
	const unsigned old = b.nohz_flags;
	b.nohz_flags |= flags;
	if (old & NOHZ_KICK_MASK)
		return;  // the owner of the pending kick sends the IPI
	bcpu(sim, this_cpu).nohz_kicks++;
	sim.send_nohz_kick(static_cast<u32>(ilb), flags);
}

// nohz_balancer_kick(), from a busy tick. Kicks balance when more than one
// task waits here or more than one CPU of the LLC is busy; reduced
// capacity, asym packing and misfit tasks do not occur.
static void nohz_balancer_kick(Machine& sim, u32 cpu)
{
	const Rq& rq = sim.rq(cpu);
	BalanceState& bs = sim.balance_state();
	const u64 now = sim.jiffies();
	unsigned flags = 0;
	if (rq.idle_balance)
		return;
	nohz_balance_exit_idle(sim, cpu);
	if (!bs.nohz_nr_cpus)
		return;
	if (bs.nohz_has_blocked && time_after(now, bs.nohz_next_blocked))
		flags = NOHZ_STATS_KICK;
	if (!time_before(now, bs.nohz_next_balance) && !sim.config().bugs[Bug::NOHZ_KICK_STATS_ONLY]) {
		if (rq.nr_running() >= 2) {
			flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
		} else if (const SchedDomainShared* sds = sim.topology().sd_llc_shared(cpu)) {
			if (sds->nr_busy_cpus > 1)
				flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
		}
	}
	if (bs.nohz_needs_update)
		flags |= NOHZ_NEXT_KICK;
	if (flags)
		kick_ilb(sim, flags, cpu);
}

static bool update_nohz_stats(Machine& sim, u32 cpu)
{
	BalanceCpu& b = bcpu(sim, cpu);
	if (!b.has_blocked_load)
		return false;
	if (!sim.balance_state().nohz_idle_cpus.test(cpu))
		return false;
	if (!time_after(sim.jiffies(), b.last_blocked_load_update_tick))
		return true;
	sched_balance_update_blocked_averages(sim, cpu);
	return b.has_blocked_load;
}

// _nohz_idle_balance() on this_cpu: every tickless idle CPU, starting after
// this one and ending with it, gets its blocked load refreshed (STATS) and,
// when due, a CPU_IDLE balance of its own domains (BALANCE).
static void nohz_idle_balance_all(Machine& sim, u32 this_cpu, unsigned flags)
{
	BalanceState& bs = sim.balance_state();
	const u64 now = sim.jiffies();
	u64 next_balance = now + 60 * static_cast<u64>(sim.config().hz);
	bool has_blocked_load = false, update_next = false, aborted = false;
	if (flags & NOHZ_STATS_KICK)
		bs.nohz_has_blocked = false;
	if (flags & NOHZ_NEXT_KICK)
		bs.nohz_needs_update = false;
	const CpuMask mask = bs.nohz_idle_cpus;  // nothing enters or leaves it during the walk
	mask.for_each_wrap(this_cpu + 1, [&](u32 balance_cpu) {
		if (aborted || !sim.rq(balance_cpu).idle_cpu())
			return;
		// Work arrived here: leave the rest to the next owner.
		if (!sim.rq(this_cpu).idle_cpu() && sim.rq(this_cpu).cfs.need_resched) {
			if (flags & NOHZ_STATS_KICK)
				has_blocked_load = true;
			if (flags & NOHZ_NEXT_KICK)
				bs.nohz_needs_update = true;
			aborted = true;
			return;
		}
		if (flags & NOHZ_STATS_KICK)
			has_blocked_load |= update_nohz_stats(sim, balance_cpu);
		Rq& rq = sim.rq_mut(balance_cpu);
		if (time_after_eq(sim.jiffies(), rq.next_balance)) {
			rq.cfs.clock_task = sim.now();
			if (flags & NOHZ_BALANCE_KICK)
				sched_balance_domains(sim, balance_cpu, CPU_IDLE, this_cpu);
		}
		if (time_after(next_balance, rq.next_balance)) {
			next_balance = rq.next_balance;
			update_next = true;
		}
	});
	if (!aborted) {
		if (update_next)
			bs.nohz_next_balance = next_balance;
		if (flags & NOHZ_STATS_KICK)
			bs.nohz_next_blocked = now + lb::msecs_to_jiffies(LOAD_AVG_PERIOD, sim.config().hz);
	}
	if (has_blocked_load)
		bs.nohz_has_blocked = true;
}

// nohz_idle_balance() from the softirq: the kick this CPU received.
bool nohz_idle_balance(Machine& sim, u32 cpu, CpuIdleType idle)
{
	BalanceCpu& b = bcpu(sim, cpu);
	const unsigned flags = b.nohz_idle_balance;
	if (!flags)
		return false;
	b.nohz_idle_balance = 0;
	if (idle != CPU_IDLE)
		return false;
	nohz_idle_balance_all(sim, cpu, flags);
	return true;
}

// nohz_newidle_balance(): a CPU going idle for a while refreshes the idle
// CPUs' blocked load itself, from do_idle(), when it is due.
void nohz_newidle_balance(Machine& sim, u32 cpu)
{
	const BalanceState& bs = sim.balance_state();
	if (sim.rq(cpu).avg_idle < SYSCTL_SCHED_MIGRATION_COST)
		return;
	if (!bs.nohz_has_blocked || time_before(sim.jiffies(), bs.nohz_next_blocked))
		return;
	bcpu(sim, cpu).nohz_flags |= NOHZ_NEWILB_KICK;
}

// nohz_run_idle_balance(), at the top of do_idle(): only if no other kick
// is pending (its softirq would do the same) and nothing is to run.
static void nohz_run_idle_balance(Machine& sim, u32 cpu)
{
	BalanceCpu& b = bcpu(sim, cpu);
	const unsigned flags = b.nohz_flags;
	b.nohz_flags &= ~NOHZ_NEWILB_KICK;
	if (flags == NOHZ_NEWILB_KICK && !sim.rq(cpu).cfs.need_resched)
		nohz_idle_balance_all(sim, cpu, NOHZ_STATS_KICK);
}

}  // namespace balance_internal

using namespace balance_internal;

// ---------------------------------------------------------------- entry points

// sched_balance_trigger() is the periodic driver's (balance.cpp) but lives
// here: run on every tick, it inlines nohz_boot() and nohz_balancer_kick()
// only from this file.
void sched_balance_trigger(Machine& sim, u32 cpu)
{
	nohz_boot(sim, cpu);
	Rq& rq = sim.rq_mut(cpu);
	rq.idle_balance = rq.idle_cpu();
	if (!sim.topology().sd(cpu))
		return;  // on_null_domain()
	// The softirq is raised now and runs after the tick's kick.
	const bool due = time_after_eq(sim.jiffies(), rq.next_balance);
	nohz_balancer_kick(sim, cpu);
	if (due)
		sched_balance_softirq(sim, cpu);
}

void nohz_balance_enter_idle(Machine& sim, u32 cpu)
{
	nohz_boot(sim, cpu);
	nohz_run_idle_balance(sim, cpu);  // do_idle() runs it before stopping the tick
	nohz_enter(sim, cpu);
}

// nohz_csd_func(): the kick is taken; an idle CPU runs its softirq at once.
// The model's stopper bit rides on the same IPI: the softirq first, then the
// stopper (a thread, after the IRQ exit).
void nohz_csd_func(Machine& sim, u32 cpu, unsigned flags)
{
	nohz_boot(sim, MAX_CPUS);
	BalanceCpu& b = bcpu(sim, cpu);
	const unsigned kick = b.nohz_flags & (NOHZ_KICK_MASK | NOHZ_NEWILB_KICK);
	b.nohz_flags &= ~(NOHZ_KICK_MASK | NOHZ_NEWILB_KICK);
	if (kick & NOHZ_KICK_MASK) {
		Rq& rq = sim.rq_mut(cpu);
		rq.idle_balance = rq.idle_cpu();
		if (rq.idle_balance) {
			b.nohz_idle_balance = kick;
			sched_balance_softirq(sim, cpu);
		}
	}
	if (flags & ACTIVE_STOP_KICK)
		active_load_balance_cpu_stop(sim, cpu);
}

}  // namespace eevdf
