// The <head> of each page as the server sends it: title, description, canonical link, language
// alternates, share previews (Open Graph, Twitter) and schema.org data (JSON-LD), in the page's
// language. Search engines and chat apps read only this first HTML; they run no script.
import type { LocalBusiness, OpeningHoursSpecification, PostalAddress, Review, WithContext } from 'schema-dts';
import { openingHoursSpecification } from '../../shared/schemas/opening-hours';
import { common as enCommon } from '../../shared/i18n/en/common';
import { head as enHead } from '../../shared/i18n/en/head';
import { formatNumber } from '../../shared/i18n/number';
import { common as svCommon } from '../../shared/i18n/sv/common';
import { head as svHead } from '../../shared/i18n/sv/head';
import type { Language } from '../../shared/schemas/common';
import { matchRoute, ROUTES } from '../../shared/schemas/routes';
import { DEFAULT_SITE_TEXT, homeTitle, withSiteName, type SiteText } from '../../shared/schemas/site-settings';
import { COMMENT_TITLE_EXCERPT, excerpt } from '../../shared/schemas/text';
import type { CommentCard } from '../../shared/schemas/comments';
import type { BusinessDetail } from '../services/business/business';

const catalogs = { sv: svHead, en: enHead };
/** The titles of pages that are not in search results (profile, admin pages), by page module. */
const pageTitles: Record<Language, Readonly<Record<string, string>>> = { sv: svCommon.pageTitles, en: enCommon.pageTitles };

/** The query parameter that names a page's language (`?lang=en`); without it the cookie decides. */
export const LANG_PARAM = 'lang';

/** What `og:locale` calls each language. */
const OG_LOCALE: Record<Language, string> = { sv: 'sv_SE', en: 'en_GB' };

/** The picture a page without its own shows in a share preview. */
const SITE_IMAGE = '/icon-512.png';

/** How long a description may be before it is cut at a word (search engines show about 155). */
const DESCRIPTION_MAX = 160;
/** How much of a comment its page's description quotes (the rest of the description is about 40). */
const COMMENT_EXCERPT_MAX = 120;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/**
 * JSON that may stand inside a <script> element (the page-data block, JSON-LD): no `<` (so no
 * `</script>` or `<!--`), and `>`, `&` and the JavaScript line separators escaped as well.
 */
export const jsonForScript = (value: unknown) =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A language's URL of a page: the Swedish one has no parameter (it is also the default). */
export function pageUrl(publicUrl: string, pathname: string, lang: Language): string {
  return `${publicUrl}${pathname}${lang === 'en' ? `?${LANG_PARAM}=en` : ''}`;
}

/**
 * The first picture a share preview can show: chat apps and social sites show no SVG (the demo
 * data's icons are SVG), so such a picture leaves the preview to the site's icon.
 */
const previewPicture = (...urls: (string | null)[]) => urls.find((u): u is string => Boolean(u) && !/\.svg$/i.test(u!)) ?? null;

