// A phone's files end with its owner's use of it (issue 41 finding 5): a factory reset and a transfer delete every file
// on it (their bytes with them), its upload tickets and uploads in flight, and it gets the files a new phone comes with
// again when next listed. Runs in the caller's transaction when given one; returns the ids of the files deleted, whose
// bytes the caller removes once that commits (PhoneFileBytes.remove).
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import { filesDb } from './tables.ts'

export const wipePhoneFiles = async <DB extends Database>(db: Kysely<DB>, deviceId: number): Promise<number[]> => {
  // any handle over the core tables (the devices' one, a transaction of it) sees the files tables too
  const files = filesDb(db as unknown as Kysely<Database>)
  await files.deleteFrom('upload_tickets').where('device_id', '=', deviceId).execute()
  // chunk rows go with their rows (on delete cascade)
  const gone = await files.deleteFrom('phone_files').where('device_id', '=', deviceId).returning('id').execute()
  await files.deleteFrom('phone_file_seeds').where('device_id', '=', deviceId).execute()
  return gone.map((r) => r.id)
}
