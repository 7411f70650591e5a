# SPDX-License-Identifier: GPL-2.0-or-later
# sata-real: a SATA SSD with every rate divided by 64, so the drive's limits,
# not the sandbox's, shape what a benchmark sees (README "Drive profiles").
# The drive: a typical SATA data sheet's 10k 4K IOPS at QD1 (~100 us), 80k at
# QD32 and ~500 MB/s sequential, 1 : 8 : 12 in bytes/s. Here: 6.1 ms timer
# completions (the sandbox adds ~0.3 ms: 6.4 ms is 100 us x 64), 8 tags (QD32
# reaches 8x QD1), 8 MiB/s with requests of at most 32 KiB (null_blk passes
# five of them per 1/50 s refill of 8/50 MiB: 7.8 MiB/s). The demo's profile.
size=256
blocksize=4096
memory_backed=1
discard=1
mbps=8
irqmode=2
completion_nsec=6100000
hw_queue_depth=8
max_sectors=64
submit_queues=1
