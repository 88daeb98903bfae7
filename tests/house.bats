#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The house rules of docs/architecture.md, checked by tests/house_check.py on
# the tree and on the built objects (make all; make unit), one test a rule:
# who may include and call whom, no loop between a folder's files, private
# headers, files named in comments, exported functions nobody calls, reasons
# instead of issue numbers, no copied helper.
# The self-tests run each rule on a copy of tests/house_fixture/ (a small
# tree that keeps every rule) with one rule broken on purpose, and expect the
# checker to fail and name the break: a rule that cannot fail checks nothing.

load test_helper

CHECK=$BATS_TEST_DIRNAME/house_check.py
FIXTURE=$BATS_TEST_DIRNAME/house_fixture

house() {	# house RULE: the rule on the tree; prints what breaks it
	run python3 "$CHECK" --obj "$OUTPUT/obj" "$1"
	echo "$output"
	[ "$status" -eq 0 ]
}

fixture() {	# fixture [build]: a fresh copy of the fixture in $T
	T=$BATS_TEST_TMPDIR/tree
	rm -rf "$T"
	cp -r "$FIXTURE" "$T"
	if [[ ${1:-} == build ]]; then build; fi
}

build() {	# the fixture's objects and program (.output/), for nm and ldd
	make -s -C "$T" >/dev/null
}

breaks() {	# breaks RULE TEXT...: the rule fails on $T and says each TEXT
	local t
	run python3 "$CHECK" --root "$T" "$1"
	echo "$output"
	[ "$status" -eq 1 ]
	shift
	for t in "$@"; do assert_output_contains "$t"; done
}

# --- the tree --------------------------------------------------------------

@test "house: docs/architecture.md's folder table is readable, its folders exist, every folder with C sources has a row" {
	house folders
}

@test "house: each folder includes only what its row allows" {
	house includes
}

@test "house: each folder's objects use only what its row allows, or the libraries the programs link (nm)" {
	house calls
}

@test "house: no two files of a folder call each other in a loop (nm)" {
	house cycles
}

@test "house: a private header is included only from its own folder" {
	house private
}

@test "house: every file a comment or a document names exists" {
	house refs
}

@test "house: every exported function is called from another file, a test or a benchmark" {
	house unused
}

@test "house: comments give reasons, not issue numbers" {
	house comments
}

@test "house: no copied helper, no interface written twice" {
	house copies
}

@test "house: a test file defines each function once, none over a helper's it loads" {
	house shell
}

@test "house: sizes are reported, never enforced" {
	house sizes
}

@test "house: no symbolizer source includes a collector or usdt header" {
	run grep -rlE '#\s*include\s+"(\.\./)*(collector|usdt)/' "$BATS_TEST_DIRNAME/../symbolizer"
	echo "$output"
	[ "$status" -eq 1 ]
}

@test "house: product folders hold no benchmark or test program" {
	run bash -c "cd '$BATS_TEST_DIRNAME/..' && ls common usdt usdt/refrt bpf nettrace symbolizer views collector collector/session collector/sources collector/pipeline collector/fleet 2>/dev/null | grep -E '^(bench|test)[_-]|_test\.c$|^testprog|^testlib'"
	echo "$output"
	[ "$status" -eq 1 ]
}

@test "house: every folder of docs/architecture.md exists and every product folder is listed" {
	doc=$BATS_TEST_DIRNAME/../docs/architecture.md
	[ -f "$doc" ]
	for d in common usdt usdt/refrt bpf nettrace symbolizer views collector collector/session \
		 collector/sources collector/pipeline collector/fleet scripts tests; do
		grep -q "^| \`$d/\`" "$doc" || { echo "docs/architecture.md lacks $d/"; false; }
		[ -d "$BATS_TEST_DIRNAME/../$d" ] || { echo "$d/ listed but missing"; false; }
	done
}

# --- the checker, on the fixture ---------------------------------------------

@test "house self-test: the fixture keeps every rule" {
	fixture build
	for rule in folders includes calls cycles private refs unused comments copies shell sizes; do
		run python3 "$CHECK" --root "$T" "$rule"
		echo "$rule: $output"
		[ "$status" -eq 0 ]
	done
}

