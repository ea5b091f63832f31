import { act, render, screen } from "@testing-library/react";
import { Suspense } from "react";
import { expect, test } from "vitest";
import { lazyRoute } from "./lazy-route";

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const Page = () => <p>the page</p>;

test("the code loads once, on first use, and renders once it is there", async () => {
  let loads = 0;
  const code = deferred<{ Page: typeof Page }>();
  const route = lazyRoute(() => {
    loads += 1;
    return code.promise;
  }, "Page");
  await act(async () => {
    render(
      <Suspense fallback={<p>waiting</p>}>
        <route.Component />
      </Suspense>,
    );
  });
  expect(screen.getByText("waiting")).toBeTruthy();
  await act(async () => code.resolve({ Page }));
  expect(await screen.findByText("the page")).toBeTruthy();
  await route.preload();
  expect(loads).toBe(1);
});

test("preloaded code renders at once, without suspending", async () => {
  const route = lazyRoute(async () => ({ Page }), "Page");
  await route.preload();
  render(
    <Suspense fallback={<p>waiting</p>}>
      <route.Component />
    </Suspense>,
  );
  expect(screen.getByText("the page")).toBeTruthy();
  expect(screen.queryByText("waiting")).toBeNull();
});

test("a background prefetch that fails is tried again when the page is opened", async () => {
  let attempt = 0;
  const route = lazyRoute(async () => {
    attempt += 1;
    if (attempt === 1) throw new Error("offline");
    return { Page };
  }, "Page");
  route.prefetch();
  await act(async () => {});
  expect(attempt).toBe(1);
  await route.preload();
  expect(attempt).toBe(2);
});
