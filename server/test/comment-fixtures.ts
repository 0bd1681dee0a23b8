import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Db } from '../../db/client';
import { businesses, images } from '../../db/schema';
import type { Deps } from '../services/deps';
import { newId } from '../lib/ids';
import { swedishSortKey } from '../lib/sv-sort-key';
import { resolveCategory } from '../services/business/categories';

/**
 * Test set-up for the comment tests: a business row inserted directly (the businesses area
 * has its own tests for creating them), and pictures to attach.
 */
export function insertBusiness(db: Db, title = `Butik ${newId().slice(0, 6)}`): string {
  const id = newId();
  const now = Date.now();
  db.insert(businesses)
    .values({
      id,
      title,
      titleSearch: title.toLowerCase(),
      titleSort: swedishSortKey(title),
      categoryId: resolveCategory(db, 'Livsmedel', undefined, now),
      description: 'En butik.',
      createdAt: now,
      updatedAt: now,
    })
    .run();
  return id;
}

let colour = 0;
/** A small PNG with a colour of its own, so every call stores a distinct file. */
export async function pngBytes(width = 64, height = 48): Promise<Buffer> {
  colour += 1;
  const background = { r: colour % 256, g: (colour * 7) % 256, b: (colour * 13) % 256 };
  return sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
}

export function commentCountOf(db: Db, businessId: string): number {
  return db.select({ n: businesses.commentCount }).from(businesses).where(eq(businesses.id, businessId)).get()?.n ?? -1;
}

/** The file of a stored image (to check it is gone after a delete), or null without a row. */
export function imageFile(deps: Deps, id: string): string | null {
  const row = deps.db.select({ fileName: images.fileName }).from(images).where(eq(images.id, id)).get();
  return row ? path.join(deps.paths.uploads, row.fileName) : null;
}

export const fileExists = (file: string) => existsSync(file);
