/* 128-bit integers for the products of 64-bit counts (a count times a weight over a
 * divisor, sums of weighted totals) checked against 64 bits. The type is a compiler
 * extension: it is named once, here, with __extension__, so a pedantic build has nothing
 * to say where it is used. */
#ifndef FLAME_CORE_U128_H
#define FLAME_CORE_U128_H

__extension__ typedef unsigned __int128 flame__u128;
#endif
