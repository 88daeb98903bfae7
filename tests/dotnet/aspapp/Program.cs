// The traced app of tests/bench/bench_dotnet_cost.sh: an ASP.NET Core
// minimal API on loopback.  GET /json serializes a small object (allocation,
// so the GC keywords have events to send); GET / returns a short string.
// Prints "READY port" once Kestrel listens, so the bench knows when to load it.
using System;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

public record Item(int Id, string Name, double Price, string[] Tags);

public static class Program
{
	public static void Main(string[] args)
	{
		int port = args.Length > 0 ? int.Parse(args[0]) : 5080;
		var builder = WebApplication.CreateSlimBuilder(args);
		// request logging would be the app's own cost, not the tracer's
		builder.Logging.ClearProviders();
		builder.WebHost.UseUrls($"http://127.0.0.1:{port}");
		var app = builder.Build();
		app.MapGet("/", () => "hello");
		app.MapGet("/json", () => {
			var items = new Item[8];
			for (int i = 0; i < items.Length; i++)
				items[i] = new Item(i, "item-" + i, i * 1.5, new[] { "a", "b", i.ToString() });
			return items;
		});
		app.Lifetime.ApplicationStarted.Register(() => {
			Console.WriteLine($"READY {port}");
			Console.Out.Flush();
		});
		app.Run();
	}
}
