/* perf.data records, decoded (parse/perfdata-read.c): the file header, the event
 * attributes, the feature sections, and the records of the data section in the order
 * perf delivers them (sorted by time a round at a time, as perf's ordered events are).
 * Pipe mode (`perf record -o -`) gives the same, its header and attributes read from
 * records. Knows nothing of symbols: perfdata.c drives it and perfdata-sym.c. */
#ifndef FLAME_PARSE_PERFDATA_READ_H
#define FLAME_PARSE_PERFDATA_READ_H
#include <stddef.h>
#include <stdint.h>
#include "../flame.h"

/* record types (linux/perf_event.h, and perf's own from 64 on) */
enum {
	FLAME__PD_MMAP = 1, FLAME__PD_COMM = 3, FLAME__PD_EXIT = 4, FLAME__PD_FORK = 7,
	FLAME__PD_SAMPLE = 9, FLAME__PD_MMAP2 = 10,
};

/* sample_type bits used here */
#define FLAME__PD_S_IP (1u << 0)
#define FLAME__PD_S_TID (1u << 1)
#define FLAME__PD_S_TIME (1u << 2)
#define FLAME__PD_S_CALLCHAIN (1u << 5)
#define FLAME__PD_S_PERIOD (1u << 8)
#define FLAME__PD_S_REGS_USER (1u << 12)
#define FLAME__PD_S_STACK_USER (1u << 13)

typedef struct flame__pd_attr {
	uint32_t type;
	uint64_t config, sample_period, sample_type, read_format, flags;
	uint64_t branch_sample_type, sample_regs_user; /* 0 when the attribute is too short */
	uint32_t sample_stack_user;
	char *name;        /* the event's name as perf prints it (owned) */
	size_t nids;       /* its ids (the reader keeps them in its index) */
} flame__pd_attr;

/* One record, as delivered: `p` points at its header (valid until the next call; a mapped
 * file's records stay while the reader does, which nothing relies on). */
typedef struct flame__pd_rec {
	uint32_t type;
	uint16_t misc;
	const unsigned char *p;
	size_t size;
	uint64_t off; /* byte offset in the file (pipe mode: in the stream) */
} flame__pd_rec;

typedef struct flame__pd_sample {
	const flame__pd_attr *attr;
	uint32_t pid, tid;
	uint64_t ip, time, period;
	int has_tid, has_time, has_period;
	const unsigned char *chain; /* nchain u64 (unaligned), leaf first, with context markers */
	uint64_t nchain;
	int has_chain;
	/* --call-graph dwarf: the user registers (nregs u64, unaligned, in the order of the
	 * attribute's sample_regs_user bits; regs_abi 0: none) and the user stack dump
	 * (stack_size bytes that the kernel filled, from the sampled SP) */
	const unsigned char *regs, *stack;
	uint64_t regs_abi, stack_size;
	uint32_t nregs;
} flame__pd_sample;

typedef struct flame__pd_build_id {
	int32_t pid;
	uint8_t id[20];
	uint8_t len;
	char *path; /* owned */
} flame__pd_build_id;

typedef struct flame__pd flame__pd;

/** Read the header and attributes of `in` (file or pipe mode; the magic is PERFILE2).
 * `map`: read a file's data section in place where it can be (flame__input_map), else
 * through a buffer. 0, or a status with `err` naming the input and byte offset. */
int flame__pd_open(flame__pd **out, flame_input *in, int map, flame_err *err);
void flame__pd_free(flame__pd *r);

/** The next record to process: 1 (filled), 0 at the end, or a negative status. */
int flame__pd_next(flame__pd *r, flame__pd_rec *rec, flame_err *err);

/** Decode a SAMPLE record with its attribute's layout: 0 or a status naming the offset. */
int flame__pd_decode(const flame__pd *r, const flame__pd_rec *rec, flame__pd_sample *s,
                     flame_err *err);

size_t flame__pd_attr_count(const flame__pd *r);
const flame__pd_attr *flame__pd_attr_at(const flame__pd *r, size_t i);
/** Build-ids of the recorded files (the BUILD_ID feature, or its pipe-mode records). */
const flame__pd_build_id *flame__pd_build_ids(const flame__pd *r, size_t *n);
/** The hostname and `perf record` command line of the recording ("" when absent). */
const char *flame__pd_hostname(const flame__pd *r);
const char *flame__pd_cmdline(const flame__pd *r);
const char *flame__pd_name(const flame__pd *r);
/** 1 when the recording was not properly finished (perf record killed: the header's data
 * size is 0), its records read to the end of the file; *cut: where a last record cut
 * short was dropped (UINT64_MAX: none). */
int flame__pd_unfinished(const flame__pd *r, uint64_t *cut);
#endif
