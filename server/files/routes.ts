// The reference server as the file host (its file host is `{origin}/api`): upload tickets asked for through the core,
// the upload itself (limits and image type checked here too), images by fileKey and downloads in the §7 shape.
// An avatar upload becomes the user's head portrait; files of a cloud phone are phone-files.ts's.
import { randomBytes } from 'node:crypto'
import type { Context } from 'hono'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import { envelope } from '../../worker/protocol/envelope.ts'
import { AVATAR_MAX_BYTES, AVATAR_TYPES, FILE_ID_EMPTY, fileImageUrl, PHONE_FILE_FLAG, PHONE_FILE_MAX_BYTES } from '../../worker/protocol/files.ts'
import type { ServerContext } from '../context.ts'
import { Status } from '../http/errors.ts'
import { failure } from '../http/route.ts'
import { withBodyLimit } from '../http/body-limit.ts'
import { accountDb } from '../account/tables.ts'
import { fileHostOf } from './file-host.ts'
import { createPhoneFiles, PHONE_UPLOAD_PATH, PhoneFileMsg, type PhoneFilesSink } from './phone-files.ts'
import { filesDb } from './tables.ts'

export const UPLOAD_PATH = '/api/document/newFile/upload'
const TICKET_MS = 10 * 60_000

export const FileMsg = {
  ticket: '上传链接无效或已过期，请重新选择图片',
  type: '仅支持 JPG、PNG、WebP 格式的图片',
  size: `图片不能超过${AVATAR_MAX_BYTES / 1024 / 1024}MB`,
  empty: '图片内容为空',
  content: '文件内容与图片格式不符',
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
}

export const registerFileRoutes = (ctx: ServerContext, options: FileRoutesOptions = {}): void => {
  const { app, route } = ctx
  const db = filesDb(ctx.db)
  const profiles = accountDb(ctx.db)
  const phoneFiles = createPhoneFiles(ctx, db, options.phone)

  route(app, catalogue.getUploadTicket, async ({ payload, user }) => {
    if (payload.purpose === PHONE_FILE_FLAG) return phoneFiles.issueTicket(user, payload)
    const ticket = randomBytes(24).toString('base64url')
    await db.insertInto('upload_tickets').values({ ticket, user_id: user.id, purpose: payload.purpose, expires_at: new Date(Date.now() + TICKET_MS) }).execute()
    return { uploadUrl: `${UPLOAD_PATH}/${ticket}`, maxBytes: AVATAR_MAX_BYTES, types: [...AVATAR_TYPES] }
  })

  app.post(`${UPLOAD_PATH}/:ticket`,
    withBodyLimit({ maxBytes: AVATAR_MAX_BYTES, refuse: (c) => failure(c, Status.invalidPayload, FileMsg.size) }, async (c) => {
      const type = (c.req.header('Content-Type') ?? '').split(';')[0].trim().toLowerCase()
      if (!(AVATAR_TYPES as ReadonlyArray<string>).includes(type)) return failure(c, Status.invalidPayload, FileMsg.type)
      const bytes = new Uint8Array(await c.req.arrayBuffer())
      if (bytes.length === 0) return failure(c, Status.invalidPayload, FileMsg.empty)
      if (!looksLike(type, bytes)) return failure(c, Status.invalidPayload, FileMsg.content)
      const spent = await db.updateTable('upload_tickets').set({ used_at: new Date() })
        .where('ticket', '=', c.req.param('ticket') ?? '').where('purpose', '=', 'avatar').where('used_at', 'is', null).where('expires_at', '>', new Date())
        .returning(['user_id', 'purpose']).executeTakeFirst()
      if (!spent) return failure(c, Status.notFound, FileMsg.ticket)
      const fileKey = randomBytes(18).toString('base64url')
      const row = await db.insertInto('files').values({ file_key: fileKey, user_id: spent.user_id, purpose: spent.purpose, content_type: type, size: bytes.length, bytes })
        .returning('id').executeTakeFirstOrThrow()
      const url = fileImageUrl(fileHostOf(c), fileKey)
      if (spent.purpose === 'avatar') {
        await profiles.insertInto('account_profiles').values({ user_id: spent.user_id, head_portrait: url })
          .onConflict((oc) => oc.column('user_id').doUpdateSet({ head_portrait: url })).execute()
      }
      return c.json(envelope(Status.ok, { fileId: String(row.id), fileKey, url }))
    }))

  route(app, catalogue.getPhoneFiles, ({ payload, user, c }) => phoneFiles.list(c, user, payload.userCardId))
  app.post(`${PHONE_UPLOAD_PATH}/:ticket`,
    withBodyLimit({ maxBytes: PHONE_FILE_MAX_BYTES, refuse: (c) => failure(c, Status.invalidPayload, PhoneFileMsg.tooBig) }, (c) => phoneFiles.upload(c)))

  const serve = async (c: Context, file: { content_type: string; bytes: Uint8Array } | undefined, download: string | null) => {
    if (!file) return failure(c, Status.notFound, FileMsg.missing, null, 404)
    c.header('Content-Type', file.content_type)
    c.header('X-Content-Type-Options', 'nosniff')
    // the avatar may be shown by a page of another origin (a dev server): let it embed the image
    c.header('Cross-Origin-Resource-Policy', 'cross-origin')
    c.header('Cache-Control', 'public, max-age=31536000, immutable')
    if (download) c.header('Content-Disposition', `attachment; filename="${download}"`)
    return c.body(Buffer.from(file.bytes))
  }

  app.get('/api/document/newFile/image', async (c) => {
    const fileKey = (c.req.query('fileKey') ?? '').trim()
    if (!fileKey) return failure(c, Status.invalidPayload, FILE_ID_EMPTY)
    return serve(c, await db.selectFrom('files').select(['content_type', 'bytes']).where('file_key', '=', fileKey).executeTakeFirst(), null)
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
    const file = await db.selectFrom('files').select(['content_type', 'bytes', 'file_key']).where('id', '=', Number(fileId))
      .where('purpose', '=', c.req.param('flag')).where('file_key', '=', c.req.param('uploadKey')).executeTakeFirst()
    return serve(c, file, `${c.req.param('flag')}-${fileId}.${file?.content_type.split('/')[1] ?? 'bin'}`)
  })
}
