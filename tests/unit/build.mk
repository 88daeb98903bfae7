# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# tests/unit: build fragment included by the top-level Makefile.

# the nettrace library (test_nettrace*.c)
NETTRACE_TESTS := $(patsubst tests/unit/%.c,$(OUTPUT)/tests/%,$(wildcard tests/unit/test_nettrace*.c))

$(NETTRACE_TESTS): $(OUTPUT)/tests/%: $(OUTPUT)/obj/tests/unit/%.o $(NETTRACE_LIB) \
		   $(OUTPUT)/obj/collector/manifest_meta.o $(EVENT_TABLE_OBJS) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter %.o,$^) $(NETTRACE_LIB) $(ALL_LDFLAGS) $(COMMON_LIB) -o $@

UNIT_TESTS += $(NETTRACE_TESTS)

# the symbolizer library, and the views over it
$(OUTPUT)/tests/test_symbolizer: $(OUTPUT)/obj/tests/unit/test_symbolizer.o $(SYMBOLIZER_LIB) \
				 $(NETTRACE_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) -rdynamic $^ $(SYMBOLIZER_LDLIBS) -ldl $(COMMON_LIB) -o $@

$(OUTPUT)/tests/test_views: $(OUTPUT)/obj/tests/unit/test_views.o \
			    $(filter-out %/dump.o,$(VIEWS_OBJS)) $(OUTPUT)/obj/collector/manifest_meta.o \
			    $(OUTPUT)/obj/usdt/event_decode.o $(SYMBOLIZER_LIB) $(NETTRACE_LIB) | $(OUTPUT)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) $^ $(SYMBOLIZER_LDLIBS) $(COMMON_LIB) -o $@

UNIT_TESTS += $(OUTPUT)/tests/test_symbolizer $(OUTPUT)/tests/test_views

# tests/unit/test.h's ASSERT_STREQ formats into a 512-byte buffer; gcc's
# truncation warning fires for any char[] argument larger than that.
$(OUTPUT)/obj/tests/unit/test_symbolizer.o $(OUTPUT)/obj/tests/unit/test_views.o: \
	ALL_CFLAGS += -Wno-format-truncation
