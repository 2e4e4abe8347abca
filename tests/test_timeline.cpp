// SPDX-License-Identifier: GPL-2.0-only
// tasks_timeline (model/timeline.hpp, model/rbtree.hpp): the shapes and
// colours the kernel's lib/rbtree.c produces, derived by hand from its
// insert and erase cases, and a randomized check of the red-black
// properties and the augmented values against a brute-force recomputation.
//
// A shape is written node(left,right), a node as its id and B (black) or
// r (red), an empty child as '.', a leaf without parentheses.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "model/timeline.hpp"

using namespace eevdf;

namespace {

std::string shape(const SchedEntity* n)
{
	if (!n)
		return ".";
	std::string s = std::to_string(n->id) + (n->rb_black ? "B" : "r");
	if (n->left || n->right)
		s += "(" + shape(n->left) + "," + shape(n->right) + ")";
	return s;
}

// Entities 0..n-1 with deadline (and vruntime) equal to their id unless set.
struct Pool {
	std::vector<SchedEntity> se;
	explicit Pool(int n) : se(n)
	{
		for (int i = 0; i < n; i++) {
			se[i].id = i;
			se[i].deadline = se[i].vruntime = static_cast<u64>(i);
			se[i].slice = 1;
		}
	}
	SchedEntity* operator[](int i) { return &se[i]; }
};

void insert_ids(Timeline& tl, Pool& p, std::initializer_list<int> ids)
{
	for (int i : ids)
		tl.insert(p[i]);
}

void erase_ids(Timeline& tl, Pool& p, std::initializer_list<int> ids)
{
	for (int i : ids)
		tl.erase(p[i]);
}

std::vector<int> in_order(const Timeline& tl)
{
	std::vector<int> ids;
	tl.for_each([&](const SchedEntity* se) { ids.push_back(se->id); });
	return ids;
}

// The 1..7 tree: 3 rotates at 1 (case 3), 4 recolours (case 1), 5 rotates
// at 3, 6 recolours up to 4, 7 rotates at 5.
constexpr const char* SHAPE_1_TO_7 = "2B(1B,4r(3B,6B(5r,7r)))";

struct Expect {
	u64 min_v, min_slice, max_slice, min_deadline, black_height;
};

// Brute force: the red-black properties, parent links and augmented values
// of the subtree at n; the first violation is reported in why. Under the
// kernel's min_vruntime_cb min_slice (and max_slice from 6.18.17) need not
// be exact (slices_exact false): then only min_slice <= the node's slice.
Expect verify(const SchedEntity* n, std::string& why, bool min_slice_exact = true, bool max_slice_exact = true)
{
	Expect e{n->vruntime, n->slice, n->slice, n->deadline, 0};
	u64 bh[2] = {0, 0};
	const SchedEntity* const child[2] = {n->left, n->right};
	for (int i = 0; i < 2; i++) {
		const SchedEntity* c = child[i];
		if (!c)
			continue;
		if (c->rb_parent != n && why.empty())
			why = "parent link of " + std::to_string(c->id);
		if (!n->rb_black && !c->rb_black && why.empty())
			why = "red " + std::to_string(n->id) + " has a red child";
		const Expect s = verify(c, why, min_slice_exact, max_slice_exact);
		e.min_v = min_vruntime(e.min_v, s.min_v);
		e.min_slice = std::min(e.min_slice, s.min_slice);
		e.max_slice = std::max(e.max_slice, s.max_slice);
		e.min_deadline = min_vruntime(e.min_deadline, s.min_deadline);
		bh[i] = s.black_height;
	}
	if (bh[0] != bh[1] && why.empty())
		why = "black heights differ below " + std::to_string(n->id);
	const bool min_slice_ok = min_slice_exact ? e.min_slice == n->min_slice : n->min_slice <= n->slice;
	const bool max_slice_ok = !max_slice_exact || e.max_slice == n->max_slice;
	if ((e.min_v != n->min_vruntime || !min_slice_ok || !max_slice_ok || e.min_deadline != n->min_deadline) &&
	    why.empty())
		why = "stale augmented values at " + std::to_string(n->id);
	e.black_height = bh[0] + (n->rb_black ? 1 : 0);
	return e;
}

}  // namespace

