// Upload tickets and dead uploads do not pile up (issue 41 finding 9): every FILES_PURGE_MS each instance deletes the
// tickets UPLOAD_TICKET_RETAIN_MS past their expiry (used or not), and phone-file uploads still writing after
// STALE_UPLOAD_MS (their reserved quota; a new upload to the same phone frees them too), as sessions are purged.
import type { PhoneFileBytes } from './phone-file-bytes.ts'
import { STALE_UPLOAD_MS } from './phone-files.ts'
import type { FilesDb } from './tables.ts'

export const UPLOAD_TICKET_RETAIN_MS = 24 * 60 * 60_000
export const FILES_PURGE_MS = 10 * 60_000

/** Deletes the tickets and dead uploads past their time; how many tickets. */
export const purgeUploads = async (db: FilesDb, bytes: PhoneFileBytes, now = Date.now()): Promise<number> => {
  const dead = await db.deleteFrom('phone_files').where('complete', '=', false).where('created_at', '<', new Date(now - STALE_UPLOAD_MS))
    .returning('id').execute()
  await bytes.remove(dead.map((r) => r.id))
  const rows = await db.deleteFrom('upload_tickets').where('expires_at', '<=', new Date(now - UPLOAD_TICKET_RETAIN_MS))
    .returning('ticket').execute()
  return rows.length
}
