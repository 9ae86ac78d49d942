// Allocation sampling for a running service: preload it (`BENCH_SERVICE_ARGS="--import ./bench/heap-sampling.mjs"`),
// then send the service process SIGUSR2 while it is under load. It samples every allocation for
// HEAP_SAMPLING_SECONDS (default 5), the ones garbage collection freed included (Node's --heap-prof keeps only what
// is still alive at exit), and writes /tmp/heap-<pid>.json. HEAP_SAMPLING_MINOR=0 leaves out what a young-generation
// collection freed: what is left is what outlived one (promoted, or still alive), the work of the scavenges.
// `node bench/heap-top.mjs <file>` lists where the bytes were allocated.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const seconds = Number(process.env.HEAP_SAMPLING_SECONDS ?? 5);
const session = new Session();
session.connect();
session.post('HeapProfiler.enable');
process.on('SIGUSR2', () => {
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 2048,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: process.env.HEAP_SAMPLING_MINOR !== '0',
  });
  setTimeout(
    () =>
      session.post('HeapProfiler.stopSampling', (error, result) => {
        const file = `/tmp/heap-${process.pid}.json`;
        writeFileSync(file, JSON.stringify(error ?? result.profile));
        console.error(`heap sampling of ${seconds} s written to ${file}`);
      }),
    seconds * 1000,
  ).unref();
});
