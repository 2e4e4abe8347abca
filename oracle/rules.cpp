// SPDX-License-Identifier: GPL-2.0-only
// A release's rules: the preset names the oracle knows (version_of(),
// version_name()), one Rules row per Version (rules_for()), and the
// sched_feat()s a release has (DecisionOracle::feat()).
#include "oracle/internal.hpp"

namespace eevdf::oracle {

std::optional<Version> version_of(std::string_view n)
{
	if (n == "6.6")
		return Version::V6_6;
	if (n == "6.12")
		return Version::V6_12;
	if (n == "6.15")
		return Version::V6_15;
	if (n == "6.18" || n == "6.18.0")
		return Version::V6_18_0;
	if (n == "6.18.2")
		return Version::V6_18_2;
	if (n == "6.18.5")
		return Version::V6_18_5;
	if (n == "6.18.17" || n == "6.18.y")
		return Version::V6_18_17;
	if (n == "6.18.33" || n == "6.18.39")  // 6.18.39 differs only in fork placement across CPUs
		return Version::V6_18_33;
	if (n == "7.1.5")
		return Version::V7_1_5;
	return std::nullopt;
}

std::string_view version_name(Version v)
{
	switch (v) {
	case Version::V6_6: return "6.6";
	case Version::V6_12: return "6.12";
	case Version::V6_15: return "6.15";
	case Version::V6_18_0: return "6.18.0";
	case Version::V6_18_2: return "6.18.2";
	case Version::V6_18_5: return "6.18.5";
	case Version::V6_18_17: return "6.18.17";
	case Version::V6_18_33: return "6.18.33";
	case Version::V7_1_5: return "7.1.5";
	}
	return "?";
}

// One row per version, each checked against that version's source. The
// 6.18.17 row follows 6.18.22's placement of the zero_vruntime pull (in
// update_deadline(); 6.18.17-.21 pulled it in entity_tick()): the two differ
// only in v0, which decides nothing while anything is queued.
const DecisionOracle::Rules* rules_for(Version v)
{
	using Rl = DecisionOracle::Rules;
	using P = Rl::Preempt;
	static const Rl r66{true, Rl::Ref::MinVruntime, true, false, false, false, false, false, false, false, false,
			    false, P::V66, true, false, 750000, false, false, false, false, false};
	static const Rl r612{false, Rl::Ref::MinVruntime, true, true, true, true, false, false, false, false, true,
			     false, P::V612, false, false, 750000, false, false, false, false, false};
	static const Rl r615{false, Rl::Ref::MinVruntime, true, true, true, true, false, false, false, false, true,
			     true, P::V612, false, false, 700000, false, false, false, false, false};
	static const Rl r6180{false, Rl::Ref::MinVruntime, false, false, true, true, false, false, false, false, true,
			      true, P::ProtectParam, false, false, 700000, false, false, false, false, false};
	static const Rl r6182{false, Rl::Ref::MinVruntime, false, false, true, true, false, false, true, true, true,
			      true, P::ProtectParam, false, false, 700000, false, false, false, false, false};
	static const Rl r6185{false, Rl::Ref::ZeroAtTreeOps, false, false, true, true, false, false, true, false, true,
			      true, P::ProtectParam, false, false, 700000, false, false, false, false, false};
	static const Rl r61817{false, Rl::Ref::ZeroAtAvg, false, false, true, true, true, true, true, false, true,
			       true, P::ProtectParam, false, true, 700000, false, false, false, false, false};
	static const Rl r61833{false, Rl::Ref::ZeroAtAvg, false, false, true, true, true, true, true, false, true,
			       true, P::Actions, false, true, 700000, false, false, false, false, false};
	static const Rl r715{false, Rl::Ref::ZeroAtAvg, false, false, true, true, true, true, true, false, true,
			     true, P::Actions, false, true, 700000, true, true, true, true, true};
	switch (v) {
	case Version::V6_6: return &r66;
	case Version::V6_12: return &r612;
	case Version::V6_15: return &r615;
	case Version::V6_18_0: return &r6180;
	case Version::V6_18_2: return &r6182;
	case Version::V6_18_5: return &r6185;
	case Version::V6_18_17: return &r61817;
	case Version::V6_18_33: return &r61833;
	case Version::V7_1_5: return &r715;
	}
	return nullptr;
}

// A sched_feat() that the version has: 6.6 has no DELAY_DEQUEUE,
// DELAY_ZERO, PLACE_REL_DEADLINE or PREEMPT_SHORT code, so flipping them
// there changes nothing.
bool DecisionOracle::feat(Feature f) const
{
	switch (f) {
	case Feature::PLACE_REL_DEADLINE:
	case Feature::PREEMPT_SHORT:
	case Feature::DELAY_DEQUEUE:
	case Feature::DELAY_ZERO:
		if (!rules_->v612_code)
			return false;
		break;
	default:
		break;
	}
	return cfg_.features[f];
}

}  // namespace eevdf::oracle
