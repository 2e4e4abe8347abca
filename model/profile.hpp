// SPDX-License-Identifier: GPL-2.0-only
// A machine profile: every cost the model charges, as a distribution drawn
// anew per use from a stream of its own (model/dist.hpp). The exact profile
// -- every cost 0, no timer slack, every multiplier x1 -- is the ideal
// machine the proofs, golden schedules and bound properties use; it draws
// nothing, so a run under it is byte-identical to the model before profiles.
//
// Each cost adds to the fixed knob of the same name (Config::knobs), so
// `--switch-cost 3us` keeps its meaning under any profile.
//
// Where each is charged (docs/model.md, "Variability"):
//   switch_cost        pick -> the next task runs its own code, per switch
//   tick_jitter        how early each tick arrives (per CPU)
//   ipi_latency        an IPI's send -> its handler on the target
//   idle_exit_latency  added when that IPI wakes an idle (halted) CPU
//   wakeup_irq_cost    a wakelist IPI handler's time on a busy CPU (IRQ time
//                      charged to whatever runs there)
//   balance_cost       one sched_balance_rq() pass's sched_clock delta, for
//                      sched_balance_newidle()'s cost gate and statistics
//   timer_slack        an hrtimer's slack (current->timer_slack_ns, 50 us for
//                      SCHED_OTHER): a sleep or timer due at t fires at the
//                      first tick of its CPU in [t, t + slack], else at t +
//                      slack (hrtimer_set_expires_range_ns())
//   timer_delay        how late the interrupt at that hard expiry arrives
//                      on an idle CPU (on a VM: the host wakes the halted
//                      vCPU, then the guest leaves idle)
//   timer_delay_busy   the same on a CPU that runs a task (no halt exit);
//                      a profile file without it gets timer_delay's
//   resched_delay      a timer interrupt's wake-up onto its own idle CPU
//                      -> that CPU's __schedule() (the idle loop's exit)
//   resched_delay_busy the same when the wakee preempts the task running
//                      there (the interrupt's exit to __schedule())
//   burst_scale        each CPU burst (rt-app run, schbench's op) times a
//                      multiplier in ppm, per task stream
//   run_scale          every burst of the run times one multiplier in ppm,
//                      drawn once per seed: the machine's speed that run
//   futex_wake_cost    CPU time a FUTEX_WAKE that wakes a task costs the
//                      waker (the syscall and the wake-up's work)
//   hrtimer_arm_cost   CPU time a sleep (rt-app sleep or timer) spends
//                      arming its hrtimer before the task blocks (on a VM
//                      the TSC deadline write exits to the host)
//   ipi_send_cost      CPU time the waker spends more when its wake-up
//                      sends an IPI to another CPU (on a VM the write of
//                      the APIC's ICR exits to the host)
#pragma once

#include <string>

#include "model/dist.hpp"

namespace eevdf {

// The streams of rng_stream(seed, source, index): one per source, per CPU
// or per task (index), so switching one source on moves no other's draws.
enum class NoiseSource : u64 {
	SwitchCost = 1,
	TickJitter,
	IpiLatency,
	IdleExitLatency,
	WakeupIrqCost,
	BalanceCost,
	TimerDelay,
	BurstScale,
	RunScale,
	FutexWakeCost,
	TimerDelayBusy,
	ReschedDelay,
	ReschedDelayBusy,
	IpiSendCost,
	HrtimerArmCost,
};

struct Profile {
	std::string name = "exact";
	// Where a calibrated profile was measured (empty for the exact one).
	struct Measured {
		std::string kernel;   // uname -r
		u32 hz = 0;           // CONFIG_HZ
		u32 cpus = 0;         // online CPUs
		std::string date;     // YYYY-MM-DD
		std::string command;  // what measured it
		u64 steal_ppm = 0;    // CPU time the host stole while it measured
		                      // (/proc/stat steal), in ppm: the model has
		                      // no steal, so a high figure says the
		                      // profile's costs were measured on a noisy host
		bool operator==(const Measured&) const = default;
	} measured;
	Dist switch_cost;
	Dist tick_jitter;
	Dist ipi_latency;
	Dist idle_exit_latency;
	Dist wakeup_irq_cost;
	Dist balance_cost;
	u64 timer_slack = 0;
	Dist timer_delay;
	Dist timer_delay_busy;
	Dist resched_delay;
	Dist resched_delay_busy;
	Dist burst_scale = Dist::fixed(PPM_ONE);
	Dist run_scale = Dist::fixed(PPM_ONE);
	Dist futex_wake_cost;
	Dist ipi_send_cost;
	Dist hrtimer_arm_cost;

	// Every cost 0, no slack, every multiplier exactly x1: the ideal machine.
	bool exact() const;
	// The bursts are scaled (a multiplier that is not fixed at x1).
	bool scales_bursts() const;
	// What is wrong, naming the cost ("burst_scale: uniform: ..."), or "".
	std::string invalid() const;

	bool operator==(const Profile&) const = default;
};

// Every drawn cost by its key in a profile file, in the file's order: one
// table for the reader, the writer, the report and the checks above.
// `multiplier` marks the ppm multipliers, whose neutral value is x1.
struct ProfileCost {
	const char* key;
	Dist Profile::*dist;
	bool multiplier;
};
inline constexpr ProfileCost PROFILE_COSTS[] = {
	{"switch_cost", &Profile::switch_cost, false},
	{"tick_jitter", &Profile::tick_jitter, false},
	{"ipi_latency", &Profile::ipi_latency, false},
	{"idle_exit_latency", &Profile::idle_exit_latency, false},
	{"wakeup_irq_cost", &Profile::wakeup_irq_cost, false},
	{"balance_cost", &Profile::balance_cost, false},
	{"timer_delay", &Profile::timer_delay, false},
	{"timer_delay_busy", &Profile::timer_delay_busy, false},
	{"resched_delay", &Profile::resched_delay, false},
	{"resched_delay_busy", &Profile::resched_delay_busy, false},
	{"futex_wake_cost", &Profile::futex_wake_cost, false},
	{"ipi_send_cost", &Profile::ipi_send_cost, false},
	{"hrtimer_arm_cost", &Profile::hrtimer_arm_cost, false},
	{"burst_scale", &Profile::burst_scale, true},
	{"run_scale", &Profile::run_scale, true},
};

// The profile the model has always run: every cost 0.
inline Profile exact_profile() { return Profile{}; }

}  // namespace eevdf
