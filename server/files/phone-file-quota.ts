// A phone's file quota (PHONE_FILES_MAX_COUNT files, PHONE_FILES_MAX_BYTES) and its owner's (issue 41 finding 4:
// PHONE_FILES_ACCOUNT_MAX_BYTES over all the account's phones, whoever uploaded), writes in flight included. Checks that
// must not race take turns with `lockPhoneFileQuota` first (in a transaction): the phone's row, then its owner's.
import { sql, type Kysely } from 'kysely'
import { PHONE_FILES_ACCOUNT_MAX_BYTES, PHONE_FILES_MAX_BYTES, PHONE_FILES_MAX_COUNT } from '../../worker/protocol/files.ts'
import type { Database } from '../db/schema.ts'
import { lockDeviceOwner } from '../db/row-locks.ts'
import { DomainError, Status } from '../http/errors.ts'

const MIB = 1024 * 1024

export const QuotaMsg = {
  countFull: `云手机文件数量已达上限（${PHONE_FILES_MAX_COUNT}个）`,
  bytesFull: `云手机文件空间不足（上限${PHONE_FILES_MAX_BYTES / MIB}MB）`,
  accountFull: `账号下云手机文件总空间不足（上限${PHONE_FILES_ACCOUNT_MAX_BYTES / 1024 / MIB}GB）`,
} as const

const core = <DB extends Database>(db: Kysely<DB>): Kysely<Database> => db as unknown as Kysely<Database>

/** Locks the phone's row, then its owner's (devices before users, as everywhere). */
export const lockPhoneFileQuota = async <DB extends Database>(trx: Kysely<DB>, deviceId: number): Promise<void> => {
  const device = await core(trx).selectFrom('devices').select('owner_id').where('id', '=', deviceId).forUpdate().executeTakeFirst()
  if (device) await lockDeviceOwner(trx, device.owner_id)
}

/** Refuses (1001, Chinese) a file of `size` bytes that would take the phone or its owner past a quota. */
export const checkPhoneFileQuota = async <DB extends Database>(db: Kysely<DB>, deviceId: number, size: number): Promise<void> => {
  const { rows } = await sql<{ n: string; bytes: string; account: string }>`
    select
      (select count(*) from phone_files where device_id = ${deviceId}) as n,
      (select coalesce(sum(size), 0) from phone_files where device_id = ${deviceId}) as bytes,
      (select coalesce(sum(f.size), 0) from phone_files f join devices d on d.id = f.device_id
        where d.owner_id = (select owner_id from devices where id = ${deviceId})) as account`.execute(db)
  const usage = rows[0]!
  const refuse = (msg: string) => new DomainError(Status.invalidPayload, msg)
  if (Number(usage.n) + 1 > PHONE_FILES_MAX_COUNT) throw refuse(QuotaMsg.countFull)
  if (Number(usage.bytes) + size > PHONE_FILES_MAX_BYTES) throw refuse(QuotaMsg.bytesFull)
  if (Number(usage.account) + size > PHONE_FILES_ACCOUNT_MAX_BYTES) throw refuse(QuotaMsg.accountFull)
}
