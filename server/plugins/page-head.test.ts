import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateBusiness } from '../services/business/business-ratings';
import { eq } from 'drizzle-orm';
import { images } from '../../db/schema';
import { createBusiness } from '../services/business/business-admin';
import { createComment } from '../services/comments/comments';
import { createReply } from '../services/comments/replies';
import { putOwnerReply } from '../services/business/owner-replies';
import { claimBusiness, decideClaim } from '../services/business/owners';
import { reportPost, resolveReports } from '../services/moderation/reports';
import { createCast, createTestApp, createTestUser, type TestContext } from '../test/helpers';
import { editBusinessFacts } from '../services/business/business-facts';
import { businessTypeOf } from './page-head';
import { establish } from '../test/trust';

const INDEX =
  '<!doctype html><html lang="sv"><head><meta charset="UTF-8" /><meta name="description" content="Standard" /><title>Recensera</title></head><body><div id="root"></div><script type="module" src="/assets/index-1.js"></script></body></html>';
const SITE = 'http://localhost:8000';
const png = (background: string) =>
  sharp({ create: { width: 60, height: 40, channels: 3, background } })
    .png()
    .toBuffer();

/** The head of a served page, read the way a crawler or a chat app's preview reads it. */
function headOf(html: string) {
  const head = html.slice(0, html.indexOf('</head>'));
  const all = (re: RegExp) => [...head.matchAll(re)];
  const meta = (attr: 'name' | 'property', key: string) => all(new RegExp(`<meta ${attr}="${key}" content="([^"]*)">`, 'g')).map((m) => m[1]);
  const link = (rel: string) =>
    all(new RegExp(`<link rel="${rel}"(?: hreflang="([^"]+)")? href="([^"]*)">`, 'g')).map((m) => (m[1] ? `${m[1]} ${m[2]}` : m[2]));
  const og = (key: string) => meta('property', `og:${key}`);
  return {
    titles: all(/<title>([^<]*)<\/title>/g).map((m) => m[1]),
    descriptions: meta('name', 'description'),
    robots: meta('name', 'robots'),
    canonical: link('canonical'),
    alternates: link('alternate'),
    og: { title: og('title'), description: og('description'), url: og('url'), image: og('image'), locale: og('locale'), type: og('type') },
    twitter: { card: meta('name', 'twitter:card'), title: meta('name', 'twitter:title'), image: meta('name', 'twitter:image') },
    jsonLd: all(/<script type="application\/ld\+json">([^<]*)<\/script>/g).map((m) => JSON.parse(m[1]) as Record<string, unknown>),
  };
}

const html = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/**
 * The schema.org structure a LocalBusiness with reviews must have to be read as one (Google's
 * required and recommended properties for local businesses and review snippets): every problem
 * found, as text; none means it passes.
 */
