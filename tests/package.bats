#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The Debian package as Debian's own tools judge it: lintian reports no error
# and no warning, and the binary carries the hardening flags (FORTIFY, the
# stack protector, PIE, relro, BIND_NOW) even when the developer's .output
# was built without them just before `make deb`.  The install, remove and
# purge of the package are in tests/fleet_daemon.bats.

load test_helper

setup_file() {
	export BATS_TEST_TIMEOUT=600
	require_cmd dpkg-buildpackage dh lintian hardening-check
	# a development build first (no FORTIFY, no BIND_NOW), in the OUTPUT `make deb` is
	# given: the package must be built anew, not from these objects
	DEVOUT=$BATS_FILE_TMPDIR/out
	make -C "$ROOT" -j2 OUTPUT="$DEVOUT" "$DEVOUT/ebpf-collect" \
		>"$BATS_FILE_TMPDIR/dev.log" 2>&1 || flunk "development build: $(tail -5 "$BATS_FILE_TMPDIR/dev.log")"
	make -C "$ROOT" OUTPUT="$DEVOUT" deb >"$BATS_FILE_TMPDIR/deb.log" 2>&1 ||
		flunk "make deb: $(tail -5 "$BATS_FILE_TMPDIR/deb.log")"
	DEB=$DEVOUT/deb/ebpf-collect_$(dpkg-parsechangelog -l "$ROOT/debian/changelog" -S Version)_$(dpkg --print-architecture).deb
	export DEB DEVOUT
}

setup() {
	T=$BATS_TEST_TMPDIR
}

@test "package: lintian finds no error and no warning in the .deb and the .changes" {
	[[ -f $DEB ]] || flunk "no $DEB"
	run lintian --fail-on error,warning "$DEB" "$DEVOUT/deb/ebpf-collect.changes"
	echo "$output"
	assert_success
	[[ $output != *"E: "* && $output != *"W: "* ]] || flunk "lintian: $output"
}

@test "package: the binary is hardened (FORTIFY, stack protector, PIE, relro, BIND_NOW) though its OUTPUT held a development build" {
	dpkg-deb -x "$DEB" "$T/x"
	# control-flow protection marks need every linked object built with
	# them, bookworm's C start files included: not asked of the package
	run hardening-check --nocfprotection "$T/x/usr/bin/ebpf-collect"
	echo "$output"
	assert_success
	[[ $output == *"Fortify Source functions: yes"* ]] || flunk "no FORTIFY"
	[[ $output == *"Immediate binding: yes"* ]] || flunk "no BIND_NOW"
}

@test "package: --version prints the version of debian/changelog" {
	dpkg-deb -x "$DEB" "$T/x"
	run "$T/x/usr/bin/ebpf-collect" --version
	assert_output "ebpf-collect $(dpkg-parsechangelog -l "$ROOT/debian/changelog" -S Version)"
}

@test "package: Depends names libprotobuf-c, which convert --format pprof links" {
	run dpkg-deb -f "$DEB" Depends
	assert_success
	[[ $output == *libprotobuf-c1* ]] || flunk "Depends: $output"
}
