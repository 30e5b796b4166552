#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server (Debian's package) on 127.0.0.1 and prints its URL.
# Usage: scripts/start-postgres.sh [port]   — installs postgresql with apt-get when it is missing.
set -euo pipefail
port="${1:-55432}"
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi
dir=$(mktemp -d /tmp/pgdata.XXXXXX)
chown postgres:postgres "$dir"
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
as_postgres "$bin/initdb" -D "$dir" -A trust -U postgres --no-sync >/dev/null
as_postgres "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w \
  -o "-p $port -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=200" start >&2
echo "postgresql://postgres@127.0.0.1:$port/postgres"
