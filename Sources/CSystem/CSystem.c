// Everything CSystem offers is inline in include/CSystem.h; SwiftPM needs one source file.
#include "CSystem.h"
