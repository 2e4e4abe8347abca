// SPDX-License-Identifier: GPL-2.0-only
// validate_workload(): what the Simulation constructor refuses before it
// builds anything (model/validate_workload.cpp): a thread that would lock
// a mutex it still holds, and workloads whose memory or run time the limits
// of docs/cli.md ("Limits") bound.
#include <catch2/catch.hpp>

#include "io/rtapp.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;
using Catch::Contains;

namespace {

std::string refusal(const Config& cfg, const Workload& wl)
{
	try {
		validate_workload(cfg, wl);
	} catch (const WorkloadError& e) {
		return e.what();
	}
	return "";
}

std::string refusal(const char* json, u64 duration = 10 * MS)
{
	Workload wl = parse_rtapp(json, "v.json");
	wl.duration = duration;
	return refusal(config("6.18", 1000), wl);
}

Workload hogs(size_t n, u64 duration)
{
	Workload wl;
	wl.duration = duration;
	for (size_t i = 0; i < n; i++)
		wl.tasks.push_back(hog("h" + std::to_string(i)));
	return wl;
}

}  // namespace

TEST_CASE("a looping task that locks its mutex again on the next iteration is refused, naming the mutex")
{
	CHECK_THAT(refusal(R"({"tasks": {"t": {"loop": -1, "lock": "m", "run": 1000}}})"),
		   Contains("mutex \"m\" is still held") && Contains("next loop locks it again"));
	CHECK_THAT(refusal(R"({"tasks": {"t": {"phases": {"p": {"loop": 3, "lock": "m", "run": 1000}}}}})"),
		   Contains("its next loop locks it again"));
}

TEST_CASE("a mutex locked in one phase and locked again in a later one is refused, naming both phases")
{
	CHECK_THAT(refusal(R"({"tasks": {"t": {"loop": 1, "phases": {
		"a": {"lock": "m", "run": 1000}, "b": {"lock": "m", "run": 1000, "unlock": "m"}}}}})"),
		   Contains("phase 'b': mutex \"m\" is still held (locked in phase 'a'"));
}

TEST_CASE("a mutex unlocked before the next iteration, or released by a condition wait, passes")
{
	CHECK(refusal(R"({"tasks": {"t": {"loop": -1, "lock": "m", "run": 1000, "unlock": "m"}}})") == "");
	CHECK(refusal(R"({"tasks": {"t": {"loop": 1, "phases": {"a": {"lock": "m", "run": 1000},
		"b": {"unlock": "m", "run": 1000}}}}})") == "");
	CHECK(refusal(R"({"tasks": {"t": {"loop": -1, "lock": "m", "wait": {"ref": "c", "mutex": "m"},
		"unlock": "m", "run": 1000}}})") == "");
	// Held at the end, but the task never loops: no second lock.
	CHECK(refusal(R"({"tasks": {"t": {"loop": 1, "lock": "m", "run": 1000}}})") == "");
}

TEST_CASE("tasks x CPUs beyond the limit are refused, naming --cpus")
{
	Config cfg = make_config(*find_preset("6.18"), 1000, 256);
	CHECK_THAT(refusal(cfg, hogs(131073, MS)), Contains("131073 tasks on 256 CPUs") && Contains("--cpus"));
	CHECK(refusal(cfg, hogs(131072, MS)) == "");
}

TEST_CASE("a run of more ticks than the limit is refused, naming --duration, --hz and --cpus")
{
	// 2^32 ticks: at HZ=1000 on one CPU, 4294967 s pass; one second more does not.
	const Config cfg = config("6.18", 1000);
	CHECK(refusal(cfg, hogs(1, 4294967 * NSEC_PER_SEC)) == "");
	CHECK_THAT(refusal(cfg, hogs(1, 4294968 * NSEC_PER_SEC)),
		   Contains("4294968000 ticks") && Contains("--duration") && Contains("--hz"));
}

TEST_CASE("a workload of more than 2^20 tasks is refused before anything is built, 2^20 pass")
{
	// No command reaches the limit (a million hogs, 4096 threads beside a
	// million stressors): the model's own bound, held here at its edge.
	const Config cfg = config("6.18", 1000);
	Workload wl = hogs(size_t{1} << 20, MS);
	CHECK(refusal(cfg, wl) == "");
	wl.tasks.push_back(hog("one-more"));
	CHECK_THAT(refusal(cfg, wl), Contains("1048577 tasks, more than the 1048576 a run may have"));
}
