# SPDX-License-Identifier: GPL-2.0-or-later
# nvme-real: a PCIe 3.0 NVMe SSD with every rate divided by 60 (README "Drive
# profiles"). The drive: a typical data sheet's 19k 4K IOPS at QD1 (~53 us),
# ~600k at QD32 and 3500 MB/s sequential, about 1 : 30 : 45 in bytes/s. Here:
# 2.9 ms timer completions (with the sandbox's ~0.3 ms, 53 us x 60), 32 tags
# (QD32 reaches ~30x QD1), 57 MiB/s with requests of at most 128 KiB (nine
# pass per 1/50 s refill: 56.25 MiB/s). Its own factor: compare ratios within
# a profile, not rates across sata-real and nvme-real.
size=256
blocksize=4096
memory_backed=1
discard=1
mbps=57
irqmode=2
completion_nsec=2900000
hw_queue_depth=32
max_sectors=256
submit_queues=1
