# SPDX-License-Identifier: GPL-2.0-or-later
# nvme-ssd: faster and deeper than sata-ssd: about 1000 MiB/s, ~20 us timer
# completions, 128-deep queues on 2 submission queues, discard. Under TCG the
# guest's CPU, not this profile, limits what it reaches at small blocks.
size=256
blocksize=4096
memory_backed=1
discard=1
mbps=1000
irqmode=2
completion_nsec=20000
hw_queue_depth=128
submit_queues=2
