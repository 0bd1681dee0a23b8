/**
 * Long static texts (about, terms, policy) live in per-page modules as data, not in the i18n
 * catalogs, so they load with their page's chunk. Each module exports `{ sv, en }` typed by one
 * shape, so both languages have the same sections in the same order.
 */

/** A piece of running text: plain, bold, code (cookie names) or a link (paths starting with / stay in the app). */
export type Inline = string | { readonly strong: string } | { readonly code: string } | { readonly link: string; readonly href: string };

/** A paragraph's text: a plain string, or pieces when it needs markup. */
export type Text = string | readonly Inline[];

export type Table = {
  readonly caption: string;
  readonly head: readonly string[];
  readonly rows: readonly (readonly Text[])[];
};

export type Block = Text | { readonly list: readonly Text[] } | { readonly table: Table };

export type Section<Id extends string = string> = {
  /** Anchor of the section (the same in both languages, so links like /policy#cookies work in each). */
  readonly id: Id;
  readonly title: string;
  readonly blocks: readonly Block[];
};

/** A numbered legal text; `Ids` fixes which sections it has and their order. */
export type LegalDocument<Ids extends readonly string[]> = {
  readonly title: string;
  readonly updatedLabel: string;
  /** Shown as written ("2 juni 2024"); `isoDate` goes into the <time> element. */
  readonly updated: string;
  readonly isoDate: string;
  readonly intro: readonly Block[];
  readonly tocLabel: string;
  readonly sections: { readonly [I in keyof Ids]: Section<Ids[I] & string> };
};
