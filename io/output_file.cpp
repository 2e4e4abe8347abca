// SPDX-License-Identifier: GPL-2.0-only
#include "io/output_file.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace eevdf {
namespace {

// The temporaries that exist right now, so that SIGINT, SIGTERM or SIGHUP
// while the outputs are written leaves none behind: the handler unlinks
// them (unlink() is async-signal-safe) and dies of the signal as before.
// Fixed storage, no allocation in the handler. (I/O state, not the model's:
// model/ stays free of globals.)
constexpr int MAX_LIVE_TEMPS = 32;
constexpr std::size_t MAX_TEMP_PATH = 4096;
char live_temps[MAX_LIVE_TEMPS][MAX_TEMP_PATH];
volatile std::sig_atomic_t live_used[MAX_LIVE_TEMPS];

extern "C" void remove_temps_and_die(int sig)
{
	for (int i = 0; i < MAX_LIVE_TEMPS; i++)
		if (live_used[i])
			::unlink(live_temps[i]);
	::signal(sig, SIG_DFL);
	::raise(sig);
}

void install_handlers_once()
{
	static bool done = false;
	if (done)
		return;
	done = true;
	for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
		struct sigaction old {};
		::sigaction(sig, nullptr, &old);
		if (old.sa_handler == SIG_IGN)
			continue;  // nohup and the like: keep ignoring
		struct sigaction sa {};
		sa.sa_handler = remove_temps_and_die;
		sigemptyset(&sa.sa_mask);
		::sigaction(sig, &sa, nullptr);
	}
}

