// SPDX-License-Identifier: GPL-2.0-only
// The temporary files outputs are written through (output_file.hpp,
// output_spool.hpp): each a fresh file beside its target, named
// ".NAME.eevdf-PID-XXXXXX" (mkstemp: O_EXCL, so a file or symlink planted
// under its name is never followed or reused), registered so that SIGINT,
// SIGTERM, SIGHUP or SIGQUIT while it exists removes it before the process
// dies of the signal. A SIGKILL cannot be caught: the PID in the name lets
// the next run that writes into the same directory remove the temporaries
// of processes that no longer exist.
#pragma once

#include <string>
#include <sys/types.h>

namespace eevdf {

// A fresh temporary beside `path` (same directory, so that a rename stays
// on one file system), registered for the signal handlers, with `mode`'s
// permission bits. Returns its fd (-1 with errno set on failure); `tmp` is
// its name, `slot` its registration (release_temp() takes both).
int make_temp(const std::string& path, mode_t mode, std::string& tmp, int& slot);

// The temporary is gone (renamed or removed): the handlers forget it.
void unregister_temp(int slot);

// Removes the temporary and forgets it.
void remove_temp(const std::string& tmp, int slot);

// The mode a new output gets: an existing regular file's permission bits
// (replacing it keeps them), else 0666 less the process's umask, as any
// program's new file.
mode_t output_mode(const std::string& path);

// Removes, in the directory of `path`, the temporaries this program left
// there when it was killed: ".*.eevdf-PID-XXXXXX" regular files of this
// user whose PID names no running process.
void remove_stale_temps(const std::string& path);

// SIGXFSZ ignored (a file-size limit then fails the write with EFBIG,
// reported like a full disk) and the handlers installed; idempotent.
void install_output_signal_handlers();

}  // namespace eevdf
