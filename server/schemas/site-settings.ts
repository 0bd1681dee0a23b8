// Kept free of zod: the client's first chunk reads this.

/** The footer's links to the community's pages elsewhere (SOCIAL_*_URL); an unset one is absent. */
export type SocialLinks = Partial<Record<SocialNetwork, string>>;
export const SOCIAL_NETWORKS = ['facebook', 'instagram', 'linkedin'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/**
 * The <meta> the server adds to every page (server/plugins/site-settings.ts) when any link is
 * set: its content is the links as JSON. Pages prerendered at build time cannot know them.
 */
export const SOCIAL_META = 'recensera:social';

/** The links from the meta's content: only the known networks, only https addresses. */
export function parseSocialLinks(content: string | null | undefined): SocialLinks {
  if (!content) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return {};
  }
  if (!parsed || typeof parsed !== 'object') return {};
  const links: SocialLinks = {};
  for (const network of SOCIAL_NETWORKS) {
    const url = (parsed as Record<string, unknown>)[network];
    if (typeof url === 'string' && url.startsWith('https://')) links[network] = url;
  }
  return links;
}
