// Catalog search: how a shopper's text becomes SQL. See docs/decisions/009-catalog-search.md.
import { and, type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import { normalizePartNumber, type CrossReferenceKind } from "../../contract/constants";
import type { Db } from "../db/database";
import { containsPattern } from "../db/like";
import { productCrossReferences, productNameWords, products, productSearchText } from "./tables";

/** One word of a search, with what the database told us about it. */
export interface SearchWord {
  /** Lower-case letters and digits. */
  text: string;
  /** Its `english` stem ("disc" of "discs"), when the database has told us. */
  stem?: string;
  /** No product contains the word as written: it also matches by spelling (trigram similarity). */
  bySpelling: boolean;
  /**
   * Looked up in the indexes. The other words (found in many more products) are only checked on
   * the rows the indexed ones found, instead of each reading a long index entry of its own.
   */
  indexed: boolean;
}

/** A search split into what the SQL needs. */
export interface Search {
  /** The words, stop words left out. */
  words: SearchWord[];
  /** How many words the text had, stop words included (which then ask nothing). */
  wordCount: number;
  /** The text is only words and spaces: nothing PostgreSQL's parser would read other than we do. */
  plainWords: boolean;
  /** The whole search as a part number (upper-case letters and digits), or "" if too short. */
  number: string;
  /** The literal text, lower-cased, as a LIKE pattern (`%` and `_` taken literally). */
  literal: string;
}

/** Words shorter than this never match by spelling similarity alone (too many false hits). */
const MIN_TYPO_WORD = 4;
/** A number this long or longer also matches numbers that start with it. */
const MIN_NUMBER_PREFIX = 4;
const MAX_WORDS = 10;
/** A word shorter than this matches whole words only (as a prefix it would match too much). */
const MIN_PREFIX_WORD = 2;
/** Products counted per word, at most: a word in more is very common, read only if it is the rarest. */
const WORD_COUNT_CAP = 25_000;
/** Besides the rarest word, a word in at most this many products, or this factor of the rarest, is indexed too. */
const FEW_PRODUCTS = 100;
const RAREST_FACTOR = 4;
/** Facts remembered, at most (words come from shoppers). */
const MAX_REMEMBERED_WORDS = 10_000;

/** The words of a search, lower-case. */
export function searchWords(q: string): string[] {
  return q
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, MAX_WORDS);
}

/** What the database told us of a word. */
export interface WordFacts {
  /** The `english` dictionary ignores it ("for", "the"). */
  stop: boolean;
  /** How many products have it in their search document or part number (up to a cap). */
  products?: number;
  stem?: string;
}

/** @param factsOf a word the database has not told us about counts as common and no stop word. */
export function parseSearch(
  q: string,
  factsOf: (word: string) => WordFacts | undefined = () => undefined,
): Search {
  const all = searchWords(q);
  const texts = all.filter((w) => !factsOf(w)?.stop);
  const counts = texts.map((w) => factsOf(w)?.products ?? WORD_COUNT_CAP);
  const rarest = counts.indexOf(Math.min(...counts));
  const words = texts.map((text, i) => ({
    text,
    stem: factsOf(text)?.stem,
    bySpelling: counts[i] === 0 && text.length >= MIN_TYPO_WORD,
    indexed:
      i === rarest ||
      counts[i]! <= FEW_PRODUCTS ||
      (counts[i]! < WORD_COUNT_CAP && counts[i]! <= counts[rarest]! * RAREST_FACTOR),
  }));
  const number = normalizePartNumber(q);
  return {
    words,
    wordCount: all.length,
    plainWords: /^[\p{L}\p{N}\s]*$/u.test(q),
    number: number.length >= 2 ? number : "",
    literal: containsPattern(q),
  };
}

/**
 * The product's id, qualified: Drizzle writes a one-table select's columns unqualified, which
 * inside a subquery on the cross-references would mean their own id.
 */
export const productIdColumn = sql.raw(`"products"."id"`);

/*
 * The words in a tsquery are letters and digits only (split above), so they need no quoting.
 * An indexed condition uses the operator (`@@`, `like`), which PostgreSQL matches to the GIN
 * indexes; a checked one calls the operator's function, which it never does: the same test,
 * done on the rows the indexed conditions found.
 */
const englishQuery = (text: string) => sql`to_tsquery('english'::regconfig, ${text})`;
const simpleQuery = (text: string) => sql`to_tsquery('simple'::regconfig, ${text})`;
const documentMatches = (query: SQL, indexed: boolean): SQL =>
  indexed
    ? sql`${products.searchDocument} @@ ${query}`
    : sql`ts_match_vq(${products.searchDocument}, ${query})`;