TEST_CASE("inserting keys 1..7 in order gives the kernel's shape and colours", "[timeline]")
{
	Pool p(8);
	Timeline tl;
	insert_ids(tl, p, {1, 2});
	CHECK(shape(tl.root()) == "1B(.,2r)");
	insert_ids(tl, p, {3});
	CHECK(shape(tl.root()) == "2B(1r,3r)");
	insert_ids(tl, p, {4});
	CHECK(shape(tl.root()) == "2B(1B,3B(.,4r))");
	insert_ids(tl, p, {5});
	CHECK(shape(tl.root()) == "2B(1B,4B(3r,5r))");
	insert_ids(tl, p, {6});
	CHECK(shape(tl.root()) == "2B(1B,4r(3B,5B(.,6r)))");
	insert_ids(tl, p, {7});
	CHECK(shape(tl.root()) == SHAPE_1_TO_7);
	CHECK(tl.leftmost() == p[1]);
	CHECK(tl.size() == 7);
}

TEST_CASE("erasing the root moves its successor up and rotates away the double black", "[timeline]")
{
	// 2's successor 3 is the leftmost of 4's subtree: 3 takes 2's place and
	// colour, 4 loses its black left child (case 4 at 4: 6 takes 4's place
	// and red, 4 and 7 turn black, 5 moves under 4).
	Pool p(8);
	Timeline tl;
	insert_ids(tl, p, {1, 2, 3, 4, 5, 6, 7});
	tl.erase(p[2]);
	CHECK(shape(tl.root()) == "3B(1B,6r(4B(.,5r),7B))");
	CHECK(in_order(tl) == std::vector<int>{1, 3, 4, 5, 6, 7});
}

TEST_CASE("erasing a black leaf with a red sibling rotates at the parent, then recolours", "[timeline]")
{
	// 1's sibling 4 is red: case 1 rotates 4 above 2 (2 turns red); the new
	// sibling 3 has no red child, so case 2 reddens it and blackens 2.
	Pool p(8);
	Timeline tl;
	insert_ids(tl, p, {1, 2, 3, 4, 5, 6, 7});
	tl.erase(p[1]);
	CHECK(shape(tl.root()) == "4B(2B(.,3r),6B(5r,7r))");
	CHECK(tl.leftmost() == p[2]);
}

TEST_CASE("erasing with only the near nephew red rotates at the sibling, then at the parent", "[timeline]")
{
	// After 1, 5 and 7 go, 6 is a black right leaf whose sibling 2 has only
	// an inner red child 3: case 3 rotates 3 above 2, case 4 rotates 3 above
	// 4 with 4's colour; the mirror of the cases above.
	Pool p(8);
	Timeline tl;
	insert_ids(tl, p, {1, 2, 3, 4, 5, 6, 7});
	erase_ids(tl, p, {1, 5, 7});
	CHECK(shape(tl.root()) == "4B(2B(.,3r),6B)");
	tl.erase(p[6]);
	CHECK(shape(tl.root()) == "3B(2B,4B)");
}

TEST_CASE("a black successor leaves a double black that a red parent absorbs", "[timeline]")
{
	// 2's successor 3 is black and childless: removing it from under 4 leaves
	// 4's left side short; sibling 6 has no red child, so 6 turns red and 4
	// black (case 2 ending at a red parent).
	Pool p(8);
	Timeline tl;
	insert_ids(tl, p, {1, 2, 3, 4, 5, 6, 7});
	erase_ids(tl, p, {5, 7});
	CHECK(shape(tl.root()) == "2B(1B,4r(3B,6B))");
	tl.erase(p[2]);
	CHECK(shape(tl.root()) == "3B(1B,4B(.,6r))");
}

TEST_CASE("a successor that is the erased node's right child takes its place", "[timeline]")
{
	Pool p(4);
	Timeline tl;
	insert_ids(tl, p, {1, 2, 3});
	tl.erase(p[2]);
	CHECK(shape(tl.root()) == "3B(1r,.)");
}

TEST_CASE("equal keys go right, so they stay in insertion order", "[timeline]")
{
	Pool p(5);
	for (auto& se : p.se)
		se.deadline = 5;
	Timeline tl;
	insert_ids(tl, p, {0, 1, 2});
	CHECK(shape(tl.root()) == "1B(0r,2r)");
	insert_ids(tl, p, {3});
	CHECK(shape(tl.root()) == "1B(0B,2B(.,3r))");
	CHECK(in_order(tl) == std::vector<int>{0, 1, 2, 3});
	CHECK(tl.leftmost() == p[0]);
	// An earlier key still goes left of every equal one.
	p[4]->deadline = 4;
	tl.insert(p[4]);
	CHECK(in_order(tl) == std::vector<int>{4, 0, 1, 2, 3});
	CHECK(tl.leftmost() == p[4]);
}

