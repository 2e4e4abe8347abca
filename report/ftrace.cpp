// SPDX-License-Identifier: GPL-2.0-only
#include "report/ftrace.hpp"

#include <cstdio>
#include <stdexcept>

#include "model/simulation.hpp"

namespace eevdf::cli {

std::string FtraceWriter::comm(int task, u32 cpu) const
{
	if (task < 0)
		return "swapper/" + std::to_string(cpu);
	std::string name = sim_->workload().tasks[static_cast<size_t>(task)].name;
	if (name.size() > 15)  // TASK_COMM_LEN is 16 including the NUL
		name.resize(15);
	return name;
}

int FtraceWriter::prio(const Simulation& sim, int task) const
{
	return task < 0 ? 120 : 120 + sim.tasks()[static_cast<size_t>(task)].nice;
}

// "%16s-%-7d [%03d] %s %5lu.%06lu: " as trace_print_context() lays it out.
void FtraceWriter::line(u64 t, u32 cpu, int context, const std::string& body)
{
	char head[112];
	const std::string who = context < 0 ? "<idle>" : comm(context, cpu);
	std::snprintf(head, sizeof head, "%16s-%-7d [%03u] d..2. %5llu.%06llu: ", who.c_str(), pid(context), cpu,
		      static_cast<unsigned long long>(t / 1000000000ULL),
		      static_cast<unsigned long long>((t % 1000000000ULL) / 1000ULL));
	body_ += head;
	body_ += body;
	body_ += '\n';
	lines_++;
	if (!spool_path_.empty() && body_.size() >= SPOOL_CHUNK) {
		if (!spool_)
			spool_ = std::make_unique<OutputSpool>(spool_path_, spool_flag_);
		spool_->write(body_);
		body_.clear();
	}
}

void FtraceWriter::on_switch(const Simulation& sim, u64 t, int prev, int next, bool prev_runnable, u64)
{
	sim_ = &sim;
	nr_cpus_ = sim.nr_cpus();
	exited_.resize(sim.tasks().size());
	const u32 cpu = sim.event_cpu();
	if (running_.size() < nr_cpus_)
		running_.resize(nr_cpus_, -1);
	running_[cpu] = next;
	const char* state = prev < 0 ? "R" : prev_runnable ? "R" : exited_[static_cast<size_t>(prev)] ? "X" : "S";
	char b[256];
	std::snprintf(b, sizeof b,
		      "sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d",
		      comm(prev, cpu).c_str(), pid(prev), prio(sim, prev), state, comm(next, cpu).c_str(), pid(next),
		      prio(sim, next));
	line(t, cpu, prev, b);
}

void FtraceWriter::on_wakeup(const Simulation& sim, u64 t, int task, int, bool new_task)
{
	sim_ = &sim;
	nr_cpus_ = sim.nr_cpus();
	exited_.resize(sim.tasks().size());
	// Emitted by the CPU doing the enqueue (the waker's for a direct remote
	// wake-up, the target's from its wakelist), in its current's context.
	const u32 cpu = sim.context_cpu();
	char b[160];
	std::snprintf(b, sizeof b, "%s: comm=%s pid=%d prio=%d target_cpu=%03u",
		      new_task ? "sched_wakeup_new" : "sched_wakeup", comm(task, cpu).c_str(), pid(task), prio(sim, task),
		      sim.event_cpu());
	line(t, cpu, running(cpu), b);
}

void FtraceWriter::on_ttwu(const Simulation& sim, u64 t, int task, int)
{
	if (!waking_)
		return;
	sim_ = &sim;
	nr_cpus_ = sim.nr_cpus();
	exited_.resize(sim.tasks().size());
	// On the CPU running try_to_wake_up(); target_cpu is task_cpu(p) before
	// CPU selection, as the kernel prints it.
	const u32 cpu = sim.context_cpu();
	char b[160];
	std::snprintf(b, sizeof b, "sched_waking: comm=%s pid=%d prio=%d target_cpu=%03u", comm(task, cpu).c_str(),
		      pid(task), prio(sim, task), sim.tasks()[static_cast<size_t>(task)].cpu);
	line(t, cpu, running(cpu), b);
}

void FtraceWriter::on_migrate(const Simulation& sim, u64 t, int task, u32 from, u32 to)
{
	sim_ = &sim;
	nr_cpus_ = sim.nr_cpus();
	exited_.resize(sim.tasks().size());
	const u32 cpu = sim.context_cpu();
	char b[192];
	std::snprintf(b, sizeof b, "sched_migrate_task: comm=%s pid=%d prio=%d orig_cpu=%u dest_cpu=%u",
		      comm(task, cpu).c_str(), pid(task), prio(sim, task), from, to);
	line(t, cpu, running(cpu), b);
}

void FtraceWriter::on_block(const Simulation& sim, u64, int task, bool, bool exited)
{
	sim_ = &sim;
	exited_.resize(sim.tasks().size());
	exited_[static_cast<size_t>(task)] = exited;
}

std::string FtraceWriter::text() const
{
	std::string out = header();
	if (spool_)
		throw std::logic_error(
			"FtraceWriter::text(): the lines are spooled; read header(), spool() and held()");
	return out + body_;
}

std::string FtraceWriter::header() const
{
	std::string out = "# tracer: nop\n#\n# entries-in-buffer/entries-written: " + std::to_string(lines_) + "/" +
			  std::to_string(lines_) + "   #P:" + std::to_string(nr_cpus_) + "\n#\n";
	out += "#                                _-----=> irqs-off/BH-disabled\n"
	       "#                               / _----=> need-resched\n"
	       "#                              | / _---=> hardirq/softirq\n"
	       "#                              || / _--=> preempt-depth\n"
	       "#                              ||| / _-=> migrate-disable\n"
	       "#                              |||| /     delay\n"
	       "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	       "#              | |         |   |||||     |         |\n";
	return out;
}

}  // namespace eevdf::cli
