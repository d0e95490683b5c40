// Sending a file's bytes from the tab straight to an upload ticket's URL (the core's JSON calls carry no bytes or
// progress): XHR with upload progress, the §9 upload timeout, cancellable, the envelope read as the core would.
import { UPLOAD_TIMEOUT_MS, type UploadedFile } from '../../../worker/protocol/files.ts'
import { zhCN } from '../../i18n/zh-CN.ts'
import { resolveHttpUrl } from '../../../worker/protocol/domain.ts'

const t = zhCN.files

/** An envelope `{status, msg, data}` from a response text, or null. */
export const parseEnvelope = (text: string): { status?: unknown; msg?: unknown; data?: unknown } | null => {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null ? value : null
  } catch {
    return null
  }
}

export type UploadOutcome = { ok: true; file: UploadedFile } | { ok: false; msg: string; cancelled?: true }

/**
 * POSTs the file's bytes to `uploadUrl` (resolved against this page; http(s) only), reporting progress 0..100.
 * Aborting `signal` cancels it (the outcome says so).
 */
export const uploadFile = (uploadUrl: string, file: Blob, onProgress: (percent: number) => void, signal?: AbortSignal): Promise<UploadOutcome> =>
  new Promise((resolve) => {
    const target = resolveHttpUrl(uploadUrl, window.location.href)
    if (!target) return resolve({ ok: false, msg: t.uploadFailed })
    if (signal?.aborted) return resolve({ ok: false, msg: t.cancelled, cancelled: true })
    const xhr = new XMLHttpRequest()
    xhr.open('POST', target)
    xhr.timeout = UPLOAD_TIMEOUT_MS
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream')
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100))
    const cancel = () => xhr.abort()
    signal?.addEventListener('abort', cancel, { once: true })
    const settle = (outcome: UploadOutcome) => {
      signal?.removeEventListener('abort', cancel)
      resolve(outcome)
    }
    xhr.onload = () => {
      const body = parseEnvelope(xhr.responseText)
      if (xhr.status === 200 && body?.status === 0 && body.data && typeof body.data === 'object') {
        onProgress(100)
        return settle({ ok: true, file: body.data as UploadedFile })
      }
      settle({ ok: false, msg: typeof body?.msg === 'string' && body.msg ? body.msg : t.uploadFailed })
    }
    xhr.ontimeout = () => settle({ ok: false, msg: t.uploadTimeout })
    xhr.onerror = () => settle({ ok: false, msg: t.uploadFailed })
    xhr.onabort = () => settle({ ok: false, msg: t.cancelled, cancelled: true })
    xhr.send(file)
  })
