import { expect, test } from "vitest";
import { latestWithin } from "./web-app";

/** A read the test finishes when it likes: a database that answers late or not at all. */
function pendingRead() {
  let finish!: (value: string) => void;
  let fail!: (err: Error) => void;
  const promise = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { promise, finish, fail };
}

test("a page's structured data: fresh when the read answers in time, else the last one read", async () => {
  const reads: ReturnType<typeof pendingRead>[] = [];
  const structuredData = latestWithin(20, () => {
    const read = pendingRead();
    reads.push(read);
    return read.promise;
  });

  // In time: the fresh answer.
  const first = structuredData();
  reads[0]!.finish("v1");
  expect(await first).toBe("v1");

  // The database stops answering: the page goes out with v1, and later views share the one read.
  expect(await structuredData()).toBe("v1");
  expect(await structuredData()).toBe("v1");
  expect(reads).toHaveLength(2);

  // When that read finally answers, the next view gets it (and starts a new read).
  reads[1]!.finish("v2");
  await new Promise((resolve) => setImmediate(resolve)); // its callbacks have run
  const third = structuredData();
  expect(reads).toHaveLength(3);
  reads[2]!.finish("v3");
  expect(await third).toBe("v3");

  // A failed read keeps what was there.
  const fourth = structuredData();
  reads[3]!.fail(new Error("53100 could not extend file"));
  expect(await fourth).toBe("v3");
});

test("before any read has answered, a page that cannot wait goes out without structured data", async () => {
  const never = pendingRead();
  expect(await latestWithin(10, () => never.promise)()).toBe("");
});
