// The reference server as the file host (its file host is `{origin}/api`): upload tickets asked for through the core,
// the upload itself (limits and image type checked here too), images by fileKey and downloads in the §7 shape.
// An avatar upload becomes the user's head portrait (stored in chunks, the one it replaces deleted: avatars.ts); files
// of a cloud phone are phone-files.ts's.
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import type { Context } from 'hono'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import { envelope } from '../../worker/protocol/envelope.ts'
import { AVATAR_MAX_BYTES, AVATAR_TYPES, FILE_ID_EMPTY, fileImageUrl, PHONE_FILE_FLAG, PHONE_FILE_MAX_BYTES } from '../../worker/protocol/files.ts'
import type { ServerContext } from '../context.ts'
import { Status } from '../http/errors.ts'
import { failure } from '../http/route.ts'
import { withBodyLimit } from '../http/body-limit.ts'
import { createThrottle, throttleKey } from '../security/throttle.ts'
import { AvatarMsg, createAvatarStore, serveStored } from './avatars.ts'
import { fileHostOf } from './file-host.ts'
import { createPhoneFiles, PHONE_UPLOAD_PATH, PhoneFileMsg, type PhoneFilesSink } from './phone-files.ts'
import { chunkRows, type PhoneFileBytes } from './phone-file-bytes.ts'
import { FILES_PURGE_MS, purgeUploads } from './purge.ts'
import { filesDb } from './tables.ts'

export const UPLOAD_PATH = '/api/document/newFile/upload'
const TICKET_MS = 10 * 60_000

export const FileMsg = {
  ticket: '上传链接无效或已过期，请重新选择图片',
  type: '仅支持 JPG、PNG、WebP 格式的图片',
  size: AvatarMsg.size,
  empty: AvatarMsg.empty,
  content: AvatarMsg.content,
  missing: '文件不存在',
} as const

/** The file's first bytes must be what its type says (a renamed file is refused). */
export const looksLike = (type: string, b: Uint8Array): boolean => {
  if (type === 'image/jpeg') return b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff
  if (type === 'image/png') return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v)
  if (type === 'image/webp') return String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' && String.fromCharCode(...b.subarray(8, 12)) === 'WEBP'
  return false
}

export interface FileRoutesOptions {
  /** where phone-file uploads reach the phone's screen (none: they are only stored). */
  readonly phone?: PhoneFilesSink | undefined
  /** keep avatar bytes in files under the data dir (one instance over PGlite) rather than in chunk rows. */
  readonly avatarsOnDisk?: boolean
  /** where phone files' bytes live (default: chunk rows in the database). */
  readonly phoneFileBytes?: PhoneFileBytes
}

/** Registers the routes and starts the purge of old upload tickets and dead uploads; returns what stops it. */
export const registerFileRoutes = (ctx: ServerContext, options: FileRoutesOptions = {}): (() => void) => {
  const { app, route } = ctx
  const db = filesDb(ctx.db)
  const avatars = createAvatarStore(db, options.avatarsOnDisk ? join(ctx.dataDir, 'files', 'avatars') : undefined)
  const throttle = createThrottle(ctx.db)
  const phoneBytes = options.phoneFileBytes ?? chunkRows(ctx.db)
  const phoneFiles = createPhoneFiles(ctx, db, phoneBytes, options.phone)

  route(app, catalogue.getUploadTicket, async ({ payload, user }) => {
    if (payload.purpose === PHONE_FILE_FLAG) return phoneFiles.issueTicket(user, payload)
    // every avatar ticket counts against the user: uploads are bounded per user (issue 22 finding 4)
    const keys = [throttleKey('avatarUpload', user.id)]
    await throttle.guard(keys)
    await throttle.record(keys)
    const ticket = randomBytes(24).toString('base64url')
    await db.insertInto('upload_tickets').values({ ticket, user_id: user.id, purpose: payload.purpose, expires_at: new Date(Date.now() + TICKET_MS) }).execute()
    return { uploadUrl: `${UPLOAD_PATH}/${ticket}`, maxBytes: AVATAR_MAX_BYTES, types: [...AVATAR_TYPES] }
  })

  app.post(`${UPLOAD_PATH}/:ticket`,
    withBodyLimit({ maxBytes: AVATAR_MAX_BYTES, refuse: (c) => failure(c, Status.invalidPayload, FileMsg.size) }, async (c) => {
      const type = (c.req.header('Content-Type') ?? '').split(';')[0].trim().toLowerCase()
      if (!(AVATAR_TYPES as ReadonlyArray<string>).includes(type)) return failure(c, Status.invalidPayload, FileMsg.type)
      const spend = () => db.updateTable('upload_tickets').set({ used_at: new Date() })
        .where('ticket', '=', c.req.param('ticket') ?? '').where('purpose', '=', 'avatar').where('used_at', 'is', null).where('expires_at', '>', new Date())
        .returning(['user_id', 'purpose']).executeTakeFirst().then((r) => (r ? { userId: r.user_id, purpose: r.purpose } : null))
      const stored = await avatars.upload(c.req.raw.body, type, (head) => looksLike(type, head), spend, (key) => fileImageUrl(fileHostOf(c), key))
      if (!stored) return failure(c, Status.notFound, FileMsg.ticket)
      return c.json(envelope(Status.ok, { fileId: String(stored.id), fileKey: stored.fileKey, url: stored.url }))
    }))

  route(app, catalogue.getPhoneFiles, ({ payload, user, c }) => phoneFiles.list(c, user, payload.userCardId))
  app.post(`${PHONE_UPLOAD_PATH}/:ticket`,
    withBodyLimit({ maxBytes: PHONE_FILE_MAX_BYTES, refuse: (c) => failure(c, Status.invalidPayload, PhoneFileMsg.tooBig) }, (c) => phoneFiles.upload(c)))

  app.get('/api/document/newFile/image', async (c) => {
    const fileKey = (c.req.query('fileKey') ?? '').trim()
    if (!fileKey) return failure(c, Status.invalidPayload, FILE_ID_EMPTY)
    const file = await avatars.byKey(fileKey)
    return file ? serveStored(c, file, null) : failure(c, Status.notFound, FileMsg.missing, null, 404)
  })

  // an empty file id leaves the URL ending in the upload key, with or without the slash
  const emptyId = (c: Context) => failure(c, Status.invalidPayload, FILE_ID_EMPTY)
  app.get('/api/document/newFile/download/:flag/:uploadKey', emptyId)
  app.get('/api/document/newFile/download/:flag/:uploadKey/', emptyId)
  app.get('/api/document/newFile/download/:flag/:uploadKey/:fileId', async (c) => {
    const fileId = c.req.param('fileId').trim()
    if (!fileId) return emptyId(c)
    if (!/^\d{1,10}$/.test(fileId)) return failure(c, Status.notFound, FileMsg.missing, null, 404)
    if (c.req.param('flag') === PHONE_FILE_FLAG) return phoneFiles.download(c, c.req.param('uploadKey'), Number(fileId))
    const file = await avatars.byKey(c.req.param('uploadKey'))
    if (!file || file.id !== Number(fileId) || file.purpose !== c.req.param('flag')) return failure(c, Status.notFound, FileMsg.missing, null, 404)
    return serveStored(c, file, `${file.purpose}-${fileId}.${file.contentType.split('/')[1] ?? 'bin'}`)
  })

  const purge = setInterval(() => void purgeUploads(db, phoneBytes).catch(() => undefined), FILES_PURGE_MS)
  purge.unref()
  return () => clearInterval(purge)
}
