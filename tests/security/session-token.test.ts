import { expect, test } from "vitest";
import { cookieHeader } from "../support/accounts";
import { appForTests } from "../support/store";

// Fifth outside review (issue 49), smaller notes: the session token, kept from scripts in an
// httpOnly cookie, was in the JSON of sign-in and sign-up answers, where any script of the page
// could read it.

const { t } = appForTests({ env: { AUTH_RATE_LIMIT_PER_IP: "1000" } });

/** The session token a Set-Cookie header carries (`token.signature`, URL-encoded). */
const tokenOf = (setCookie: string | string[] | undefined) => {
  const value = /better-auth\.session_token=([^;]+)/.exec(cookieHeader(setCookie))?.[1] ?? "";
  return decodeURIComponent(value).split(".")[0]!;
};

test("no answer of the auth API carries the session token: sign-up, sign-in, get-session, list-sessions", async () => {
  const password = "Rotor-Caliper-42";
  const email = `token-${Date.now()}@example.com`;
  const up = await t.app.inject({
    method: "POST",
    url: "/api/auth/sign-up/email",
    payload: { email, password, name: "Token Check" },
  });
  expect(up.statusCode).toBe(200);
  const upToken = tokenOf(up.headers["set-cookie"]);
  expect(upToken.length).toBeGreaterThan(10);
  expect(up.json()).toMatchObject({ user: { email } });
  expect(up.body).not.toContain(upToken);

  const inRes = await t.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    payload: { email, password },
  });
  expect(inRes.statusCode).toBe(200);
  const inToken = tokenOf(inRes.headers["set-cookie"]);
  expect(inRes.json()).toMatchObject({ user: { email } });
  expect(inRes.json()).not.toHaveProperty("token");
  expect(inRes.body).not.toContain(inToken);

  const cookie = cookieHeader(inRes.headers["set-cookie"]);
  for (const url of ["/api/auth/get-session", "/api/auth/list-sessions"]) {
    const res = await t.app.inject({ method: "GET", url, headers: { cookie } });
    expect(res.statusCode, url).toBe(200);
    expect(res.body, url).not.toContain(inToken);
    expect(res.body, url).not.toContain(upToken);
  }
  // What the web app reads is still there.
  const session = await t.app.inject({
    method: "GET",
    url: "/api/auth/get-session",
    headers: { cookie },
  });
  expect(session.json()).toMatchObject({ user: { email, name: "Token Check" } });
});