TEST_CASE("erasing the leftmost caches its in-order successor", "[timeline]")
{
	Pool p(8);
	Timeline tl;
	insert_ids(tl, p, {1, 2, 3, 4, 5, 6, 7});
	for (int i = 1; i <= 7; i++) {
		REQUIRE(tl.leftmost() == p[i]);
		tl.erase(p[i]);
	}
	CHECK(tl.leftmost() == nullptr);
	CHECK(tl.empty());
	CHECK(tl.size() == 0);
}

TEST_CASE("erasing an entity that is not in the tree leaves the tree alone", "[timeline]")
{
	Pool p(5);
	Timeline tl;
	insert_ids(tl, p, {1, 2, 3});
	tl.erase(p[4]);
	tl.erase(p[3]);
	tl.erase(p[3]);
	CHECK(shape(tl.root()) == "2B(1r,.)");
	CHECK(tl.size() == 2);
}

TEST_CASE("the vruntime key orders by vruntime and keeps the subtree min_deadline", "[timeline]")
{
	// Deadlines run backwards, so the deadline order would be the mirror
	// image; 6.6 sorts by vruntime.
	Pool p(8);
	for (int i = 1; i <= 7; i++)
		p[i]->deadline = static_cast<u64>(100 - i);
	Timeline tl(Timeline::Key::Vruntime);
	insert_ids(tl, p, {1, 2, 3, 4, 5, 6, 7});
	CHECK(shape(tl.root()) == SHAPE_1_TO_7);
	CHECK(tl.leftmost() == p[1]);
	CHECK(tl.root()->min_deadline == 93);
	CHECK(p[4]->min_deadline == 93);  // 4r's subtree holds 3..7
	CHECK(p[1]->min_deadline == 99);
	tl.erase(p[7]);
	CHECK(tl.root()->min_deadline == 94);
}

TEST_CASE("the deadline key ignores vruntime when ordering", "[timeline]")
{
	Pool p(8);
	for (int i = 1; i <= 7; i++)
		p[i]->vruntime = static_cast<u64>(100 - i);
	Timeline tl;
	insert_ids(tl, p, {1, 2, 3, 4, 5, 6, 7});
	CHECK(shape(tl.root()) == SHAPE_1_TO_7);
	CHECK(tl.root()->min_vruntime == 93);
}

constexpr Timeline::Augments ALL_AUGMENTS[] = {Timeline::Augments::Exact, Timeline::Augments::MinVruntimeCb,
					       Timeline::Augments::MinVruntimeCbMax};

TEST_CASE("erase refreshes the ancestors' augmented values unless STALE_AUGMENT", "[timeline]")
{
	// min_vruntime is the declared field under every Augments: exact.
	for (Timeline::Augments aug : ALL_AUGMENTS) {
		for (bool stale : {false, true}) {
			Pool p(4);
			p[1]->vruntime = 0;  // the least vruntime, in a red leaf under the root
			p[2]->vruntime = p[3]->vruntime = 10;
			Timeline tl(Timeline::Key::Deadline, aug);
			tl.stale_augment_on_erase = stale;
			insert_ids(tl, p, {1, 2, 3});
			REQUIRE(shape(tl.root()) == "2B(1r,3r)");
			REQUIRE(tl.root()->min_vruntime == 0);
			tl.erase(p[1]);
			INFO("augments " << static_cast<int>(aug) << " stale " << stale);
			CHECK(tl.root()->min_vruntime == (stale ? 0 : 10));
		}
	}
}

TEST_CASE("propagate refreshes the path above an entity changed in place", "[timeline]")
{
	// min_vruntime_update() recomputes every field, so the kernel's
	// propagate refreshes max_slice along the path too. With equal slices
	// and fresh entities, nothing is stale to begin with.
	for (Timeline::Augments aug : ALL_AUGMENTS) {
		INFO("augments " << static_cast<int>(aug));
		Pool p(8);
		for (auto& se : p.se)
			se.max_slice = se.slice;  // a fresh kernel entity's leftover is 0; start level here
		Timeline tl(Timeline::Key::Deadline, aug);
		insert_ids(tl, p, {1, 2, 3, 4, 5, 6, 7});
		p[5]->slice = 9;  // 5 is a leaf under 6 under 4 under 2
		tl.propagate(p[5]);
		CHECK(tl.root()->max_slice == 9);
		CHECK(p[4]->max_slice == 9);
		CHECK(p[3]->max_slice == 1);
		std::string why;
		verify(tl.root(), why);
		CHECK(why.empty());
	}
}

