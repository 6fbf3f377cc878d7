// The single translation unit that provides Catch2's main (Debian 12 ships Catch2 2.x, header-only).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
