// SPDX-License-Identifier: GPL-2.0-only
// sched_yield(): yield_task_fair().
#include "oracle/internal.hpp"

namespace eevdf::oracle {

// yield_task_fair(): nothing with one task; else update_curr and push the
// deadline by one request (<= 6.18.1), or (6.18.2+, 79104becf42b) if
// eligible forfeit the rest of the request: v = d, then a new request.
void DecisionOracle::yield_task_fair()
{
	if (qs_[0].h_nr_queued == 1)  // rq->nr_running
		return;
	Ent& se = ent(running_);
	On on(*this, se.cfs);
	clear_buddies(se.cfs, running_);
	update_curr();
	if (!rules_->yield_forfeit) {
		se.deadline += cdf(se.slice, se);
		return;
	}
	if (entity_eligible(se)) {
		se.vruntime = se.deadline;
		if (rules_->avg_in_update_deadline) {
			update_deadline(se);
		} else {
			se.deadline += cdf(se.slice, se);
			if (rules_->yield_min_vruntime)
				update_min_vruntime();
		}
	}
}

}  // namespace eevdf::oracle
