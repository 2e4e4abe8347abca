// SPDX-License-Identifier: GPL-2.0-only
// eevdf: the command-line front end of the model.
//
// Exit status: 0 success; 2 bad usage or input (the message names the flag,
// file or field); 1 the model violated one of its own invariants.
//
// The commands are a table (cli/commands.hpp): each adds its subcommand and
// runs it. main() checks what no command can check alone (the command's
// name, --version alone, every value given), parses, and runs the one chosen.
#include <CLI/CLI.hpp>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>

#include "cli/activity.hpp"
#include "cli/commands.hpp"
#include "cli/companion.hpp"
#include "cli/probe_compare.hpp"
#include "io/input_error.hpp"
#include "io/values.hpp"
#include "model/workload.hpp"
#include "report/version.hpp"

namespace eevdf::cli {
namespace {

// Every value given on the command line, checked once before a command
// runs: none empty or padded with spaces (an optional value, --schbench's,
// may be empty), and an unsigned one (CLI11's UINT) only digits within 64
// bits, so that "-1" or 2^64 cannot wrap or saturate into a valid-looking
// number.
void check_given_values(const CLI::App& sub)
{
	for (const CLI::Option* o : sub.get_options()) {
		if (!o->count() || o->get_type_size() == 0)
			continue;  // not given, or a flag
		const std::string name = o->get_name();
		for (const std::string& v : o->results()) {
			if (v.empty()) {
				if (o->get_expected_min() == 0)
					continue;
				throw UsageError(name + ": an empty value");
			}
			if (std::isspace(static_cast<unsigned char>(v.front())) || std::isspace(static_cast<unsigned char>(v.back())))
				throw UsageError(name + ": '" + v + "' has spaces around it");
			if (o->get_type_name() == "UINT" &&
			    (v.find_first_not_of("0123456789") != std::string::npos || v.size() > 20 ||
			     (v.size() == 20 && v > "18446744073709551615")))
				throw UsageError(name + ": '" + v + "' is not an unsigned integer (0 .. 18446744073709551615)");
		}
	}
}

// A list value (--slices 3ms,,6ms) with an empty item: CLI11 drops empty
// items, so it is found in the arguments as given, before it is lost.
void check_list_items(const CLI::App& sub, int argc, char** argv)
{
	for (const CLI::Option* o : sub.get_options()) {
		const char sep = o->get_delimiter();
		if (!o->count() || sep == '\0')
			continue;
		for (const std::string& l : o->get_lnames()) {
			const std::string flag = "--" + l;
			for (int i = 1; i < argc; i++) {
				const std::string a = argv[i];
				std::string v;
				if (a == flag && i + 1 < argc)
					v = argv[i + 1];
				else if (a.rfind(flag + "=", 0) == 0)
					v = a.substr(flag.size() + 1);
				else
					continue;
				const std::string two{sep, sep};
				if (!v.empty() &&
				    (v.front() == sep || v.back() == sep || v.find(two) != std::string::npos))
					throw UsageError(flag + ": '" + v +
							 "' has an empty item; separate the values by single '" +
							 std::string(1, sep) + "'");
			}
		}
	}
}

// The first argument names a command; an unknown one is named back.
void check_command_name(const CLI::App& app, int argc, char** argv)
{
	if (argc < 2 || argv[1][0] == '-')
		return;
	std::string known;
	for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
		if (sub->get_name() == argv[1])
			return;
		known += (known.empty() ? "" : ", ") + sub->get_name();
	}
	throw UsageError(std::string("unknown command '") + argv[1] + "' (the commands: " + known + ")");
}

// `eevdf --version` stands alone: CLI11 would print the version and ignore
// whatever follows. (After a command, --version is an unknown option.)
void check_version_alone(int argc, char** argv)
{
	if (argc > 2 && std::strcmp(argv[1], "--version") == 0)
		throw UsageError(std::string("--version takes no other arguments (it was given with '") + argv[2] + "')");
}

// sim's --schbench takes its FILE only as --schbench=FILE: a bare
// --schbench becomes --schbench=- (the block after the table), so the next
// word stays what it is (`--schbench w.json` must not write over the
// workload). CLI11 takes the arguments reversed.
std::vector<std::string> sim_schbench_value_after_equals(int argc, char** argv)
{
	std::vector<std::string> args;
	for (int i = argc - 1; i >= 1; i--) {
		const bool bare = argc > 1 && std::strcmp(argv[1], "sim") == 0 && std::strcmp(argv[i], "--schbench") == 0;
		args.push_back(bare ? "--schbench=-" : argv[i]);
	}
	return args;
}

// CLI11 says "--duration: At Most 1 required but received 2" for a flag
// given twice; say which values it was given and what to do instead.
std::string parse_error_text(const CLI::ParseError& e, int argc, char** argv)
{
	const std::string what = e.what();
	const std::string mark = ": At Most 1 required but received ";
	const size_t at = what.find(mark);
	if (at == std::string::npos || what.rfind("--", 0) != 0)
		return what;
	const std::string flag = what.substr(0, at);
	std::string values;
	int n = 0;
	for (int i = 1; i < argc; i++) {
		const std::string a = argv[i];
		std::string v;
		if (a == flag && i + 1 < argc)
			v = argv[++i];
		else if (a.rfind(flag + "=", 0) == 0)
			v = a.substr(flag.size() + 1);
		else
			continue;
		values += (n++ ? ", '" : "'") + v + "'";
	}
	return flag + " was given " + std::to_string(n ? n : 2) + " times" + (n ? " (" + values + ")" : "") +
	       "; it takes one value: give it once";
}

// What was printed must have reached stdout: a full disk or /dev/full fails
// here, after the last write, with exit 2.
int checked_stdout(int rc)
{
	std::cout.flush();
	if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
		std::cerr << "eevdf: cannot write the standard output: " << std::strerror(errno) << "\n";
		return 2;
	}
	return rc;
}

}  // namespace
}  // namespace eevdf::cli

