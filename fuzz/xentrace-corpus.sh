#!/bin/sh
# The seed corpus of fuzz/fuzz_xentrace, made from runs of schedsim rather
# than kept in git: small traces of one scenario under three schedulers,
# each prefixed with the harness's first byte (the TSC measured or given),
# and copies of one cut short and damaged (a window size,
# a record header, a TSC, bytes past the end).
#
# usage: xentrace-corpus.sh SCHEDSIM OUTDIR
set -eu
schedsim=$1 out=$2
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xtcorpus.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/s.xml" <<'XML'
<scenario duration="3ms" seed="1">
  <host sockets="1" cores-per-socket="2" threads-per-core="1"/>
  <domain name="dom0" vcpus="1"><workload type="phases"><phase run="exp:100us" sleep="exp:300us"/></workload></domain>
  <domain name="vm" vcpus="2" cap="50"><workload type="phases"><phase run="exp:200us" sleep="exp:100us"/></workload></domain>
</scenario>
XML
# first BYTE FILE OUT: OUT is the byte (octal) then FILE
first() { printf "\\$1" > "$3"; cat "$2" >> "$3"; }
for s in credit1 credit2 rtds; do
	"$schedsim" --sched=$s --scenario="$tmp/s.xml" --trace="$tmp/$s.xt" > /dev/null
	first 000 "$tmp/$s.xt" "$out/$s-measured-open"
	first 003 "$tmp/$s.xt" "$out/$s-given"
done
t=$tmp/credit2.xt
size=$(wc -c < "$t")
head -c $((size / 2 + 3)) "$t" > "$tmp/cut"
first 001 "$tmp/cut" "$out/cut-in-a-record"
head -c 7 "$t" > "$tmp/cut"
first 001 "$tmp/cut" "$out/cut-in-a-header"
# damage: patch COUNT bytes at OFFSET of a copy with the octal escapes given
patch() { cp "$t" "$tmp/p"; printf "$3" | dd of="$tmp/p" bs=1 seek="$2" conv=notrunc 2> /dev/null; first 001 "$tmp/p" "$out/$1"; }
patch window-size 8 '\377\377\000\000'
patch record-header 12 '\001\360\001\240'
patch tsc-back 16 '\377\377\377\000'
cp "$t" "$tmp/p"
# a window of pCPU 0 holding one lost-records record: 5 lost, d1v0, from TSC 100
printf '\003\360\001\040\000\000\000\000\034\000\000\000' >> "$tmp/p"
printf '\001\360\001\300\377\377\377\377\000\000\000\000' >> "$tmp/p"
printf '\005\000\000\000\000\000\001\000\144\000\000\000\000\000\000\000' >> "$tmp/p"
first 000 "$tmp/p" "$out/lost-records-window"
