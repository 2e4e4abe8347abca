// SPDX-License-Identifier: GPL-2.0-only
#include "io/output_spool.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "io/temp_file.hpp"
#include "io/values.hpp"

namespace eevdf {

OutputSpool::OutputSpool(const std::string& path, const std::string& flag) : path_(path), flag_(flag)
{
	// Beside a regular (or not yet existing) target, on the file system the
	// output will be on; the standard output and devices have none.
	std::string where = path;
	struct stat st;
	if (path == "-" || (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))) {
		const char* tmpdir = std::getenv("TMPDIR");
		where = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/eevdf-spool";
	}
	std::string tmp;
	int slot = -1;
	fd_ = make_temp(where, 0600, tmp, slot);
	if (fd_ < 0)
		throw cli::UsageError(flag_ + ": cannot write '" + path_ + "': " + std::strerror(errno));
	remove_temp(tmp, slot);  // unnamed from here on: it goes when the process does
}

OutputSpool::~OutputSpool()
{
	if (fd_ >= 0)
		::close(fd_);
}

void OutputSpool::write(std::string_view text)
{
	const char* p = text.data();
	size_t left = text.size();
	while (left) {
		const ssize_t n = ::write(fd_, p, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			throw cli::UsageError(flag_ + ": cannot write '" + path_ +
					      "': " + std::strerror(n < 0 ? errno : ENOSPC));
		p += n;
		left -= static_cast<size_t>(n);
		size_ += static_cast<u64>(n);
	}
}

template <class Sink>
bool OutputSpool::copy(Sink&& sink) const
{
	std::vector<char> buf(1 << 20);
	for (u64 off = 0; off < size_;) {
		const ssize_t n = ::pread(fd_, buf.data(), buf.size(), static_cast<off_t>(off));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;  // shorter than what was written
			return false;
		}
		if (!sink(buf.data(), static_cast<size_t>(n)))
			return false;
		off += static_cast<u64>(n);
	}
	return true;
}

bool write_all(int fd, const char* p, size_t left)
{
	while (left) {
		const ssize_t n = ::write(fd, p, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			return false;
		}
		p += n;
		left -= static_cast<size_t>(n);
	}
	return true;
}

bool OutputSpool::copy_to(int fd) const
{
	return copy([fd](const char* p, size_t left) { return write_all(fd, p, left); });
}

bool OutputSpool::copy_to(std::ostream& os) const
{
	return copy([&os](const char* p, size_t n) {
		return static_cast<bool>(os.write(p, static_cast<std::streamsize>(n)));
	});
}

}  // namespace eevdf
