// SPDX-License-Identifier: GPL-2.0-only
// The tasks blocked on one futex word or condition variable, longest
// waiter first.
//
// FUTEX_WAIT queues the waiter on its hash bucket's plist at the priority
// min(normal_prio, MAX_RT_PRIO): every fair-class task is MAX_RT_PRIO
// there, so among them the list is in arrival order, and FUTEX_WAKE of n
// takes the first n matching the key (kernel/futex/waitwake.c,
// futex_wait_setup() / futex_wake()). glibc's mutexes, condition variables
// and schbench's fwait() all sleep this way, so one FIFO per word serves
// them all. The queue is intrusive: Task::wait_next links it, as a task
// waits on at most one word at a time, and no operation allocates.
#pragma once

#include <vector>

#include "model/task.hpp"

namespace eevdf {

struct WaitQueue {
	int head = -1, tail = -1;  // task ids; -1: empty

	bool empty() const { return head < 0; }

	// Queues task `id` last.
	void push(std::vector<Task>& tasks, int id)
	{
		tasks[static_cast<size_t>(id)].wait_next = -1;
		if (tail >= 0)
			tasks[static_cast<size_t>(tail)].wait_next = id;
		else
			head = id;
		tail = id;
	}

	// Takes the longest waiter off the queue; -1 if there is none.
	int pop(std::vector<Task>& tasks)
	{
		const int id = head;
		if (id < 0)
			return -1;
		Task& t = tasks[static_cast<size_t>(id)];
		head = t.wait_next;
		if (head < 0)
			tail = -1;
		t.wait_next = -1;
		return id;
	}
};

}  // namespace eevdf