// ---- The kernel's min_vruntime_cb (Augments::MinVruntimeCb 6.12 .. 6.18.16,
// MinVruntimeCbMax 6.18.17+): rotate and copy carry only min_vruntime.

TEST_CASE("min_vruntime_cb: a rotation leaves the node it moves up its old min_slice", "[timeline]")
{
	// 1 holds the least slice. Linking 3 under 2 recomputes 2 over {2, 3}:
	// min_slice 5. Case 3 then rotates 2 above 1: 2 takes 1's min_vruntime
	// only, and 1, now a leaf, is recomputed. The root's min_slice misses 1.
	for (Timeline::Augments aug : ALL_AUGMENTS) {
		INFO("augments " << static_cast<int>(aug));
		Pool p(4);
		p[1]->slice = 1;
		p[2]->slice = p[3]->slice = 5;
		Timeline tl(Timeline::Key::Deadline, aug);
		insert_ids(tl, p, {1, 2, 3});
		REQUIRE(shape(tl.root()) == "2B(1r,3r)");
		CHECK(tl.root()->min_vruntime == 1);
		CHECK(p[1]->min_slice == 1);
		CHECK(tl.root()->min_slice == (aug == Timeline::Augments::Exact ? 1 : 5));
	}
}

TEST_CASE("min_vruntime_cb: propagation stops below a stale node until a change reaches it", "[timeline]")
{
	// Continuing from 2B(1r,3r) with root min_slice 5: linking 4 under 3
	// recomputes 3, which is unchanged (min_vruntime 3, min_slice 5), so the
	// walk stops there and case 1 only recolours. Linking 5, whose vruntime
	// 0 is the new minimum, changes min_vruntime at 4, 3 and 2, so 2 is
	// recomputed at last.
	Pool p(6);
	p[1]->slice = 1;
	for (int i : {2, 3, 4, 5})
		p[i]->slice = 5;
	Timeline tl(Timeline::Key::Deadline, Timeline::Augments::MinVruntimeCb);
	insert_ids(tl, p, {1, 2, 3, 4});
	REQUIRE(shape(tl.root()) == "2B(1B,3B(.,4r))");
	CHECK(tl.root()->min_slice == 5);
	p[5]->vruntime = 0;
	tl.insert(p[5]);
	REQUIRE(shape(tl.root()) == "2B(1B,4B(3r,5r))");
	CHECK(tl.root()->min_vruntime == 0);
	CHECK(tl.root()->min_slice == 1);
}

TEST_CASE("6.18.17's enqueue leaves max_slice as the entity's last time in the tree left it", "[timeline]")
{
	// Two entities taking turns, as curr and the one queued beside it: a
	// lone root is never recomputed, and each link recomputes the parent
	// from the child's leftover. 1 gives up its 10 ms slice while out of
	// the tree, and the 10 ms comes back with it.
	for (Timeline::Augments aug : ALL_AUGMENTS) {
		INFO("augments " << static_cast<int>(aug));
		const bool leftover = aug == Timeline::Augments::MinVruntimeCbMax;
		Pool p(3);
		for (auto& se : p.se)
			se.max_slice = 0;  // a fresh entity
		p[1]->slice = 10;
		Timeline tl(Timeline::Key::Deadline, aug);
		tl.insert(p[1]);
		CHECK(tl.root()->max_slice == (leftover ? 0 : 10));
		tl.insert(p[2]);
		CHECK(tl.root()->max_slice == 10);
		tl.erase(p[1]);
		REQUIRE(tl.root() == p[2]);
		CHECK(p[2]->max_slice == (leftover ? 0 : 1));
		p[1]->slice = 1;
		p[1]->deadline = 3;
		tl.insert(p[1]);
		REQUIRE(shape(tl.root()) == "2B(.,1r)");
		CHECK(tl.root()->max_slice == (leftover ? 10 : 1));
	}
}

