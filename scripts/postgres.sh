#!/usr/bin/env bash
# A throwaway PostgreSQL server from Debian's package, for tests and benchmarks.
#   scripts/postgres.sh start [port]   installs postgresql with apt-get when missing, starts a server on
#                                      127.0.0.1:<port> (default 55432) and prints its URL
#   scripts/postgres.sh stop [port]    stops it and removes its data folder
set -euo pipefail
action="${1:-start}"
port="${2:-55432}"
state="/tmp/data-graph-postgres-$port"

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true; }
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "$action" in
  start)
    bin=$(find_bin)
    if [ -z "$bin" ]; then
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq >&2
      apt-get install -y -qq postgresql >&2
      bin=$(find_bin)
    fi
    [ -f "$state" ] && "$0" stop "$port" >&2
    dir=$(mktemp -d /tmp/pgdata.XXXXXX)
    chown postgres:postgres "$dir" 2>/dev/null || true
    as_postgres "$bin/initdb" -D "$dir" -A trust -U postgres --no-sync >/dev/null
    # Durability is not what a throwaway server is for: fsync off makes test set-up several times faster.
    # The memory settings size it for the 10M-record bench datasets (tens of GB): the default 128 MB of shared
    # buffers and 1 GB of WAL between checkpoints would make a bulk load checkpoint over and over.
    as_postgres "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w \
      -o "-p $port -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c shared_buffers=2GB -c effective_cache_size=16GB -c max_wal_size=16GB -c checkpoint_timeout=30min" \
      start >&2
    echo "$bin $dir" > "$state"
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    [ -f "$state" ] || exit 0
    read -r bin dir < "$state"
    as_postgres "$bin/pg_ctl" -D "$dir" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir" "$state"
    ;;
  *)
    echo "usage: $0 start|stop [port]" >&2
    exit 2
    ;;
esac
