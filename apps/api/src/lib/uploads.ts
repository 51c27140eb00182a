import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { uploads, users } from '../db/schema.ts';
import { AppError } from './errors.ts';
import { recordAudit, type AuditActor } from './audit.ts';

/** Images we store: News covers, reward images, social-action screenshots. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

export type ImageType = { contentType: string; extension: string };

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
  return bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);
}

const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));

/**
 * The image type by its magic bytes. The declared Content-Type and the file name are the sender's
 * claims and are ignored: a script renamed to .png is not an image.
 */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, PNG)) return { contentType: 'image/png', extension: 'png' };
  if (startsWith(bytes, JPEG)) return { contentType: 'image/jpeg', extension: 'jpg' };
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) {
    return { contentType: 'image/gif', extension: 'gif' };
  }
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) {
    return { contentType: 'image/webp', extension: 'webp' };
  }
  return null;
}

export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

function filePath(dataDir: string, id: string, extension: string): string {
  return path.join(uploadsDir(dataDir), `${id}.${extension}`);
}

/** Deletes stored images' files (their rows are gone already, e.g. an erasure request's screenshots). */
export async function removeStoredImages(dataDir: string, images: { id: string; contentType: string }[]): Promise<void> {
  for (const image of images) {
    const extension = EXTENSIONS[image.contentType];
    if (extension) await rm(filePath(dataDir, image.id, extension), { force: true });
  }
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * Stores the file under a random, unguessable id, then records it. The file is written first so a
 * row never points at nothing; if recording fails the file is removed again.
 */
export async function storeImage(
  deps: { db: Database; dataDir: string; quotaBytes: number },
  actor: AuditActor,
  /** `uploadedBy` null: sent by an integration key (a proof's screenshot), counted in no user's quota. */
  file: { bytes: Buffer; type: ImageType; fileName: string; uploadedBy: string | null },
): Promise<{ id: string }> {
  const id = randomBytes(18).toString('base64url');
  const target = filePath(deps.dataDir, id, file.type.extension);
  await mkdir(uploadsDir(deps.dataDir), { recursive: true });
  await writeFile(target, file.bytes, { flag: 'wx' });
  try {
    await deps.db.transaction(async (tx) => {
      // Per-user quota: the uploader's row is locked so that parallel uploads are counted one by one.
      const uploader = file.uploadedBy;
      let usedBytes = 0;
      if (uploader !== null) {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, uploader)).for('update');
        const [used] = await tx
          .select({ bytes: sql<string>`coalesce(sum(${uploads.size}), 0)` })
          .from(uploads)
          .where(eq(uploads.uploadedBy, uploader));
        usedBytes = Number(used?.bytes ?? 0);
      }
      if (usedBytes + file.bytes.length > deps.quotaBytes) {
        throw new AppError(
          413,
          'payload_too_large',
          `Upload quota reached: at most ${Math.floor(deps.quotaBytes / (1024 * 1024))} MB of images per user`,
        );
      }
      const row = {
        id,
        // Kept for people, never used to build a path.
        fileName: path.basename(file.fileName).slice(0, 255),
        contentType: file.type.contentType,
        size: file.bytes.length,
        uploadedBy: file.uploadedBy,
      };
      await tx.insert(uploads).values(row);
      await recordAudit(tx, actor, { action: 'upload.create', entityType: 'upload', entityId: id, after: row });
    });
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  }
  return { id };
}

export async function readStoredImage(
  deps: { db: Database; dataDir: string },
  id: string,
): Promise<{ bytes: Buffer; contentType: string } | null> {
  const [row] = await deps.db.select().from(uploads).where(eq(uploads.id, id)).limit(1);
  const extension = row ? EXTENSIONS[row.contentType] : undefined;
  if (!row || !extension) return null;
  try {
    return { bytes: await readFile(filePath(deps.dataDir, row.id, extension)), contentType: row.contentType };
  } catch {
    return null;
  }
}
