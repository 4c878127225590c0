#!/usr/bin/env bash
# A throwaway PostgreSQL for the PostgresStore tests: listens on 127.0.0.1 only, on a free
# port, with a random password, in a temporary directory that is removed afterwards.
#
#   bash scripts/postgres.sh run -- npm test   installs PostgreSQL if missing, starts a cluster,
#                                              runs the command with PLANKIT_PG_URL set, stops
#                                              the cluster (also on failure or Ctrl-C) and exits
#                                              with the command's status
#   bash scripts/postgres.sh install           apt-get installs PostgreSQL if pg_ctl is missing
#
# When PLANKIT_PG_URL is already set, `run` uses that server and starts nothing.
# PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` user.
set -euo pipefail

log() { printf 'postgres.sh: %s\n' "$*" >&2; }

# The newest installed server binaries: Debian keeps them in /usr/lib/postgresql/<major>/bin.
find_bindir() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [[ -n "$dir" && -x "$dir/pg_ctl" ]]; then
    printf '%s\n' "$dir"
  elif command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v pg_ctl)"
  fi
}

install_postgres() {
  if [[ -n "$(find_bindir)" ]]; then return 0; fi
  if [[ $EUID -ne 0 ]]; then
    log 'PostgreSQL is not installed and installing it needs root (apt-get install postgresql).'
    return 1
  fi
  log 'installing PostgreSQL from the Debian packages'
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  [[ -n "$(find_bindir)" ]]
}

# Runs a server binary as the unprivileged owner of the cluster.
as_owner() {
  if [[ $EUID -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

CLUSTER=''

stop_cluster() {
  if [[ -n "$CLUSTER" && -d "$CLUSTER" ]]; then
    if [[ -f "$CLUSTER/data/postmaster.pid" ]]; then
      as_owner "$BINDIR/pg_ctl" stop -D "$CLUSTER/data" -m fast -w >/dev/null 2>&1 || true
    fi
    rm -rf "$CLUSTER"
    log 'stopped the throwaway cluster'
  fi
  CLUSTER=''
}

start_cluster() {
  BINDIR=$(find_bindir)
  if [[ -z "$BINDIR" ]]; then
    log 'PostgreSQL is not installed; run: bash scripts/postgres.sh install'
    return 1
  fi
  if [[ $EUID -eq 0 ]] && ! id postgres >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin postgres
  fi
  # In /tmp, not $TMPDIR: the unprivileged server user must be able to reach it.
  CLUSTER=$(mktemp -d /tmp/plankit-pg.XXXXXX)
  chmod 700 "$CLUSTER"
  local password
  password=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  printf '%s\n' "$password" >"$CLUSTER/password"
  mkdir "$CLUSTER/socket"
  if [[ $EUID -eq 0 ]]; then chown -R postgres: "$CLUSTER"; fi
  as_owner "$BINDIR/initdb" -D "$CLUSTER/data" -U plankit --pwfile="$CLUSTER/password" \
    --auth-host=scram-sha-256 --auth-local=scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null
  local attempt port
  for attempt in 1 2 3 4 5 6 7 8; do
    port=$((20000 + RANDOM % 40000))
    if port_in_use "$port"; then continue; fi
    if as_owner "$BINDIR/pg_ctl" start -D "$CLUSTER/data" -w -t 60 -l "$CLUSTER/server.log" \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $CLUSTER/socket" >/dev/null; then
      PLANKIT_PG_URL="postgres://plankit:$password@127.0.0.1:$port/postgres"
      export PLANKIT_PG_URL
      log "PostgreSQL $("$BINDIR/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
      return 0
    fi
    log "could not start on port $port (attempt $attempt); trying another"
  done
  tail -n 20 "$CLUSTER/server.log" >&2 || true
  return 1
}

case "${1:-}" in
  install)
    install_postgres
    ;;
  run)
    shift
    if [[ "${1:-}" == '--' ]]; then shift; fi
    if [[ $# -eq 0 ]]; then
      log 'usage: bash scripts/postgres.sh run -- <command...>'
      exit 2
    fi
    if [[ -n "${PLANKIT_PG_URL:-}" ]]; then exec "$@"; fi
    CHILD=''
    on_signal() {
      if [[ -n "$CHILD" ]]; then kill -TERM "$CHILD" 2>/dev/null || true; fi
      exit "$1"
    }
    trap stop_cluster EXIT
    trap 'on_signal 130' INT
    trap 'on_signal 143' TERM
    install_postgres
    start_cluster
    # In the background, so a signal reaches the traps at once rather than after the command.
    "$@" &
    CHILD=$!
    status=0
    wait "$CHILD" || status=$?
    CHILD=''
    exit "$status"
    ;;
  *)
    log 'usage: bash scripts/postgres.sh run -- <command...> | install'
    exit 2
    ;;
esac
