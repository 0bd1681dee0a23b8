import { and, asc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../../db/client';
import { contactMessages, mailOutbox } from '../../../db/schema';
import type { Deps, Outbox } from '../deps';
import { newId } from '../../lib/ids';
import { unshownWrite } from '../../lib/data-stamp';
import { requireAdmin, type Actor } from '../actor';
import { MailSendError, redactMailText, type Mail, type Mailer } from './mail';

type Log = { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void };

/** Attempts before a mail is given up (and left for admins to see): about 8.5 hours of retries. */
export const MAIL_MAX_ATTEMPTS = 10;
const FIRST_RETRY_MS = 60_000;
const MAX_RETRY_MS = 6 * 60 * 60 * 1000;
/** What is left of a given-up mail's body (it may have held a sign-in link). */
export const GIVEN_UP_BODY = '[removed: this mail was given up]';
/** How often the worker looks for retries that have come due. */
const POLL_MS = 15_000;
const BATCH = 20;

/** Backoff after the n-th failed attempt: 1, 2, 4 … minutes, at most 6 hours. */
export const retryDelayMs = (attempts: number) => Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);

/**
 * Queues a mail; synchronous, so it can be part of the transaction that issues a token. The
 * worker sends it right after the caller's code has run (and the transaction has committed).
 */
export function enqueueMail(db: DbOrTx, mail: Mail, options: { contactMessageId?: string; now?: number; sendAt?: number } = {}): string {
  const id = newId();
  const now = options.now ?? Date.now();
  db.insert(mailOutbox)
    .values({
      id,
      toAddress: mail.to,
      replyTo: mail.replyTo ?? null,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html ?? null,
      headers: mail.headers ? JSON.stringify(mail.headers) : null,
      contactMessageId: options.contactMessageId ?? null,
      // A mail held back (an admin's digest) waits until sendAt; the worker's poll sends it then.
      nextAttemptAt: Math.max(now, options.sendAt ?? now),
      createdAt: now,
    })
    .run();
  return id;
}

/**
 * Rewrites a mail that is still waiting for its first attempt (a digest gathering more items);
 * false when it has been tried or sent meanwhile, so the caller queues a new one instead.
 */
export function rewriteWaitingMail(db: DbOrTx, id: string, mail: Pick<Mail, 'subject' | 'text'>): boolean {
  const changed = db
    .update(mailOutbox)
    .set({ subject: mail.subject, textBody: mail.text })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.attempts, 0), isNull(mailOutbox.failedAt)))
    .run();
  return changed.changes === 1;
}

/** What an admin sees of a mail that could not be sent yet: never its body (it may hold a link). */
export type QueuedMail = {
  id: string;
  to: string;
  subject: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: number | null;
  failedAt: number | null;
  createdAt: number;
};

export type OutboxReport = { waiting: number; failed: number; failing: QueuedMail[] };

/**
 * For admins: how many mails wait, how many were given up, and the newest 100 that failed at
 * least once (sent mails are deleted, so a healthy site shows none).
 */
export function outboxReport(deps: Deps, actor: Actor): OutboxReport {
  requireAdmin(actor);
  return { ...outboxCounts(deps.db), failing: failingMails(deps.db) };
}

