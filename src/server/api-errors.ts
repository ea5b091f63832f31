import { apiErrorSchema } from "../contract/common";

/**
 * A route's error answers for its OpenAPI schema, all in the `{ error, message }` shape:
 * `errorAnswers(400, 401, 404)`.
 */
export function errorAnswers<const Codes extends readonly number[]>(
  ...codes: Codes
): { [Code in Codes[number]]: typeof apiErrorSchema } {
  return Object.fromEntries(codes.map((code) => [code, apiErrorSchema])) as {
    [Code in Codes[number]]: typeof apiErrorSchema;
  };
}
