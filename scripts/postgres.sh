# Sourced by scripts/test.sh: a private PostgreSQL server on a Unix socket for the tests.
# Uses the machine's server binaries, installing Debian's postgresql package when absent.
start_test_postgres() {
  if [ -n "${TANDEM_TEST_PG_URL:-}" ]; then return 0; fi
  local bindir
  bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  if [ -z "$bindir" ] && ! command -v pg_ctl >/dev/null 2>&1; then
    apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  fi
  [ -n "$bindir" ] || bindir=$(dirname "$(command -v pg_ctl)")
  PG_DIR=$(mktemp -d /tmp/tandem-pg.XXXXXX)
  chmod 755 "$PG_DIR"
  local run_as=()
  if [ "$(id -u)" = 0 ]; then
    id -u tandemci >/dev/null 2>&1 || useradd --system --no-create-home tandemci
    chown tandemci "$PG_DIR"
    run_as=(runuser -u tandemci --)
  fi
  # UTF8 with the C locale: the same on every machine, whatever locales it has installed
  "${run_as[@]}" "$bindir/initdb" -D "$PG_DIR/data" -U tandem --auth=trust -E UTF8 --locale=C \
    >/dev/null
  "${run_as[@]}" "$bindir/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
    -o "-c listen_addresses='' -c unix_socket_directories='$PG_DIR' -c fsync=on" start >/dev/null
  export TANDEM_TEST_PG_URL="postgresql+psycopg://tandem@/postgres?host=$PG_DIR"
  export TANDEM_TEST_PG_STOP="${run_as[*]} $bindir/pg_ctl -D $PG_DIR/data -m fast stop"
  export TANDEM_TEST_PG_DIR="$PG_DIR"
}

stop_test_postgres() {
  if [ -n "${TANDEM_TEST_PG_STOP:-}" ]; then $TANDEM_TEST_PG_STOP >/dev/null 2>&1 || true; fi
  # only the folder start_test_postgres made itself (mktemp), never a server it did not start
  case "${TANDEM_TEST_PG_DIR:-}" in /tmp/tandem-pg.*) rm -rf "$TANDEM_TEST_PG_DIR" ;; esac
}
