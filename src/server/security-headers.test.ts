import { expect, test } from "vitest";
import { securityHeaders } from "./security-headers";

const directives = (csp: string) =>
  new Map(
    csp.split(";").map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values];
    }),
  );

test("pages may show pictures only from here, data: and HTTPS, and refuse style attributes (issue 49)", () => {
  for (const production of [false, true]) {
    const csp = directives(
      securityHeaders({ production, stripe: false }).documents["content-security-policy"],
    );
    expect(csp.get("img-src")).toEqual(["'self'", "data:", "https:"]);
    expect(csp.get("style-src-attr")).toEqual(["'none'"]);
    // Scripts stay our own.
    expect(csp.get("script-src")).toEqual(["'self'"]);
  }
});
