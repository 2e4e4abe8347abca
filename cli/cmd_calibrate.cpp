// SPDX-License-Identifier: GPL-2.0-only
// `eevdf calibrate`: measures this machine's costs with eevdf-calibrate
// (probe/calibrate.cpp) and writes them as a machine profile that
// `--profile FILE` reads (docs/profiles.md); and `eevdf profiles`, which
// prints the profiles built in.
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/companion.hpp"
#include "cli/write_file.hpp"
#include "io/input_error.hpp"
#include "io/profile.hpp"
#include "io/values.hpp"

namespace eevdf::cli {
namespace {

// The 1-minute load average, or a negative number where there is none.
double load_average()
{
	std::ifstream f("/proc/loadavg");
	double l = -1;
	f >> l;
	return f ? l : -1;
}

class CalibrateCommand : public Command {
public:
	CLI::App* add(CLI::App& app) override
	{
		cmd = app.add_subcommand("calibrate", "measure this machine's costs and write them as a machine profile");
		cmd->add_option("-o,--output", output, "the profile file to write (whole or not at all); - for stdout")
			->required();
		cmd->add_option("--name", name, "the profile's name (a-z 0-9 . - _)")->capture_default_str();
		cmd->add_option("--samples", samples, "samples of each latency (100..100000)")->capture_default_str();
		cmd->footer("Runs eevdf-calibrate (built from probe/, found like eevdf-probe; $EEVDF_CALIBRATE overrides)\n"
			    "on two CPUs for about 20 s at 2000 samples: futex hand-offs, timer wake-ups, remote wake-ups\n"
			    "of a busy and an idle CPU, a CPU-bound op's spread. Measure on a quiet machine: a load\n"
			    "average above 0.5 is reported, as the other work then shows in every cost.\n"
			    "Example:\n  eevdf calibrate -o profiles/my-machine.json --name my-machine\n"
			    "  eevdf sim --hogs 2 --cpus 2 --profile profiles/my-machine.json --seed 7\n"
			    "Exit status: 0; 2 if the calibrator cannot be found or run, or measures nothing usable.\n");
		return cmd;
	}

	int run() override
	{
		const std::string path = find_companion(CALIBRATOR);
		if (path.empty())
			return exec_companion(CALIBRATOR, {});  // says where it looked, exit 2
		const double load = load_average();
		if (load > 0.5)
			std::cerr << "eevdf calibrate: the load average is " << load
				  << ": other work will show in every measured cost\n";
		std::string out;
		const int status = capture_program(
			path, CALIBRATOR.name,
			{"--samples", std::to_string(samples), "--name", name, "--command", "eevdf calibrate --samples " +
											    std::to_string(samples)},
			out);
		if (status != 0) {
			std::cerr << "eevdf calibrate: " << path << " exited " << status << "\n";
			return 2;
		}
		// What the calibrator wrote must read back as a profile.
		const Profile p = parse_profile(out, "(eevdf-calibrate's output)");
		write_file_atomic(output, profile_json(p), "--output");
		std::cerr << "eevdf calibrate: wrote profile " << p.name << " (" << p.measured.kernel << ") to " << output
			  << "\n";
		return 0;
	}

private:
	CLI::App* cmd = nullptr;
	std::string output, name = "this-machine";
	int samples = 2000;
};

class ProfilesCommand : public Command {
public:
	CLI::App* add(CLI::App& app) override
	{
		cmd = app.add_subcommand("profiles", "list the built-in machine profiles, or print one as JSON");
		cmd->add_option("name", name, "print this profile's JSON (a built-in name or a file)");
		cmd->footer("Examples:\n  eevdf profiles\n  eevdf profiles exact\n");
		return cmd;
	}

	int run() override
	{
		if (!name.empty()) {
			std::cout << profile_json(find_profile(name));
			return 0;
		}
		for (const std::string& n : builtin_profile_names()) {
			const Profile p = find_profile(n);
			std::cout << n;
			if (p.exact())
				std::cout << "  every cost fixed at its knob (the ideal machine; proofs and goldens)";
			else
				std::cout << "  measured on Linux " << p.measured.kernel << ", HZ=" << p.measured.hz << ", "
					  << p.measured.cpus << " CPUs, " << p.measured.date;
			std::cout << "\n";
		}
		return 0;
	}

private:
	CLI::App* cmd = nullptr;
	std::string name;
};

}  // namespace

std::unique_ptr<Command> calibrate_command() { return std::make_unique<CalibrateCommand>(); }
std::unique_ptr<Command> profiles_command() { return std::make_unique<ProfilesCommand>(); }

}  // namespace eevdf::cli