function failingMails(db: Db, limit = 100): QueuedMail[] {
  return db
    .select({
      id: mailOutbox.id,
      to: mailOutbox.toAddress,
      subject: mailOutbox.subject,
      attempts: mailOutbox.attempts,
      lastError: mailOutbox.lastError,
      nextAttemptAt: mailOutbox.nextAttemptAt,
      failedAt: mailOutbox.failedAt,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .where(sql`${mailOutbox.attempts} > 0`)
    .orderBy(sql`${mailOutbox.createdAt} desc`)
    .limit(limit)
    .all()
    .map((row) => ({ ...row, nextAttemptAt: row.failedAt === null ? row.nextAttemptAt : null }));
}

function outboxCounts(db: Db): { waiting: number; failed: number } {
  const row = db
    .select({
      waiting: sql<number>`count(*) - count(${mailOutbox.failedAt})`,
      failed: sql<number>`count(${mailOutbox.failedAt})`,
    })
    .from(mailOutbox)
    .get();
  return { waiting: row?.waiting ?? 0, failed: row?.failed ?? 0 };
}

/** An error as one short line for the admin list and the log: no stack, no credentials, no addresses. */
function describeError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return redactMailText(message).replace(/\s+/g, ' ').slice(0, 300);
}

export type { Outbox };

/**
 * The worker that sends queued mails through `transport` (SMTP, or the outbox folder without
 * SMTP_URL). One delivery runs at a time; a wake-up during a run makes it look again when it
 * ends. `now` is injectable so tests move time instead of waiting for retries.
 */
export function createOutbox(db: Db, transport: Mailer, log: Log, options: { now?: () => number; pollMs?: number | null } = {}): Outbox {
  const now = options.now ?? Date.now;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  async function sendOne(row: typeof mailOutbox.$inferSelect) {
    try {
      await transport.send({
        to: row.toAddress,
        subject: row.subject,
        text: row.textBody,
        ...(row.htmlBody === null ? {} : { html: row.htmlBody }),
        ...(row.replyTo === null ? {} : { replyTo: row.replyTo }),
        ...(row.headers === null ? {} : { headers: JSON.parse(row.headers) as Record<string, string> }),
      });
    } catch (err) {
      const attempts = row.attempts + 1;
      // Refused for good (550 no such user …): given up at once, not retried for hours.
      const permanent = err instanceof MailSendError && err.permanent;
      const lastError = `${permanent ? 'Refused: ' : ''}${describeError(err)}`;
      const givenUp = permanent || attempts >= MAIL_MAX_ATTEMPTS;
      const at = now();
      // The outbox is no public data: its writes leave the data stamp (and the public cache) alone.
      unshownWrite(db, () =>
        db
          .update(mailOutbox)
          .set({
            attempts,
            lastError,
            nextAttemptAt: at + retryDelayMs(attempts),
            failedAt: givenUp ? at : null,
            // A given-up mail's link would still work for a while: its body is not kept.
            ...(givenUp ? { textBody: GIVEN_UP_BODY, htmlBody: null } : {}),
          })
          .where(eq(mailOutbox.id, row.id))
          .run(),
      );
      log.error(
        { mailId: row.id, attempts, givenUp, error: lastError },
        permanent ? 'mail given up: the mail server refused it' : givenUp ? 'mail given up' : 'mail not sent, will retry',
      );
      return;
    }
    // A sent mail leaves the outbox (and marks an admin-only contact message): no public data.
    unshownWrite(db, () =>
      db.transaction((tx) => {
        if (row.contactMessageId) tx.update(contactMessages).set({ mailedAt: now() }).where(eq(contactMessages.id, row.contactMessageId)).run();
        tx.delete(mailOutbox).where(eq(mailOutbox.id, row.id)).run();
      }),
    );
    // No address or subject: the log must not say who gets which mail.
    log.info({ mailId: row.id, attempts: row.attempts + 1, queuedMs: now() - row.createdAt }, 'mail sent');
  }

  async function run() {
    do {
      again = false;
      for (;;) {
        const due = db
          .select()
          .from(mailOutbox)
          .where(and(isNull(mailOutbox.failedAt), lte(mailOutbox.nextAttemptAt, now())))
          .orderBy(asc(mailOutbox.nextAttemptAt))
          .limit(BATCH)
          .all();
        for (const row of due) await sendOne(row);
        if (due.length < BATCH) break;
      }
    } while (again && !stopped);
  }

  function deliverDue(): Promise<void> {
    // Stopped: only the run in flight (if any) is waited for, so a shutdown can close the database.
    if (stopped) return running ?? Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = run()
      .catch((err: unknown) => log.error({ error: describeError(err) }, 'mail outbox failed'))
      .finally(() => {
        running = null;
      });
    return running;
  }

  const pollMs = options.pollMs === undefined ? POLL_MS : options.pollMs;
  const timer = pollMs === null ? null : setInterval(() => void deliverDue(), pollMs);
  timer?.unref();

  return {
    enqueue(mail, { db: into = db, contactMessageId, sendAt } = {}) {
      const id = enqueueMail(into, mail, { contactMessageId, now: now(), sendAt });
      // After the caller's synchronous code, so a mail queued inside a transaction is committed.
      if (!stopped) setImmediate(() => void deliverDue());
      return id;
    },
    deliverDue,
    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
    },
  };
}
