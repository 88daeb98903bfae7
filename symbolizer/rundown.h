/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rundown.h - the rundown-style method and module events that carry
 * frame names into a trace (docs/nettrace-format.md section 11), and the
 * mapping events that carry their files' build ids: their ids and payload
 * encoders and decoders.  Which ones a trace carries, and when,
 * is symbolize.h's.
 */
#ifndef EBPF_COLLECT_RUNDOWN_H
#define EBPF_COLLECT_RUNDOWN_H

#include <stddef.h>
#include <stdint.h>

/* --------------------------------------------- rundown payloads (docs/nettrace-format.md section 11) */

/* CLR event ids (Microsoft-Windows-DotNETRuntime / ...Rundown) */
#define CLR_PROVIDER		"Microsoft-Windows-DotNETRuntime"
#define CLR_RUNDOWN_PROVIDER	"Microsoft-Windows-DotNETRuntimeRundown"
#define CLR_EV_METHOD_LOAD_VERBOSE	143	/* Rundown: MethodDCStartVerbose */
#define CLR_EV_METHOD_UNLOAD_VERBOSE	144	/* Rundown: MethodDCEndVerbose */
#define CLR_EV_MODULE_LOAD		152	/* Rundown: DomainModuleDCEnd */
#define CLR_EV_MODULE_DCSTART		153
#define CLR_EV_MODULE_UNLOAD		153	/* the runtime's (ModuleUnload_V2) */
#define CLR_EV_MODULE_DCEND		154

struct sym_method_rec {
	uint64_t method_id, module_id, start;
	uint32_t size, token, flags;
	const char *ns, *name, *sig;	/* UTF-8 */
	uint16_t clr_instance;
	int has_rejit;			/* v2 */
	uint64_t rejit_id;
};

struct sym_module_rec {
	uint64_t module_id, assembly_id;
	uint32_t flags;
	const char *il_path, *native_path;	/* UTF-8 */
	uint16_t clr_instance;
};

/* Encode as MethodLoadVerbose/MethodDCEndVerbose (v1; v2 when has_rejit) or
 * ModuleDCEnd v2 (PDB fields zero/empty).  Returns the byte size (which
 * may exceed cap: then nothing useful was written) or -EINVAL. */
long sym_encode_method(void *buf, size_t cap, const struct sym_method_rec *m);
long sym_encode_module(void *buf, size_t cap, const struct sym_module_rec *m);
/* Decode; strings are converted into strbuf (UTF-8).  0 or -EINVAL. */
int sym_decode_method(const void *p, size_t len, struct sym_method_rec *m,
		      char *strbuf, size_t strcap);
/* ModuleLoad/ModuleDCEnd (any version) and DomainModuleDCEnd (domain=1). */
int sym_decode_module(const void *p, size_t len, int domain, struct sym_module_rec *m,
		      char *strbuf, size_t strcap);

/* TraceEvent's Universal.System provider: the file mappings and their build
 * ids (docs/nettrace-format.md section 11, "Mappings and build ids").
 * Integers are LEB128, strings a uint16 byte count and UTF-8. */
#define UNIVERSAL_SYSTEM_PROVIDER	"Universal.System"
#define UNIVERSAL_EV_MAPPING		3	/* ProcessMapping */
#define UNIVERSAL_EV_MAPPING_META	5	/* ProcessMappingMetadata */
/* ... and its Universal.Events provider: cpu (a CPU sample) and cswitch (a
 * switch-in), known by name, a LEB128 Value (section 10); the collector's
 * kernel events write them */
#define UNIVERSAL_EVENTS_PROVIDER	"Universal.Events"

struct sym_mapping_rec {
	uint64_t id, start, end, offset, meta_id;
	const char *path;		/* UTF-8 */
};

struct sym_mapping_meta_rec {
	uint64_t id;
	const char *symbol_json, *version_json;	/* UTF-8 */
};

/* Encoders: the byte size (which may exceed cap: then nothing useful was
 * written).  Decoders: strings copied NUL-terminated into strbuf; 0 or
 * -EINVAL. */
long sym_encode_mapping(void *buf, size_t cap, const struct sym_mapping_rec *m);
long sym_encode_mapping_meta(void *buf, size_t cap, const struct sym_mapping_meta_rec *m);
int sym_decode_mapping(const void *p, size_t len, struct sym_mapping_rec *m, char *strbuf,
		       size_t strcap);
int sym_decode_mapping_meta(const void *p, size_t len, struct sym_mapping_meta_rec *m,
			    char *strbuf, size_t strcap);
/* The "build_id" of ProcessMappingMetadata's SymbolMetadata JSON, as
 * written by sym_encode_mapping_meta's callers, into buf ("" if none). */
const char *sym_mapping_build_id(const char *json, char *buf, size_t len);

#endif
