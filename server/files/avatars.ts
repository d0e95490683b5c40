// Avatar pictures (issue 22 finding 4): the upload streamed, never held whole, into a file under the data dir on
// PGlite (which runs on the event loop: its writes of a 2 MiB picture stalled every request) or, over PostgreSQL
// (every instance must see them), into 64 KiB chunk rows passed as base64 (no query writes or reads a whole
// picture); the replaced picture deleted once the new one is the head portrait; reads served from a small in-memory
// cache (a fileKey never changes its bytes).
import { writePieces } from './write-pieces.ts'
import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Context } from 'hono'
import { sql, type Kysely } from 'kysely'
import { AVATAR_MAX_BYTES } from '../../worker/protocol/files.ts'
import { accountDb } from '../account/tables.ts'
import type { Database } from '../db/schema.ts'
import { DomainError, Status } from '../http/errors.ts'
import type { FilesDb } from './tables.ts'

/** bytes per stored chunk: the most one query writes or reads. */
export const AVATAR_CHUNK_BYTES = 64 * 1024
/** an upload still writing after this long is taken as dead and removed. */
const STALE_UPLOAD_MS = 15 * 60_000
/** what the read cache may hold in all, and how long an entry is trusted (another instance may delete it). */
const CACHE_MAX_BYTES = 32 * 1024 * 1024
const CACHE_TTL_MS = 10 * 60_000

export const AvatarMsg = {
  size: `图片不能超过${AVATAR_MAX_BYTES / 1024 / 1024}MB`,
  empty: '图片内容为空',
  content: '文件内容与图片格式不符',
  interrupted: '上传中断，请重新上传',
} as const

export interface StoredFile {
  readonly id: number
  readonly fileKey: string
  readonly purpose: string
  readonly contentType: string
  readonly bytes: Buffer
}

export interface AvatarStore {
  /**
   * Reads the body (its first bytes checked by `looksRight` before `spend` is called, so a refused picture keeps its
   * ticket), stores it in chunks and, once complete, makes it the user's head portrait (`urlOf` its fileKey) and deletes
   * the pictures it replaces. `spend` returns the ticket's user, or null when the ticket is not valid (nothing stored).
   */
  upload(
    body: ReadableStream<Uint8Array> | null, contentType: string, looksRight: (head: Uint8Array) => boolean,
    spend: () => Promise<{ userId: number; purpose: string } | null>, urlOf: (fileKey: string) => string,
  ): Promise<{ id: number; fileKey: string; url: string } | null>
  /** a complete file by its key (from the cache when it can). */
  byKey(fileKey: string): Promise<StoredFile | null>
}

/**
 * Bytes go to and from the database as base64 text, decoded and encoded by the database: PGlite converts a bytea
 * parameter or result byte by byte on the event loop (a 64 KiB chunk ~40 ms, as base64 ~8 ms).
 */
const asBase64 = (bytes: Uint8Array) => sql<Uint8Array>`decode(${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64')}, 'base64')`

const refuse = (msg: string): DomainError => new DomainError(Status.invalidPayload, msg)

/** Reads a stream in pieces of at least `min` bytes (the last may be shorter); refuses more than `limit` in all. */
const pieces = async function* (body: ReadableStream<Uint8Array> | null, min: number, limit: number): AsyncGenerator<Buffer> {
  if (!body) return
  const reader = body.getReader()
  let parts: Uint8Array[] = []
  let held = 0
  let total = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.length
      if (total > limit) throw refuse(AvatarMsg.size)
      parts.push(value)
      held += value.length
      while (held >= min) {
        const all = Buffer.concat(parts, held)
        yield all.subarray(0, min)
        parts = [all.subarray(min)]
        held -= min
      }
    }
    if (held > 0) yield Buffer.concat(parts, held)
  } finally {
    reader.releaseLock()
    await body.cancel().catch(() => undefined)
  }
}

/** Where a picture's bytes live: its chunk rows, or (one instance over PGlite) a file under the data dir. */
interface Bytes {
  write(fileId: number, fileKey: string, pieces: AsyncIterable<Buffer>): Promise<number>
  read(fileId: number, fileKey: string): Promise<Buffer | null>
  remove(fileKeys: ReadonlyArray<string>): Promise<void>
}

const chunkRows = (db: FilesDb): Bytes => ({
  async write(fileId, _fileKey, pieces) {
    let seq = 0
    let size = 0
    for await (const piece of pieces) {
      await db.insertInto('file_chunks').values({ file_id: fileId, seq: seq++, bytes: asBase64(piece) }).execute()
      size += piece.length
    }
    return size
  },
  async read(fileId) {
    const parts: Buffer[] = []
    // one chunk per query: no query holds the database for a whole picture
    for (let seq = 0; ; seq++) {
      const chunk = await db.selectFrom('file_chunks').select(sql<string>`encode(bytes, 'base64')`.as('b64'))
        .where('file_id', '=', fileId).where('seq', '=', seq).executeTakeFirst()
      if (!chunk) break
      parts.push(Buffer.from(chunk.b64, 'base64'))
    }
    return parts.length === 0 ? null : Buffer.concat(parts)
  },
  // the rows go with their file's row (on delete cascade)
  remove: async () => undefined,
})

/**
 * Files under `dir`, named by their fileKey (random base64url): written and read by the thread pool, so PGlite (which
 * writes on the event loop) never touches the bytes. Pictures stored before this are still read from their chunks.
 */
