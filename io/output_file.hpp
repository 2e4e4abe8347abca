// SPDX-License-Identifier: GPL-2.0-only
// Writing an output file whole or not at all: the text goes to a fresh
// temporary beside PATH (temp_file.hpp: never a planted file followed or
// reused, removed on SIGINT, SIGTERM, SIGHUP or SIGQUIT, and by a later run
// after a SIGKILL), is synced, and is renamed over PATH only once it is
// complete, so a reader never sees half a file and a failed write leaves
// the old one in place. The file gets 0666 less the umask, or the mode of
// the file it replaces. A PATH that exists and is not a regular file
// (/dev/null, /dev/full, a FIFO) is written in place instead, with every
// write checked; a directory is refused. A symlink at PATH is replaced by
// the file, not followed.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "io/output_spool.hpp"

namespace eevdf {

// Returns false (and leaves no temporary behind) when the file cannot be
// written.
bool write_output_file(const std::string& path, const std::string& text);
// The same, refusing a path that is one of `inputs` (OutputSet::add_input):
// "" when written, else what failed.
std::string write_output_file(const std::string& path, const std::string& text, const std::string& flag,
			      const std::vector<std::string>& inputs);

// The several output files of one run, whole or not at all together: each
// text goes to its temporary first, and only when every one is complete
// (and every special file written) are they renamed over their paths. If
// one cannot be written no regular PATH changes and no temporary is left. (The renames are not one atomic step: one that
// fails after others succeeded, which a full disk cannot cause, is
// reported with the files already replaced.)
class OutputSet {
public:
	// A file the run reads: an output that is the same file (by device and
	// inode, so also through a symlink or another spelling) is refused,
	// since writing it would destroy the input. `what` names it in errors.
	void add_input(const std::string& path, const std::string& what);
	// flag names the option in errors; a path given twice is refused. PATH
	// "-" keeps the text for the standard output, which the caller prints
	// in place of its own report (one such output at most).
	void add(const std::string& path, std::string text, const std::string& flag);
	// The same for an output made of `head`, what `spool` holds (none:
	// nullptr) and `tail`, in that order: a long output kept on disk.
	void add(const std::string& path, std::string head, const OutputSpool* spool, std::string tail,
		 const std::string& flag);
	// The flag whose output is for stdout ("" when none), and its text
	// written to `os` (false when a write failed).
	const std::string& stdout_flag() const { return stdout_flag_; }
	bool write_stdout(std::ostream& os) const;
	// "" when every file was written, else what failed ("--csv: cannot write 'x'").
	std::string commit();
	// Removes the temporaries an exception (std::bad_alloc) left mid-commit.
	~OutputSet();
	OutputSet() = default;
	OutputSet(const OutputSet&) = delete;
	OutputSet& operator=(const OutputSet&) = delete;

private:
	struct Out {
		std::string path, text, flag;
		std::string head;  // written before the spool and text
		const OutputSpool* spool = nullptr;
		std::string tmp;  // the temporary while it exists
		int slot = -1;    // its entry in the table the signal handler cleans
	};
	static bool write_out(int fd, const Out& o, bool sync);
	struct In {
		unsigned long long dev, ino;
		std::string path, what;
	};
	std::vector<In> ins_;
	std::vector<Out> outs_;
	std::string error_;
	std::string stdout_flag_;
	Out stdout_;  // its text when stdout_flag_ is set
};

}  // namespace eevdf
