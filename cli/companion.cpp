// SPDX-License-Identifier: GPL-2.0-only
#include "cli/companion.hpp"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace eevdf::cli {
namespace {

bool executable(const std::string& path) { return !path.empty() && access(path.c_str(), X_OK) == 0; }

std::string self_dir()
{
	char buf[4096];
	const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0)
		return "";
	std::string p(buf, static_cast<size_t>(n));
	return p.substr(0, p.rfind('/'));
}

}  // namespace

std::string find_companion(const Companion& c)
{
	if (const char* env = std::getenv(c.env); env && executable(env))
		return env;
	const std::string dir = self_dir();
	const std::string name = c.name;
	for (const std::string& p : {dir + "/" + name, dir + "/../" + c.subdir + "/" + name})
		if (!dir.empty() && executable(p))
			return p;
	const char* path = std::getenv("PATH");
	std::string rest = path ? path : "";
	while (!rest.empty()) {
		const size_t colon = rest.find(':');
		const std::string d = rest.substr(0, colon);
		rest = colon == std::string::npos ? "" : rest.substr(colon + 1);
		if (!d.empty() && executable(d + "/" + name))
			return d + "/" + name;
	}
	return "";
}

int capture_program(const std::string& path, const char* name, const std::vector<std::string>& args, std::string& out)
{
	int fd[2];
	if (pipe(fd) != 0)
		return 2;
	const pid_t parent = getpid();
	const pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return 2;
	}
	if (pid == 0) {
		// If eevdf dies (a signal, a kill), the program is told to stop
		// too: it then cleans up after itself (the probe's trace instance).
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(2);
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		std::vector<std::string> copy = args;
		copy.insert(copy.begin(), name);
		std::vector<char*> argv;
		for (std::string& a : copy)
			argv.push_back(a.data());
		argv.push_back(nullptr);
		execv(path.c_str(), argv.data());
		_exit(2);
	}
	close(fd[1]);
	char buf[65536];
	ssize_t n;
	while ((n = read(fd[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			out.append(buf, static_cast<size_t>(n));
	close(fd[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

namespace {

// The companion while it runs: a SIGINT, SIGTERM, SIGHUP or SIGQUIT sent to
// eevdf alone (kill PID) is passed on, so that the probe stops its hogs and
// trace instances as when it is signalled itself, and eevdf then dies of
// the signal the companion died of.
volatile pid_t running_companion = 0;

extern "C" void pass_signal_on(int sig)
{
	if (running_companion > 0)
		::kill(running_companion, sig);
}

}  // namespace

int exec_companion(const Companion& c, const std::vector<std::string>& args)
{
	const std::string probe = find_companion(c);
	if (probe.empty()) {
		std::cerr << "eevdf: cannot find " << c.name << " next to eevdf, in ../" << c.subdir
			  << "/ or in PATH; build it with 'cmake --build build --target " << c.target << "' (or set "
			  << c.env << "=/path/to/" << c.name << ")\n";
		return 2;
	}
	std::vector<char*> argv;
	std::string name = c.name;
	argv.push_back(name.data());
	std::vector<std::string> copy = args;
	for (std::string& a : copy)
		argv.push_back(a.data());
	argv.push_back(nullptr);
	std::cout.flush();
	int out[2];
	if (::pipe(out) != 0) {
		std::cerr << "eevdf: cannot run " << probe << ": " << std::strerror(errno) << "\n";
		return 2;
	}
	const pid_t pid = ::fork();
	if (pid < 0) {
		std::cerr << "eevdf: cannot run " << probe << ": " << std::strerror(errno) << "\n";
		return 2;
	}
	if (pid == 0) {
		::prctl(PR_SET_PDEATHSIG, SIGTERM);  // eevdf killed (SIGKILL): the companion stops too
		::dup2(out[1], STDOUT_FILENO);
		::close(out[0]);
		::close(out[1]);
		execv(probe.c_str(), argv.data());
		const std::string msg = "eevdf: cannot run " + probe + ": " + std::strerror(errno) + "\n";
		(void)!::write(STDERR_FILENO, msg.data(), msg.size());
		::_exit(2);
	}
	::close(out[1]);
	running_companion = pid;
	for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
		struct sigaction old {};
		::sigaction(sig, nullptr, &old);
		if (old.sa_handler == SIG_IGN)
			continue;
		struct sigaction sa {};
		sa.sa_handler = pass_signal_on;
		sigemptyset(&sa.sa_mask);
		::sigaction(sig, &sa, nullptr);
	}
	// Everything it prints is read to the end, also after a write here
	// failed, so that it never blocks on a full pipe or dies of SIGPIPE.
	char buf[65536];
	int write_errno = 0;
	for (;;) {
		const ssize_t n = ::read(out[0], buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (ssize_t done = 0; done < n && !write_errno;) {
			const ssize_t w = ::write(STDOUT_FILENO, buf + done, static_cast<size_t>(n - done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				write_errno = w < 0 ? errno : ENOSPC;
			else
				done += w;
		}
	}
	::close(out[0]);
	int status = 0;
	while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
	}
	running_companion = 0;
	if (write_errno) {
		std::cerr << "eevdf: cannot write the standard output: " << std::strerror(write_errno) << "\n";
		return 2;
	}
	if (WIFSIGNALED(status)) {
		::signal(WTERMSIG(status), SIG_DFL);
		::raise(WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

}  // namespace eevdf::cli