/**
 * The whole search is our part number or a cross-reference number, or from 4 characters starts
 * one: B-tree lookups on the normalised numbers. Indexed, the cross-references' products are
 * collected once and matched by primary key; checked, each product asks for its own.
 */
function numberHit(number: string, indexed = true): SQL {
  if (!number) return sql`false`;
  const pattern = number.length >= MIN_NUMBER_PREFIX ? `${number}%` : number;
  const refs = productCrossReferences;
  if (indexed) {
    return sql`(${products.partNumberNormalized} like ${pattern} or ${productIdColumn} = any(array(
      select ${refs.productId} from ${refs} where ${refs.numberNormalized} like ${pattern})))`;
  }
  return sql`(textlike(${products.partNumberNormalized}, ${pattern}) or exists (
    select 1 from ${refs} r where r.product_id = ${productIdColumn} and r.number_normalized like ${pattern}))`;
}

/**
 * One word as written: in the name, description or category (stemmed, as a prefix), at the start
 * of a cross-reference number, as a brand, or anywhere in our part number. When the word's stem
 * starts it ("disc" of "discs"), one prefix of the stem asks all of these of the index at once
 * (`disc:*ABCD`): a brand or number starting with the stem matches too.
 */
function wordAsWritten(word: SearchWord, indexed: boolean): SQL {
  const { text, stem } = word;
  const number = normalizePartNumber(text);
  const numbers = number.length >= 3;
  const query =
    text.length >= MIN_PREFIX_WORD && stem && text.startsWith(stem)
      ? simpleQuery(`${stem}:*AB${numbers ? "C" : ""}D`)
      : sql`(${englishQuery(`${text}:${text.length >= MIN_PREFIX_WORD ? "*" : ""}AB`)}
          || ${simpleQuery(`${text}:D`)}
          ${numbers ? sql`|| ${simpleQuery(`${number.toLowerCase()}:*C`)}` : sql``})`;
  const inDocument = documentMatches(query, indexed);
  if (!numbers) return inDocument;
  const pattern = `%${number}%`;
  const inOurNumber = indexed
    ? sql`${products.partNumberNormalized} like ${pattern}`
    : sql`textlike(${products.partNumberNormalized}, ${pattern})`;
  return sql`(${inDocument} or ${inOurNumber})`;
}

/**
 * What the indexes read to find a word: the document's words and numbers that start with it,
 * whatever their part (a weight is only checked on the rows found), and our numbers containing it.
 */
function wordInIndex(word: string): SQL {
  const number = normalizePartNumber(word);
  const prefix = word.length >= MIN_PREFIX_WORD ? ":*" : "";
  const inDocument = documentMatches(
    sql`(${englishQuery(`${word}${prefix}`)} || ${simpleQuery(`${word}${prefix}`)})`,
    true,
  );
  if (number.length < 3) return inDocument;
  return sql`(${inDocument} or ${products.partNumberNormalized} like ${`%${number}%`})`;
}

/** One word as written, or for a word nothing contains, spelt nearly so. */
function wordMatches(word: SearchWord, useIndexes: boolean): SQL {
  const indexed = useIndexes && word.indexed;
  const asWritten = wordAsWritten(word, indexed);
  if (!word.bySpelling) return asWritten;
  const spelt = indexed
    ? sql`${word.text} <% ${productSearchText}`
    : sql`word_similarity_op(${word.text}, ${productSearchText})`;
  return sql`(${asWritten} or ${spelt})`;
}

/**
 * Every word matches, or the whole text is a number, or the text is found as typed. The last
 * matters for one word (a part of a longer word: "rake" in "brake", "100%") and for text with
 * signs: PostgreSQL's parser reads "1795-9081" as the numbers 1795 and -9081, so "9081" is no word
 * of its document. Several plain words found as typed are all found as words, so that costly
 * index scan is left out for them.
 */
export function searchCondition(search: Search, useIndexes = true): SQL {
  const literal = useIndexes
    ? sql`${productSearchText} like ${search.literal}`
    : sql`textlike(${productSearchText}, ${search.literal})`;
  if (search.wordCount === 0) return literal;
  // Indexed words first: PostgreSQL checks an AND's parts in the order written.
  const ordered = [...search.words].sort((a, b) => Number(b.indexed) - Number(a.indexed));
  const allWords =
    ordered.length > 0 ? and(...ordered.map((w) => wordMatches(w, useIndexes))) : sql`true`;
  const asTyped = search.wordCount > 1 && search.plainWords ? sql`` : sql` or ${literal}`;
  return sql`((${allWords}) or ${numberHit(search.number, useIndexes)}${asTyped})`;
}

export type SearchTier = 0 | 1 | 2;
export const searchTiers: SearchTier[] = [0, 1, 2];

