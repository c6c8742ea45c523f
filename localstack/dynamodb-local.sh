#!/usr/bin/env bash
# DynamoDB Local launcher for tests and local AWS-shaped runs.
#
#   localstack/dynamodb-local.sh start    install (first time) and start in the background; no-op when running
#   localstack/dynamodb-local.sh stop     stop the instance this script started
#   localstack/dynamodb-local.sh status   exit 0 and print the endpoint when it answers, exit 1 otherwise
#   localstack/dynamodb-local.sh endpoint print the endpoint URL
#
# DynamoDB Local ships inside the npm package amplify-dynamodb-simulator (the
# jar, its libraries and the sqlite4java native libraries). Only the jar is
# needed, so the package tarball is fetched with `npm pack` (one ~57 MB
# download, no dependency tree) and unpacked into localstack/.cache, which is
# git-ignored. It runs in memory (-sharedDb: one database whatever the
# credentials) with the machine's Java (17+).
#
# Environment:
#   DYNAMODB_PORT         port to listen on (default 8000)
#   DYNAMODB_LOCAL_CACHE  install directory (default localstack/.cache)
#   DDB_SIMULATOR_VERSION npm package version (default pinned below)
#   DYNAMODB_LOCAL_WAIT   seconds to wait for start-up (default 60)
#   DYNAMODB_LOCAL_JAVA_OPTS extra JVM options (e.g. -Xmx512m)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PORT="${DYNAMODB_PORT:-8000}"
CACHE="${DYNAMODB_LOCAL_CACHE:-$HERE/.cache}"
VERSION="${DDB_SIMULATOR_VERSION:-2.9.30}"
PKG_DIR="$CACHE/amplify-dynamodb-simulator-$VERSION"
EMU_DIR="$PKG_DIR/package/emulator"
RUN_DIR="$CACHE/run"
PID_FILE="$RUN_DIR/dynamodb-local-$PORT.pid"
LOG_FILE="$RUN_DIR/dynamodb-local-$PORT.log"
LOCK_FILE="$RUN_DIR/dynamodb-local.lock"
ENDPOINT="http://127.0.0.1:$PORT"
WAIT="${DYNAMODB_LOCAL_WAIT:-60}"

log() { echo "dynamodb-local: $*" >&2; }

# answers reports whether something speaking DynamoDB's protocol listens on
# the port: ListTables with fake credentials must return HTTP 200.
answers() {
	local code
	code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 \
		-H 'Content-Type: application/x-amz-json-1.0' \
		-H 'X-Amz-Target: DynamoDB_20120810.ListTables' \
		-H 'Authorization: AWS4-HMAC-SHA256 Credential=local/20200101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0' \
		-d '{}' "$ENDPOINT" 2>/dev/null || true)"
	[ "$code" = "200" ]
}

# pid_alive reports whether the recorded process still runs DynamoDB Local
# (a stale pid file may name a reused pid).
pid_alive() {
	local pid
	[ -f "$PID_FILE" ] || return 1
	pid="$(cat "$PID_FILE")"
	kill -0 "$pid" 2>/dev/null || return 1
	[ ! -r "/proc/$pid/cmdline" ] || tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q DynamoDBLocal.jar
}

install() {
	if [ -f "$EMU_DIR/DynamoDBLocal.jar" ] && [ -d "$EMU_DIR/DynamoDBLocal_lib" ]; then
		return 0
	fi
	command -v npm >/dev/null || { log "npm is required to install DynamoDB Local"; exit 1; }
	log "installing amplify-dynamodb-simulator@$VERSION into $PKG_DIR"
	local tmp
	tmp="$(mktemp -d "$CACHE/install.XXXXXX")"
	(cd "$tmp" && npm pack --silent "amplify-dynamodb-simulator@$VERSION" >/dev/null)
	mkdir -p "$tmp/x"
	tar -xzf "$tmp"/amplify-dynamodb-simulator-*.tgz -C "$tmp/x"
	[ -f "$tmp/x/package/emulator/DynamoDBLocal.jar" ] || { log "DynamoDBLocal.jar not found in the package"; rm -rf "$tmp"; exit 1; }
	rm -rf "$PKG_DIR"
	mv "$tmp/x" "$PKG_DIR"
	rm -rf "$tmp"
}

start() {
	mkdir -p "$RUN_DIR"
	# One starter at a time: parallel `go test` packages may all ask for it.
	exec 9>"$LOCK_FILE"
	flock 9
	if answers; then
		echo "$ENDPOINT"
		return 0
	fi
	if pid_alive; then
		# Started but not answering yet (or hung): wait below instead of
		# launching a second copy on the same port.
		log "process $(cat "$PID_FILE") exists; waiting for it"
	else
		command -v java >/dev/null || { log "java (17+) is required"; exit 1; }
		install
		log "starting on port $PORT (log: $LOG_FILE)"
		# setsid detaches it from the caller's process group so that a test
		# binary or make exiting does not take it down; the lock fd is closed.
		cd "$EMU_DIR"
		# shellcheck disable=SC2086 # options are meant to split
		setsid java ${DYNAMODB_LOCAL_JAVA_OPTS:-} -Djava.library.path="$EMU_DIR/DynamoDBLocal_lib" \
			-jar DynamoDBLocal.jar -inMemory -sharedDb -port "$PORT" >"$LOG_FILE" 2>&1 9>&- </dev/null &
		echo $! >"$PID_FILE"
		cd - >/dev/null
	fi
	local deadline=$((SECONDS + WAIT))
	while ! answers; do
		if ! pid_alive; then
			log "process exited; last log lines:"
			tail -n 20 "$LOG_FILE" >&2 || true
			exit 1
		fi
		if [ "$SECONDS" -ge "$deadline" ]; then
			log "no answer on $ENDPOINT after ${WAIT}s"
			exit 1
		fi
		sleep 0.2
	done
	echo "$ENDPOINT"
}

stop() {
	mkdir -p "$RUN_DIR"
	exec 9>"$LOCK_FILE"
	flock 9
	if pid_alive; then
		local pid
		pid="$(cat "$PID_FILE")"
		kill "$pid" 2>/dev/null || true
		for _ in $(seq 1 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
		log "stopped (pid $pid)"
	else
		log "not running (no live pid in $PID_FILE)"
	fi
	rm -f "$PID_FILE"
}

status() {
	if answers; then
		echo "$ENDPOINT"
		return 0
	fi
	log "not answering on $ENDPOINT"
	return 1
}

case "${1:-}" in
start) start ;;
stop) stop ;;
status) status ;;
endpoint) echo "$ENDPOINT" ;;
install) mkdir -p "$CACHE" && install ;;
*)
	echo "usage: $0 start|stop|status|endpoint|install" >&2
	exit 2
	;;
esac
