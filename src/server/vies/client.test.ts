import { afterAll, beforeAll, expect, test } from "vitest";
import { startViesStandIn, type ViesStandIn } from "../../../tests/support/vies-stand-in";
import { createViesClient, readAnswer } from "./client";

// The VIES client against a local stand-in of the Commission's REST API (never the network).
let vies: ViesStandIn;
beforeAll(async () => {
  vies = await startViesStandIn();
});
afterAll(async () => vies.close());

const client = (requesterVatId: string | null = "DE811907980", timeoutMs = 2_000) =>
  createViesClient({ url: `${vies.url}/`, timeoutMs, requesterVatId });

test("a valid number: its date, consultation number, name and address; the request as VIES takes it", async () => {
  vies.set("DE129273398", "valid");
  const answer = await client().check("DE129273398");
  expect(answer).toEqual({
    kind: "valid",
    checkedAt: new Date("2026-12-04T10:15:00.000Z"),
    consultationNumber: expect.stringMatching(/^WAPIAAAAX\d+$/),
    name: "TRADER DE129273398",
    address: "HAUPTSTRASSE 1\n10115 BERLIN",
  });
  expect(vies.callsFor("DE129273398").at(-1)).toEqual({
    countryCode: "DE",
    vatNumber: "129273398",
    requesterMemberStateCode: "DE",
    requesterNumber: "811907980",
  });
});

test("Greece is EL in VIES; without a requester there is no consultation number", async () => {
  vies.set("EL094014201", "valid");
  const answer = await client(null).check("EL094014201");
  expect(answer).toMatchObject({ kind: "valid", consultationNumber: null });
  expect(vies.callsFor("EL094014201").at(-1)).toEqual({
    countryCode: "EL",
    vatNumber: "094014201",
  });
});

test("an invalid number: VIES's '---' name and address are none", async () => {
  vies.set("FR40303265045", "invalid");
  expect(await client().check("FR40303265045")).toMatchObject({
    kind: "invalid",
    name: null,
    address: null,
  });
});

test("unavailable, busy and slow are unanswered, with the reason; a slow one ends at the timeout", async () => {
  vies.set("NL123456789B01", "unavailable");
  vies.set("IT12345678901", "busy");
  vies.set("PL1234567890", "slow");
  expect(await client().check("NL123456789B01")).toEqual({
    kind: "unanswered",
    reason: "MS_UNAVAILABLE",
  });
  expect(await client().check("IT12345678901")).toEqual({
    kind: "unanswered",
    reason: "MS_MAX_CONCURRENT_REQ",
  });
  expect(await client(null, 300).check("PL1234567890")).toEqual({
    kind: "unanswered",
    reason: "no answer within 0.3 s",
  });
});

test("nobody listening is unanswered", async () => {
  const gone = createViesClient({ url: "http://127.0.0.1:9", timeoutMs: 2_000 });
  expect(await gone.check("DE129273398")).toEqual({
    kind: "unanswered",
    reason: "could not reach VIES",
  });
});

test("answers that are not VIES's are unanswered, never thrown", () => {
  const at = new Date("2026-12-04T00:00:00Z");
  expect(readAnswer(502, "<html>Bad gateway</html>", at)).toEqual({
    kind: "unanswered",
    reason: "HTTP 502",
  });
  expect(readAnswer(200, "not json", at)).toMatchObject({ kind: "unanswered" });
  expect(readAnswer(200, "{}", at)).toMatchObject({ kind: "unanswered" });
  expect(readAnswer(200, "x".repeat(70_000), at)).toMatchObject({ kind: "unanswered" });
  // The GET variant's `isValid`, and a missing date: the call's time.
  expect(readAnswer(200, JSON.stringify({ isValid: true, userError: "VALID" }), at)).toEqual({
    kind: "valid",
    checkedAt: at,
    consultationNumber: null,
    name: null,
    address: null,
  });
});
