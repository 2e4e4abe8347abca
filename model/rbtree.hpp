// SPDX-License-Identifier: GPL-2.0-only
// An intrusive, augmented red-black tree that makes the same moves as the
// kernel's: lib/rbtree.c (__rb_insert, ____rb_erase_color, rb_next) and
// include/linux/rbtree_augmented.h (rb_add_augmented_cached,
// __rb_erase_augmented, rb_erase_augmented_cached, RB_DECLARE_CALLBACKS),
// unchanged from v6.6 to v7.1. Each fix-up case recolours and rotates the
// nodes the kernel does, and erase moves the same successor into the erased
// node's place, so after any sequence of adds and erases the shape and the
// colours are the kernel's, and so is the path of every search over them.
//
// Node is any struct with the members
//     Node* left; Node* right;   children
//     Node* rb_parent;           nullptr at the root
//     bool rb_black;             the kernel's colour bit (RB_BLACK == 1)
// Callbacks is a struct with the static members of rb_augment_callbacks,
// propagate(node, stop), copy(old, new) and rotate(old, new); Augment<>
// builds them from a compute/copy pair the way RB_DECLARE_CALLBACKS does,
// and Both<> runs two such sets over disjoint fields side by side.
// Everything is a template over Node, so the tree allocates nothing and
// the callbacks inline.
#pragma once

