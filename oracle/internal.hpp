// SPDX-License-Identifier: GPL-2.0-only
// What the oracle's own files share and its users do not see: the kernel's
// enqueue, dequeue and wake-up flag values the rules test, NONE (no timer
// armed, no tick needed), how values are written in reports, and the
// release's rules (rules.hpp). Private to oracle/.
//
// The decision oracle (see decision_oracle.hpp for the design). Every
// function of oracle/ is named after the kernel function whose rule it
// applies and notes the versions where that rule differs; the sources are
// v6.6.0, v6.12.0, the 6.18.y stable tree (6.18-rc5 = 6.18.0, .2, .4/.5,
// .17, .22, .33, .44) and v7.1.5.
#pragma once

#include <string>

#include "oracle/decision_oracle.hpp"
#include "oracle/rules.hpp"
#include "model/task_group.hpp"

namespace eevdf::oracle {

inline constexpr unsigned EN_WAKEUP = 0x01, EN_RESTORE = 0x02, EN_MOVE = 0x04, EN_INITIAL = 0x80;
inline constexpr unsigned DQ_SLEEP = 0x01, DQ_SAVE = 0x02, DQ_MOVE = 0x04, DQ_SPECIAL = 0x10, DQ_DELAYED = 0x200;
inline constexpr unsigned WF_FORK_ = 0x04, WF_TTWU_ = 0x08;
inline constexpr u64 NONE = ~0ULL;

inline std::string num(u64 v) { return std::to_string(v); }
inline std::string snum(s64 v) { return std::to_string(v); }
inline std::string who(int id) { return id == IDLE ? std::string("idle") : "task " + std::to_string(id); }

}  // namespace eevdf::oracle
