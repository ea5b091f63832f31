/**
 * What "now" is to a rule a service decides in JavaScript (a return window, an invoice's due
 * date, an approval's deadline): the system's clock, or a moved one a test hands in. Rules that
 * compare in SQL read the database's `now()`.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