namespace eevdf::rb {

inline constexpr bool RED = false;
inline constexpr bool BLACK = true;

// struct rb_root_cached.
template <class Node>
struct Root {
	Node* node = nullptr;
	Node* leftmost = nullptr;
};

// RB_DECLARE_CALLBACKS: Compute::compute(n) is RBCOMPUTE, which recomputes
// every augmented value of n from its own fields and its children's and
// returns true when none of them changed; Compute::copy(from, to) copies
// RBAUGMENTED, the one declared field (a struct of them is declared whole).
//   propagate: recompute upwards from n, stopping at stop or at the first
//              node that did not change;
//   copy:      the successor taking an erased node's place takes its
//              declared field;
//   rotate:    new takes old's place over the same set of nodes and
//              takes old's declared field; old, now over a smaller subtree,
//              is recomputed.
// A value that compute covers but copy does not stays what it was in the
// node that moved up: it is exact only after a later compute of that node.
template <class Node, class Compute>
struct Augment {
	static void propagate(Node* n, Node* stop)
	{
		while (n != stop) {
			if (Compute::compute(n))
				break;
			n = n->rb_parent;
		}
	}
	static void copy(Node* old, Node* neu) { Compute::copy(old, neu); }
	static void rotate(Node* old, Node* neu)
	{
		Compute::copy(old, neu);
		Compute::compute(old);
	}
};

// Two independent callback sets over disjoint fields, each with its own
// stop test: the same values as two trees of the same shape, one per set.
template <class Node, class A, class B>
struct Both {
	static void propagate(Node* n, Node* stop)
	{
		A::propagate(n, stop);
		B::propagate(n, stop);
	}
	static void copy(Node* old, Node* neu)
	{
		A::copy(old, neu);
		B::copy(old, neu);
	}
	static void rotate(Node* old, Node* neu)
	{
		A::rotate(old, neu);
		B::rotate(old, neu);
	}
};

namespace detail {

// One body for each pair of mirror-image cases: child(n, dir) is n->right
// for dir, n->left otherwise.
template <class Node>
inline Node*& child(Node* n, bool dir)
{
	return dir ? n->right : n->left;
}

template <class Node>
inline void set_parent_color(Node* n, Node* parent, bool black)
{
	n->rb_parent = parent;
	n->rb_black = black;
}

// __rb_change_child
template <class Node>
inline void change_child(Node* old, Node* neu, Node* parent, Node*& root)
{
	if (!parent)
		root = neu;
	else if (parent->left == old)
		parent->left = neu;
	else
		parent->right = neu;
}

// __rb_rotate_set_parents: neu takes old's parent, colour and link; old
// hangs under neu with the given colour.
template <class Node>
inline void rotate_set_parents(Node* old, Node* neu, Node*& root, bool black)
{
	Node* const parent = old->rb_parent;
	neu->rb_parent = parent;
	neu->rb_black = old->rb_black;
	set_parent_color(old, neu, black);
	change_child(old, neu, parent, root);
}

}  // namespace detail

// rb_next: in-order successor, nullptr after the last node.
template <class Node>
Node* next(Node* n)
{
	if (n->right) {
		n = n->right;
		while (n->left)
			n = n->left;
		return n;
	}
	Node* parent;
	while ((parent = n->rb_parent) && n == parent->right)
		n = parent;
	return parent;
}

// __rb_insert: node is a freshly linked red leaf. side is the side of
// grandparent on which parent hangs; case 1 (red uncle) recolours and
// climbs two levels, case 2 (node is parent's inner child) rotates at parent
// to make it an outer one, case 3 rotates at grandparent and ends.
template <class Node, class Callbacks>
void insert_color(Node* node, Node*& root)
{
	using detail::child;
	using detail::set_parent_color;
	Node* parent = node->rb_parent;
	for (;;) {
		if (!parent) {
			set_parent_color(node, static_cast<Node*>(nullptr), BLACK);
			return;
		}
		if (parent->rb_black)
			return;
		Node* const gparent = parent->rb_parent;  // exists: the root is black
		const bool side = parent == gparent->right;
		Node* tmp = child(gparent, !side);
		if (tmp && !tmp->rb_black) {  // case 1
			set_parent_color(tmp, gparent, BLACK);
			set_parent_color(parent, gparent, BLACK);
			node = gparent;
			parent = node->rb_parent;
			set_parent_color(node, parent, RED);
			continue;
		}
		tmp = child(parent, !side);
		if (node == tmp) {  // case 2
			tmp = child(node, side);
			child(parent, !side) = tmp;
			child(node, side) = parent;
			if (tmp)
				set_parent_color(tmp, parent, BLACK);
			set_parent_color(parent, node, RED);
			Callbacks::rotate(parent, node);
			parent = node;
			tmp = child(node, !side);
		}
		// case 3
		child(gparent, side) = tmp;
		child(parent, !side) = gparent;
		if (tmp)
			set_parent_color(tmp, gparent, BLACK);
		detail::rotate_set_parents(gparent, parent, root, RED);
		Callbacks::rotate(gparent, parent);
		return;
	}
}

// ____rb_erase_color: every path through parent's child on side `side` (node,
// nullptr on the first round) is one black short. Case 1 (red sibling)
// rotates at parent so that the sibling is black; case 2 (sibling with no
// red child) reddens it and moves the shortage up unless parent was red;
// case 3 (only the near nephew red) rotates at sibling so the far one is;
// case 4 rotates at parent and ends.
template <class Node, class Callbacks>
void erase_color(Node* parent, Node*& root)
{
	using detail::child;
	using detail::set_parent_color;
	Node* node = nullptr;
	for (;;) {
		// The kernel's test: node is the left child unless it is parent->right
		// (on the first round node is nullptr and the empty side is the right
		// one only if parent->right is nullptr).
		const bool side = node == parent->right;
		Node* sibling = child(parent, !side);
		if (!sibling->rb_black) {  // case 1
			Node* const tmp1 = child(sibling, side);
			child(parent, !side) = tmp1;
			child(sibling, side) = parent;
			set_parent_color(tmp1, parent, BLACK);
			detail::rotate_set_parents(parent, sibling, root, RED);
			Callbacks::rotate(parent, sibling);
			sibling = tmp1;
		}
		Node* tmp1 = child(sibling, !side);
		if (!tmp1 || tmp1->rb_black) {
			Node* const tmp2 = child(sibling, side);
			if (!tmp2 || tmp2->rb_black) {  // case 2
				set_parent_color(sibling, parent, RED);
				if (!parent->rb_black) {
					parent->rb_black = BLACK;
				} else {
					node = parent;
					parent = node->rb_parent;
					if (parent)
						continue;
				}
				return;
			}
			// case 3: sibling's and tmp2's parent links are left for case 4
			tmp1 = child(tmp2, !side);
			child(sibling, side) = tmp1;
			child(tmp2, !side) = sibling;
			child(parent, !side) = tmp2;
			if (tmp1)
				set_parent_color(tmp1, sibling, BLACK);
			Callbacks::rotate(sibling, tmp2);
			tmp1 = sibling;
			sibling = tmp2;
		}
		// case 4
		Node* const tmp2 = child(sibling, side);
		child(parent, !side) = tmp2;
		child(sibling, side) = parent;
		set_parent_color(tmp1, sibling, BLACK);
		if (tmp2)
			tmp2->rb_parent = parent;
		detail::rotate_set_parents(parent, sibling, root, BLACK);
		Callbacks::rotate(parent, sibling);
		return;
	}
}

// __rb_erase_augmented: unlinks node and returns the parent under which a
// black-height shortage is left, or nullptr. A node with at most one child
// is replaced by that child (which is then red and takes node's colour); a
// node with two is replaced by its in-order successor, the leftmost node of
// its right subtree, whose own right child (if any) takes the successor's
// old place and turns black.
template <class Node, class Callbacks>
Node* erase_augmented(Node* node, Node*& root)
{
	Node* const child = node->right;
	Node* tmp = node->left;
	Node* rebalance;
	if (!tmp) {
		Node* const parent = node->rb_parent;
		const bool black = node->rb_black;
		detail::change_child(node, child, parent, root);
		if (child) {
			child->rb_parent = parent;
			child->rb_black = black;
			rebalance = nullptr;
		} else {
			rebalance = black ? parent : nullptr;
		}
		tmp = parent;
	} else if (!child) {
		Node* const parent = node->rb_parent;
		tmp->rb_parent = parent;
		tmp->rb_black = node->rb_black;
		detail::change_child(node, tmp, parent, root);
		rebalance = nullptr;
		tmp = parent;
	} else {
		Node* successor = child;
		Node* parent;
		Node* child2;
		tmp = child->left;
		if (!tmp) {  // the successor is node's right child
			parent = successor;
			child2 = successor->right;
			Callbacks::copy(node, successor);
		} else {  // the successor is deeper, down child's left spine
			do {
				parent = successor;
				successor = tmp;
				tmp = tmp->left;
			} while (tmp);
			child2 = successor->right;
			parent->left = child2;
			successor->right = child;
			child->rb_parent = successor;
			Callbacks::copy(node, successor);
			Callbacks::propagate(parent, successor);
		}
		tmp = node->left;
		successor->left = tmp;
		tmp->rb_parent = successor;
		detail::change_child(node, successor, node->rb_parent, root);
		if (child2) {
			detail::set_parent_color(child2, parent, BLACK);
			rebalance = nullptr;
		} else {
			rebalance = successor->rb_black ? parent : nullptr;
		}
		successor->rb_parent = node->rb_parent;
		successor->rb_black = node->rb_black;
		tmp = successor;
	}
	Callbacks::propagate(tmp, static_cast<Node*>(nullptr));
	return rebalance;
}

// rb_add_augmented_cached: descend with less (an equal key goes right, so
// equal keys stay in insertion order), link as a red leaf, refresh the
// augmented values above it, rebalance. Returns node if it is the new
// leftmost, else nullptr.
template <class Node, class Callbacks, class Less>
Node* add_augmented_cached(Node* node, Root<Node>& tree, Less less)
{
	Node** link = &tree.node;
	Node* parent = nullptr;
	bool leftmost = true;
	while (*link) {
		parent = *link;
		if (less(node, parent)) {
			link = &parent->left;
		} else {
			link = &parent->right;
			leftmost = false;
		}
	}
	node->rb_parent = parent;  // rb_link_node
	node->rb_black = RED;
	node->left = node->right = nullptr;
	*link = node;
	Callbacks::propagate(parent, static_cast<Node*>(nullptr));
	if (leftmost)
		tree.leftmost = node;
	insert_color<Node, Callbacks>(node, tree.node);
	return leftmost ? node : nullptr;
}

// rb_erase_augmented_cached. EraseCallbacks is normally the insert's
// callbacks; Bug::STALE_AUGMENT passes ones whose propagate does nothing.
template <class Node, class EraseCallbacks>
void erase_augmented_cached(Node* node, Root<Node>& tree)
{
	if (tree.leftmost == node)
		tree.leftmost = next(node);
	if (Node* rebalance = erase_augmented<Node, EraseCallbacks>(node, tree.node))
		erase_color<Node, EraseCallbacks>(rebalance, tree.node);
}

}  // namespace eevdf::rb