// Registers a temporary; -1 when the table is full (the temporary then
// just is not cleaned on a signal).
int register_temp(const std::string& path)
{
	install_handlers_once();
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

void unregister_temp(int slot)
{
	if (slot >= 0)
		live_used[slot] = 0;
}

// Writes all of `text` to fd and closes it; false on any short write, a
// write error (ENOSPC on a full disk or /dev/full) or a failed close.
bool write_all_and_close(int fd, const std::string& text, bool sync)
{
	const char* p = text.data();
	size_t left = text.size();
	bool ok = true;
	while (left && ok) {
		const ssize_t n = ::write(fd, p, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			ok = false;
		else {
			p += n;
			left -= static_cast<size_t>(n);
		}
	}
	if (ok && sync && ::fsync(fd) != 0)
		ok = false;
	if (::close(fd) != 0)
		ok = false;
	return ok;
}

// A destination that exists and is not a regular file (a character device
// such as /dev/null or /dev/full, a FIFO): written in place, since renaming
// a file over it would replace the device itself. A directory is refused.
enum class Dest { Regular, Special, Directory };

Dest classify(const std::string& path)
{
	struct stat st;
	if (::stat(path.c_str(), &st) != 0)
		return Dest::Regular;  // absent: created by the rename
	if (S_ISDIR(st.st_mode))
		return Dest::Directory;
	return S_ISREG(st.st_mode) ? Dest::Regular : Dest::Special;
}

// A fresh temporary beside `path` (same directory, so the rename stays on
// one file system): mkstemp() creates it with O_EXCL, so it never follows a
// symlink planted under its name nor reuses another run's file.
int make_temp(const std::string& path, std::string& tmp, int& slot)
{
	// Created and registered with the signals blocked, so that no signal
	// falls between the two.
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	::sigprocmask(SIG_BLOCK, &block, &old);
	const size_t slash = path.rfind('/');
	const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
	const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
	tmp = dir + "." + base + ".eevdf-XXXXXX";
	std::vector<char> name(tmp.begin(), tmp.end());
	name.push_back('\0');
	const int fd = ::mkstemp(name.data());
	const int err = errno;
	tmp.assign(name.data());
	slot = fd >= 0 ? register_temp(tmp) : -1;
	::sigprocmask(SIG_SETMASK, &old, nullptr);
	errno = err;
	return fd;
}

}  // namespace

bool write_output_file(const std::string& path, const std::string& text)
{
	OutputSet one;
	one.add(path, text, "output");
	return one.commit().empty();
}

std::string write_output_file(const std::string& path, const std::string& text, const std::string& flag,
			      const std::vector<std::string>& inputs)
{
	OutputSet one;
	for (const std::string& in : inputs)
		one.add_input(in, "an input of this run");
	one.add(path, text, flag);
	return one.commit();
}

void OutputSet::add_input(const std::string& path, const std::string& what)
{
	struct stat st;
	if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
		ins_.push_back(In{static_cast<unsigned long long>(st.st_dev), static_cast<unsigned long long>(st.st_ino),
				  path, what});
}

void OutputSet::add(const std::string& path, std::string text, const std::string& flag)
{
	if (path == "-") {
		if (!stdout_flag_.empty() && error_.empty())
			error_ = flag + " -: only one output can go to the standard output, and " + stdout_flag_ + " - already does";
		stdout_flag_ = flag;
		stdout_text_ = std::move(text);
		return;
	}
	struct stat st;
	if (error_.empty() && ::stat(path.c_str(), &st) == 0)
		for (const In& in : ins_)
			if (in.dev == static_cast<unsigned long long>(st.st_dev) &&
			    in.ino == static_cast<unsigned long long>(st.st_ino)) {
				error_ = flag + ": '" + path + "' is " + in.what + " ('" + in.path +
					 "'); writing it would destroy it, so give the output its own file";
				break;
			}
	for (const Out& o : outs_)
		if (o.path == path && error_.empty())
			error_ = flag + ": '" + path + "' is also the file of " + o.flag + "; give each output its own file";
	outs_.push_back(Out{path, std::move(text), flag, ""});
}

std::string OutputSet::commit()
{
	if (!error_.empty())
		return error_;
	auto remove_tmps = [&] {
		for (Out& o : outs_)
			if (!o.tmp.empty()) {
				::unlink(o.tmp.c_str());
				unregister_temp(o.slot);
				o.slot = -1;
				o.tmp.clear();
			}
	};
	// Regular files go to temporaries first; then special files are written
	// in place (a full /dev/full fails here, before any rename); then the
	// temporaries are renamed over their paths.
	for (Out& o : outs_) {
		const Dest d = classify(o.path);
		if (d == Dest::Directory) {
			remove_tmps();
			return o.flag + ": '" + o.path + "' is a directory";
		}
		if (d == Dest::Special)
			continue;
		const int fd = make_temp(o.path, o.tmp, o.slot);
		if (fd < 0) {
			const std::string why = std::strerror(errno);
			o.tmp.clear();
			remove_tmps();
			return o.flag + ": cannot write '" + o.path + "': " + why;
		}
		if (!write_all_and_close(fd, o.text, true)) {
			const std::string why = std::strerror(errno);
			remove_tmps();
			return o.flag + ": cannot write '" + o.path + "': " + why;
		}
	}
	for (const Out& o : outs_) {
		if (classify(o.path) != Dest::Special)
			continue;
		const int fd = ::open(o.path.c_str(), O_WRONLY | O_NOCTTY);
		if (fd < 0 || !write_all_and_close(fd, o.text, false)) {
			const std::string why = std::strerror(errno);
			remove_tmps();
			return o.flag + ": cannot write '" + o.path + "': " + why;
		}
	}
	for (size_t i = 0; i < outs_.size(); i++) {
		Out& o = outs_[i];
		if (o.tmp.empty())
			continue;
		if (::rename(o.tmp.c_str(), o.path.c_str()) != 0) {
			const std::string why = std::strerror(errno);
			remove_tmps();
			return o.flag + ": cannot write '" + o.path + "': " + why + " (" + std::to_string(i) +
			       " other output files were already written)";
		}
		unregister_temp(o.slot);
		o.slot = -1;
		o.tmp.clear();
	}
	return "";
}

}  // namespace eevdf
