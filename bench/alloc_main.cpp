// SPDX-License-Identifier: GPL-2.0-only
// Catch2 main for alloc_tests (tests/test_no_alloc.cpp).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
