// Password strength beyond the specification's 6 characters (issue 13): zxcvbn-ts estimates how
// many guesses a password takes, with its word lists of common passwords, names and words, plus the
// site's name and the account's own name and address. Server and sign-up form use this same check.
// The word lists are large: they are imported on first use, so the web loads them only on the
// sign-up page (their own chunk), never with the landing page.

/** zxcvbn's score 0–4; below this a password is refused (2: about a million guesses or more). */
export const MIN_PASSWORD_SCORE = 2;

/** Words every password is compared with, besides the account's own name and address. */
export const SITE_WORDS = ["partsworks", "parts works", "parts", "works"];

export const WEAK_PASSWORD_MESSAGE = "This password is too easy to guess";

export interface PasswordContext {
  email?: string | undefined;
  name?: string | undefined;
}

export type PasswordChecker = (password: string, context?: PasswordContext) => string | undefined;

let checker: Promise<PasswordChecker> | undefined;

/** Loads the word lists once and returns the check: the reason a password is refused, or undefined. */
export function loadPasswordChecker(): Promise<PasswordChecker> {
  checker ??= build();
  return checker;
}

async function build(): Promise<PasswordChecker> {
  const [{ ZxcvbnFactory }, common, en] = await Promise.all([
    import("@zxcvbn-ts/core"),
    import("@zxcvbn-ts/language-common"),
    import("@zxcvbn-ts/language-en"),
  ]);
  const zxcvbn = new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary, userInputs: SITE_WORDS },
    graphs: common.adjacencyGraphs,
    translations: en.translations,
  });
  return (password, context = {}) => {
    const result = zxcvbn.check(password.slice(0, 128), personalWords(context));
    if (result.score >= MIN_PASSWORD_SCORE) return undefined;
    const warning = result.feedback.warning;
    const suggestion = result.feedback.suggestions[0];
    return [`${WEAK_PASSWORD_MESSAGE}.`, warning, suggestion ?? "Add another word or two."]
      .filter(Boolean)
      .join(" ");
  };
}

/** The account's own words: the address, its local part and the pieces of both, and the name. */
function personalWords({ email, name }: PasswordContext): string[] {
  const words = new Set<string>();
  const add = (w: string) => {
    const t = w.trim().toLowerCase();
    if (t.length >= 3) words.add(t);
  };
  if (email) {
    const address = email.slice(0, 254);
    const local = address.split("@")[0] ?? "";
    add(address);
    add(local);
    add(local.replace(/[^\p{L}\p{N}]+/gu, ""));
    for (const piece of local.split(/[^\p{L}\p{N}]+/u)) add(piece);
  }
  if (name) {
    add(name.slice(0, 200));
    for (const piece of name.slice(0, 200).split(/\s+/)) add(piece);
  }
  return [...words];
}
