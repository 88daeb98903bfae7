/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* generated from clr-events.man by usdt-gen v1, do not edit */
/* calls every FireEtXplat once (usdt-gen --emit-caller) */

/* With an argument, raises every semaphore first so each event is
 * serialized and fired; exits with the number of failed calls.
 * Arguments: integers 1, NULL pointers, one all-zero struct element. */
#include <stddef.h>

#include "clretw_provider.h"

int main(int argc, char **argv)
{
	int failed = 0;

	(void)argv;
	if (argc > 1) {
		DotNETRuntime_RuntimeInformationStart_semaphore = 1;
		DotNETRuntime_GCTriggered_semaphore = 1;
		DotNETRuntime_GCStart_V2_semaphore = 1;
		DotNETRuntime_GCEnd_V1_semaphore = 1;
		DotNETRuntime_GCHeapStats_V2_semaphore = 1;
		DotNETRuntime_GCAllocationTick_V2_semaphore = 1;
		DotNETRuntime_GCAllocationTick_V3_semaphore = 1;
		DotNETRuntime_GCSuspendEEBegin_V1_semaphore = 1;
		DotNETRuntime_GCSuspendEEEnd_V1_semaphore = 1;
		DotNETRuntime_GCRestartEEBegin_V1_semaphore = 1;
		DotNETRuntime_GCRestartEEEnd_V1_semaphore = 1;
		DotNETRuntime_GCGlobalHeapHistory_V3_semaphore = 1;
		DotNETRuntime_GCDynamicEvent_semaphore = 1;
		DotNETRuntime_BulkType_semaphore = 1;
		DotNETRuntime_MethodJittingStarted_V1_semaphore = 1;
		DotNETRuntime_MethodLoad_V2_semaphore = 1;
		DotNETRuntime_MethodUnload_V2_semaphore = 1;
		DotNETRuntime_MethodLoadVerbose_V2_semaphore = 1;
		DotNETRuntime_MethodUnloadVerbose_V2_semaphore = 1;
		DotNETRuntime_MethodILToNativeMap_semaphore = 1;
		DotNETRuntime_ModuleLoad_V2_semaphore = 1;
		DotNETRuntime_ModuleUnload_V2_semaphore = 1;
		DotNETRuntime_AssemblyLoad_V1_semaphore = 1;
		DotNETRuntime_AssemblyUnload_V1_semaphore = 1;
		DotNETRuntime_DomainModuleLoad_V1_semaphore = 1;
		DotNETRuntime_AppDomainLoad_V1_semaphore = 1;
		DotNETRuntime_AppDomainUnload_V1_semaphore = 1;
		DotNETRuntime_ExceptionThrown_V1_semaphore = 1;
		DotNETRuntime_ExceptionThrownStop_semaphore = 1;
		DotNETRuntime_ExceptionCatchStart_semaphore = 1;
		DotNETRuntime_ExceptionCatchStop_semaphore = 1;
		DotNETRuntime_ExceptionFinallyStart_semaphore = 1;
		DotNETRuntime_ExceptionFinallyStop_semaphore = 1;
		DotNETRuntime_ExceptionFilterStart_semaphore = 1;
		DotNETRuntime_ExceptionFilterStop_semaphore = 1;
		DotNETRuntime_ContentionStart_V1_semaphore = 1;
		DotNETRuntime_ContentionStop_V1_semaphore = 1;
		DotNETRuntime_ThreadPoolWorkerThreadStart_semaphore = 1;
		DotNETRuntime_ThreadPoolWorkerThreadStop_semaphore = 1;
		DotNETRuntime_ThreadPoolWorkerThreadAdjustmentSample_semaphore = 1;
		DotNETRuntime_ThreadPoolWorkerThreadAdjustmentAdjustment_semaphore = 1;
		DotNETRuntime_ThreadPoolWorkerThreadAdjustmentStats_semaphore = 1;
		DotNETRuntime_ThreadCreated_semaphore = 1;
		DotNETRuntime_ThreadTerminated_semaphore = 1;
		DotNETRuntime_CLRStackWalk_semaphore = 1;
		DotNETRuntimeRundown_MethodDCStartVerbose_V1_semaphore = 1;
		DotNETRuntimeRundown_MethodDCEndVerbose_V1_semaphore = 1;
		DotNETRuntimeRundown_MethodDCStartVerbose_V2_semaphore = 1;
		DotNETRuntimeRundown_MethodDCEndVerbose_V2_semaphore = 1;
		DotNETRuntimeRundown_MethodDCStartILToNativeMap_semaphore = 1;
		DotNETRuntimeRundown_MethodDCEndILToNativeMap_semaphore = 1;
		DotNETRuntimeRundown_ModuleDCStart_V2_semaphore = 1;
		DotNETRuntimeRundown_ModuleDCEnd_V2_semaphore = 1;
		DotNETRuntimeRundown_AssemblyDCStart_V1_semaphore = 1;
		DotNETRuntimeRundown_AssemblyDCEnd_V1_semaphore = 1;
		DotNETRuntimeRundown_DomainModuleDCStart_V1_semaphore = 1;
		DotNETRuntimeRundown_DomainModuleDCEnd_V1_semaphore = 1;
		DotNETRuntimeRundown_AppDomainDCStart_V1_semaphore = 1;
		DotNETRuntimeRundown_AppDomainDCEnd_V1_semaphore = 1;
		DotNETRuntimeRundown_DCStartInit_V1_semaphore = 1;
		DotNETRuntimeRundown_DCStartComplete_V1_semaphore = 1;
		DotNETRuntimeRundown_DCEndInit_V1_semaphore = 1;
		DotNETRuntimeRundown_DCEndComplete_V1_semaphore = 1;
		DotNETRuntimeRundown_RuntimeInformationDCStart_semaphore = 1;
	}
	failed += FireEtXplatRuntimeInformationStart(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, NULL, NULL, NULL) != ERROR_SUCCESS;
	failed += FireEtXplatGCTriggered(1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatGCStart_V2(1, 1, 1, 1, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatGCEnd_V1(1, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatGCHeapStats_V2(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatGCAllocationTick_V2(1, 1, 1, 1, NULL, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatGCAllocationTick_V3(1, 1, 1, 1, NULL, NULL, 1, NULL) != ERROR_SUCCESS;
	failed += FireEtXplatGCSuspendEEBegin_V1(1, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatGCSuspendEEEnd_V1(1) != ERROR_SUCCESS;
	failed += FireEtXplatGCRestartEEBegin_V1(1) != ERROR_SUCCESS;
	failed += FireEtXplatGCRestartEEEnd_V1(1) != ERROR_SUCCESS;
	failed += FireEtXplatGCGlobalHeapHistory_V3(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatGCDynamicEvent(NULL, 1, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatBulkType(1, 1, 31, NULL) != ERROR_SUCCESS;
	failed += FireEtXplatMethodJittingStarted_V1(1, 1, 1, 1, NULL, NULL, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatMethodLoad_V2(1, 1, 1, 1, 1, 1, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatMethodUnload_V2(1, 1, 1, 1, 1, 1, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatMethodLoadVerbose_V2(1, 1, 1, 1, 1, 1, NULL, NULL, NULL, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatMethodUnloadVerbose_V2(1, 1, 1, 1, 1, 1, NULL, NULL, NULL, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatMethodILToNativeMap(1, 1, 1, 1, NULL, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatModuleLoad_V2(1, 1, 1, 1, NULL, NULL, 1, NULL, 1, NULL, NULL, 1, NULL) != ERROR_SUCCESS;
	failed += FireEtXplatModuleUnload_V2(1, 1, 1, 1, NULL, NULL, 1, NULL, 1, NULL, NULL, 1, NULL) != ERROR_SUCCESS;
	failed += FireEtXplatAssemblyLoad_V1(1, 1, 1, 1, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatAssemblyUnload_V1(1, 1, 1, 1, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatDomainModuleLoad_V1(1, 1, 1, 1, 1, NULL, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatAppDomainLoad_V1(1, 1, NULL, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatAppDomainUnload_V1(1, 1, NULL, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatExceptionThrown_V1(NULL, NULL, NULL, 1, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatExceptionThrownStop() != ERROR_SUCCESS;
	failed += FireEtXplatExceptionCatchStart(1, 1, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatExceptionCatchStop() != ERROR_SUCCESS;
	failed += FireEtXplatExceptionFinallyStart(1, 1, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatExceptionFinallyStop() != ERROR_SUCCESS;
	failed += FireEtXplatExceptionFilterStart(1, 1, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatExceptionFilterStop() != ERROR_SUCCESS;
	failed += FireEtXplatContentionStart_V1(1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatContentionStop_V1(1, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatThreadPoolWorkerThreadStart(1, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatThreadPoolWorkerThreadStop(1, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatThreadPoolWorkerThreadAdjustmentSample(1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatThreadPoolWorkerThreadAdjustmentAdjustment(1, 1, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatThreadPoolWorkerThreadAdjustmentStats(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatThreadCreated(1, 1, 1, 1, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatThreadTerminated(1, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatCLRStackWalk(1, 1, 1, 1, NULL) != ERROR_SUCCESS;
	failed += FireEtXplatMethodDCStartVerbose_V1(1, 1, 1, 1, 1, 1, NULL, NULL, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatMethodDCEndVerbose_V1(1, 1, 1, 1, 1, 1, NULL, NULL, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatMethodDCStartVerbose_V2(1, 1, 1, 1, 1, 1, NULL, NULL, NULL, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatMethodDCEndVerbose_V2(1, 1, 1, 1, 1, 1, NULL, NULL, NULL, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatMethodDCStartILToNativeMap(1, 1, 1, 1, NULL, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatMethodDCEndILToNativeMap(1, 1, 1, 1, NULL, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatModuleDCStart_V2(1, 1, 1, 1, NULL, NULL, 1, NULL, 1, NULL, NULL, 1, NULL) != ERROR_SUCCESS;
	failed += FireEtXplatModuleDCEnd_V2(1, 1, 1, 1, NULL, NULL, 1, NULL, 1, NULL, NULL, 1, NULL) != ERROR_SUCCESS;
	failed += FireEtXplatAssemblyDCStart_V1(1, 1, 1, 1, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatAssemblyDCEnd_V1(1, 1, 1, 1, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatDomainModuleDCStart_V1(1, 1, 1, 1, 1, NULL, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatDomainModuleDCEnd_V1(1, 1, 1, 1, 1, NULL, NULL, 1) != ERROR_SUCCESS;
	failed += FireEtXplatAppDomainDCStart_V1(1, 1, NULL, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatAppDomainDCEnd_V1(1, 1, NULL, 1, 1) != ERROR_SUCCESS;
	failed += FireEtXplatDCStartInit_V1(1) != ERROR_SUCCESS;
	failed += FireEtXplatDCStartComplete_V1(1) != ERROR_SUCCESS;
	failed += FireEtXplatDCEndInit_V1(1) != ERROR_SUCCESS;
	failed += FireEtXplatDCEndComplete_V1(1) != ERROR_SUCCESS;
	failed += FireEtXplatRuntimeInformationDCStart(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, NULL, NULL, NULL) != ERROR_SUCCESS;
	return failed;
}
