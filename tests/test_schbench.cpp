// SPDX-License-Identifier: GPL-2.0-only
// schbench's futex protocol in the model (Event::Kind::Futex*, List*) and
// `eevdf schbench`'s measurement, on schedules computed by hand.
#include <catch2/catch.hpp>

#include "io/schbench.hpp"
#include "model/check.hpp"
#include "model/simulation.hpp"
#include "props/workload_dsl.hpp"
#include "report/outputs.hpp"
#include "report/schbench_meter.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

struct Waits : Observer {
	std::vector<std::tuple<u64, int, bool>> waits;  // t, task, blocked
	std::vector<std::pair<u64, int>> posts;         // t, word
	void on_futex_wait(const Simulation&, u64 t, int task, int, bool blocked) override
	{
		waits.emplace_back(t, task, blocked);
	}
	void on_futex_post(const Simulation&, u64 t, int, int word) override { posts.emplace_back(t, word); }
};

// One message thread on CPU 0 and one worker on CPU 1, pinned apart: every
// hand-off is a wake-up of an idle CPU by IPI.
Workload pinned_pair(u64 duration)
{
	SchbenchOptions o;
	o.message_threads = 1;
	o.workers = 1;
	o.operations = 0;
	o.runtime_ns = duration;
	Workload w = schbench_workload(o, 2);
	w.tasks[0].cpus = {0};
	w.tasks[1].cpus = {1};
	return w;
}

}  // namespace

TEST_CASE("schbench: a post to a word nobody waits on is kept, so the next fwait does not block", "[schbench]")
{
	// a runs first (0-1 ms), posts and exits; b then runs, sleeps 2 ms and
	// waits at 3 ms: it must find the word RUNNING and go on.
	Workload w = workload({}, 10 * MS);
	const int word = w.ref("f");
	w.tasks = {task("a", {run(1000 * US), futex_post(word)}, 1),
		   task("b", {sleep(2000 * US), futex_wait(word), run(100 * US)}, 1)};
	Simulation sim(make_config(*find_preset("6.18"), 1000, 1), w);
	Waits obs;
	InvariantChecker checker;
	sim.add_observer(&obs);
	sim.add_observer(&checker);
	sim.run();
	REQUIRE(obs.posts.size() == 1);
	CHECK(obs.posts[0].first == 1000 * US);
	REQUIRE(obs.waits.size() == 1);
	INFO("wait at " << std::get<0>(obs.waits[0]) << " by " << std::get<1>(obs.waits[0]) << " blocked " << std::get<2>(obs.waits[0]));
	CHECK(obs.waits[0] == std::tuple<u64, int, bool>{3000 * US, 1, false});
}

// The hand-off chain with IPI latency L = 5 us and nothing else to run:
// the worker's 2 us of work ends, it posts the message thread (idle CPU 0:
// it runs L later), which posts the worker back (idle CPU 1: L later), and
// the worker sleeps 100 + 50 us. One request every 150 + 2 + 2L = 162 us,
// and every wake-up latency is exactly L. (The message thread's 1 us of
// CPU overlaps the worker's sleep.)
TEST_CASE("schbench: across two idle CPUs each hand-off costs one IPI, and the latency is the IPI's", "[schbench]")
{
	Config cfg = make_config(*find_preset("6.18"), 1000, 2);
	cfg.knobs.ipi_latency = 5 * US;
	Simulation sim(cfg, pinned_pair(NSEC_PER_SEC));
	cli::SchbenchMeter meter(sim, 0);
	InvariantChecker checker;
	sim.add_observer(&meter);
	sim.add_observer(&checker);
	sim.run();
	REQUIRE(meter.wakeup.samples() > 6000);
	// (the first hand-off starts from fork, at 0 us: not recorded)
	CHECK(meter.wakeup.min() == 5);
	CHECK(meter.wakeup.max() == 5);
	CHECK(meter.delayed_wakeups == 0);  // alone on its CPU, a worker is never ineligible when it blocks
	CHECK(meter.wakeups >= meter.wakeup.samples());
	REQUIRE(meter.requests_per_s.size() == 1);
	CHECK(meter.requests_per_s[0] >= NSEC_PER_SEC / (162 * US) - 1);
	CHECK(meter.requests_per_s[0] <= NSEC_PER_SEC / (162 * US) + 1);
}

// Request latency (schbench's work_start to the end of do_work()): in the
// same chain each request is the think-time sleep, 100 us plus 50 us of
// timer slack, and the worker's 2 us of work, with nothing to wait for on
// its idle CPU: exactly 152 us, one per wake-up (the last one is cut off
// by the end of the run).
TEST_CASE("schbench: a request on an idle CPU lasts its sleep and its work", "[schbench]")
{
	Config cfg = make_config(*find_preset("6.18"), 1000, 2);
	cfg.knobs.ipi_latency = 5 * US;
	Simulation sim(cfg, pinned_pair(NSEC_PER_SEC));
	cli::SchbenchMeter meter(sim, 0);
	sim.add_observer(&meter);
	sim.run();
	REQUIRE(meter.request.samples() > 6000);
	CHECK(meter.request.min() == 152);
	CHECK(meter.request.max() == 152);
	CHECK(meter.request.samples() + 1 >= meter.wakeup.samples());
	CHECK(meter.request.samples() <= meter.wakeup.samples() + 1);
}

