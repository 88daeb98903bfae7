# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The .NET test app (tests/dotnet/evtapp) for the suites that trace stock
# .NET (tests/dotnet.bats, tests/dotnet_host.bats and others): where it is built, how
# (offline, no package references; once per $OUTPUT), and how its traces
# are read (tests/dotnet_trace.py).  Loaded after test_helper.

DT=$BATS_TEST_DIRNAME/dotnet_trace.py
APP_DIR=$OUTPUT/tests/dotnet/evtapp
APP=$APP_DIR/evtapp.dll
APPHOST_DIR=$OUTPUT/tests/dotnet/evtapp-host
APPHOST=$APPHOST_DIR/evtapp

build_app() {
	local src=$BATS_TEST_DIRNAME/dotnet/evtapp
	mkdir -p "$OUTPUT/tests/dotnet"
	(
		flock 9
		if [[ ! -f $APP || $src/Program.cs -nt $APP || $src/evtapp.csproj -nt $APP ]]; then
			DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1 \
				dotnet build "$src/evtapp.csproj" -c Release -o "$APP_DIR" \
				-p:BaseIntermediateOutputPath="$OUTPUT/tests/dotnet/obj/" \
				>"$OUTPUT/tests/dotnet/build.log" 2>&1 ||
				{ cat "$OUTPUT/tests/dotnet/build.log" >&2; exit 1; }
		fi
		# the same app as its own executable (apphost)
		if [[ ! -x $APPHOST || $src/Program.cs -nt $APPHOST || $src/evtapp.csproj -nt $APPHOST ]]; then
			DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1 \
				dotnet build "$src/evtapp.csproj" -c Release -o "$APPHOST_DIR" \
				-p:UseAppHost=true -p:BaseIntermediateOutputPath="$OUTPUT/tests/dotnet/obj-host/" \
				>"$OUTPUT/tests/dotnet/build-host.log" 2>&1 ||
				{ cat "$OUTPUT/tests/dotnet/build-host.log" >&2; exit 1; }
		fi
	) 9>"$OUTPUT/tests/dotnet/.lock"
}

# build_sc V: the app as a self-contained .NET V executable (net8.0,
# net9.0, net10.0), from the runtime packs the NuGet registry serves
# (Microsoft.NETCore.App.Runtime.linux-x64 and .Ref of that version), into
# $OUTPUT/tests/dotnet/evtapp-netV/evtapp.  The project file is copied with
# its TargetFramework changed: a -p:TargetFramework on the command line does
# not reach the restore.
build_sc() {
	local v=$1 src=$BATS_TEST_DIRNAME/dotnet/evtapp dir=$OUTPUT/tests/dotnet/src-net$1
	local out=$OUTPUT/tests/dotnet/evtapp-net$1
	(
		flock 9
		if [[ -x $out/evtapp && $out/evtapp -nt $src/Program.cs &&
		      $out/evtapp -nt $src/evtapp.csproj ]]; then
			exit 0
		fi
		rm -rf "$dir" "$out"
		mkdir -p "$dir"
		cp "$src/Program.cs" "$dir/"
		sed "s|<TargetFramework>net[0-9.]*</TargetFramework>|<TargetFramework>net$v.0</TargetFramework>|" \
			"$src/evtapp.csproj" >"$dir/evtapp.csproj"
		DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1 \
			dotnet publish "$dir/evtapp.csproj" -c Release -r linux-x64 --self-contained \
			-p:UseAppHost=true -o "$out" >"$OUTPUT/tests/dotnet/build-net$v.log" 2>&1 ||
			{ cat "$OUTPUT/tests/dotnet/build-net$v.log" >&2; exit 1; }
	) 9>"$OUTPUT/tests/dotnet/.lock"
}

dump() {
	"$EBPF_COLLECT" dump --json --manifest "$MANIFEST_REAL" "$1" >"$1.json" ||
		flunk "dump $1 failed"
}

check() {	# check KEY EXPECTED (from counts output in $output)
	local got
	got=$(grep "^$1 " <<<"$output" | cut -d' ' -f2-)
	[[ $got == "$2" ]] || flunk "$1: expected '$2', got '$got'" $'\n'"$output"
}

# evtapp_traced "APP ARGS" OPTS...: the app (with --wait $T/go --linger and
# APP ARGS, output in $T/app.out) traced through EventPipe by a collector
# with OPTS (-o $T/t.nettrace; stderr in $T/c.out.err), both with bg, until
# the collector says it traces; the app's pid in APP_PID, the collector's in
# COL_PID
evtapp_traced() {
	local args=$1
	shift
	rm -f "$T/go"
	# shellcheck disable=SC2086
	bg "$T/app.out" dotnet "$APP" --wait "$T/go" $args --linger
	APP_PID=$LAST_PID
	wait_for_grep READY "$T/app.out" 30 || flunk "app did not start: $(cat "$T/app.out"*)"
	bg "$T/c.out" "$EBPF_COLLECT" -p "$APP_PID" -o "$T/t.nettrace" "$@"
	COL_PID=$LAST_PID
	wait_for_grep "EventPipe session over" "$T/c.out.err" 30 || flunk "$(cat "$T/c.out.err")"
}

# stale_perf_map PID: at /tmp/perf-PID.map, the perf map an earlier process
# of the same pid left (pids come round; /tmp keeps the maps of dead
# processes): an hour old and longer than the map the target writes when
# asked for it (the runtime truncates the file and writes it anew): a
# first line whose range covers every user address, so that a frame named
# from this file shows "EarlierProcessMethod", then 40,000 more names
stale_perf_map() {
	awk 'BEGIN { print "0 7fffffffffff [stale] EarlierProcessMethodAll()"
		for (i = 0; i < 40000; i++)
		printf "%x 40 [stale] EarlierProcessMethod%d()\n", 0x7f0000000000 + i * 64, i }' \
		>"/tmp/perf-$1.map"
	touch -d '1 hour ago' "/tmp/perf-$1.map"
}
