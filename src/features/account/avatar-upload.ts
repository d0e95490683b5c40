// Choosing and uploading an avatar: the file checked here first (type, size), then a ticket asked for through the
// core, then the bytes sent to the ticket's URL with progress and the §9 upload timeout. The server checks again.
import { AVATAR_MAX_BYTES, AVATAR_TYPES, UPLOAD_TIMEOUT_MS, type UploadedFile } from '../../../worker/protocol/files.ts'
import { zhCN } from '../../i18n/zh-CN.ts'
import { resolveHttpUrl } from '../../lib/http-url.ts'

const t = zhCN.files

/** null if the file may be uploaded as an avatar, else the Chinese reason. */
export const avatarFileProblem = (file: { type: string; size: number }): string | null => {
  if (!(AVATAR_TYPES as ReadonlyArray<string>).includes(file.type)) return t.avatarType
  if (file.size === 0) return t.avatarEmpty
  if (file.size > AVATAR_MAX_BYTES) return t.avatarSize
  return null
}

const parseEnvelope = (text: string): { status?: unknown; msg?: unknown; data?: unknown } | null => {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null ? value : null
  } catch {
    return null
  }
}

export type UploadOutcome = { ok: true; file: UploadedFile } | { ok: false; msg: string }

/** POSTs the file's bytes to `uploadUrl` (resolved against this page; http(s) only), reporting progress 0..100. */
export const uploadFile = (uploadUrl: string, file: Blob, onProgress: (percent: number) => void): Promise<UploadOutcome> =>
  new Promise((resolve) => {
    const target = resolveHttpUrl(uploadUrl, window.location.href)
    if (!target) return resolve({ ok: false, msg: t.uploadFailed })
    const xhr = new XMLHttpRequest()
    xhr.open('POST', target)
    xhr.timeout = UPLOAD_TIMEOUT_MS
    xhr.setRequestHeader('Content-Type', file.type)
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100))
    xhr.onload = () => {
      const body = parseEnvelope(xhr.responseText)
      if (xhr.status === 200 && body?.status === 0 && body.data && typeof body.data === 'object') {
        onProgress(100)
        return resolve({ ok: true, file: body.data as UploadedFile })
      }
      resolve({ ok: false, msg: typeof body?.msg === 'string' && body.msg ? body.msg : t.uploadFailed })
    }
    xhr.ontimeout = () => resolve({ ok: false, msg: t.uploadTimeout })
    xhr.onerror = () => resolve({ ok: false, msg: t.uploadFailed })
    xhr.send(file)
  })