// fio's histogram as schbench uses it: one bucket per value below 512 us,
// then 256 buckets per power of two reported at their centre (772 us is in
// [772, 774), printed as 773); the percentile is the first bucket whose
// running count reaches p% of the samples.
TEST_CASE("schbench: latencies are kept in fio's histogram and printed at the bucket's centre", "[schbench]")
{
	using S = cli::SchbenchStats;
	CHECK(S::val_to_idx(511) == 511);
	CHECK(S::idx_to_val(S::val_to_idx(511)) == 511);
	CHECK(S::val_to_idx(512) == 512);
	CHECK(S::idx_to_val(S::val_to_idx(772)) == 773);
	CHECK(S::idx_to_val(S::val_to_idx(773)) == 773);
	CHECK(S::idx_to_val(S::val_to_idx(1443840)) == 1443840);  // seed 003's RPS figure is a bucket centre
	S st;
	for (unsigned v : {152u, 152u, 160u, 2000u})
		st.add(v);
	const std::string out = st.show("Request Latencies", "usec", 2, cli::PLIST_FOR_LAT, cli::PLIST_99);
	CHECK(out.rfind("Request Latencies percentiles (usec) runtime 2 (s) (4 total samples)\n", 0) == 0);
	// Each row's count is since the previous entry of the whole list, the
	// unprinted 20th included (seed 003's 50th row has a quarter of the
	// samples, not half).
	CHECK(out.find("\t  50.0th: 152        (0 samples)\n") != std::string::npos);
	CHECK(out.find("\t  90.0th: 2002       (2 samples)\n") != std::string::npos);  // [2000, 2004)
	CHECK(out.find("\t* 99.0th: 2002       (0 samples)\n") != std::string::npos);
	CHECK(out.find("\t  min=152, max=2000\n") != std::string::npos);
}

// schbench records only positive microseconds, of truncated gettimeofday()
// stamps: a wake-up from 10.9 us to 11.1 us is 1 us, one from 11.1 us to
// 11.9 us is not recorded.
TEST_CASE("schbench: a latency is the difference of microsecond stamps, and 0 is not recorded", "[schbench]")
{
	CHECK(cli::schbench_us(10900, 11100) == 1);
	CHECK(cli::schbench_us(11100, 11900) == 0);
}

// The RPS block has one sample more than the runtime's seconds: the round
// at the start, with no requests yet (seed 003: "runtime 30 (s) (31 total
// samples)"); min skips it, as add_lat()'s min does.
TEST_CASE("schbench: the RPS block counts the starting round as a sample", "[schbench]")
{
	const cli::SchbenchStats st = cli::schbench_rps_stats({50580, 50649, 50660});
	CHECK(st.samples() == 4);
	CHECK(st.min() == 50580);
	CHECK(st.max() == 50660);
}

TEST_CASE("schbench: -M auto pins message thread i to CPU i and leaves workers on every CPU", "[schbench]")
{
	SchbenchOptions o;
	o.message_threads = 4;
	o.workers = 60;
	o.pin_auto = true;
	const Workload w = schbench_workload(o, 40);
	REQUIRE(w.tasks.size() == 4 + 240);
	for (u32 i = 0; i < 4; i++)
		CHECK(w.tasks[i].cpus == std::vector<u32>{i});
	for (size_t i = 4; i < w.tasks.size(); i++)
		CHECK(w.tasks[i].cpus.empty());
}

TEST_CASE("schbench: the default worker count is ceil(CPUs / message threads)", "[schbench]")
{
	SchbenchOptions o;
	o.message_threads = 3;
	CHECK(schbench_workers(o, 40) == 14);
	o.message_threads = 4;
	CHECK(schbench_workers(o, 40) == 10);
	o.workers = 60;
	CHECK(schbench_workers(o, 40) == 60);
}

TEST_CASE("schbench: the RPS block has schbench's percentiles and sample counts", "[schbench]")
{
	// The starting round adds a 0: samples 0, 100, 200, 300, 400, 500.
	const std::string out = cli::format_schbench_rps({100, 300, 200, 400, 500}, 5);
	CHECK(out ==
	      "RPS percentiles (requests) runtime 5 (s) (6 total samples)\n"
	      "\t  20.0th: 100        (2 samples)\n"
	      "\t* 50.0th: 200        (1 samples)\n"
	      "\t  90.0th: 500        (3 samples)\n"
	      "\t  min=100, max=500\n");
}

TEST_CASE("schbench: -m and -t beyond the thread limit are refused before a task is built", "[schbench][errors]")
{
	CHECK_THROWS_WITH(parse_schbench_command("-m 4097"), Catch::Contains("schbench -m: '4097' is beyond 4096"));
	CHECK_THROWS_WITH(parse_schbench_command("-t 10000"), Catch::Contains("schbench -t: '10000' is beyond 4096"));
	SchbenchOptions o;
	o.message_threads = 64;
	o.workers = 64;  // 64 x (1 + 64) = 4160 threads
	o.msg_cost_ns = US;
	o.sleep_ns = 100 * US;
	o.runtime_ns = NSEC_PER_SEC;
	CHECK_THROWS_WITH(schbench_workload(o, 1), Catch::Contains("4160 threads (m x (1 + t)), beyond the 4096"));
	o.workers = 62;  // 64 x 63 = 4032
	CHECK(schbench_workload(o, 1).tasks.size() == 4032);
}

TEST_CASE("schbench: a request's work past 2^62 ns is refused, not wrapped to no work", "[schbench][errors]")
{
	SchbenchOptions o = parse_schbench_command("-m 1 -t 1 -n 4 --op-cost 2305843009213693952ns");
	o.msg_cost_ns = US;
	o.runtime_ns = NSEC_PER_SEC;
	CHECK_THROWS_WITH(schbench_workload(o, 1), Catch::Contains("schbench -n 4 with --op-cost"));
	CHECK_THROWS_WITH(parse_schbench_command("-s 18446744073709552"), Catch::Contains("schbench -s: '18446744073709552'"));
	CHECK_THROWS_WITH(parse_schbench_command("--stress 1000001"), Catch::Contains("--stress: '1000001' is beyond 1000000"));
}
