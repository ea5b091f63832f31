import type { FastifyInstance } from "fastify";
import { HttpError } from "./errors";

/** Deeper than any body of ours (they nest 3 levels at most), far from any stack limit. */
export const MAX_JSON_DEPTH = 64;

/**
 * Replaces Fastify's JSON body parser with the same parser behind a nesting check on the raw
 * text: a body nested deeper than `maxDepth` is refused (400) before anything parses it, so no
 * recursive code after it (validation, `JSON.stringify` on the way to Better Auth) can overflow
 * the stack.
 */
export function limitJsonNesting(app: FastifyInstance, maxDepth = MAX_JSON_DEPTH): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    const json = body.toString();
    if (nestedDeeperThan(json, maxDepth)) {
      const message = `The JSON body is nested too deeply (more than ${maxDepth} levels)`;
      done(new HttpError(400, "bad_request", message), undefined);
      return;
    }
    parse(req, json, done);
  });
}

/** Whether arrays and objects in `json` nest deeper than `max` (brackets in strings ignored). */
export function nestedDeeperThan(json: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return false;
}
