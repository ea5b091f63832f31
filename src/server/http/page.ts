import type { FastifyReply } from "fastify";
import { TOTAL_COUNT_HEADER } from "../../contract/constants";

/** Answers a page of a list: its items as the body, how many there are in all in X-Total-Count. */
export function sendPage<T>(reply: FastifyReply, page: { items: T[]; total: number }): T[] {
  reply.header(TOTAL_COUNT_HEADER, page.total);
  return page.items;
}
