# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# bpf/generic.mk: build fragment.
#
# bpf/usdt_generic.bpf.c (any USDT provider, issue 8): bpf/build.mk's chain
# (its wildcard already turns every bpf/*.bpf.c into $(OUTPUT)/bpf/%.bpf.o and
# $(OUTPUT)/%.skel.h); this fragment only adds the extra header dependency
# and the users of the skeleton.

$(OUTPUT)/bpf/usdt_generic.bpf.o: bpf/usdt_generic.h

# objects that include the skeleton
$(OUTPUT)/obj/collector/usdt_generic.o: $(OUTPUT)/usdt_generic.skel.h

.PHONY: usdt-generic-skel
usdt-generic-skel: $(OUTPUT)/usdt_generic.skel.h
