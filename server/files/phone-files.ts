// Files to and from a cloud phone: the upload ticket for one file (caller may use the phone, file and quota checked:
// phone-file-quota.ts), the upload itself streamed into the byte store (phone-file-bytes.ts: a file under the data dir,
// or chunk rows any instance reaches; no request holds a whole file), the phone's file list, and the download by a
// short-lived key for the caller (phone-file-urls.ts), served as served-type.ts says. An uploaded .apk installs on the
// phone. A factory reset and a transfer wipe the phone's files (phone-file-wipe.ts).
import { randomBytes } from 'node:crypto'
import type { Context } from 'hono'
import { envelope } from '../../worker/protocol/envelope.ts'
import {
  fileDownloadUrl, isApk, PHONE_FILE_FLAG, PHONE_FILE_MAX_BYTES, PHONE_FILE_NAME_MAX, PHONE_FILE_NAME_RULE, PHONE_FILES_MAX_COUNT,
  type PhoneFileList, type PhoneFileTicketRequest, type UploadTicket,
} from '../../worker/protocol/files.ts'
import { readsAsStored } from '../../worker/protocol/validators.ts'
import type { AuthUser, ServerContext } from '../context.ts'
import { clusterDb } from '../cluster/tables.ts'
import { sharedSecret } from '../cluster/secrets.ts'
import { accessDevice, requireNotExpired } from '../devices/access.ts'
import { makeClock } from '../devices/clock.ts'
import { devicesDb } from '../devices/tables.ts'
import { DomainError, Status } from '../http/errors.ts'
import { failure } from '../http/route.ts'
import { fileHostOf } from './file-host.ts'
import { TooManyBytes, type PhoneFileBytes } from './phone-file-bytes.ts'
import { checkPhoneFileQuota, lockPhoneFileQuota, QuotaMsg } from './phone-file-quota.ts'
import { createPhoneFileUrls } from './phone-file-urls.ts'
import { PHONE_FILE_SANDBOX, servedType } from './served-type.ts'
import type { FilesDb } from './tables.ts'

/**
 * Where uploads reach the phone's screen (the devices' phone stream, `DeviceRoutes.stream`): every file in its
 * storage, and for an .apk (named as uploaded) an app icon on its launcher. The file is stored whatever they do.
 */
export interface PhoneFilesSink {
  installApp(deviceId: number, name: string): void
  addFile(deviceId: number, name: string, size: number): void
}

export const PHONE_UPLOAD_PATH = '/api/document/newFile/phoneUpload'
const TICKET_MS = 10 * 60_000
/** an upload still writing after this long is taken as dead: its reserved quota is freed. */
export const STALE_UPLOAD_MS = 15 * 60_000
const MIB = 1024 * 1024

export const PhoneFileMsg = {
  ticket: '上传链接无效或已过期，请重新上传',
  tooBig: `单个文件不能超过${PHONE_FILE_MAX_BYTES / MIB}MB`,
  empty: '文件内容为空',
  noName: '文件名不能为空',
  longName: `文件名不能超过${PHONE_FILE_NAME_MAX}个字符`,
  misreading: PHONE_FILE_NAME_RULE,
  ...QuotaMsg,
  sizeMismatch: '文件大小与申请时不符，请重新上传',
  interrupted: '上传中断，请重新上传',
  missing: '文件不存在',
  linkExpired: '下载链接已过期，请刷新文件列表后重试',
} as const

const refuse = (msg: string): DomainError => new DomainError(Status.invalidPayload, msg)

/**
 * The name as stored: no folders or characters a phone's file system refuses; empty and over-long names refused, and
 * names that would read other than stored (controls, bidirectional overrides: the device names' rule) refused.
 */
