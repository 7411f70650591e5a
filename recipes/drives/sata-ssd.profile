# SPDX-License-Identifier: GPL-2.0-or-later
# sata-ssd: a SATA SSD as null_blk sees it: about 250 MiB/s, ~100 us timer
# completions (TCG adds ~300 us of its own), 4 KiB blocks, discard.
# Keys are null_blk configfs attributes (/sys/kernel/config/nullb/NAME/*).
size=256
blocksize=4096
memory_backed=1
discard=1
mbps=250
irqmode=2
completion_nsec=100000
hw_queue_depth=32
submit_queues=1
