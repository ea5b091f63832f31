// Preloaded into a store under test (`node --import`): each SIGUSR2 rejects a promise nobody
// awaits, as a background task would, with the next error of ESCAPE_TEST_ERRORS (a comma list of
// SQLSTATEs, Node error codes, or TypeError). Only tests load this file.
const queue = (process.env.ESCAPE_TEST_ERRORS ?? "").split(",").filter(Boolean);

function errorFor(name) {
  if (name === "TypeError")
    return new TypeError("Cannot read properties of undefined (reading 'id')");
  if (/^[0-9A-Z]{5}$/.test(name) && !name.startsWith("E")) {
    // Shaped as `pg` makes PostgreSQL's answer (pg-boss's Manager.complete on a full disk).
    return Object.assign(new Error(`could not extend file (test error ${name})`), {
      name: "error",
      code: name,
      severity: "ERROR",
    });
  }
  return Object.assign(new Error(`test error ${name}`), { code: name });
}

process.on("SIGUSR2", () => {
  const next = queue.shift();
  if (next === undefined) return;
  void Promise.reject(errorFor(next));
});