TEST_CASE("under min_vruntime_cb random inserts and erases keep the shape, min_vruntime and min_deadline exact",
	  "[timeline]")
{
	// The same operations on three trees: the augments never move a node,
	// the declared field (and the model's own exact fields) stay exact, a
	// node's min_slice never exceeds its own slice, and the kernel's trees
	// do go stale.
	std::mt19937_64 rng(21);
	u64 stale_min = 0, stale_max = 0;
	for (int round = 0; round < 200; round++) {
		const int n = 1 + static_cast<int>(rng() % 48);
		std::vector<Pool> pools(3, Pool(n));
		std::vector<Timeline> tls;
		for (Timeline::Augments aug : ALL_AUGMENTS)
			tls.emplace_back(Timeline::Key::Deadline, aug);
		std::vector<int> in, out;
		for (int i = 0; i < n; i++)
			out.push_back(i);
		for (int op = 0; op < 300; op++) {
			if (!out.empty() && (in.empty() || rng() % 100 < 55)) {
				const size_t j = rng() % out.size();
				const u64 v = rng() % 1000, d = rng() % 1000, sl = 1 + rng() % 8;
				for (size_t k = 0; k < 3; k++) {
					SchedEntity* se = pools[k][out[j]];
					se->vruntime = v;
					se->deadline = d;
					se->slice = sl;
					tls[k].insert(se);
				}
				in.push_back(out[j]);
				out.erase(out.begin() + static_cast<long>(j));
			} else {
				const size_t j = rng() % in.size();
				for (size_t k = 0; k < 3; k++)
					tls[k].erase(pools[k][in[j]]);
				out.push_back(in[j]);
				in.erase(in.begin() + static_cast<long>(j));
			}
			const std::string want = shape(tls[0].root());
			for (size_t k = 0; k < 3; k++) {
				std::string why;
				if (const SchedEntity* root = tls[k].root())
					verify(root, why, tls[k].min_slice_exact(), tls[k].max_slice_exact());
				INFO("round " << round << " op " << op << " tree " << k << ": " << why);
				REQUIRE(why.empty());
				REQUIRE(shape(tls[k].root()) == want);
			}
			for (int i : in) {
				stale_min += pools[1][i]->min_slice != pools[0][i]->min_slice;
				stale_max += pools[2][i]->max_slice != pools[0][i]->max_slice;
			}
		}
	}
	CHECK(stale_min > 0);
	CHECK(stale_max > 0);
}

TEST_CASE("random inserts and erases keep the red-black properties and exact augments", "[timeline]")
{
	std::mt19937_64 rng(20);
	for (Timeline::Key key : {Timeline::Key::Deadline, Timeline::Key::Vruntime}) {
		for (int round = 0; round < 200; round++) {
			const int n = 1 + static_cast<int>(rng() % 48);
			// Small key ranges force ties; the last range wraps through 0.
			const u64 span = round % 3 == 0 ? 4 : round % 3 == 1 ? 1000 : 64;
			const u64 base = round % 3 == 2 ? ~0ULL - 31 : 0;
			Pool p(n);
			Timeline tl(key);
			std::vector<int> in, out;
			for (int i = 0; i < n; i++)
				out.push_back(i);
			for (int op = 0; op < 300; op++) {
				if (!out.empty() && (in.empty() || rng() % 100 < 55)) {
					const size_t j = rng() % out.size();
					SchedEntity* se = p[out[j]];
					se->vruntime = base + rng() % span;
					se->deadline = base + rng() % span;
					se->slice = 1 + rng() % 8;
					in.push_back(out[j]);
					out.erase(out.begin() + static_cast<long>(j));
					tl.insert(se);
				} else {
					const size_t j = rng() % in.size();
					tl.erase(p[in[j]]);
					out.push_back(in[j]);
					in.erase(in.begin() + static_cast<long>(j));
				}
				// Expected in-order: key, then insertion order (node_seq).
				std::vector<const SchedEntity*> want;
				for (int i : in)
					want.push_back(p[i]);
				std::sort(want.begin(), want.end(), [&](const SchedEntity* a, const SchedEntity* b) {
					const s64 d = wrapped_diff(tl.key_of(a), tl.key_of(b));
					return d ? d < 0 : a->node_seq < b->node_seq;
				});
				std::vector<const SchedEntity*> got;
				tl.for_each([&](const SchedEntity* se) { got.push_back(se); });
				std::string why;
				if (const SchedEntity* root = tl.root()) {
					if (!root->rb_black || root->rb_parent)
						why = "root";
					verify(root, why);
				}
				INFO("key " << static_cast<int>(key) << " round " << round << " op " << op << ": " << why);
				REQUIRE(why.empty());
				REQUIRE(got == want);
				REQUIRE(tl.leftmost() == (want.empty() ? nullptr : want.front()));
				REQUIRE(tl.size() == want.size());
			}
		}
	}
}