const absolute = (publicUrl: string, url: string) => (/^https?:\/\//.test(url) ? url : `${publicUrl}${url.startsWith('/') ? '' : '/'}${url}`);

export type Head = {
  /** The whole <title>. */
  title: string;
  /** The title for share previews (without the site's name). */
  shareTitle: string;
  description: string;
  /** The page's path (without a language); null for pages that are not to be indexed. */
  canonicalPath: string | null;
  ogType: 'website' | 'article' | 'business.business';
  /** The page's own picture; `large` for a photo (a large preview card), not for an icon. */
  image: { url: string; alt: string; large: boolean } | null;
  jsonLd: WithContext<LocalBusiness> | WithContext<Review> | null;
  /** A picture the page shows large near its top (its largest paint): fetched before the page's styles and scripts. */
  preloadImage?: string;
};

/** The tags for `head`, which take the place of index.html's <title> (the description is replaced too). */
export function headTags(publicUrl: string, lang: Language, head: Head, site: SiteText = DEFAULT_SITE_TEXT): string {
  const attr = escapeHtml;
  const tags = [`<title>${escapeHtml(head.title)}</title>`, `<meta name="description" content="${attr(head.description)}">`];
  const other: Language = lang === 'sv' ? 'en' : 'sv';
  if (head.canonicalPath === null) {
    tags.push('<meta name="robots" content="noindex">');
  } else {
    const url = pageUrl(publicUrl, head.canonicalPath, lang);
    tags.push(
      `<link rel="canonical" href="${attr(url)}">`,
      `<link rel="alternate" hreflang="sv" href="${attr(pageUrl(publicUrl, head.canonicalPath, 'sv'))}">`,
      `<link rel="alternate" hreflang="en" href="${attr(pageUrl(publicUrl, head.canonicalPath, 'en'))}">`,
      `<link rel="alternate" hreflang="x-default" href="${attr(pageUrl(publicUrl, head.canonicalPath, 'sv'))}">`,
      `<meta property="og:url" content="${attr(url)}">`,
    );
  }
  const image = head.image ?? { url: SITE_IMAGE, alt: site.name };
  const imageUrl = absolute(publicUrl, image.url);
  tags.push(
    `<meta property="og:type" content="${head.ogType}">`,
    `<meta property="og:site_name" content="${attr(site.name)}">`,
    `<meta property="og:title" content="${attr(head.shareTitle)}">`,
    `<meta property="og:description" content="${attr(head.description)}">`,
    `<meta property="og:locale" content="${OG_LOCALE[lang]}">`,
    `<meta property="og:locale:alternate" content="${OG_LOCALE[other]}">`,
    `<meta property="og:image" content="${attr(imageUrl)}">`,
    `<meta property="og:image:alt" content="${attr(image.alt)}">`,
    // A photo is shown large; an icon (the business's or the site's) as a small square.
    `<meta name="twitter:card" content="${head.image?.large ? 'summary_large_image' : 'summary'}">`,
    `<meta name="twitter:title" content="${attr(head.shareTitle)}">`,
    `<meta name="twitter:description" content="${attr(head.description)}">`,
    `<meta name="twitter:image" content="${attr(imageUrl)}">`,
    `<meta name="twitter:image:alt" content="${attr(image.alt)}">`,
  );
  if (head.preloadImage) tags.push(`<link rel="preload" as="image" href="${attr(head.preloadImage)}" fetchpriority="high">`);
  if (head.jsonLd) tags.push(`<script type="application/ld+json">${jsonForScript(head.jsonLd)}</script>`);
  return tags.join('');
}

/** A text of the head catalogs with the site's own name where the catalog says the release's (a description or title template). */
const inSite = (text: string, site: SiteText) => (site.name === DEFAULT_SITE_TEXT.name ? text : text.replaceAll(DEFAULT_SITE_TEXT.name, site.name));

/** The indexable pages without an id (shared/schemas/routes.ts): each has its own title and description in the head catalog. */
type StaticRoute = Exclude<Extract<(typeof ROUTES)[number], { indexable: true }>, { path: `${string}:${string}` }>;

/** Pages with their own title and a place in search results. */
const STATIC_PAGES = ROUTES.filter((r): r is StaticRoute => 'indexable' in r && !r.path.includes(':'));

/**
 * The head of a page that has no data of its own: a static page (indexed), any other known page
 * (accounts, admin pages: `noindex`), or the not-found page (`noindex`).
 */
export function staticHead(urlPath: string, lang: Language, found: boolean, site: SiteText = DEFAULT_SITE_TEXT): Head {
  const t = catalogs[lang];
  const route = found ? matchRoute(urlPath)?.route : undefined;
  const page = route && STATIC_PAGES.find((r) => r === route);
  if (page) {
    const { page: name, path: canonicalPath } = page;
    const description = inSite(t[name].description, site);
    const title = name === 'home' ? homeTitle(site, lang) : inSite(t[name].title, site);
    return {
      title: name === 'home' ? title : withSiteName(title, site),
      shareTitle: title,
      description,
      canonicalPath,
      ogType: 'website',
      image: null,
      jsonLd: null,
    };
  }
  const own = route?.page ? pageTitles[lang][route.page] : undefined;
  if (own)
    return {
      title: withSiteName(own, site),
      shareTitle: own,
      description: inSite(t.other.description, site),
      canonicalPath: null,
      ogType: 'website',
      image: null,
      jsonLd: null,
    };
  const description = inSite((found ? t.other : t.notFound).description, site);
  const title = found ? site.name : t.notFound.title;
  return {
    title: found ? title : withSiteName(title, site),
    shareTitle: title,
    description,
    canonicalPath: null,
    ogType: 'website',
    image: null,
    jsonLd: null,
  };
}

/** The head of a comment removed by a moderator (its page answers 410). */
export function goneHead(lang: Language, site: SiteText = DEFAULT_SITE_TEXT): Head {
  const { title, description } = catalogs[lang].gone;
  return { title: withSiteName(title, site), shareTitle: title, description, canonicalPath: null, ogType: 'website', image: null, jsonLd: null };
}

/** The schema.org types of businesses, by words of their category (Swedish or English). */
const CATEGORY_TYPES: [RegExp, BusinessType][] = [
  [/livsmedel|mataffär|matbutik|grocer/i, 'GroceryStore'],
  [/apotek|pharmac/i, 'Pharmacy'],
  [/kläd|mode|cloth|fashion/i, 'ClothingStore'],
  [/möbel|möbler|inredning|furniture/i, 'FurnitureStore'],
  [/kafé|café|cafe|coffee|kaffe/i, 'CafeOrCoffeeShop'],
  [/snabbmat|fast ?food/i, 'FastFoodRestaurant'],
  [/restaurang|restaurant/i, 'Restaurant'],
  [/elektronik|electronic/i, 'ElectronicsStore'],
  [/drivmedel|bensin|tankstation|fuel|petrol|gas station/i, 'GasStation'],
  [/vin och sprit|systembolag|liquor|wine/i, 'LiquorStore'],
  [/varuhus|department/i, 'DepartmentStore'],
  [/sport/i, 'SportingGoodsStore'],
  [/servicebutik|närbutik|convenience/i, 'ConvenienceStore'],
  [/järn|hardware/i, 'HardwareStore'],
  [/trädgård|garden/i, 'GardenStore'],
  [/bok|böcker|book/i, 'BookStore'],
  [/bil|auto|motor/i, 'AutoPartsStore'],
];
type BusinessType =
  | 'LocalBusiness'
  | 'GroceryStore'
  | 'Pharmacy'
  | 'ClothingStore'
  | 'FurnitureStore'
  | 'CafeOrCoffeeShop'
  | 'FastFoodRestaurant'
  | 'Restaurant'
  | 'ElectronicsStore'
  | 'GasStation'
  | 'LiquorStore'
  | 'DepartmentStore'
  | 'SportingGoodsStore'
  | 'ConvenienceStore'
  | 'HardwareStore'
  | 'GardenStore'
  | 'BookStore'
  | 'AutoPartsStore';

export const businessTypeOf = (category: string): BusinessType => CATEGORY_TYPES.find(([words]) => words.test(category))?.[1] ?? 'LocalBusiness';

const authorOf = (c: Pick<CommentCard, 'firstName' | 'lastName'>) => `${c.firstName} ${c.lastName}`.trim();

const businessName = (b: { title: string; isSuggestionBox: boolean }, lang: Language) => (b.isSuggestionBox ? catalogs[lang].business.suggestionBox : b.title);

const businessPath = (id: string) => `/business/${encodeURIComponent(id)}`;
const commentPath = (id: string) => `/comment/${encodeURIComponent(id)}`;

/** The business's description in the page's language: the English one where there is one. */
const descriptionIn = (b: Pick<BusinessDetail, 'description' | 'descriptionEn'>, lang: Language) =>
  lang === 'en' && b.descriptionEn ? b.descriptionEn : b.description;

/** One comment as a schema.org Review (removed ones have no text, and are left out by the callers). */
function reviewOf(publicUrl: string, c: CommentCard): Review {
  return {
    '@type': 'Review',
    url: `${publicUrl}${commentPath(c._id)}`,
    author: { '@type': 'Person', name: authorOf(c) },
    datePublished: c.date,
    reviewBody: c.text,
    ...(c.image ? { image: absolute(publicUrl, c.image) } : {}),
    // The business's answer: schema.org has no reply to a review, so a Comment on it, by the business.
    // Only a public answer: never one that reports hid or a moderator removed (issue 31.7).
    ...(c.ownerReply && !c.ownerReply.hidden
      ? {
          comment: {
            '@type': 'Comment',
            text: c.ownerReply.text,
            dateCreated: c.ownerReply.createdAt,
            dateModified: c.ownerReply.updatedAt,
            author: { '@type': 'Organization', name: c.businessTitle, url: `${publicUrl}${businessPath(c.businessId)}` },
          },
        }
      : {}),
  };
}

/** A branch's address as schema.org's PostalAddress: street, postal code, town and area. */
const addressOf = (b: BusinessDetail['branches'][number]): PostalAddress => ({
  '@type': 'PostalAddress',
  ...(b.address ? { streetAddress: b.address } : {}),
  ...(b.postalCode ? { postalCode: b.postalCode } : {}),
  addressLocality: b.town || b.location,
  addressCountry: 'SE',
});

/** A branch's position, phone and hours (issue 31.1), where given. */
const branchFactsLd = (b: BusinessDetail['branches'][number]) => ({
  ...(b.lat !== null && b.lng !== null ? { geo: { '@type': 'GeoCoordinates' as const, latitude: b.lat, longitude: b.lng } } : {}),
  ...(b.phone ? { telephone: b.phone } : {}),
  ...(b.openingHours ? { openingHoursSpecification: openingHoursSpecification(b.openingHours) as unknown as OpeningHoursSpecification[] } : {}),
});

/**
 * A business as schema.org data: its type from the category, one address per branch, its
 * website as `url` (the page otherwise) and phone; the one branch's position and hours, or each
 * branch as a department with its own; the rating only when someone has rated (Google asks for
 * that), and its first page of comments.
 */
export function businessJsonLd(publicUrl: string, lang: Language, business: BusinessDetail, comments: CommentCard[]): WithContext<LocalBusiness> {
  const picture = business.image ?? business.icon;
  const address: PostalAddress[] = business.branches.map(addressOf);
  const type = businessTypeOf(`${business.category} ${business.categoryEn}`);
  const name = businessName(business, lang);
  const [only] = business.branches.length === 1 ? business.branches : [];
  const departments = only
    ? []
    : business.branches
        .filter((b) => b.lat !== null || b.openingHours || b.phone)
        .map((b) => ({ '@type': type, name: `${name} ${b.location}`, address: addressOf(b), ...branchFactsLd(b) }));
  const reviews = comments.filter((c) => !c.removed && !c.hidden).map((c) => reviewOf(publicUrl, c));
  return {
    '@context': 'https://schema.org',
    '@type': type,
    '@id': `${publicUrl}${businessPath(business.id)}`,
    name,
    url: business.website ?? pageUrl(publicUrl, businessPath(business.id), lang),
    description: excerpt(descriptionIn(business, lang), 300),
    ...(picture ? { image: absolute(publicUrl, picture) } : {}),
    ...(address.length ? { address } : {}),
    ...(only ? branchFactsLd(only) : {}),
    ...(business.phone ? { telephone: business.phone } : {}),
    ...(departments.length ? { department: departments } : {}),
    ...(business.ratingCount > 0 && business.rate !== null
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: Math.round(business.rate * 10) / 10,
            ratingCount: business.ratingCount,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
    ...(reviews.length ? { review: reviews } : {}),
  };
}

/** The head of a business page (the anonymous view: nothing personal). */
export function businessHead(publicUrl: string, lang: Language, business: BusinessDetail, comments: CommentCard[], site: SiteText = DEFAULT_SITE_TEXT): Head {
  const t = catalogs[lang];
  const name = businessName(business, lang);
  const raters = business.ratingCount;
  const shareTitle = t.business.title(name, raters, formatNumber(raters, 0, lang));
  const rating =
    raters > 0 && business.rate !== null ? t.business.rated(formatNumber(business.rate, 1, lang), raters, formatNumber(raters, 0, lang)) : t.business.notRated;
  const picture = previewPicture(business.image, business.icon);
  return {
    title: withSiteName(shareTitle, site),
    shareTitle,
    description: excerpt(`${rating} ${descriptionIn(business, lang)}`, DESCRIPTION_MAX),
    canonicalPath: businessPath(business.id),
    ogType: 'business.business',
    image: picture ? { url: picture, alt: t.business.imageAlt(name), large: picture === business.image } : null,
    jsonLd: businessJsonLd(publicUrl, lang, business, comments),
  };
}

/** The head of a comment page: who wrote what about which business, its photo, and a schema.org Review. */
export function commentHead(publicUrl: string, lang: Language, comment: CommentCard, site: SiteText = DEFAULT_SITE_TEXT): Head {
  const t = catalogs[lang];
  const author = authorOf(comment);
  const business = businessName({ title: comment.businessTitle, isSuggestionBox: comment.businessIsSuggestionBox }, lang);
  const shareTitle = t.comment.title(author, business, excerpt(comment.text, COMMENT_TITLE_EXCERPT));
  const picture = previewPicture(comment.image, comment.businessIcon);
  const jsonLd: WithContext<Review> = {
    '@context': 'https://schema.org',
    ...reviewOf(publicUrl, comment),
    '@type': 'Review',
    itemReviewed: {
      '@type': 'LocalBusiness',
      '@id': `${publicUrl}${businessPath(comment.businessId)}`,
      name: business,
      url: pageUrl(publicUrl, businessPath(comment.businessId), lang),
      ...(comment.businessIcon ? { image: absolute(publicUrl, comment.businessIcon) } : {}),
    },
    publisher: { '@type': 'Organization', name: site.name, url: publicUrl },
  };
  return {
    title: withSiteName(shareTitle, site),
    shareTitle,
    description: inSite(t.comment.description(author, business, excerpt(comment.text, COMMENT_EXCERPT_MAX)), site),
    canonicalPath: commentPath(comment._id),
    ogType: 'article',
    image: picture
      ? {
          url: picture,
          alt: picture === comment.image ? t.comment.imageAlt(author, business) : t.business.imageAlt(business),
          large: picture === comment.image,
        }
      : null,
    jsonLd,
    ...(comment.image ? { preloadImage: comment.image } : {}),
  };
}
