/* The unwinding loop for --call-graph dwarf samples (see perfdata-unwind.h), with the
 * steps and edges of perf 6.1's libunwind unwinder (unwind-libunwind-local.c, and
 * libunwind's x86_64 unw_step):
 *   - the registers come in the order of the attribute's sample_regs_user bits; without
 *     the IP and the SP, or with no stack dump, a sample has no user frames;
 *   - memory is the dump, from the sampled SP; its last 8 bytes are out of reach, as
 *     perf's access_mem has them (`addr + 8 >= end`); past it, see dump_read: a stack
 *     that goes on past the dump ends with a frame at -1 ([unknown]), as perf shows it;
 *   - the first frame is the sampled IP; each step looks up the CFI row of the frame's pc
 *     minus one (its return address points past the call), except the first frame's and
 *     a frame interrupted by a signal (after a signal frame, 'S' in its CIE), and perf
 *     prints that same pc minus one, even for the signal frame itself (__restore_rt's
 *     frame shows as the byte before it: "[unknown] (libc.so.6)");
 *   - a pc with no map, or in a file with no CFI (JIT code, a file that is gone), ends
 *     the stack after its own frame; a pc the file's CFI does not cover is stepped by
 *     libunwind's frame-pointer guess; an undefined return address or frame pointer
 *     ends it, as a step that changes neither pc nor SP does.
 * Each step is one probe of the rule cache and a few reads of the dump. */
#include <stdlib.h>
#include <string.h>
#include "perfdata-unwind.h"

/* perf's x86_64 register numbers (sample_regs_user bits) of DWARF's registers */
static const uint8_t perf_reg[FLAME__CFI_NREGS] = {0, 3, 2, 1, 4, 5, 6, 7,
                                                   16, 17, 18, 19, 20, 21, 22, 23, 8};

struct flame__unwind {
	flame__pdsym *s;
	flame__cfi *cfi;
};

flame__unwind *flame__unwind_new(flame__pdsym *s)
{
	flame__unwind *u = calloc(1, sizeof *u);
	if (!u)
		return NULL;
	u->s = s;
	if (!(u->cfi = flame__cfi_new(flame__pdsym_debug_dir(s)))) {
		free(u);
		return NULL;
	}
	return u;
}

void flame__unwind_free(flame__unwind *u)
{
	if (!u)
		return;
	flame__cfi_free(u->cfi);
	free(u);
}

flame__cfi *flame__unwind_cfi(flame__unwind *u) { return u->cfi; }

typedef struct dump {
	const unsigned char *p;
	uint64_t sp, size;
	flame__unwind *u;
	uint32_t pid;
} dump;

/* Memory as perf's access_mem gives it: the dump, else a mapped file's bytes, else 0
 * from any other mapped memory (perf's access_dso_mem fails there with a positive value,
 * which libunwind takes for success: so a stack read past the dump is 0), and a failure
 * only where nothing is mapped. */
static int dump_read(void *ctx, uint64_t a, uint64_t *v)
{
	const dump *d = ctx;
	if (a >= d->sp && a - d->sp < d->size && d->size - (a - d->sp) > 8) {
		memcpy(v, d->p + (a - d->sp), 8);
		return 0;
	}
	flame__pd_map m;
	if (a > UINT64_MAX - 8 || !flame__pdsym_map(d->u->s, d->pid, a, &m))
		return -1;
	flame__cfi_file *f = m.elf ? flame__cfi_file_get(d->u->cfi, &m) : NULL;
	if (!f || flame__cfi_pread(f, v, 8, a - m.start + m.pgoff) != 8)
		*v = 0;
	return 0;
}

/* The sample's registers in DWARF's numbering: 0, or -1 without the IP or the SP. */
static int sample_regs(const flame__pd_sample *sm, flame__cfi_regs *r)
{
	uint64_t mask = sm->attr->sample_regs_user;
	memset(r, 0, sizeof *r);
	if (!sm->regs || !sm->regs_abi)
		return -1;
	for (unsigned d = 0; d < FLAME__CFI_NREGS; d++) {
		unsigned b = perf_reg[d];
		if (!(mask >> b & 1))
			continue;
		unsigned at = (unsigned)__builtin_popcountll(mask & ((1ull << b) - 1));
		if (at >= sm->nregs)
			continue;
		memcpy(&r->r[d], sm->regs + 8 * (size_t)at, 8);
		r->valid |= 1u << d;
	}
	uint32_t need = 1u << FLAME__CFI_SP | 1u << FLAME__CFI_RA;
	return (r->valid & need) == need ? 0 : -1;
}

/* libunwind's step where the file's CFI does not cover the pc: the frame pointer taken
 * as a frame's, when it points a little above the SP; the caller's SP then is the
 * callee's plus 16, as libunwind takes it. 1 stepped, else the end. */
