# SPDX-License-Identifier: GPL-2.0-or-later
# r0age refuses before it writes (exit 2, and no state record left): usage
# errors (no arguments, an unknown state, fill 0 and 101, used without a
# duration or of 0, steady below its window, --round with fill, a regular
# file) and devices it must not touch: one without discard (empty), one
# with a signature, one mounted (even with --force), an md member (even
# with --force), one read-only (its state record kept; r0bench's writes
# refused too).
. ./lib.sh

statedir=/run/r0kit/state
# the state records of the members, named now: at exit the members are gone
records=""
cleanup() {
	umount /tmp/age-mnt 2> /dev/null
	rm -f $records
}
trap cleanup EXIT

members=$(r0_members fast 3 size=32) || fail "members"
set -- $members
a=$1 b=$2 c=$3
rec=$statedir/$(r0_sysfs "$a" dev).json
for d in $members; do records="$records $statedir/$(r0_sysfs "$d" dev).json"; done
rm -f $records

expect_status 2 "no arguments" r0age --yes
expect_status 2 "unknown state" r0age --yes worn "$a"
expect_status 2 "fill 0" r0age --yes fill 0 "$a"
expect_status 2 "fill 101" r0age --yes fill 101 "$a"
expect_status 2 "used without a duration" r0age --yes used "$a"
expect_status 2 "used 0" r0age --yes used 0 "$a"
expect_status 2 "steady --rounds 4 (below the window)" r0age --yes steady --rounds 4 "$a"
expect_status 2 "--round with fill" r0age --yes fill --round 1 "$a"
expect_status 2 "a regular file" r0age --yes fill /etc/passwd
[ ! -e "$rec" ] || fail "a refused run left a record"

# refusals: no discard, a signature, mounted, held by md
nd=$(r0_member r0nd no-discard size=32 mbps=0 irqmode=0) || fail "no-discard member"
records="$records $statedir/$(r0_sysfs "$nd" dev).json"
expect_status 2 "empty on a device without discard" r0age --yes empty "$nd"
grep -q "takes no discards" /tmp/expect.out || fail "message: $(cat /tmp/expect.out)"
mkfs.ext4 -q "$c" || fail "mkfs"
expect_status 2 "a device with a signature" r0age --yes fill 10 "$c"
grep -q "signature" /tmp/expect.out || fail "message: $(cat /tmp/expect.out)"
mkdir -p /tmp/age-mnt
mount "$c" /tmp/age-mnt || fail "mount"
expect_status 2 "a mounted device, even with --force" r0age --yes -f fill 10 "$c"
grep -q "mounted" /tmp/expect.out || fail "message: $(cat /tmp/expect.out)"
umount /tmp/age-mnt
md=$(r0build create --yes -q -f --backend md -c 64K --name age "$a" "$b") || fail "md"
expect_status 2 "an md member, even with --force" r0age --yes -f fill 10 "$a"
grep -q "held by" /tmp/expect.out || fail "message: $(cat /tmp/expect.out)"
r0build remove age || fail "remove"
# a read-only device: refused before the plan (its first write would fail after a yes), its record kept;
# r0bench's writes too
expect_status 0 "fill 50" r0age --yes fill 50 "$b"
recb=$statedir/$(r0_sysfs "$b" dev).json
cp "$recb" /tmp/age-rec.before
blockdev --setro "$b" || fail "setro"
expect_status 2 "a read-only device" r0age --yes fill 10 "$b"
grep -q "is read-only" /tmp/expect.out || fail "message: $(cat /tmp/expect.out)"
cmp -s "$recb" /tmp/age-rec.before || fail "a refused run changed the device's record: $(cat "$recb")"
expect_status 2 "r0bench writes on a read-only device" r0bench --yes --rw write -t 0.2 "$b"
grep -q "is read-only" /tmp/expect.out || fail "r0bench message: $(cat /tmp/expect.out)"
blockdev --setrw "$b"
r0_remove_members || fail "a member stayed"
