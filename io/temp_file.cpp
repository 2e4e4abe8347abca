// SPDX-License-Identifier: GPL-2.0-only
#include "io/temp_file.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace eevdf {
namespace {

// The temporaries that exist right now, so that a signal while the outputs
// are written leaves none behind: the handler unlinks them (unlink() is
// async-signal-safe) and dies of the signal as before. Fixed storage, no
// allocation in the handler. (I/O state, not the model's: model/ stays
// free of globals.)
constexpr int MAX_LIVE_TEMPS = 32;
constexpr std::size_t MAX_TEMP_PATH = 4096;
char live_temps[MAX_LIVE_TEMPS][MAX_TEMP_PATH];
volatile std::sig_atomic_t live_used[MAX_LIVE_TEMPS];

constexpr int CLEANED_SIGNALS[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

extern "C" void remove_temps_and_die(int sig)
{
	for (int i = 0; i < MAX_LIVE_TEMPS; i++)
		if (live_used[i])
			::unlink(live_temps[i]);
	::signal(sig, SIG_DFL);
	::raise(sig);
}

// Registers a temporary; -1 when the table is full (the temporary then
// is left to remove_stale_temps() after a signal).
int register_temp(const std::string& path)
{
	if (path.size() >= MAX_TEMP_PATH)
		return -1;
	for (int i = 0; i < MAX_LIVE_TEMPS; i++)
		if (!live_used[i]) {
			std::memcpy(live_temps[i], path.c_str(), path.size() + 1);
			live_used[i] = 1;
			return i;
		}
	return -1;
}

std::string dir_of(const std::string& path)
{
	const size_t slash = path.rfind('/');
	return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

constexpr char MARK[] = ".eevdf-";

// The PID in ".NAME.eevdf-PID-XXXXXX", or -1 when `name` is not such a temporary.
pid_t temp_owner(const char* name)
{
	if (name[0] != '.')
		return -1;
	const char* at = std::strstr(name + 1, MARK);
	const char* last = nullptr;
	for (; at; at = std::strstr(at + 1, MARK))
		last = at;
	if (!last)
		return -1;
	const char* p = last + sizeof MARK - 1;
	long long pid = 0;
	int digits = 0;
	for (; *p >= '0' && *p <= '9' && digits < 10; p++, digits++)
		pid = pid * 10 + (*p - '0');
	if (!digits || *p != '-' || std::strlen(p + 1) != 6 || pid <= 0 || pid > 0x3fffffff)
		return -1;
	return static_cast<pid_t>(pid);
}

}  // namespace

void install_output_signal_handlers()
{
	static bool done = false;
	if (done)
		return;
	done = true;
	for (int sig : CLEANED_SIGNALS) {
		struct sigaction old {};
		::sigaction(sig, nullptr, &old);
		if (old.sa_handler == SIG_IGN)
			continue;  // nohup and the like: keep ignoring
		struct sigaction sa {};
		sa.sa_handler = remove_temps_and_die;
		sigemptyset(&sa.sa_mask);
		::sigaction(sig, &sa, nullptr);
	}
	// RLIMIT_FSIZE: a write past it fails with EFBIG instead of killing the
	// process with the temporary in place.
	struct sigaction old {};
	::sigaction(SIGXFSZ, nullptr, &old);
	if (old.sa_handler == SIG_DFL)
		::signal(SIGXFSZ, SIG_IGN);
}

mode_t output_mode(const std::string& path)
{
	struct stat st;
	if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
		return st.st_mode & 07777;
	// umask() can only be read by setting it: once, before any thread
	// of this process creates a file.
	static const mode_t mask = [] {
		const mode_t m = ::umask(022);
		::umask(m);
		return m;
	}();
	return 0666 & ~mask;
}

int make_temp(const std::string& path, mode_t mode, std::string& tmp, int& slot)
{
	install_output_signal_handlers();
	// Created and registered with the signals blocked, so that no signal
	// falls between the two.
	sigset_t block, old;
	sigemptyset(&block);
	for (int sig : CLEANED_SIGNALS)
		sigaddset(&block, sig);
	::sigprocmask(SIG_BLOCK, &block, &old);
	const size_t slash = path.rfind('/');
	const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
	tmp = dir_of(path) + "." + base + MARK + std::to_string(::getpid()) + "-XXXXXX";
	std::vector<char> name(tmp.begin(), tmp.end());
	name.push_back('\0');
	int fd = ::mkstemp(name.data());
	int err = errno;
	tmp.assign(name.data());
	slot = fd >= 0 ? register_temp(tmp) : -1;
	if (fd >= 0 && ::fchmod(fd, mode) != 0) {
		err = errno;
		::close(fd);
		::unlink(tmp.c_str());
		unregister_temp(slot);
		slot = -1;
		fd = -1;
	}
	::sigprocmask(SIG_SETMASK, &old, nullptr);
	errno = err;
	return fd;
}

void unregister_temp(int slot)
{
	if (slot >= 0)
		live_used[slot] = 0;
}

void remove_temp(const std::string& tmp, int slot)
{
	::unlink(tmp.c_str());
	unregister_temp(slot);
}

void remove_stale_temps(const std::string& path)
{
	const std::string dir = dir_of(path);
	DIR* d = ::opendir(dir.empty() ? "." : dir.c_str());
	if (!d)
		return;
	const pid_t self = ::getpid();
	while (const dirent* e = ::readdir(d)) {
		const pid_t owner = temp_owner(e->d_name);
		if (owner < 0 || owner == self || ::kill(owner, 0) == 0 || errno != ESRCH)
			continue;
		struct stat st;
		const std::string p = dir + e->d_name;
		if (::lstat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid())
			::unlink(p.c_str());
	}
	::closedir(d);
}

}  // namespace eevdf
