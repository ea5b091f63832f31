import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router";
import { afterEach, vi } from "vitest";

/** What a web component sent the API (every request but a GET). */
export interface SentRequest {
  method: string;
  url: string;
  body: unknown;
}

/** An API answer: `body` as JSON, with `status`. */
export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** After each test of the file: the stand-in `fetch` (and any other global stub) and every mock undone. */
export function undoStubsAfterEach() {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}

/**
 * Renders `ui` (in a router, with a query client that does not retry) against a stand-in API:
 * `fetch` answers with `answer(method, url, body)`; what is sent, GETs aside, lands in the list
 * returned. The test file undoes the stub after each test (`undoStubsAfterEach`).
 */
export function renderWithApi(
  ui: ReactNode,
  answer: (method: string, url: string, body: unknown) => Response,
): SentRequest[] {
  const sent: SentRequest[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((url: string, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      // An upload's FormData as sent; any other body as the JSON it carries.
      const body =
        init?.body instanceof FormData
          ? init.body
          : init?.body
            ? (JSON.parse(String(init.body)) as unknown)
            : undefined;
      if (method !== "GET") sent.push({ url, method, body });
      return Promise.resolve(answer(method, url, body));
    }),
  );
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <MemoryRouter>
      <QueryClientProvider client={client}>{ui}</QueryClientProvider>
    </MemoryRouter>,
  );
  return sent;
}
