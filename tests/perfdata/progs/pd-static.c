/* The program of the committed perf.data fixtures (fixtures/perfdata, made by
 * tests/perfdata/make-fixtures.sh): no libc, static, frame pointers, so its recording
 * symbolizes from the one ELF file kept beside it in a build-id cache, on any machine.
 * x86-64 Linux only (the exit is a raw system call). */
static volatile unsigned long sink;

__attribute__((noinline)) static void leaf(unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		sink += (unsigned long)i * i;
}

__attribute__((noinline)) static void middle(unsigned n)
{
	leaf(n);
	leaf(n / 2);
}

__attribute__((noinline)) static void top(unsigned n)
{
	middle(n);
	leaf(n / 4);
}

void _start(void)
{
	for (int k = 0; k < 600; k++)
		top(100000);
	__asm__ volatile("mov $60, %%eax\n\txor %%edi, %%edi\n\tsyscall" ::: "memory");
	__builtin_unreachable();
}
