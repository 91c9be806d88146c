/* Internal: the version check of options structs (core/version.c). */
#ifndef FLAME_CORE_VERSION_H
#define FLAME_CORE_VERSION_H
#include "../flame.h"

/** 0 when `version` is a layout of the struct `what` ("flame_parse_opts") that this library
 * knows (1..known); else FLAME_EUSAGE naming the struct and the versions it knows. */
int flame__opts_version(unsigned version, unsigned known, const char *what, flame_err *err);

/** An options struct's _init: copy `defaults` (`size` bytes, the struct's _INIT) to `o`
 * and set its version, the first field, to `version`; FLAME_EUSAGE, `o` untouched, when
 * flame__opts_version refuses it. */
int flame__opts_init(void *o, const void *defaults, size_t size, unsigned version,
                     unsigned known, const char *what);
#endif