const filesUnder = (dir: string, db: FilesDb): Bytes => {
  const rows = chunkRows(db)
  const pathOf = (fileKey: string) => join(dir, fileKey)
  return {
    async write(_fileId, fileKey, pieces) {
      await mkdir(dir, { recursive: true })
      return writePieces(pathOf(fileKey), pieces, 'wx')
    },
    async read(fileId, fileKey) {
      try {
        return await readFile(pathOf(fileKey))
      } catch {
        return rows.read(fileId, fileKey)
      }
    },
    async remove(fileKeys) {
      await Promise.all(fileKeys.map((key) => rm(pathOf(key), { force: true })))
    },
  }
}

/**
 * `filesDir`: keep the bytes in files there (a single instance over PGlite); without it they are chunk rows, which
 * every instance over one PostgreSQL database sees.
 */
export const createAvatarStore = (db: FilesDb, filesDir?: string): AvatarStore => {
  const bytes = filesDir ? filesUnder(filesDir, db) : chunkRows(db)
  const cache = new Map<string, { file: StoredFile; at: number }>()
  let cached = 0
  const loading = new Map<string, Promise<StoredFile | null>>()

  const forget = (fileKey: string): void => {
    const hit = cache.get(fileKey)
    if (!hit) return
    cache.delete(fileKey)
    cached -= hit.file.bytes.length
  }
  const remember = (file: StoredFile): void => {
    forget(file.fileKey)
    if (file.bytes.length > CACHE_MAX_BYTES) return
    // least recently used first (a Map keeps insertion order; a hit re-inserts)
    for (const key of cache.keys()) {
      if (cached + file.bytes.length <= CACHE_MAX_BYTES) break
      forget(key)
    }
    cache.set(file.fileKey, { file, at: Date.now() })
    cached += file.bytes.length
  }

  const load = async (fileKey: string): Promise<StoredFile | null> => {
    const row = await db.selectFrom('files').select(['id', 'file_key', 'purpose', 'content_type', 'size'])
      .where('file_key', '=', fileKey).where('complete', '=', true).executeTakeFirst()
    if (!row) return null
    const stored = await bytes.read(row.id, row.file_key)
    if (!stored) return null
    const file = { id: row.id, fileKey: row.file_key, purpose: row.purpose, contentType: row.content_type, bytes: stored }
    remember(file)
    return file
  }

  return {
    async upload(body, contentType, looksRight, spend, urlOf) {
      const stream = pieces(body, AVATAR_CHUNK_BYTES, AVATAR_MAX_BYTES)
      const first = await stream.next()
      if (first.done) throw refuse(AvatarMsg.empty)
      if (!looksRight(first.value)) {
        await stream.return(undefined)
        throw refuse(AvatarMsg.content)
      }
      const owner = await spend()
      if (!owner) {
        await stream.return(undefined)
        return null
      }
      const fileKey = randomBytes(18).toString('base64url')
      const row = await db.insertInto('files').values({
        file_key: fileKey, user_id: owner.userId, purpose: owner.purpose, content_type: contentType, size: 0, complete: false,
      }).returning('id').executeTakeFirstOrThrow()
      const all = async function* (): AsyncGenerator<Buffer> {
        yield first.value
        yield* stream
      }
      let size: number
      try {
        size = await bytes.write(row.id, fileKey, all())
      } catch (error) {
        await db.deleteFrom('files').where('id', '=', row.id).execute()
        throw error
      }
      const url = urlOf(fileKey)
      const replaced = await db.transaction().execute(async (trx) => {
        await trx.updateTable('files').set({ complete: true, size }).where('id', '=', row.id).execute()
        if (owner.purpose !== 'avatar') return []
        // one user's replacements take turns: the last to commit is the head portrait and the only picture kept
        await trx.selectFrom('users').select('id').where('id', '=', owner.userId).forUpdate().execute()
        await accountDb(trx as unknown as Kysely<Database>).insertInto('account_profiles').values({ user_id: owner.userId, head_portrait: url })
          .onConflict((oc) => oc.column('user_id').doUpdateSet({ head_portrait: url })).execute()
        return trx.deleteFrom('files').where('user_id', '=', owner.userId).where('purpose', '=', 'avatar').where('id', '!=', row.id)
          .where((eb) => eb.or([eb('complete', '=', true), eb('created_at', '<', new Date(Date.now() - STALE_UPLOAD_MS))]))
          .returning('file_key').execute()
      })
      for (const r of replaced) forget(r.file_key)
      await bytes.remove(replaced.map((r) => r.file_key))
      return { id: row.id, fileKey, url }
    },

    byKey(fileKey) {
      const hit = cache.get(fileKey)
      if (hit && Date.now() - hit.at < CACHE_TTL_MS) {
        cache.delete(fileKey)
        cache.set(fileKey, hit)
        return Promise.resolve(hit.file)
      }
      if (hit) forget(fileKey)
      // readers of one picture at once share one load
      let pending = loading.get(fileKey)
      if (!pending) {
        pending = load(fileKey).finally(() => loading.delete(fileKey))
        loading.set(fileKey, pending)
      }
      return pending
    },
  }
}

/** The context's answer with a stored file's bytes (content type as stored, long cache: a fileKey never changes). */
export const serveStored = (c: Context, file: StoredFile, download: string | null): Response => {
  c.header('Content-Type', file.contentType)
  c.header('X-Content-Type-Options', 'nosniff')
  // the avatar may be shown by a page of another origin (a dev server): let it embed the image
  c.header('Cross-Origin-Resource-Policy', 'cross-origin')
  c.header('Cache-Control', 'public, max-age=31536000, immutable')
  if (download) c.header('Content-Disposition', `attachment; filename="${download}"`)
  return c.body(new Uint8Array(file.bytes.buffer as ArrayBuffer, file.bytes.byteOffset, file.bytes.length))
}
