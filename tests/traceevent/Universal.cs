// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// --universal: what TraceEvent 4's TraceLog makes of a trace's
// Universal.Events cpu and cswitch events, the views PerfView opens for
// them ("CPU" and "Thread Time"):
//   cpu, cswitch     events per "PID/TID", through TraceEvent's own
//                    UniversalEventsTraceEventParser on the TraceLog's events
//   cpu_value, cswitch_value  their Value fields summed (cswitch: ns off CPU)
//   top_frames       the leaf frame of each cpu stack as TraceLog names it
//                    ("MODULE!METHOD"), with counts, the most first
//   thread_cpu_ms    TraceLog's per-thread CPU time (TraceThread.CPUMSec:
//                    cpu events times the trace's sampling interval)
//   thread_time      ThreadTimeStackComputer's samples (PerfView's Thread
//                    Time view) summed by their leaf pseudo-frame: CPU_TIME,
//                    BLOCKED_TIME, ... in ms
using System.Text.Json.Nodes;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.Parsers;
using Microsoft.Diagnostics.Tracing.Parsers.Universal.Events;
using Microsoft.Diagnostics.Tracing.Stacks;

namespace TraceCheck;

static class Universal
{
	static string Thread(TraceEvent e) => $"{e.ProcessID}/{e.ThreadID}";

	static void Bump(SortedDictionary<string, long> d, string k, long n = 1) =>
		d[k] = d.TryGetValue(k, out long v) ? v + n : n;

	// The leaf frame of an event's stack, named as --sample-stacks names it.
	static string Leaf(TraceLog log, TraceEvent e)
	{
		var i = e.CallStackIndex();
		return i == CallStackIndex.Invalid ? "(no stack)" : Stacks.FrameName(log, i);
	}

	static JsonObject Counts(IEnumerable<KeyValuePair<string, long>> kvs)
	{
		var o = new JsonObject();
		foreach (var kv in kvs)
			o[kv.Key] = kv.Value;
		return o;
	}

	public static JsonObject Check(TraceLog log, int top)
	{
		var cpu = new SortedDictionary<string, long>(StringComparer.Ordinal);
		var cswitch = new SortedDictionary<string, long>(StringComparer.Ordinal);
		var leaves = new Dictionary<string, long>();
		ulong cpuValue = 0, cswitchValue = 0;
		var src = log.Events.GetSource();
		var parser = new UniversalEventsTraceEventParser(src);
		parser.cpu += e => {
			Bump(cpu, Thread(e));
			cpuValue += e.Value;
			leaves[Leaf(log, e)] = leaves.TryGetValue(Leaf(log, e), out long n) ? n + 1 : 1;
		};
		parser.cswitch += e => {
			Bump(cswitch, Thread(e));
			cswitchValue += e.Value;
		};
		src.Process();

		var cpuMs = new JsonObject();
		foreach (var t in log.Threads)
			if (t.CPUMSec > 0)
				cpuMs[$"{t.Process.ProcessID}/{t.ThreadID}"] = Math.Round(t.CPUMSec, 3);

		// PerfView's Thread Time view: the computer adds a pseudo-frame
		// (CPU_TIME, BLOCKED_TIME, ...) as the leaf of every sample
		var byState = new SortedDictionary<string, double>(StringComparer.Ordinal);
		var stacks = new MutableTraceEventStackSource(log);
		new ThreadTimeStackComputer(log, null!).GenerateThreadTimeStacks(stacks);
		stacks.ForEach(s => {
			string leaf = stacks.GetFrameName(stacks.GetFrameIndex(s.StackIndex), false);
			byState[leaf] = (byState.TryGetValue(leaf, out double v) ? v : 0) + s.Metric;
		});
		var threadTime = new JsonObject();
		foreach (var kv in byState)
			threadTime[kv.Key] = Math.Round(kv.Value, 3);

		return new JsonObject {
			["cpu"] = Counts(cpu),
			["cswitch"] = Counts(cswitch),
			["cpu_value"] = cpuValue,
			["cswitch_value"] = cswitchValue,
			["top_frames"] = Counts(leaves.OrderByDescending(kv => kv.Value)
				.ThenBy(kv => kv.Key, StringComparer.Ordinal).Take(top)),
			["thread_cpu_ms"] = cpuMs,
			["thread_time"] = threadTime,
		};
	}
}
