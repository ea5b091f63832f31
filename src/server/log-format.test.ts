import { Writable } from "node:stream";
import { expect, test } from "vitest";
import { createLogger, humanLine, humanStream } from "./logging";

// At a terminal the store logs lines a person reads (issue 25: the first run spoke JSON).

test("a pino line reads as time, level, message and fields; an error's stack follows", () => {
  const time = new Date(2026, 10, 25, 14, 3, 7).getTime();
  expect(
    humanLine(JSON.stringify({ level: 30, time, pid: 1, msg: "store listening", port: 3000 })),
  ).toBe("14:03:07 INFO  store listening port=3000\n");
  const err = { message: "boom", stack: "Error: boom\n    at here" };
  expect(humanLine(JSON.stringify({ level: 50, time, msg: "failed", err }))).toBe(
    "14:03:07 ERROR failed\nError: boom\n    at here\n",
  );
  expect(humanLine("not json")).toBe("not json\n");
});

test("the human stream keeps the logger's scrubbing: no email reaches the terminal", () => {
  let out = "";
  const terminal = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  createLogger("info", humanStream(terminal)).info("created the demo account admin@example.com");
  expect(out).toMatch(/^\d\d:\d\d:\d\d INFO {2}created the demo account \[email\]\n$/);
});
