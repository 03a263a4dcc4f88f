#!/usr/bin/env bash
# The facts file's format (src/lib/memory/facts-file.c): each key a
# record depends on written once, however many records name it; a file
# of another version never read, and written over; a file cut short or
# damaged -- its checksum right or not -- read as no file, never a
# crash, and written whole again by the run that sees it.  How many
# reviews' facts were kept comes from the counter a --enable-test-hooks
# build appends to $WINNOW_TEST_FACTS_LOG.  On the series fixture.
. "$WN_TOP_SRCDIR/tests/lib/env.sh"
. "$WN_TOP_SRCDIR/tests/lib/facts-world.sh"
magic() { head -c 8 "$(factsfile)"; }
# The file with its payload's checksum (FNV-1a, bytes 40-47 of the
# header) made right again, after a change to the payload.
resum() {
	python3 - "$1" <<'EOF'
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
h = 0xcbf29ce484222325
for c in b[56:]:
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
b[40:48] = struct.pack("<Q", h)
open(p, "wb").write(b)
EOF
}

run
if [ -z "$(logged misses)" ]; then
	echo "SKIP: winnow built without --enable-test-hooks (no facts counter)"
	exit 77
fi
reviews=$(WINNOW_NO_CACHE=1 "$WINNOW" list --format=json | jq length)
WINNOW_NO_CACHE=1 stats >"$WN_WORLD/ref" 2>&1
rm -rf "$XDG_CACHE_HOME"
check "cold: same answers as without a cache" same_answers
run
expect_eq "warm: every review's facts kept" "$reviews 0" "$(logged hits) $(logged misses)"

# --- each key once -------------------------------------------------------------------
# v2's thread holds several reviews, each depending on it: its id is in
# the table once, and in no record.
tid=$(notmuch search --output=threads "id:$v2" | sed 's/^thread://')
check "v2's thread: several reviews depend on it" \
	test "$(notmuch count "thread:$tid and from:sashiko-bot@kernel.org")" -ge 2
expect_eq "a thread id several records depend on is written once" 1 \
	"$(grep -a -o -F "$tid" "$(factsfile)" | wc -l)"

# --- another version ----------------------------------------------------------------------
# This version's file under the magic of the one before (its checksum
# still right: only the version tells): not read, and written over.
expect_eq "the file is of this version" WNFACTS8 "$(magic)"
printf 'WNFACTS7' | dd of="$(factsfile)" bs=1 conv=notrunc 2>/dev/null
run
expect_eq "version 7's file: nothing kept" "0 $reviews" "$(logged hits) $(logged misses)"
check "version 7's file: same answers" same_answers
expect_eq "version 7's file: written over with this version's" WNFACTS8 "$(magic)"
run
expect_eq "... which the next run reads: every review's facts kept" "$reviews 0" \
	"$(logged hits) $(logged misses)"
# A file of a newer version is no cache either.
printf 'WNFACTS9' | dd of="$(factsfile)" bs=1 conv=notrunc 2>/dev/null
run
expect_eq "version 9's file: nothing kept" "0 $reviews" "$(logged hits) $(logged misses)"

# --- cut short, rebuilt -----------------------------------------------------------------------
run
f=$(factsfile)
size=$(stat -c %s "$f")
truncate -s $((size - 3)) "$f"
run
expect_eq "cut short: nothing kept" "0 $reviews" "$(logged hits) $(logged misses)"
expect_eq "cut short: written whole again" "$size" "$(stat -c %s "$(factsfile)")"
run
expect_eq "... and read: every review's facts kept" "$reviews 0" "$(logged hits) $(logged misses)"
# Cut short with the length and checksum in the header made to match:
# the last record ends inside its dependencies.
python3 - "$f" <<'EOF'
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())[:-3]
b[32:40] = struct.pack("<Q", len(b) - 56)
open(p, "wb").write(b)
EOF
resum "$f"
run
expect_eq "cut short, checksum right: nothing kept" "0 $reviews" "$(logged hits) $(logged misses)"
check "cut short, checksum right: same answers" same_answers

# --- a key's number past the table ------------------------------------------------------------
# The first record's first dependency names a key the table does not
# have, the length and checksum right: a damaged file, nothing kept.
run
python3 - "$f" <<'EOF'
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
pos = 56
# (n = num() first: "pos += num()" would add to pos as it was.)
def num():
    global pos
    v = shift = 0
    while True:
        c = b[pos]; pos += 1
        v |= (c & 0x7f) << shift; shift += 7
        if not c & 0x80:
            return v
