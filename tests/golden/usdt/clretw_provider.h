/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* generated from clr-events.man by usdt-gen v1, do not edit */
/* USDT provider: runtime API (see usdt/README.md) */

#ifndef CLRETW_PROVIDER_H
#define CLRETW_PROVIDER_H

#include <stddef.h>
#include <uchar.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Windows/PAL types of CoreCLR's xplat event API; define CLRETW_NO_WIN_TYPES
 * when the runtime already has them (same sizes required). */
#ifndef CLRETW_NO_WIN_TYPES
typedef int BOOL;			/* win:Boolean is 4 bytes */
typedef unsigned char BYTE;
typedef unsigned int ULONG;
typedef const char16_t *PCWSTR;	/* UTF-16, NUL-terminated */
typedef const char *LPCSTR;
#endif
#ifndef GUID_DEFINED
#define GUID_DEFINED
typedef struct _GUID {
	unsigned int Data1;
	unsigned short Data2;
	unsigned short Data3;
	unsigned char Data4[8];
} GUID;
#endif

#ifndef ERROR_SUCCESS
#define ERROR_SUCCESS 0
#endif
#ifndef ERROR_WRITE_FAULT
#define ERROR_WRITE_FAULT 29
#endif
#ifndef ERROR_INVALID_PARAMETER
#define ERROR_INVALID_PARAMETER 87
#endif

/* Largest payload a probe carries (EventPipe's limit); larger events are
 * dropped, counted in clretw_dropped_oversize, and Fire returns ERROR_WRITE_FAULT. */
#define CLRETW_MAX_PAYLOAD 65535
extern unsigned long long clretw_dropped_oversize;
/* events dropped because a large payload buffer could not be allocated */
extern unsigned long long clretw_dropped_nomem;

/* Activity ids of the calling thread, passed with every event it fires
 * (probe arguments 2 and 3).  NULL clears. */
void EventXplatSetActivityId(const GUID *activity, const GUID *related);

/* Raised (a count, so tracers compose) by a tracer while its uprobes go
 * in or out: the kernel sets a probe's semaphore before its breakpoint and
 * removes its handler before the semaphore, and an event fired in between
 * would look traced to the runtime and reach nobody.  A tracer finds the
 * word by its ELF symbol.  Nonzero: no event fires. */
extern volatile unsigned int clretw_tracer_pause;

/* The untraced path reads the semaphore only; the pause word is read
 * only when a tracer is attached. */
#define CLRETW__SEMA(s) (__builtin_expect(*(volatile const unsigned short *)&(s) != 0, 0) \
	&& __builtin_expect(clretw_tracer_pause == 0, 1))

/*
 * FireEtXplat<Symbol>() is defined twice: here for inlining only (GNU
 * extern inline: never emitted from this header), and out of line in
 * clretw_provider.c, the symbol every unoptimized or indirect call uses.
 * Inlined, a call with nothing attached costs one load and a branch;
 * the arguments go to clretw__fire_<Symbol>() only when traced.
 */
#define CLRETW__INLINE extern __inline__ __attribute__((gnu_inline))

/* one element of BulkType.Values, typed; clretw_pack_BulkType_Values() packs an array
 * of them into the manifest layout for FireEtXplat's Values argument */
typedef struct BulkType_Values {
	unsigned long long TypeID;
	unsigned long long ModuleID;
	unsigned int TypeNameID;
	unsigned int Flags;
	unsigned char CorElementType;
	const char16_t *Name;
	unsigned int TypeParameterCount;
	const unsigned long long *TypeParameters;
} BulkType_Values;

/* Packs count elements into buf (when the result <= cap) and returns
 * the packed size in bytes: pass it as the ElementSize. */
size_t clretw_pack_BulkType_Values(void *buf, size_t cap, const BulkType_Values *elems, unsigned count);

/* ---- Microsoft-Windows-DotNETRuntime {e13c0d23-ccbc-4e12-931b-d9cc2eee27e4}: USDT provider DotNETRuntime ---- */

