#!/bin/sh
# The runs behind bench/reports/chat.md (issue 11 "Performance"), in order of priority. Each appends JSON lines
# to bench/reports/chat/*.jsonl; `node bench/chat/report-tables.mjs <file>` prints their tables.
# Needs: redis-server, nats-server and a local PostgreSQL (127.0.0.1:5432, trust) — none of the shared instances'
# data is touched (own Redis and NATS per run, a throwaway database dropped at the end).
set -e
cd "$(dirname "$0")/../.."
R=bench/reports/chat
COMMON="--wait-idle ${WAIT_IDLE:-30} --retries ${RETRIES:-1}"
run() { echo "== $*" >&2; npm run bench:chat -w bench -- $COMMON "$@"; }

# (a) 1,000 clients, 20 rooms x 50, 1 msg/s per room, 3 alternating rounds of the four set-ups
run --setups bare,socketio,ours,ours-gw --clients 1000 --pairs 3 --duration 20 --out $R/a-1000.jsonl
# (c) the Nest layer: bare ws, @WebSocketGateway on WsAdapter, plain ws under Nest DI
run --setups bare,nest-gw,nest-plain --clients 1000 --pairs 3 --duration 20 --out $R/c-nest.jsonl
# (b) capacity ladder beside the references (ours at 19,000 needs ~300 s to join: its own line below)
run --setups bare,socketio,ours --clients 5000,10000 --pairs 1 --duration 15 --out $R/b-ladder.jsonl
run --setups bare,socketio --clients 19000 --pairs 1 --duration 15 --out $R/b-ladder.jsonl
# the rate limit at a steady 1 msg/s from one socket, as the service is and with bench/reports/chat/fixes-measured.patch (landed since)
run --setups ours,ours-fix --chat-patch bench/reports/chat/fixes-measured.patch --senders 1 --clients 1000 --pairs 1 --duration 20 --out $R/d-rate-limit.jsonl
# a replica killed under load (SIGKILL 8 s into the window), direct and through the gateway
run --setups ours,ours-gw --clients 1000 --pairs 1 --duration 20 --kill-after 8 --out $R/e-kill.jsonl
# through the gateway: it holds two descriptors per client (client side + upstream), so ~9,900 is its ceiling here
run --setups ours-gw --clients 5000 --pairs 1 --duration 15 --out $R/b-ladder.jsonl
# (c) memory slope of the Nest layer
run --setups bare,nest-gw,nest-plain --clients 8000 --pairs 1 --duration 15 --out $R/c-nest.jsonl
run --setups ours --clients 2000 --pairs 1 --duration 15 --out $R/b-ladder.jsonl
# where a replica's CPU goes (profiled, so its CPU figures are not comparable with the others)
run --setups ours --clients 5000 --pairs 1 --duration 15 --cpu-prof /tmp/chat-profiles --out $R/g-profile.jsonl
run --setups ours-fix --chat-patch bench/reports/chat/fixes-measured.patch --clients 5000 --pairs 1 --duration 15 --out $R/f-fix.jsonl
run --setups ours --clients 19000 --pairs 1 --duration 15 --connect-timeout 420 --run-timeout 560 --out $R/b-ladder.jsonl
# the frame built once per message (fixes-measured.patch), alternated with the service as it is
run --setups ours,ours-fix --chat-patch bench/reports/chat/fixes-measured.patch --clients 5000 --pairs 2 --duration 15 --out $R/f-fix.jsonl