@test "house self-test: folders: an unreadable row, a row without its folder, a folder without a row" {
	fixture
	sed -i '/^| `lib\/`/s/`common\/` |$/most of `common\/` |/' "$T/docs/architecture.md"
	rm -r "$T/app/part"
	mkdir "$T/extra"
	echo 'int extra;' >"$T/extra/extra.c"
	breaks folders 'docs/architecture.md:12: cannot read "most of `common/`" in the May include column' \
		'docs/architecture.md: lists app/part/, which does not exist' \
		'extra/: holds C sources but has no row in docs/architecture.md'
}

@test "house self-test: includes: a folder includes one its row does not name, or a file not in the tree" {
	fixture
	echo '#include "part.h"' >>"$T/lib/lib.c"
	echo '#include "nowhere.h"' >>"$T/common/grow.h"
	breaks includes 'lib/lib.c:28: includes app/part/part.h (lib/ may include only common, lib)' \
		'common/grow.h:11: includes "nowhere.h", which is no file of the tree'
}

@test "house self-test: includes: the rows are the document's" {
	fixture
	sed -i '/^| `lib\/`/s/`common\/` |$/nothing |/' "$T/docs/architecture.md"
	breaks includes 'lib/lib.c:7: includes common/clock.h (lib/ may include only lib)'
}

@test "house self-test: calls: an object uses a folder its row does not name" {
	fixture
	cat >>"$T/common/clock.c" <<-'EOF'

	int lib__run(int n);

	int clock__odd(void)
	{
		return lib__run(1);
	}
	EOF
	build
	breaks calls 'common/clock.c: uses lib__run, defined in lib/ (common/ may use only common)'
}

@test "house self-test: cycles: two files of a folder that call each other" {
	fixture
	cat >>"$T/common/clock.c" <<-'EOF'

	int grow__twice(int n);

	int clock__twice(int n)
	{
		return n > 0 ? grow__twice(n - 1) : 0;
	}
	EOF
	cat >>"$T/common/grow.c" <<-'EOF'

	int clock__twice(int n);

	int grow__twice(int n)
	{
		return n > 0 ? clock__twice(n - 1) : 1;
	}
	EOF
	build
	breaks cycles 'common/: files call each other in a loop: common/clock.c -> common/grow.c (grow__twice) -> common/clock.c (clock__twice)'
}

@test "house self-test: private: a private header (by its name, by its comment) included from another folder" {
	fixture
	sed -i 's/^#include "part.h"$/&\n#include "part_state.h"\n#include "lib_internal.h"/' "$T/app/main.c"
	breaks private 'app/main.c:6: includes app/part/part_state.h, private to app/part/' \
		'app/main.c:7: includes lib/lib_internal.h, private to lib/'
}

@test "house self-test: refs: a comment and a document name files that are not there" {
	fixture
	printf '/* this was lib/old_lib.c, with gone.h beside it */\n' >>"$T/lib/lib.c"
	echo 'The old program was app/old_main.c.' >>"$T/README.md"
	breaks refs 'lib/lib.c:28: names lib/old_lib.c, which is not in the tree' \
		'lib/lib.c:28: names gone.h, which is not in the tree' \
		'README.md:6: names app/old_main.c, which is not in the tree'
}

@test "house self-test: unused: a function nothing calls, and one only its own file calls" {
	fixture
	cat >>"$T/lib/lib.c" <<-'EOF'

	int lib__double(int n)
	{
		return 2 * n;
	}

	int lib__spare(int n)
	{
		return lib__double(n) + 1;
	}
	EOF
	build
	breaks unused 'lib/lib.c: lib__spare() is exported and nothing calls it' \
		'lib/lib.c: lib__double() is exported but only its own file calls it (make it static)'
}

