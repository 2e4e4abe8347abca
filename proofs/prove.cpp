// SPDX-License-Identifier: GPL-2.0-only
// The `prove` driver (prove.hpp): runs the obligations (obligations.cpp),
// exports each query as SMT-LIB2 with its verdict, cross-checks proofs on the
// simulator and replays each refutation's counterexample there.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <functional>
#include <map>
#include <sstream>

#include "io/output_file.hpp"
#include "io/rtapp.hpp"
#include "model/fair.hpp"
#include "model/simulation.hpp"
#include "proofs/encoding.hpp"
#include "proofs/invariants.hpp"
#include "proofs/obligation.hpp"
#include "proofs/prove.hpp"
#include "proofs/query.hpp"
#include "proofs/run_observer.hpp"

namespace eevdf::proofs {
namespace {

enum class Verdict { Proved, Refuted, Unknown };
const char* verdict_name(Verdict v)
{
	return v == Verdict::Proved ? "PROVED" : v == Verdict::Refuted ? "REFUTED" : "UNKNOWN";
}

// Whole or not at all (io/output_file.hpp); a failure names the file
// (eevdf-prove exits 2 on it).
void write_file(const std::string& path, const std::string& text)
{
	if (!write_output_file(path, text))
		throw std::runtime_error("cannot write '" + path + "'");
}

}  // namespace

int run_prove(const Options& opt, std::ostream& out) { return run_prove(opt, ExtraOptions{}, out); }

int run_prove(const Options& opt, const ExtraOptions& extra, std::ostream& out)
{
	const std::vector<Obligation> all = make_obligations();
	if (opt.list && opt.markdown) {  // the statements table of docs/proofs.md
		out << "| group | name | expected | logic | statement |\n|---|---|---|---|---|\n";
		for (const Obligation& o : all) {
			std::string claim;
			for (char ch : o.claim)
				claim += ch == '|' ? std::string("\\|") : std::string(1, ch);
			out << "| " << o.group << " | `" << o.name << "` | " << (o.expect_proved ? "PROVED" : "REFUTED")
			    << (o.experimental ? " (run only when named)" : "") << " | " << o.logic << " | " << claim << " |\n";
		}
		return 0;
	}
	if (opt.list) {
		for (const Obligation& o : all)
			out << o.name << "  [" << o.group << "]  expected " << (o.expect_proved ? "PROVED" : "REFUTED")
			    << (o.experimental ? " (experimental: run only when named)" : "") << ": "
			    << o.claim << "\n";
		return 0;
	}
	std::vector<const Obligation*> sel;
	for (const std::string& n : opt.names) {
		const Obligation* f = nullptr;
		for (const Obligation& o : all)
			if (o.name == n)
				f = &o;
		if (!f) {
			out << "prove: unknown obligation '" << n << "' (see --list)\n";
			return 2;
		}
		sel.push_back(f);
	}
	if (opt.names.empty())
		for (const Obligation& o : all)
			if (!o.experimental)
				sel.push_back(&o);

	namespace fs = std::filesystem;
	std::string wdir = extra.workload_dir.empty() ? opt.smt2_dir : extra.workload_dir;
	if (wdir.empty())
		wdir = (fs::temp_directory_path() / "eevdf-proofs").string();
	std::error_code ec;
	fs::create_directories(wdir, ec);
	std::ofstream verdicts;
	if (!opt.smt2_dir.empty()) {
		fs::create_directories(opt.smt2_dir, ec);
		verdicts.open(opt.smt2_dir + "/verdicts.tsv");
	}
	if (extra.mutation)
		out << "(encoding deliberately broken: " << mutation_name(extra.mutation) << ")\n";

	bool ok = true;
	for (const Obligation* o : sel) {
		z3::context c;
		const Budget budget{opt.rlimit, opt.timeout_s};
		Query q(c, budget, o->logic);
		if (std::string(o->logic) == "QF_NIA") {
			// sum-of-monomials normal form first (the builders add som-simplified terms), then the SMT core
			z3::params sp(c);
			sp.set("som", true);
			z3::solver ts = (z3::with(z3::tactic(c, "simplify"), sp) & z3::tactic(c, "smt")).mk_solver();
			budget.apply(ts);
			q.s = ts;
		}
		if (o->bitblast) {
			z3::solver ts = (z3::tactic(c, "simplify") & z3::tactic(c, "propagate-values") & z3::tactic(c, "solve-eqs") &
					 z3::tactic(c, "elim-uncnstr") & z3::tactic(c, "bit-blast") & z3::tactic(c, "sat"))
						.mk_solver();
			budget.apply(ts);
			q.s = ts;
		}
		const auto t0 = std::chrono::steady_clock::now();
		z3::check_result res = z3::unsat;
		unsigned long long steps = 0;  // the most rlimit one solver call used
		// The query as built, taken before the solver runs (a tactic solver's
		// text afterwards can be its preprocessed form), with the strategy
		// the in-process solver uses, for the z3 binary (recheck_smt2.sh).
		const char* tactic = std::string(o->logic) == "QF_NIA" ? "(then (using-params simplify :som true) smt)"
				     : o->bitblast ? "(then simplify propagate-values solve-eqs elim-uncnstr bit-blast sat)"
						   : nullptr;
		auto query_text = [&] {
			std::string t = "(set-logic " + std::string(o->logic) + ")\n";
			if (tactic)
				t += std::string("; z3-tactic: ") + tactic + "\n";
			z3::solver plain(c);
			for (const expr& a : q.s.assertions())
				plain.add(a);
			return t + plain.to_smt2();
		};
		auto export_query = [&](const std::string& file, const std::string& text, z3::check_result r) {
			if (opt.smt2_dir.empty())
				return;
			write_file(opt.smt2_dir + "/" + file, text);
			verdicts << file << "\t" << (r == z3::unsat ? "unsat" : r == z3::sat ? "sat" : "unknown") << "\t"
				 << (o->recheck_note ? o->recheck_note : "") << "\n";
		};
		if (o->cases) {
			for (size_t k = 0; k < o->cases; k++) {
				q.s.push();
				q.shown.clear();
				o->build_case(q, extra.mutation, k);
				const std::string text = opt.smt2_dir.empty() ? std::string() : query_text();
				const unsigned long long before = rlimit_used(q.s);
				const z3::check_result r = q.s.check();
				steps = std::max(steps, rlimit_used(q.s) - before);
				export_query(o->name + "." + std::to_string(k) + ".smt2", text, r);
				if (r == z3::sat) {  // keep this case's assertions for the model
					res = r;
					break;
				}
				if (r == z3::unknown)
					res = r;
				q.s.pop();
			}
		} else {
			o->build(q, extra.mutation);
			const std::string text = opt.smt2_dir.empty() ? std::string() : query_text();
			const unsigned long long before = rlimit_used(q.s);
			res = q.s.check();
			steps = rlimit_used(q.s) - before;
			export_query(o->name + ".smt2", text, res);
		}
		const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
		const Verdict v = res == z3::unsat ? Verdict::Proved : res == z3::sat ? Verdict::Refuted : Verdict::Unknown;
		char line[512];
		std::snprintf(line, sizeof line, "%-24s %-8s (expected %s)  %.2f s", o->name.c_str(), verdict_name(v),
			      o->expect_proved ? "PROVED" : "REFUTED", secs);
		out << line;
		if (o->cases)
			out << "  (" << o->cases << " cases)";
		out << "  [rlimit " << steps << "]\n";
		if (extra.mutation) {  // a broken model: proofs must no longer go through
			if (o->expect_proved && v == Verdict::Proved)
				ok = false;
			continue;
		}
		bool this_ok = o->expect_proved ? v == Verdict::Proved : v == Verdict::Refuted;
		if (v == Verdict::Proved && o->crosscheck && extra.replay) {
			std::string msg;
			const bool cc = o->crosscheck(msg);
			out << "  cross-check: " << (cc ? "CONSISTENT" : "VIOLATED") << " (" << msg << ")\n";
			this_ok = this_ok && cc;
		}
		if (v == Verdict::Refuted) {
			const z3::model m = q.s.get_model();
			out << "  counterexample:";
			for (auto& [n, e] : q.shown)
				out << " " << n << "=" << static_cast<s64>(val(m, e));
			out << "\n";
			if (o->direct_replay && extra.replay) {
				std::string msg;
				const bool confirmed = o->direct_replay(q, m, msg);
				out << "  replay: " << (confirmed ? "CONFIRMED" : "NOT REPRODUCED") << " (" << msg << ")\n";
				if (!confirmed)
					this_ok = false;
			}
			if (o->replay) {
				std::optional<Replay> rp = o->replay(q, m);
				if (rp) {
					const std::string path = wdir + "/" + o->name + ".json";
					write_file(path, to_rtapp_json(rp->wl));
					out << "  workload: " << path << "  (eevdf sim " << path << " --kernel 6.18 --hz "
					    << rp->cfg.hz << " --slice " << rp->cfg.base_slice_ns << "ns";
					{
						const Config def = config_for(rp->cfg.hz, rp->cfg.base_slice_ns);
						std::string fl;
						for (unsigned f = 0; f < static_cast<unsigned>(Feature::COUNT); f++)
							if (def.features[static_cast<Feature>(f)] != rp->cfg.features[static_cast<Feature>(f)])
								fl += (fl.empty() ? "" : ",") + std::string(rp->cfg.features[static_cast<Feature>(f)] ? "+" : "-") +
								      std::string(feature_names[f]);
						if (!fl.empty())
							out << " --features " << fl;
					}
					if (rp->cfg.knobs.tick_phase)
						out << " --tick-phase " << rp->cfg.knobs.tick_phase << "ns";
					if (rp->cfg.knobs.tick_jitter)
						out << " --tick-jitter " << rp->cfg.knobs.tick_jitter << "ns";
					out << ")\n";
					if (extra.replay) {
						const Workload wl = extra.reload_workload ? load_rtapp_file(path) : rp->wl;
						bool confirmed = false;
						std::string msg;
						u64 seed = 0;
						for (; seed < rp->seeds && !confirmed; seed++) {
							Config cfg = rp->cfg;
							cfg.seed = seed;
							Simulation sim(cfg, wl);
							RunObserver obs;
							sim.add_observer(&obs);
							sim.run();
							confirmed = rp->confirms(sim, obs, msg);
						}
						out << "  replay: " << rp->what << ": "
						    << (confirmed ? "CONFIRMED" : "NOT REPRODUCED") << " (" << msg;
						if (rp->seeds > 1)
							out << "; seeds 0.." << rp->seeds - 1 << " tried";
						out << ")\n";
						if (!confirmed)
							this_ok = false;
					}
				}
			}
		}
		ok = ok && this_ok;
	}
	return ok ? 0 : 1;
}

}  // namespace eevdf::proofs
