// SPDX-License-Identifier: GPL-2.0-only
#include "model/cfs_rq_state.hpp"

namespace eevdf {

CfsRqState::CfsRqState(const Config& cfg, u64 v0, u64 clock, const std::vector<EntitySpec>& tree)
	: cfg_(cfg), rq_(cfg_)
{
	rq_.ref_vruntime = v0;
	rq_.clock_task = clock;
	for (const EntitySpec& e : tree) {
		SchedEntity* se = make_entity(e);
		se->on_rq = true;
		rq_.timeline.insert(se);
		// avg_vruntime_add(): the sum wraps as the kernel's s64 does
		rq_.avg_vruntime_sum = static_cast<s64>(static_cast<u64>(rq_.avg_vruntime_sum) +
							static_cast<u64>(rq_.entity_key(se)) * static_cast<u64>(rq_.avg_weight(se)));
		rq_.avg_load += static_cast<u64>(rq_.avg_weight(se));
		rq_.load += se->load.weight;
		rq_.nr_queued++;
		tree_.push_back(se);
	}
}

SchedEntity* CfsRqState::make_entity(const EntitySpec& e)
{
	SchedEntity& se = ses_.emplace_back();
	se.id = static_cast<int>(ses_.size()) - 1;
	se.load = task_load_weight(e.nice);
	se.vruntime = e.vruntime;
	se.deadline = e.deadline;
	se.slice = e.slice;
	se.custom_slice = e.custom_slice;
	se.rel_deadline = e.rel_deadline;
	se.exec_start = e.exec_start;
	se.sum_exec_runtime = e.sum_exec_runtime;
	se.vlag = e.vlag;
	return &se;
}

SchedEntity* CfsRqState::set_curr(const EntitySpec& e, bool on_rq)
{
	curr_ = make_entity(e);
	// 6.17 / 6.18.0 keep vprot in vlag's storage; 6.6-6.16 stash the
	// protected deadline there
	if (cfg_.preset->paths.vprot_is_vlag || cfg_.preset->paths.protect == KernelPaths::Protect::VlagStash)
		curr_->vlag = static_cast<s64>(e.vprot);
	else
		curr_->vprot = e.vprot;
	curr_->on_rq = on_rq;
	if (on_rq) {
		rq_.load += curr_->load.weight;
		rq_.nr_queued++;
	}
	rq_.curr = curr_;
	return curr_;
}

}  // namespace eevdf
