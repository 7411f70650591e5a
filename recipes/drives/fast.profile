# SPDX-License-Identifier: GPL-2.0-or-later
# fast: no bandwidth cap and immediate completions, for functional tests
# where speed does not matter (geometry, safety, discard delivery).
size=64
blocksize=4096
memory_backed=1
discard=1
irqmode=0
hw_queue_depth=64
submit_queues=1
