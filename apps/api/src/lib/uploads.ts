import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database, Executor } from '../db/client.ts';
import { uploads, users, type UploadPurpose } from '../db/schema.ts';
import { AppError, fieldError } from './errors.ts';
import { recordAudit, type AuditActor } from './audit.ts';

/** Images we store: News covers, reward images, social-action screenshots. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** `@fastify/multipart` limits of a route that takes one file (field `file`) of at most an image's size. */
export const SINGLE_FILE_LIMITS = { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 0, parts: 1, fieldNameSize: 100, headerPairs: 50 };

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
 * Stores the file under a random, unguessable id, then records it with its purpose (and the API key
 * that sent it). The file is written first so a row never points at nothing; if recording fails the
 * file is removed again.
 *
 * Quotas (413 beyond), counted with the uploader's row locked so that parallel uploads are counted
 * one by one: a staff member may keep `quotaBytes` of images; an API key may have `quotaBytes` of
 * screenshots waiting for their proof (those no proof references yet; the daily clean-up deletes
 * the ones still waiting after a day, social-proofs' purgeUnusedProofImages).
 */
export async function storeImage(
  deps: { db: Database; dataDir: string; quotaBytes: number },
  actor: AuditActor,
  file: {
    bytes: Buffer;
    type: ImageType;
    fileName: string;
    purpose: UploadPurpose;
    /** The staff member who sent it (counted in their quota), or null. */
    uploadedBy: string | null;
    /** The API key that sent it (a proof's screenshot), or null. */
    apiKeyId?: string | null;
  },
): Promise<{ id: string }> {
  const id = randomBytes(18).toString('base64url');
  const target = filePath(deps.dataDir, id, file.type.extension);
  await mkdir(uploadsDir(deps.dataDir), { recursive: true });
  await writeFile(target, file.bytes, { flag: 'wx' });
  try {
    await deps.db.transaction(async (tx) => {
      const uploader = file.uploadedBy;
      const apiKeyId = file.apiKeyId ?? null;
      let usedBytes = 0;
      if (uploader !== null) {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, uploader)).for('update');
        const [used] = await tx
          .select({ bytes: sql<string>`coalesce(sum(${uploads.size}), 0)` })
          .from(uploads)
          .where(eq(uploads.uploadedBy, uploader));
        usedBytes = Number(used?.bytes ?? 0);
      } else if (apiKeyId !== null) {
        await tx.execute(sql`select 1 from api_keys where id = ${apiKeyId} for update`);
        const result = (await tx.execute(
          sql`select coalesce(sum(u.size), 0) as bytes from uploads u
              where u.api_key_id = ${apiKeyId} and not exists (select 1 from social_proofs p where p.image_id = u.id)`,
        )) as unknown as { rows: { bytes: string | number }[] };
        usedBytes = Number(result.rows[0]?.bytes ?? 0);
      }
      if (usedBytes + file.bytes.length > deps.quotaBytes) {
        throw new AppError(413, 'payload_too_large', {
          text: 'upload_quota',
          params: { megabytes: Math.floor(deps.quotaBytes / (1024 * 1024)), per: apiKeyId !== null ? 'apiKey' : 'user' },
        });
      }
      const row = {
        id,
        // Kept for people, never used to build a path.
        fileName: path.basename(file.fileName).slice(0, 255),
        contentType: file.type.contentType,
        size: file.bytes.length,
        uploadedBy: file.uploadedBy,
        purpose: file.purpose,
        apiKeyId,
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

/** An upload's id: 18 random bytes in base64url (`storeImage`). */
export const UPLOAD_ID = /^[A-Za-z0-9_-]{24}$/;

/** For the audit list: these uploads by the name their file had, in one query. */
export async function uploadNames(executor: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await executor.select({ id: uploads.id, fileName: uploads.fileName }).from(uploads).where(inArray(uploads.id, ids));
  return new Map(rows.map((row) => [row.id, row.fileName]));
}

/** An upload's row (no file read): enough to answer a revalidation with 304. */
export async function findStoredImage(db: Database, id: string): Promise<{ id: string; contentType: string; purpose: UploadPurpose | null } | null> {
  const [row] = await db.select({ id: uploads.id, contentType: uploads.contentType, purpose: uploads.purpose }).from(uploads).where(eq(uploads.id, id)).limit(1);
  return row && EXTENSIONS[row.contentType] ? row : null;
}

export async function readStoredImage(
  deps: { db: Database; dataDir: string },
  id: string,
): Promise<{ bytes: Buffer; contentType: string; purpose: UploadPurpose | null } | null> {
  const row = await findStoredImage(deps.db, id);
  if (!row) return null;
  try {
    return { bytes: await readFile(filePath(deps.dataDir, row.id, EXTENSIONS[row.contentType]!)), contentType: row.contentType, purpose: row.purpose };
  } catch {
    return null;
  }
}

/**
 * Reads the one file of a multipart request (field `file`), or answers 415 (not multipart) or 400
 * naming the field; 413 (payload_too_large) once the stream passes the route's limit. Every upload
 * route reads its file here (issue 26: upload parsing once).
 */
export async function readUploadedFile(request: FastifyRequest): Promise<{ bytes: Buffer; fileName: string }> {
  if (!request.isMultipart()) {
    throw new AppError(415, 'unsupported_media_type', { text: 'multipart_required' });
  }
  const file = await request.file();
  if (!file || file.fieldname !== 'file') throw fieldError('file', 'required');
  return { bytes: await file.toBuffer(), fileName: file.filename };
}

/** An uploaded image, its type found by its content (a renamed script is refused with 415). */
export async function readUploadedImage(request: FastifyRequest): Promise<{ bytes: Buffer; fileName: string; type: ImageType }> {
  const { bytes, fileName } = await readUploadedFile(request);
  const type = detectImageType(bytes);
  if (!type) {
    throw new AppError(415, 'unsupported_media_type', { text: 'image_type', fields: [{ field: 'file', message: 'invalid' }] });
  }
  return { bytes, fileName, type };
}
