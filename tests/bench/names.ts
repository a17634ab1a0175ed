import {
  de,
  en,
  en_IN,
  es,
  fi,
  fr,
  id_ID,
  it,
  nb_NO,
  nl,
  pl,
  pt_BR,
  sv,
  tr,
  vi,
  type LocaleDefinition,
} from '@faker-js/faker';

/**
 * Realistic names for the benchmark: faker's first-name and surname lists from several locales, shuffled with a
 * fixed seed and drawn Zipf-like (rank r with weight ~1/(r + 10)), so a few names are very common and most are rare, as
 * in a real address book.
 */
const LOCALES: LocaleDefinition[] = [en, de, fr, es, it, pt_BR, nl, pl, sv, tr, en_IN, id_ID, vi, nb_NO, fi];

/** mulberry32: a tiny seeded PRNG, so every run builds the same lists and the same term sequence. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function collect(pick: (person: NonNullable<LocaleDefinition['person']>) => unknown): string[] {
  const names = new Set<string>();
  const add = (value: unknown): void => {
    if (typeof value === 'string') names.add(value);
    else if (Array.isArray(value)) value.forEach(add);
    else if (value && typeof value === 'object') Object.values(value).forEach(add);
  };
  for (const locale of LOCALES) if (locale.person) add(pick(locale.person));
  return [...names].filter((name) => name.length >= 2 && name.length <= 40);
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

export interface NameLists {
  firstNames: string[];
  surnames: string[];
}

export function nameLists(): NameLists {
  const random = seededRandom(13);
  return {
    firstNames: shuffled(
      collect((person) => person.first_name),
      random,
    ),
    surnames: shuffled(
      collect((person) => person.last_name),
      random,
    ),
  };
}

/**
 * A 1-based rank out of `count` drawn Zipf–Mandelbrot-like, weight 1 / (rank + 10), by inverting the continuous
 * distribution with PostgreSQL's random(). The offset keeps the head realistic (the most common surname is ~1.4%
 * of contacts, as "Smith" is about 1% in the US) where pure Zipf would give it ~10%.
 */
const OFFSET = 10;
export const ZIPF_RANK_SQL = (count: string) =>
  `least(${count}, greatest(1, floor(${1 + OFFSET} * power((${count} + ${OFFSET}) / ${1 + OFFSET}.0, random()) - ` +
  `${OFFSET})::int))`;

/** Country calling codes the phones start with; the rest is a 9-digit bijection of the contact's number. */
export const PHONE_PREFIXES = ['1', '44', '49', '33', '55', '91', '62'];

export type TermClass = 'fragment' | 'surname' | 'full name' | 'phone';
export interface SearchTerm {
  termClass: TermClass;
  search: string;
}

/**
 * Search terms as people type them into a search box, cycled through the classes and taken from real contacts (so
 * common names are searched more often, as they are more often in the book): the first four letters of a name word
 * (`Mich`: search matches word starts, so a mid-word piece would match nothing and flatter the figures), a surname
 * (the last word of a name), a whole name, and 4–7 digits of a phone typed with a space or dash.
 */
export function searchTerms(contacts: { name: string; phone: string }[], count: number): SearchTerm[] {
  const random = seededRandom(7);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const fragment = (name: string) => {
    const words = name.split(' ').filter((w) => w.length >= 4);
    return (words.length ? pick(words) : name).slice(0, 4);
  };
  const phone = (digits: string) => {
    const length = 4 + Math.floor(random() * 4);
    const start = Math.floor(random() * (digits.length - length + 1));
    const piece = digits.slice(start, start + length);
    const cut = 1 + Math.floor(random() * (piece.length - 1));
    return `${piece.slice(0, cut)}${random() < 0.5 ? ' ' : '-'}${piece.slice(cut)}`;
  };
  const classes: [TermClass, (contact: { name: string; phone: string }) => string][] = [
    ['fragment', (c) => fragment(c.name)],
    ['surname', (c) => c.name.split(' ').at(-1)!],
    ['full name', (c) => c.name],
    ['phone', (c) => phone(c.phone)],
  ];
  return Array.from({ length: count }, (_, i) => {
    const [termClass, make] = classes[i % classes.length]!;
    return { termClass, search: make(pick(contacts)) };
  });
}
