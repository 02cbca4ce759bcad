#!/bin/bash
# servers.sh runs N 'arbiter serve' processes on one database, sends the
# load test to them in turn at each rate, and prints the load test's
# figures and the servers' CPU time per request (read from /proc, so
# Linux only). Every process it starts is stopped at the end.
#
#   internal/loadtest/servers.sh ARBITER LOADTEST DB N MIX RATE...
#   go build -o /tmp/arbiter ./cmd/arbiter && go build -o /tmp/loadtest ./internal/loadtest
#   /tmp/arbiter demo rkcc-team-three-tc --entrants 64 --seed 1 --stop-after s1r3 --slug load --db DB
#   internal/loadtest/servers.sh /tmp/arbiter /tmp/loadtest DB 3 all 200 500
set -u
BIN=$1 LOAD=$2 DB=$3 N=$4 MIX=$5
shift 5
PIDS=() URLS=()
trap 'kill "${PIDS[@]}" 2>/dev/null; wait 2>/dev/null' EXIT
for i in $(seq "$N"); do
	PORT=$((18100 + i))
	"$BIN" serve --addr 127.0.0.1:$PORT --db "$DB" >"/tmp/arbiter-serve-$PORT.log" 2>&1 &
	PIDS+=($!) URLS+=(http://127.0.0.1:$PORT)
done
for u in "${URLS[@]}"; do
	for _ in $(seq 100); do curl -sf "$u/healthz" >/dev/null && break; sleep 0.1; done
done
cpu() { s=0; for p in "${PIDS[@]}"; do s=$((s + $(awk '{print $14+$15}' "/proc/$p/stat"))); done; echo $s; }
TICK=$(getconf CLK_TCK)
LIST=$(IFS=,; echo "${URLS[*]}")
for RATE in "$@"; do
	c0=$(cpu)
	"$LOAD" -url "$LIST" -event load -mix "$MIX" -rate "$RATE" -duration 20s >/tmp/arbiter-loadtest.out 2>&1
	c1=$(cpu)
	echo "== $N processes, $RATE req/s, mix $MIX, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	cat /tmp/arbiter-loadtest.out
	ok=$(awk '$1=="all"{print $3}' /tmp/arbiter-loadtest.out)
	awk -v t=$((c1 - c0)) -v hz="$TICK" -v n="$ok" 'BEGIN{printf "servers CPU %.0f ms: %.2f ms per request\n", t*1000/hz, t*1000/hz/n}'
done
