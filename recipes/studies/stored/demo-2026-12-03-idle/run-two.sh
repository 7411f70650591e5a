#!/bin/bash
# two make demo runs in a row, each from a fresh clone of main at one commit
cd /work/demo2i
rev=$(git -C /work/main rev-parse HEAD)
echo "commit $rev"
for i in 1 2; do
	rm -rf clone$i
	git clone -q /work/main clone$i && git -C clone$i checkout -q $rev
	s=$(date +%s)
	echo "run $i start $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
	(cd clone$i && make demo) > demo$i.log 2>&1
	rc=$?
	echo "run $i exit $rc after $(( $(date +%s) - s )) s, end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
	grep -h "guest deaths\|guest died\|script exited" demo$i.log | tail -3
done