/**
 * Every word is a prefix of a name word (`brake:* & pads:*`): indexed, through the name's own
 * index; checked, on the search document's part A (the name).
 */
function inName(search: Search, indexed: boolean): SQL {
  if (search.words.length === 0) return sql`false`;
  const weight = indexed ? "" : "A";
  const query = englishQuery(search.words.map((w) => `${w.text}:*${weight}`).join(" & "));
  return indexed ? sql`${productNameWords} @@ ${query}` : documentMatches(query, false);
}

/** 0: a number matched; 1: every word is in the name; 2: anything else (description, spelling). */
export function searchTier(search: Search): SQL<SearchTier> {
  return sql<SearchTier>`case when ${numberHit(search.number, false)} then 0
    when ${inName(search, false)} then 1 else 2 end`;
}

/** The search found the product at this tier (given that it found it). */
export function inSearchTier(search: Search, tier: SearchTier, useIndexes: boolean): SQL {
  const number = numberHit(search.number, useIndexes);
  const name = inName(search, useIndexes);
  if (tier === 0) return number;
  return sql`not ${number} and ${tier === 1 ? name : sql`not ${name}`}`;
}

export interface NumberMatch {
  kind: CrossReferenceKind | "ours";
  brand: string;
  number: string;
}

/** The number a search hit, best first: ours, then an exact cross-reference, then a prefix. */
export function matchedNumber(number: string): SQL<string | null> {
  if (!number) return sql`null`;
  const prefix = number.length >= MIN_NUMBER_PREFIX ? `${number}%` : number;
  // As JSON text: the driver hands jsonb over as text in this select.
  return sql<string | null>`case when ${products.partNumberNormalized} like ${prefix}
    then json_build_object('kind', 'ours', 'brand', '', 'number', ${products.partNumber})::text
    else (select json_build_object('kind', r.kind, 'brand', r.brand, 'number', r.number)::text
      from ${productCrossReferences} r
      where r.product_id = ${productIdColumn} and r.number_normalized like ${prefix}
      order by r.number_normalized = ${number} desc, r.position limit 1) end`;
}

/** Why a product was found, in words for its card. */
export function describeMatch(m: NumberMatch): string {
  switch (m.kind) {
    case "ours":
      return `matches part number ${m.number}`;
    case "OE":
      return `matches OE ${m.number} (${m.brand})`;
    case "competitor":
      return `matches ${m.brand} ${m.number}`;
    case "superseded":
      return `replaces ${m.brand} ${m.number}`;
  }
}

/**
 * Reads searches, asking the database once per word (and remembering) whether it is a stop word
 * ("for", "the") and how many products contain it. A count can go stale between catalog changes
 * (`forgetCounts` is called on each); that changes which words are indexed or spelt loosely, never
 * which products match a word as written.
 */
export function createSearchReader(db: Db) {
  const stopWords = new Map<string, boolean>();
  const counted = new Map<string, { products: number; stem: string }>();

  async function learnStopWords(words: string[]) {
    if (words.length === 0) return;
    const result = await db.execute<{ word: string; stop: boolean }>(sql`
      select w as word, numnode(to_tsquery('english'::regconfig, w || ':*')) = 0 as stop
      from unnest(${`{${words.map((w) => `"${w}"`).join(",")}}`}::text[]) as w`);
    if (stopWords.size + words.length > MAX_REMEMBERED_WORDS) stopWords.clear();
    for (const { word, stop } of result.rows) stopWords.set(word, stop);
  }

  async function learnCounts(words: string[]) {
    if (words.length === 0) return;
    const result = await db.execute<{ word: string; products: number; stem: string }>(
      sql.join(
        words.map(
          (w) => sql`select ${w}::text as word, (select count(*)::int from (
            select 1 from ${products} where ${wordInIndex(w)} limit ${WORD_COUNT_CAP}) s
          ) as products, array_to_string(tsvector_to_array(
            to_tsvector('english'::regconfig, ${w}::text)), ' ') as stem`,
        ),
        sql` union all `,
      ),
    );
    if (counted.size + words.length > MAX_REMEMBERED_WORDS) counted.clear();
    for (const { word, products, stem } of result.rows) counted.set(word, { products, stem });
  }

  return {
    async read(q: string | undefined): Promise<Search | undefined> {
      if (!q) return undefined;
      const words = searchWords(q);
      await learnStopWords(words.filter((w) => !stopWords.has(w)));
      await learnCounts(words.filter((w) => !stopWords.get(w) && !counted.has(w)));
      return parseSearch(q, (w) => ({ stop: stopWords.get(w) ?? false, ...counted.get(w) }));
    },
    /** The catalog changed: words may be in more or fewer products now. */
    forgetCounts() {
      counted.clear();
    },
  };
}
