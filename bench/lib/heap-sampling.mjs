// Preloaded into the server under test with BENCH_PROFILE_HEAP=1 (harness.ts): samples every
// allocation, kept or collected, and writes the profile to BENCH_PROFILE as the process exits
// (open it in Chrome DevTools' Memory tab). Unlike `node --heap-prof`, which keeps only what is
// still alive at the end, this shows what makes the garbage collector work.
import fs from "node:fs";
import inspector from "node:inspector";
import path from "node:path";

const session = new inspector.Session();
session.connect();
session.post("HeapProfiler.startSampling", {
  samplingInterval: 32768,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
process.once("exit", () => {
  // A session on the process's own thread answers synchronously: the file is written before exit.
  session.post("HeapProfiler.stopSampling", (err, result) => {
    if (err) return;
    fs.mkdirSync(process.env.BENCH_PROFILE, { recursive: true });
    const file = path.join(process.env.BENCH_PROFILE, `Heap.${process.pid}.heapprofile`);
    fs.writeFileSync(file, JSON.stringify(result.profile));
  });
});
