import { cookieHeader } from "./accounts";

/** A customer talking to a real server process over HTTP, keeping its session cookie. */
export class HttpCustomer {
  /** The Cookie header of its session (empty until it signs in). */
  cookie = "";
  constructor(
    public baseUrl: string,
    public readonly email: string,
    private readonly password = "Rotor-Caliper-42",
  ) {}

  /**
   * Signs up (and so in). A 503 ("busy or restarting; please try again in a moment") is tried
   * again, as a person would, a few times: on a loaded machine a sign-up's password hash can
   * outlast a short connection wait that a test set for what it measures. A retry that finds the
   * account made by the attempt answered 503 signs in instead.
   */
  async signUp(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const res = await this.request("POST", "/api/auth/sign-up/email", {
        email: this.email,
        password: this.password,
        name: this.email.split("@")[0],
      });
      if (res.status === 200) return;
      const text = await res.text();
      if (res.status === 503 && attempt < 5) continue;
      if (attempt > 1 && res.status >= 400 && res.status < 500) return this.signIn();
      throw new Error(`sign-up failed: ${res.status} ${text}`);
    }
  }

  async signIn(): Promise<void> {
    const res = await this.request("POST", "/api/auth/sign-in/email", {
      email: this.email,
      password: this.password,
    });
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  }

  /**
   * `signal`: the client gives up when it aborts (fetch then rejects). `headers`: sent besides
   * the content type and the session cookie (an Idempotency-Key, say).
   */
  async request(
    method: string,
    path: string,
    body?: unknown,
    opts: { signal?: AbortSignal; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      signal: opts.signal,
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...opts.headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.getSetCookie();
    if (set.length > 0) this.cookie = cookieHeader(set);
    return res;
  }

  async json<T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const res = await this.request(method, path, body);
    return { status: res.status, body: (await res.json()) as T };
  }

  /** Intent, test card 4242…, then PATCH: the whole payment as the browser does it. */
  async pay(orderId: string): Promise<number> {
    const intent = await this.json<{ clientSecret: string }>("POST", "/api/create-payment-intent", {
      orderId,
    });
    if (intent.status !== 200) return intent.status;
    const charge = await this.json<{ transactionId: string }>(
      "POST",
      "/api/payments/test-card/confirm",
      {
        clientSecret: intent.body.clientSecret,
        number: "4242424242424242",
        expMonth: 12,
        expYear: 2030,
        cvc: "123",
      },
    );
    if (charge.status !== 200) return charge.status;
    const paid = await this.request("PATCH", `/api/orders/${orderId}`, {
      transactionId: charge.body.transactionId,
    });
    return paid.status;
  }
}

/**
 * `count` customers `<prefix>-<i>@example.com`, each signed up (a password hash each) `atOnce` at
 * a time: one after another unless it says. The clients of a test of the store as a process;
 * `url` is the server each talks to, or says the i-th one's (two processes taking turns, say).
 */
export async function signedUpHttpCustomers(
  count: number,
  prefix: string,
  url: string | ((i: number) => string),
  atOnce = 1,
): Promise<HttpCustomer[]> {
  const customers = Array.from(
    { length: count },
    (_, i) =>
      new HttpCustomer(typeof url === "string" ? url : url(i), `${prefix}-${i}@example.com`),
  );
  for (let i = 0; i < count; i += atOnce) {
    await Promise.all(customers.slice(i, i + atOnce).map((c) => c.signUp()));
  }
  return customers;
}
