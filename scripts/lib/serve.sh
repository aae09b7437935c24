# Sourced by the scripts that run a check against `understudy serve` (bash; they run from the repository's root).
#
# start_serve BINARY LOG [serve options...]
#   Starts `BINARY serve` on two free loopback ports (HTTP and MQTT, found together so neither is a guess next to
#   the other), with the options given, its output in LOG, and waits until it answers. A port taken between the
#   finding and the bind (another process got it) is no failure: it tries again with other ports, up to 8 times.
#   Sets `server` (the pid), `port` and `mqtt_port`. Returns non-zero, LOG holding why, when the server did not
#   start for another reason or at the last try.
start_serve() {
  local binary=$1 log=$2 attempt
  shift 2
  for attempt in 1 2 3 4 5 6 7 8; do
    read -r port mqtt_port < <(python3 -c '
import socket
first, second = socket.socket(), socket.socket()
first.bind(("127.0.0.1", 0))
second.bind(("127.0.0.1", 0))
print(first.getsockname()[1], second.getsockname()[1])')
    "$binary" serve --port "$port" --mqtt-port "$mqtt_port" "$@" >"$log" 2>&1 &
    server=$!
    for _ in $(seq 1 300); do
      curl -s -o /dev/null "http://127.0.0.1:$port/_understudy/health" && return 0
      kill -0 "$server" 2>/dev/null || break
      sleep 0.05
    done
    kill "$server" 2>/dev/null
    wait "$server" 2>/dev/null || true
    server=""
    grep -q "Address already in use" "$log" || return 1
  done
  return 1
}
