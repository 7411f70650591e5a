// SPDX-License-Identifier: GPL-2.0-or-later
/* r0profile's command line: its options as data (struct r0_cli_opt), --help from them. */
#include <limits.h>
#include <stdint.h>

#include "cli.h"
#include "profile.h"

#include "r0/mixfile.h"

/* a trace keeps at most this much unless --trace-max says otherwise: some 6
 * million requests with their completions */
#define TRACE_MAX_BYTES (64ULL << 20)

enum { OPT_FOR = CHAR_MAX + 1, OPT_INTERVAL, OPT_JSON, OPT_OUTPUT, OPT_TRACE, OPT_FROM_TRACE, OPT_EXPORT_IOLOG,
       OPT_EXPORT_BLKTRACE, OPT_TRACE_MAX };

static const char usage_head[] =
	"Usage:\n"
	"  " PROG " [--for DURATION] [--interval SEC] [--output FILE] [--json] DEVICE...\n"
	"  " PROG " --trace FILE [--trace-max SIZE] [--for DURATION] [--interval SEC] [--output FILE] [--json] DEVICE\n"
	"  " PROG " --from-trace FILE [--output FILE] [--json]\n"
	"  " PROG " --from-trace FILE --export-iolog OUT | --export-blktrace OUT\n"
	"\n"
	"Samples the kernel's counters of each DEVICE (/sys/block/X/stat: reads,\n"
	"writes, discards, their sectors and merges, time in queue, requests in\n"
	"flight) while the user works, and turns them into the workload mix r0report\n"
	"and r0sweep weigh the verdict by (--mix FILE): read/write share by bytes\n"
	"and by requests, request sizes, queue depth while busy, discards, and\n"
	"weights over the workload classes seq-read, rand-large-read,\n"
	"rand-small-q1-read, rand-small-qd-read and their -write twins.\n"
	"DEVICE is a whole disk, a partition, an md or dm device, or a symlink to\n"
	"one; it is never opened: only sysfs is read, and no privilege is needed.\n";

static const char usage_tail[] =
	"Sizes are per-interval averages, so the size class is inferred, not\n"
	"counted; the kernel does not count sequential versus random at all:\n"
	"merges, requests at the queue's size limit and requests of 1 MiB or more\n"
	"stand for a stream. A striped array (md raid0, dm-stripe) counts the\n"
	"pieces it cuts requests into at its chunk: there whole-chunk pieces\n"
	"stand for a stream. The output says how sure it is. SIGINT, SIGTERM or\n"
	"SIGHUP end the profile early; the file is still written.\n"
	"A trace is exact where counters guess: each request as its submitter issued\n"
	"it (before an md or dm array splits it), sequential when it starts where\n"
	"one of the last 16 requests of its direction ended, its queue depth from\n"
	"the trace's completions. It holds only each request's time, sector, length\n"
	"and direction: no data, no file or process names. About 4-8 bytes a\n"
	"request, 3-6 a completion (a million requests: about 14 MB); at most 64 MiB\n"
	"(--trace-max), beyond which requests are counted, not kept. The end says\n"
	"how large the trace grew an hour, to size --trace-max for a day.\n"
	"Exit status: 0 done (also when stopped by a signal), 1 failure, 2 usage\n"
	"or refused before anything was measured (not a block device, an output\n"
	"that cannot be written, a trace that cannot be recorded or read or holds\n"
	"no request, or with --output one of no reads or writes), 3 with --output:\n"
	"the period saw no reads or writes (no mix written).\n";

/* the tool for r0_cli_parse: its name in messages, its usage, its quirks */
static const struct r0_cli cli = { .prog = PROG, .head = usage_head, .tail = usage_tail, .retired = "o--output" };

void profile_options(int argc, char **argv, struct profile_args *a)
{
	const struct r0_cli_opt opts[] = {
		{ "for", OPT_FOR, R0_CLI_DURATION, R0_CLI_TO(a->for_ns), 1, UINT64_MAX,
		  .why = "a time above 0 and at most 10^7 s (115 days), e.g. 90, 30m, 24h", .arg = "DURATION",
		  .help = "profile this long (90, 30m, 24h; default: until SIGINT, SIGTERM or SIGHUP)" },
		{ "interval", OPT_INTERVAL, R0_CLI_DURATION, R0_CLI_TO(a->interval_ns), 10000000ULL, 3600000000000ULL,
		  .why = "a time from 10ms to 1h, e.g. 1, 0.5, 10s", .arg = "SEC",
		  .help = "sampling interval (default 1; 10ms to 1h)" },
		{ "output", OPT_OUTPUT, R0_CLI_STRING, R0_CLI_TO(a->output), .arg = "FILE",
		  .help = "write the mix file (schema " R0_MIX_SCHEMA ")",
		  .excludes = "export-iolog,export-blktrace", .excludes_why = "an export writes only the export" },
		{ "json", OPT_JSON, R0_CLI_SET, R0_CLI_TO(a->json),
		  .help = "print the mix file on stdout instead of the summary",
		  .excludes = "export-iolog,export-blktrace", .excludes_why = "an export writes only the export" },
		{ "trace", OPT_TRACE, R0_CLI_STRING, R0_CLI_TO(a->trace), .arg = "FILE",
		  .help = "also record DEVICE's block requests into FILE (format r0trace/1) through the kernel's "
			  "blktrace, and class them exactly; needs root, mounts debugfs if needed" },
		{ "trace-max", OPT_TRACE_MAX, R0_CLI_SIZE, R0_CLI_TO(a->trace_max), 0, UINT64_MAX,
		  .why = "a size, e.g. 64M, 2G (0: no limit)", .arg = "SIZE", .needs = "trace",
		  .help = "the trace file's limit (default 64M; 0: none); requests beyond it are counted, not kept" },
		{ "from-trace", OPT_FROM_TRACE, R0_CLI_STRING, R0_CLI_TO(a->trace_from), .arg = "FILE",
		  .help = "the mix of a recorded trace, exact, without counters; FILE is r0trace/1, a blktrace "
			  "recording (NAME, or any of its NAME.blktrace.N files, either byte order), a blkparse -d "
			  "dump, or a fio iolog v2 or v3, told from its content",
		  .excludes = "trace,trace-max,for,interval", .excludes_why = "--from-trace reads a trace" },
		{ "export-iolog", OPT_EXPORT_IOLOG, R0_CLI_STRING, R0_CLI_TO(a->export_iolog), .arg = "OUT",
		  .help = "write --from-trace's requests to OUT as a fio iolog v3 (fio --read_iolog=OUT; "
			  "replay_redirect=)",
		  .needs = "from-trace", .excludes = "export-blktrace", .excludes_why = "one export at a time" },
		{ "export-blktrace", OPT_EXPORT_BLKTRACE, R0_CLI_STRING, R0_CLI_TO(a->export_blktrace), .arg = "OUT",
		  .help = "write its events to OUT as a blktrace file (OUT NAME.blktrace.0: blkparse -i NAME)",
		  .needs = "from-trace" },
		{ 0 },
	};

	*a = (struct profile_args){ .interval_ns = 1000000000ULL, .trace_max = TRACE_MAX_BYTES };
	r0_cli_parse(&cli, opts, argc, argv);
}