def put(v):
    out = bytearray()
    while True:
        c = v & 0x7f; v >>= 7
        out.append(c | (0x80 if v else 0))
        if not v:
            return out
nfiles = num(); pos += 8        # the files: their seed, then each
for _ in range(nfiles):         # ... shared, rest, hash
    num(); n = num(); pos += n + 8
nkeys = num()
for _ in range(nkeys):          # the keys: kind, bytes, a thread's count
    kind = num(); n = num(); pos += n
    if kind == 1:
        num()
n = num(); pos += n + 8 + 1     # the first record: id, digest, replied
n = num(); pos += n             # its flags
assert num() > 0                # its dependencies
start = pos
dep = num()
b[start:pos] = put((nkeys + 1000) << 1 | (dep & 1))
b[32:40] = struct.pack("<Q", len(b) - 56)
open(p, "wb").write(b)
EOF
resum "$f"
run
expect_eq "a key's number past the table: nothing kept" "0 $reviews" "$(logged hits) $(logged misses)"
check "a key's number past the table: same answers" same_answers

# --- damaged, the checksum made right -----------------------------------------------------------
# Every byte of the payload in turn set to 0xff (a number that never
# ends, a key's number past the table), to 0 and flipped, the checksum
# made right: winnow answers (exit 0, JSON, nothing on stderr), never
# crashes.  The answer itself may differ: a flag flipped in a file whose
# checksum is right is a fact, not damage.  The index moved on since the
# file (a tag): every record is held against the change, naming its keys,
# and written again.
run
cp "$(factsfile)" "$WN_WORLD/good"
notmuch tag +facts-fuzz -- "id:$v2"
size=$(stat -c %s "$WN_WORLD/good")
bad=0 tried=0
step=$(((size - 56) / 24 + 1))
for ((off = 56; off < size; off += step)); do
	for how in ff 00 flip; do
		cp "$WN_WORLD/good" "$f"
		python3 - "$f" "$off" "$how" <<'EOF'
import sys
p, off, how = sys.argv[1], int(sys.argv[2]), sys.argv[3]
b = bytearray(open(p, "rb").read())
b[off] = {"ff": 0xff, "00": 0}.get(how, b[off] ^ 0x55)
open(p, "wb").write(b)
EOF
		resum "$f"
		tried=$((tried + 1))
		if ! stats >"$WN_WORLD/got" 2>"$WN_WORLD/err" || [ -s "$WN_WORLD/err" ] ||
			! jq -e . "$WN_WORLD/got" >/dev/null 2>&1; then
			bad=$((bad + 1))
			echo "# byte $off ($how): $(head -c 300 "$WN_WORLD/err")" >&2
		fi
	done
done
expect_eq "damaged at $tried places, checksum right: every run answers" 0 "$bad"
rm -f "$f"
notmuch tag -facts-fuzz -- "id:$v2"
check "and a run after them: same answers" same_answers
# --- read through a window --------------------------------------------------------------------
# The file's records are read as looked up, through a small window, and
# only their ids' hashes and places are kept: a file padded with 8,000
# more records of 2,000-byte ids (16 MB, the length and checksum right)
# is read and kept (every review's facts still kept) at about the peak
# memory of the file without them, where a file read whole added its
# size.  Peak resident memory from GNU time, when there is one.
if [ -x /usr/bin/time ]; then
	run
	run
	peak() {
		: >"$WINNOW_TEST_FACTS_LOG"
		/usr/bin/time -f %M -o "$WN_WORLD/peak" "$WINNOW" stats --format=json \
			--by=bot,severity >/dev/null && cat "$WN_WORLD/peak"
	}
	small=$(peak)
	python3 - "$(factsfile)" <<'EOF'
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
for i in range(8000):
    rid = (b"<padding-%06d@facts.invalid>" % i).ljust(2000, b"x")
    # id (a 2-byte length), digest, not replied, no flags, no dependencies
    b += bytes([len(rid) & 0x7f | 0x80, len(rid) >> 7]) + rid + bytes(8) + bytes([0, 0, 0])
b[32:40] = struct.pack("<Q", len(b) - 56)
h = 0xcbf29ce484222325
for c in memoryview(b)[56:]:
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
b[40:48] = struct.pack("<Q", h)
open(p, "wb").write(b)
EOF
	big=$(peak)
	expect_eq "padded with 16 MB of records: every review's facts kept" "$reviews 0" \
		"$(logged hits) $(logged misses)"
	echo "# peak KiB: $small, padded $big" >&2
	check "padded with 16 MB of records: peak memory grew by less than 6 MB" \
		test "$big" -lt $((small + 6 * 1024))
fi
wn_done
