// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe --rtapp FILE: rt-app itself runs FILE while a private trace
// instance records the sched events on every CPU; the trace goes to
// --dump-trace and a JSON line says what ran where (kernel, HZ, CPUs,
// rt-app's exit status). `eevdf probe --rtapp FILE` reads the trace with
// its trace reader and sets the model beside it (cli/probe_rtapp.cpp).
#pragma once

namespace probe {

int run_rtapp(int argc, char **argv);

}  // namespace probe
