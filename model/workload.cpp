// SPDX-License-Identifier: GPL-2.0-only
#include "model/workload.hpp"

namespace eevdf {

int Workload::ref(const std::string& name)
{
	for (size_t i = 0; i < refs.size(); i++)
		if (refs[i] == name)
			return static_cast<int>(i);
	refs.push_back(name);
	return static_cast<int>(refs.size() - 1);
}

TaskSpec looping_task(std::string name, std::vector<Event> events)
{
	TaskSpec t;
	t.name = std::move(name);
	t.loop = LOOP_FOREVER;
	t.phases.push_back(Phase{"main", 1, std::move(events)});
	return t;
}

Workload hogs_workload(int n, u64 duration)
{
	Workload w;
	w.duration = duration;
	for (int i = 0; i < n; i++) {
		TaskSpec t;
		t.name = "hog-" + std::to_string(i);
		t.loop = 1;
		t.phases.push_back(Phase{"hog", 1, {Event{Event::Kind::Run, RUN_FOREVER}}});
		w.tasks.push_back(std::move(t));
	}
	return w;
}

}  // namespace eevdf
