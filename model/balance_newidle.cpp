// SPDX-License-Identifier: GPL-2.0-only
// Newidle balancing (kernel/sched/fair.c, v6.18.44, and the 7.x NI_RATE
// statistics): sched_balance_newidle() on a CPU about to go idle, the cost
// gate update_newidle_cost() keeps (with the 6.17 .. 6.18.2 bump) and the
// success ratio update_newidle_stats() keeps for NI_RANDOM.
// See model/balance.cpp for the balancer as a whole: what it follows, the
// other releases and the simplifications.
#include <algorithm>

#include "model/balance_internal.hpp"

namespace eevdf {
namespace balance_internal {

// sched_rng(): the kernel's is a per-CPU prandom_u32_state() seeded at boot;
// the model draws from splitmix64 on Rq::rng_state (seeded per CPU).
static u32 sched_rng(Rq& rq)
{
	u64 z = (rq.rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return static_cast<u32>((z ^ (z >> 31)) >> 32);
}

}  // namespace balance_internal

using namespace balance_internal;

// ---------------------------------------------------------------- newidle cost

namespace lb {

// 7.x NI_RATE: the ratio also counts the time since the last refresh, one
// unit per 2^22 ns (~4.2 ms), so a domain whose 1024 calls took longer than
// ~4.3 s gets ratio 1024 and is always balanced. sched_clock() is the
// event's time (the model's balance costs do not move the clock).
void update_newidle_stats(const Machine& sim, SchedDomain& sd, u32 success)
{
	sd.newidle_call++;
	sd.newidle_success += success;
	if (sd.newidle_call >= 1024) {
		if (paths(sim).newidle_rate) {
			const u64 now = sim.now();
			const s64 delta = std::max<s64>(0, static_cast<s64>(now - sd.newidle_stamp));
			sd.newidle_stamp = now;
			const u64 ratio = static_cast<u64>(delta >> 22) + sd.newidle_success;
			sd.newidle_ratio = static_cast<u32>(std::min<u64>(1024, ratio));
		} else {
			sd.newidle_ratio = sd.newidle_success;
		}
		sd.newidle_call /= 2;
		sd.newidle_success /= 2;
	}
}

}  // namespace lb

namespace balance_internal {

using lb::update_newidle_stats;

// 155213a2aed4's bump: the 6.17 .. 6.18.2 presets, or Bug::NEWIDLE_BUMP on
// any other.
static bool newidle_bump(const Machine& sim)
{
	return paths(sim).newidle_bump_on_failure || sim.config().bugs[Bug::NEWIDLE_BUMP];
}

// update_newidle_cost(): the domain's max newidle cost, decayed by 253/256
// at most once a second. With the 6.17 bump it is capped at
// migration_cost + 200 ns. The success statistics are 6.18.5+'s (they
// change nothing without NI_RANDOM).
bool update_newidle_cost(const Machine& sim, SchedDomain& sd, u64 cost, u32 success)
{
	const u64 next_decay = sd.last_decay_max_lb_cost + sim.config().hz;
	const u64 now = sim.jiffies();
	if (cost)
		update_newidle_stats(sim, sd, success);
	if (cost > sd.max_newidle_lb_cost) {
		sd.max_newidle_lb_cost =
			newidle_bump(sim) ? std::min(cost, SYSCTL_SCHED_MIGRATION_COST + 200) : cost;
		sd.last_decay_max_lb_cost = now;
	} else if (time_after(now, next_decay)) {
		sd.max_newidle_lb_cost = sd.max_newidle_lb_cost * 253 / 256;
		sd.last_decay_max_lb_cost = now;
		return true;
	}
	return false;
}

static void update_next_balance(const Machine& sim, const SchedDomain& sd, u64& next_balance)
{
	const u64 next = sd.last_balance + lb::get_sd_balance_interval(sd, false, sim.config().hz, sim.config().online_cpus);
	if (time_after(next_balance, next))
		next_balance = next;
}

}  // namespace balance_internal

// sched_balance_newidle(). The gate: a root domain with some CPU running
// two or more tasks, and an expected idle time (avg_idle) above what
// balancing has cost. Then the domains bottom up while avg_idle still
// covers the cost so far plus the domain's max; NI_RANDOM runs a domain's
// pass with probability (1 + newidle_ratio) / 1024 (ratio = successes per
// 1024 calls) and weights a success by the inverse of that.
//
// Cost: every pass takes Knobs::balance_cost of sched_clock (plus the
// profile's balance_cost draw). With 0 (the
// default) no pass has a cost: max_newidle_lb_cost stays 0, so the avg_idle
// gates never close, max_idle_balance_cost stays 500 us, the 6.17 bump
// (3/2 of 0) bumps nothing, and update_newidle_cost() records no success
// (it updates the statistics only for a nonzero cost) while NI_RANDOM's
// skips still count as calls: newidle_ratio then falls by half every 512
// skips, towards 0, where a pass runs with probability 2/1024. A positive
// cost c makes the gate the kernel's: a domain is skipped once avg_idle <
// (cost so far) + c, and with the bump its max grows by 3/2 per failed pass
// up to 500.2 us, so newidle balancing then needs avg_idle of about 0.5 ms.
int sched_balance_newidle(Machine& sim, u32 cpu)
{
	nohz_boot(sim, cpu);
	Rq& rq = sim.rq_mut(cpu);
	BalanceState& bs = sim.balance_state();
	BalanceCpu& b = bcpu(sim, cpu);
	const Config& cfg = sim.config();
	u64 next_balance = sim.jiffies() + cfg.hz;
	int pulled_task = 0;
	// No misfit status to update.
	if (rq.ttwu_pending)
		return 0;  // a task is on its way
	rq.idle_stamp = sim.now();  // the balance counts as idle time
	b.newidle_calls++;
	SchedDomain* sd = sim.topology_mut().sd(cpu);
	if (sd) {
		if (!bs.rd_overloaded || rq.avg_idle < sd->max_newidle_lb_cost) {
			b.newidle_gated++;
			update_next_balance(sim, *sd, next_balance);
		} else {
			u64 clock = sim.now();  // sched_clock_cpu()
			u64 t0 = clock, curr_cost = 0;
			bool continue_balancing = true;
			sched_balance_update_blocked_averages(sim, cpu);
			for (; sd; sd = sd->parent) {
				update_next_balance(sim, *sd, next_balance);
				if (rq.avg_idle < curr_cost + sd->max_newidle_lb_cost)
					break;
				if (sd->flags & SD_BALANCE_NEWIDLE) {
					u32 weight = 1;
					if (feat(sim, Feature::NI_RANDOM) &&
					    (!paths(sim).newidle_rate || sd->newidle_ratio < 1024)) {
						const u32 d1k = sched_rng(rq) % 1024;
						weight = 1 + sd->newidle_ratio;
						if (d1k > weight) {
							b.newidle_skipped++;
							update_newidle_stats(sim, *sd, 0);
							continue;
						}
						weight = (1024 + weight / 2) / weight;
					}
					pulled_task = sched_balance_rq(sim, cpu, *sd, CPU_NEWLY_IDLE, continue_balancing, cpu);
					clock += cfg.knobs.balance_cost + Rq::draw(cfg.profile.balance_cost, rq.noise.balance_cost);
					u64 domain_cost = clock - t0;
					curr_cost += domain_cost;
					t0 = clock;
					// 6.17 .. 6.18.2: a failure is recorded as 3/2 of the max.
					if (newidle_bump(sim) && !pulled_task)
						domain_cost = 3 * sd->max_newidle_lb_cost / 2;
					update_newidle_cost(sim, *sd, domain_cost, weight * (pulled_task ? 1u : 0u));
				}
				if (pulled_task || !continue_balancing)
					break;
			}
			if (curr_cost > rq.max_idle_balance_cost)
				rq.max_idle_balance_cost = curr_cost;
			if (rq.cfs.nr_queued && !pulled_task)
				pulled_task = 1;
			// Only the fair class exists: nr_running == cfs.h_nr_queued.
		}
	}
	if (time_after(rq.next_balance, next_balance))
		rq.next_balance = next_balance;
	if (pulled_task)
		rq.idle_stamp = 0;
	else
		nohz_newidle_balance(sim, cpu);
	return pulled_task;
}

}  // namespace eevdf