// Built a second time as fuzz_cli_args (fuzz/): EEVDF_CLI_FUZZ renames
// main and stops after every value was parsed and checked and the model's
// configuration built, so that any argument list runs in microseconds.
#ifdef EEVDF_CLI_FUZZ
#define EEVDF_MAIN eevdf_cli_main
constexpr bool DRY_RUN = true;
#else
#define EEVDF_MAIN main
constexpr bool DRY_RUN = false;
#endif

int EEVDF_MAIN(int argc, char** argv)
{
	using namespace eevdf::cli;
	CLI::App app{"eevdf: a checked reference model of the Linux EEVDF scheduler with a periodic tick"};
	app.require_subcommand(1);
	app.set_version_flag("--version", version_line(), "print the version (and git describe of the checkout it was built from) and exit");
	const std::vector<std::unique_ptr<Command>> commands = eevdf::cli::commands();
	std::vector<CLI::App*> subs;  // commands[i]'s subcommand
	for (const std::unique_ptr<Command>& c : commands)
		subs.push_back(c->add(app));

	// `eevdf probe -- ARGS` and `eevdf prove -- ARGS` hand ARGS to the
	// companion untouched (CLI11 would still act on a --help among them).
	if (argc >= 3 && std::strcmp(argv[2], "--") == 0 &&
	    (std::strcmp(argv[1], "probe") == 0 || std::strcmp(argv[1], "prove") == 0)) {
		const std::vector<std::string> rest(argv + 3, argv + argc);
		if (DRY_RUN)
			return 0;
		try {
			return checked_stdout(std::strcmp(argv[1], "probe") == 0 ? probe_side_by_side(rest)
										 : exec_companion(PROVER, rest));
		} catch (const UsageError& e) {
			std::cerr << "eevdf: " << e.what() << "\n";
			return 2;
		}
	}
	try {
		check_version_alone(argc, argv);
		check_command_name(app, argc, argv);
	} catch (const UsageError& e) {
		std::cerr << "eevdf: " << e.what() << "\n";
		return 2;
	}
	try {
		app.name(argv[0]);  // as parse(argc, argv) would, for the usage lines
		app.parse(sim_schbench_value_after_equals(argc, argv));
	} catch (const CLI::CallForHelp& e) {
		return checked_stdout(app.exit(e));
	} catch (const CLI::CallForAllHelp& e) {
		return checked_stdout(app.exit(e));
	} catch (const CLI::CallForVersion& e) {
		return checked_stdout(app.exit(e));
	} catch (const CLI::ParseError& e) {
		std::cerr << "eevdf: " << parse_error_text(e, argc, argv) << "\nRun 'eevdf --help' or 'eevdf COMMAND --help'.\n";
		return 2;
	}

	// The command the arguments chose; its exit status.
	auto run_command = [&]() -> int {
		for (size_t i = 0; i < commands.size(); i++)
			if (*subs[i])
				return commands[i]->run();
		return 2;
	};
	try {
		for (size_t i = 0; i < commands.size(); i++)
			if (*subs[i] && !commands[i]->passes_arguments_through()) {
				check_given_values(*subs[i]);
				for (const CLI::App* s : subs[i]->get_subcommands())
					check_list_items(*s, argc, argv);
				check_list_items(*subs[i], argc, argv);
			}
		if (DRY_RUN) {
			for (const std::unique_ptr<Command>& c : commands)
				for (const ModelOptions* m : c->model_options())
					(void)build_config(*m);
			return 0;
		}
		return checked_stdout(run_command());
	} catch (const UsageError& e) {
		std::cerr << "eevdf: " << e.what() << "\n";
		return 2;
	} catch (const eevdf::InputError& e) {
		std::cerr << "eevdf: " << e.what() << "\n";
		return 2;
	} catch (const eevdf::WorkloadError& e) {
		std::cerr << "eevdf: " << e.what() << "\n";
		return 2;
	} catch (const std::bad_alloc&) {
		// No allocation from here: the message is made of what exists.
		// (The OutputSet's destructor has removed its temporaries.)
		std::cerr << "eevdf: " << (argc > 1 ? argv[1] : "eevdf") << ": out of memory while " << activity()
			  << " (std::bad_alloc); docs/cli.md, \"Limits\", says what each count costs\n";
		return 2;
	} catch (const std::exception& e) {
		std::cerr << "eevdf: " << (argc > 1 ? argv[1] : "eevdf") << ": failed while " << activity() << ": "
			  << e.what() << "\n";
		return 2;
	}
}