/* RuntimeInformationStart: id 187 version 0, RuntimeInformation */
extern unsigned short DotNETRuntime_RuntimeInformationStart_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledRuntimeInformationStart(void)
{
	return CLRETW__SEMA(DotNETRuntime_RuntimeInformationStart_semaphore);
}
ULONG clretw__fire_RuntimeInformationStart(
	const unsigned short ClrInstanceID,
	const unsigned short Sku,
	const unsigned short BclMajorVersion,
	const unsigned short BclMinorVersion,
	const unsigned short BclBuildNumber,
	const unsigned short BclQfeNumber,
	const unsigned short VMMajorVersion,
	const unsigned short VMMinorVersion,
	const unsigned short VMBuildNumber,
	const unsigned short VMQfeNumber,
	const unsigned int StartupFlags,
	const unsigned char StartupMode,
	PCWSTR CommandLine,
	const GUID* ComObjectGuid,
	PCWSTR RuntimeDllPath) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatRuntimeInformationStart(
	const unsigned short ClrInstanceID,
	const unsigned short Sku,
	const unsigned short BclMajorVersion,
	const unsigned short BclMinorVersion,
	const unsigned short BclBuildNumber,
	const unsigned short BclQfeNumber,
	const unsigned short VMMajorVersion,
	const unsigned short VMMinorVersion,
	const unsigned short VMBuildNumber,
	const unsigned short VMQfeNumber,
	const unsigned int StartupFlags,
	const unsigned char StartupMode,
	PCWSTR CommandLine,
	const GUID* ComObjectGuid,
	PCWSTR RuntimeDllPath)
{
	if (!CLRETW__SEMA(DotNETRuntime_RuntimeInformationStart_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_RuntimeInformationStart(ClrInstanceID, Sku, BclMajorVersion, BclMinorVersion, BclBuildNumber, BclQfeNumber, VMMajorVersion, VMMinorVersion, VMBuildNumber, VMQfeNumber, StartupFlags, StartupMode, CommandLine, ComObjectGuid, RuntimeDllPath);
}

/* GCTriggered: id 35 version 0, GCTriggered */
extern unsigned short DotNETRuntime_GCTriggered_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledGCTriggered(void)
{
	return CLRETW__SEMA(DotNETRuntime_GCTriggered_semaphore);
}
ULONG clretw__fire_GCTriggered(
	const unsigned int Reason,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatGCTriggered(
	const unsigned int Reason,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_GCTriggered_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_GCTriggered(Reason, ClrInstanceID);
}

/* GCStart_V2: id 1 version 2, GCStart_V2 */
extern unsigned short DotNETRuntime_GCStart_V2_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledGCStart_V2(void)
{
	return CLRETW__SEMA(DotNETRuntime_GCStart_V2_semaphore);
}
ULONG clretw__fire_GCStart_V2(
	const unsigned int Count,
	const unsigned int Depth,
	const unsigned int Reason,
	const unsigned int Type,
	const unsigned short ClrInstanceID,
	const unsigned long long ClientSequenceNumber) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatGCStart_V2(
	const unsigned int Count,
	const unsigned int Depth,
	const unsigned int Reason,
	const unsigned int Type,
	const unsigned short ClrInstanceID,
	const unsigned long long ClientSequenceNumber)
{
	if (!CLRETW__SEMA(DotNETRuntime_GCStart_V2_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_GCStart_V2(Count, Depth, Reason, Type, ClrInstanceID, ClientSequenceNumber);
}

/* GCEnd_V1: id 2 version 1, GCEnd_V1 */
extern unsigned short DotNETRuntime_GCEnd_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledGCEnd_V1(void)
{
	return CLRETW__SEMA(DotNETRuntime_GCEnd_V1_semaphore);
}
ULONG clretw__fire_GCEnd_V1(
	const unsigned int Count,
	const unsigned int Depth,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatGCEnd_V1(
	const unsigned int Count,
	const unsigned int Depth,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_GCEnd_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_GCEnd_V1(Count, Depth, ClrInstanceID);
}

/* GCHeapStats_V2: id 4 version 2, GCHeapStats_V2 */
extern unsigned short DotNETRuntime_GCHeapStats_V2_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledGCHeapStats_V2(void)
{
	return CLRETW__SEMA(DotNETRuntime_GCHeapStats_V2_semaphore);
}
ULONG clretw__fire_GCHeapStats_V2(
	const unsigned long long GenerationSize0,
	const unsigned long long TotalPromotedSize0,
	const unsigned long long GenerationSize1,
	const unsigned long long TotalPromotedSize1,
	const unsigned long long GenerationSize2,
	const unsigned long long TotalPromotedSize2,
	const unsigned long long GenerationSize3,
	const unsigned long long TotalPromotedSize3,
	const unsigned long long FinalizationPromotedSize,
	const unsigned long long FinalizationPromotedCount,
	const unsigned int PinnedObjectCount,
	const unsigned int SinkBlockCount,
	const unsigned int GCHandleCount,
	const unsigned short ClrInstanceID,
	const unsigned long long GenerationSize4,
	const unsigned long long TotalPromotedSize4) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatGCHeapStats_V2(
	const unsigned long long GenerationSize0,
	const unsigned long long TotalPromotedSize0,
	const unsigned long long GenerationSize1,
	const unsigned long long TotalPromotedSize1,
	const unsigned long long GenerationSize2,
	const unsigned long long TotalPromotedSize2,
	const unsigned long long GenerationSize3,
	const unsigned long long TotalPromotedSize3,
	const unsigned long long FinalizationPromotedSize,
	const unsigned long long FinalizationPromotedCount,
	const unsigned int PinnedObjectCount,
	const unsigned int SinkBlockCount,
	const unsigned int GCHandleCount,
	const unsigned short ClrInstanceID,
	const unsigned long long GenerationSize4,
	const unsigned long long TotalPromotedSize4)
{
	if (!CLRETW__SEMA(DotNETRuntime_GCHeapStats_V2_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_GCHeapStats_V2(GenerationSize0, TotalPromotedSize0, GenerationSize1, TotalPromotedSize1, GenerationSize2, TotalPromotedSize2, GenerationSize3, TotalPromotedSize3, FinalizationPromotedSize, FinalizationPromotedCount, PinnedObjectCount, SinkBlockCount, GCHandleCount, ClrInstanceID, GenerationSize4, TotalPromotedSize4);
}

/* GCAllocationTick_V2: id 10 version 2, GCAllocationTick_V2 */
extern unsigned short DotNETRuntime_GCAllocationTick_V2_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledGCAllocationTick_V2(void)
{
	return CLRETW__SEMA(DotNETRuntime_GCAllocationTick_V2_semaphore);
}
ULONG clretw__fire_GCAllocationTick_V2(
	const unsigned int AllocationAmount,
	const unsigned int AllocationKind,
	const unsigned short ClrInstanceID,
	const unsigned long long AllocationAmount64,
	const void* TypeID,
	PCWSTR TypeName,
	const unsigned int HeapIndex) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatGCAllocationTick_V2(
	const unsigned int AllocationAmount,
	const unsigned int AllocationKind,
	const unsigned short ClrInstanceID,
	const unsigned long long AllocationAmount64,
	const void* TypeID,
	PCWSTR TypeName,
	const unsigned int HeapIndex)
{
	if (!CLRETW__SEMA(DotNETRuntime_GCAllocationTick_V2_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_GCAllocationTick_V2(AllocationAmount, AllocationKind, ClrInstanceID, AllocationAmount64, TypeID, TypeName, HeapIndex);
}

/* GCAllocationTick_V3: id 10 version 3, GCAllocationTick_V3 */
extern unsigned short DotNETRuntime_GCAllocationTick_V3_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledGCAllocationTick_V3(void)
{
	return CLRETW__SEMA(DotNETRuntime_GCAllocationTick_V3_semaphore);
}
ULONG clretw__fire_GCAllocationTick_V3(
	const unsigned int AllocationAmount,
	const unsigned int AllocationKind,
	const unsigned short ClrInstanceID,
	const unsigned long long AllocationAmount64,
	const void* TypeID,
	PCWSTR TypeName,
	const unsigned int HeapIndex,
	const void* Address) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatGCAllocationTick_V3(
	const unsigned int AllocationAmount,
	const unsigned int AllocationKind,
	const unsigned short ClrInstanceID,
	const unsigned long long AllocationAmount64,
	const void* TypeID,
	PCWSTR TypeName,
	const unsigned int HeapIndex,
	const void* Address)
{
	if (!CLRETW__SEMA(DotNETRuntime_GCAllocationTick_V3_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_GCAllocationTick_V3(AllocationAmount, AllocationKind, ClrInstanceID, AllocationAmount64, TypeID, TypeName, HeapIndex, Address);
}

/* GCSuspendEEBegin_V1: id 9 version 1, GCSuspendEE_V1 */
extern unsigned short DotNETRuntime_GCSuspendEEBegin_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledGCSuspendEEBegin_V1(void)
{
	return CLRETW__SEMA(DotNETRuntime_GCSuspendEEBegin_V1_semaphore);
}
ULONG clretw__fire_GCSuspendEEBegin_V1(
	const unsigned int Reason,
	const unsigned int Count,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatGCSuspendEEBegin_V1(
	const unsigned int Reason,
	const unsigned int Count,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_GCSuspendEEBegin_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_GCSuspendEEBegin_V1(Reason, Count, ClrInstanceID);
}

/* GCSuspendEEEnd_V1: id 8 version 1, GCNoUserData */
extern unsigned short DotNETRuntime_GCSuspendEEEnd_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledGCSuspendEEEnd_V1(void)
{
	return CLRETW__SEMA(DotNETRuntime_GCSuspendEEEnd_V1_semaphore);
}
ULONG clretw__fire_GCSuspendEEEnd_V1(
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatGCSuspendEEEnd_V1(
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_GCSuspendEEEnd_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_GCSuspendEEEnd_V1(ClrInstanceID);
}

/* GCRestartEEBegin_V1: id 7 version 1, GCNoUserData */
extern unsigned short DotNETRuntime_GCRestartEEBegin_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledGCRestartEEBegin_V1(void)
{
	return CLRETW__SEMA(DotNETRuntime_GCRestartEEBegin_V1_semaphore);
}
ULONG clretw__fire_GCRestartEEBegin_V1(
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatGCRestartEEBegin_V1(
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_GCRestartEEBegin_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_GCRestartEEBegin_V1(ClrInstanceID);
}

/* GCRestartEEEnd_V1: id 3 version 1, GCNoUserData */
extern unsigned short DotNETRuntime_GCRestartEEEnd_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledGCRestartEEEnd_V1(void)
{
	return CLRETW__SEMA(DotNETRuntime_GCRestartEEEnd_V1_semaphore);
}
ULONG clretw__fire_GCRestartEEEnd_V1(
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatGCRestartEEEnd_V1(
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_GCRestartEEEnd_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_GCRestartEEEnd_V1(ClrInstanceID);
}

/* GCGlobalHeapHistory_V3: id 205 version 3, GCGlobalHeap_V3 */
extern unsigned short DotNETRuntime_GCGlobalHeapHistory_V3_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledGCGlobalHeapHistory_V3(void)
{
	return CLRETW__SEMA(DotNETRuntime_GCGlobalHeapHistory_V3_semaphore);
}
ULONG clretw__fire_GCGlobalHeapHistory_V3(
	const unsigned long long FinalYoungestDesired,
	const signed int NumHeaps,
	const unsigned int CondemnedGeneration,
	const unsigned int Gen0ReductionCount,
	const unsigned int Reason,
	const unsigned int GlobalMechanisms,
	const unsigned short ClrInstanceID,
	const unsigned int PauseMode,
	const unsigned int MemoryPressure,
	const unsigned int CondemnReasons0,
	const unsigned int CondemnReasons1) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatGCGlobalHeapHistory_V3(
	const unsigned long long FinalYoungestDesired,
	const signed int NumHeaps,
	const unsigned int CondemnedGeneration,
	const unsigned int Gen0ReductionCount,
	const unsigned int Reason,
	const unsigned int GlobalMechanisms,
	const unsigned short ClrInstanceID,
	const unsigned int PauseMode,
	const unsigned int MemoryPressure,
	const unsigned int CondemnReasons0,
	const unsigned int CondemnReasons1)
{
	if (!CLRETW__SEMA(DotNETRuntime_GCGlobalHeapHistory_V3_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_GCGlobalHeapHistory_V3(FinalYoungestDesired, NumHeaps, CondemnedGeneration, Gen0ReductionCount, Reason, GlobalMechanisms, ClrInstanceID, PauseMode, MemoryPressure, CondemnReasons0, CondemnReasons1);
}

/* GCDynamicEvent: id 39 version 0, GCDynamicEvent */
extern unsigned short DotNETRuntime_GCDynamicEvent_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledGCDynamicEvent(void)
{
	return CLRETW__SEMA(DotNETRuntime_GCDynamicEvent_semaphore);
}
ULONG clretw__fire_GCDynamicEvent(
	PCWSTR Name,
	const unsigned int DataSize,
	const BYTE* Data,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatGCDynamicEvent(
	PCWSTR Name,
	const unsigned int DataSize,
	const BYTE* Data,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_GCDynamicEvent_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_GCDynamicEvent(Name, DataSize, Data, ClrInstanceID);
}

/* BulkType: id 15 version 0, BulkType */
extern unsigned short DotNETRuntime_BulkType_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledBulkType(void)
{
	return CLRETW__SEMA(DotNETRuntime_BulkType_semaphore);
}
ULONG clretw__fire_BulkType(
	const unsigned int Count,
	const unsigned short ClrInstanceID,
	int Values_ElementSize,
	const void* Values) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatBulkType(
	const unsigned int Count,
	const unsigned short ClrInstanceID,
	int Values_ElementSize,
	const void* Values)
{
	if (!CLRETW__SEMA(DotNETRuntime_BulkType_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_BulkType(Count, ClrInstanceID, Values_ElementSize, Values);
}

/* MethodJittingStarted_V1: id 145 version 1, MethodJittingStarted_V1 */
extern unsigned short DotNETRuntime_MethodJittingStarted_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledMethodJittingStarted_V1(void)
{
	return CLRETW__SEMA(DotNETRuntime_MethodJittingStarted_V1_semaphore);
}
ULONG clretw__fire_MethodJittingStarted_V1(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned int MethodToken,
	const unsigned int MethodILSize,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatMethodJittingStarted_V1(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned int MethodToken,
	const unsigned int MethodILSize,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_MethodJittingStarted_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_MethodJittingStarted_V1(MethodID, ModuleID, MethodToken, MethodILSize, MethodNamespace, MethodName, MethodSignature, ClrInstanceID);
}

/* MethodLoad_V2: id 141 version 2, MethodLoadUnload_V2 */
extern unsigned short DotNETRuntime_MethodLoad_V2_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledMethodLoad_V2(void)
{
	return CLRETW__SEMA(DotNETRuntime_MethodLoad_V2_semaphore);
}
ULONG clretw__fire_MethodLoad_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatMethodLoad_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	if (!CLRETW__SEMA(DotNETRuntime_MethodLoad_V2_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_MethodLoad_V2(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, ClrInstanceID, ReJITID);
}

/* MethodUnload_V2: id 142 version 2, MethodLoadUnload_V2 */
extern unsigned short DotNETRuntime_MethodUnload_V2_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledMethodUnload_V2(void)
{
	return CLRETW__SEMA(DotNETRuntime_MethodUnload_V2_semaphore);
}
ULONG clretw__fire_MethodUnload_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatMethodUnload_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	if (!CLRETW__SEMA(DotNETRuntime_MethodUnload_V2_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_MethodUnload_V2(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, ClrInstanceID, ReJITID);
}

/* MethodLoadVerbose_V2: id 143 version 2, MethodLoadUnloadVerbose_V2 */
extern unsigned short DotNETRuntime_MethodLoadVerbose_V2_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledMethodLoadVerbose_V2(void)
{
	return CLRETW__SEMA(DotNETRuntime_MethodLoadVerbose_V2_semaphore);
}
ULONG clretw__fire_MethodLoadVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatMethodLoadVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	if (!CLRETW__SEMA(DotNETRuntime_MethodLoadVerbose_V2_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_MethodLoadVerbose_V2(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
}

/* MethodUnloadVerbose_V2: id 144 version 2, MethodLoadUnloadVerbose_V2 */
extern unsigned short DotNETRuntime_MethodUnloadVerbose_V2_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledMethodUnloadVerbose_V2(void)
{
	return CLRETW__SEMA(DotNETRuntime_MethodUnloadVerbose_V2_semaphore);
}
ULONG clretw__fire_MethodUnloadVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatMethodUnloadVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	if (!CLRETW__SEMA(DotNETRuntime_MethodUnloadVerbose_V2_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_MethodUnloadVerbose_V2(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
}

/* MethodILToNativeMap: id 190 version 0, MethodILToNativeMap */
extern unsigned short DotNETRuntime_MethodILToNativeMap_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledMethodILToNativeMap(void)
{
	return CLRETW__SEMA(DotNETRuntime_MethodILToNativeMap_semaphore);
}
ULONG clretw__fire_MethodILToNativeMap(
	const unsigned long long MethodID,
	const unsigned long long ReJITID,
	const unsigned char MethodExtent,
	const unsigned short CountOfMapEntries,
	const unsigned int* ILOffsets,
	const unsigned int* NativeOffsets,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatMethodILToNativeMap(
	const unsigned long long MethodID,
	const unsigned long long ReJITID,
	const unsigned char MethodExtent,
	const unsigned short CountOfMapEntries,
	const unsigned int* ILOffsets,
	const unsigned int* NativeOffsets,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_MethodILToNativeMap_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_MethodILToNativeMap(MethodID, ReJITID, MethodExtent, CountOfMapEntries, ILOffsets, NativeOffsets, ClrInstanceID);
}

/* ModuleLoad_V2: id 152 version 2, ModuleLoadUnload_V2 */
extern unsigned short DotNETRuntime_ModuleLoad_V2_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledModuleLoad_V2(void)
{
	return CLRETW__SEMA(DotNETRuntime_ModuleLoad_V2_semaphore);
}
ULONG clretw__fire_ModuleLoad_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatModuleLoad_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath)
{
	if (!CLRETW__SEMA(DotNETRuntime_ModuleLoad_V2_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ModuleLoad_V2(ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
}

/* ModuleUnload_V2: id 153 version 2, ModuleLoadUnload_V2 */
extern unsigned short DotNETRuntime_ModuleUnload_V2_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledModuleUnload_V2(void)
{
	return CLRETW__SEMA(DotNETRuntime_ModuleUnload_V2_semaphore);
}
ULONG clretw__fire_ModuleUnload_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatModuleUnload_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath)
{
	if (!CLRETW__SEMA(DotNETRuntime_ModuleUnload_V2_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ModuleUnload_V2(ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
}

/* AssemblyLoad_V1: id 154 version 1, AssemblyLoadUnload_V1 */
extern unsigned short DotNETRuntime_AssemblyLoad_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledAssemblyLoad_V1(void)
{
	return CLRETW__SEMA(DotNETRuntime_AssemblyLoad_V1_semaphore);
}
ULONG clretw__fire_AssemblyLoad_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatAssemblyLoad_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_AssemblyLoad_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_AssemblyLoad_V1(AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
}

/* AssemblyUnload_V1: id 155 version 1, AssemblyLoadUnload_V1 */
extern unsigned short DotNETRuntime_AssemblyUnload_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledAssemblyUnload_V1(void)
{
	return CLRETW__SEMA(DotNETRuntime_AssemblyUnload_V1_semaphore);
}
ULONG clretw__fire_AssemblyUnload_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatAssemblyUnload_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_AssemblyUnload_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_AssemblyUnload_V1(AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
}

/* DomainModuleLoad_V1: id 151 version 1, DomainModuleLoadUnload_V1 */
extern unsigned short DotNETRuntime_DomainModuleLoad_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledDomainModuleLoad_V1(void)
{
	return CLRETW__SEMA(DotNETRuntime_DomainModuleLoad_V1_semaphore);
}
ULONG clretw__fire_DomainModuleLoad_V1(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatDomainModuleLoad_V1(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_DomainModuleLoad_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_DomainModuleLoad_V1(ModuleID, AssemblyID, AppDomainID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID);
}

/* AppDomainLoad_V1: id 156 version 1, AppDomainLoadUnload_V1 */
extern unsigned short DotNETRuntime_AppDomainLoad_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledAppDomainLoad_V1(void)
{
	return CLRETW__SEMA(DotNETRuntime_AppDomainLoad_V1_semaphore);
}
ULONG clretw__fire_AppDomainLoad_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatAppDomainLoad_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_AppDomainLoad_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_AppDomainLoad_V1(AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
}

/* AppDomainUnload_V1: id 157 version 1, AppDomainLoadUnload_V1 */
extern unsigned short DotNETRuntime_AppDomainUnload_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledAppDomainUnload_V1(void)
{
	return CLRETW__SEMA(DotNETRuntime_AppDomainUnload_V1_semaphore);
}
ULONG clretw__fire_AppDomainUnload_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatAppDomainUnload_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_AppDomainUnload_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_AppDomainUnload_V1(AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
}

/* ExceptionThrown_V1: id 80 version 1, Exception */
extern unsigned short DotNETRuntime_ExceptionThrown_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledExceptionThrown_V1(void)
{
	return CLRETW__SEMA(DotNETRuntime_ExceptionThrown_V1_semaphore);
}
ULONG clretw__fire_ExceptionThrown_V1(
	PCWSTR ExceptionType,
	PCWSTR ExceptionMessage,
	const void* ExceptionEIP,
	const unsigned int ExceptionHRESULT,
	const unsigned short ExceptionFlags,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatExceptionThrown_V1(
	PCWSTR ExceptionType,
	PCWSTR ExceptionMessage,
	const void* ExceptionEIP,
	const unsigned int ExceptionHRESULT,
	const unsigned short ExceptionFlags,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_ExceptionThrown_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ExceptionThrown_V1(ExceptionType, ExceptionMessage, ExceptionEIP, ExceptionHRESULT, ExceptionFlags, ClrInstanceID);
}

/* ExceptionThrownStop: id 256 version 0, no payload */
extern unsigned short DotNETRuntime_ExceptionThrownStop_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledExceptionThrownStop(void)
{
	return CLRETW__SEMA(DotNETRuntime_ExceptionThrownStop_semaphore);
}
ULONG clretw__fire_ExceptionThrownStop(void) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatExceptionThrownStop(void)
{
	if (!CLRETW__SEMA(DotNETRuntime_ExceptionThrownStop_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ExceptionThrownStop();
}

/* ExceptionCatchStart: id 250 version 0, ExceptionHandling */
extern unsigned short DotNETRuntime_ExceptionCatchStart_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledExceptionCatchStart(void)
{
	return CLRETW__SEMA(DotNETRuntime_ExceptionCatchStart_semaphore);
}
ULONG clretw__fire_ExceptionCatchStart(
	const unsigned long long EntryEIP,
	const unsigned long long MethodID,
	PCWSTR MethodName,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatExceptionCatchStart(
	const unsigned long long EntryEIP,
	const unsigned long long MethodID,
	PCWSTR MethodName,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_ExceptionCatchStart_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ExceptionCatchStart(EntryEIP, MethodID, MethodName, ClrInstanceID);
}

/* ExceptionCatchStop: id 251 version 0, no payload */
extern unsigned short DotNETRuntime_ExceptionCatchStop_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledExceptionCatchStop(void)
{
	return CLRETW__SEMA(DotNETRuntime_ExceptionCatchStop_semaphore);
}
ULONG clretw__fire_ExceptionCatchStop(void) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatExceptionCatchStop(void)
{
	if (!CLRETW__SEMA(DotNETRuntime_ExceptionCatchStop_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ExceptionCatchStop();
}

/* ExceptionFinallyStart: id 252 version 0, ExceptionHandling */
extern unsigned short DotNETRuntime_ExceptionFinallyStart_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledExceptionFinallyStart(void)
{
	return CLRETW__SEMA(DotNETRuntime_ExceptionFinallyStart_semaphore);
}
ULONG clretw__fire_ExceptionFinallyStart(
	const unsigned long long EntryEIP,
	const unsigned long long MethodID,
	PCWSTR MethodName,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatExceptionFinallyStart(
	const unsigned long long EntryEIP,
	const unsigned long long MethodID,
	PCWSTR MethodName,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_ExceptionFinallyStart_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ExceptionFinallyStart(EntryEIP, MethodID, MethodName, ClrInstanceID);
}

/* ExceptionFinallyStop: id 253 version 0, no payload */
extern unsigned short DotNETRuntime_ExceptionFinallyStop_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledExceptionFinallyStop(void)
{
	return CLRETW__SEMA(DotNETRuntime_ExceptionFinallyStop_semaphore);
}
ULONG clretw__fire_ExceptionFinallyStop(void) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatExceptionFinallyStop(void)
{
	if (!CLRETW__SEMA(DotNETRuntime_ExceptionFinallyStop_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ExceptionFinallyStop();
}

/* ExceptionFilterStart: id 254 version 0, ExceptionHandling */
extern unsigned short DotNETRuntime_ExceptionFilterStart_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledExceptionFilterStart(void)
{
	return CLRETW__SEMA(DotNETRuntime_ExceptionFilterStart_semaphore);
}
ULONG clretw__fire_ExceptionFilterStart(
	const unsigned long long EntryEIP,
	const unsigned long long MethodID,
	PCWSTR MethodName,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatExceptionFilterStart(
	const unsigned long long EntryEIP,
	const unsigned long long MethodID,
	PCWSTR MethodName,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_ExceptionFilterStart_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ExceptionFilterStart(EntryEIP, MethodID, MethodName, ClrInstanceID);
}

/* ExceptionFilterStop: id 255 version 0, no payload */
extern unsigned short DotNETRuntime_ExceptionFilterStop_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledExceptionFilterStop(void)
{
	return CLRETW__SEMA(DotNETRuntime_ExceptionFilterStop_semaphore);
}
ULONG clretw__fire_ExceptionFilterStop(void) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatExceptionFilterStop(void)
{
	if (!CLRETW__SEMA(DotNETRuntime_ExceptionFilterStop_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ExceptionFilterStop();
}

/* ContentionStart_V1: id 81 version 1, Contention */
extern unsigned short DotNETRuntime_ContentionStart_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledContentionStart_V1(void)
{
	return CLRETW__SEMA(DotNETRuntime_ContentionStart_V1_semaphore);
}
ULONG clretw__fire_ContentionStart_V1(
	const unsigned char ContentionFlags,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatContentionStart_V1(
	const unsigned char ContentionFlags,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_ContentionStart_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ContentionStart_V1(ContentionFlags, ClrInstanceID);
}

/* ContentionStop_V1: id 91 version 1, ContentionStop_V1 */
extern unsigned short DotNETRuntime_ContentionStop_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledContentionStop_V1(void)
{
	return CLRETW__SEMA(DotNETRuntime_ContentionStop_V1_semaphore);
}
ULONG clretw__fire_ContentionStop_V1(
	const unsigned char ContentionFlags,
	const unsigned short ClrInstanceID,
	const double DurationNs) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatContentionStop_V1(
	const unsigned char ContentionFlags,
	const unsigned short ClrInstanceID,
	const double DurationNs)
{
	if (!CLRETW__SEMA(DotNETRuntime_ContentionStop_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ContentionStop_V1(ContentionFlags, ClrInstanceID, DurationNs);
}

/* ThreadPoolWorkerThreadStart: id 50 version 0, ThreadPoolWorkerThread */
extern unsigned short DotNETRuntime_ThreadPoolWorkerThreadStart_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledThreadPoolWorkerThreadStart(void)
{
	return CLRETW__SEMA(DotNETRuntime_ThreadPoolWorkerThreadStart_semaphore);
}
ULONG clretw__fire_ThreadPoolWorkerThreadStart(
	const unsigned int ActiveWorkerThreadCount,
	const unsigned int RetiredWorkerThreadCount,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatThreadPoolWorkerThreadStart(
	const unsigned int ActiveWorkerThreadCount,
	const unsigned int RetiredWorkerThreadCount,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_ThreadPoolWorkerThreadStart_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ThreadPoolWorkerThreadStart(ActiveWorkerThreadCount, RetiredWorkerThreadCount, ClrInstanceID);
}

/* ThreadPoolWorkerThreadStop: id 51 version 0, ThreadPoolWorkerThread */
extern unsigned short DotNETRuntime_ThreadPoolWorkerThreadStop_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledThreadPoolWorkerThreadStop(void)
{
	return CLRETW__SEMA(DotNETRuntime_ThreadPoolWorkerThreadStop_semaphore);
}
ULONG clretw__fire_ThreadPoolWorkerThreadStop(
	const unsigned int ActiveWorkerThreadCount,
	const unsigned int RetiredWorkerThreadCount,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatThreadPoolWorkerThreadStop(
	const unsigned int ActiveWorkerThreadCount,
	const unsigned int RetiredWorkerThreadCount,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_ThreadPoolWorkerThreadStop_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ThreadPoolWorkerThreadStop(ActiveWorkerThreadCount, RetiredWorkerThreadCount, ClrInstanceID);
}

/* ThreadPoolWorkerThreadAdjustmentSample: id 54 version 0, ThreadPoolWorkerThreadAdjustmentSample */
extern unsigned short DotNETRuntime_ThreadPoolWorkerThreadAdjustmentSample_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledThreadPoolWorkerThreadAdjustmentSample(void)
{
	return CLRETW__SEMA(DotNETRuntime_ThreadPoolWorkerThreadAdjustmentSample_semaphore);
}
ULONG clretw__fire_ThreadPoolWorkerThreadAdjustmentSample(
	const double Throughput,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatThreadPoolWorkerThreadAdjustmentSample(
	const double Throughput,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_ThreadPoolWorkerThreadAdjustmentSample_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ThreadPoolWorkerThreadAdjustmentSample(Throughput, ClrInstanceID);
}

/* ThreadPoolWorkerThreadAdjustmentAdjustment: id 55 version 0, ThreadPoolWorkerThreadAdjustmentAdjustment */
extern unsigned short DotNETRuntime_ThreadPoolWorkerThreadAdjustmentAdjustment_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledThreadPoolWorkerThreadAdjustmentAdjustment(void)
{
	return CLRETW__SEMA(DotNETRuntime_ThreadPoolWorkerThreadAdjustmentAdjustment_semaphore);
}
ULONG clretw__fire_ThreadPoolWorkerThreadAdjustmentAdjustment(
	const double AverageThroughput,
	const unsigned int NewWorkerThreadCount,
	const unsigned int Reason,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatThreadPoolWorkerThreadAdjustmentAdjustment(
	const double AverageThroughput,
	const unsigned int NewWorkerThreadCount,
	const unsigned int Reason,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_ThreadPoolWorkerThreadAdjustmentAdjustment_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ThreadPoolWorkerThreadAdjustmentAdjustment(AverageThroughput, NewWorkerThreadCount, Reason, ClrInstanceID);
}

/* ThreadPoolWorkerThreadAdjustmentStats: id 56 version 0, ThreadPoolWorkerThreadAdjustmentStats */
extern unsigned short DotNETRuntime_ThreadPoolWorkerThreadAdjustmentStats_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledThreadPoolWorkerThreadAdjustmentStats(void)
{
	return CLRETW__SEMA(DotNETRuntime_ThreadPoolWorkerThreadAdjustmentStats_semaphore);
}
ULONG clretw__fire_ThreadPoolWorkerThreadAdjustmentStats(
	const double Duration,
	const double Throughput,
	const double ThreadWave,
	const double ThroughputWave,
	const double ThroughputErrorEstimate,
	const double AverageThroughputErrorEstimate,
	const double ThroughputRatio,
	const double Confidence,
	const double NewControlSetting,
	const unsigned short NewThreadWaveMagnitude,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatThreadPoolWorkerThreadAdjustmentStats(
	const double Duration,
	const double Throughput,
	const double ThreadWave,
	const double ThroughputWave,
	const double ThroughputErrorEstimate,
	const double AverageThroughputErrorEstimate,
	const double ThroughputRatio,
	const double Confidence,
	const double NewControlSetting,
	const unsigned short NewThreadWaveMagnitude,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_ThreadPoolWorkerThreadAdjustmentStats_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ThreadPoolWorkerThreadAdjustmentStats(Duration, Throughput, ThreadWave, ThroughputWave, ThroughputErrorEstimate, AverageThroughputErrorEstimate, ThroughputRatio, Confidence, NewControlSetting, NewThreadWaveMagnitude, ClrInstanceID);
}

/* ThreadCreated: id 85 version 0, ThreadCreated */
extern unsigned short DotNETRuntime_ThreadCreated_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledThreadCreated(void)
{
	return CLRETW__SEMA(DotNETRuntime_ThreadCreated_semaphore);
}
ULONG clretw__fire_ThreadCreated(
	const unsigned long long ManagedThreadID,
	const unsigned long long AppDomainID,
	const unsigned int Flags,
	const unsigned int ManagedThreadIndex,
	const unsigned int OSThreadID,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatThreadCreated(
	const unsigned long long ManagedThreadID,
	const unsigned long long AppDomainID,
	const unsigned int Flags,
	const unsigned int ManagedThreadIndex,
	const unsigned int OSThreadID,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_ThreadCreated_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ThreadCreated(ManagedThreadID, AppDomainID, Flags, ManagedThreadIndex, OSThreadID, ClrInstanceID);
}

/* ThreadTerminated: id 86 version 0, ThreadTerminatedOrTransition */
extern unsigned short DotNETRuntime_ThreadTerminated_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledThreadTerminated(void)
{
	return CLRETW__SEMA(DotNETRuntime_ThreadTerminated_semaphore);
}
ULONG clretw__fire_ThreadTerminated(
	const unsigned long long ManagedThreadID,
	const unsigned long long AppDomainID,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatThreadTerminated(
	const unsigned long long ManagedThreadID,
	const unsigned long long AppDomainID,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntime_ThreadTerminated_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ThreadTerminated(ManagedThreadID, AppDomainID, ClrInstanceID);
}

/* CLRStackWalk: id 82 version 0, ClrStackWalk */
extern unsigned short DotNETRuntime_CLRStackWalk_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledCLRStackWalk(void)
{
	return CLRETW__SEMA(DotNETRuntime_CLRStackWalk_semaphore);
}
ULONG clretw__fire_CLRStackWalk(
	const unsigned short ClrInstanceID,
	const unsigned char Reserved1,
	const unsigned char Reserved2,
	const unsigned int FrameCount,
	const void** Stack) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatCLRStackWalk(
	const unsigned short ClrInstanceID,
	const unsigned char Reserved1,
	const unsigned char Reserved2,
	const unsigned int FrameCount,
	const void** Stack)
{
	if (!CLRETW__SEMA(DotNETRuntime_CLRStackWalk_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_CLRStackWalk(ClrInstanceID, Reserved1, Reserved2, FrameCount, Stack);
}

/* ---- Microsoft-Windows-DotNETRuntimeRundown {a669021c-c450-4609-a035-5af59af4df18}: USDT provider DotNETRuntimeRundown ---- */

/* MethodDCStartVerbose_V1: id 143 version 1, MethodLoadUnloadRundownVerbose_V1 */
extern unsigned short DotNETRuntimeRundown_MethodDCStartVerbose_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledMethodDCStartVerbose_V1(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_MethodDCStartVerbose_V1_semaphore);
}
ULONG clretw__fire_MethodDCStartVerbose_V1(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatMethodDCStartVerbose_V1(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_MethodDCStartVerbose_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_MethodDCStartVerbose_V1(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID);
}

/* MethodDCEndVerbose_V1: id 144 version 1, MethodLoadUnloadRundownVerbose_V1 */
extern unsigned short DotNETRuntimeRundown_MethodDCEndVerbose_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledMethodDCEndVerbose_V1(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_MethodDCEndVerbose_V1_semaphore);
}
ULONG clretw__fire_MethodDCEndVerbose_V1(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatMethodDCEndVerbose_V1(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_MethodDCEndVerbose_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_MethodDCEndVerbose_V1(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID);
}

/* MethodDCStartVerbose_V2: id 143 version 2, MethodLoadUnloadRundownVerbose_V2 */
extern unsigned short DotNETRuntimeRundown_MethodDCStartVerbose_V2_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledMethodDCStartVerbose_V2(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_MethodDCStartVerbose_V2_semaphore);
}
ULONG clretw__fire_MethodDCStartVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatMethodDCStartVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_MethodDCStartVerbose_V2_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_MethodDCStartVerbose_V2(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
}

/* MethodDCEndVerbose_V2: id 144 version 2, MethodLoadUnloadRundownVerbose_V2 */
extern unsigned short DotNETRuntimeRundown_MethodDCEndVerbose_V2_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledMethodDCEndVerbose_V2(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_MethodDCEndVerbose_V2_semaphore);
}
ULONG clretw__fire_MethodDCEndVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatMethodDCEndVerbose_V2(
	const unsigned long long MethodID,
	const unsigned long long ModuleID,
	const unsigned long long MethodStartAddress,
	const unsigned int MethodSize,
	const unsigned int MethodToken,
	const unsigned int MethodFlags,
	PCWSTR MethodNamespace,
	PCWSTR MethodName,
	PCWSTR MethodSignature,
	const unsigned short ClrInstanceID,
	const unsigned long long ReJITID)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_MethodDCEndVerbose_V2_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_MethodDCEndVerbose_V2(MethodID, ModuleID, MethodStartAddress, MethodSize, MethodToken, MethodFlags, MethodNamespace, MethodName, MethodSignature, ClrInstanceID, ReJITID);
}

/* MethodDCStartILToNativeMap: id 149 version 0, MethodILToNativeMapRundown */
extern unsigned short DotNETRuntimeRundown_MethodDCStartILToNativeMap_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledMethodDCStartILToNativeMap(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_MethodDCStartILToNativeMap_semaphore);
}
ULONG clretw__fire_MethodDCStartILToNativeMap(
	const unsigned long long MethodID,
	const unsigned long long ReJITID,
	const unsigned char MethodExtent,
	const unsigned short CountOfMapEntries,
	const unsigned int* ILOffsets,
	const unsigned int* NativeOffsets,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatMethodDCStartILToNativeMap(
	const unsigned long long MethodID,
	const unsigned long long ReJITID,
	const unsigned char MethodExtent,
	const unsigned short CountOfMapEntries,
	const unsigned int* ILOffsets,
	const unsigned int* NativeOffsets,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_MethodDCStartILToNativeMap_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_MethodDCStartILToNativeMap(MethodID, ReJITID, MethodExtent, CountOfMapEntries, ILOffsets, NativeOffsets, ClrInstanceID);
}

/* MethodDCEndILToNativeMap: id 150 version 0, MethodILToNativeMapRundown */
extern unsigned short DotNETRuntimeRundown_MethodDCEndILToNativeMap_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledMethodDCEndILToNativeMap(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_MethodDCEndILToNativeMap_semaphore);
}
ULONG clretw__fire_MethodDCEndILToNativeMap(
	const unsigned long long MethodID,
	const unsigned long long ReJITID,
	const unsigned char MethodExtent,
	const unsigned short CountOfMapEntries,
	const unsigned int* ILOffsets,
	const unsigned int* NativeOffsets,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatMethodDCEndILToNativeMap(
	const unsigned long long MethodID,
	const unsigned long long ReJITID,
	const unsigned char MethodExtent,
	const unsigned short CountOfMapEntries,
	const unsigned int* ILOffsets,
	const unsigned int* NativeOffsets,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_MethodDCEndILToNativeMap_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_MethodDCEndILToNativeMap(MethodID, ReJITID, MethodExtent, CountOfMapEntries, ILOffsets, NativeOffsets, ClrInstanceID);
}

/* ModuleDCStart_V2: id 153 version 2, ModuleLoadUnloadRundown_V2 */
extern unsigned short DotNETRuntimeRundown_ModuleDCStart_V2_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledModuleDCStart_V2(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_ModuleDCStart_V2_semaphore);
}
ULONG clretw__fire_ModuleDCStart_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatModuleDCStart_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_ModuleDCStart_V2_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ModuleDCStart_V2(ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
}

/* ModuleDCEnd_V2: id 154 version 2, ModuleLoadUnloadRundown_V2 */
extern unsigned short DotNETRuntimeRundown_ModuleDCEnd_V2_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledModuleDCEnd_V2(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_ModuleDCEnd_V2_semaphore);
}
ULONG clretw__fire_ModuleDCEnd_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatModuleDCEnd_V2(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID,
	const GUID* ManagedPdbSignature,
	const unsigned int ManagedPdbAge,
	PCWSTR ManagedPdbBuildPath,
	const GUID* NativePdbSignature,
	const unsigned int NativePdbAge,
	PCWSTR NativePdbBuildPath)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_ModuleDCEnd_V2_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_ModuleDCEnd_V2(ModuleID, AssemblyID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID, ManagedPdbSignature, ManagedPdbAge, ManagedPdbBuildPath, NativePdbSignature, NativePdbAge, NativePdbBuildPath);
}

/* AssemblyDCStart_V1: id 155 version 1, AssemblyLoadUnloadRundown_V1 */
extern unsigned short DotNETRuntimeRundown_AssemblyDCStart_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledAssemblyDCStart_V1(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_AssemblyDCStart_V1_semaphore);
}
ULONG clretw__fire_AssemblyDCStart_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatAssemblyDCStart_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_AssemblyDCStart_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_AssemblyDCStart_V1(AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
}

/* AssemblyDCEnd_V1: id 156 version 1, AssemblyLoadUnloadRundown_V1 */
extern unsigned short DotNETRuntimeRundown_AssemblyDCEnd_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledAssemblyDCEnd_V1(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_AssemblyDCEnd_V1_semaphore);
}
ULONG clretw__fire_AssemblyDCEnd_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatAssemblyDCEnd_V1(
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned long long BindingID,
	const unsigned int AssemblyFlags,
	PCWSTR FullyQualifiedAssemblyName,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_AssemblyDCEnd_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_AssemblyDCEnd_V1(AssemblyID, AppDomainID, BindingID, AssemblyFlags, FullyQualifiedAssemblyName, ClrInstanceID);
}

/* DomainModuleDCStart_V1: id 151 version 1, DomainModuleLoadUnloadRundown_V1 */
extern unsigned short DotNETRuntimeRundown_DomainModuleDCStart_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledDomainModuleDCStart_V1(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_DomainModuleDCStart_V1_semaphore);
}
ULONG clretw__fire_DomainModuleDCStart_V1(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatDomainModuleDCStart_V1(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_DomainModuleDCStart_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_DomainModuleDCStart_V1(ModuleID, AssemblyID, AppDomainID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID);
}

/* DomainModuleDCEnd_V1: id 152 version 1, DomainModuleLoadUnloadRundown_V1 */
extern unsigned short DotNETRuntimeRundown_DomainModuleDCEnd_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledDomainModuleDCEnd_V1(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_DomainModuleDCEnd_V1_semaphore);
}
ULONG clretw__fire_DomainModuleDCEnd_V1(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatDomainModuleDCEnd_V1(
	const unsigned long long ModuleID,
	const unsigned long long AssemblyID,
	const unsigned long long AppDomainID,
	const unsigned int ModuleFlags,
	const unsigned int Reserved1,
	PCWSTR ModuleILPath,
	PCWSTR ModuleNativePath,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_DomainModuleDCEnd_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_DomainModuleDCEnd_V1(ModuleID, AssemblyID, AppDomainID, ModuleFlags, Reserved1, ModuleILPath, ModuleNativePath, ClrInstanceID);
}

/* AppDomainDCStart_V1: id 157 version 1, AppDomainLoadUnloadRundown_V1 */
extern unsigned short DotNETRuntimeRundown_AppDomainDCStart_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledAppDomainDCStart_V1(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_AppDomainDCStart_V1_semaphore);
}
ULONG clretw__fire_AppDomainDCStart_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatAppDomainDCStart_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_AppDomainDCStart_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_AppDomainDCStart_V1(AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
}

/* AppDomainDCEnd_V1: id 158 version 1, AppDomainLoadUnloadRundown_V1 */
extern unsigned short DotNETRuntimeRundown_AppDomainDCEnd_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledAppDomainDCEnd_V1(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_AppDomainDCEnd_V1_semaphore);
}
ULONG clretw__fire_AppDomainDCEnd_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatAppDomainDCEnd_V1(
	const unsigned long long AppDomainID,
	const unsigned int AppDomainFlags,
	PCWSTR AppDomainName,
	const unsigned int AppDomainIndex,
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_AppDomainDCEnd_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_AppDomainDCEnd_V1(AppDomainID, AppDomainFlags, AppDomainName, AppDomainIndex, ClrInstanceID);
}

/* DCStartInit_V1: id 147 version 1, DCStartEnd */
extern unsigned short DotNETRuntimeRundown_DCStartInit_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledDCStartInit_V1(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_DCStartInit_V1_semaphore);
}
ULONG clretw__fire_DCStartInit_V1(
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatDCStartInit_V1(
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_DCStartInit_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_DCStartInit_V1(ClrInstanceID);
}

/* DCStartComplete_V1: id 145 version 1, DCStartEnd */
extern unsigned short DotNETRuntimeRundown_DCStartComplete_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledDCStartComplete_V1(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_DCStartComplete_V1_semaphore);
}
ULONG clretw__fire_DCStartComplete_V1(
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatDCStartComplete_V1(
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_DCStartComplete_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_DCStartComplete_V1(ClrInstanceID);
}

/* DCEndInit_V1: id 148 version 1, DCStartEnd */
extern unsigned short DotNETRuntimeRundown_DCEndInit_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledDCEndInit_V1(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_DCEndInit_V1_semaphore);
}
ULONG clretw__fire_DCEndInit_V1(
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatDCEndInit_V1(
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_DCEndInit_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_DCEndInit_V1(ClrInstanceID);
}

/* DCEndComplete_V1: id 146 version 1, DCStartEnd */
extern unsigned short DotNETRuntimeRundown_DCEndComplete_V1_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledDCEndComplete_V1(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_DCEndComplete_V1_semaphore);
}
ULONG clretw__fire_DCEndComplete_V1(
	const unsigned short ClrInstanceID) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatDCEndComplete_V1(
	const unsigned short ClrInstanceID)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_DCEndComplete_V1_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_DCEndComplete_V1(ClrInstanceID);
}

/* RuntimeInformationDCStart: id 187 version 0, RuntimeInformationRundown */
extern unsigned short DotNETRuntimeRundown_RuntimeInformationDCStart_semaphore __attribute__((visibility("hidden")));
static inline BOOL EventXplatEnabledRuntimeInformationDCStart(void)
{
	return CLRETW__SEMA(DotNETRuntimeRundown_RuntimeInformationDCStart_semaphore);
}
ULONG clretw__fire_RuntimeInformationDCStart(
	const unsigned short ClrInstanceID,
	const unsigned short Sku,
	const unsigned short BclMajorVersion,
	const unsigned short BclMinorVersion,
	const unsigned short BclBuildNumber,
	const unsigned short BclQfeNumber,
	const unsigned short VMMajorVersion,
	const unsigned short VMMinorVersion,
	const unsigned short VMBuildNumber,
	const unsigned short VMQfeNumber,
	const unsigned int StartupFlags,
	const unsigned char StartupMode,
	PCWSTR CommandLine,
	const GUID* ComObjectGuid,
	PCWSTR RuntimeDllPath) __attribute__((cold, visibility("hidden")));
CLRETW__INLINE ULONG FireEtXplatRuntimeInformationDCStart(
	const unsigned short ClrInstanceID,
	const unsigned short Sku,
	const unsigned short BclMajorVersion,
	const unsigned short BclMinorVersion,
	const unsigned short BclBuildNumber,
	const unsigned short BclQfeNumber,
	const unsigned short VMMajorVersion,
	const unsigned short VMMinorVersion,
	const unsigned short VMBuildNumber,
	const unsigned short VMQfeNumber,
	const unsigned int StartupFlags,
	const unsigned char StartupMode,
	PCWSTR CommandLine,
	const GUID* ComObjectGuid,
	PCWSTR RuntimeDllPath)
{
	if (!CLRETW__SEMA(DotNETRuntimeRundown_RuntimeInformationDCStart_semaphore))
		return ERROR_SUCCESS;
	return clretw__fire_RuntimeInformationDCStart(ClrInstanceID, Sku, BclMajorVersion, BclMinorVersion, BclBuildNumber, BclQfeNumber, VMMajorVersion, VMMinorVersion, VMBuildNumber, VMQfeNumber, StartupFlags, StartupMode, CommandLine, ComObjectGuid, RuntimeDllPath);
}

#ifdef __cplusplus
}
#endif

#endif /* CLRETW_PROVIDER_H */
