// Fetching a file from the file host into the tab (XHR for its progress, the §9 download timeout, cancellable) and
// saving it on the customer's device under its name.
import { DOWNLOAD_TIMEOUT_MS } from '../../../worker/protocol/files.ts'
import { zhCN } from '../../i18n/zh-CN.ts'
import { resolveHttpUrl } from '../../../worker/protocol/domain.ts'
import { parseEnvelope } from './upload.ts'

const t = zhCN.files

export type DownloadOutcome = { ok: true; blob: Blob } | { ok: false; msg: string; cancelled?: true }

/** GETs `url` (resolved against this page; http(s) only) as a Blob, reporting progress 0..100 when the size is known. */
export const downloadFile = (url: string, onProgress: (percent: number) => void, signal?: AbortSignal): Promise<DownloadOutcome> =>
  new Promise((resolve) => {
    const target = resolveHttpUrl(url, window.location.href)
    if (!target) return resolve({ ok: false, msg: t.downloadFailed })
    if (signal?.aborted) return resolve({ ok: false, msg: t.cancelled, cancelled: true })
    const xhr = new XMLHttpRequest()
    xhr.open('GET', target)
    xhr.responseType = 'blob'
    xhr.timeout = DOWNLOAD_TIMEOUT_MS
    xhr.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100))
    const cancel = () => xhr.abort()
    signal?.addEventListener('abort', cancel, { once: true })
    const settle = (outcome: DownloadOutcome) => {
      signal?.removeEventListener('abort', cancel)
      resolve(outcome)
    }
    xhr.onload = () => {
      const blob = xhr.response as Blob
      if (xhr.status === 200) {
        onProgress(100)
        return settle({ ok: true, blob })
      }
      // a refusal is the usual envelope: its msg is the reason
      void blob.text().then(
        (text) => {
          const body = parseEnvelope(text)
          settle({ ok: false, msg: typeof body?.msg === 'string' && body.msg ? body.msg : t.downloadFailed })
        },
        () => settle({ ok: false, msg: t.downloadFailed }),
      )
    }
    xhr.ontimeout = () => settle({ ok: false, msg: t.downloadTimeout })
    xhr.onerror = () => settle({ ok: false, msg: t.downloadFailed })
    xhr.onabort = () => settle({ ok: false, msg: t.cancelled, cancelled: true })
    xhr.send()
  })

/** Saves the blob as a download named after the file's last path part (characters file systems refuse replaced). */
export const saveBlob = (blob: Blob, name: string): void => {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = (name.split('/').pop() || 'file').replace(/[\\/:*?"<>|]/g, '_')
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