function businessStructureProblems(ld: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const text = (v: unknown) => typeof v === 'string' && v.trim() !== '';
  const LOCAL_TYPES = [
    'LocalBusiness',
    'GroceryStore',
    'Pharmacy',
    'ClothingStore',
    'FurnitureStore',
    'CafeOrCoffeeShop',
    'FastFoodRestaurant',
    'Restaurant',
    'ElectronicsStore',
    'GasStation',
    'LiquorStore',
    'DepartmentStore',
    'SportingGoodsStore',
    'ConvenienceStore',
    'HardwareStore',
    'GardenStore',
    'BookStore',
    'AutoPartsStore',
  ];
  if (ld['@context'] !== 'https://schema.org') problems.push('@context is not https://schema.org');
  if (!LOCAL_TYPES.includes(ld['@type'] as string)) problems.push(`@type ${String(ld['@type'])} is no LocalBusiness type`);
  if (!text(ld.name)) problems.push('name missing');
  if (ld.url !== undefined && !/^https?:\/\//.test(ld.url as string)) problems.push('url not absolute');
  if (ld.image !== undefined && !/^https?:\/\//.test(ld.image as string)) problems.push('image not absolute');
  const addresses = ld.address === undefined ? [] : Array.isArray(ld.address) ? ld.address : [ld.address];
  for (const a of addresses as Record<string, unknown>[]) {
    if (a['@type'] !== 'PostalAddress') problems.push('address is not a PostalAddress');
    if (!text(a.addressLocality) && !text(a.streetAddress)) problems.push('address without a place');
  }
  const rating = ld.aggregateRating as Record<string, unknown> | undefined;
  if (rating) {
    if (rating['@type'] !== 'AggregateRating') problems.push('aggregateRating is not an AggregateRating');
    if (typeof rating.ratingValue !== 'number') problems.push('ratingValue is not a number');
    if (typeof rating.ratingCount !== 'number' || !Number.isInteger(rating.ratingCount) || rating.ratingCount < 1)
      problems.push('ratingCount is not a whole number ≥ 1');
    const best = (rating.bestRating as number | undefined) ?? 5;
    const worst = (rating.worstRating as number | undefined) ?? 1;
    if (typeof rating.ratingValue === 'number' && (rating.ratingValue < worst || rating.ratingValue > best)) problems.push('ratingValue out of range');
  }
  const reviews = ld.review === undefined ? [] : (ld.review as Record<string, unknown>[]);
  if (!Array.isArray(reviews)) problems.push('review is not a list');
  for (const r of reviews) {
    if (r['@type'] !== 'Review') problems.push('review is not a Review');
    const author = r.author as Record<string, unknown> | undefined;
    if (author?.['@type'] !== 'Person' || !text(author.name)) problems.push('review without an author name');
    if (typeof r.datePublished !== 'string' || Number.isNaN(Date.parse(r.datePublished))) problems.push('review without a datePublished');
    if (!text(r.reviewBody)) problems.push('review without a reviewBody');
  }
  return problems;
}

describe('page heads', () => {
  let ctx: TestContext;
  let clientDir: string;

  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(os.tmpdir(), 'recensera-head-'));
    writeFileSync(path.join(clientDir, 'index.html'), INDEX);
    // More than a page of comments from two users: past the posting limit.
    ctx = await createTestApp({ clientDir, env: { RATE_LIMITS: '0' } });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const get = async (url: string, cookie?: string) => {
    const res = await ctx.app.inject({ url, headers: cookie ? { cookie } : {} });
    return { status: res.statusCode, head: headOf(res.body), body: res.body };
  };

  it('gives home, directory and static pages their own title, description, canonical and language alternates', async () => {
    const cases: [string, string, string, string][] = [
      ['/', '/', 'Recensera – betyg och omdömen om butiker och tjänster i Sverige', 'Recensera – ratings and reviews of stores and services in Sweden'],
      ['/business', '/business', 'Alla butiker – betyg och omdömen | Recensera', 'All stores – ratings and reviews | Recensera'],
      ['/About/', '/about', 'Om Recensera | Recensera', 'About Recensera | Recensera'],
      ['/contact', '/contact', 'Kontakta oss | Recensera', 'Contact us | Recensera'],
      ['/terms-of-use', '/terms-of-use', 'Användarvillkor | Recensera', 'Terms of use | Recensera'],
      ['/policy', '/policy', 'Integritetspolicy | Recensera', 'Privacy policy | Recensera'],
    ];
    const descriptions = new Set<string>();
    for (const [url, canonical, sv, en] of cases) {
      const swedish = await get(url);
      expect(swedish.status, url).toBe(200);
      expect(swedish.head.titles, url).toEqual([sv]);
      expect(swedish.head.descriptions, url).toHaveLength(1);
      expect(swedish.head.descriptions[0], url).not.toBe('Standard');
      descriptions.add(swedish.head.descriptions[0]);
      expect(swedish.head.canonical, url).toEqual([`${SITE}${canonical}`]);
      expect(swedish.head.alternates, url).toEqual([`sv ${SITE}${canonical}`, `en ${SITE}${canonical}?lang=en`, `x-default ${SITE}${canonical}`]);
      expect(swedish.head.robots, url).toEqual([]);
      expect(swedish.head.og.locale, url).toEqual(['sv_SE']);
      expect(swedish.head.og.url, url).toEqual([`${SITE}${canonical}`]);
      expect(swedish.head.og.image, url).toEqual([`${SITE}/icon-512.png`]);
      expect(swedish.head.twitter.card, url).toEqual(['summary']);
      expect(swedish.body, url).toContain('<html lang="sv"');

      // ?lang=en is the English page, whatever the cookie says; the cookie alone also gives English.
      for (const english of [await get(`${url}?lang=en`, 'lang=sv'), await get(url, 'lang=en')]) {
        expect(english.head.titles, url).toEqual([en]);
        expect(english.head.canonical, url).toEqual([`${SITE}${canonical}?lang=en`]);
        expect(english.head.alternates, url).toEqual([`sv ${SITE}${canonical}`, `en ${SITE}${canonical}?lang=en`, `x-default ${SITE}${canonical}`]);
        expect(english.head.og.locale, url).toEqual(['en_GB']);
        expect(english.body, url).toContain('<html lang="en"');
      }
      expect((await get(`${url}?lang=sv`, 'lang=en')).head.titles, url).toEqual([sv]);
    }
    expect(descriptions.size).toBe(cases.length);
  });

  it('marks account and admin pages noindex, without a canonical, each with its own title', async () => {
    for (const [url, title] of [
      ['/user', 'Din profil'],
      ['/user-mng', 'Användarhantering'],
      ['/business-mng', 'Företagshantering'],
      ['/cmt-mng', 'Kommentarshantering'],
      ['/mod-queue', 'Rapporter'],
      ['/mod-log', 'Moderationslogg'],
      ['/favorites/abc', 'Favoriter'],
      ['/reset-password', 'Välj ett nytt lösenord'],
      ['/users/confirm-email', 'Bekräfta e-postadress'],
    ]) {
      const { status, head } = await get(url);
      expect(status, url).toBe(200);
      expect(head.robots, url).toEqual(['noindex']);
      expect(head.canonical, url).toEqual([]);
      expect(head.alternates, url).toEqual([]);
      expect(head.titles, url).toEqual([`${title} | Recensera`]);
    }
    expect((await get('/user?lang=en')).head.titles).toEqual(['Your profile | Recensera']);
  });

  it('answers unknown pages 404 with a not-found head, noindex', async () => {
    for (const url of ['/no/such/page', '/business/no-such-business', '/comment/no-such-comment']) {
      const { status, head } = await get(url);
      expect(status, url).toBe(404);
      expect(head.titles, url).toEqual(['Sidan hittades inte | Recensera']);
      expect(head.robots, url).toEqual(['noindex']);
      expect(head.canonical, url).toEqual([]);
      expect(head.jsonLd, url).toEqual([]);
      expect((await get(`${url}?lang=en`)).head.titles, url).toEqual(['Page not found | Recensera']);
    }
  });

  it('gives a business page its rating in the title, its picture in the previews and schema.org data that passes the structure check', async () => {
    const { admin, owner, other } = await createCast(ctx.db);
    const business = await createBusiness(
      ctx.deps,
      admin.actor,
      {
        title: 'Åhléns </script><b>',
        category: 'Varuhus',
        description: 'Ett varuhus med kläder, skönhet och hem. '.repeat(8),
        branches: [
          { location: 'Stockholm', address: 'Drottninggatan 53' },
          { location: 'Malmö', address: '' },
        ],
      },
      { image: await png('#c33'), icon: await png('#33c') },
    );
    expect(business.image).toMatch(/^\/uploads\//);
    const url = `/business/${business.id}`;

    // Nobody has rated: no aggregateRating (Google asks for none), and a title without a count.
    const unrated = await get(url);
    expect(unrated.status).toBe(200);
    expect(unrated.head.titles.map(html)).toEqual(['Åhléns </script><b> – omdömen och betyg | Recensera']);
    const [bare] = unrated.head.jsonLd;
    expect(bare).toBeDefined();
    expect(businessStructureProblems(bare)).toEqual([]);
    expect(bare).not.toHaveProperty('aggregateRating');
    expect(bare).not.toHaveProperty('review');
    // The JSON-LD cannot end its script element early.
    expect(unrated.body).not.toContain('</script><b>');

    await rateBusiness(ctx.deps, owner.actor, business.id, 5);
    await rateBusiness(ctx.deps, other.actor, business.id, 4);
    for (let i = 0; i < 22; i++) {
      await createComment(ctx.deps, i % 2 ? owner.actor : other.actor, {
        businessId: business.id,
        text: `Omdöme nummer ${i}: bra service.`,
        businessLocation: 'Stockholm',
      });
    }

    const sv = await get(url);
    expect(sv.status).toBe(200);
    expect(sv.head.titles.map(html)).toEqual(['Åhléns </script><b> – omdömen och betyg från 2 kunder | Recensera']);
    const description = html(sv.head.descriptions[0]);
    expect(description).toMatch(/^4,5 av 5 i betyg från 2 kunder\. Ett varuhus med kläder/);
    expect(Array.from(description).length).toBeLessThanOrEqual(160);
    expect(sv.head.canonical).toEqual([`${SITE}${url}`]);
    expect(sv.head.alternates).toEqual([`sv ${SITE}${url}`, `en ${SITE}${url}?lang=en`, `x-default ${SITE}${url}`]);
    expect(sv.head.og.type).toEqual(['business.business']);
    expect(sv.head.og.title.map(html)).toEqual(['Åhléns </script><b> – omdömen och betyg från 2 kunder']);
    expect(sv.head.og.description).toEqual(sv.head.descriptions);
    expect(sv.head.og.locale).toEqual(['sv_SE']);
    expect(sv.head.twitter.title).toEqual(sv.head.og.title);
    // The business's picture, as an absolute URL, shown large.
    expect(sv.head.og.image).toEqual([`${SITE}${business.image}`]);
    expect(sv.head.twitter.image).toEqual([`${SITE}${business.image}`]);
    expect(sv.head.twitter.card).toEqual(['summary_large_image']);

    const [ld] = sv.head.jsonLd;
    expect(sv.head.jsonLd).toHaveLength(1);
    expect(businessStructureProblems(ld)).toEqual([]);
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'DepartmentStore',
      name: 'Åhléns </script><b>',
      url: `${SITE}${url}`,
      image: `${SITE}${business.image}`,
      address: [
        { '@type': 'PostalAddress', streetAddress: 'Drottninggatan 53', addressLocality: 'Stockholm', addressCountry: 'SE' },
        { '@type': 'PostalAddress', addressLocality: 'Malmö', addressCountry: 'SE' },
      ],
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.5, ratingCount: 2, bestRating: 5, worstRating: 1 },
    });
    // The first page of comments (20), newest first.
    const reviews = ld.review as { author: { name: string }; reviewBody: string; datePublished: string }[];
    expect(reviews).toHaveLength(20);
    expect(reviews[0]).toMatchObject({ '@type': 'Review', author: { '@type': 'Person', name: 'Olle Owner' }, reviewBody: 'Omdöme nummer 21: bra service.' });

    const en = await get(`${url}?lang=en`);
    expect(en.head.titles.map(html)).toEqual(['Åhléns </script><b> – reviews and ratings from 2 customers | Recensera']);
    expect(html(en.head.descriptions[0])).toMatch(/^Rated 4\.5 out of 5 by 2 customers\. /);
    expect(en.head.canonical).toEqual([`${SITE}${url}?lang=en`]);
    expect(en.head.og.locale).toEqual(['en_GB']);
    expect(en.head.jsonLd[0]).toMatchObject({ url: `${SITE}${url}?lang=en`, aggregateRating: { ratingCount: 2 } });
    expect(en.head.jsonLd[0].review).toHaveLength(20);

    // An icon alone is the preview's picture, as a small card.
    const iconOnly = await createBusiness(
      ctx.deps,
      admin.actor,
      { title: 'Ikonen', category: 'Apotek', description: 'Bara en ikon', rate: 4, branches: [{ location: 'Lund' }] },
      { icon: await png('#3cc') },
    );
    const iconHead = (await get(`/business/${iconOnly.id}`)).head;
    expect(iconHead.og.image).toEqual([`${SITE}${iconOnly.icon}`]);
    expect(iconHead.twitter.card).toEqual(['summary']);
    expect(iconHead.jsonLd[0]).toMatchObject({ '@type': 'Pharmacy', image: `${SITE}${iconOnly.icon}` });

    // An SVG (the demo data's icons) is no picture for a preview: the site's icon stands in.
    ctx.db.update(images).set({ fileName: 'ikon.svg' }).where(eq(images.id, iconOnly.iconId!)).run();
    const svgHead = (await get(`/business/${iconOnly.id}`)).head;
    expect(svgHead.og.image).toEqual([`${SITE}/icon-512.png`]);
    expect(svgHead.jsonLd[0]).toMatchObject({ image: `${SITE}/uploads/ikon.svg` });

    // The head is the anonymous view: a signed-in visitor's own rating does not change it.
    const signedIn = await get(url, `session=${owner.token}`);
    expect(signedIn.head).toEqual(sv.head);
  });

  it("puts a business's facts in its schema.org data: website as url, telephone, geo and opening hours (issue 31.1)", async () => {
    const admin = await createTestUser(ctx.db, { isAdmin: true });
    const one = await createBusiness(ctx.deps, admin.actor, {
      title: 'Pizzeria Torget',
      category: 'Restaurang',
      description: 'Pizza vid torget.',
      branches: [{ location: 'Malmö Hyllie', address: 'Torget 1' }],
    });
    const weekly = [{ day: 1, opens: '10:00', closes: '21:00' }];
    await editBusinessFacts(ctx.deps, admin.actor, one.id, {
      website: 'https://pizzeriatorget.se',
      phone: '040-12 34 56',
      branches: [
        {
          id: one.branches[0].id,
          postalCode: '215 32',
          lat: 55.5633,
          lng: 12.9757,
          openingHours: { weekly, exceptions: [{ date: '2026-12-25', periods: [] }] },
        },
      ],
    });
    const [ld] = (await get(`/business/${one.id}`)).head.jsonLd;
    expect(businessStructureProblems(ld)).toEqual([]);
    expect(ld).toMatchObject({
      url: 'https://pizzeriatorget.se',
      telephone: '040-12 34 56',
      address: [{ '@type': 'PostalAddress', streetAddress: 'Torget 1', postalCode: '215 32', addressLocality: 'Malmö', addressCountry: 'SE' }],
      geo: { '@type': 'GeoCoordinates', latitude: 55.5633, longitude: 12.9757 },
      openingHoursSpecification: [
        { '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Monday', opens: '10:00', closes: '21:00' },
        { '@type': 'OpeningHoursSpecification', validFrom: '2026-12-25', validThrough: '2026-12-25', opens: '00:00', closes: '00:00' },
      ],
    });
    // Several branches: each with facts is a department of its own.
    const two = await createBusiness(ctx.deps, admin.actor, {
      title: 'Två Filialer',
      category: 'Restaurang',
      description: 'Två ställen.',
      branches: [{ location: 'Lund' }, { location: 'Umeå' }],
    });
    await editBusinessFacts(ctx.deps, admin.actor, two.id, { branches: [{ id: two.branches[1].id, lat: 63.8258, lng: 20.263, phone: '090-11 22 33' }] });
    const [multi] = (await get(`/business/${two.id}`)).head.jsonLd;
    expect(multi.geo).toBeUndefined();
    expect(multi.department).toEqual([
      expect.objectContaining({
        name: 'Två Filialer Umeå',
        telephone: '090-11 22 33',
        geo: { '@type': 'GeoCoordinates', latitude: 63.8258, longitude: 20.263 },
      }),
    ]);
  });

  it('gives a comment page its author, business and excerpt, its photo in the previews and a schema.org Review', async () => {
    const { admin, owner } = await createCast(ctx.db);
    const business = await createBusiness(ctx.deps, admin.actor, {
      title: 'Kaffebaren',
      category: 'Kafé',
      description: 'Kaffe och bullar',
      rate: 4,
      branches: [{ location: 'Lund' }],
    });
    const text = 'Fantastiskt gott kaffe och trevlig personal, men det var lite trångt vid fönsterborden en lördag förmiddag när alla ville sitta där.';
    const comment = await createComment(ctx.deps, owner.actor, { businessId: business.id, text, businessLocation: 'Lund', imageBytes: await png('#3c3') });
    expect(comment.image).toMatch(/^\/uploads\//);
    const url = `/comment/${comment._id}`;
    const sv = await get(url);
    expect(sv.status).toBe(200);
    expect(sv.head.titles).toHaveLength(1);
    expect(html(sv.head.titles[0])).toMatch(/^Olle Owner om Kaffebaren: ”Fantastiskt gott kaffe och trevlig personal, men det var…” \| Recensera$/);
    expect(html(sv.head.descriptions[0])).toMatch(/^Olle Owner om Kaffebaren på Recensera: ”Fantastiskt gott kaffe .*…”$/);
    expect(sv.head.canonical).toEqual([`${SITE}${url}`]);
    expect(sv.head.alternates).toEqual([`sv ${SITE}${url}`, `en ${SITE}${url}?lang=en`, `x-default ${SITE}${url}`]);
    expect(sv.head.og.type).toEqual(['article']);
    // The comment's photo, as an absolute URL.
    expect(sv.head.og.image).toEqual([`${SITE}${comment.image}`]);
    expect(sv.head.twitter.card).toEqual(['summary_large_image']);
    // The photo is the page's largest paint: asked for before the styles and scripts.
    expect(sv.body).toContain(`<link rel="preload" as="image" href="${comment.image}" fetchpriority="high">`);
    expect(sv.head.jsonLd).toHaveLength(1);
    expect(sv.head.jsonLd[0]).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Review',
      author: { '@type': 'Person', name: 'Olle Owner' },
      datePublished: comment.date,
      reviewBody: text,
      image: `${SITE}${comment.image}`,
      itemReviewed: { '@type': 'LocalBusiness', name: 'Kaffebaren', url: `${SITE}/business/${business.id}` },
    });

    const en = await get(`${url}?lang=en`);
    expect(html(en.head.titles[0])).toMatch(/^Olle Owner on Kaffebaren: “Fantastiskt gott kaffe/);
    expect(en.head.canonical).toEqual([`${SITE}${url}?lang=en`]);
    expect(en.head.og.locale).toEqual(['en_GB']);
  });

  it("carries the business's answer to a review as a Comment by the business, on the comment and business pages", async () => {
    const { admin, owner, other } = await createCast(ctx.db);
    const business = await createBusiness(ctx.deps, admin.actor, {
      title: 'Svarsbaren',
      category: 'Kafé',
      description: 'Kaffe',
      branches: [{ location: 'Lund' }],
    });
    const { claim } = await claimBusiness(ctx.deps, owner.actor, { businessId: business.id });
    await decideClaim(ctx.deps, admin.actor, { id: claim._id, decision: 'approve' });
    const review = await createComment(ctx.deps, other.actor, { businessId: business.id, text: 'Gott men dyrt.', businessLocation: 'Lund' });
    const answered = await putOwnerReply(ctx.deps, owner.actor, { commentId: review._id, text: 'Tack, vi ser över priserna!' });
    const comment = {
      '@type': 'Comment',
      text: 'Tack, vi ser över priserna!',
      dateCreated: answered.ownerReply?.createdAt,
      author: { '@type': 'Organization', name: 'Svarsbaren', url: `${SITE}/business/${business.id}` },
    };
    expect((await get(`/comment/${review._id}`)).head.jsonLd[0]).toMatchObject({ '@type': 'Review', comment });
    const page = await get(`/business/${business.id}`);
    expect((page.head.jsonLd[0].review as unknown[])[0]).toMatchObject({ reviewBody: 'Gott men dyrt.', comment });

    // Hidden after reports (issue 31.7): gone from both pages' JSON-LD and first paint.
    const reporters = await Promise.all([1, 2, 3].map(() => createTestUser(ctx.db)));
    await establish(ctx.deps, reporters);
    for (const r of reporters) await reportPost(ctx.deps, r.actor, 'ownerReply', { id: review._id, reason: 'offensive' });
    for (const url of [`/comment/${review._id}`, `/business/${business.id}`]) {
      const hidden = await get(url);
      expect(JSON.stringify(hidden.head.jsonLd)).toContain('Gott men dyrt.');
      expect(hidden.body).not.toContain('Tack, vi ser över priserna!');
    }
  });

  it('answers a comment removed by a moderator (kept for its replies) 410, noindex', async () => {
    const { admin, owner, other } = await createCast(ctx.db);
    const business = await createBusiness(ctx.deps, admin.actor, {
      title: 'Bageriet',
      category: 'Livsmedel',
      description: 'Bröd',
      rate: 4,
      branches: [{ location: 'Lund' }],
    });
    const comment = await createComment(ctx.deps, owner.actor, { businessId: business.id, text: 'Elakt omdöme', businessLocation: 'Lund' });
    await createReply(ctx.deps, other.actor, { commentId: comment._id, text: 'Ett svar' });
    const url = `/comment/${comment._id}`;
    expect((await get(url)).status).toBe(200);
    await reportPost(ctx.deps, other.actor, 'comment', { id: comment._id, reason: 'offensive' });
    await resolveReports(ctx.deps, admin.actor, { id: comment._id, action: 'remove' });
    const gone = await get(url);
    expect(gone.status).toBe(410);
    expect(gone.head.titles).toEqual(['Inlägget har tagits bort | Recensera']);
    expect(gone.head.robots).toEqual(['noindex']);
    expect(gone.head.jsonLd).toEqual([]);
    expect(gone.body).toContain('<div id="root">');
  });

  it('has a structure check that finds what Google would refuse', () => {
    const good = { '@context': 'https://schema.org', '@type': 'GroceryStore', name: 'ICA', address: [{ '@type': 'PostalAddress', addressLocality: 'Lund' }] };
    expect(businessStructureProblems(good)).toEqual([]);
    expect(businessStructureProblems({ ...good, '@type': 'Thing', name: '' })).toEqual(['@type Thing is no LocalBusiness type', 'name missing']);
    expect(businessStructureProblems({ ...good, aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.5', ratingCount: 0 } })).toEqual([
      'ratingValue is not a number',
      'ratingCount is not a whole number ≥ 1',
    ]);
    expect(businessStructureProblems({ ...good, review: [{ '@type': 'Review', author: 'x', reviewBody: '' }] })).toEqual([
      'review without an author name',
      'review without a datePublished',
      'review without a reviewBody',
    ]);
  });

  it('picks a schema.org type from the category', () => {
    expect(businessTypeOf('Livsmedel')).toBe('GroceryStore');
    expect(businessTypeOf('Apotek')).toBe('Pharmacy');
    expect(businessTypeOf('Möbler och inredning')).toBe('FurnitureStore');
    expect(businessTypeOf('Snabbmat')).toBe('FastFoodRestaurant');
    expect(businessTypeOf('Post och paket')).toBe('LocalBusiness');
  });
});
