/* A prefetch the compiler keeps: gcc 12 deletes loops whose only effect is
 * __builtin_prefetch, and drops every prefetch of a function once one of them goes
 * through a loaded pointer. The instruction in inline asm stays. */
#ifndef FLAME_CORE_PREFETCH_H
#define FLAME_CORE_PREFETCH_H

static inline void flame__prefetch(const void *p)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
	__asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)p));
#else
	__builtin_prefetch(p);
#endif
}
#endif