@test "house self-test: comments: an issue number, also where the comment breaks the line before it" {
	fixture
	n=24
	printf '/* works around issue\n * #%d */\n' "$n" >>"$T/lib/lib.c"
	printf '# see bug %d\n' "$n" >>"$T/Makefile"
	breaks comments 'lib/lib.c:28: names an issue number instead of the reason' \
		'Makefile:15: names an issue number instead of the reason'
}

@test "house self-test: shell: a teardown defined twice, a helper's function defined again" {
	fixture
	mkdir -p "$T/tests"
	printf 'kill_bg() {\n\ttrue\n}\n' >"$T/tests/test_helper.bash"
	printf 'load test_helper\n\nteardown() {\n\tstart_server\n}\n\nkill_bg() {\n\tfalse\n}\n\nteardown() {\n\tkill_bg\n}\n' \
		>"$T/tests/t.bats"
	breaks shell 'tests/t.bats:11: defines teardown() again (first at line 3); the first one is never run' \
		'tests/t.bats:7: defines kill_bg() again over the one of tests/test_helper.bash:1, which it loads'
}

@test "house self-test: sizes: a long file and a long function are reported, and fail nothing" {
	fixture
	{
		echo 'int lib__long(int n)'
		echo '{'
		for i in $(seq 1500); do echo "	n += $i;"; done
		echo '	return n;'
		echo '}'
	} >>"$T/lib/lib.c"
	run python3 "$CHECK" --root "$T" sizes
	echo "$output"
	[ "$status" -eq 0 ]
	assert_output_contains ' 1531 lib/lib.c'
	assert_output_contains ' 1501 lib/lib.c:29 lib__long()'
	run grep -c 'long-file\|long-function' "$CHECK"
	[ "$output" = 0 ]
}

@test "house self-test: copies: the clock, growth and ELF helpers copied outside common/" {
	fixture
	cat >>"$T/lib/lib.c" <<-'EOF'

	static unsigned long long now_s(void)
	{
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		return ts.tv_sec;
	}

	static int more(int **arr, size_t *cap)
	{
		size_t n = *cap ? 2 * *cap : 8;
		int *p = realloc(*arr, n * sizeof(**arr));

		if (!p)
			return -1;
		*arr = p;
		*cap = n;
		return 0;
	}

	static Elf *open_elf(int fd)
	{
		return elf_begin(fd, ELF_C_READ_MMAP, NULL);
	}
	EOF
	breaks copies 'lib/lib.c: clock_gettime(CLOCK_MONOTONIC) outside common/ (its clock helper) (1)' \
		'lib/lib.c: realloc-doubling growth outside common/ (its growth helper) (1)' \
		'lib/lib.c: elf_begin() outside common/ (its ELF helper) (1)'
}

@test "house self-test: copies: an interface written twice (the targets map, a struct's layout)" {
	fixture
	for f in lib/lib.c app/main.c; do
		printf 'struct {\n\tint type;\n} targets SEC(".maps");\n' >>"$T/$f"
	done
	sed -n '/^struct lib_state {/,/^};/p' "$T/lib/lib_internal.h" |
		sed 's/lib_state/part_mirror/' >>"$T/app/part/part_state.h"
	breaks copies 'the targets BPF map defined in 2 files: app/main.c:14 targets, lib/lib.c:30 targets' \
		'the layout (start_ns, end_ns, values, n, ...) written 2 times: app/part/part_state.h:11 part_mirror, lib/lib_internal.h:8 lib_state'
}

@test "house self-test: copies: a function body written in two files, its local names changed" {
	fixture
	cat >>"$T/app/part/part.c" <<-'EOF'

	int part__fill(int count)
	{
		struct lib_state st = { 0 };
		int k, total = 0;

		st.start_ns = clock__now_ns();
		for (k = 0; k < count; k++) {
			if (st.n == st.cap && grow((void **)&st.values, &st.cap, sizeof(int)))
				break;
			st.values[st.n++] = k;
			total += k;
		}
		st.end_ns = clock__now_ns();
		free(st.values);
		return st.end_ns >= st.start_ns ? total : -1;
	}
	EOF
	breaks copies 'a 12-line function body written 2 times: app/part/part.c:16 part__fill, lib/lib.c:13 lib__run'
}
