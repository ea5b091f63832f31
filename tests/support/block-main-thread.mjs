// Preloaded into a store under test (`node --import`): as soon as a worker thread the store
// starts (its start watchdog) is running, the main thread spins for ten minutes, as a native call
// that deadlocked would hold it: no timer, no signal handler runs. Only tests load this file.
import module from "node:module";
import workerThreads from "node:worker_threads";

const spin = () => {
  const end = Date.now() + 10 * 60_000;
  while (Date.now() < end);
};

workerThreads.Worker = class extends workerThreads.Worker {
  constructor(...args) {
    super(...args);
    this.once("online", spin);
  }
};
// `import { Worker } from "node:worker_threads"` sees the class above.
module.syncBuiltinESMExports();
