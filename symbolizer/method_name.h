/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * method_name.h - the one name of a managed method in every view:
 * "Namespace.Type.Method(args)" (the module and "!" are the caller's), the
 * same whichever source named the method first: the runtime's method events
 * (MethodLoadVerbose, rundown), a perf map line of the runtime or of refrt
 * ("RET [Asm] Type::Method(ARGS)[Tier]").  The sources spell arguments in
 * two ways ("class System.String[]", "value class System.Guid&" in method
 * events, "string[]", "System.Guid&" in perf maps, both in .NET 10's
 * rundown) and some add the code version's tier ("[QuickJitted]"); the name
 * spells them one way and leaves the tier out unless asked for.
 */
#ifndef EBPF_COLLECT_METHOD_NAME_H
#define EBPF_COLLECT_METHOD_NAME_H

#include <stddef.h>

/*
 * "ns.name(args)" from a method event's namespace, name and signature (the
 * arguments are the signature's from its first '('); ns may be empty.
 * Arguments are written readable, as perf maps do: no "class ", "value
 * class " or "valuetype ", System.String and System.Object as string and
 * object, no spaces after commas, no "/ * MT: ... * /" notes.  tiers: keep
 * the signature's trailing "[Tier]".  A name that is a whole perf map line
 * (ns empty) is split first.  Returns the length (snprintf's).
 */
int sym_method_display_name(const char *ns, const char *name, const char *sig, int tiers,
			    char *buf, size_t len);

/* "RET [Asm] Type::Method(ARGS)[Tier]" (CoreCLR and refrt perf maps) ->
 * ns Type, name Method, sig "RET (ARGS)[Tier]", asm Asm, each into a buffer
 * of cap bytes.  1 when full has that shape, else 0. */
int sym_split_perf_name(const char *full, char *ns, char *name, char *sig, char *asm_name,
			size_t cap);

#endif
