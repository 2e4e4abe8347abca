// SPDX-License-Identifier: GPL-2.0-only
#include "io/output_file.hpp"

#include <cerrno>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/temp_file.hpp"

namespace eevdf {
namespace {

bool write_all(int fd, const std::string& text) { return eevdf::write_all(fd, text.data(), text.size()); }

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
	add(path, "", nullptr, std::move(text), flag);
}

void OutputSet::add(const std::string& path, std::string head, const OutputSpool* spool, std::string tail,
		    const std::string& flag)
{
	Out out{path, std::move(tail), flag, std::move(head), spool, "", -1};
	if (path == "-") {
		if (!stdout_flag_.empty() && error_.empty())
			error_ = flag + " -: only one output can go to the standard output, and " + stdout_flag_ + " - already does";
		stdout_flag_ = flag;
		stdout_ = std::move(out);
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
	outs_.push_back(std::move(out));
}

bool OutputSet::write_out(int fd, const Out& o, bool sync)
{
	bool ok = write_all(fd, o.head) && (!o.spool || o.spool->copy_to(fd)) && write_all(fd, o.text);
	if (ok && sync && ::fsync(fd) != 0)
		ok = false;
	const int err = errno;
	if (::close(fd) != 0 && ok)
		return false;
	errno = err;
	return ok;
}

bool OutputSet::write_stdout(std::ostream& os) const
{
	os << stdout_.head;
	if (stdout_.spool && !stdout_.spool->copy_to(os))
		return false;
	os << stdout_.text;
	return static_cast<bool>(os);
}

OutputSet::~OutputSet()
{
	for (const Out& o : outs_)
		if (!o.tmp.empty())
			remove_temp(o.tmp, o.slot);
}

std::string OutputSet::commit()
{
	if (!error_.empty())
		return error_;
	auto remove_tmps = [&] {
		for (Out& o : outs_)
			if (!o.tmp.empty()) {
				remove_temp(o.tmp, o.slot);
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
		remove_stale_temps(o.path);
		const int fd = make_temp(o.path, output_mode(o.path), o.tmp, o.slot);
		if (fd < 0) {
			const std::string why = std::strerror(errno);
			o.tmp.clear();
			remove_tmps();
			return o.flag + ": cannot write '" + o.path + "': " + why;
		}
		if (!write_out(fd, o, true)) {
			const std::string why = std::strerror(errno);
			remove_tmps();
			return o.flag + ": cannot write '" + o.path + "': " + why;
		}
	}
	for (const Out& o : outs_) {
		if (classify(o.path) != Dest::Special)
			continue;
		const int fd = ::open(o.path.c_str(), O_WRONLY | O_NOCTTY);
		if (fd < 0 || !write_out(fd, o, false)) {
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
