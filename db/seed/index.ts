import type { Deps } from '../../server/deps';

export type SeedResult = { password: string; accounts: { email: string; isAdmin: boolean }[] } | null;

/** Fills a fresh database with demo data; returns null when the database already has data. */
export async function seedDemoData(deps: Deps): Promise<SeedResult> {
  void deps;
  return null;
}
