import type { FastifyRequest } from "fastify";

/**
 * Whether the client of `req` is still connected, waiting for the answer. (Fastify's
 * `request.signal` cannot tell: it also fires once a request body has been read.) Work that
 * commits something the client must be told about asks this last, and gives up when it is no.
 */
export const clientStillWaiting = (req: FastifyRequest) => () => req.raw.socket?.destroyed !== true;
