# SPDX-License-Identifier: GPL-2.0-or-later
# no-discard: sata-ssd without discard support: the member that makes an
# array's TRIM passthrough fail.
size=256
blocksize=4096
memory_backed=1
discard=0
mbps=250
irqmode=2
completion_nsec=100000
hw_queue_depth=32
submit_queues=1
