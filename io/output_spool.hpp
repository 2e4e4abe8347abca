// SPDX-License-Identifier: GPL-2.0-only
// A long output kept on disk while the run makes it: `--trace` of a long run
// is gigabytes, more than memory holds. Its text is appended in chunks to
// an unnamed temporary (created beside the target and unlinked at once, so
// that nothing is left behind even by a SIGKILL; in $TMPDIR for the
// standard output or a device), and OutputSet (output_file.hpp) copies it
// into the output when the run's outputs are written.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "model/types.hpp"

namespace eevdf {

// Writes all `n` bytes at `p` to fd, through EINTR; false on any short
// write or a write error (ENOSPC on a full disk or /dev/full, EFBIG past
// RLIMIT_FSIZE), with errno saying which.
bool write_all(int fd, const char* p, size_t n);

class OutputSpool {
public:
	// `path` is the output's target, `flag` names it in errors. Throws
	// cli::UsageError ("--trace: cannot write 'x': why") when no temporary
	// can be made there.
	OutputSpool(const std::string& path, const std::string& flag);
	~OutputSpool();
	OutputSpool(const OutputSpool&) = delete;
	OutputSpool& operator=(const OutputSpool&) = delete;

	// Appends `text`; throws cli::UsageError on a write error (a full disk).
	void write(std::string_view text);
	u64 size() const { return size_; }
	// Copies everything written to `fd` or `os`; false on a write error
	// (errno says which).
	bool copy_to(int fd) const;
	bool copy_to(std::ostream& os) const;

private:
	template <class Sink>
	bool copy(Sink&& sink) const;

	int fd_ = -1;
	u64 size_ = 0;
	std::string path_, flag_;
};

}  // namespace eevdf
