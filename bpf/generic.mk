# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# bpf/generic.mk: build fragment.
#
# bpf/usdt_generic.bpf.c (any USDT provider): bpf/build.mk's chain
# (its wildcard already turns every bpf/*.bpf.c into $(OUTPUT)/bpf/%.bpf.o and
# $(OUTPUT)/%.skel.h); this fragment only adds the extra header dependency
# and the users of the skeleton.
#
# The skeleton keeps bpf/build.mk's file name but is generated with
# `name usdt_generic_bpf` (struct usdt_generic_bpf, usdt_generic_bpf__open):
# the default name would collide with collector/usdt_generic.c's own
# usdt_generic__* API.  This explicit rule overrides build.mk's pattern rule.
$(OUTPUT)/usdt_generic.skel.h: $(OUTPUT)/bpf/usdt_generic.bpf.o | $(OUTPUT)
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name usdt_generic_bpf > $@

$(OUTPUT)/bpf/usdt_generic.bpf.o: bpf/usdt_generic.h

# objects that include the skeleton
$(OUTPUT)/obj/collector/usdt_generic.o: $(OUTPUT)/usdt_generic.skel.h

.PHONY: usdt-generic-skel
usdt-generic-skel: $(OUTPUT)/usdt_generic.skel.h

UG_OBJS := $(OUTPUT)/obj/collector/usdt_generic.o $(OUTPUT)/obj/collector/usdt_notes.o

# unit test: spec parser, built-in table, UTF-8 -> UTF-16
UNIT_TESTS += $(OUTPUT)/tests/test_usdt_generic
$(OUTPUT)/tests/test_usdt_generic: $(OUTPUT)/obj/tests/unit/test_usdt_generic.o $(UG_OBJS) \
		$(NETTRACE_LIB) $(EVENT_TABLE_OBJS) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(filter %.o,$^) $(NETTRACE_LIB) -lbpf -lelf -lz $(COMMON_LIB) -o $@

# ebpf-collect links the --usdt module (an extra prerequisite: the link
# recipe in collector/build.mk takes $(filter %.o,$^))
$(OUTPUT)/ebpf-collect: $(OUTPUT)/obj/collector/usdt_generic.o
