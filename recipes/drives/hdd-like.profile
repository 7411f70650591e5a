# SPDX-License-Identifier: GPL-2.0-or-later
# hdd-like: slow and high latency: about 120 MiB/s, 4 ms completions, a
# queue of 4, 512-byte logical blocks, no discard. null_blk in 6.12 has no
# rotational attribute, so the device still reports rotational=0.
size=256
blocksize=512
memory_backed=1
discard=0
mbps=120
irqmode=2
completion_nsec=4000000
hw_queue_depth=4
submit_queues=1