static int fp_guess(const flame__cfi_regs *in, const dump *d, flame__cfi_regs *out)
{
	uint64_t bp, bp1, ra, sp = in->r[FLAME__CFI_SP];
	if (flame__cfi_reg(in, FLAME__CFI_BP, dump_read, (void *)d, &bp) || bp == 0)
		return 0;
	if (dump_read((void *)d, bp, &bp1) || bp < sp || bp - sp > 0x4000 ||
	    dump_read((void *)d, bp + 8, &ra))
		return 0;
	memset(out, 0, sizeof *out);
	out->r[FLAME__CFI_BP] = bp1;
	out->r[FLAME__CFI_SP] = sp + 16;
	out->r[FLAME__CFI_RA] = ra;
	out->valid = 1u << FLAME__CFI_BP | 1u << FLAME__CFI_SP | 1u << FLAME__CFI_RA;
	return 1;
}

/* The frame at `at` (the address perf prints and looks the row up at) into *fr: its
 * file and the ELF address of `at`; its rule, or NULL when it has no file
 * with CFI to read. */
static const flame__cfi_rule *locate(flame__unwind *u, uint32_t pid, uint64_t at,
                                     flame__uframe *fr, int *nomem)
{
	flame__pd_map m;
	fr->file = NULL;
	if (!flame__pdsym_map(u->s, pid, at, &m))
		return NULL;
	flame__cfi_file *f = flame__cfi_file_get(u->cfi, &m);
	if (!f || !flame__cfi_vaddr(f, at - m.start + m.pgoff, &fr->vaddr))
		return NULL;
	fr->file = f;
	fr->file_id = m.id;
	const flame__cfi_rule *r = flame__cfi_rule_at(u->cfi, f, fr->vaddr);
	if (!r)
		*nomem = 1;
	return r;
}

/* One step from `regs` with rule r (the row of ELF address lv in f): as flame__cfi_apply. */
static int step(flame__unwind *u, const flame__cfi_rule *r, flame__cfi_file *f, uint64_t lv,
                const flame__cfi_regs *regs, dump *d, flame__cfi_regs *next)
{
	switch (r->kind) {
	case FLAME__CFI_RULE: return flame__cfi_apply(r, regs, dump_read, d, next);
	case FLAME__CFI_EXPR: return flame__cfi_eval(u->cfi, f, lv, regs, dump_read, d, next);
	case FLAME__CFI_NOFDE: return fp_guess(regs, d, next);
	default: return 0;
	}
}

size_t flame__unwind_sample(flame__unwind *u, uint32_t pid, const flame__pd_sample *sm,
                            flame__uframe *out, size_t max)
{
	flame__cfi_regs regs, next;
	if (!max || !sm->stack_size || sample_regs(sm, &regs))
		return 0;
	dump d = {sm->stack, regs.r[FLAME__CFI_SP], sm->stack_size, u, pid};
	size_t n = 0;
	int exact = 1, nomem = 0;
	const flame__cfi_rule *prev = NULL; /* the last frame's rule (valid: no lookup since) */
	while (n < max) {
		uint64_t pc = regs.r[FLAME__CFI_RA];
		flame__uframe *fr = &out[n];
		/* perf prints a caller's return address minus one, except where a signal
		 * interrupted it (libunwind's unw_is_signal_frame after the step through the
		 * signal frame): the signal frame's own is minus one too, so __restore_rt's frame
		 * shows as the byte before it, which no symbol holds. The row is looked up there. */
		fr->ip = exact ? pc : pc - 1;
		/* a recursion repeats its frame: the same file, address and rule */
		if (n && fr->ip == out[n - 1].ip && prev) {
			fr->file = out[n - 1].file;
			fr->file_id = out[n - 1].file_id;
			fr->vaddr = out[n - 1].vaddr;
		} else {
			prev = locate(u, pid, fr->ip, fr, &nomem);
		}
		const flame__cfi_rule *r = prev;
		/* perf skips a frame at 0 (get_entries: `ips[j] ? entry() : 0`): a sampled IP
		 * of 0, or a signal frame's saved IP of 0; a return address of 0 shows as -1 */
		if (fr->ip)
			n++;
		if (!r || nomem || step(u, r, fr->file, fr->vaddr, &regs, &d, &next) <= 0)
			break;
		uint64_t ra = next.r[FLAME__CFI_RA];
		if (ra == pc && next.r[FLAME__CFI_SP] == regs.r[FLAME__CFI_SP])
			break;
		exact = r->kind != FLAME__CFI_NOFDE && r->signal;
		regs = next;
	}
	return n;
}
