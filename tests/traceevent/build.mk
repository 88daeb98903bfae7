# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# tests/traceevent: TraceCheck, the real-TraceEvent checker the bats tests
# run over every trace they write.  The stamp is made even when dotnet or
# the package is missing (the reason is in $(OUTPUT)/traceevent/unavailable
# and the tests skip), so make does not retry on every run.

TRACECHECK_SRC   := $(wildcard tests/traceevent/*.cs) tests/traceevent/TraceCheck.csproj \
                    tests/traceevent/Directory.Build.props tests/traceevent/build.sh
TRACECHECK_STAMP := $(OUTPUT)/traceevent/.built

ALL_TARGETS += $(TRACECHECK_STAMP)

$(TRACECHECK_STAMP): $(TRACECHECK_SRC)
	$(call msg,DOTNET,$(OUTPUT)/traceevent/TraceCheck.dll)
	$(Q)OUTPUT=$(OUTPUT) tests/traceevent/build.sh
	$(Q)touch $@
