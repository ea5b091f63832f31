import { formatDate } from "../../../lib/format";

/** A calendar day (`2027-03-10`) as the store's pages write dates ("Mar 10, 2027"), that day everywhere. */
export const formatDay = (day: string) => formatDate(`${day}T00:00:00`);
