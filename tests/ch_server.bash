# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Debian's clickhouse-server (18.16) for tests and benchmarks: one server on
# 127.0.0.1 with its config, data and logs in CH_DIR, its HTTP port CH_PORT
# (the native port is CH_PORT + 1), its URL CH_URL.  Sourced by
# tests/fleet_clickhouse.bats and tests/bench/bench_agent.sh.
#
#   ch_setup DIR   pick free ports, write the config (exports CH_DIR CH_PORT CH_URL)
#   ch_start       start it and wait until it answers (60 s at most)
#   ch_stop        stop it (SIGTERM, then SIGKILL after 30 s)
#   ch_up SECONDS  wait until the HTTP interface answers
#   ch_q SQL       the answer, TabSeparated

ch_setup() {
	CH_DIR=$1
	CH_PORT=$((20000 + RANDOM % 20000))
	while ss -ltn | grep -q ":$CH_PORT " || ss -ltn | grep -q ":$((CH_PORT + 1)) "; do
		CH_PORT=$((CH_PORT + 2))
	done
	export CH_DIR CH_PORT
	export CH_URL=http://127.0.0.1:$CH_PORT
	mkdir -p "$CH_DIR/log"
	# inserts through the Distributed table return once the shard has the rows
	sed 's|<default>|<default><insert_distributed_sync>1</insert_distributed_sync>|' \
		/etc/clickhouse-server/users.xml >"$CH_DIR/users.xml"
	cat >"$CH_DIR/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
    <logger><level>warning</level><log>$CH_DIR/log/server.log</log>
        <errorlog>$CH_DIR/log/err.log</errorlog><console>0</console></logger>
    <http_port>$CH_PORT</http_port>
    <tcp_port>$((CH_PORT + 1))</tcp_port>
    <listen_host>127.0.0.1</listen_host>
    <path>$CH_DIR/data/</path>
    <tmp_path>$CH_DIR/tmp/</tmp_path>
    <user_files_path>$CH_DIR/user_files/</user_files_path>
    <format_schema_path>$CH_DIR/format_schemas/</format_schema_path>
    <users_config>$CH_DIR/users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <mark_cache_size>5368709</mark_cache_size>
    <remote_servers><fleet><shard><replica><host>127.0.0.1</host>
        <port>$((CH_PORT + 1))</port></replica></shard></fleet></remote_servers>
</yandex>
XML
}

ch_up() {
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		[[ $(curl -s "$CH_URL/?query=SELECT%201" 2>/dev/null) == 1 ]] && return 0
		sleep 0.1
	done
	return 1
}

ch_start() {
	clickhouse-server --config-file="$CH_DIR/config.xml" >"$CH_DIR/log/stdout" 2>&1 3>&- &
	echo $! >"$CH_DIR/pid"
	ch_up 60
}

ch_stop() {
	[[ -f $CH_DIR/pid ]] || return 0
	local pid i
	pid=$(cat "$CH_DIR/pid")
	kill "$pid" 2>/dev/null || true
	# gone, or a zombie of this shell (kill -0 still reaches those)
	for ((i = 0; i < 300; i++)); do
		[[ -e /proc/$pid && $(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null) != Z ]] || break
		sleep 0.1
	done
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	rm -f "$CH_DIR/pid"
}

ch_q() {
	curl -sS --fail-with-body "$CH_URL/" --data-binary "$1"
}
