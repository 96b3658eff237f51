// Everything CSystem offers is inline in include/CSystem.h (but the callback guard, in
// CallGuard.cpp); SwiftPM needs one source file.
// NB: keep it so: a C function compiled here gets DWARF 5 debug info, which the valgrind of
// `make test-c` cannot read, and then refuses the whole library.
#include "CSystem.h"
