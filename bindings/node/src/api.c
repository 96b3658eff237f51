/*
 * api.c — libtca opened at run time: every function the addon calls, looked up once.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "tca_node.h"

tca_api tca;

/// Opens libtca at `path` and looks up every function of TCA_NODE_FUNCTIONS. The library stays
/// loaded for the life of the process (it is linked with -z nodelete anyway).
const char *tca_node_load(const char *path) {
  static char why[512];
  if (tca.tca_version != NULL) return NULL;
  dlerror();
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *error = dlerror();
    snprintf(why, sizeof why, "%s", error != NULL ? error : "dlopen failed");
    return why;
  }
  tca_api found;
  memset(&found, 0, sizeof found);
  // NB: the object-to-function pointer conversion dlsym needs (POSIX guarantees it).
#define TCA_NODE_LOOKUP(name)                                                                  \
  *(void **)(&found.name) = dlsym(library, #name);                                            \
  if (found.name == NULL) {                                                                    \
    snprintf(why, sizeof why, "%s has no %s: a libtca older than this binding", path, #name);  \
    dlclose(library);                                                                          \
    return why;                                                                                \
  }
  TCA_NODE_FUNCTIONS(TCA_NODE_LOOKUP)
#undef TCA_NODE_LOOKUP
  tca = found;
  return NULL;
}