export const phoneFileName = (raw: string): string => {
  if (!readsAsStored(raw)) throw refuse(PhoneFileMsg.misreading)
  const name = raw.replace(/[\\/:*?"<>|]/g, '_').trim()
  if (name === '' || /^\.+$/.test(name)) throw refuse(PhoneFileMsg.noName)
  if ([...name].length > PHONE_FILE_NAME_MAX) throw refuse(PhoneFileMsg.longName)
  return name
}

const checkSize = (size: number): void => {
  if (size <= 0) throw refuse(PhoneFileMsg.empty)
  if (size > PHONE_FILE_MAX_BYTES) throw refuse(PhoneFileMsg.tooBig)
}

const contentTypeOf = (header: string | undefined): string => {
  const type = (header ?? '').split(';')[0]!.trim().toLowerCase()
  return /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(type) ? type : 'application/octet-stream'
}

/** What a new phone already holds (written the first time its files are listed or added to). */
const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const SEED_FILES: ReadonlyArray<{ name: string; type: string; bytes: Uint8Array }> = [
  { name: '截图_0001.png', type: 'image/png', bytes: Buffer.from(PNG_1x1, 'base64') },
  { name: '下载/说明.txt', type: 'text/plain; charset=utf-8', bytes: Buffer.from('欢迎使用云手机。上传到云手机的文件会出现在这里，也可以下载到本机。\n', 'utf8') },
  { name: '文档/备忘录.txt', type: 'text/plain; charset=utf-8', bytes: Buffer.from('备忘录\n1. 安装应用：上传 .apk 文件即可安装。\n', 'utf8') },
]

const newKey = (): string => randomBytes(24).toString('base64url')

/** `attachment` (or `inline`) with the name's last part, readable by every browser (RFC 6266: an ASCII fallback and UTF-8). */
const disposition = (name: string, inline: boolean): string => {
  const base = name.split('/').pop() || 'file'
  const ascii = base.replace(/[^\x20-\x7e]|["\\%]/g, '_')
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(base)}`
}

export interface PhoneFiles {
  issueTicket(user: AuthUser, request: PhoneFileTicketRequest): Promise<UploadTicket>
  list(c: Context, user: AuthUser, userCardId: number): Promise<PhoneFileList>
  /** POST {PHONE_UPLOAD_PATH}/:ticket */
  upload(c: Context): Promise<Response>
  /** the §7 download of a phone file (flag PHONE_FILE_FLAG). */
  download(c: Context, uploadKey: string, fileId: number): Promise<Response>
}

export const createPhoneFiles = (ctx: ServerContext, db: FilesDb, bytes: PhoneFileBytes, sink: PhoneFilesSink | undefined): PhoneFiles => {
  const devices = devicesDb(ctx.db)
  const clock = makeClock()
  let secret: Promise<string> | null = null
  const urls = createPhoneFileUrls(() => (secret ??= sharedSecret(clusterDb(ctx.db), 'phone-file-url')))

  /** the device the user may use now (owner or grantee, not expired). */
  const usableDevice = async (userId: number, userCardId: number) => {
    const { device } = await accessDevice(devices, userId, userCardId)
    requireNotExpired(device, clock)
    return device
  }

  /** the files a new phone holds: rows in one transaction, their bytes once it committed (the store is not in it). */
  const ensureSeeded = async (deviceId: number): Promise<void> => {
    const made = await db.transaction().execute(async (trx) => {
      const fresh = await trx.insertInto('phone_file_seeds').values({ device_id: deviceId })
        .onConflict((oc) => oc.column('device_id').doNothing()).returning('device_id').executeTakeFirst()
      if (!fresh) return []
      const rows: Array<{ id: number; bytes: Uint8Array }> = []
      for (const f of SEED_FILES) {
        const row = await trx.insertInto('phone_files').values({
          device_id: deviceId, user_id: null, name: f.name, size: f.bytes.length, content_type: f.type, upload_key: newKey(), complete: true,
        }).returning('id').executeTakeFirstOrThrow()
        rows.push({ id: row.id, bytes: f.bytes })
      }
      return rows
    })
    for (const f of made) {
      const body = new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(f.bytes), c.close()) })
      await bytes.write(f.id, body, f.bytes.length)
    }
  }

  /** a row holding the file's place in the quotas while its bytes are written (one phone's and one owner's checks take turns). */
  const reserve = async (deviceId: number, userId: number, name: string, size: number, type: string) => {
    const { file, dead } = await db.transaction().execute(async (trx) => {
      await lockPhoneFileQuota(trx, deviceId)
      const dead = await trx.deleteFrom('phone_files').where('device_id', '=', deviceId).where('complete', '=', false)
        .where('created_at', '<', new Date(Date.now() - STALE_UPLOAD_MS)).returning('id').execute()
      await checkPhoneFileQuota(trx, deviceId, size)
      const file = await trx.insertInto('phone_files').values({ device_id: deviceId, user_id: userId, name, size, content_type: type, upload_key: newKey() })
        .returning('id').executeTakeFirstOrThrow()
      return { file, dead }
    })
    await bytes.remove(dead.map((r) => r.id))
    return file
  }

  const notify = (deviceId: number, name: string, size: number): void => {
    if (!sink) return
    try {
      sink.addFile(deviceId, name, size)
      if (isApk(name)) sink.installApp(deviceId, name)
    } catch {
      // the file is stored; the phone's screen catching up is not the upload's concern
    }
  }

  return {
    async issueTicket(user, request) {
      const device = await usableDevice(user.id, request.userCardId)
      const name = phoneFileName(request.name)
      checkSize(request.size)
      await ensureSeeded(device.id)
      await checkPhoneFileQuota(db, device.id, request.size)
      const ticket = newKey()
      await db.insertInto('upload_tickets').values({
        ticket, user_id: user.id, purpose: PHONE_FILE_FLAG, expires_at: new Date(Date.now() + TICKET_MS),
        device_id: device.id, file_name: name, file_size: request.size,
      }).execute()
      return { uploadUrl: `${PHONE_UPLOAD_PATH}/${ticket}`, maxBytes: PHONE_FILE_MAX_BYTES, types: [] }
    },

    async list(c, user, userCardId) {
      const device = await usableDevice(user.id, userCardId)
      await ensureSeeded(device.id)
      const rows = await db.selectFrom('phone_files').select(['id', 'name', 'size', 'created_at'])
        .where('device_id', '=', device.id).where('complete', '=', true)
        .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(PHONE_FILES_MAX_COUNT).execute()
      // each file with a key for this caller alone, for a few minutes: no file's lasting capability leaves the server
      return {
        fileHost: fileHostOf(c),
        list: await Promise.all(rows.map(async (r) => ({
          fileId: String(r.id), name: r.name, size: r.size, createdAt: new Date(r.created_at).toISOString(),
          flag: PHONE_FILE_FLAG, uploadKey: await urls.keyFor(r.id, user.id),
        }))),
      }
    },

    async upload(c) {
      const spent = await db.updateTable('upload_tickets').set({ used_at: new Date() })
        .where('ticket', '=', c.req.param('ticket') ?? '').where('purpose', '=', PHONE_FILE_FLAG)
        .where('used_at', 'is', null).where('expires_at', '>', new Date())
        .returning(['user_id', 'device_id', 'file_name', 'file_size']).executeTakeFirst()
      if (!spent || spent.device_id === null || spent.file_name === null || spent.file_size === null) {
        return failure(c, Status.notFound, PhoneFileMsg.ticket)
      }
      const size = spent.file_size
      const length = c.req.header('Content-Length')
      if (length !== undefined && Number(length) !== size) return failure(c, Status.invalidPayload, PhoneFileMsg.sizeMismatch)
      // the phone may have been transferred, de-authorised or expired since the ticket
      const card = await devices.selectFrom('devices').select('user_card_id').where('id', '=', spent.device_id).executeTakeFirst()
      if (!card) return failure(c, Status.notFound, PhoneFileMsg.ticket)
      const device = await usableDevice(spent.user_id, card.user_card_id)
      const file = await reserve(device.id, spent.user_id, spent.file_name, size, contentTypeOf(c.req.header('Content-Type')))
      try {
        const written = await bytes.write(file.id, c.req.raw.body, size)
        if (written !== size) throw refuse(written === 0 ? PhoneFileMsg.empty : PhoneFileMsg.sizeMismatch)
        const done = await db.updateTable('phone_files').set({ complete: true, created_at: new Date() }).where('id', '=', file.id)
          .returning('id').executeTakeFirst()
        // wiped meanwhile (a factory reset, a transfer): the bytes go too
        if (!done) throw refuse(PhoneFileMsg.interrupted)
      } catch (error) {
        await db.deleteFrom('phone_files').where('id', '=', file.id).execute()
        await bytes.remove([file.id])
        if (error instanceof TooManyBytes) throw refuse(PhoneFileMsg.sizeMismatch)
        if (error instanceof DomainError) throw error
        return failure(c, Status.invalidPayload, PhoneFileMsg.interrupted)
      }
      notify(device.id, spent.file_name, size)
      const fileId = String(file.id)
      const key = await urls.keyFor(file.id, spent.user_id)
      return c.json(envelope(Status.ok, { fileId, fileKey: key, url: fileDownloadUrl(fileHostOf(c), PHONE_FILE_FLAG, key, fileId) }))
    },

    async download(c, key, fileId) {
      const missing = () => failure(c, Status.notFound, PhoneFileMsg.missing, null, 404)
      const caller = await urls.check(key, fileId)
      if (caller === 'invalid') return missing()
      if (caller === 'expired') return failure(c, Status.notFound, PhoneFileMsg.linkExpired, null, 404)
      const file = await db.selectFrom('phone_files').innerJoin('devices', 'devices.id', 'phone_files.device_id')
        .select(['phone_files.id', 'phone_files.name', 'phone_files.size', 'phone_files.content_type', 'devices.user_card_id'])
        .where('phone_files.id', '=', fileId).where('phone_files.complete', '=', true).executeTakeFirst()
      if (!file) return missing()
      // the key's user must still be one who may use the phone (a transfer or removeAuth since ends it)
      const allowed = await usableDevice(caller.userId, file.user_card_id).then(() => true, (error: unknown) => {
        if (error instanceof DomainError) return false
        throw error
      })
      if (!allowed) return missing()
      const stream = await bytes.read(file.id)
      if (!stream) return missing()
      const served = servedType(file.name, file.content_type)
      c.header('Content-Type', served.contentType)
      c.header('Content-Length', String(file.size))
      c.header('Content-Disposition', disposition(file.name, served.inline))
      c.header('Content-Security-Policy', PHONE_FILE_SANDBOX)
      c.header('X-Content-Type-Options', 'nosniff')
      c.header('Cross-Origin-Resource-Policy', 'cross-origin')
      // the key is the caller's for a few minutes: kept out of every cache
      c.header('Cache-Control', 'private, no-store')
      return c.body(stream)
    },
  }
}
