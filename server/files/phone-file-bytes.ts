// Where a phone file's bytes live (issue 41 finding 4). One instance over PGlite: a file under the data dir, written
// and read as streams by the thread pool, so PGlite (which runs on the event loop: a 20 MiB upload held an unrelated GET
// a median 395 ms) never carries them; the database keeps only the file's row. Several instances over PostgreSQL:
// 256 KiB chunk rows, which every instance reaches. Files stored in chunks before the move are still read from them.
import { writePieces } from './write-pieces.ts'
import { createReadStream } from 'node:fs'
import { link, mkdir, open, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import { filesDb, type FilesDb } from './tables.ts'

/** bytes per stored chunk (the most one request holds of a file at a time, give or take one read). */
const CHUNK_BYTES = 256 * 1024

export class TooManyBytes extends Error {}

export interface PhoneFileBytes {
  /** the body as file `fileId`'s bytes; its length. More than `limit` bytes: TooManyBytes (nothing kept). */
  write(fileId: number, body: ReadableStream<Uint8Array> | null, limit: number): Promise<number>
  /** the bytes as a stream, one piece at a time (null: none stored). */
  read(fileId: number): Promise<ReadableStream<Uint8Array> | null>
  /** file `to` gets the bytes of file `from` (a group copy), through `db` (the caller's transaction). */
  copy<DB extends Database>(from: number, to: number, db: Kysely<DB>): Promise<void>
  /** the bytes of files whose rows were deleted. */
  remove(fileIds: ReadonlyArray<number>): Promise<void>
}

/** A body in pieces of at least CHUNK_BYTES (the last may be shorter); more than `limit` in all: TooManyBytes. */
const pieces = async function* (body: ReadableStream<Uint8Array> | null, limit: number): AsyncGenerator<Buffer> {
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
      if (total > limit) throw new TooManyBytes()
      parts.push(value)
      held += value.length
      if (held >= CHUNK_BYTES) {
        yield Buffer.concat(parts, held)
        parts = []
        held = 0
      }
    }
    if (held > 0) yield Buffer.concat(parts, held)
  } finally {
    await reader.cancel().catch(() => undefined)
  }
}

const core = <DB extends Database>(db: Kysely<DB>): FilesDb => filesDb(db as unknown as Kysely<Database>)

/** Chunk rows in the database (every instance over one PostgreSQL reaches them). */
export const chunkRows = (database: Kysely<Database>): PhoneFileBytes => {
  const db = filesDb(database)
  return {
    async write(fileId, body, limit) {
      let seq = 0
      let size = 0
      for await (const piece of pieces(body, limit)) {
        await db.insertInto('phone_file_chunks').values({ file_id: fileId, seq: seq++, bytes: piece }).execute()
        size += piece.length
      }
      return size
    },
    async read(fileId) {
      const first = await db.selectFrom('phone_file_chunks').select('seq').where('file_id', '=', fileId).where('seq', '=', 0).executeTakeFirst()
      if (!first) return null
      let seq = 0
      // one chunk read from the database per pull: memory stays at a chunk whatever the file's size
      return new ReadableStream<Uint8Array>({
        pull: async (controller) => {
          const chunk = await db.selectFrom('phone_file_chunks').select('bytes').where('file_id', '=', fileId).where('seq', '=', seq++).executeTakeFirst()
          if (chunk) controller.enqueue(new Uint8Array(chunk.bytes))
          else controller.close()
        },
      })
    },
    async copy(from, to, trx) {
      await core(trx).insertInto('phone_file_chunks').columns(['file_id', 'seq', 'bytes'])
        .expression((eb) => eb.selectFrom('phone_file_chunks').select([eb.val(to).as('file_id'), 'seq', 'bytes']).where('file_id', '=', from))
        .execute()
    },
    // the rows go with their file's row (on delete cascade)
    remove: async () => undefined,
  }
}

/**
 * Files under `dir` named by the file's id, written once and never changed: a group copy is a hard link (no bytes
 * copied), and deleting one name leaves the others. Bytes stored in chunk rows before are read from there.
 */
export const filesUnder = (dir: string, database: Kysely<Database>): PhoneFileBytes => {
  const rows = chunkRows(database)
  const pathOf = (fileId: number) => join(dir, String(fileId))
  return {
    async write(fileId, body, limit) {
      await mkdir(dir, { recursive: true })
      return writePieces(pathOf(fileId), pieces(body, limit), 'w')
    },
    async read(fileId) {
      const handle = await open(pathOf(fileId), 'r').catch(() => null)
      if (!handle) return rows.read(fileId)
      const stream = createReadStream('', { fd: handle, highWaterMark: CHUNK_BYTES })
      return Readable.toWeb(stream) as ReadableStream<Uint8Array>
    },
    async copy(from, to, trx) {
      try {
        await link(pathOf(from), pathOf(to))
      } catch {
        await rows.copy(from, to, trx)
      }
    },
    async remove(fileIds) {
      await Promise.all(fileIds.map((id) => rm(pathOf(id), { force: true })))
    },
  }
}
